/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the SMs, and the timing model.
 *
 * An SM has issue-rate issue ports.  Each port takes the resident warps
 * that are ready in turn and runs one for a burst of up to
 * SIMT_BURST_INSNS warp instructions, issued within SIMT_BURST_CYCLES of
 * its start (a long wait for a result ends it).  In the burst each
 * instruction issues once the results it reads are ready (the latency
 * model of the core, SimtTiming), so the warp's own clock runs from the
 * port's clock to the end of the burst, stalls included, while the port
 * is taken only for the sum of the instructions' issue costs: the warp
 * is ready again at the end of its burst, and the port goes on with
 * other warps as soon as it has issued the burst.  A lone warp so runs
 * at the speed of its dependences, and enough warps fill the port.
 * When no warp is ready the port idles until one is.  The port with the
 * earliest clock, of all SMs, issues next, until every port has passed
 * the end of the slice; a block that retires frees its room at its own
 * cycle.
 * docs/specs/simt.rst describes the model and its limits.
 */

#include "qemu/osdep.h"
#include "migration/vmstate.h"
#include "simt.h"
#include "simt-queue.h"
#include "simt-sched.h"
#include "simt-preempt.h"
#include "simt-sm.h"
#include "simt-mmu.h"
#include "simt-timeline.h"
#include "trace.h"

static void retire_block(SimtState *s, SimtSM *sm, SimtSlot *slot,
                         uint64_t cycle)
{
    unsigned q = slot->queue;
    SimtKernel *k = &s->queues[q].kernel;
    SimtBlockState *st = &slot->block.st;

    k->thread_insns += st->thread_insns;
    k->warp_insns += st->warp_insns;
    trace_simt_block_retire(q, st->desc.block_idx[0], st->desc.block_idx[1],
                            st->desc.block_idx[2], sm->id, cycle);

    if (st->status == SIMT_FAULTED) {
        SimtGridResult *f = &k->fault;

        if (st->fault == SIMT_FAULT_PAGE) {
            simt_mmu_fault(s, k->view.ctx, q, k->view.fault_addr,
                           st->fault_pc, k->view.fault_access,
                           k->view.fault_reason);
        }
        f->fault = st->fault;
        f->fault_pc = st->fault_pc;
        f->fault_addr = st->fault_addr;
        memcpy(f->fault_block, st->desc.block_idx, sizeof(f->fault_block));
        f->fault_warp = st->fault_warp;
        f->fault_lane = st->fault_lane;
        simt_kernel_abort(s, q, cycle);
        return;
    }

    /* What the auto mode's drain estimate learns from. */
    if (st->warp_insns > slot->dispatch_insns &&
        cycle > slot->dispatch_cycle) {
        double cpi = (double)(cycle - slot->dispatch_cycle) /
                     (st->warp_insns - slot->dispatch_insns);

        k->stat_blocks++;
        k->stat_insns += st->warp_insns;
        k->stat_cpi_sum += cpi;
        k->stat_cpi_sq += cpi * cpi;
    }
    /* Chimera's: the run time of blocks that ran from their start here. */
    if (!slot->dispatch_insns && cycle > slot->dispatch_cycle) {
        k->stat_time_blocks++;
        k->stat_time_sum += cycle - slot->dispatch_cycle;
    }
    simt_timeline_record(s, SIMT_TRACE_RETIRE, q, sm->id, slot->linear, cycle);
    simt_sched_release(s, sm, slot, cycle);
    s->blocks_done++;
    k->retired++;
    k->end_cycle = MAX(k->end_cycle, cycle);
    if (k->retired == k->total_blocks) {
        simt_kernel_finish(s, q);
    }
}

/* Has warp @warp of @slot anything to run (not stopped for a save)? */
static bool warp_live(const SimtSlot *slot, unsigned warp)
{
    const SimtWarp *w = &slot->warps[warp];

    return (w->exited | w->waiting) != SIMT_FULL_MASK &&
           !(slot->parked >> warp & 1);
}

/* Can @slot's block issue at all (running, not leaving, restored)? */
static bool slot_runs(const SimtSlot *slot)
{
    return slot->used && slot->block.st.status == SIMT_RUNNING &&
           slot->leave != SIMT_LEAVE_SAVE;
}

/*
 * The next warp to issue on @sm at @now, round robin over slots and their
 * warps.  False if no resident warp can run now (all exited, at barriers,
 * waiting for their results, being saved or not restored yet); then
 * *@wake is when one can (a warp's result or a restore's end), or @end,
 * and if it is a warp's result, @sm keeps that warp for the next step
 * (wake_known).
 */
static bool next_warp(SimtState *s, SimtSM *sm, uint64_t now, uint64_t end,
                      SimtSlot **slotp, unsigned *warpp, uint64_t *wake)
{
    uint32_t nslots = simt_cfg(s, SIMT_CFG_SM_BLOCKS);
    /*
     * The round robin's place in locals, stored back once: through sm,
     * which may alias anything here, each step would be a store and a load.
     */
    uint32_t si = sm->next_slot, wi = sm->next_warp;
    /*
     * The earliest result of a live warp, and the first warp in scan
     * order to have it, after the first slot's part: the order of the
     * next scan, which starts at the slot after this one's.
     */
    uint64_t first = UINT64_MAX, restored = UINT64_MAX;
    uint32_t first_slot = 0, first_warp = 0;

    for (uint32_t n = 0; n <= nslots; n++) {
        SimtSlot *slot = &sm->slots[si];

        if (slot_runs(slot) && slot->ready_cycle <= now) {
            uint32_t nwarps = slot->block.st.nwarps;

            while (wi < nwarps) {
                unsigned warp = wi++;
                /*
                 * The ready time first: of a warp's state, some kilobytes,
                 * warp_live() reads another line, and most warps of a
                 * memory-bound block are waiting for their loads.
                 */
                uint64_t ready = slot->wtiming[warp].ready;

                if (ready <= now) {
                    if (warp_live(slot, warp)) {
                        *slotp = slot;
                        *warpp = warp;
                        sm->next_slot = si;
                        sm->next_warp = wi;
                        return true;
                    }
                } else if (ready < first && n && warp_live(slot, warp)) {
                    first = ready;
                    first_slot = si;
                    first_warp = warp;
                }
            }
        } else if (slot->used && slot->ready_cycle > now) {
            restored = MIN(restored, slot->ready_cycle);
        }
        wi = 0;
        /* Not a division per slot: this runs for every burst. */
        if (++si >= nslots) {
            si = 0;
        }
    }
    sm->next_slot = si;
    sm->next_warp = wi;
    *wake = MIN(MIN(first, restored), end);
    /*
     * Until then nothing else becomes ready; at first the next scan
     * would stop at first_warp, unless a restore ends as early.
     */
    if (first < restored && first < end) {
        sm->wake_known = true;
        sm->wake_slot = first_slot;
        sm->wake_warp = first_warp;
        sm->wake_cycle = first;
    }
    return false;
}

/*
 * What changes an SM's blocks from outside its own steps (a slice's
 * start, a block retired or placed) makes the warps they keep unknown.
 */
static void forget_wakes(SimtState *s)
{
    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        s->sms[i].wake_known = false;
    }
}

/* The earliest of the @ports issue ports of @sm. */
static uint64_t *earliest_port(SimtSM *sm, uint32_t ports)
{
    uint64_t *port = &sm->port_cycle[0];

    for (uint32_t p = 1; p < ports; p++) {
        if (sm->port_cycle[p] < *port) {
            port = &sm->port_cycle[p];
        }
    }
    return port;
}

/*
 * One step of @sm at its earliest port @port: a burst of one warp, or,
 * if no warp can issue, idling until a restore ends or @end.  Returns
 * the cycle a block finished or faulted at, its slot in *@retiring for
 * the caller to retire, or UINT64_MAX.
 */
static uint64_t sm_step(SimtState *s, SimtSM *sm, uint64_t *port,
                        uint64_t end, SimtSlot **retiring)
{
    SimtSlot *slot;
    SimtBlock *b;
    unsigned warp;
    bool parking;
    uint64_t wake;
    bool known = s->wake_shortcut && sm->wake_known &&
                 sm->wake_cycle == *port;

    sm->wake_known = false;
    if (known) {
        /* The warp that woke the SM, where the scan would stop. */
        slot = &sm->slots[sm->wake_slot];
        warp = sm->wake_warp;
        sm->next_slot = sm->wake_slot;
        sm->next_warp = warp + 1;
    } else if (!next_warp(s, sm, *port, end, &slot, &warp, &wake)) {
        /* Until a restore ends or a warp's results arrive. */
        for (uint32_t p = 0; p < simt_cfg(s, SIMT_CFG_ISSUE_RATE); p++) {
            sm->port_cycle[p] = MAX(sm->port_cycle[p], wake);
        }
        return UINT64_MAX;
    }
    b = &slot->block;
    parking = slot->leave == SIMT_LEAVE_PARK;
    if (parking && *port >= slot->park_limit) {
        /* Out of time to reach a preemption point: it stops here. */
        simt_preempt_warp_stopped(s, sm, slot, warp, SIMT_STOP_CUT, *port);
        return UINT64_MAX;
    }
    /* The warp's clock starts at the port's; the cycle CSR reads it. */
    b->st.cycle = *port;
    b->issue_limit = *port + SIMT_BURST_CYCLES;
    b->issue_cycles = 0;
    if (parking) {
        const SimtKernel *k = &s->queues[slot->queue].kernel;

        b->issue_limit = MIN(b->issue_limit, slot->park_limit);
        b->stop_pcs = k->pp;
        b->stop_count = k->pp_count;
    }
    simt_warp_run(b, warp, SIMT_BURST_INSNS);
    b->stop_pcs = NULL;
    slot->wtiming[warp].ready = b->st.cycle;
    *port += MAX(b->issue_cycles, 1);
    if (b->st.status != SIMT_RUNNING) {
        *retiring = slot;
        return MAX(*port, b->st.cycle);
    }
    if (parking) {
        simt_preempt_warp_stopped(s, sm, slot, warp,
                                  b->stopped ? SIMT_STOP_POINT
                                             : SIMT_STOP_NOT,
                                  MAX(*port, b->st.cycle));
    }
    return UINT64_MAX;
}

/*
 * With threads > 1, may the SMs run on several host threads now?  Not
 * while preemption is under way (it parks and saves blocks), nor with a
 * block of a kernel in a translated context resident: the preemption
 * engine, the TLB and system pages reached by DMA belong to the main
 * loop's thread.  The queues say, not the slots, whose cache lines the
 * threads write.
 */
static bool threads_usable(SimtState *s)
{
    if (s->sm_threads.count < 2 || simt_preempt_busy(s)) {
        return false;
    }
    for (unsigned q = 0; q < simt_cfg(s, SIMT_CFG_QUEUES); q++) {
        const SimtKernel *k = &s->queues[q].kernel;

        if (k->active && k->resident && !k->view.bare) {
            return false;
        }
    }
    return true;
}

/*
 * Running ahead, the cycles an SM runs on one host thread at most before
 * another may take it over (some 40 us of host time with a full SM).
 */
#define SIMT_SM_PART_CYCLES     (4 * SIMT_SLICE_CYCLES)

/* The slice a phase belongs to. */
typedef struct SimtPhase {
    uint64_t start, end;
} SimtPhase;

/*
 * What the slice's start or blocks placed or retired change on @sm
 * before its next step: an idle SM's ports come to the slice's @start,
 * and the warp it kept for its next step may not be the one to run.
 */
static void sm_catch_up(SimtState *s, SimtSM *sm, uint64_t start)
{
    for (uint32_t p = 0; p < simt_cfg(s, SIMT_CFG_ISSUE_RATE); p++) {
        sm->port_cycle[p] = MAX(sm->port_cycle[p], start);
    }
    sm->wake_known = false;
}

/*
 * SM @i's part of a phase of the slice *@opaque, on any host thread: it
 * runs alone, its ports from where they are, up to its phase_end or
 * until a block finishes or faults, and touches nothing but its own
 * state and the blocks' memory.  Every phase follows the slice's start
 * or blocks retired, whose changes the SM catches up with here, on the
 * core that keeps its state, rather than on the main loop's thread.
 * Running ahead, past the slice's end, its steps are those it would
 * take slice by slice: nothing but its own steps changes its blocks, so
 * an idle SM that would look again at each slice's start finds the same
 * warp to wake it.  It stops after SIMT_SM_PART_CYCLES, for any thread
 * to go on with it (simt-sm-threads.c), which changes nothing either.
 * True once the SM's phase is done.
 */
static bool sm_phase(SimtState *s, uint32_t i, void *opaque)
{
    const SimtPhase *ph = opaque;
    SimtSM *sm = &s->sms[i];
    uint32_t ports = simt_cfg(s, SIMT_CFG_ISSUE_RATE);
    uint64_t part_end = UINT64_MAX;

    sm_catch_up(s, sm, ph->start);
    while (sm->phase_retired == UINT64_MAX && !simt_sched_sm_empty(s, sm)) {
        uint64_t *port = earliest_port(sm, ports);

        if (*port >= sm->phase_end) {
            break;
        }
        if (part_end == UINT64_MAX) {
            part_end = *port + SIMT_SM_PART_CYCLES;
        } else if (*port >= part_end) {
            return false;
        }
        sm->phase_found = *port + 1;
        sm->phase_retired = sm_step(s, sm, port, sm->phase_end,
                                    &sm->phase_slot);
    }
    return true;
}

/* Retire the block a phase found finished on @sm; the cycle it did. */
static uint64_t retire_found(SimtState *s, SimtSM *sm)
{
    uint64_t cycle = sm->phase_retired;

    sm->phase_retired = UINT64_MAX;
    retire_block(s, sm, sm->phase_slot, cycle);
    return cycle;
}

/*
 * The SM whose block found finished by a step begun before @end has
 * the earliest cycle (ties: the lowest SM number), or NULL.
 */
static SimtSM *first_found(SimtState *s, uint64_t end)
{
    SimtSM *first = NULL;

    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        SimtSM *sm = &s->sms[i];

        if (sm->phase_retired != UINT64_MAX && sm->phase_found <= end &&
            (!first || sm->phase_retired < first->phase_retired)) {
            first = sm;
        }
    }
    return first;
}

/*
 * The slice [@start, @end) on several host threads, in phases: after
 * each, the blocks found finished in the slice retire in order of their
 * cycles (ties by SM number) and their room is offered to the scheduler
 * at each one's cycle, until a phase retires nothing.  An SM that no
 * block can be placed on runs on up to @ahead when that is later
 * (simt-slice.c), or to its first block that finishes: that block
 * retires in the slice its step began in, as slice by slice, a later
 * one's phases.  Which thread ran an SM changes nothing.  False if the
 * slice must go on on one thread (threads_usable).
 */
static bool run_slice_threads(SimtState *s, uint64_t start, uint64_t end,
                              uint64_t ahead)
{
    uint32_t nsm = simt_cfg(s, SIMT_CFG_SM_COUNT);
    uint32_t ports = simt_cfg(s, SIMT_CFG_ISSUE_RATE);
    SimtPhase ph = { .start = start, .end = end };

    do {
        uint32_t busy = 0;
        bool retired = false;
        SimtSM *first;

        for (uint32_t i = 0; i < nsm; i++) {
            SimtSM *sm = &s->sms[i];

            sm->phase_end = ahead > end &&
                            simt_sched_sm_takes_none(s, sm) ? ahead : end;
            busy += sm->phase_retired == UINT64_MAX &&
                    !simt_sched_sm_empty(s, sm) &&
                    *earliest_port(sm, ports) < sm->phase_end;
        }
        /* Waking the workers costs more than one SM's work. */
        if (busy) {
            simt_sm_threads_each(s, sm_phase, &ph, busy > 1);
        }
        while ((first = first_found(s, end))) {
            simt_sched_dispatch(s, retire_found(s, first));
            retired = true;
        }
        if (!retired) {
            return true;
        }
    } while (threads_usable(s));
    return false;
}

/*
 * Run the SMs over [start, end), all together in cycle order: the port
 * with the earliest clock of any SM issues next.  A block's room is
 * offered to the scheduler at the cycle it retired at, once every SM has
 * come that far, so the next block starts then rather than at the end of
 * the slice.
 */
void simt_sm_run_slice(SimtState *s, uint64_t start, uint64_t end,
                       uint64_t ahead)
{
    uint32_t nsm = simt_cfg(s, SIMT_CFG_SM_COUNT);
    uint32_t ports = simt_cfg(s, SIMT_CFG_ISSUE_RATE);
    uint64_t freed = UINT64_MAX;
    SimtSM *found;

    /* On several host threads, unless the slice needs this path. */
    if (threads_usable(s) && run_slice_threads(s, start, end, ahead)) {
        return;
    }
    /*
     * Blocks that phases run ahead found finished in this slice (their
     * SMs are past it otherwise, and not stepped here until it comes).
     */
    while ((found = first_found(s, end))) {
        freed = MIN(freed, retire_found(s, found));
    }
    for (uint32_t i = 0; i < nsm; i++) {
        sm_catch_up(s, &s->sms[i], start);
    }
    for (;;) {
        SimtSM *best = NULL;
        SimtSlot *slot;
        uint64_t *port = NULL, retired;

        for (uint32_t i = 0; i < nsm; i++) {
            SimtSM *sm = &s->sms[i];
            uint64_t *p = earliest_port(sm, ports);

            /* The cheap test first: most SMs are not the earliest. */
            if (*p < end && (!best || *p < *port) &&
                !simt_sched_sm_empty(s, sm)) {
                best = sm;
                port = p;
            }
        }
        if (freed != UINT64_MAX && (!best || *port >= freed)) {
            simt_sched_dispatch(s, freed);
            forget_wakes(s);
            freed = UINT64_MAX;
            continue;
        }
        if (!best) {
            return;
        }
        retired = sm_step(s, best, port, end, &slot);
        if (retired != UINT64_MAX) {
            retire_block(s, best, slot, retired);
            forget_wakes(s);
            freed = MIN(freed, retired);
        }
    }
}

/*
 * The timing model of this machine (docs/specs/simt.rst): the preset's
 * costs and latencies; global memory moves its bytes at the SM's equal
 * share of the VRAM bandwidth, as seed 000 models it, or with
 * ideal-memory costs what shared memory does, so that a kernel's time
 * with and without says how much of it waits on memory.
 */
void simt_sm_timing_init(SimtState *s)
{
    simt_preset_timing(s->preset, &s->timing);
    s->timing.global_as_shared = s->ideal_memory;
    s->timing.byte_cost_fx16 =
        DIV_ROUND_UP((uint64_t)simt_cfg(s, SIMT_CFG_SM_COUNT) << 16,
                     simt_cfg(s, SIMT_CFG_MEM_BW));
}

uint64_t simt_sm_reached(SimtState *s)
{
    uint64_t reached = 0;

    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        reached = MAX(reached, s->sms[i].phase_found);
    }
    return reached;
}

static int sm_found_pre_save(void *opaque)
{
    SimtSM *sm = opaque;

    sm->phase_slot_index = sm->phase_retired == UINT64_MAX ? 0 :
                           sm->phase_slot - sm->slots;
    return 0;
}

static int sm_found_post_load(void *opaque, int version_id)
{
    SimtSM *sm = opaque;

    if (sm->phase_retired == UINT64_MAX) {
        return 0;
    }
    if (sm->phase_slot_index >= sm->nslots) {
        return -EINVAL;
    }
    sm->phase_slot = &sm->slots[sm->phase_slot_index];
    return sm->phase_slot->used &&
           sm->phase_slot->block.st.status != SIMT_RUNNING ? 0 : -EINVAL;
}

const VMStateDescription vmstate_simt_sm_found = {
    .name = "simt/sm-found",
    .version_id = 1,
    .minimum_version_id = 1,
    .pre_save = sm_found_pre_save,
    .post_load = sm_found_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(phase_retired, SimtSM),
        VMSTATE_UINT64(phase_found, SimtSM),
        VMSTATE_UINT32(phase_slot_index, SimtSM),
        VMSTATE_END_OF_LIST()
    },
};
