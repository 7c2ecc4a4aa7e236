/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: host threads that run the SMs (simt-sm-threads.c).
 */
#ifndef HW_SIMT_SIMT_SM_THREADS_H
#define HW_SIMT_SIMT_SM_THREADS_H

#include "qemu/thread.h"

/* The host's cache line, which state written by two threads must not share. */
#define SIMT_CACHE_LINE         64

/* The most host threads the threads property may ask for. */
#define SIMT_MAX_SM_THREADS     64

typedef struct SimtState SimtState;
/*
 * A part of what a phase does with SM @sm; true once it is all done,
 * false if more is left, which any thread may go on with.
 */
typedef bool SimtSmPhaseFn(SimtState *s, uint32_t sm, void *opaque);

typedef struct SimtSmWorker {
    QemuThread thread;
    SimtState *s;
    uint32_t self;              /* its number: the main loop's thread is 0 */
} SimtSmWorker;

/*
 * Who runs an SM, in a cache line of its own: the thread that takes an
 * SM of its own then writes a line no other thread reads, unless it
 * falls behind.
 */
typedef struct SimtSmClaim {
    uint32_t done;              /* the last round its phase was all done in */
    uint32_t busy;              /* a thread runs a part of it */
    char pad[SIMT_CACHE_LINE - 2 * sizeof(uint32_t)];
} SimtSmClaim;

typedef struct SimtSmThreads {
    uint32_t count;             /* the threads property */
    SimtSmWorker *workers;      /* count - 1: the main loop's is the first */
    SimtSmClaim *taken;         /* per SM */
    QemuEvent wake;             /* set when a round starts (or @stop) */
    QemuEvent done;             /* set when the round's last SM is done */
    bool stop;
    /*
     * The round under way, which the workers spin on, a cache line away
     * from the rest and from what the threads write as they finish SMs.
     * (Padding: an aligned member would need an aligned SimtState.)
     */
    char pad_round[SIMT_CACHE_LINE];
    uint32_t round;             /* phases started */
    SimtSmPhaseFn *fn;
    void *opaque;
    char pad_done[SIMT_CACHE_LINE];
    uint32_t sms_done;          /* SMs done, all rounds, atomically */
    char pad_end[SIMT_CACHE_LINE];
} SimtSmThreads;

/* At realize: is the property within its limits? */
bool simt_sm_threads_check(SimtState *s, Error **errp);
/* At the end of realize: start the workers. */
void simt_sm_threads_start(SimtState *s);
/* At unrealize: stop and join them. */
void simt_sm_threads_free(SimtState *s);
/*
 * A phase: @fn(@s, sm, @opaque) for every SM until it returns true, on
 * this thread and, with @wake_workers, the workers; returns once every
 * SM's is done.
 */
void simt_sm_threads_each(SimtState *s, SimtSmPhaseFn *fn, void *opaque,
                          bool wake_workers);

#endif /* HW_SIMT_SIMT_SM_THREADS_H */
