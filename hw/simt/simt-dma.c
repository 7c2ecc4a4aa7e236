/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: copy engines.
 *
 * A COPY command of any size and alignment, between guest memory (through
 * the PCI DMA API) and device memory (translated in the queue's context;
 * VRAM, or system memory again by DMA for SIMT_PTE_SYS pages), or within
 * device memory, is carried out by one engine at a time in
 * chunks of DMA_CHUNK bytes.  A chunk takes ceil(bytes / copy-bandwidth)
 * cycles of its engine; at each chunk boundary the engine takes the copy
 * the device's copy policy picks (simt-copy-policy.c; by default the
 * highest-priority pending copy, which may preempt the one it was moving,
 * so a high-priority copy waits at most one chunk: seed 002, digest B.4).
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "hw/pci/pci_device.h"
#include "qemu/error-report.h"
#include "migration/vmstate.h"
#include "simt.h"
#include "simt-mmu.h"
#include "simt-dma.h"
#include "simt-err.h"
#include "simt-copy-policy.h"
#include "simt-event.h"
#include "simt-timeline.h"
#include "trace.h"

static SimtCopy *copy_of(SimtState *s, unsigned q)
{
    return &s->queues[q].copy;
}

void simt_dma_reset(SimtState *s)
{
    for (unsigned e = 0; e < SIMT_MAX_COPY_ENGINES; e++) {
        s->dma.engines[e] = (SimtCopyEngine) { .queue = -1 };
    }
    for (unsigned q = 0; q < SIMT_MAX_QUEUES; q++) {
        memset(copy_of(s, q), 0, sizeof(SimtCopy));
    }
    s->dma.chunk = SIMT_DEFAULT_DMA_CHUNK;
    s->dma.seq = 0;
}

void simt_dma_cancel(SimtState *s, unsigned q)
{
    SimtCopy *c = copy_of(s, q);

    if (c->active && c->engine >= 0) {
        s->dma.engines[c->engine].queue = -1;
    }
    c->active = false;
}

/* A bare context's device range must lie in VRAM as a whole. */
static bool bare_range_ok(SimtState *s, unsigned ctx, uint64_t addr,
                          uint64_t size)
{
    return !simt_mmu_bare(s, ctx) ||
           (addr <= s->vram_size && size <= s->vram_size - addr);
}

uint32_t simt_dma_submit(SimtState *s, unsigned q,
                         const struct simt_cmd_copy *cmd, uint64_t cycle)
{
    SimtCopy *c = copy_of(s, q);
    unsigned ctx = s->queues[q].ctx;
    bool src_host = cmd->flags & SIMT_CMDF_SRC_HOST;
    bool dst_host = cmd->flags & SIMT_CMDF_DST_HOST;

    if ((cmd->flags & ~SIMT_CMDF_COPY_ALL) ||
        cmd->src + cmd->size < cmd->src || cmd->dst + cmd->size < cmd->dst ||
        (!src_host && cmd->src + cmd->size > (1ull << 32)) ||
        (!dst_host && cmd->dst + cmd->size > (1ull << 32))) {
        SIMT_GUEST_ERR(simt_err_copy_fields, "queue %u: COPY with flags 0x%x"
                       " of %" PRIu64 " bytes from 0x%" PRIx64 " to 0x%" PRIx64
                       ": unknown flags, or a range that wraps or leaves the "
                       "device's 4 GiB", q, cmd->flags, cmd->size, cmd->src,
                       cmd->dst);
        return SIMT_QERR_BAD_COMMAND;
    }
    if ((!src_host && !bare_range_ok(s, ctx, cmd->src, cmd->size)) ||
        (!dst_host && !bare_range_ok(s, ctx, cmd->dst, cmd->size))) {
        SIMT_GUEST_ERR(simt_err_copy_vram, "queue %u: copy of %" PRIu64
                       " bytes beyond VRAM", q, cmd->size);
        return SIMT_QERR_DMA;
    }
    *c = (SimtCopy) {
        .active = true,
        .engine = -1,
        .flags = cmd->flags,
        .ctx = ctx,
        .priority = s->queues[q].priority,
        .seq = s->dma.seq++,
        .src = cmd->src,
        .dst = cmd->dst,
        .size = cmd->size,
    };
    trace_simt_copy_submit(q, cmd->src, cmd->dst, cmd->size, cycle);
    simt_timeline_record(s, SIMT_TRACE_COPY, q, SIMT_TRACE_NO_SM, 0, cycle);
    return SIMT_QERR_NONE;
}

/*
 * Translate device address @va of the copy's context into *@pa and *@sys,
 * cutting *@len at the page end when translated; 0 or the fault reason.
 */
static int dev_span(SimtState *s, SimtCopy *c, uint64_t va, int access,
                    uint64_t *len, uint64_t *pa, bool *sys)
{
    int reason = simt_mmu_translate(s, c->ctx, va, access, pa, sys);

    if (!reason && !simt_mmu_bare(s, c->ctx)) {
        *len = MIN(*len, SIMT_PAGE_SIZE - (va & (SIMT_PAGE_SIZE - 1)));
    }
    return reason;
}

/*
 * Move @n bytes of copy @c at its current offset; a queue error or 0.
 * Every piece goes through the bounce buffer, so a failed read writes
 * nothing and overlapping device ranges move as with memmove.  Device
 * addresses may be VRAM or system pages (SIMT_PTE_SYS).
 */
static uint32_t move(SimtState *s, unsigned q, SimtCopy *c, uint64_t n)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    bool src_host = c->flags & SIMT_CMDF_SRC_HOST;
    bool dst_host = c->flags & SIMT_CMDF_DST_HOST;

    while (n) {
        uint64_t src = c->src + c->done, dst = c->dst + c->done;
        uint64_t len = MIN(n, SIMT_DMA_BOUNCE);
        uint64_t spa = 0, dpa = 0;
        bool ssys = false, dsys = false;
        int reason;

        if (!src_host) {
            reason = dev_span(s, c, src, SIMT_ACCESS_COPY_READ, &len,
                              &spa, &ssys);
            if (reason) {
                simt_mmu_fault(s, c->ctx, q, src, 0, SIMT_ACCESS_COPY_READ,
                               reason);
                return SIMT_QERR_MMU;
            }
        }
        if (!dst_host) {
            reason = dev_span(s, c, dst, SIMT_ACCESS_COPY_WRITE, &len,
                              &dpa, &dsys);
            if (reason) {
                simt_mmu_fault(s, c->ctx, q, dst, 0, SIMT_ACCESS_COPY_WRITE,
                               reason);
                return SIMT_QERR_MMU;
            }
        }
        if (src_host) {
            if (pci_dma_read(pdev, src, s->dma.bounce, len) != MEMTX_OK) {
                SIMT_GUEST_ERR(simt_err_copy_dma, "queue %u: copy source "
                               "0x%" PRIx64 " unreachable by DMA", q, src);
                return SIMT_QERR_DMA;
            }
        } else {
            reason = simt_mmu_phys_rw(s, spa, ssys, s->dma.bounce, len, false);
            if (reason) {
                simt_mmu_fault(s, c->ctx, q, src, 0, SIMT_ACCESS_COPY_READ,
                               reason);
                return SIMT_QERR_MMU;
            }
        }
        if (dst_host) {
            if (pci_dma_write(pdev, dst, s->dma.bounce, len) != MEMTX_OK) {
                SIMT_GUEST_ERR(simt_err_copy_dma, "queue %u: copy destination "
                               "0x%" PRIx64 " unreachable by DMA", q, dst);
                return SIMT_QERR_DMA;
            }
        } else {
            reason = simt_mmu_phys_rw(s, dpa, dsys, s->dma.bounce, len, true);
            if (reason) {
                simt_mmu_fault(s, c->ctx, q, dst, 0, SIMT_ACCESS_COPY_WRITE,
                               reason);
                return SIMT_QERR_MMU;
            }
        }
        c->done += len;
        n -= len;
    }
    return SIMT_QERR_NONE;
}

/*
 * The copy an engine moves next, or -1: the copy policy's pick among the
 * engine's @current copy and those pending on no engine.
 */
static int next_copy(SimtState *s, int current)
{
    SimtCopyPending p[SIMT_MAX_QUEUES];
    unsigned n = 0, pick;

    for (unsigned q = 0; q < simt_cfg(s, SIMT_CFG_QUEUES); q++) {
        SimtCopy *c = copy_of(s, q);

        if (c->active && ((int)q == current || c->engine < 0)) {
            p[n++] = (SimtCopyPending) {
                .queue = q, .priority = c->priority, .seq = c->seq,
                .left = c->size - c->done, .current = (int)q == current,
            };
        }
    }
    if (!n) {
        return -1;
    }
    pick = s->copy_policy->next(p, n);
    if (pick >= n) {
        warn_report_once("simt: copy policy '%s' picked copy %u of %u; "
                         "using the priority policy", s->copy_policy->name,
                         pick, n);
        s->policy_errors++;
        pick = simt_copy_next_by_priority(p, n);
    }
    return p[pick].queue;
}

static void engine_run(SimtState *s, unsigned e, uint64_t start, uint64_t end)
{
    SimtCopyEngine *en = &s->dma.engines[e];
    uint32_t bw = simt_cfg(s, SIMT_CFG_COPY_BW);

    en->cycle = MAX(en->cycle, start);
    /* A chunk begun in an earlier slice still moves in this one. */
    if (en->queue >= 0 && en->cycle > start) {
        s->queues[en->queue].copy_ran = true;
    }
    for (;;) {
        SimtCopy *c;
        uint64_t n, done;
        uint32_t err;
        int q;

        /* A copy is done once the cycles of its last chunk have passed. */
        if (en->queue >= 0 && copy_of(s, en->queue)->finished) {
            if (en->cycle > end) {
                return;
            }
            q = en->queue;
            c = copy_of(s, q);
            en->queue = -1;
            c->active = false;
            trace_simt_copy_done(q, c->error, en->cycle);
            simt_timeline_record(s, SIMT_TRACE_COPY_DONE, q, e, 0, en->cycle);
            simt_event_post(&s->events, (SimtEvent) {
                .kind = SIMT_EVENT_COPY_DONE, .queue = q, .error = c->error,
            });
        }
        if (en->cycle >= end) {
            return;
        }
        q = next_copy(s, en->queue);
        if (q < 0) {
            en->cycle = end;
            return;
        }
        if (q != en->queue) {
            /* A chunk boundary: switch to a higher-priority copy. */
            if (en->queue >= 0) {
                copy_of(s, en->queue)->engine = -1;
                en->switches++;
                trace_simt_copy_switch(e, en->queue, q, en->cycle);
            }
            en->queue = q;
            copy_of(s, q)->engine = e;
        }
        c = copy_of(s, q);
        s->queues[q].copy_ran = true;
        n = MIN(s->dma.chunk, c->size - c->done);
        done = c->done;
        err = move(s, q, c, n);
        en->cycle += DIV_ROUND_UP(n, bw);
        en->bytes += c->done - done;
        en->chunks++;
        trace_simt_copy_chunk(e, q, n, en->cycle);
        if (err || c->done == c->size) {
            c->finished = true;
            c->error = err;
        }
    }
}

void simt_dma_run_slice(SimtState *s, uint64_t start, uint64_t end)
{
    for (unsigned e = 0; e < simt_cfg(s, SIMT_CFG_COPY_ENGINES); e++) {
        engine_run(s, e, start, end);
    }
}

bool simt_copy_engine_reg_read(SimtState *s, unsigned e, unsigned reg,
                               uint32_t *val)
{
    SimtCopyEngine *en = &s->dma.engines[e];

    switch (reg) {
    case SIMT_EREG_BYTES_LO:
        *val = en->bytes;
        return true;
    case SIMT_EREG_BYTES_HI:
        *val = en->bytes >> 32;
        return true;
    case SIMT_EREG_CHUNKS:
        *val = en->chunks;
        return true;
    case SIMT_EREG_SWITCHES:
        *val = en->switches;
        return true;
    case SIMT_EREG_QUEUE:
        *val = en->queue;
        return true;
    default:
        return false;
    }
}

/* A copy, mid-chunk or waiting for an engine. */
const VMStateDescription vmstate_simt_copy = {
    .name = "simt/copy",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(active, SimtCopy),
        VMSTATE_INT32(engine, SimtCopy),
        VMSTATE_UINT32(flags, SimtCopy),
        VMSTATE_UINT32(ctx, SimtCopy),
        VMSTATE_UINT32(priority, SimtCopy),
        VMSTATE_UINT64(seq, SimtCopy),
        VMSTATE_UINT64(src, SimtCopy),
        VMSTATE_UINT64(dst, SimtCopy),
        VMSTATE_UINT64(size, SimtCopy),
        VMSTATE_UINT64(done, SimtCopy),
        VMSTATE_BOOL(finished, SimtCopy),
        VMSTATE_UINT32(error, SimtCopy),
        VMSTATE_END_OF_LIST()
    },
};

const VMStateDescription vmstate_simt_copy_engine = {
    .name = "simt/copy-engine",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_INT32(queue, SimtCopyEngine),
        VMSTATE_UINT64(cycle, SimtCopyEngine),
        VMSTATE_UINT64(bytes, SimtCopyEngine),
        VMSTATE_UINT32(chunks, SimtCopyEngine),
        VMSTATE_UINT32(switches, SimtCopyEngine),
        VMSTATE_END_OF_LIST()
    },
};
