/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the timeline ring.
 *
 * Every block placed, retired, flushed, saved or restored, every
 * preemption event, copy and kernel end is a struct simt_trace_record
 * written by DMA to the guest's ring; the ring wraps, and TRACE_COUNT
 * counts every record written.  A ring the device cannot reach turns
 * tracing off.
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/bitops.h"
#include "hw/pci/pci_device.h"
#include "simt.h"
#include "simt-err.h"
#include "simt-timeline.h"
#include "trace.h"

void simt_timeline_record(SimtState *s, unsigned type, unsigned q,
                          unsigned sm, uint32_t block, uint64_t cycle)
{
    SimtTimeline *t = &s->timeline;
    struct simt_trace_record r = {
        .cycle = cpu_to_le64(cycle),
        .type = type,
        .queue = q,
        .sm = cpu_to_le16(sm),
        .block = cpu_to_le32(block),
    };
    uint64_t addr;

    if (!t->size) {
        return;
    }
    addr = t->base + (uint64_t)(t->count & (t->size - 1)) * sizeof(r);
    if (pci_dma_write(PCI_DEVICE(s), addr, &r, sizeof(r)) != MEMTX_OK) {
        SIMT_GUEST_ERR(simt_err_timeline_dma, "timeline ring at 0x%" PRIx64
                       " unreachable; tracing stops", addr);
        t->size = 0;
        return;
    }
    t->count++;
}

bool simt_timeline_reg_read(SimtState *s, hwaddr addr, uint32_t *val)
{
    SimtTimeline *t = &s->timeline;

    switch (addr) {
    case SIMT_REG_TRACE_LO:
        *val = t->base;
        break;
    case SIMT_REG_TRACE_HI:
        *val = t->base >> 32;
        break;
    case SIMT_REG_TRACE_SIZE:
        *val = t->size;
        break;
    case SIMT_REG_TRACE_COUNT:
        *val = t->count;
        break;
    default:
        return false;
    }
    return true;
}

bool simt_timeline_reg_write(SimtState *s, hwaddr addr, uint32_t val)
{
    SimtTimeline *t = &s->timeline;

    switch (addr) {
    case SIMT_REG_TRACE_LO:
        t->base = deposit64(t->base, 0, 32, val);
        break;
    case SIMT_REG_TRACE_HI:
        t->base = deposit64(t->base, 32, 32, val);
        break;
    case SIMT_REG_TRACE_SIZE:
        if (!SIMT_RING_RECORDS_OK(val)) {
            SIMT_GUEST_ERR(simt_err_timeline_size, "timeline size %u is not "
                           "a power of two up to 2^20; tracing off", val);
            val = 0;
        }
        t->size = val;
        t->count = 0;
        break;
    default:
        return false;
    }
    return true;
}

void simt_timeline_reset(SimtState *s)
{
    s->timeline = (SimtTimeline) { 0 };
}

const VMStateDescription vmstate_simt_timeline = {
    .name = "simt/timeline",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(base, SimtTimeline),
        VMSTATE_UINT32(size, SimtTimeline),
        VMSTATE_UINT32(count, SimtTimeline),
        VMSTATE_END_OF_LIST()
    },
};
