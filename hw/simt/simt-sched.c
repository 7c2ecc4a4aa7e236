/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the block scheduler.
 *
 * Which kernel: the ready kernel of highest queue priority (earliest
 * launch among equals; with the fifo-dispatch property, the earliest
 * launch whatever its priority) is at the head; only the head dispatches,
 * and it stays there until all its blocks are dispatched; then the next
 * kernel uses what is left (seed 001, digest A.2).  Where: one block at a
 * time on the SM the device's placement policy picks among those with room
 * (simt-placement.c; by default the SM with room for the most further
 * blocks of that kernel, ties going to the first SM in the preset's order:
 * seed 001's "most room" policy, digest A.3).  An SM holds blocks of at
 * most kernel-slots kernels.
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/error-report.h"
#include "qemu/memalign.h"
#include "qemu/madvise.h"
#include "migration/vmstate.h"
#include "simt.h"
#include "simt-queue.h"
#include "simt-sched.h"
#include "simt-preempt.h"
#include "simt-placement.h"
#include "simt-event.h"
#include "simt-timeline.h"
#include "trace.h"

void simt_sched_init(SimtState *s)
{
    uint32_t nsm = simt_cfg(s, SIMT_CFG_SM_COUNT);

    s->sm_order = g_new(uint32_t, nsm);
    simt_config_sm_order(&s->cfg, s->sm_order);
    s->place_room = g_new(uint32_t, nsm);
    s->sms = g_new0(SimtSM, nsm);
    for (uint32_t i = 0; i < nsm; i++) {
        SimtSM *sm = &s->sms[i];

        sm->id = i;
        sm->phase_retired = UINT64_MAX;
        simt_room_empty_sm(s, &sm->room);
        sm->nslots = simt_cfg(s, SIMT_CFG_SM_BLOCKS);
        sm->slots = g_new0(SimtSlot, sm->nslots);
        sm->store = g_new0(SimtSlotStore, sm->nslots);
        sm->nports = simt_cfg(s, SIMT_CFG_ISSUE_RATE);
        /* A line of its own: see SimtSM.pad_end. */
        sm->port_cycle = qemu_memalign(SIMT_CACHE_LINE,
                                       ROUND_UP(sm->nports * sizeof(uint64_t),
                                                SIMT_CACHE_LINE));
        memset(sm->port_cycle, 0, sm->nports * sizeof(uint64_t));
    }
}

void simt_sched_reset(SimtState *s)
{
    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        SimtSM *sm = &s->sms[i];

        memset(sm->port_cycle, 0,
               simt_cfg(s, SIMT_CFG_ISSUE_RATE) * sizeof(*sm->port_cycle));
        sm->mem_pipe = 0;
        sm->save_busy = 0;
        sm->ev_saved = 0;
        sm->ev_wait = 0;
        sm->next_slot = 0;
        sm->next_warp = 0;
        sm->handed_to = 0;
        sm->phase_retired = UINT64_MAX;
        sm->phase_found = 0;
    }
    s->place_next = 0;
    s->policy_errors = 0;
}

/* Slot @j's store gives its memory back. */
static void store_drop(SimtSM *sm, uint32_t j)
{
    SimtSlotStore *st = &sm->store[j];

    g_free(st->warps);
    g_free(st->wtiming);
    sm->kept_warps -= st->nwarps;
    *st = (SimtSlotStore) { 0 };
}

/*
 * Fault in the whole pages of [@p, @p + @len) at once: the first touch of
 * each would fault on its own, at several times the cost.
 */
static void populate(void *p, size_t len)
{
    uintptr_t page = qemu_real_host_page_size();
    uintptr_t from = ROUND_UP((uintptr_t)p, page);
    uintptr_t to = ROUND_DOWN((uintptr_t)p + len, page);

    if (to > from) {
        qemu_madvise((void *)from, to - from, QEMU_MADV_POPULATE_WRITE);
    }
}

/*
 * The warps of a block of @nwarps placed in slot @j of @sm, in what the
 * slot keeps if that is enough.  Else fresh memory, after that of free
 * slots if needed, so that the SM never keeps more than its SM_WARPS:
 * the blocks on it take no more than that.
 */
static void store_take(SimtState *s, SimtSM *sm, uint32_t j,
                       uint32_t nwarps)
{
    SimtSlotStore *st = &sm->store[j];
    SimtSlot *slot = &sm->slots[j];

    if (st->nwarps < nwarps) {
        store_drop(sm, j);
        for (uint32_t i = 0; i < sm->nslots &&
             sm->kept_warps + nwarps > simt_cfg(s, SIMT_CFG_SM_WARPS); i++) {
            if (!sm->slots[i].used) {
                store_drop(sm, i);
            }
        }
        /*
         * A cache line to spare after each, so that no two blocks' state
         * shares a line: with threads > 1, two host cores write them.
         */
        st->warps = g_malloc(nwarps * sizeof(SimtWarp) + SIMT_CACHE_LINE);
        populate(st->warps, nwarps * sizeof(SimtWarp));
        st->wtiming = g_malloc(nwarps * sizeof(SimtWarpTiming) +
                               SIMT_CACHE_LINE);
        st->nwarps = nwarps;
        sm->kept_warps += nwarps;
    }
    memset(st->wtiming, 0, nwarps * sizeof(SimtWarpTiming));
    slot->warps = st->warps;
    slot->wtiming = st->wtiming;
}

void simt_sched_free(SimtState *s)
{
    for (uint32_t i = 0; s->sms && i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        SimtSM *sm = &s->sms[i];

        for (uint32_t k = 0; k < simt_cfg(s, SIMT_CFG_SM_BLOCKS); k++) {
            if (sm->slots[k].used) {
                simt_sched_release(s, sm, &sm->slots[k], 0);
            }
        }
        for (uint32_t k = 0; k < sm->nslots; k++) {
            store_drop(sm, k);
        }
        g_free(sm->slots);
        g_free(sm->store);
        qemu_vfree(sm->port_cycle);
    }
    g_free(s->sms);
    g_free(s->sm_order);
    g_free(s->place_room);
    s->place_room = NULL;
    s->sms = NULL;
    s->sm_order = NULL;
}

void simt_room_empty_sm(SimtState *s, SimtRoom *r)
{
    *r = (SimtRoom) {
        .threads = simt_cfg(s, SIMT_CFG_SM_THREADS),
        .warps = simt_cfg(s, SIMT_CFG_SM_WARPS),
        .blocks = simt_cfg(s, SIMT_CFG_SM_BLOCKS),
        .regs = simt_cfg(s, SIMT_CFG_SM_REGS),
        .shared = simt_cfg(s, SIMT_CFG_SM_SHARED),
    };
}

SimtNeed simt_block_need(const SimtKernel *k)
{
    return (SimtNeed) {
        .threads = k->threads, .warps = k->warps, .regs = k->regs,
        .shared = k->launch.shared_size,
    };
}

static uint32_t room_for(uint32_t free, uint32_t need)
{
    return need ? free / need : UINT32_MAX;
}

uint32_t simt_room_fits(SimtState *s, const SimtRoom *r, unsigned q,
                        const SimtNeed *n)
{
    uint32_t room;

    if (!r->blocks_of[q] && r->kernels >= simt_cfg(s, SIMT_CFG_KERNEL_SLOTS)) {
        return 0;
    }
    room = room_for(r->threads, n->threads);
    room = MIN(room, room_for(r->warps, n->warps));
    room = MIN(room, r->blocks);
    room = MIN(room, room_for(r->regs, n->regs));
    return MIN(room, room_for(r->shared, n->shared));
}

void simt_room_take(SimtRoom *r, unsigned q, const SimtNeed *n)
{
    r->threads -= n->threads;
    r->warps -= n->warps;
    r->blocks--;
    r->regs -= n->regs;
    r->shared -= n->shared;
    if (!r->blocks_of[q]++) {
        r->kernels++;
    }
}

void simt_room_give(SimtRoom *r, unsigned q, const SimtNeed *n)
{
    r->threads += n->threads;
    r->warps += n->warps;
    r->blocks++;
    r->regs += n->regs;
    r->shared += n->shared;
    if (!--r->blocks_of[q]) {
        r->kernels--;
    }
}

bool simt_sched_sm_empty(SimtState *s, const SimtSM *sm)
{
    return sm->room.blocks == simt_cfg(s, SIMT_CFG_SM_BLOCKS);
}

void simt_sched_drop_kept(SimtState *s, SimtSaved *sv, const SimtKernel *k)
{
    s->sms[sv->sm].room.shared += k->launch.shared_size;
    g_free(sv->shared);
    sv->shared = NULL;
    sv->shared_bytes = 0;
}

/*
 * What block @sv (NULL: a block from its start) of @k takes when placed:
 * shared memory kept in place for it is already taken.
 */
static SimtNeed place_need(const SimtKernel *k, const SimtSaved *sv)
{
    SimtNeed n = simt_block_need(k);

    if (sv && sv->shared) {
        n.shared = 0;
    }
    return n;
}

/* Whether blocks of a Chimera event are still leaving @sm. */
static bool sm_emptying(SimtState *s, const SimtSM *sm)
{
    for (uint32_t j = 0; j < simt_cfg(s, SIMT_CFG_SM_BLOCKS); j++) {
        if (sm->slots[j].used && sm->slots[j].in_event) {
            return true;
        }
    }
    return false;
}

/* How many more blocks of queue @q that each take @n fit on @sm now. */
static uint32_t sm_room(SimtState *s, const SimtSM *sm, unsigned q,
                        const SimtNeed *n)
{
    /* An SM Chimera hands over is the preemptor's, once it is empty. */
    if (sm->handed_to &&
        (sm->handed_to != q + 1 || sm_emptying(s, sm))) {
        return 0;
    }
    return simt_room_fits(s, &sm->room, q, n);
}

static void block_index(const SimtKernel *k, uint32_t linear, uint32_t *idx)
{
    const uint32_t *g = k->launch.grid_dim;

    idx[0] = linear % g[0];
    idx[1] = linear / g[0] % g[1];
    idx[2] = linear / (g[0] * g[1]);
}

/*
 * Place block @linear of queue @q's kernel on @sm: a new or flushed block
 * from its start, or a saved one (@sv) from its record.  False if the
 * record cannot be restored; the kernel has faulted then.
 */
static bool place_block(SimtState *s, SimtSM *sm, unsigned q, SimtKernel *k,
                        uint32_t linear, const SimtSaved *sv, uint64_t cycle)
{
    uint32_t nslots = simt_cfg(s, SIMT_CFG_SM_BLOCKS);
    SimtSlot *slot = NULL;
    SimtBlockDesc desc = { .smid = sm->id };
    SimtNeed need = place_need(k, sv);
    uint32_t k_slot;
    uint64_t start;

    for (k_slot = 0; k_slot < nslots; k_slot++) {
        if (!sm->slots[k_slot].used) {
            slot = &sm->slots[k_slot];
            break;
        }
    }
    /* sm_room() counted a free block slot. */
    assert(slot);

    block_index(k, linear, desc.block_idx);
    desc.local_addr = k->local_base +
        (sm->id * nslots + k_slot) * k->local_block_bytes;

    /*
     * An idle SM starts issuing now, not in the past; a busy port first
     * finishes the burst it overran the last slice with.
     */
    start = UINT64_MAX;
    for (uint32_t p = 0; p < simt_cfg(s, SIMT_CFG_ISSUE_RATE); p++) {
        sm->port_cycle[p] = MAX(sm->port_cycle[p], cycle);
        start = MIN(start, sm->port_cycle[p]);
    }

    memset(slot, 0, sizeof(*slot));
    slot->used = true;
    slot->queue = q;
    slot->linear = linear;
    slot->dispatch_cycle = start;
    store_take(s, sm, k_slot, k->warps);
    slot->shared_bytes = MAX(k->launch.shared_size, 1);
    slot->shared = g_malloc(slot->shared_bytes);
    simt_block_init(&slot->block, &k->launch, &desc, &k->code, &k->mem,
                    slot->warps, slot->shared);
    slot->block.wtiming = slot->wtiming;
    slot->block.mem_pipe = &sm->mem_pipe;

    simt_room_take(&sm->room, q, &need);
    k->resident++;

    if (sv && !simt_preempt_restore(s, q, sv, sm, slot)) {
        k->fault.fault = SIMT_FAULT_SAVE_AREA;
        memcpy(k->fault.fault_block, desc.block_idx,
               sizeof(k->fault.fault_block));
        /*
         * The kernel ends here: its blocks leave now, so that the kernels
         * after it may use their room in this same dispatch, and its queue
         * ends it when the slice engine takes the event.
         */
        simt_sched_evict_kernel(s, q, start);
        simt_event_post(&s->events, (SimtEvent) {
            .kind = SIMT_EVENT_KERNEL_ABORT, .queue = q, .cycle = start,
        });
        return false;
    }
    if (!k->started || start < k->start_cycle) {
        k->started = true;
        k->start_cycle = start;
    }
    trace_simt_block_dispatch(q, desc.block_idx[0], desc.block_idx[1],
                              desc.block_idx[2], sm->id, k_slot, cycle);
    simt_timeline_record(s, sv ? SIMT_TRACE_RESTORE : SIMT_TRACE_DISPATCH, q,
                         sm->id, linear, start);
    simt_preempt_placed(s, q, sm, slot, start);
    return true;
}

void simt_sched_release(SimtState *s, SimtSM *sm, SimtSlot *slot,
                        uint64_t cycle)
{
    SimtKernel *k = &s->queues[slot->queue].kernel;
    SimtNeed need = simt_block_need(k);

    /* Shared memory kept in place stays taken: see SimtSaved. */
    if (slot->leave == SIMT_LEAVE_SAVE && !slot->shared) {
        need.shared = 0;
    }
    simt_preempt_slot_free(s, slot, cycle);
    simt_room_give(&sm->room, slot->queue, &need);
    k->resident--;
    /* The warps' memory stays in the slot's store. */
    g_free(slot->shared);
    slot->warps = NULL;
    slot->wtiming = NULL;
    slot->shared = NULL;
    slot->shared_bytes = 0;
    slot->used = false;
    /*
     * A block a phase found finished goes with its slot: its kernel was
     * stopped or aborted before its slice came (simt-sm.c).
     */
    if (sm->phase_slot == slot) {
        sm->phase_retired = UINT64_MAX;
    }
}

/* Has queue @q's kernel blocks it has not placed yet? */
static bool blocks_left(SimtState *s, unsigned q)
{
    const SimtKernel *k = &s->queues[q].kernel;

    return k->active && (k->next_block < k->end_block || k->redo->len ||
                         k->saved->len);
}

/* Whether queue @q's kernel has blocks to place and may place them. */
static bool kernel_ready(SimtState *s, unsigned q)
{
    return blocks_left(s, q) && !s->queues[q].kernel.fault.fault &&
           simt_preempt_may_run(s, q);
}

int simt_sched_head(SimtState *s)
{
    int best = -1;

    for (unsigned q = 0; q < simt_cfg(s, SIMT_CFG_QUEUES); q++) {
        SimtKernel *k = &s->queues[q].kernel;
        SimtKernel *b;

        if (!kernel_ready(s, q)) {
            continue;
        }
        b = best < 0 ? NULL : &s->queues[best].kernel;
        if (!b || (!s->fifo_dispatch && k->priority > b->priority) ||
            ((s->fifo_dispatch || k->priority == b->priority) &&
             k->seq < b->seq)) {
            best = q;
        }
    }
    return best;
}

/*
 * The SM for the next block of queue @q's kernel, as the placement
 * policy picks it among the SMs with room, or NULL if none has any.
 */
static SimtSM *place_where(SimtState *s, unsigned q)
{
    SimtKernel *k = &s->queues[q].kernel;
    uint32_t n = simt_cfg(s, SIMT_CFG_SM_COUNT);
    uint32_t *room = s->place_room;
    int first = -1;
    unsigned pick;

    SimtNeed need = simt_block_need(k);

    for (uint32_t i = 0; i < n; i++) {
        unsigned sm = s->sm_order[i];

        room[sm] = sm_room(s, &s->sms[sm], q, &need);
        if (room[sm] && first < 0) {
            first = sm;
        }
    }
    if (first < 0) {
        return NULL;
    }
    pick = s->placement->pick(s, q, room);
    if (pick >= n || !room[pick]) {
        warn_report_once("simt: placement policy '%s' picked SM %u, which "
                         "has no room; using SM %d", s->placement->name,
                         pick, first);
        s->policy_errors++;
        pick = first;
    }
    return &s->sms[pick];
}

bool simt_sched_has_room(SimtState *s, unsigned q)
{
    SimtNeed need = simt_block_need(&s->queues[q].kernel);

    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        if (sm_room(s, &s->sms[i], q, &need)) {
            return true;
        }
    }
    return false;
}

bool simt_sched_sm_takes_none(SimtState *s, const SimtSM *sm)
{
    for (unsigned q = 0; q < simt_cfg(s, SIMT_CFG_QUEUES); q++) {
        SimtNeed need;

        if (!blocks_left(s, q)) {
            continue;
        }
        need = simt_block_need(&s->queues[q].kernel);
        if (sm_room(s, sm, q, &need)) {
            return false;
        }
    }
    return true;
}

/*
 * The first of @k's saved blocks, in the order they were chosen, whose
 * record is written by @cycle, or -1.
 */
static int saved_ready(const SimtKernel *k, uint64_t cycle)
{
    for (guint i = 0; i < k->saved->len; i++) {
        if (g_array_index(k->saved, SimtSaved, i).ready <= cycle) {
            return i;
        }
    }
    return -1;
}

void simt_sched_dispatch(SimtState *s, uint64_t cycle)
{
    int q;

    while ((q = simt_sched_head(s)) >= 0) {
        SimtKernel *k = &s->queues[q].kernel;

        /*
         * Saved blocks whose records are written first, then flushed
         * ones, then new ones: no SM idles while a record is written.
         */
        while (kernel_ready(s, q)) {
            SimtSM *best = place_where(s, q);
            int ready = saved_ready(k, cycle);
            SimtSaved sv;
            uint32_t linear;

            if (!best) {
                /* The head stalls, and nothing may pass it. */
                return;
            }
            if (ready >= 0) {
                sv = g_array_index(k->saved, SimtSaved, ready);
                if (sv.shared) {
                    /* Back to its SM, onto its shared memory. */
                    SimtNeed need = place_need(k, &sv);

                    best = &s->sms[sv.sm];
                    if (!sm_room(s, best, q, &need)) {
                        return;
                    }
                }
                g_array_remove_index(k->saved, ready);
                if (!place_block(s, best, q, k, sv.block, &sv, cycle)) {
                    break;
                }
                continue;
            }
            if (k->redo->len) {
                linear = g_array_index(k->redo, uint32_t, 0);
                g_array_remove_index(k->redo, 0);
            } else if (k->next_block < k->end_block) {
                linear = k->next_block++;
            } else {
                /* Only saved blocks left, their records being written. */
                return;
            }
            place_block(s, best, q, k, linear, NULL, cycle);
        }
    }
}

static bool preemptible(SimtState *s, unsigned q)
{
    return s->mmu.contexts[s->queues[q].kernel.ctx].preempt_mode !=
           SIMT_PMODE_NONE;
}

/* Never under FIFO dispatch: nothing would place the preemptor first. */
bool simt_sched_is_lower(SimtState *s, unsigned hq, unsigned q)
{
    return !s->fifo_dispatch && q != hq && preemptible(s, q) &&
           s->queues[q].kernel.priority < s->queues[hq].kernel.priority;
}

bool simt_sched_none_lower(SimtState *s)
{
    for (unsigned hq = 0; hq < simt_cfg(s, SIMT_CFG_QUEUES); hq++) {
        if (!blocks_left(s, hq)) {
            continue;
        }
        for (unsigned q = 0; q < simt_cfg(s, SIMT_CFG_QUEUES); q++) {
            if (s->queues[q].kernel.active && simt_sched_is_lower(s, hq, q)) {
                return false;
            }
        }
    }
    return true;
}

bool simt_sched_lower_resident(SimtState *s, unsigned q)
{
    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        SimtSM *sm = &s->sms[i];

        for (uint32_t j = 0; j < simt_cfg(s, SIMT_CFG_SM_BLOCKS); j++) {
            SimtSlot *slot = &sm->slots[j];

            if (slot->used && slot->leave == SIMT_LEAVE_NONE &&
                simt_sched_is_lower(s, q, slot->queue)) {
                return true;
            }
        }
    }
    return false;
}

static bool slice_over(SimtState *s, unsigned hq, unsigned q, uint64_t cycle)
{
    SimtKernel *k = &s->queues[q].kernel;

    return q != hq && preemptible(s, q) &&
           k->priority == s->queues[hq].kernel.priority &&
           cycle - k->run_since >= s->pre.timeslice;
}

int simt_sched_slice_over(SimtState *s, unsigned q, uint64_t cycle)
{
    for (unsigned v = 0; v < simt_cfg(s, SIMT_CFG_QUEUES); v++) {
        SimtKernel *k = &s->queues[v].kernel;

        if (k->active && k->resident && slice_over(s, q, v, cycle)) {
            return v;
        }
    }
    return -1;
}

void simt_sched_evict_kernel(SimtState *s, unsigned q, uint64_t cycle)
{
    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        SimtSM *sm = &s->sms[i];

        for (uint32_t k = 0; k < simt_cfg(s, SIMT_CFG_SM_BLOCKS); k++) {
            if (sm->slots[k].used && sm->slots[k].queue == q) {
                simt_sched_release(s, sm, &sm->slots[k], cycle);
            }
        }
    }
}

/*
 * Resident blocks migrate whole: registers, lanes' state, shared memory
 * and the latency model's state, so that a migrated kernel keeps its
 * cycles.
 */
static const VMStateDescription vmstate_simt_warp = {
    .name = "simt/warp",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_2DARRAY(x, SimtWarp, 32, SIMT_WARP_SIZE),
        VMSTATE_UINT32_2DARRAY(f, SimtWarp, 32, SIMT_WARP_SIZE),
        VMSTATE_UINT32_ARRAY(pc, SimtWarp, SIMT_WARP_SIZE),
        VMSTATE_UINT32_ARRAY(fcsr, SimtWarp, SIMT_WARP_SIZE),
        VMSTATE_UINT32_ARRAY(resv_addr, SimtWarp, SIMT_WARP_SIZE),
        VMSTATE_UINT32_ARRAY(resv_val, SimtWarp, SIMT_WARP_SIZE),
        VMSTATE_UINT32(resv_mask, SimtWarp),
        VMSTATE_UINT32(exited, SimtWarp),
        VMSTATE_UINT32(waiting, SimtWarp),
        VMSTATE_UINT32(wsync, SimtWarp),
        VMSTATE_UINT32(warp_id, SimtWarp),
        VMSTATE_UINT64(instret, SimtWarp),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_simt_warp_timing = {
    .name = "simt/warp-timing",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(ready, SimtWarpTiming),
        VMSTATE_UINT64_ARRAY(reg, SimtWarpTiming, SIMT_TIMING_REGS),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_simt_block_state = {
    .name = "simt/block",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(desc.block_idx, SimtBlockState, 3),
        VMSTATE_UINT32(desc.smid, SimtBlockState),
        VMSTATE_UINT32(desc.local_addr, SimtBlockState),
        VMSTATE_UINT32(nthreads, SimtBlockState),
        VMSTATE_UINT32(nwarps, SimtBlockState),
        VMSTATE_UINT32(nexited, SimtBlockState),
        VMSTATE_UINT32(nwaiting, SimtBlockState),
        VMSTATE_UINT32(next_warp, SimtBlockState),
        VMSTATE_UINT32(status, SimtBlockState),
        VMSTATE_UINT32(fault, SimtBlockState),
        VMSTATE_UINT32(fault_pc, SimtBlockState),
        VMSTATE_UINT32(fault_addr, SimtBlockState),
        VMSTATE_UINT32(fault_warp, SimtBlockState),
        VMSTATE_UINT32(fault_lane, SimtBlockState),
        VMSTATE_UINT32(barriers, SimtBlockState),
        VMSTATE_UINT32(wrote_global, SimtBlockState),
        VMSTATE_UINT64(cycle, SimtBlockState),
        VMSTATE_UINT64(warp_insns, SimtBlockState),
        VMSTATE_UINT64(thread_insns, SimtBlockState),
        VMSTATE_END_OF_LIST()
    },
};

static bool slot_used(void *opaque, int version_id)
{
    return ((SimtSlot *)opaque)->used;
}

static const VMStateDescription vmstate_simt_slot = {
    .name = "simt/slot",
    .version_id = 3,
    .minimum_version_id = 3,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(used, SimtSlot),
        VMSTATE_UINT32(queue, SimtSlot),
        VMSTATE_UINT32(linear, SimtSlot),
        VMSTATE_UINT64(drain_due, SimtSlot),
        VMSTATE_UINT32(leave, SimtSlot),
        VMSTATE_BOOL(in_event, SimtSlot),
        VMSTATE_UINT64(leave_cycle, SimtSlot),
        VMSTATE_UINT64(ready_cycle, SimtSlot),
        VMSTATE_UINT32(parked, SimtSlot),
        VMSTATE_UINT64(park_limit, SimtSlot),
        VMSTATE_UINT64(dispatch_cycle, SimtSlot),
        VMSTATE_UINT64(dispatch_insns, SimtSlot),
        VMSTATE_STRUCT(block.st, SimtSlot, 1, vmstate_simt_block_state,
                       SimtBlockState),
        {
            /* block.st.nwarps warps, allocated on load */
            .name = "warps",
            .field_exists = slot_used,
            .num_offset = vmstate_offset_value(SimtSlot, block.st.nwarps,
                                               uint32_t),
            .vmsd = &vmstate_simt_warp,
            .size = sizeof(SimtWarp),
            .flags = VMS_STRUCT | VMS_VARRAY_UINT32 | VMS_POINTER | VMS_ALLOC,
            .offset = vmstate_offset_pointer(SimtSlot, warps, SimtWarp),
        },
        {
            .name = "wtiming",
            .field_exists = slot_used,
            .num_offset = vmstate_offset_value(SimtSlot, block.st.nwarps,
                                               uint32_t),
            .vmsd = &vmstate_simt_warp_timing,
            .size = sizeof(SimtWarpTiming),
            .flags = VMS_STRUCT | VMS_VARRAY_UINT32 | VMS_POINTER | VMS_ALLOC,
            .offset = vmstate_offset_pointer(SimtSlot, wtiming,
                                             SimtWarpTiming),
        },
        VMSTATE_UINT32(shared_bytes, SimtSlot),
        VMSTATE_VBUFFER_ALLOC_UINT32(shared, SimtSlot, 1, slot_used,
                                     shared_bytes),
        VMSTATE_END_OF_LIST()
    },
};

const VMStateDescription vmstate_simt_sm = {
    .name = "simt/sm",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(room.threads, SimtSM),
        VMSTATE_UINT32(room.warps, SimtSM),
        VMSTATE_UINT32(room.blocks, SimtSM),
        VMSTATE_UINT32(room.regs, SimtSM),
        VMSTATE_UINT32(room.shared, SimtSM),
        VMSTATE_UINT32(room.kernels, SimtSM),
        VMSTATE_UINT16_ARRAY(room.blocks_of, SimtSM, SIMT_MAX_QUEUES),
        VMSTATE_STRUCT_VARRAY_POINTER_UINT32(slots, SimtSM, nslots,
                                             vmstate_simt_slot, SimtSlot),
        VMSTATE_VARRAY_UINT32(port_cycle, SimtSM, nports, 1,
                              vmstate_info_uint64, uint64_t),
        VMSTATE_UINT64(mem_pipe, SimtSM),
        VMSTATE_UINT32(next_slot, SimtSM),
        VMSTATE_UINT32(next_warp, SimtSM),
        VMSTATE_UINT64(save_busy, SimtSM),
        VMSTATE_UINT64(ev_saved, SimtSM),
        VMSTATE_UINT64(ev_wait, SimtSM),
        VMSTATE_UINT32(handed_to, SimtSM),
        VMSTATE_END_OF_LIST()
    },
};

/*
 * After migration: the blocks point at their kernels again.  False if the
 * stream holds a block that no kernel of this device can own.
 */
bool simt_sched_post_load(SimtState *s)
{
    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        SimtSM *sm = &s->sms[i];

        for (uint32_t n = 0; n < sm->nslots; n++) {
            SimtSlot *slot = &sm->slots[n];
            SimtKernel *k;

            if (!slot->used) {
                continue;
            }
            k = slot->queue < SIMT_MAX_QUEUES ?
                &s->queues[slot->queue].kernel : NULL;
            if (!k || !k->active || slot->block.st.nwarps != k->warps ||
                (slot->shared &&
                 slot->shared_bytes != MAX(k->launch.shared_size, 1))) {
                return false;
            }
            /* The slot's store takes over the warps the stream brought. */
            store_drop(sm, n);
            sm->store[n] = (SimtSlotStore) {
                .warps = slot->warps, .wtiming = slot->wtiming,
                .nwarps = k->warps,
            };
            sm->kept_warps += k->warps;
            slot->block.warps = slot->warps;
            slot->block.wtiming = slot->wtiming;
            slot->block.mem_pipe = &sm->mem_pipe;
            slot->block.shared = slot->shared;
            slot->block.launch = &k->launch;
            slot->block.code = &k->code;
            slot->block.mem = &k->mem;
            /* Learnt from code this process may have held before. */
            slot->block.loop_timing.head = NULL;
        }
    }
    return true;
}
