/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: host threads that run the SMs (the threads property).  The main
 * loop's thread and threads - 1 workers take the SMs of a phase in turn
 * and run simt-sm.c's function for each; the phase ends when all are
 * done, so the workers never run while anything else of the device
 * does.  simt-sm.c says what a phase is; docs/specs/simt.rst, "Several
 * host threads", what more than one thread changes.
 */

#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qapi/error.h"
#include "simt.h"

struct SimtSmWorker {
    SimtState *s;
    QemuThread thread;
    QemuSemaphore go;           /* a phase starts, or @stop */
    bool stop;
};

/* Run the phase's SMs that are left, one at a time. */
static void run_share(SimtState *s)
{
    SimtSmThreads *t = &s->sm_threads;
    uint32_t nsm = simt_cfg(s, SIMT_CFG_SM_COUNT);
    uint32_t i;

    while ((i = qatomic_fetch_inc(&t->next_sm)) < nsm) {
        t->fn(s, i, t->opaque);
    }
}

static void *worker_main(void *opaque)
{
    SimtSmWorker *w = opaque;

    for (;;) {
        qemu_sem_wait(&w->go);
        if (w->stop) {
            return NULL;
        }
        run_share(w->s);
        qemu_sem_post(&w->s->sm_threads.done);
    }
}

void simt_sm_threads_each(SimtState *s, SimtSmPhaseFn *fn, void *opaque,
                          uint32_t helpers)
{
    SimtSmThreads *t = &s->sm_threads;

    helpers = MIN(helpers, t->count - 1);
    t->fn = fn;
    t->opaque = opaque;
    t->next_sm = 0;
    /* The semaphores order the phase's writes before and after it. */
    for (uint32_t w = 0; w < helpers; w++) {
        qemu_sem_post(&t->workers[w].go);
    }
    run_share(s);
    for (uint32_t w = 0; w < helpers; w++) {
        qemu_sem_wait(&t->done);
    }
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

    if (t->count == 1) {
        return;
    }
    t->workers = g_new0(SimtSmWorker, t->count - 1);
    qemu_sem_init(&t->done, 0);
    for (uint32_t w = 0; w < t->count - 1; w++) {
        SimtSmWorker *wk = &t->workers[w];
        g_autofree char *name = g_strdup_printf("simt-sm/%u", w + 1);

        wk->s = s;
        qemu_sem_init(&wk->go, 0);
        qemu_thread_create(&wk->thread, name, worker_main, wk,
                           QEMU_THREAD_JOINABLE);
    }
}

void simt_sm_threads_free(SimtState *s)
{
    SimtSmThreads *t = &s->sm_threads;

    if (!t->workers) {
        return;
    }
    for (uint32_t w = 0; w < t->count - 1; w++) {
        t->workers[w].stop = true;
        qemu_sem_post(&t->workers[w].go);
        qemu_thread_join(&t->workers[w].thread);
        qemu_sem_destroy(&t->workers[w].go);
    }
    qemu_sem_destroy(&t->done);
    g_free(t->workers);
    t->workers = NULL;
}
