/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the SMs, and the timing model.
 *
 * An SM has issue-rate issue ports.  Each port takes the resident warps in
 * turn and runs one for a burst of up to SIMT_BURST_INSNS warp
 * instructions; the burst costs the sum of its instructions' cycles (see
 * simt_insn_cycles in the core), and the port's clock advances by that
 * much.  The port with the earliest clock, of all SMs, issues next, until
 * every port has passed the end of the slice; a block that retires frees
 * its room at its own cycle.  docs/specs/simt.rst describes the model and
 * its limits.
 */

#include "qemu/osdep.h"
#include "hw/simt/simt.h"
#include "hw/simt/simt-queue.h"
#include "hw/simt/simt-sched.h"
#include "hw/simt/simt-sm.h"
#include "hw/simt/simt-mmu.h"
#include "hw/simt/simt-timeline.h"
#include "trace.h"

bool simt_sm_any_resident(SimtState *s)
{
    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        if (!simt_sched_sm_empty(s, &s->sms[i])) {
            return true;
        }
    }
    return false;
}

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

/*
 * The next warp to issue on @sm at @now, round robin over slots and their
 * warps; false if no resident warp can run (all exited, at barriers,
 * being saved or not restored yet).
 */
static bool next_warp(SimtState *s, SimtSM *sm, uint64_t now,
                      SimtSlot **slotp, unsigned *warpp)
{
    uint32_t nslots = simt_cfg(s, SIMT_CFG_SM_BLOCKS);

    for (uint32_t n = 0; n <= nslots; n++) {
        SimtSlot *slot = &sm->slots[sm->next_slot];

        if (slot->used && slot->block.st.status == SIMT_RUNNING &&
            slot->leave != SIMT_LEAVE_SAVE && slot->ready_cycle <= now) {
            SimtBlockState *st = &slot->block.st;

            while (sm->next_warp < st->nwarps) {
                SimtWarp *w = &slot->warps[sm->next_warp];
                unsigned warp = sm->next_warp++;

                if ((w->exited | w->waiting) != SIMT_FULL_MASK) {
                    *slotp = slot;
                    *warpp = warp;
                    return true;
                }
            }
        }
        sm->next_warp = 0;
        sm->next_slot = (sm->next_slot + 1) % nslots;
    }
    return false;
}

/* The earliest of @sm's issue ports. */
static uint64_t *earliest_port(SimtState *s, SimtSM *sm)
{
    uint64_t *port = &sm->port_cycle[0];

    for (uint32_t p = 1; p < simt_cfg(s, SIMT_CFG_ISSUE_RATE); p++) {
        if (sm->port_cycle[p] < *port) {
            port = &sm->port_cycle[p];
        }
    }
    return port;
}

/*
 * One step of @sm at its earliest port @port: a burst of one warp, or,
 * if no warp can issue, idling until a restore ends or @end.  Returns
 * the cycle a block retired at, or UINT64_MAX.
 */
static uint64_t sm_step(SimtState *s, SimtSM *sm, uint64_t *port,
                        uint64_t end)
{
    SimtSlot *slot;
    SimtBlock *b;
    unsigned warp;

    if (!next_warp(s, sm, *port, &slot, &warp)) {
        uint64_t wake = end;

        for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_BLOCKS); i++) {
            SimtSlot *r = &sm->slots[i];

            if (r->used && r->ready_cycle > *port) {
                wake = MIN(wake, r->ready_cycle);
            }
        }
        for (uint32_t p = 0; p < simt_cfg(s, SIMT_CFG_ISSUE_RATE); p++) {
            sm->port_cycle[p] = MAX(sm->port_cycle[p], wake);
        }
        return UINT64_MAX;
    }
    b = &slot->block;
    /* The cycle CSR reads the issuing port's clock. */
    b->st.cycle = *port;
    simt_warp_run(b, warp, SIMT_BURST_INSNS);
    *port = MAX(b->st.cycle, *port + 1);
    if (b->st.status != SIMT_RUNNING) {
        retire_block(s, sm, slot, *port);
        return *port;
    }
    return UINT64_MAX;
}

/*
 * Run the SMs over [start, end), all together in cycle order: the port
 * with the earliest clock of any SM issues next.  A block's room is
 * offered to the scheduler at the cycle it retired at, once every SM has
 * come that far, so the next block starts then rather than at the end of
 * the slice.
 */
void simt_sm_run_slice(SimtState *s, uint64_t start, uint64_t end)
{
    uint32_t nsm = simt_cfg(s, SIMT_CFG_SM_COUNT);
    uint64_t freed = UINT64_MAX;

    for (uint32_t i = 0; i < nsm; i++) {
        for (uint32_t p = 0; p < simt_cfg(s, SIMT_CFG_ISSUE_RATE); p++) {
            s->sms[i].port_cycle[p] = MAX(s->sms[i].port_cycle[p], start);
        }
    }
    for (;;) {
        SimtSM *best = NULL;
        uint64_t *port = NULL, retired;

        for (uint32_t i = 0; i < nsm; i++) {
            SimtSM *sm = &s->sms[i];
            uint64_t *p;

            if (simt_sched_sm_empty(s, sm)) {
                continue;
            }
            p = earliest_port(s, sm);
            if (*p < end && (!best || *p < *port)) {
                best = sm;
                port = p;
            }
        }
        if (freed != UINT64_MAX && (!best || *port >= freed)) {
            simt_sched_dispatch(s, freed);
            freed = UINT64_MAX;
            continue;
        }
        if (!best) {
            return;
        }
        retired = sm_step(s, best, port, end);
        freed = MIN(freed, retired);
    }
}

/*
 * The instruction costs of the timing model (docs/specs/simt.rst): global
 * memory also pays for its bytes at the SM's equal share of the VRAM
 * bandwidth, as seed 000 models it.
 */
void simt_sm_timing_init(SimtState *s)
{
    static const uint8_t cost[SIMT_IC_NR] = {
        [SIMT_IC_ALU] = 1, [SIMT_IC_BRANCH] = 1, [SIMT_IC_MUL] = 2,
        [SIMT_IC_DIV] = 8, [SIMT_IC_FPU] = 1, [SIMT_IC_FDIV] = 8,
        [SIMT_IC_MEM] = 2, [SIMT_IC_ATOMIC] = 4, [SIMT_IC_SYNC] = 1,
    };

    memcpy(s->timing.cost, cost, sizeof(cost));
    s->timing.global_cost = 2;
    s->timing.byte_cost_fx16 =
        DIV_ROUND_UP((uint64_t)simt_cfg(s, SIMT_CFG_SM_COUNT) << 16,
                     simt_cfg(s, SIMT_CFG_MEM_BW));
}
