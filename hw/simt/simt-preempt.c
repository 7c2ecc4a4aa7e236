/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the preemption engine.
 *
 * An event starts when a PREEMPT request is pending, when the head kernel
 * of the block scheduler has no room and lower-priority blocks hold the
 * SMs (seed 000's dual-kernel partial preemption: only as many blocks
 * leave, SM by SM, as the preempting kernel can use), or when the time
 * slice of a kernel has run out while one of equal priority waits.  Each
 * victim block leaves by one mechanism: drain, flush, context switch or
 * lightweight switch (seed 004); auto picks per block with seed 000's
 * cost model.  One event runs at a time; it ends when its last victim is
 * off its SM, and is then reported in registers, the event log ring and
 * an interrupt.  docs/specs/simt.rst, "Preemption", is the long version.
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/error-report.h"
#include "hw/pci/pci_device.h"
#include "migration/qemu-file-types.h"
#include "migration/vmstate.h"
#include "simt.h"
#include "simt-sched.h"
#include "simt-preempt.h"
#include "simt-mmu.h"
#include "simt-err.h"
#include "simt-irq.h"
#include "simt-event.h"
#include "simt-preempt-choice.h"
#include "hw/simt/simt-save.h"
#include "simt-timeline.h"
#include "trace.h"

/* No estimate; an overhead (a double) takes it as 2^64, cast to say so. */
#define COST_INF    UINT64_MAX

void simt_preempt_init(SimtState *s)
{
    for (unsigned c = 0; c < SIMT_MAX_CONTEXTS; c++) {
        s->pre.extents[c] = g_array_new(false, false, sizeof(SimtSaved));
    }
}

void simt_preempt_reset(SimtState *s)
{
    SimtPreempt *p = &s->pre;
    GArray *extents[SIMT_MAX_CONTEXTS];

    memcpy(extents, p->extents, sizeof(extents));
    memset(p, 0, sizeof(*p));
    memcpy(p->extents, extents, sizeof(extents));
    for (unsigned c = 0; c < SIMT_MAX_CONTEXTS; c++) {
        g_array_set_size(p->extents[c], 0);
    }
    /* Seed 000's tightest bound: 2 microseconds. */
    p->bound = 2 * simt_cfg(s, SIMT_CFG_CLOCK_MHZ);
}

/* Cycles to move @bytes at one SM's equal share of the memory bandwidth. */
static uint64_t move_cycles(SimtState *s, uint64_t bytes)
{
    return DIV_ROUND_UP(bytes * simt_cfg(s, SIMT_CFG_SM_COUNT),
                        simt_cfg(s, SIMT_CFG_MEM_BW));
}

/* First fit in context @ctx's save area; extents are kept by offset. */
static bool save_alloc(SimtState *s, unsigned ctx, uint32_t bytes,
                       uint32_t *off)
{
    GArray *ext = s->pre.extents[ctx];
    uint64_t size = s->mmu.contexts[ctx].save_size;
    uint64_t at = 0;

    for (guint i = 0; i <= ext->len; i++) {
        uint64_t next = i < ext->len ? g_array_index(ext, SimtSaved, i).offset
                                     : size;

        if (at + bytes <= next && at + bytes <= size) {
            SimtSaved e = { .offset = at, .bytes = bytes };

            g_array_insert_val(ext, i, e);
            *off = at;
            return true;
        }
        if (i < ext->len) {
            SimtSaved *e = &g_array_index(ext, SimtSaved, i);

            at = (uint64_t)e->offset + e->bytes;
        }
    }
    return false;
}

static void save_free(SimtState *s, unsigned ctx, uint32_t off)
{
    GArray *ext = s->pre.extents[ctx];

    for (guint i = 0; i < ext->len; i++) {
        if (g_array_index(ext, SimtSaved, i).offset == off) {
            g_array_remove_index(ext, i);
            return;
        }
    }
}

/* Bytes of context @ctx's save area that records take. */
static uint32_t save_used(SimtState *s, unsigned ctx)
{
    GArray *ext = s->pre.extents[ctx];
    uint32_t used = 0;

    for (guint i = 0; i < ext->len; i++) {
        used += g_array_index(ext, SimtSaved, i).bytes;
    }
    return used;
}

bool simt_preempt_ctx_reg_read(SimtState *s, unsigned ctx, unsigned reg,
                               uint32_t *val)
{
    switch (reg) {
    case SIMT_CREG_PSTATE:
        *val = (s->mmu.contexts[ctx].suspended ? SIMT_PSTATE_SUSPENDED : 0) |
               (s->pre.extents[ctx]->len ? SIMT_PSTATE_SAVED : 0);
        return true;
    case SIMT_CREG_SAVE_USED:
        *val = save_used(s, ctx);
        return true;
    default:
        return false;
    }
}

bool simt_preempt_may_run(SimtState *s, unsigned q)
{
    return !s->mmu.contexts[s->queues[q].ctx].suspended;
}

bool simt_preempt_busy(SimtState *s)
{
    if (s->pre.active) {
        return true;
    }
    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        SimtSM *sm = &s->sms[i];

        if (sm->save_busy > s->slice.start) {
            return true;
        }
    }
    return false;
}

bool simt_preempt_settled(SimtState *s)
{
    return !s->pre.requested && !s->pre.timeslice && !simt_preempt_busy(s);
}

void simt_preempt_kernel_end(SimtState *s, unsigned q)
{
    SimtKernel *k = &s->queues[q].kernel;

    if (k->saved) {
        for (guint i = 0; i < k->saved->len; i++) {
            SimtSaved *sv = &g_array_index(k->saved, SimtSaved, i);

            save_free(s, k->ctx, sv->offset);
            if (sv->shared) {
                simt_sched_drop_kept(s, sv, k);
            }
        }
        g_array_free(k->saved, true);
        k->saved = NULL;
    }
    if (k->redo) {
        g_array_free(k->redo, true);
        k->redo = NULL;
    }
    g_free(k->live);
    k->live = NULL;
    k->live_count = 0;
    g_free(k->pp);
    k->pp = NULL;
    k->pp_count = 0;
}

static void save_spec(SimtKernel *k, unsigned mode, SimtSaveSpec *spec)
{
    memset(spec, 0, sizeof(*spec));
    spec->int_regs = k->int_regs;
    spec->fp_regs = k->fp_regs;
    if (mode == SIMT_PMODE_LIGHT) {
        spec->format = SIMT_SAVE_LIGHT;
        spec->live = k->live;
        spec->live_base = k->launch.code_base;
        spec->live_count = k->live_count;
        spec->pag = simt_save_pag(&k->launch);
    } else {
        spec->format = SIMT_SAVE_FULL;
        spec->pag = SIMT_WARP_SIZE;
    }
}

static bool flushable(const SimtKernel *k, const SimtSlot *slot)
{
    return (k->flags & SIMT_CMDF_IDEMPOTENT) ||
           !slot->block.st.wrote_global;
}

/*
 * Seed 004's in-place switching, for shared memory: a lightweight switch
 * leaves it on the SM when the preempting kernel needs none, so it needs
 * neither saving nor restoring (and the block returns to the same SM).
 */
static bool keep_shared(SimtState *s, const SimtKernel *k, unsigned mode)
{
    SimtPreempt *p = &s->pre;

    return mode == SIMT_PMODE_LIGHT && k->launch.shared_size &&
           p->ev.preemptor != SIMT_NO_PREEMPTOR &&
           !s->queues[p->ev.preemptor].kernel.launch.shared_size;
}

static void event_error(SimtState *s, unsigned err)
{
    if (!s->pre.ev.status) {
        s->pre.ev.status = err;
    }
}

/*
 * Write the block's record to its context's save area and stop it;
 * @keep: its shared memory stays on the SM.
 */
static bool save_block(SimtState *s, SimtSM *sm, SimtSlot *slot,
                       unsigned mode, bool keep, uint64_t cycle)
{
    SimtPreempt *p = &s->pre;
    SimtKernel *k = &s->queues[slot->queue].kernel;
    SimtContext *c = &s->mmu.contexts[k->ctx];
    SimtSaveSpec spec, full;
    SimtSaveStats stats;
    SimtSaved sv;
    size_t rec, bytes;
    uint32_t off;
    uint8_t *buf;
    bool ok;

    save_spec(k, mode, &spec);
    save_spec(k, SIMT_PMODE_SWITCH, &full);
    spec.keep_shared = keep;
    rec = simt_save_size(&slot->block, &spec);
    bytes = rec + k->local_block_bytes;
    if (bytes > UINT32_MAX || !save_alloc(s, k->ctx, bytes, &off)) {
        SIMT_GUEST_ERR(simt_err_save_space, "context %u: save area of %u "
                       "bytes has no room for %zu more; block drains",
                       k->ctx, c->save_size, bytes);
        event_error(s, SIMT_PERR_SAVE_SPACE);
        return false;
    }
    buf = g_malloc(bytes);
    simt_save_encode(&slot->block, slot->linear, &spec, buf, rec, &stats);
    ok = simt_mmu_ctx_rw(s, k->ctx, slot->block.st.desc.local_addr,
                         buf + rec, k->local_block_bytes, false) &&
         simt_mmu_ctx_rw(s, k->ctx, (uint64_t)c->save_base + off, buf,
                         bytes, true);
    g_free(buf);
    if (!ok) {
        save_free(s, k->ctx, off);
        SIMT_GUEST_ERR(simt_err_save_write, "context %u: save area at "
                       "0x%x is not writable; block drains",
                       k->ctx, c->save_base + off);
        event_error(s, SIMT_PERR_SAVE_FAULT);
        return false;
    }

    slot->leave = SIMT_LEAVE_SAVE;
    if (!sm->ev_saved) {
        sm->ev_wait = MAX(cycle, sm->save_busy) - p->ev.req_cycle;
    }
    slot->leave_cycle = MAX(cycle, sm->save_busy) + move_cycles(s, bytes);
    sm->save_busy = slot->leave_cycle;
    sv = (SimtSaved) {
        .block = slot->linear, .offset = off, .bytes = bytes,
        .sm = sm->id, .ready = slot->leave_cycle,
    };
    if (keep) {
        /* The slot's release leaves the bytes allocated: see there. */
        sv.shared = slot->shared;
        sv.shared_bytes = slot->shared_bytes;
        slot->shared = NULL;
        slot->shared_bytes = 0;
        p->ev.kept_bytes += k->launch.shared_size;
    }
    g_array_append_val(k->saved, sv);
    p->ev.saved_bytes += bytes;
    sm->ev_saved += bytes;
    p->ev.reg_bytes += stats.reg_bytes;
    p->ev.live_bytes += stats.live_bytes;
    p->ev.occupied_bytes += simt_save_size(&slot->block, &full) +
                            k->local_block_bytes;
    p->saved_total += bytes;
    if (mode == SIMT_PMODE_LIGHT) {
        p->ev.light++;
    } else {
        p->ev.switched++;
    }
    trace_simt_preempt_save(slot->queue, slot->linear, sm->id, mode, bytes,
                            stats.reg_bytes, slot->leave_cycle);
    return true;
}

typedef struct SimtVictim {
    SimtSlot *slot;
    unsigned mode;              /* mechanism for this block */
    uint64_t lat;               /* estimated cycles until it is off */
    double ovh;                 /* estimated warp instructions lost */
    bool estimated;             /* lat is the auto or Chimera estimate */
    bool oracle;                /* its drain time is the ORACLE table's */
} SimtVictim;

/*
 * The cycle at which the ORACLE table says block @block of queue @q would
 * be off its SM if drained, found by binary search of the sorted table;
 * false if it has no entry, or is unreachable (then it is turned off).
 */
static bool oracle_find(SimtState *s, unsigned q, uint32_t block,
                        uint64_t *done_cycle)
{
    SimtPreempt *p = &s->pre;
    uint64_t key = (uint64_t)q << 32 | block;
    uint32_t lo = 0, hi = p->oracle_count;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint64_t at = p->oracle_base + (uint64_t)mid * sizeof(struct
                                                            simt_oracle_entry);
        struct simt_oracle_entry e;
        uint64_t k;

        if (pci_dma_read(PCI_DEVICE(s), at, &e, sizeof(e)) != MEMTX_OK) {
            SIMT_GUEST_ERR(simt_err_oracle_dma, "drain oracle at 0x%" PRIx64
                           " unreachable; oracle off", at);
            p->oracle_count = 0;
            return false;
        }
        k = (uint64_t)le32_to_cpu(e.queue) << 32 | le32_to_cpu(e.block);
        if (k == key) {
            *done_cycle = le64_to_cpu(e.done_cycle);
            return true;
        }
        if (k < key) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return false;
}

/* When @v's block was estimated to finish draining, or 0: no estimate. */
static uint64_t drain_due(const SimtVictim *v, uint64_t cycle)
{
    return v->estimated && v->lat != COST_INF ? cycle + v->lat : 0;
}

/* Take victim @v's block off @sm by its mechanism (falling back to drain). */
static void evict_block(SimtState *s, SimtSM *sm, const SimtVictim *v,
                        uint64_t cycle)
{
    SimtPreempt *p = &s->pre;
    SimtSlot *slot = v->slot;
    SimtKernel *k = &s->queues[slot->queue].kernel;
    uint64_t insns = slot->block.st.warp_insns;
    unsigned mode = v->mode;

    p->ev.victims |= 1u << slot->queue;
    p->ev.victim_insns = MIN((uint64_t)p->ev.victim_insns + insns,
                             UINT32_MAX);
    if (mode == SIMT_PMODE_FLUSH && flushable(k, slot)) {
        p->ev.flushed++;
        p->ev.wasted_insns += insns;
        p->wasted_total += insns;
        g_array_append_val(k->redo, slot->linear);
        trace_simt_preempt_flush(slot->queue, slot->linear, sm->id, insns);
        simt_timeline_record(s, SIMT_TRACE_FLUSH, slot->queue, sm->id,
                             slot->linear, cycle);
        simt_sched_release(s, sm, slot, cycle);
        return;
    }
    slot->in_event = true;
    p->pending++;
    if (mode == SIMT_PMODE_LIGHT && s->mmu.contexts[k->ctx].pp_drain) {
        /* Seed 004's selective preemption: saved at points, if in time. */
        slot->leave = SIMT_LEAVE_PARK;
        slot->parked = 0;
        slot->park_limit = cycle + s->mmu.contexts[k->ctx].pp_drain;
        trace_simt_preempt_park(slot->queue, slot->linear, sm->id,
                                slot->park_limit);
        return;
    }
    if ((mode == SIMT_PMODE_SWITCH || mode == SIMT_PMODE_LIGHT) &&
        save_block(s, sm, slot, mode, keep_shared(s, k, mode), cycle)) {
        return;
    }
    slot->leave = SIMT_LEAVE_DRAIN;
    slot->drain_due = mode == SIMT_PMODE_DRAIN ? drain_due(v, cycle) : 0;
    p->ev.drained++;
    p->ev.oracle_drains += mode == SIMT_PMODE_DRAIN && v->oracle;
    trace_simt_preempt_drain(slot->queue, slot->linear, sm->id);
}

/* Whether no warp of @slot's block can run before it is saved. */
static bool block_stopped(const SimtSlot *slot)
{
    for (uint32_t wi = 0; wi < slot->block.st.nwarps; wi++) {
        const SimtWarp *w = &slot->warps[wi];

        if ((w->exited | w->waiting) != SIMT_FULL_MASK &&
            !(slot->parked >> wi & 1)) {
            return false;
        }
    }
    return true;
}

void simt_preempt_warp_stopped(SimtState *s, SimtSM *sm, SimtSlot *slot,
                               unsigned warp, unsigned how, uint64_t cycle)
{
    SimtPreempt *p = &s->pre;
    SimtKernel *k = &s->queues[slot->queue].kernel;

    if (how != SIMT_STOP_NOT) {
        slot->parked |= 1u << warp;
        if (how == SIMT_STOP_POINT) {
            p->ev.pp_warps++;
        } else {
            p->ev.pp_cut++;
        }
    }
    if (!block_stopped(slot)) {
        return;
    }
    /*
     * Every warp is at a point, out of time, exited or at a barrier (where
     * it would wait for the others anyway): the block is saved from here.
     */
    slot->parked = 0;
    p->ev.pp_drain = MAX(p->ev.pp_drain,
                         MIN(cycle - p->ev.req_cycle, UINT32_MAX));
    if (!save_block(s, sm, slot, SIMT_PMODE_LIGHT,
                    keep_shared(s, k, SIMT_PMODE_LIGHT), cycle)) {
        slot->leave = SIMT_LEAVE_DRAIN;
        p->ev.drained++;
        trace_simt_preempt_drain(slot->queue, slot->linear, sm->id);
    }
}

/* Mean CPI of the source (running or finished blocks) that varies less. */
static double predicted_cpi(SimtState *s, unsigned q, uint64_t cycle)
{
    SimtKernel *k = &s->queues[q].kernel;
    double run_sum = 0, run_sq = 0, run_n = 0;
    double fin_n = k->stat_blocks, fin_mean, fin_var, run_mean, run_var;

    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        for (uint32_t j = 0; j < simt_cfg(s, SIMT_CFG_SM_BLOCKS); j++) {
            SimtSlot *slot = &s->sms[i].slots[j];
            double cpi;

            uint64_t insns = slot->block.st.warp_insns - slot->dispatch_insns;

            if (!slot->used || slot->queue != q || !insns ||
                cycle <= slot->dispatch_cycle) {
                continue;
            }
            cpi = (double)(cycle - slot->dispatch_cycle) / insns;
            run_sum += cpi;
            run_sq += cpi * cpi;
            run_n++;
        }
    }
    fin_mean = k->stat_cpi_sum / fin_n;
    fin_var = k->stat_cpi_sq / fin_n - fin_mean * fin_mean;
    if (!run_n) {
        return fin_mean;
    }
    run_mean = run_sum / run_n;
    run_var = run_sq / run_n - run_mean * run_mean;
    return run_var < fin_var ? run_mean : fin_mean;
}

/*
 * Seed 000's drain estimate (its section 3.5) for @slot's block: the
 * kernel's mean warp instructions per retired block less the block's,
 * times the CPI predicted_cpi() gives; the kernel has retired a block.
 */
static uint64_t seed000_drain(SimtState *s, const SimtSlot *slot,
                              uint64_t cycle)
{
    SimtKernel *k = &s->queues[slot->queue].kernel;
    uint64_t avg = k->stat_insns / k->stat_blocks;
    uint64_t done = slot->block.st.warp_insns;

    return (avg > done ? avg - done : 0) * predicted_cpi(s, slot->queue, cycle);
}

/*
 * One of the @n options (the one usable option at least, flush or drain,
 * is always there) as @policy picks it; a pick that is out of range or
 * not usable is overruled by seed 000's rule and counted.
 */
static void pick_option(SimtState *s, SimtVictim *v,
                        const SimtPreemptOption *opt, unsigned n,
                        const SimtPreemptChoice *policy)
{
    unsigned best = policy->choose(opt, n, s->pre.bound);

    if (best >= n || !opt[best].usable) {
        warn_report_once("simt: preemption choice '%s' picked option %u of "
                         "%u, not usable; using seed 000's rule",
                         policy->name, best, n);
        s->policy_errors++;
        best = simt_preempt_choose_in_bound(opt, n, s->pre.bound);
    }
    v->mode = opt[best].mode;
    v->lat = opt[best].lat;
    v->ovh = opt[best].ovh;
}

/* Chimera's rule is seed 000's, whatever the preempt-choice property. */
static const SimtPreemptChoice chimera_rule = {
    "chimera", "seed 000's rule", simt_preempt_choose_in_bound,
};

/*
 * Seed 000's per-block choice: the cheapest mechanism whose latency meets
 * the bound, else the fastest.  Lightweight switching is a fourth
 * technique beside flush, context switch and drain (digest part C.2).
 * A block the ORACLE table knows drains in the time it gives.
 */
static void auto_choose(SimtState *s, SimtSM *sm, SimtVictim *v,
                        uint64_t *queued_saves, uint64_t cycle)
{
    SimtSlot *slot = v->slot;
    SimtKernel *k = &s->queues[slot->queue].kernel;
    SimtBlockState *st = &slot->block.st;
    uint64_t elapsed = cycle > slot->dispatch_cycle ?
                       cycle - slot->dispatch_cycle : 1;
    double ipc = (double)(st->warp_insns - slot->dispatch_insns) / elapsed;
    uint64_t queued = s->queued_saves ? *queued_saves :
                      sm->save_busy > cycle ? sm->save_busy - cycle : 0;
    uint64_t room = (uint64_t)s->mmu.contexts[k->ctx].save_size -
                    save_used(s, k->ctx);
    uint64_t done;
    SimtPreemptOption opt[SIMT_PREEMPT_OPTIONS] = {
        { .mode = SIMT_PMODE_FLUSH, .lat = 0, .ovh = st->warp_insns,
          .usable = flushable(k, slot) },
        { .mode = SIMT_PMODE_LIGHT },
        { .mode = SIMT_PMODE_SWITCH },
        { .mode = SIMT_PMODE_DRAIN, .lat = COST_INF, .usable = true },
    };

    for (int i = 1; i <= 2; i++) {
        SimtSaveSpec spec;
        uint64_t bytes;

        save_spec(k, opt[i].mode, &spec);
        spec.keep_shared = keep_shared(s, k, opt[i].mode);
        bytes = simt_save_size(&slot->block, &spec) + k->local_block_bytes;
        opt[i].lat = queued + move_cycles(s, bytes);
        opt[i].ovh = ipc * 2 * opt[i].lat;
        opt[i].usable = bytes <= room;
    }
    if (oracle_find(s, slot->queue, slot->linear, &done)) {
        opt[3].lat = done > cycle ? done - cycle : 0;
        v->oracle = true;
    } else if (k->stat_blocks) {
        opt[3].lat = seed000_drain(s, slot, cycle);
    }
    pick_option(s, v, opt, SIMT_PREEMPT_OPTIONS, s->preempt_choice);
    /* A switch chosen here delays the saves of the SM's next victims. */
    if (v->mode == SIMT_PMODE_LIGHT || v->mode == SIMT_PMODE_SWITCH) {
        *queued_saves = v->lat;
    }
}

/*
 * Chimera's per-block choice (Park et al. as seed 000 describes it,
 * digest A.2 and A.3.5): flush, context switch or drain, the cheapest
 * whose latency meets the bound, else the fastest.  Unlike auto, drain
 * costs the instructions the SM issues less while its warps thin out,
 * taken as the block's own rate over its remaining time, and that time
 * is the mean run time of the kernel's finished blocks less the block's
 * own, or with the chimera-plus property seed 000's estimate ("Chimera+",
 * its Fig. 4.3).  @queued: save traffic ahead of this block on its SM,
 * including the switches already chosen there; a switch adds its own.
 */
static void chimera_choose(SimtState *s, SimtVictim *v, uint64_t *queued,
                           uint64_t cycle)
{
    SimtSlot *slot = v->slot;
    SimtKernel *k = &s->queues[slot->queue].kernel;
    SimtBlockState *st = &slot->block.st;
    uint64_t elapsed = cycle > slot->dispatch_cycle ?
                       cycle - slot->dispatch_cycle : 1;
    double ipc = (double)(st->warp_insns - slot->dispatch_insns) / elapsed;
    uint64_t room = (uint64_t)s->mmu.contexts[k->ctx].save_size -
                    save_used(s, k->ctx);
    SimtPreemptOption opt[3] = {
        { .mode = SIMT_PMODE_FLUSH, .lat = 0, .ovh = st->warp_insns,
          .usable = flushable(k, slot) },
        { .mode = SIMT_PMODE_SWITCH },
        { .mode = SIMT_PMODE_DRAIN, .lat = COST_INF, .ovh = (double)COST_INF,
          .usable = true },
    };
    SimtSaveSpec spec;
    uint64_t bytes;

    save_spec(k, SIMT_PMODE_SWITCH, &spec);
    bytes = simt_save_size(&slot->block, &spec) + k->local_block_bytes;
    opt[1].lat = *queued + move_cycles(s, bytes);
    opt[1].ovh = ipc * 2 * opt[1].lat;
    opt[1].usable = bytes <= room;
    if (s->chimera_plus && k->stat_blocks) {
        opt[2].lat = seed000_drain(s, slot, cycle);
    } else if (!s->chimera_plus && k->stat_time_blocks) {
        uint64_t avg = k->stat_time_sum / k->stat_time_blocks;

        opt[2].lat = avg > elapsed ? avg - elapsed : 0;
    }
    if (opt[2].lat != COST_INF) {
        opt[2].ovh = ipc * opt[2].lat;
    }
    pick_option(s, v, opt, 3, &chimera_rule);
    if (v->mode == SIMT_PMODE_SWITCH) {
        *queued = v->lat;
    }
}

/*
 * Order of two estimates (latency, overhead): the one that meets @bound
 * first, then the least overhead, then the least latency; 0 if equal.
 */
static int estimate_cmp(uint64_t xlat, double xovh, uint64_t ylat,
                        double yovh, uint64_t bound)
{
    bool xin = xlat <= bound, yin = ylat <= bound;

    if (xin != yin) {
        return xin ? -1 : 1;
    }
    if (xovh != yovh) {
        return xovh < yovh ? -1 : 1;
    }
    if (xlat != ylat) {
        return xlat < ylat ? -1 : 1;
    }
    return 0;
}

/*
 * Order victims so that the cheapest go first, by their estimates (the
 * auto and Chimera modes'; other modes have none), then by their
 * mechanism.
 */
static gint victim_cmp(gconstpointer a, gconstpointer b, gpointer bound)
{
    const SimtVictim *x = a, *y = b;
    const SimtBlockState *sx = &x->slot->block.st, *sy = &y->slot->block.st;
    int c = estimate_cmp(x->lat, x->ovh, y->lat, y->ovh,
                         *(const uint32_t *)bound);

    if (c) {
        return c;
    }
    if (x->mode != y->mode) {
        return x->mode < y->mode ? -1 : 1;
    }
    switch (x->mode) {
    case SIMT_PMODE_DRAIN:      /* the nearest to done first */
        if (sx->warp_insns != sy->warp_insns) {
            return sx->warp_insns > sy->warp_insns ? -1 : 1;
        }
        break;
    case SIMT_PMODE_FLUSH:      /* the least work lost first */
        if (sx->warp_insns != sy->warp_insns) {
            return sx->warp_insns < sy->warp_insns ? -1 : 1;
        }
        break;
    default:
        break;
    }
    return x->slot->linear < y->slot->linear ? -1 :
           x->slot->linear > y->slot->linear;
}

/* Cycles of save and restore traffic already queued on @sm. */
static uint64_t save_queue(const SimtSM *sm, uint64_t cycle)
{
    return sm->save_busy > cycle ? sm->save_busy - cycle : 0;
}

/* The mode victim @v's block gets when @mode is asked for (0: context's). */
static unsigned victim_mode_of(SimtState *s, const SimtSlot *slot,
                               unsigned mode)
{
    SimtKernel *k = &s->queues[slot->queue].kernel;

    if (!mode) {
        mode = s->mmu.contexts[k->ctx].preempt_mode;
    }
    return mode == SIMT_PMODE_NONE ? SIMT_PMODE_DRAIN : mode;
}

/*
 * The mechanism for victim @v given the mode asked for (0: context's);
 * @queued: Chimera's save traffic on @sm so far (see chimera_choose).
 */
static void victim_mode(SimtState *s, SimtSM *sm, SimtVictim *v,
                        unsigned mode, uint64_t *queued, uint64_t cycle)
{
    SimtKernel *k = &s->queues[v->slot->queue].kernel;

    mode = victim_mode_of(s, v->slot, mode);
    v->mode = mode;
    v->lat = 0;
    v->ovh = 0;
    v->estimated = mode == SIMT_PMODE_AUTO || mode == SIMT_PMODE_CHIMERA;
    v->oracle = false;
    if (mode == SIMT_PMODE_AUTO) {
        auto_choose(s, sm, v, queued, cycle);
    } else if (mode == SIMT_PMODE_CHIMERA) {
        chimera_choose(s, v, queued, cycle);
    } else if (mode == SIMT_PMODE_FLUSH && !flushable(k, v->slot)) {
        v->mode = SIMT_PMODE_DRAIN;
    }
}

static void event_start(SimtState *s, unsigned trigger, unsigned mode,
                        int preemptor, uint64_t cycle)
{
    SimtPreempt *p = &s->pre;

    memset(&p->ev, 0, sizeof(p->ev));
    p->ev.seq = p->events++;
    p->ev.trigger = trigger;
    p->ev.mode = mode;
    p->ev.preemptor = preemptor < 0 ? SIMT_NO_PREEMPTOR : preemptor;
    p->ev.req_cycle = cycle;
    p->active = true;
    p->pending = 0;
    trace_simt_preempt_start(p->ev.seq, trigger, mode, preemptor, cycle);
    simt_timeline_record(s, SIMT_TRACE_PREEMPT,
                         preemptor < 0 ? SIMT_NO_PREEMPTOR : preemptor,
                         0, p->ev.seq, cycle);
}

/* @room as it would be once @slot's block left its SM. */
static void room_give_victim(SimtState *s, SimtRoom *room,
                             const SimtSlot *slot)
{
    SimtNeed n = simt_block_need(&s->queues[slot->queue].kernel);

    simt_room_give(room, slot->queue, &n);
}

/* Whether @slot's block is one @victim_ok accepts and is not leaving. */
static bool is_victim(SimtState *s, unsigned hq, const SimtSlot *slot,
                      bool (*victim_ok)(SimtState *, unsigned, unsigned))
{
    return slot->used && slot->leave == SIMT_LEAVE_NONE &&
           victim_ok(s, hq, slot->queue);
}

/* What emptying one SM of its victims would give and cost (Chimera). */
typedef struct SimtSmPlan {
    SimtSM *sm;
    uint32_t order;             /* position in the preset's order */
    uint32_t gain;              /* preemptor blocks that would fit */
    uint64_t lat;               /* the slowest victim's estimate */
    double ovh;                 /* the victims' estimates summed */
} SimtSmPlan;

/* SMs by their estimates (estimate_cmp), then in the preset's order. */
static gint plan_cmp(gconstpointer a, gconstpointer b, gpointer bound)
{
    const SimtSmPlan *x = a, *y = b;
    int c = estimate_cmp(x->lat, x->ovh, y->lat, y->ovh,
                         *(const uint32_t *)bound);

    if (c) {
        return c;
    }
    return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * Chimera's SM-granularity preemption: every SM holding victims is
 * costed as if all of them left (each block by its context's mode,
 * Chimera's per-block choice where that is Chimera); then the cheapest
 * SMs are emptied whole, as many as @needed blocks of queue @hq need,
 * and handed to @hq.  Returns how many blocks still find no room.
 */
static uint32_t chimera_preempt_for(SimtState *s, unsigned hq,
                                    uint32_t needed,
                                    bool (*victim_ok)(SimtState *, unsigned,
                                                      unsigned),
                                    uint64_t cycle)
{
    SimtNeed need = simt_block_need(&s->queues[hq].kernel);
    uint32_t nsm = simt_cfg(s, SIMT_CFG_SM_COUNT);
    g_autofree SimtSmPlan *plan = g_new(SimtSmPlan, nsm);
    uint32_t nplan = 0;

    for (uint32_t i = 0; i < nsm; i++) {
        SimtSM *sm = &s->sms[s->sm_order[i]];
        SimtRoom room = sm->room;
        SimtSmPlan *pl = &plan[nplan];
        uint64_t queued = save_queue(sm, cycle);

        *pl = (SimtSmPlan) { .sm = sm, .order = i };
        for (uint32_t j = 0; j < simt_cfg(s, SIMT_CFG_SM_BLOCKS); j++) {
            SimtSlot *slot = &sm->slots[j];
            SimtVictim v = { .slot = slot };

            if (!is_victim(s, hq, slot, victim_ok)) {
                continue;
            }
            victim_mode(s, sm, &v, 0, &queued, cycle);
            pl->lat = MAX(pl->lat, v.lat);
            pl->ovh += v.ovh;
            room_give_victim(s, &room, slot);
        }
        while (pl->gain < needed && simt_room_fits(s, &room, hq, &need)) {
            simt_room_take(&room, hq, &need);
            pl->gain++;
        }
        if (pl->gain) {
            nplan++;
        }
    }
    g_qsort_with_data(plan, nplan, sizeof(*plan), plan_cmp, &s->pre.bound);
    for (uint32_t i = 0; i < nplan && needed; i++) {
        SimtSM *sm = plan[i].sm;
        uint64_t queued = save_queue(sm, cycle);

        for (uint32_t j = 0; j < simt_cfg(s, SIMT_CFG_SM_BLOCKS); j++) {
            SimtSlot *slot = &sm->slots[j];
            SimtVictim v = { .slot = slot };

            if (is_victim(s, hq, slot, victim_ok)) {
                victim_mode(s, sm, &v, 0, &queued, cycle);
                evict_block(s, sm, &v, cycle);
            }
        }
        sm->handed_to = hq + 1;
        trace_simt_preempt_chimera_sm(hq, sm->id, plan[i].gain, plan[i].lat,
                                      (uint64_t)MIN(plan[i].ovh, 1e18));
        needed -= MIN(needed, plan[i].gain);
    }
    return needed;
}

/* Whether a victim of the event would go by Chimera: then all do. */
static bool chimera_event(SimtState *s, unsigned hq,
                          bool (*victim_ok)(SimtState *, unsigned, unsigned))
{
    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        for (uint32_t j = 0; j < simt_cfg(s, SIMT_CFG_SM_BLOCKS); j++) {
            SimtSlot *slot = &s->sms[i].slots[j];

            if (is_victim(s, hq, slot, victim_ok) &&
                victim_mode_of(s, slot, 0) == SIMT_PMODE_CHIMERA) {
                return true;
            }
        }
    }
    return false;
}

/*
 * Free room for @needed blocks of queue @hq, SM by SM in the preset's
 * order, taking the cheapest victims accepted by @victim_ok first
 * (whole SMs if a victim's mode is Chimera).  Returns how many blocks
 * still find no room.
 */
static uint32_t preempt_for(SimtState *s, unsigned hq, uint32_t needed,
                            bool (*victim_ok)(SimtState *, unsigned, unsigned),
                            unsigned mode, uint64_t cycle)
{
    SimtNeed need = simt_block_need(&s->queues[hq].kernel);
    uint32_t nslots = simt_cfg(s, SIMT_CFG_SM_BLOCKS);
    g_autofree SimtVictim *cand = NULL;

    if (chimera_event(s, hq, victim_ok)) {
        return chimera_preempt_for(s, hq, needed, victim_ok, cycle);
    }
    cand = g_new(SimtVictim, nslots);
    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT) && needed; i++) {
        SimtSM *sm = &s->sms[s->sm_order[i]];
        SimtRoom room = sm->room;
        uint32_t n = 0, taken = 0, useful = 0;
        uint64_t queued = save_queue(sm, cycle);

        for (uint32_t j = 0; j < nslots; j++) {
            SimtSlot *slot = &sm->slots[j];

            if (slot->used && slot->leave == SIMT_LEAVE_NONE &&
                victim_ok(s, hq, slot->queue)) {
                cand[n].slot = slot;
                victim_mode(s, sm, &cand[n], mode, &queued, cycle);
                n++;
            }
        }
        g_qsort_with_data(cand, n, sizeof(*cand), victim_cmp, &s->pre.bound);
        while (needed) {
            if (simt_room_fits(s, &room, hq, &need)) {
                simt_room_take(&room, hq, &need);
                needed--;
                useful = taken;
            } else if (taken < n) {
                room_give_victim(s, &room, cand[taken++].slot);
            } else {
                break;
            }
        }
        /* Victims after the last block that found room would free nothing. */
        for (uint32_t j = 0; j < useful; j++) {
            evict_block(s, sm, &cand[j], cycle);
        }
    }
    return needed;
}

static bool victim_sliced(SimtState *s, unsigned hq, unsigned q)
{
    return (int)q == s->pre.slice_victim;
}

/* Blocks queue @q's kernel still has to place. */
static uint32_t blocks_to_place(SimtKernel *k)
{
    return k->end_block - k->next_block + k->redo->len + k->saved->len;
}

static void start_request(SimtState *s, unsigned ctx, uint64_t cycle)
{
    SimtPreempt *p = &s->pre;
    unsigned mode = p->req_mode[ctx];

    p->requested &= ~(1ull << ctx);
    event_start(s, SIMT_PTRIG_REQUEST, mode, -1, cycle);
    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        SimtSM *sm = &s->sms[i];
        uint64_t queued = save_queue(sm, cycle);

        for (uint32_t j = 0; j < simt_cfg(s, SIMT_CFG_SM_BLOCKS); j++) {
            SimtSlot *slot = &sm->slots[j];
            SimtVictim v = { .slot = slot };

            if (slot->used && slot->leave == SIMT_LEAVE_NONE &&
                s->queues[slot->queue].kernel.ctx == ctx) {
                victim_mode(s, sm, &v, mode, &queued, cycle);
                evict_block(s, sm, &v, cycle);
            }
        }
    }
}

static void event_finish(SimtState *s, uint64_t cycle)
{
    SimtPreempt *p = &s->pre;
    struct simt_preempt_event *ev = &p->ev;
    struct simt_preempt_event le;

    if (!ev->done_cycle) {
        ev->done_cycle = ev->req_cycle;
    }
    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        SimtSM *sm = &s->sms[i];
        uint64_t bound = sm->ev_wait + move_cycles(s, sm->ev_saved);

        if (sm->ev_saved && bound > ev->save_bound) {
            ev->save_bound = MIN(bound, UINT32_MAX);
            ev->queue_wait = MIN(sm->ev_wait, UINT32_MAX);
        }
        sm->ev_saved = 0;
        sm->ev_wait = 0;
    }
    p->last = *ev;
    p->status = ev->status;
    p->active = false;
    /* Chimera's SMs are free for any kernel again. */
    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        s->sms[i].handed_to = 0;
    }
    trace_simt_preempt_done(ev->seq, ev->status, ev->drained, ev->flushed,
                            ev->switched, ev->light,
                            ev->dispatch_cycle, ev->done_cycle);
    simt_timeline_record(s, SIMT_TRACE_PREEMPT_DONE, ev->preemptor, 0, ev->seq,
                         ev->done_cycle);
    if (p->log_size) {
        uint64_t addr = p->log_base +
            (uint64_t)(p->log_count & (p->log_size - 1)) * sizeof(le);

        le = *ev;
        le.seq = cpu_to_le32(ev->seq);
        le.victims = cpu_to_le32(ev->victims);
        le.drained = cpu_to_le16(ev->drained);
        le.flushed = cpu_to_le16(ev->flushed);
        le.switched = cpu_to_le16(ev->switched);
        le.light = cpu_to_le16(ev->light);
        le.saved_bytes = cpu_to_le32(ev->saved_bytes);
        le.occupied_bytes = cpu_to_le32(ev->occupied_bytes);
        le.wasted_insns = cpu_to_le32(ev->wasted_insns);
        le.kept_bytes = cpu_to_le32(ev->kept_bytes);
        le.reg_bytes = cpu_to_le32(ev->reg_bytes);
        le.req_cycle = cpu_to_le64(ev->req_cycle);
        le.dispatch_cycle = cpu_to_le64(ev->dispatch_cycle);
        le.done_cycle = cpu_to_le64(ev->done_cycle);
        le.save_bound = cpu_to_le32(ev->save_bound);
        le.queue_wait = cpu_to_le32(ev->queue_wait);
        le.drain_error = cpu_to_le32(ev->drain_error);
        le.drain_time = cpu_to_le32(ev->drain_time);
        le.pp_drain = cpu_to_le32(ev->pp_drain);
        le.pp_warps = cpu_to_le32(ev->pp_warps);
        le.pp_cut = cpu_to_le32(ev->pp_cut);
        le.live_bytes = cpu_to_le32(ev->live_bytes);
        le.victim_insns = cpu_to_le32(ev->victim_insns);
        le.oracle_drains = cpu_to_le32(ev->oracle_drains);
        if (pci_dma_write(PCI_DEVICE(s), addr, &le, sizeof(le)) != MEMTX_OK) {
            SIMT_GUEST_ERR(simt_err_event_log_dma, "event log at 0x%" PRIx64
                           " unreachable; logging stops", addr);
            p->log_size = 0;
        } else {
            p->log_count++;
        }
    }
    simt_irq_raise(s, SIMT_IRQ_PREEMPT);
}

void simt_preempt_check(SimtState *s, uint64_t cycle)
{
    SimtPreempt *p = &s->pre;
    int hq;

    /* The dispatch after the last victim left has had its chance. */
    if (p->active && !p->pending) {
        event_finish(s, cycle);
    }
    if (p->active) {
        return;
    }
    if (p->requested) {
        start_request(s, ctz64(p->requested), cycle);
        return;
    }
    hq = simt_sched_head(s);
    if (hq < 0 || simt_sched_has_room(s, hq)) {
        return;
    }
    if (simt_sched_lower_resident(s, hq)) {
        SimtKernel *hk = &s->queues[hq].kernel;

        event_start(s, SIMT_PTRIG_PRIORITY, 0, hq, cycle);
        preempt_for(s, hq, blocks_to_place(hk), simt_sched_is_lower, 0,
                    cycle);
        return;
    }
    if (p->timeslice) {
        p->slice_victim = simt_sched_slice_over(s, hq, cycle);
        if (p->slice_victim >= 0) {
            SimtKernel *vk = &s->queues[p->slice_victim].kernel;

            event_start(s, SIMT_PTRIG_TIMESLICE, 0, hq, cycle);
            preempt_for(s, hq, blocks_to_place(&s->queues[hq].kernel),
                        victim_sliced, 0, cycle);
            /* It queues behind the kernels of its priority. */
            vk->seq = s->launch_seq++;
        }
    }
}

/* The first cycle after @cycle at which a saved block leaves its SM. */
uint64_t simt_preempt_next_leave(SimtState *s, uint64_t cycle)
{
    uint64_t next = UINT64_MAX;

    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        SimtSM *sm = &s->sms[i];

        for (uint32_t j = 0; j < simt_cfg(s, SIMT_CFG_SM_BLOCKS); j++) {
            SimtSlot *slot = &sm->slots[j];

            if (slot->used && slot->leave == SIMT_LEAVE_SAVE &&
                slot->leave_cycle > cycle) {
                next = MIN(next, slot->leave_cycle);
            }
        }
    }
    return next;
}

void simt_preempt_advance(SimtState *s, uint64_t cycle)
{
    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        SimtSM *sm = &s->sms[i];

        for (uint32_t j = 0; j < simt_cfg(s, SIMT_CFG_SM_BLOCKS); j++) {
            SimtSlot *slot = &sm->slots[j];

            if (!slot->used || slot->leave != SIMT_LEAVE_SAVE ||
                slot->leave_cycle > cycle) {
                continue;
            }
            simt_timeline_record(s, SIMT_TRACE_SAVE, slot->queue, sm->id,
                                 slot->linear, slot->leave_cycle);
            simt_sched_release(s, sm, slot, slot->leave_cycle);
        }
    }
}

void simt_preempt_slot_free(SimtState *s, SimtSlot *slot, uint64_t cycle)
{
    SimtPreempt *p = &s->pre;

    if (slot->in_event && p->active) {
        p->pending--;
        p->ev.done_cycle = MAX(p->ev.done_cycle, cycle);
        if (slot->leave == SIMT_LEAVE_PARK) {
            /* It ended before its warps all stopped: it drained. */
            p->ev.drained++;
        }
        if (slot->leave == SIMT_LEAVE_DRAIN && slot->drain_due) {
            uint64_t req = p->ev.req_cycle, due = MAX(slot->drain_due, req);
            uint64_t miss = cycle > due ? cycle - due : due - cycle;

            p->ev.drain_error = MIN((uint64_t)p->ev.drain_error + miss,
                                    UINT32_MAX);
            p->ev.drain_time = MIN((uint64_t)p->ev.drain_time + cycle - req,
                                   UINT32_MAX);
        }
    }
    slot->drain_due = 0;
    slot->in_event = false;
    slot->leave = SIMT_LEAVE_NONE;
    slot->parked = 0;
}

void simt_preempt_placed(SimtState *s, unsigned q, SimtSM *sm,
                         SimtSlot *slot, uint64_t cycle)
{
    SimtPreempt *p = &s->pre;
    SimtKernel *k = &s->queues[q].kernel;

    slot->dispatch_cycle = cycle;
    slot->dispatch_insns = slot->block.st.warp_insns;
    if (k->resident == 1) {
        k->run_since = cycle;
    }
    if (p->active && p->ev.preemptor == q && !p->ev.dispatch_cycle) {
        p->ev.dispatch_cycle = cycle;
    }
}

bool simt_preempt_restore(SimtState *s, unsigned q, const SimtSaved *sv,
                          SimtSM *sm, SimtSlot *slot)
{
    SimtKernel *k = &s->queues[q].kernel;
    SimtContext *c = &s->mmu.contexts[k->ctx];
    g_autofree uint8_t *buf = g_malloc(sv->bytes);
    uint32_t rec = sv->bytes - k->local_block_bytes;
    const char *why = NULL;

    if (!simt_mmu_ctx_rw(s, k->ctx, (uint64_t)c->save_base + sv->offset,
                         buf, sv->bytes, false)) {
        why = "save area unreadable";
    } else if (k->launch.shared_size && rec >= sizeof(struct simt_save_block) &&
               !ldl_le_p(buf + offsetof(struct simt_save_block,
                                        shared_bytes)) != !!sv->shared) {
        why = "shared memory neither in the record nor kept";
    } else {
        why = simt_save_decode(&slot->block, sv->block, buf, rec);
    }
    if (!why && !simt_mmu_ctx_rw(s, k->ctx, slot->block.st.desc.local_addr,
                                 buf + rec, k->local_block_bytes, true)) {
        why = "local memory unwritable";
    }
    if (sv->shared) {
        memcpy(slot->shared, sv->shared, k->launch.shared_size);
        g_free(sv->shared);
    }
    save_free(s, k->ctx, sv->offset);
    if (why) {
        SIMT_GUEST_ERR(simt_err_restore, "queue %u: block %u cannot be "
                       "restored: %s", q, sv->block, why);
        return false;
    }
    slot->ready_cycle = MAX(slot->dispatch_cycle, sm->save_busy) +
                        move_cycles(s, sv->bytes);
    sm->save_busy = slot->ready_cycle;
    s->pre.restored_total += sv->bytes;
    trace_simt_preempt_restore(q, sv->block, sm->id, sv->bytes,
                               slot->ready_cycle);
    return true;
}

static void request(SimtState *s, uint32_t val)
{
    SimtPreempt *p = &s->pre;
    unsigned ctx = SIMT_PREQ_CTX(val);
    unsigned mode = SIMT_PREQ_MODE(val);

    if (val & ~(uint32_t)SIMT_PREQ(0x3f, 0x3, 0x7) ||
        ctx >= simt_cfg(s, SIMT_CFG_CONTEXTS) || mode >= SIMT_PMODE_NR ||
        (SIMT_PREQ_OP(val) != SIMT_PREQ_PREEMPT &&
         SIMT_PREQ_OP(val) != SIMT_PREQ_RESUME)) {
        SIMT_GUEST_ERR(simt_err_preempt_req, "bad PREEMPT_REQ 0x%x", val);
        p->status = SIMT_PERR_BAD_REQ;
        return;
    }
    trace_simt_preempt_request(ctx, SIMT_PREQ_OP(val), mode);
    if (SIMT_PREQ_OP(val) == SIMT_PREQ_PREEMPT) {
        s->mmu.contexts[ctx].suspended = true;
        p->requested |= 1ull << ctx;
        p->req_mode[ctx] = mode;
    } else {
        s->mmu.contexts[ctx].suspended = false;
        p->requested &= ~(1ull << ctx);
    }
    simt_event_post(&s->events, (SimtEvent) { .kind = SIMT_EVENT_WORK });
}

bool simt_preempt_reg_read(SimtState *s, hwaddr addr, uint32_t *val)
{
    SimtPreempt *p = &s->pre;
    const struct simt_preempt_event *l = &p->last;
    uint64_t dispatch = l->dispatch_cycle ? l->dispatch_cycle : l->done_cycle;

    switch (addr) {
    case SIMT_REG_PREEMPT_BOUND:
        *val = p->bound;
        break;
    case SIMT_REG_PREEMPT_STATUS:
        *val = SIMT_PSTATUS(p->active || p->requested, p->status);
        break;
    case SIMT_REG_TIMESLICE:
        *val = p->timeslice;
        break;
    case SIMT_REG_PEV_COUNT:
        *val = p->events - p->active;
        break;
    case SIMT_REG_PEV_LOG_LO:
        *val = p->log_base;
        break;
    case SIMT_REG_PEV_LOG_HI:
        *val = p->log_base >> 32;
        break;
    case SIMT_REG_PEV_LOG_SIZE:
        *val = p->log_size;
        break;
    case SIMT_REG_PEV_LATENCY:
        *val = dispatch - l->req_cycle;
        break;
    case SIMT_REG_PEV_DONE_LATENCY:
        *val = l->done_cycle - l->req_cycle;
        break;
    case SIMT_REG_PEV_DRAINED:
        *val = l->drained;
        break;
    case SIMT_REG_PEV_FLUSHED:
        *val = l->flushed;
        break;
    case SIMT_REG_PEV_SWITCHED:
        *val = l->switched;
        break;
    case SIMT_REG_PEV_LIGHT:
        *val = l->light;
        break;
    case SIMT_REG_PEV_SAVED_BYTES:
        *val = l->saved_bytes;
        break;
    case SIMT_REG_PEV_WASTED:
        *val = l->wasted_insns;
        break;
    case SIMT_REG_PREEMPT_SAVED:
        *val = p->saved_total;
        break;
    case SIMT_REG_PREEMPT_RESTORED:
        *val = p->restored_total;
        break;
    case SIMT_REG_PREEMPT_WASTED:
        *val = p->wasted_total;
        break;
    case SIMT_REG_PREEMPT_EVENTS:
        *val = p->events;
        break;
    case SIMT_REG_ORACLE_LO:
        *val = p->oracle_base;
        break;
    case SIMT_REG_ORACLE_HI:
        *val = p->oracle_base >> 32;
        break;
    case SIMT_REG_ORACLE_COUNT:
        *val = p->oracle_count;
        break;
    default:
        return false;
    }
    return true;
}

bool simt_preempt_reg_write(SimtState *s, hwaddr addr, uint32_t val)
{
    SimtPreempt *p = &s->pre;

    switch (addr) {
    case SIMT_REG_PREEMPT_BOUND:
        p->bound = val;
        break;
    case SIMT_REG_PREEMPT_REQ:
        request(s, val);
        break;
    case SIMT_REG_TIMESLICE:
        p->timeslice = val;
        break;
    case SIMT_REG_PEV_LOG_LO:
        p->log_base = deposit64(p->log_base, 0, 32, val);
        break;
    case SIMT_REG_PEV_LOG_HI:
        p->log_base = deposit64(p->log_base, 32, 32, val);
        break;
    case SIMT_REG_PEV_LOG_SIZE:
        if (!SIMT_RING_RECORDS_OK(val)) {
            SIMT_GUEST_ERR(simt_err_event_log_size, "event log size %u is "
                           "not a power of two up to 2^20; logging off", val);
            val = 0;
        }
        p->log_size = val;
        p->log_count = 0;
        break;
    case SIMT_REG_ORACLE_LO:
        p->oracle_base = deposit64(p->oracle_base, 0, 32, val);
        break;
    case SIMT_REG_ORACLE_HI:
        p->oracle_base = deposit64(p->oracle_base, 32, 32, val);
        break;
    case SIMT_REG_ORACLE_COUNT:
        if (val > SIMT_MAX_ORACLE_ENTRIES) {
            SIMT_GUEST_ERR(simt_err_oracle_count, "drain oracle of %u "
                           "entries is over 2^20; oracle off", val);
            val = 0;
        }
        p->oracle_count = val;
        break;
    default:
        return false;
    }
    return true;
}

static const VMStateDescription vmstate_simt_preempt_event = {
    .name = "simt/preempt-event",
    .version_id = 3,
    .minimum_version_id = 3,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(seq, struct simt_preempt_event),
        VMSTATE_UINT8(trigger, struct simt_preempt_event),
        VMSTATE_UINT8(mode, struct simt_preempt_event),
        VMSTATE_UINT8(status, struct simt_preempt_event),
        VMSTATE_UINT8(preemptor, struct simt_preempt_event),
        VMSTATE_UINT32(victims, struct simt_preempt_event),
        VMSTATE_UINT16(drained, struct simt_preempt_event),
        VMSTATE_UINT16(flushed, struct simt_preempt_event),
        VMSTATE_UINT16(switched, struct simt_preempt_event),
        VMSTATE_UINT16(light, struct simt_preempt_event),
        VMSTATE_UINT32(saved_bytes, struct simt_preempt_event),
        VMSTATE_UINT32(occupied_bytes, struct simt_preempt_event),
        VMSTATE_UINT32(wasted_insns, struct simt_preempt_event),
        VMSTATE_UINT32(kept_bytes, struct simt_preempt_event),
        VMSTATE_UINT32(reg_bytes, struct simt_preempt_event),
        VMSTATE_UINT64(req_cycle, struct simt_preempt_event),
        VMSTATE_UINT64(dispatch_cycle, struct simt_preempt_event),
        VMSTATE_UINT64(done_cycle, struct simt_preempt_event),
        VMSTATE_UINT32(save_bound, struct simt_preempt_event),
        VMSTATE_UINT32(queue_wait, struct simt_preempt_event),
        VMSTATE_UINT32(drain_error, struct simt_preempt_event),
        VMSTATE_UINT32(drain_time, struct simt_preempt_event),
        VMSTATE_UINT32(pp_drain, struct simt_preempt_event),
        VMSTATE_UINT32(pp_warps, struct simt_preempt_event),
        VMSTATE_UINT32(pp_cut, struct simt_preempt_event),
        VMSTATE_UINT32(live_bytes, struct simt_preempt_event),
        VMSTATE_END_OF_LIST()
    },
};

/* A saved block, or a save-area extent, with any shared memory kept. */
const VMStateDescription vmstate_simt_saved = {
    .name = "simt/saved",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(block, SimtSaved),
        VMSTATE_UINT32(offset, SimtSaved),
        VMSTATE_UINT32(bytes, SimtSaved),
        VMSTATE_UINT32(shared_bytes, SimtSaved),
        VMSTATE_VBUFFER_ALLOC_UINT32(shared, SimtSaved, 1, NULL,
                                     shared_bytes),
        VMSTATE_UINT32(sm, SimtSaved),
        VMSTATE_UINT64(ready, SimtSaved),
        VMSTATE_END_OF_LIST()
    },
};

/*
 * GArrays of SimtSaved (saved blocks, extents) and of uint32_t (blocks to
 * run again): a count, then the elements.  A NULL array is empty, and an
 * empty one stays NULL on load.
 */
#define SIMT_MIGRATE_MAX_LIST   (1u << 24)

static int put_list(QEMUFile *f, void *pv, size_t size,
                    const VMStateField *field, JSONWriter *vmdesc)
{
    GArray *a = *(GArray **)pv;
    uint32_t n = a ? a->len : 0;

    qemu_put_be32(f, n);
    for (uint32_t i = 0; i < n; i++) {
        if (field->vmsd) {
            int ret = vmstate_save_state(f, field->vmsd,
                                         &g_array_index(a, SimtSaved, i),
                                         NULL);
            if (ret) {
                return ret;
            }
        } else {
            qemu_put_be32(f, g_array_index(a, uint32_t, i));
        }
    }
    return 0;
}

static int get_list(QEMUFile *f, void *pv, size_t size,
                    const VMStateField *field)
{
    GArray **pa = pv;
    uint32_t n = qemu_get_be32(f);
    size_t elem = field->vmsd ? sizeof(SimtSaved) : sizeof(uint32_t);

    if (n > SIMT_MIGRATE_MAX_LIST) {
        return -EINVAL;
    }
    if (!*pa && n) {
        *pa = g_array_new(false, false, elem);
    }
    if (*pa) {
        g_array_set_size(*pa, 0);
    }
    for (uint32_t i = 0; i < n; i++) {
        if (field->vmsd) {
            SimtSaved sv = { 0 };
            int ret = vmstate_load_state(f, field->vmsd, &sv,
                                         field->vmsd->version_id);
            if (ret) {
                return ret;
            }
            g_array_append_val(*pa, sv);
        } else {
            uint32_t v = qemu_get_be32(f);

            g_array_append_val(*pa, v);
        }
    }
    return 0;
}

const VMStateInfo simt_vmstate_info_list = {
    .name = "simt-list",
    .get = get_list,
    .put = put_list,
};

/* The event under way and the save areas in use. */
const VMStateDescription vmstate_simt_preempt_work = {
    .name = "simt/preempt-work",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT(last, SimtPreempt, 1, vmstate_simt_preempt_event,
                       struct simt_preempt_event),
        VMSTATE_BOOL(active, SimtPreempt),
        VMSTATE_UINT32(pending, SimtPreempt),
        VMSTATE_STRUCT(ev, SimtPreempt, 1, vmstate_simt_preempt_event,
                       struct simt_preempt_event),
        VMSTATE_INT32(slice_victim, SimtPreempt),
        VMSTATE_UINT32(status, SimtPreempt),
        {
            .name = "extents",
            .num = SIMT_MAX_CONTEXTS,
            .info = &simt_vmstate_info_list,
            .vmsd = &vmstate_simt_saved,
            .size = sizeof(GArray *),
            .flags = VMS_ARRAY,
            .offset = offsetof(SimtPreempt, extents),
        },
        VMSTATE_END_OF_LIST()
    },
};

static bool oracle_needed(void *opaque)
{
    SimtState *s = opaque;

    return s->pre.oracle_count || s->pre.oracle_base ||
           s->pre.ev.victim_insns || s->pre.ev.oracle_drains ||
           s->pre.last.victim_insns || s->pre.last.oracle_drains;
}

/*
 * What device 0.9 added to the engine's state: a subsection, so that a
 * stream from 0.8 still loads (with them 0).
 */
const VMStateDescription vmstate_simt_preempt_oracle = {
    .name = "simt/preempt-oracle",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = oracle_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(pre.oracle_base, SimtState),
        VMSTATE_UINT32(pre.oracle_count, SimtState),
        VMSTATE_UINT32(pre.ev.victim_insns, SimtState),
        VMSTATE_UINT32(pre.ev.oracle_drains, SimtState),
        VMSTATE_UINT32(pre.last.victim_insns, SimtState),
        VMSTATE_UINT32(pre.last.oracle_drains, SimtState),
        VMSTATE_END_OF_LIST()
    },
};

/* The preemption engine's registers; its work is in simt/work. */
const VMStateDescription vmstate_simt_preempt = {
    .name = "simt/preempt",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(bound, SimtPreempt),
        VMSTATE_UINT32(timeslice, SimtPreempt),
        VMSTATE_UINT64(log_base, SimtPreempt),
        VMSTATE_UINT32(log_size, SimtPreempt),
        VMSTATE_UINT32(log_count, SimtPreempt),
        VMSTATE_UINT32(events, SimtPreempt),
        VMSTATE_UINT32(saved_total, SimtPreempt),
        VMSTATE_UINT32(restored_total, SimtPreempt),
        VMSTATE_UINT32(wasted_total, SimtPreempt),
        VMSTATE_UINT64(requested, SimtPreempt),
        VMSTATE_UINT8_ARRAY(req_mode, SimtPreempt, SIMT_MAX_CONTEXTS),
        VMSTATE_END_OF_LIST()
    },
};
