/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: host threads that run the SMs (the threads property).  The main
 * loop's thread and threads - 1 workers take the SMs of a phase in turn
 * and run simt-sm.c's function for each; the phase ends when every SM
 * is done, so the workers never run while anything else of the device
 * does.  simt-sm.c says what a phase is; docs/specs/simt.rst, "Several
 * host threads", what more than one thread changes.
 *
 * A slice's phase takes tens of microseconds of host time, about what
 * waking a sleeping thread costs: so a worker spins for a while after
 * its phase before it sleeps, and so does the main loop's thread waiting
 * for the workers' last SM.
 */

#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/processor.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "simt.h"

/* How long a thread spins for the next phase or its end, host ns. */
#define SIMT_SM_SPIN_NS         50000

/* Take SMs of the phase until none is left. */
static void run_share(SimtState *s)
{
    SimtSmThreads *t = &s->sm_threads;
    uint32_t nsm = simt_cfg(s, SIMT_CFG_SM_COUNT);
    uint32_t i;

    while ((i = qatomic_fetch_inc(&t->next_sm)) < nsm) {
        t->fn(s, i, t->opaque);
        if (qatomic_fetch_inc(&t->sms_done) + 1 == nsm) {
            qemu_event_set(&t->done);
        }
    }
}

/*
 * Wait until @ready(@t, @arg): spin, then sleep on @ev, which whoever
 * makes it true sets afterwards.
 */
static void spin_then_wait(SimtSmThreads *t, QemuEvent *ev,
                           bool (*ready)(SimtSmThreads *t, uint32_t arg),
                           uint32_t arg)
{
    int64_t until = get_clock() + SIMT_SM_SPIN_NS;

    for (unsigned n = 1; !ready(t, arg); n++) {
        if (n % 64 == 0 && get_clock() > until) {
            qemu_event_reset(ev);
            if (!ready(t, arg)) {
                qemu_event_wait(ev);
            }
        } else {
            cpu_relax();
        }
    }
}

static bool phase_started(SimtSmThreads *t, uint32_t seen)
{
    return qatomic_load_acquire(&t->phase) != seen;
}

static bool phase_done(SimtSmThreads *t, uint32_t nsm)
{
    return qatomic_load_acquire(&t->sms_done) == nsm;
}

static void *worker_main(void *opaque)
{
    SimtState *s = opaque;
    SimtSmThreads *t = &s->sm_threads;
    uint32_t seen = qatomic_load_acquire(&t->phase);

    for (;;) {
        spin_then_wait(t, &t->wake, phase_started, seen);
        seen = qatomic_load_acquire(&t->phase);
        if (qatomic_read(&t->stop)) {
            return NULL;
        }
        run_share(s);
    }
}

void simt_sm_threads_each(SimtState *s, SimtSmPhaseFn *fn, void *opaque,
                          bool wake_workers)
{
    SimtSmThreads *t = &s->sm_threads;
    uint32_t nsm = simt_cfg(s, SIMT_CFG_SM_COUNT);

    t->fn = fn;
    t->opaque = opaque;
    qatomic_set(&t->sms_done, 0);
    /*
     * A worker late from the phase before may take an SM of this one as
     * soon as next_sm is 0: fn and opaque are in place by then.
     */
    qatomic_store_release(&t->next_sm, 0);
    if (wake_workers) {
        qatomic_store_release(&t->phase, t->phase + 1);
        qemu_event_set(&t->wake);
    }
    run_share(s);
    spin_then_wait(t, &t->done, phase_done, nsm);
}

bool simt_sm_threads_check(SimtState *s, Error **errp)
{
    uint32_t count = s->sm_threads.count;

    if (count < 1 || count > SIMT_MAX_SM_THREADS) {
        error_setg(errp, "simt: threads must be between 1 and %u, not %u",
                   SIMT_MAX_SM_THREADS, count);
        return false;
    }
    return true;
}

void simt_sm_threads_start(SimtState *s)
{
    SimtSmThreads *t = &s->sm_threads;

    qemu_event_init(&t->wake, false);
    qemu_event_init(&t->done, false);
    t->workers = g_new0(QemuThread, t->count - 1);
    for (uint32_t w = 0; w < t->count - 1; w++) {
        g_autofree char *name = g_strdup_printf("simt-sm/%u", w + 1);

        qemu_thread_create(&t->workers[w], name, worker_main, s,
                           QEMU_THREAD_JOINABLE);
    }
}

void simt_sm_threads_free(SimtState *s)
{
    SimtSmThreads *t = &s->sm_threads;

    qatomic_set(&t->stop, true);
    qatomic_store_release(&t->phase, t->phase + 1);
    qemu_event_set(&t->wake);
    for (uint32_t w = 0; w < t->count - 1; w++) {
        qemu_thread_join(&t->workers[w]);
    }
    qemu_event_destroy(&t->wake);
    qemu_event_destroy(&t->done);
    g_free(t->workers);
    t->workers = NULL;
}
