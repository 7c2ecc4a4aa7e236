/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: host threads that run the SMs (simt-sm-threads.c).
 */
#ifndef HW_SIMT_SIMT_SM_THREADS_H
#define HW_SIMT_SIMT_SM_THREADS_H

#include "qemu/thread.h"

/* The most host threads the threads property may ask for. */
#define SIMT_MAX_SM_THREADS     64

typedef struct SimtState SimtState;
/* What a phase does with SM @sm. */
typedef void SimtSmPhaseFn(SimtState *s, uint32_t sm, void *opaque);

typedef struct SimtSmThreads {
    uint32_t count;             /* the threads property */
    QemuThread *workers;        /* count - 1: the main loop's is the first */
    QemuEvent wake;             /* set when a phase starts (or @stop) */
    QemuEvent done;             /* set when the phase's last SM is done */
    bool stop;
    /* The phase under way. */
    uint32_t phase;             /* phases started */
    SimtSmPhaseFn *fn;
    void *opaque;
    uint32_t next_sm;           /* the next SM to take, atomically */
    uint32_t sms_done;          /* SMs of the phase done, atomically */
} SimtSmThreads;

/* At realize: is the property within its limits? */
bool simt_sm_threads_check(SimtState *s, Error **errp);
/* At the end of realize: start the workers. */
void simt_sm_threads_start(SimtState *s);
/* At unrealize: stop and join them. */
void simt_sm_threads_free(SimtState *s);
/*
 * A phase: @fn(@s, sm, @opaque) for every SM, on this thread and, with
 * @wake_workers, the workers; returns once every call has.
 */
void simt_sm_threads_each(SimtState *s, SimtSmPhaseFn *fn, void *opaque,
                          bool wake_workers);

#endif /* HW_SIMT_SIMT_SM_THREADS_H */
