/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: host threads that run the SMs (the threads property).  The main
 * loop's thread and threads - 1 workers take the SMs of a phase in turn
 * and run simt-sm.c's function for each, in parts that any thread may
 * go on with; the phase ends when every SM is done, so the workers never
 * run while anything else of the device does.  simt-sm.c says what a
 * phase is; docs/specs/simt.rst, "Several host threads", what more than
 * one thread changes.
 *
 * A slice's phase takes tens of microseconds of host time, about what
 * waking a sleeping thread costs: so a worker spins for a while after
 * its phase before it sleeps, and so does the main loop's thread waiting
 * for the workers' last SM.
 */

#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/memalign.h"
#include "qemu/processor.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "simt.h"

/* How long a thread spins for the next phase or its end, host ns. */
#define SIMT_SM_SPIN_NS         50000

/* Is SM @i's phase of round @round all done (by any thread)? */
static bool sm_done(SimtSmThreads *t, uint32_t i, uint32_t round)
{
    /* Rounds wrap: a thread late from the round before sees a later one. */
    return (int32_t)(qatomic_read(&t->taken[i].done) - round) >= 0;
}

typedef enum SimtSmRun {
    SIMT_SM_RAN_NONE,           /* taken by another thread, or done */
    SIMT_SM_RAN_PART,           /* more is left of it */
    SIMT_SM_RAN_DONE,           /* this part was its last */
} SimtSmRun;

/* Run a part of SM @i's phase of round @round, unless it is taken. */
static SimtSmRun run_sm(SimtState *s, uint32_t i, uint32_t round)
{
    SimtSmThreads *t = &s->sm_threads;
    SimtSmClaim *c = &t->taken[i];
    bool done;

    if (sm_done(t, i, round) || qatomic_read(&c->busy) ||
        qatomic_cmpxchg(&c->busy, 0, 1) != 0) {
        return SIMT_SM_RAN_NONE;
    }
    /* Another thread may have run its last part since the test above. */
    done = !sm_done(t, i, round) && t->fn(s, i, t->opaque);
    if (done) {
        qatomic_set(&c->done, round);
    }
    qatomic_store_release(&c->busy, 0);
    return done ? SIMT_SM_RAN_DONE : SIMT_SM_RAN_PART;
}

/* Run a part of SM @i unless it is taken, counting it in *@ran, *@done. */
static bool try_sm(SimtState *s, uint32_t i, uint32_t round, uint32_t *ran,
                   uint32_t *done)
{
    SimtSmRun r = run_sm(s, i, round);

    if (r == SIMT_SM_RAN_NONE) {
        return false;
    }
    *ran = i;
    *done += r == SIMT_SM_RAN_DONE;
    return true;
}

/*
 * Run a part of the first SM of round @round not taken: thread @self's
 * own first (SM i is thread i % count's), then any other, from the last,
 * which their own threads reach last; the SM of the part it ran last,
 * @last, after all of those, so that a thread with nothing else to run
 * may take it over.  Its number in *@ran, or false if none was left.
 */
static bool run_next(SimtState *s, uint32_t self, uint32_t round,
                     uint32_t last, uint32_t *ran, uint32_t *done)
{
    SimtSmThreads *t = &s->sm_threads;
    uint32_t nsm = simt_cfg(s, SIMT_CFG_SM_COUNT);

    for (uint32_t i = self; i < nsm; i += t->count) {
        if (i != last && try_sm(s, i, round, ran, done)) {
            return true;
        }
    }
    for (uint32_t i = nsm; i-- > 0;) {
        if (i % t->count != self && i != last &&
            try_sm(s, i, round, ran, done)) {
            return true;
        }
    }
    return last < nsm && try_sm(s, last, round, ran, done);
}

/* Is every SM's phase of round @round done? */
static bool round_all_done(SimtSmThreads *t, uint32_t nsm, uint32_t round)
{
    for (uint32_t i = 0; i < nsm; i++) {
        if (!sm_done(t, i, round)) {
            return false;
        }
    }
    return true;
}

/*
 * Run parts of the round's SMs until every SM's phase is done.  An SM's
 * state (its blocks' registers, up to some hundred KiB) stays in the
 * cache of the core that ran it: so an SM stays on one thread from part
 * to part and phase to phase unless that thread falls behind, when a
 * thread that has run all of its own takes the parts left of the
 * others'.  A thread late from the round before runs nothing: every SM
 * of its round is done.
 */
static void run_share(SimtState *s, uint32_t self)
{
    SimtSmThreads *t = &s->sm_threads;
    uint32_t round = qatomic_load_acquire(&t->round);
    uint32_t nsm = simt_cfg(s, SIMT_CFG_SM_COUNT);
    uint32_t done = 0, last = UINT32_MAX;

    while (!round_all_done(t, nsm, round)) {
        if (!run_next(s, self, round, last, &last, &done)) {
            /* The SMs left are on other threads: one may come free. */
            cpu_relax();
        }
    }
    /* Once per thread and round: the count's line moves at each add. */
    if (done && qatomic_add_fetch(&t->sms_done, done) == round * nsm) {
        qemu_event_set(&t->done);
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

static bool round_started(SimtSmThreads *t, uint32_t seen)
{
    return qatomic_load_acquire(&t->round) != seen;
}

static bool round_done(SimtSmThreads *t, uint32_t sms_done)
{
    return qatomic_load_acquire(&t->sms_done) == sms_done;
}

static void *worker_main(void *opaque)
{
    SimtSmWorker *w = opaque;
    SimtSmThreads *t = &w->s->sm_threads;
    uint32_t seen = qatomic_load_acquire(&t->round);

    for (;;) {
        spin_then_wait(t, &t->wake, round_started, seen);
        seen = qatomic_load_acquire(&t->round);
        if (qatomic_read(&t->stop)) {
            return NULL;
        }
        run_share(w->s, w->self);
    }
}

void simt_sm_threads_each(SimtState *s, SimtSmPhaseFn *fn, void *opaque,
                          bool wake_workers)
{
    SimtSmThreads *t = &s->sm_threads;
    uint32_t nsm = simt_cfg(s, SIMT_CFG_SM_COUNT);

    /*
     * A worker still spinning sees the new round, woken or not, and may
     * take an SM of it: fn and opaque are in place by then.  Stores to
     * the line it spins on cost a transfer each: the same ones are not
     * stored again, and the SMs done count on from round to round.
     */
    if (t->fn != fn || t->opaque != opaque) {
        t->fn = fn;
        t->opaque = opaque;
    }
    qatomic_store_release(&t->round, t->round + 1);
    if (wake_workers) {
        qemu_event_set(&t->wake);
    }
    run_share(s, 0);
    spin_then_wait(t, &t->done, round_done, t->round * nsm);
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
    t->taken = qemu_memalign(SIMT_CACHE_LINE,
                             simt_cfg(s, SIMT_CFG_SM_COUNT) *
                             sizeof(SimtSmClaim));
    memset(t->taken, 0, simt_cfg(s, SIMT_CFG_SM_COUNT) * sizeof(SimtSmClaim));
    t->workers = g_new0(SimtSmWorker, t->count - 1);
    for (uint32_t w = 0; w < t->count - 1; w++) {
        g_autofree char *name = g_strdup_printf("simt-sm/%u", w + 1);

        t->workers[w].s = s;
        t->workers[w].self = w + 1;
        qemu_thread_create(&t->workers[w].thread, name, worker_main,
                           &t->workers[w], QEMU_THREAD_JOINABLE);
    }
}

void simt_sm_threads_free(SimtState *s)
{
    SimtSmThreads *t = &s->sm_threads;

    qatomic_set(&t->stop, true);
    qatomic_store_release(&t->round, t->round + 1);
    qemu_event_set(&t->wake);
    for (uint32_t w = 0; w < t->count - 1; w++) {
        qemu_thread_join(&t->workers[w].thread);
    }
    qemu_event_destroy(&t->wake);
    qemu_event_destroy(&t->done);
    g_free(t->workers);
    t->workers = NULL;
    qemu_vfree(t->taken);
    t->taken = NULL;
}
