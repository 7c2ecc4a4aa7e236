/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the slice engine.  Device time advances in slices of cycles,
 * each run when virtual time reaches its end (a timer) or when a
 * register access needs the slice engine's present: queues fetch
 * commands, the preemption engine and the scheduler act, SMs and copy
 * engines run the slice.
 */

#include "qemu/osdep.h"
#include "qemu/timer.h"
#include "system/cpu-timers.h"
#include "system/qtest.h"
#include "hw/qdev-core.h"
#include "simt.h"
#include "simt-queue.h"
#include "simt-sched.h"
#include "simt-preempt.h"
#include "simt-sm.h"
#include "simt-dma.h"
#include "simt-slice.h"
#include "simt-event.h"

uint64_t simt_now_cycle(SimtState *s)
{
    int64_t ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) - s->slice.time_base_ns;

    return muldiv64(ns, simt_cfg(s, SIMT_CFG_CLOCK_MHZ), 1000);
}

/* Virtual time at which device cycle @cycle begins (rounded up). */
static int64_t simt_cycle_to_ns(SimtState *s, uint64_t cycle)
{
    uint32_t mhz = simt_cfg(s, SIMT_CFG_CLOCK_MHZ);

    return s->slice.time_base_ns + muldiv64(cycle, 1000, mhz) +
           (muldiv64(cycle, 1000, mhz) * mhz < cycle * 1000);
}

/*
 * Where a slice that starts now ends: shorter while blocks are saved, and
 * at the cycle a saved block leaves its SM, so that its room is free from
 * that cycle.
 */
static uint64_t simt_slice_end(SimtState *s)
{
    if (!simt_preempt_busy(s)) {
        return s->slice.start + SIMT_SLICE_CYCLES;
    }
    return MIN(s->slice.start + SIMT_PREEMPT_SLICE_CYCLES,
               simt_preempt_next_leave(s, s->slice.start));
}

/*
 * With threads > 1 and run-ahead, how far the SMs may run in the phases
 * of the slice [@start, @end) (simt-sm.c): on past its end, ahead of
 * the slice engine and of virtual time, when the slice boundaries on the
 * way would change nothing on the SMs but by blocks retiring, which
 * retire in their own slices.  So no queue would fetch a command, no
 * copy moves, no preemption is under way, requested or due, none could
 * start for a kernel's priority, and every kernel runs in the device's
 * own view.  Up to the next line of a grid of SIMT_AHEAD_CYCLES, on the
 * slices' own grid and the same for every SM, so that SMs stopped apart
 * meet again there and the threads' phases keep holding all of them.
 */
static uint64_t simt_slice_ahead(SimtState *s, uint64_t start, uint64_t end)
{
    if (s->sm_threads.count < 2 || !s->run_ahead ||
        !simt_queues_settled(s) || !simt_preempt_settled(s) ||
        !simt_sched_none_lower(s)) {
        return end;
    }
    return MAX(end, QEMU_ALIGN_UP(start / SIMT_SLICE_CYCLES + 1,
                                  SIMT_AHEAD_CYCLES / SIMT_SLICE_CYCLES) *
                    SIMT_SLICE_CYCLES + start % SIMT_SLICE_CYCLES);
}

/* Place blocks at @cycle, and end the kernels that could not go on. */
static void simt_dispatch(SimtState *s, uint64_t cycle)
{
    simt_sched_dispatch(s, cycle);
    simt_slice_take_events(s);
}

/*
 * Run device cycles [slice.start, end): queues fetch commands, the
 * scheduler places blocks, SMs and copy engines run.  True while there
 * is work left.
 */
static bool simt_run_slice(SimtState *s, uint64_t end)
{
    uint64_t start = s->slice.start;
    bool waiting = false;

    /*
     * While SMs may be ahead, what the guest asked for (a doorbell, a
     * preemption request) waits until the slice engine has caught up:
     * nothing but blocks retiring acts on an SM past the slice engine.
     */
    if (simt_sm_reached(s) <= start) {
        waiting = simt_queues_process(s, start);
        simt_preempt_check(s, start);
    }
    simt_dispatch(s, start);
    /* A preemption event that starts now shortens the slice. */
    end = MIN(end, simt_slice_end(s));
    simt_queues_slice_begin(s);
    simt_sm_run_slice(s, start, end, simt_slice_ahead(s, start, end));
    simt_dma_run_slice(s, start, end);
    /* The copies that finished and the kernels aborted in the slice. */
    simt_slice_take_events(s);
    simt_queues_slice_end(s, end - start);
    /* Queues whose kernels or copies finished can go on at once. */
    if (simt_sm_reached(s) <= end) {
        waiting |= simt_queues_process(s, end);
    }
    simt_preempt_advance(s, end);
    simt_dispatch(s, end);
    s->slice.start = end;
    return waiting || simt_queues_busy(s) || s->pre.active ||
           s->pre.requested;
}

/* Run [slice.start, end); false, and the slice engine stopped, if idle. */
static bool simt_run_to(SimtState *s, uint64_t end)
{
    if (simt_run_slice(s, end)) {
        return true;
    }
    s->slice.ticking = false;
    timer_del(s->slice.timer);
    return false;
}

/*
 * Run the slice engine up to cycle @until: the slices that have ended
 * by then, and with @partial the one under way up to @until.  The slice
 * engine is never ahead of virtual time: a slice runs once virtual time
 * has reached its end (the timer), or up to now when a register access
 * needs the slice engine's present (simt_slice_catch_up), so a doorbell
 * or a preemption request takes effect at its own cycle and an interrupt
 * is never raised before the cycle of its event.  Under qtest and
 * -icount virtual time stands still while this runs and every due slice
 * runs, so results and cycle counts are deterministic (host time must
 * not decide where the slice engine stops).  When virtual time follows
 * the host (plain TCG, KVM) and the slice engine is slower than real
 * time, slices fall due faster than they run: the slice engine lags,
 * runs due slices for up to SIMT_TICK_BUDGET_NS of host time, and leaves
 * the guest as much time again before the next tick.
 */
static void simt_run_until(SimtState *s, uint64_t until, bool partial)
{
    int64_t host_start = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
    /* Virtual time waits for the slice engine: no budget, no host time. */
    bool budget = !qtest_enabled() && !icount_enabled();
    int64_t spent;

    while (simt_slice_end(s) <= until) {
        if (!simt_run_to(s, simt_slice_end(s))) {
            return;
        }
        spent = qemu_clock_get_ns(QEMU_CLOCK_REALTIME) - host_start;
        if (budget && simt_slice_end(s) <= until &&
            spent >= SIMT_TICK_BUDGET_NS) {
            timer_mod(s->slice.timer,
                      qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + spent);
            return;
        }
    }
    while (partial && s->slice.start < until) {
        if (!simt_run_to(s, MIN(simt_slice_end(s), until))) {
            return;
        }
    }
    timer_mod(s->slice.timer, simt_cycle_to_ns(s, simt_slice_end(s)));
}

static void simt_tick_run(SimtState *s)
{
    simt_run_until(s, simt_now_cycle(s), false);
}

static void simt_tick(void *opaque)
{
    SimtState *s = opaque;
    MemReentrancyGuard *guard = &DEVICE(s)->mem_reentrancy_guard;
    bool engaged = guard->engaged_in_io;

    /*
     * The device's DMA (copies, kernels' system pages, rings and records)
     * goes to guest-chosen addresses, which may be the device's own
     * registers.  As in a guarded bottom half, such an access fails
     * (a DMA error) instead of re-entering the device mid-slice.
     */
    guard->engaged_in_io = true;
    simt_tick_run(s);
    guard->engaged_in_io = engaged;
}

/* Work arrived: make sure the slice engine's timer runs. */
static void simt_kick(SimtState *s)
{
    if (s->slice.ticking) {
        return;
    }
    /* The slice engine was idle: its next slice starts now. */
    s->slice.start = MAX(simt_now_cycle(s), s->slice.start);
    s->slice.ticking = true;
    timer_mod(s->slice.timer, simt_cycle_to_ns(s, simt_slice_end(s)));
}

void simt_slice_take_events(SimtState *s)
{
    SimtEvents *ev = &s->events;

    for (unsigned i = 0; i < ev->count; i++) {
        SimtEvent *e = &ev->list[i];

        switch (e->kind) {
        case SIMT_EVENT_WORK:
            simt_kick(s);
            break;
        case SIMT_EVENT_COPY_DONE:
            simt_queue_copy_done(s, e->queue, e->error);
            break;
        case SIMT_EVENT_KERNEL_ABORT:
            simt_kernel_abort(s, e->queue, e->cycle);
            break;
        }
    }
    ev->count = 0;
}

/*
 * Before a register write that may change what the slice engine does,
 * run it up to the current cycle, so that the write takes effect at its
 * own cycle rather than at the end of the slice under way.
 */
void simt_slice_catch_up(SimtState *s)
{
    if (s->slice.ticking) {
        simt_run_until(s, simt_now_cycle(s), true);
    }
}

uint64_t simt_slice_cycle(SimtState *s)
{
    /*
     * The slice engine's time, brought up to the current cycle first:
     * when it still runs behind virtual time (a slow host), the cycle it has
     * reached, so that the counter agrees with the cycles in completion
     * records and events and with ACTIVE_CYCLES; while idle, never behind
     * the end of the last slice.
     */
    simt_slice_catch_up(s);
    return s->slice.ticking ? MIN(simt_now_cycle(s), s->slice.start)
                            : MAX(simt_now_cycle(s), s->slice.start);
}

void simt_slice_init(SimtState *s)
{
    s->slice.timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, simt_tick, s);
}

void simt_slice_free(SimtState *s)
{
    timer_free(s->slice.timer);
    s->slice.timer = NULL;
}

void simt_slice_reset(SimtState *s)
{
    if (s->slice.timer) {
        timer_del(s->slice.timer);
    }
    s->slice.ticking = false;
    s->slice.start = 0;
    s->events.count = 0;
    s->slice.time_base_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}
