/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: hardware contexts and the device MMU (Sv32 page tables in VRAM,
 * a TLB shared by all contexts, fault records per context).
 */
#ifndef HW_SIMT_MMU_H
#define HW_SIMT_MMU_H

#include "migration/vmstate.h"
#include "hw/simt/simt-core.h"

#define SIMT_TLB_ENTRIES        256

typedef struct SimtTlbEntry {
    bool valid;
    uint8_t ctx;
    uint8_t perm;               /* SIMT_PTE_R | W | X */
    bool super;                 /* part of a 4 MiB superpage */
    bool sys;                   /* SIMT_PTE_SYS: pfn is guest-physical */
    uint32_t vpn;               /* virtual page number (4 KiB) */
    uint32_t pfn;               /* VRAM (or guest-physical) page frame */
} SimtTlbEntry;

typedef struct SimtContext {
    uint32_t pt;                /* SIMT_CREG_PT */
    uint32_t priority;
    uint32_t save_base;
    uint32_t save_size;
    uint32_t fault;             /* SIMT_CFAULT_*; the first fault stays */
    uint32_t fault_addr;
    uint32_t fault_pc;
    uint32_t fault_queue;
    uint32_t preempt_mode;      /* enum simt_preempt_mode */
    bool suspended;             /* held by a PREEMPT request */
    uint32_t pp_drain;          /* PP_DRAIN: cycles to preemption points */
} SimtContext;

/*
 * How a kernel of one queue reaches memory: through its context.  The
 * last translation fault is kept here for the block's fault report.
 */
typedef struct SimtMmuView {
    struct SimtState *s;
    uint32_t ctx;
    uint32_t fault_addr;
    uint8_t fault_access;       /* enum simt_access */
    uint8_t fault_reason;       /* enum simt_mmu_fault */
    bool bare;                  /* the context was bare at launch */
} SimtMmuView;

/* The MMU's state in SimtState. */
typedef struct SimtMmu {
    SimtContext contexts[SIMT_MAX_CONTEXTS];
    SimtTlbEntry tlb[SIMT_TLB_ENTRIES];
    uint32_t tlb_inv_ctx;       /* the TLB_INV_* registers */
    uint32_t tlb_inv_addr;
    uint64_t tlb_hits;
    uint64_t tlb_misses;
    uint32_t faults;
} SimtMmu;

typedef struct SimtState SimtState;

/*
 * Translate device address @va of context @ctx for @access: 0 and the
 * VRAM offset in *@pa (*@sys false), or the guest-physical address of a
 * SIMT_PTE_SYS page (*@sys true); or an enum simt_mmu_fault.  Bare
 * contexts map address = VRAM offset.
 */
int simt_mmu_translate(SimtState *s, unsigned ctx, uint32_t va, int access,
                       uint64_t *pa, bool *sys);
/*
 * Move @len bytes between @buf and a translated address (@pa, @sys):
 * VRAM directly, system memory by DMA.  0, or SIMT_MMU_BEYOND if the
 * range is outside VRAM or the DMA failed.  Callers do not cross the
 * end of a translated page.
 */
int simt_mmu_phys_rw(SimtState *s, uint64_t pa, bool sys, void *buf,
                     uint64_t len, bool write);
/*
 * Copy @len bytes between @buf and context @ctx's memory at @va (VRAM,
 * or system memory for SIMT_PTE_SYS pages); false if a page of it does
 * not translate for the access or is out of reach.
 */
bool simt_mmu_ctx_rw(SimtState *s, unsigned ctx, uint64_t va, uint8_t *buf,
                     uint64_t len, bool write);
/*
 * A user queue's access (SIMT_ACCESS_QUEUE_READ or _WRITE) to @len bytes,
 * at most a page, at @va of context @ctx: 0, or an enum simt_mmu_fault
 * with the address that failed in *@fault_va.  Both pages of a range
 * that crosses one are translated before a byte moves, so a write that
 * does not translate writes nothing.
 */
int simt_mmu_ctx_access(SimtState *s, unsigned ctx, uint32_t va,
                        void *buf, uint32_t len, int access,
                        uint32_t *fault_va);
bool simt_mmu_bare(SimtState *s, unsigned ctx);
/* Record a fault in context @ctx (the first one stays) and interrupt. */
void simt_mmu_fault(SimtState *s, unsigned ctx, unsigned q, uint32_t addr,
                    uint32_t pc, int access, int reason);
/* Memory of a kernel running in a translated context. */
void simt_mmu_view_init(SimtMmuView *v, SimtState *s, unsigned ctx,
                        SimtMem *mem);
/* Point @mem at @v again (after migration): v->ctx and v->bare are kept. */
void simt_mmu_view_attach(SimtMmuView *v, SimtState *s, SimtMem *mem);
void simt_mmu_reset(SimtState *s);
/* Context @ctx's register @reg: false if it is not decoded here. */
bool simt_ctx_reg_read(SimtState *s, unsigned ctx, unsigned reg,
                       uint32_t *val);
bool simt_ctx_reg_write(SimtState *s, unsigned ctx, unsigned reg,
                        uint32_t val);
void simt_mmu_tlb_invalidate(SimtState *s, uint32_t cmd);
extern const VMStateDescription vmstate_simt_tlb_entry;
/* A context's registers. */
extern const VMStateDescription vmstate_simt_context;

#endif /* HW_SIMT_MMU_H */
