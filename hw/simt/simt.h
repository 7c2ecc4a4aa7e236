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
#include "simt-sm-threads.h"
#include "simt-preempt.h"
#include "simt-timeline.h"
#include "simt-slice.h"
#include "simt-event.h"

#define TYPE_SIMT "simt"
OBJECT_DECLARE_SIMPLE_TYPE(SimtState, SIMT)

/* Limits on the properties, checked at realize. */
#define SIMT_MIN_VRAM_SIZE      (1 * MiB)
#define SIMT_MAX_VRAM_SIZE      (4 * GiB)

struct SimtState {
    PCIDevice parent_obj;

    MemoryRegion regs;
    MemoryRegion doorbell;      /* BAR1: a page per queue */
    MemoryRegion vram;
    VMChangeStateEntry *vm_state;

    /* properties */
    char *preset_name;
    char *placement_name;
    uint32_t cfg_override[SIMT_CFG_NR];
    uint32_t cfg_overridden;    /* bit per SimtConfigField */
    uint64_t vram_size;
    bool fifo_dispatch;         /* kernels in launch order (simt-sched.c) */
    bool wake_shortcut;         /* test hook: simt-sm.c's wake_known */
    bool run_ahead;             /* threads > 1: SMs may run ahead */
    bool queued_saves;          /* auto's switches see the SM's queue */
    bool chimera_plus;          /* Chimera drains on auto's estimate */
    bool ideal_memory;          /* global memory at shared memory's cost */
    SimtSmThreads sm_threads;   /* host threads for the SMs (.count: threads) */

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

    /* the blocks' state, each owned by its file */
    SimtSliceEngine slice;      /* simt-slice.c */
    SimtEvents events;          /* posted up, taken by simt-slice.c */
    uint64_t launch_seq;        /* LAUNCHes taken, the queues' order */
    uint64_t blocks_done;       /* BLOCKS_DONE */
    SimtQueue queues[SIMT_MAX_QUEUES];
    /*
     * The SMs, with the scheduler's fields above (sm_order, placement,
     * place_next, place_room): loose, as the placement lab's policies
     * read them here (docs/labs/placement.rst).
     */
    SimtSM *sms;
    SimtMmu mmu;                /* simt-mmu.c */
    SimtDma dma;                /* simt-dma.c */
    SimtPreempt pre;            /* simt-preempt.c */
    SimtTimeline timeline;      /* simt-timeline.c */
};

static inline uint32_t simt_cfg(const SimtState *s, SimtConfigField f)
{
    return s->cfg.field[f];
}

#endif /* HW_SIMT_SIMT_H */
