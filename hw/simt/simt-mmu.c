/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: hardware contexts and the device MMU.
 *
 * A context is bare (device address = VRAM offset, for the driver's own
 * work) or translates through RISC-V Sv32 page tables held in VRAM: two
 * levels, 4 KiB pages and 4 MiB superpages, R/W/X permissions.  A
 * direct-mapped TLB tagged with the context caches translations until
 * the driver invalidates them.  Anything wrong on the walk is a fault
 * recorded in the context, never a crash.
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "hw/pci/pci_device.h"
#include "migration/vmstate.h"
#include "simt.h"
#include "simt-mmu.h"
#include "simt-err.h"
#include "simt-irq.h"
#include "trace.h"

bool simt_mmu_ctx_rw(SimtState *s, unsigned ctx, uint64_t va, uint8_t *buf,
                     uint64_t len, bool write)
{
    while (len) {
        uint64_t n = MIN(len, SIMT_PAGE_SIZE - (va & (SIMT_PAGE_SIZE - 1)));
        uint64_t pa;
        bool sys;

        if (va + n > (1ull << 32) ||
            simt_mmu_translate(s, ctx, va, write ? SIMT_ACCESS_STORE
                                                 : SIMT_ACCESS_LOAD,
                               &pa, &sys) ||
            simt_mmu_phys_rw(s, pa, sys, buf, n, write)) {
            return false;
        }
        buf += n;
        va += n;
        len -= n;
    }
    return true;
}

int simt_mmu_ctx_access(SimtState *s, unsigned ctx, uint32_t va,
                        void *buf, uint32_t len, int access,
                        uint32_t *fault_va)
{
    uint32_t first = MIN(len, SIMT_PAGE_SIZE - (va & (SIMT_PAGE_SIZE - 1)));
    uint32_t part[2] = { first, len - first };
    uint64_t pa[2];
    bool sys[2];
    bool write = access == SIMT_ACCESS_QUEUE_WRITE;
    int reason;

    assert(len <= SIMT_PAGE_SIZE && (uint64_t)va + len <= (1ull << 32));
    for (unsigned i = 0; i < 2 && part[i]; i++) {
        uint32_t at = va + (i ? first : 0);

        reason = simt_mmu_translate(s, ctx, at, access, &pa[i], &sys[i]);
        if (reason) {
            *fault_va = at;
            return reason;
        }
    }
    for (unsigned i = 0; i < 2 && part[i]; i++) {
        reason = simt_mmu_phys_rw(s, pa[i], sys[i],
                                  (uint8_t *)buf + (i ? first : 0), part[i],
                                  write);
        if (reason) {
            *fault_va = va + (i ? first : 0);
            return reason;
        }
    }
    return 0;
}

bool simt_mmu_bare(SimtState *s, unsigned ctx)
{
    return !(s->mmu.contexts[ctx].pt & SIMT_PT_SV32);
}

/* A PTE from VRAM, or false if @addr is outside it. */
static bool read_pte(SimtState *s, uint64_t addr, uint32_t *pte)
{
    if (addr + 4 > s->vram_size) {
        return false;
    }
    *pte = ldl_le_p(s->mem.flat + addr);
    return true;
}

static int walk(SimtState *s, unsigned ctx, uint32_t va, SimtTlbEntry *e)
{
    uint64_t table = (uint64_t)(s->mmu.contexts[ctx].pt & SIMT_PT_PPN_MASK) <<
                     SIMT_PAGE_SHIFT;
    uint32_t vpn1 = SIMT_VPN1(va), vpn0 = SIMT_VPN0(va);
    uint32_t pte;
    uint64_t pfn;
    bool super = false;

    if (!read_pte(s, table + vpn1 * 4, &pte)) {
        return SIMT_MMU_BEYOND;
    }
    if (!(pte & SIMT_PTE_V)) {
        return SIMT_MMU_UNMAPPED;
    }
    /* System memory only in 4 KiB leaves: not a superpage nor a table. */
    if (((pte & SIMT_PTE_W) && !(pte & SIMT_PTE_R)) || (pte & SIMT_PTE_SYS)) {
        return SIMT_MMU_MALFORMED;
    }
    if (pte & (SIMT_PTE_R | SIMT_PTE_X)) {
        /* A superpage: its PPN[0] must be zero. */
        if (SIMT_PTE_PPN0(pte)) {
            return SIMT_MMU_MALFORMED;
        }
        pfn = ((uint64_t)(pte >> 20) << 10) | vpn0;
        super = true;
    } else {
        table = (uint64_t)(pte >> SIMT_PTE_PPN_SHIFT) << SIMT_PAGE_SHIFT;
        if (!read_pte(s, table + vpn0 * 4, &pte)) {
            return SIMT_MMU_BEYOND;
        }
        if (!(pte & SIMT_PTE_V)) {
            return SIMT_MMU_UNMAPPED;
        }
        if (((pte & SIMT_PTE_W) && !(pte & SIMT_PTE_R)) ||
            !(pte & (SIMT_PTE_R | SIMT_PTE_X))) {
            return SIMT_MMU_MALFORMED;
        }
        pfn = pte >> SIMT_PTE_PPN_SHIFT;
    }
    /* A system page is checked when it is reached (a DMA error). */
    if (!(pte & SIMT_PTE_SYS) &&
        (pfn + 1) << SIMT_PAGE_SHIFT > s->vram_size) {
        return SIMT_MMU_BEYOND;
    }
    e->valid = true;
    e->sys = pte & SIMT_PTE_SYS;
    e->ctx = ctx;
    e->vpn = va >> SIMT_PAGE_SHIFT;
    e->pfn = pfn;
    e->perm = pte & (SIMT_PTE_R | SIMT_PTE_W | SIMT_PTE_X);
    e->super = super;
    return 0;
}

static uint32_t access_perm(int access)
{
    switch (access) {
    case SIMT_ACCESS_STORE:
    case SIMT_ACCESS_COPY_WRITE:
    case SIMT_ACCESS_QUEUE_WRITE:
        return SIMT_PTE_W;
    case SIMT_ACCESS_FETCH:
        return SIMT_PTE_X;
    default:
        return SIMT_PTE_R;
    }
}

static SimtTlbEntry *tlb_slot(SimtState *s, unsigned ctx, uint32_t vpn)
{
    return &s->mmu.tlb[(vpn + ctx * 61) % SIMT_TLB_ENTRIES];
}

int simt_mmu_translate(SimtState *s, unsigned ctx, uint32_t va, int access,
                       uint64_t *pa, bool *sys)
{
    uint32_t vpn = va >> SIMT_PAGE_SHIFT;
    SimtTlbEntry *e;
    int reason;

    if (simt_mmu_bare(s, ctx)) {
        if (va >= s->vram_size) {
            return SIMT_MMU_BEYOND;
        }
        *pa = va;
        *sys = false;
        return 0;
    }
    e = tlb_slot(s, ctx, vpn);
    if (e->valid && e->ctx == ctx && e->vpn == vpn) {
        s->mmu.tlb_hits++;
    } else {
        s->mmu.tlb_misses++;
        trace_simt_tlb_miss(ctx, va);
        reason = walk(s, ctx, va, e);
        if (reason) {
            return reason;
        }
    }
    if (!(e->perm & access_perm(access))) {
        return SIMT_MMU_PERMISSION;
    }
    *pa = ((uint64_t)e->pfn << SIMT_PAGE_SHIFT) | (va & (SIMT_PAGE_SIZE - 1));
    *sys = e->sys;
    return 0;
}

int simt_mmu_phys_rw(SimtState *s, uint64_t pa, bool sys, void *buf,
                     uint64_t len, bool write)
{
    if (sys) {
        /* PCIe latency is not modelled: the same cost as VRAM. */
        MemTxResult r = write ? pci_dma_write(PCI_DEVICE(s), pa, buf, len)
                              : pci_dma_read(PCI_DEVICE(s), pa, buf, len);

        if (r != MEMTX_OK) {
            SIMT_GUEST_ERR(simt_err_sys_page_dma, "system page at 0x%"
                           PRIx64 " is unreachable by DMA", pa);
            return SIMT_MMU_BEYOND;
        }
        return 0;
    }
    if (pa > s->vram_size || len > s->vram_size - pa) {
        return SIMT_MMU_BEYOND;
    }
    if (write) {
        memcpy(s->mem.flat + pa, buf, len);
    } else {
        memcpy(buf, s->mem.flat + pa, len);
    }
    return 0;
}

void simt_mmu_fault(SimtState *s, unsigned ctx, unsigned q, uint32_t addr,
                    uint32_t pc, int access, int reason)
{
    SimtContext *c = &s->mmu.contexts[ctx];

    trace_simt_mmu_fault(ctx, q, addr, pc, access, reason);
    s->mmu.faults++;
    if (!(c->fault & SIMT_CFAULT_VALID)) {
        c->fault = SIMT_CFAULT(access, reason);
        c->fault_addr = addr;
        c->fault_pc = pc;
        c->fault_queue = q;
    }
    simt_irq_raise(s, SIMT_IRQ_MMU);
}

/*
 * A kernel access in a translated context (aligned, 1 to 4 bytes, so in
 * one page): SIMT_FAULT_NONE, or SIMT_FAULT_PAGE with the fault kept in
 * the view.
 */
static int view_access(SimtMmuView *v, uint32_t addr, int access,
                       uint8_t *buf, unsigned size)
{
    uint64_t pa;
    bool sys;
    int reason = simt_mmu_translate(v->s, v->ctx, addr, access, &pa, &sys);

    if (!reason) {
        reason = simt_mmu_phys_rw(v->s, pa, sys, buf, size,
                                  access == SIMT_ACCESS_STORE);
    }
    if (reason) {
        v->fault_addr = addr;
        v->fault_access = access;
        v->fault_reason = reason;
        return SIMT_FAULT_PAGE;
    }
    return SIMT_FAULT_NONE;
}

static int view_load(void *opaque, uint32_t addr, unsigned size,
                     uint32_t *val)
{
    uint8_t b[4];
    int fault = view_access(opaque, addr, SIMT_ACCESS_LOAD, b, size);

    if (fault) {
        return fault;
    }
    *val = size == 4 ? ldl_le_p(b) : size == 2 ? lduw_le_p(b) : b[0];
    return SIMT_FAULT_NONE;
}

static int view_store(void *opaque, uint32_t addr, unsigned size,
                      uint32_t val)
{
    uint8_t b[4];

    if (size == 4) {
        stl_le_p(b, val);
    } else if (size == 2) {
        stw_le_p(b, val);
    } else {
        b[0] = val;
    }
    return view_access(opaque, addr, SIMT_ACCESS_STORE, b, size);
}

static int view_fetch(void *opaque, uint32_t addr, uint32_t *val)
{
    uint8_t b[4];
    int fault = view_access(opaque, addr, SIMT_ACCESS_FETCH, b, 4);

    if (fault) {
        return fault;
    }
    *val = ldl_le_p(b);
    return SIMT_FAULT_NONE;
}

/*
 * A warp's accesses to one page: served from VRAM when the page is in the
 * TLB, in VRAM and allowed, each lane's translation counted as the hit it
 * would be; anything else (a miss, a system page, a fault) goes lane by
 * lane, through the walk and the fault reporting.
 */
QEMU_BUILD_BUG_ON(SIMT_MEM_PAGE_SIZE != SIMT_PAGE_SIZE);

static uint8_t *view_page(void *opaque, uint32_t va, bool store,
                          unsigned lanes)
{
    SimtMmuView *v = opaque;
    SimtState *s = v->s;
    uint32_t vpn = va >> SIMT_PAGE_SHIFT;
    SimtTlbEntry *e = tlb_slot(s, v->ctx, vpn);
    uint64_t pa = (uint64_t)e->pfn << SIMT_PAGE_SHIFT;
    int access = store ? SIMT_ACCESS_STORE : SIMT_ACCESS_LOAD;

    if (simt_mmu_bare(s, v->ctx) || !e->valid || e->ctx != v->ctx ||
        e->vpn != vpn || e->sys || !(e->perm & access_perm(access)) ||
        pa + SIMT_PAGE_SIZE > s->vram_size) {
        return NULL;
    }
    s->mmu.tlb_hits += lanes;
    return s->mem.flat + pa;
}

static const SimtMemOps simt_mmu_ops = {
    .load = view_load,
    .store = view_store,
    .fetch = view_fetch,
    .page = view_page,
};

void simt_mmu_view_init(SimtMmuView *v, SimtState *s, unsigned ctx,
                        SimtMem *mem)
{
    memset(v, 0, sizeof(*v));
    v->ctx = ctx;
    v->bare = simt_mmu_bare(s, ctx);
    simt_mmu_view_attach(v, s, mem);
}

void simt_mmu_view_attach(SimtMmuView *v, SimtState *s, SimtMem *mem)
{
    v->s = s;
    if (v->bare) {
        *mem = s->mem;
    } else {
        memset(mem, 0, sizeof(*mem));
        mem->ops = &simt_mmu_ops;
        mem->opaque = v;
    }
}

void simt_mmu_tlb_invalidate(SimtState *s, uint32_t cmd)
{
    uint32_t vpn = s->mmu.tlb_inv_addr >> SIMT_PAGE_SHIFT;

    trace_simt_tlb_invalidate(cmd, s->mmu.tlb_inv_ctx, s->mmu.tlb_inv_addr);
    for (unsigned i = 0; i < SIMT_TLB_ENTRIES; i++) {
        SimtTlbEntry *e = &s->mmu.tlb[i];

        switch (cmd) {
        case SIMT_TLB_INV_ALL:
            e->valid = false;
            break;
        case SIMT_TLB_INV_CTX:
            e->valid &= e->ctx != s->mmu.tlb_inv_ctx;
            break;
        case SIMT_TLB_INV_PAGE:
            /* The whole leaf that maps the address, as sfence.vma. */
            e->valid &= e->ctx != s->mmu.tlb_inv_ctx ||
                        (e->super ? (e->vpn ^ vpn) >> 10 != 0
                                  : e->vpn != vpn);
            break;
        default:
            SIMT_GUEST_ERR(simt_err_tlb_inv, "unknown TLB invalidate "
                           "command %u", cmd);
            return;
        }
    }
}

void simt_mmu_reset(SimtState *s)
{
    memset(s->mmu.contexts, 0, sizeof(s->mmu.contexts));
    for (unsigned c = 0; c < SIMT_MAX_CONTEXTS; c++) {
        /* Preemptible by default, as the least surprising hardware. */
        s->mmu.contexts[c].preempt_mode = SIMT_PMODE_DRAIN;
    }
    memset(s->mmu.tlb, 0, sizeof(s->mmu.tlb));
    s->mmu.tlb_inv_ctx = 0;
    s->mmu.tlb_inv_addr = 0;
    s->mmu.tlb_hits = 0;
    s->mmu.tlb_misses = 0;
    s->mmu.faults = 0;
}

bool simt_ctx_reg_read(SimtState *s, unsigned ctx, unsigned reg,
                       uint32_t *val)
{
    SimtContext *c = &s->mmu.contexts[ctx];

    switch (reg) {
    case SIMT_CREG_PT:
        *val = c->pt;
        return true;
    case SIMT_CREG_PRIORITY:
        *val = c->priority;
        return true;
    case SIMT_CREG_SAVE_BASE:
        *val = c->save_base;
        return true;
    case SIMT_CREG_SAVE_SIZE:
        *val = c->save_size;
        return true;
    case SIMT_CREG_FAULT:
        *val = c->fault;
        return true;
    case SIMT_CREG_FAULT_ADDR:
        *val = c->fault_addr;
        return true;
    case SIMT_CREG_FAULT_PC:
        *val = c->fault_pc;
        return true;
    case SIMT_CREG_FAULT_QUEUE:
        *val = c->fault_queue;
        return true;
    case SIMT_CREG_PREEMPT_MODE:
        *val = c->preempt_mode;
        return true;
    case SIMT_CREG_PP_DRAIN:
        *val = c->pp_drain;
        return true;
    default:
        return false;
    }
}

bool simt_ctx_reg_write(SimtState *s, unsigned ctx, unsigned reg,
                       uint32_t val)
{
    SimtContext *c = &s->mmu.contexts[ctx];

    switch (reg) {
    case SIMT_CREG_PT:
        /*
         * A new root takes effect for translations not in the TLB; the
         * driver invalidates the context, as with satp and sfence.vma.
         */
        c->pt = val & (SIMT_PT_SV32 | SIMT_PT_PPN_MASK);
        break;
    case SIMT_CREG_PRIORITY:
        c->priority = MIN(val, SIMT_MAX_PRIORITY);
        break;
    case SIMT_CREG_SAVE_BASE:
        c->save_base = val;
        break;
    case SIMT_CREG_SAVE_SIZE:
        c->save_size = val;
        break;
    case SIMT_CREG_FAULT:
        if (val & SIMT_CFAULT_VALID) {
            c->fault = 0;
        }
        break;
    case SIMT_CREG_PREEMPT_MODE:
        if (val >= SIMT_PMODE_NR) {
            SIMT_GUEST_ERR(simt_err_ctx_preempt_mode, "context %u: "
                           "preemption mode %u does not exist; ignored",
                           ctx, val);
        } else {
            c->preempt_mode = val;
        }
        break;
    case SIMT_CREG_PP_DRAIN:
        c->pp_drain = val;
        break;
    default:
        return false;
    }
    return true;
}

/* The TLB migrates with the rest, so that stale entries stay stale. */
const VMStateDescription vmstate_simt_tlb_entry = {
    .name = "simt/tlb-entry",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(valid, SimtTlbEntry),
        VMSTATE_UINT8(ctx, SimtTlbEntry),
        VMSTATE_UINT8(perm, SimtTlbEntry),
        VMSTATE_BOOL(super, SimtTlbEntry),
        VMSTATE_BOOL(sys, SimtTlbEntry),
        VMSTATE_UINT32(vpn, SimtTlbEntry),
        VMSTATE_UINT32(pfn, SimtTlbEntry),
        VMSTATE_END_OF_LIST()
    },
};

const VMStateDescription vmstate_simt_context = {
    .name = "simt/context",
    .version_id = 3,
    .minimum_version_id = 3,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(pt, SimtContext),
        VMSTATE_UINT32(priority, SimtContext),
        VMSTATE_UINT32(save_base, SimtContext),
        VMSTATE_UINT32(save_size, SimtContext),
        VMSTATE_UINT32(fault, SimtContext),
        VMSTATE_UINT32(fault_addr, SimtContext),
        VMSTATE_UINT32(fault_pc, SimtContext),
        VMSTATE_UINT32(fault_queue, SimtContext),
        VMSTATE_UINT32(preempt_mode, SimtContext),
        VMSTATE_BOOL(suspended, SimtContext),
        VMSTATE_UINT32(pp_drain, SimtContext),
        VMSTATE_END_OF_LIST()
    },
};
