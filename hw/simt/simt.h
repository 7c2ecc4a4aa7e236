/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the device state shared by the device's hardware blocks.
 */
#ifndef HW_SIMT_SIMT_H
#define HW_SIMT_SIMT_H

#include "hw/pci/pci_device.h"
#include "qom/object.h"
#include "migration/vmstate.h"
#include "hw/simt/simt-hw.h"
#include "hw/simt/simt-config.h"
#include "hw/simt/simt-core.h"
#include "simt-dma.h"
#include "simt-mmu.h"
#include "simt-queue.h"
#include "simt-sched.h"
#include "simt-sm.h"
#include "simt-preempt.h"
#include "simt-timeline.h"

#define TYPE_SIMT "simt"
OBJECT_DECLARE_SIMPLE_TYPE(SimtState, SIMT)

/* Limits on the properties, checked at realize. */
#define SIMT_MIN_VRAM_SIZE      (1 * MiB)
#define SIMT_MAX_VRAM_SIZE      (4 * GiB)

struct SimtState {
    PCIDevice parent_obj;

    MemoryRegion regs;
    MemoryRegion vram;
    QEMUTimer *tick;
    VMChangeStateEntry *vm_state;

    /* properties */
    char *preset_name;
    char *placement_name;
    uint32_t cfg_override[SIMT_CFG_NR];
    uint32_t cfg_overridden;    /* bit per SimtConfigField */
    uint64_t vram_size;
    bool fifo_dispatch;         /* kernels in launch order (simt-sched.c) */

    /* configuration, fixed at realize */
    int preset;
    SimtConfig cfg;
    uint32_t *sm_order;         /* tie-break order */
    const struct SimtPlacement *placement;  /* where blocks go */
    uint32_t place_next;        /* the placement policy's own state */
    uint32_t *place_room;       /* per SM, blocks that fit (scheduler) */
    uint32_t policy_errors;     /* POLICY_ERRORS */
    char *preempt_choice_name;
    char *copy_policy_name;
    const struct SimtCopyPolicy *copy_policy;       /* copies' order */
    const struct SimtPreemptChoice *preempt_choice;  /* auto's choice */
    SimtMem mem;                /* what kernels' global accesses reach */
    SimtTiming timing;          /* instruction costs on this machine */

    /* registers */
    uint32_t scratch;
    uint32_t irq_status;
    uint32_t irq_mask;
    uint32_t irq_count;
    uint32_t cycle_hi_latch;

    /* the engine */
    int64_t time_base_ns;       /* virtual time of device cycle 0 */
    uint64_t slice_start;       /* first cycle the next tick runs */
    bool ticking;
    uint64_t launch_seq;
    uint64_t blocks_done;
    SimtQueue queues[SIMT_MAX_QUEUES];
    SimtSM *sms;

    /* contexts and the MMU */
    SimtContext contexts[SIMT_MAX_CONTEXTS];
    SimtTlbEntry tlb[SIMT_TLB_ENTRIES];
    uint32_t tlb_inv_ctx;
    uint32_t tlb_inv_addr;
    uint64_t tlb_hits;
    uint64_t tlb_misses;
    uint32_t mmu_faults;

    /* copy engines */
    SimtEngine engines[SIMT_MAX_COPY_ENGINES];
    uint32_t dma_chunk;
    uint64_t copy_seq;
    uint8_t *bounce;            /* SIMT_DMA_BOUNCE bytes */

    SimtPreempt pre;
    SimtTimeline timeline;
};

static inline uint32_t simt_cfg(const SimtState *s, SimtConfigField f)
{
    return s->cfg.field[f];
}

#endif /* HW_SIMT_SIMT_H */
