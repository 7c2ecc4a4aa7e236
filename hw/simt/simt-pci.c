/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: PCI front end of the SIMT accelerator.
 *
 * Identification and control registers in BAR0, the user queues'
 * doorbells in BAR1 (a page per queue), device memory (VRAM) in BAR2,
 * MSI-X in BAR4 with one vector per interrupt class.  The register
 * layout is the hardware contract in include/hw/simt/simt-hw.h.
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/timer.h"
#include "hw/pci/msix.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "system/runstate.h"
#include "simt.h"
#include "simt-queue.h"
#include "simt-sched.h"
#include "simt-preempt.h"
#include "simt-sm.h"
#include "simt-timeline.h"
#include "simt-mmu.h"
#include "simt-dma.h"
#include "simt-err.h"
#include "simt-slice.h"
#include "simt-irq.h"
#include "hw/simt/simt-hw.h"
#include "simt-policy.h"
#include "trace.h"

/* Engine state back to power-on values; VRAM contents are kept. */
static void simt_reset_state(SimtState *s, const char *why)
{
    trace_simt_reset(why);
    simt_slice_reset(s);
    simt_queues_reset(s);
    simt_mmu_reset(s);
    simt_dma_reset(s);
    simt_preempt_reset(s);
    simt_timeline_reset(s);
    simt_sched_reset(s);
    s->scratch = 0;
    s->cycle_hi_latch = 0;
    s->blocks_done = 0;
    s->launch_seq = 0;
    simt_irq_reset(s);
}

static bool simt_reg_access_ok(hwaddr addr, unsigned size, bool write)
{
    if (size == 4 && !(addr & 3)) {
        return true;
    }
    SIMT_GUEST_ERR(simt_err_reg_access, "%s of size %u at unaligned or odd "
                   "offset 0x%" HWADDR_PRIx " ignored",
                   write ? "write" : "read", size, addr);
    return false;
}

/* The global registers below SIMT_GLOBAL_REGS_END. */
static bool simt_global_read(SimtState *s, hwaddr addr, uint32_t *val)
{
    uint32_t v;

    switch (addr) {
    case SIMT_REG_ID:
        v = SIMT_ID_MAGIC;
        break;
    case SIMT_REG_VERSION:
        v = SIMT_VERSION_VALUE;
        break;
    case SIMT_REG_CAPS:
        v = SIMT_CAPS_ALL | (s->fifo_dispatch ? SIMT_CAP_FIFO_DISPATCH : 0);
        break;
    case SIMT_REG_SM_COUNT:
        v = simt_cfg(s, SIMT_CFG_SM_COUNT);
        break;
    case SIMT_REG_VRAM_SIZE_LO:
        v = (uint32_t)s->vram_size;
        break;
    case SIMT_REG_VRAM_SIZE_HI:
        v = s->vram_size >> 32;
        break;
    case SIMT_REG_SCRATCH:
        v = s->scratch;
        break;
    case SIMT_REG_IRQ_STATUS:
        v = s->irq_status;
        break;
    case SIMT_REG_IRQ_MASK:
        v = s->irq_mask;
        break;
    case SIMT_REG_IRQ_COUNT:
        v = s->irq_count;
        break;
    case SIMT_REG_CYCLE_LO: {
        /*
         * The slice engine's time, brought up to the current cycle
         * first: when it still runs behind virtual time (a slow host),
         * the cycle it has reached, so that the counter agrees with the
         * cycles in completion records and events and with ACTIVE_CYCLES.
         */
        uint64_t now = simt_slice_cycle(s);

        s->cycle_hi_latch = now >> 32;
        v = now;
        break;
    }
    case SIMT_REG_CYCLE_HI:
        v = s->cycle_hi_latch;
        break;
    case SIMT_REG_CLOCK_MHZ:
        v = simt_cfg(s, SIMT_CFG_CLOCK_MHZ);
        break;
    case SIMT_REG_PRESET:
        v = s->preset;
        break;
    case SIMT_REG_SM_THREADS:
        v = simt_cfg(s, SIMT_CFG_SM_THREADS);
        break;
    case SIMT_REG_SM_WARPS:
        v = simt_cfg(s, SIMT_CFG_SM_WARPS);
        break;
    case SIMT_REG_SM_BLOCKS:
        v = simt_cfg(s, SIMT_CFG_SM_BLOCKS);
        break;
    case SIMT_REG_SM_REGS:
        v = simt_cfg(s, SIMT_CFG_SM_REGS);
        break;
    case SIMT_REG_SM_SHARED:
        v = simt_cfg(s, SIMT_CFG_SM_SHARED);
        break;
    case SIMT_REG_KERNEL_SLOTS:
        v = simt_cfg(s, SIMT_CFG_KERNEL_SLOTS);
        break;
    case SIMT_REG_QUEUE_COUNT:
        v = simt_cfg(s, SIMT_CFG_QUEUES);
        break;
    case SIMT_REG_MEM_BW:
        v = simt_cfg(s, SIMT_CFG_MEM_BW);
        break;
    case SIMT_REG_BLOCKS_RESIDENT:
        v = 0;
        for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
            v += simt_cfg(s, SIMT_CFG_SM_BLOCKS) - s->sms[i].room.blocks;
        }
        break;
    case SIMT_REG_BLOCKS_DONE:
        v = s->blocks_done;
        break;
    case SIMT_REG_POLICY_ERRORS:
        v = s->policy_errors;
        break;
    case SIMT_REG_CONTEXT_COUNT:
        v = simt_cfg(s, SIMT_CFG_CONTEXTS);
        break;
    case SIMT_REG_COPY_ENGINES:
        v = simt_cfg(s, SIMT_CFG_COPY_ENGINES);
        break;
    case SIMT_REG_DMA_CHUNK:
        v = s->dma.chunk;
        break;
    case SIMT_REG_COPY_BW:
        v = simt_cfg(s, SIMT_CFG_COPY_BW);
        break;
    case SIMT_REG_TLB_INV_CTX:
        v = s->mmu.tlb_inv_ctx;
        break;
    case SIMT_REG_TLB_INV_ADDR:
        v = s->mmu.tlb_inv_addr;
        break;
    case SIMT_REG_TLB_HITS:
        v = s->mmu.tlb_hits;
        break;
    case SIMT_REG_TLB_MISSES:
        v = s->mmu.tlb_misses;
        break;
    case SIMT_REG_MMU_FAULTS:
        v = s->mmu.faults;
        break;
    default:
        return simt_preempt_reg_read(s, addr, val) ||
               simt_timeline_reg_read(s, addr, val);
    }
    *val = v;
    return true;
}

static bool simt_global_write(SimtState *s, hwaddr addr, uint32_t val)
{
    switch (addr) {
    case SIMT_REG_SCRATCH:
        s->scratch = val;
        break;
    case SIMT_REG_RESET:
        if (val == SIMT_RESET_MAGIC) {
            simt_reset_state(s, "register");
        } else {
            SIMT_GUEST_ERR(simt_err_reset_magic, "reset register written "
                           "with 0x%x, not the reset magic; ignored", val);
        }
        break;
    case SIMT_REG_IRQ_STATUS:
        s->irq_status &= ~val;
        simt_irq_update(s);
        break;
    case SIMT_REG_IRQ_MASK: {
        uint32_t unmasked = val & ~s->irq_mask;

        s->irq_mask = val & SIMT_IRQ_ALL;
        /* Classes that were pending while masked fire when unmasked. */
        simt_irq_deliver(s, s->irq_status & unmasked);
        break;
    }
    case SIMT_REG_IRQ_RAISE:
        if (val == SIMT_IRQ_BIT(SIMT_IRQ_TEST)) {
            simt_irq_raise(s, SIMT_IRQ_TEST);
        } else {
            SIMT_GUEST_ERR(simt_err_irq_raise, "only the test interrupt can "
                           "be raised by software (wrote 0x%x)", val);
        }
        break;
    case SIMT_REG_DMA_CHUNK:
        if (!is_power_of_2(val) || val < SIMT_MIN_DMA_CHUNK ||
            val > SIMT_MAX_DMA_CHUNK) {
            SIMT_GUEST_ERR(simt_err_dma_chunk, "DMA chunk of %u bytes "
                           "refused (a power of two from 4 KiB to 64 MiB)",
                           val);
        } else {
            s->dma.chunk = val;
        }
        break;
    case SIMT_REG_TLB_INV_CTX:
        s->mmu.tlb_inv_ctx = val;
        break;
    case SIMT_REG_TLB_INV_ADDR:
        s->mmu.tlb_inv_addr = val;
        break;
    case SIMT_REG_TLB_INV:
        simt_mmu_tlb_invalidate(s, val);
        break;
    default:
        return simt_preempt_reg_write(s, addr, val) ||
               simt_timeline_reg_write(s, addr, val);
    }
    return true;
}

static const struct simt_reg_desc simt_global_regs[] = {
    SIMT_GLOBAL_REGS(SIMT_REG_DESC)
};
static const struct simt_reg_desc simt_queue_regs[] = {
    SIMT_QUEUE_REGS(SIMT_REG_DESC)
};
static const struct simt_reg_desc simt_ctx_regs[] = {
    SIMT_CTX_REGS(SIMT_REG_DESC)
};
static const struct simt_reg_desc simt_copy_engine_regs[] = {
    SIMT_ENGINE_REGS(SIMT_REG_DESC)
};

/*
 * BAR0's windows: the global registers, then one block of registers per
 * queue, context and copy engine, each from the contract's one list.
 */
typedef enum SimtRegWindowId {
    SIMT_WIN_GLOBAL,
    SIMT_WIN_QUEUE,
    SIMT_WIN_CTX,
    SIMT_WIN_ENGINE,
} SimtRegWindowId;

typedef struct SimtRegWindow {
    hwaddr base;
    hwaddr stride;
    int count;                  /* SimtConfigField, or -1: one */
    const struct simt_reg_desc *regs;
    size_t nregs;
} SimtRegWindow;

static const SimtRegWindow simt_reg_windows[] = {
    [SIMT_WIN_GLOBAL] = { 0, SIMT_GLOBAL_REGS_END, -1, simt_global_regs,
                          ARRAY_SIZE(simt_global_regs) },
    [SIMT_WIN_QUEUE] = { SIMT_QUEUE_BASE, SIMT_QUEUE_STRIDE, SIMT_CFG_QUEUES,
                         simt_queue_regs, ARRAY_SIZE(simt_queue_regs) },
    [SIMT_WIN_CTX] = { SIMT_CTX_BASE, SIMT_CTX_STRIDE, SIMT_CFG_CONTEXTS,
                       simt_ctx_regs, ARRAY_SIZE(simt_ctx_regs) },
    [SIMT_WIN_ENGINE] = { SIMT_COPY_BASE, SIMT_COPY_STRIDE,
                          SIMT_CFG_COPY_ENGINES, simt_copy_engine_regs,
                          ARRAY_SIZE(simt_copy_engine_regs) },
};

/*
 * The register at @addr: its window, the index of its queue, context or
 * engine in @idx and its offset there in @reg; NULL if no register of
 * this device's configuration is at @addr.
 */
static const struct simt_reg_desc *simt_reg_find(SimtState *s, hwaddr addr,
                                                 SimtRegWindowId *win,
                                                 unsigned *idx, unsigned *reg)
{
    for (unsigned w = 0; w < ARRAY_SIZE(simt_reg_windows); w++) {
        const SimtRegWindow *rw = &simt_reg_windows[w];
        uint32_t n = rw->count < 0 ? 1 : simt_cfg(s, rw->count);

        if (addr < rw->base || addr - rw->base >= n * rw->stride) {
            continue;
        }
        *win = w;
        *idx = (addr - rw->base) / rw->stride;
        *reg = (addr - rw->base) % rw->stride;
        for (size_t i = 0; i < rw->nregs; i++) {
            if (rw->regs[i].offset == *reg) {
                return &rw->regs[i];
            }
        }
        return NULL;
    }
    return NULL;
}

/* A register the contract lists that its block does not decode. */
static void simt_reg_undecoded(hwaddr addr)
{
    qemu_log_mask(LOG_UNIMP, "simt: register 0x%" HWADDR_PRIx " is in the "
                  "contract's list but not decoded\n", addr);
}

static uint64_t simt_reg_read(void *opaque, hwaddr addr, unsigned size)
{
    SimtState *s = opaque;
    const struct simt_reg_desc *desc;
    SimtRegWindowId win;
    unsigned idx, reg;
    uint32_t val = 0;
    bool decoded = true;

    if (!simt_reg_access_ok(addr, size, false)) {
        return 0;
    }
    desc = simt_reg_find(s, addr, &win, &idx, &reg);
    if (!desc) {
        SIMT_GUEST_ERR(simt_err_reg_read, "read of unknown register "
                       "0x%" HWADDR_PRIx, addr);
        return 0;
    }
    if (desc->access == SIMT_RA_WO) {
        return 0;
    }
    switch (win) {
    case SIMT_WIN_GLOBAL:
        decoded = simt_global_read(s, addr, &val);
        break;
    case SIMT_WIN_QUEUE:
        decoded = simt_queue_reg_read(s, idx, reg, &val);
        break;
    case SIMT_WIN_CTX:
        decoded = simt_ctx_reg_read(s, idx, reg, &val) ||
                  simt_preempt_ctx_reg_read(s, idx, reg, &val);
        break;
    case SIMT_WIN_ENGINE:
        decoded = simt_copy_engine_reg_read(s, idx, reg, &val);
        break;
    }
    if (!decoded) {
        simt_reg_undecoded(addr);
        val = 0;
    }
    trace_simt_reg_read(addr, val);
    return val;
}

static void simt_reg_write(void *opaque, hwaddr addr, uint64_t data,
                           unsigned size)
{
    SimtState *s = opaque;
    const struct simt_reg_desc *desc;
    SimtRegWindowId win;
    unsigned idx, reg;
    uint32_t val = data;
    bool decoded = false;

    if (!simt_reg_access_ok(addr, size, true)) {
        return;
    }
    trace_simt_reg_write(addr, val);
    /* Writes that cannot change what the slice engine does leave it be. */
    if (addr != SIMT_REG_SCRATCH && addr != SIMT_REG_RESET &&
        addr != SIMT_REG_IRQ_STATUS && addr != SIMT_REG_IRQ_MASK &&
        addr != SIMT_REG_IRQ_RAISE) {
        simt_slice_catch_up(s);
    }
    desc = simt_reg_find(s, addr, &win, &idx, &reg);
    if (!desc) {
        SIMT_GUEST_ERR(simt_err_reg_write, "write 0x%x to unknown "
                       "register 0x%" HWADDR_PRIx " ignored", val, addr);
        return;
    }
    if (desc->access == SIMT_RA_RO) {
        SIMT_GUEST_ERR(simt_err_reg_read_only, "write 0x%x to read-only "
                       "register 0x%" HWADDR_PRIx " ignored", val, addr);
        return;
    }
    switch (win) {
    case SIMT_WIN_GLOBAL:
        decoded = simt_global_write(s, addr, val);
        break;
    case SIMT_WIN_QUEUE:
        decoded = simt_queue_reg_write(s, idx, reg, val);
        break;
    case SIMT_WIN_CTX:
        decoded = simt_ctx_reg_write(s, idx, reg, val);
        break;
    case SIMT_WIN_ENGINE:
        break;          /* no writable register */
    }
    if (!decoded) {
        simt_reg_undecoded(addr);
    }
    /* A doorbell, ENABLE or a preemption request wakes the slice engine. */
    simt_slice_take_events(s);
}

/* Every size and alignment reaches the handlers, which reject all but one. */
static const MemoryRegionOps simt_reg_ops = {
    .read = simt_reg_read,
    .write = simt_reg_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 1,
        .max_access_size = 8,
        .unaligned = true,
    },
    .impl = {
        .min_access_size = 1,
        .max_access_size = 8,
        .unaligned = true,
    },
};

/*
 * The doorbell BAR: queue q's page at q * SIMT_DOORBELL_STRIDE.  The
 * driver maps one page into the process that owns the queue, so nothing
 * here reaches beyond that queue, and a process's mistakes are ignored.
 */
static bool simt_doorbell_access_ok(hwaddr addr, unsigned size, bool write)
{
    if (size == 4 && !(addr & 3)) {
        return true;
    }
    SIMT_GUEST_ERR(simt_err_doorbell_access, "doorbell %s of size %u at "
                   "unaligned offset 0x%" HWADDR_PRIx " ignored",
                   write ? "write" : "read", size, addr);
    return false;
}

static uint64_t simt_doorbell_read(void *opaque, hwaddr addr, unsigned size)
{
    SimtState *s = opaque;
    unsigned q = addr / SIMT_DOORBELL_STRIDE;
    hwaddr off = addr % SIMT_DOORBELL_STRIDE;
    uint32_t val = 0;

    if (!simt_doorbell_access_ok(addr, size, false)) {
        return 0;
    }
    if (q < simt_cfg(s, SIMT_CFG_QUEUES)) {
        if (off == SIMT_DBREG_HEAD) {
            simt_queue_reg_read(s, q, SIMT_QREG_HEAD, &val);
        } else if (off == SIMT_DBREG_TAIL) {
            simt_queue_reg_read(s, q, SIMT_QREG_TAIL, &val);
        }
    }
    trace_simt_doorbell_read(q, off, val);
    return val;
}

static void simt_doorbell_write(void *opaque, hwaddr addr, uint64_t data,
                                unsigned size)
{
    SimtState *s = opaque;
    unsigned q = addr / SIMT_DOORBELL_STRIDE;
    hwaddr off = addr % SIMT_DOORBELL_STRIDE;
    uint32_t val = data;

    if (!simt_doorbell_access_ok(addr, size, true)) {
        return;
    }
    trace_simt_doorbell_write(q, off, val);
    if (off != SIMT_DBREG_TAIL) {
        SIMT_GUEST_ERR(simt_err_doorbell_offset, "doorbell write 0x%x to "
                       "queue %u offset 0x%" HWADDR_PRIx ", not TAIL; "
                       "ignored", val, q, off);
        return;
    }
    /* As a TAIL register write: the engine's time first, then the event. */
    simt_slice_catch_up(s);
    if (!simt_queue_doorbell(s, q, val)) {
        SIMT_GUEST_ERR(simt_err_doorbell_queue, "doorbell TAIL 0x%x for "
                       "queue %u, not an enabled user queue; ignored",
                       val, q);
    }
    simt_slice_take_events(s);
}

static const MemoryRegionOps simt_doorbell_ops = {
    .read = simt_doorbell_read,
    .write = simt_doorbell_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 1,
        .max_access_size = 8,
        .unaligned = true,
    },
    .impl = {
        .min_access_size = 1,
        .max_access_size = 8,
        .unaligned = true,
    },
};

/* The preset, with the user's overrides, checked against the limits. */
static bool simt_check_properties(SimtState *s, Error **errp)
{
    const char *name = s->preset_name ? s->preset_name : "default";

    s->preset = simt_preset_lookup(name);
    if (s->preset < 0) {
        error_setg(errp, "simt: unknown preset '%s'", name);
        error_append_hint(errp, "Presets:");
        for (int i = 0; i < SIMT_PRESET_NR; i++) {
            error_append_hint(errp, " %s", simt_preset_name(i));
        }
        error_append_hint(errp, "\n");
        return false;
    }
    /* The policies the properties name; each table's first by default. */
    s->placement = simt_policy_pick(&simt_placement_table,
                                    s->placement_name, errp);
    if (!s->placement) {
        return false;
    }
    s->preempt_choice = simt_policy_pick(&simt_preempt_choice_table,
                                         s->preempt_choice_name, errp);
    if (!s->preempt_choice) {
        return false;
    }
    s->copy_policy = simt_policy_pick(&simt_copy_policy_table,
                                      s->copy_policy_name, errp);
    if (!s->copy_policy) {
        return false;
    }
    simt_preset_config(s->preset, &s->cfg);
    for (int f = 0; f < SIMT_CFG_NR; f++) {
        const SimtConfigFieldInfo *info = &simt_config_fields[f];

        if (s->cfg_overridden & BIT(f)) {
            s->cfg.field[f] = s->cfg_override[f];
        }
        if (s->cfg.field[f] < info->min || s->cfg.field[f] > info->max) {
            error_setg(errp, "simt: %s must be between %u and %u, not %u",
                       info->name, info->min, info->max, s->cfg.field[f]);
            return false;
        }
    }
    if (s->vram_size < SIMT_MIN_VRAM_SIZE ||
        s->vram_size > SIMT_MAX_VRAM_SIZE ||
        !is_power_of_2(s->vram_size)) {
        error_setg(errp, "simt: vram-size must be a power of two between "
                   "1 MiB and 4 GiB, not %" PRIu64 " bytes", s->vram_size);
        return false;
    }
    return true;
}

/*
 * Kernels, copies and saves write VRAM through its host mapping, which the
 * dirty log does not see: when the VM stops to be migrated or saved, all
 * of VRAM is marked for sending again, so that what the device wrote
 * during a live migration's copy reaches the destination.
 */
static void simt_vm_state_change(void *opaque, bool running, RunState state)
{
    SimtState *s = opaque;

    if (!running && (state == RUN_STATE_FINISH_MIGRATE ||
                     state == RUN_STATE_SAVE_VM)) {
        memory_region_set_dirty(&s->vram, 0, s->vram_size);
    }
}

static void simt_realize(PCIDevice *pdev, Error **errp)
{
    SimtState *s = SIMT(pdev);

    if (!simt_check_properties(s, errp) ||
        !simt_sm_threads_check(s, errp)) {
        return;
    }

    pci_config_set_interrupt_pin(pdev->config, 1);

    memory_region_init_io(&s->regs, OBJECT(s), &simt_reg_ops, s,
                          "simt-regs", SIMT_REGS_SIZE);
    pci_register_bar(pdev, SIMT_BAR_REGS, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->regs);
    memory_region_init_io(&s->doorbell, OBJECT(s), &simt_doorbell_ops, s,
                          "simt-doorbell", SIMT_DOORBELL_SIZE);
    pci_register_bar(pdev, SIMT_BAR_DOORBELL, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->doorbell);

    if (!memory_region_init_ram(&s->vram, OBJECT(s), "simt-vram",
                                s->vram_size, errp)) {
        return;
    }
    pci_register_bar(pdev, SIMT_BAR_VRAM,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->vram);
    /* Kernels see VRAM at address 0, below the shared memory window. */
    s->mem.flat = memory_region_get_ram_ptr(&s->vram);
    s->mem.flat_base = 0;
    s->mem.flat_size = MIN(s->vram_size, SIMT_SHARED_BASE);

    if (pcie_endpoint_cap_init(pdev, 0) < 0) {
        error_setg(errp, "simt: cannot add the PCIe capability");
        return;
    }

    if (msix_init_exclusive_bar(pdev, SIMT_IRQ_NR, SIMT_BAR_MSIX, errp)) {
        return;
    }
    for (unsigned int v = 0; v < SIMT_IRQ_NR; v++) {
        msix_vector_use(pdev, v);
    }

    simt_slice_init(s);
    s->vm_state = qemu_add_vm_change_state_handler(simt_vm_state_change, s);
    s->dma.bounce = g_malloc(SIMT_DMA_BOUNCE);
    simt_sm_timing_init(s);
    simt_sched_init(s);
    simt_preempt_init(s);
    simt_reset_state(s, "realize");
    simt_sm_threads_start(s);
}

static void simt_exit(PCIDevice *pdev)
{
    SimtState *s = SIMT(pdev);

    msix_unuse_all_vectors(pdev);
    msix_uninit_exclusive_bar(pdev);
    simt_sm_threads_free(s);
    simt_reset_state(s, "unplug");
    simt_sched_free(s);
    simt_slice_free(s);
    qemu_del_vm_change_state_handler(s->vm_state);
    s->vm_state = NULL;
    g_free(s->dma.bounce);
    s->dma.bounce = NULL;
}

static void simt_reset_hold(Object *obj, ResetType type)
{
    simt_reset_state(SIMT(obj), "bus");
}

/*
 * Migration carries everything the device holds while it works: kernels
 * and their resident blocks, copies mid-chunk, the preemption event under
 * way, saved blocks, the TLB and the slice engine's clock.  Only the decoded
 * instructions are dropped; kernels decode their code again.
 */
static int simt_pre_load(void *opaque)
{
    /* Loading replaces the work under way (loadvm in a running VM). */
    simt_reset_state(opaque, "migration");
    return 0;
}

static int simt_post_load(void *opaque, int version_id)
{
    SimtState *s = opaque;

    if (!simt_queues_post_load(s) || !simt_sched_post_load(s)) {
        error_report("simt: the migration stream holds work this device "
                     "cannot have run");
        return -EINVAL;
    }
    return 0;
}

/* The work subsection: sent once the device has run anything. */
static bool simt_work_needed(void *opaque)
{
    SimtState *s = opaque;

    return s->launch_seq || s->dma.seq || s->pre.events;
}

/* Arrays are sized by the configuration: both ends must have the same. */
typedef struct SimtConfigCheck {
    SimtState *parent;
    uint32_t field[SIMT_CFG_NR];
} SimtConfigCheck;

static int simt_config_check_pre_save(void *opaque)
{
    SimtConfigCheck *c = opaque;

    memcpy(c->field, c->parent->cfg.field, sizeof(c->field));
    return 0;
}

static int simt_config_check_post_load(void *opaque, int version_id)
{
    SimtConfigCheck *c = opaque;

    if (memcmp(c->field, c->parent->cfg.field, sizeof(c->field))) {
        error_report("simt: the migration stream comes from a device with "
                     "another configuration (preset or machine properties)");
        return -EINVAL;
    }
    return 0;
}

static const VMStateDescription vmstate_simt_config_check = {
    .name = "simt/config",
    .pre_save = simt_config_check_pre_save,
    .post_load = simt_config_check_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(field, SimtConfigCheck, SIMT_CFG_NR),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_simt_work = {
    .name = "simt/work",
    /* 2: the SMs' latency model state */
    .version_id = 2,
    .minimum_version_id = 2,
    .needed = simt_work_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_WITH_TMP(SimtState, SimtConfigCheck,
                         vmstate_simt_config_check),
        VMSTATE_STRUCT_ARRAY(queues, SimtState, SIMT_MAX_QUEUES, 1,
                             vmstate_simt_queue_work, SimtQueue),
        VMSTATE_STRUCT_VARRAY_POINTER_UINT32(sms, SimtState,
                                             cfg.field[SIMT_CFG_SM_COUNT],
                                             vmstate_simt_sm, SimtSM),
        VMSTATE_UINT32(place_next, SimtState),
        VMSTATE_UINT32(policy_errors, SimtState),
        VMSTATE_STRUCT_ARRAY(dma.engines, SimtState, SIMT_MAX_COPY_ENGINES, 1,
                             vmstate_simt_copy_engine, SimtCopyEngine),
        VMSTATE_STRUCT(pre, SimtState, 1, vmstate_simt_preempt_work,
                       SimtPreempt),
        VMSTATE_STRUCT_ARRAY(mmu.tlb, SimtState, SIMT_TLB_ENTRIES, 1,
                             vmstate_simt_tlb_entry, SimtTlbEntry),
        VMSTATE_END_OF_LIST()
    },
};

static bool simt_ahead_needed(void *opaque)
{
    SimtState *s = opaque;

    return simt_sm_reached(s) > s->slice.start;
}

/*
 * SMs that ran ahead of the slice engine (threads > 1, simt-slice.c):
 * where they began their last steps and the blocks they found finished,
 * which retire in slices to come.
 */
static const VMStateDescription vmstate_simt_ahead = {
    .name = "simt/ahead",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = simt_ahead_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_VARRAY_POINTER_UINT32(sms, SimtState,
                                             cfg.field[SIMT_CFG_SM_COUNT],
                                             vmstate_simt_sm_found, SimtSM),
        VMSTATE_END_OF_LIST()
    },
};

/*
 * Nested structures carry no version in the stream: a changed one bumps
 * this version, so that an old stream is refused (4: the timeline's
 * registers left the preemption engine's).  5: a queue's CONTROL may hold
 * SIMT_QCTL_USER, which a device of version 4 would load and then run as
 * a kernel queue, so it refuses a stream of 5; a stream of 4 has no user
 * queue and loads as it is.
 */
static const VMStateDescription vmstate_simt = {
    .name = "simt",
    .version_id = 5,
    .minimum_version_id = 4,
    .pre_load = simt_pre_load,
    .post_load = simt_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, SimtState),
        VMSTATE_MSIX(parent_obj, SimtState),
        VMSTATE_UINT32(scratch, SimtState),
        VMSTATE_UINT32(irq_status, SimtState),
        VMSTATE_UINT32(irq_mask, SimtState),
        VMSTATE_UINT32(irq_count, SimtState),
        VMSTATE_UINT32(cycle_hi_latch, SimtState),
        VMSTATE_INT64(slice.time_base_ns, SimtState),
        VMSTATE_UINT64(slice.start, SimtState),
        VMSTATE_BOOL(slice.ticking, SimtState),
        VMSTATE_UINT64(launch_seq, SimtState),
        VMSTATE_UINT64(blocks_done, SimtState),
        VMSTATE_STRUCT_ARRAY(queues, SimtState, SIMT_MAX_QUEUES, 1,
                             vmstate_simt_queue, SimtQueue),
        VMSTATE_TIMER_PTR(slice.timer, SimtState),
        VMSTATE_STRUCT_ARRAY(mmu.contexts, SimtState, SIMT_MAX_CONTEXTS, 1,
                             vmstate_simt_context, SimtContext),
        VMSTATE_UINT32(mmu.tlb_inv_ctx, SimtState),
        VMSTATE_UINT32(mmu.tlb_inv_addr, SimtState),
        VMSTATE_UINT64(mmu.tlb_hits, SimtState),
        VMSTATE_UINT64(mmu.tlb_misses, SimtState),
        VMSTATE_UINT32(mmu.faults, SimtState),
        VMSTATE_UINT32(dma.chunk, SimtState),
        VMSTATE_UINT64(dma.seq, SimtState),
        VMSTATE_STRUCT(pre, SimtState, 1, vmstate_simt_preempt, SimtPreempt),
        VMSTATE_STRUCT(timeline, SimtState, 1, vmstate_simt_timeline,
                       SimtTimeline),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_simt_work,
        &vmstate_simt_ahead,
        &vmstate_simt_preempt_oracle,
        NULL
    },
};

static const Property simt_properties[] = {
    DEFINE_PROP_STRING("preset", SimtState, preset_name),
    DEFINE_PROP_STRING("placement", SimtState, placement_name),
    DEFINE_PROP_STRING("preempt-choice", SimtState, preempt_choice_name),
    DEFINE_PROP_STRING("copy-policy", SimtState, copy_policy_name),
    DEFINE_PROP_SIZE("vram-size", SimtState, vram_size, 256 * MiB),
    DEFINE_PROP_BOOL("fifo-dispatch", SimtState, fifo_dispatch, false),
    DEFINE_PROP_BOOL("preempt-queued-saves", SimtState, queued_saves, false),
    DEFINE_PROP_BOOL("chimera-plus", SimtState, chimera_plus, false),
    DEFINE_PROP_BOOL("ideal-memory", SimtState, ideal_memory, false),
    DEFINE_PROP_BOOL("x-wake-shortcut", SimtState, wake_shortcut, true),
    DEFINE_PROP_BOOL("run-ahead", SimtState, run_ahead, true),
    DEFINE_PROP_UINT32("threads", SimtState, sm_threads.count, 1),
};

/*
 * The machine fields are properties of their own so that a user can
 * override any one of a preset's values; reading one before realize
 * gives the override or the default preset's value.
 */
static void simt_get_cfg_field(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    SimtState *s = SIMT(obj);
    int f = (intptr_t)opaque;
    SimtConfig def;
    uint32_t val;

    if (DEVICE(obj)->realized) {
        val = s->cfg.field[f];
    } else if (s->cfg_overridden & BIT(f)) {
        val = s->cfg_override[f];
    } else {
        simt_preset_config(SIMT_PRESET_DEFAULT, &def);
        val = def.field[f];
    }
    visit_type_uint32(v, name, &val, errp);
}

static void simt_set_cfg_field(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    SimtState *s = SIMT(obj);
    int f = (intptr_t)opaque;
    uint32_t val;

    if (DEVICE(obj)->realized) {
        error_setg(errp, "simt: %s cannot change after realize", name);
        return;
    }
    if (!visit_type_uint32(v, name, &val, errp)) {
        return;
    }
    s->cfg_override[f] = val;
    s->cfg_overridden |= BIT(f);
}

static void simt_class_add_cfg_props(ObjectClass *klass)
{
    for (intptr_t f = 0; f < SIMT_CFG_NR; f++) {
        const SimtConfigFieldInfo *info = &simt_config_fields[f];
        g_autofree char *desc =
            g_strdup_printf("%s (%u..%u; default: the preset's)",
                            info->description, info->min, info->max);

        object_class_property_add(klass, info->name, "uint32",
                                  simt_get_cfg_field, simt_set_cfg_field,
                                  NULL, (void *)f);
        object_class_property_set_description(klass, info->name, desc);
    }
}

/*
 * A config-space write can release pending MSI-X messages (clearing the
 * function mask or enabling MSI-X).  One aimed at the device's own BARs
 * must not act on the device, any more than its DMA may (simt_tick):
 * the re-entrancy guard is engaged, so such a message is dropped.
 */
static void simt_config_write(PCIDevice *pdev, uint32_t addr, uint32_t val,
                              int len)
{
    MemReentrancyGuard *guard = &DEVICE(pdev)->mem_reentrancy_guard;
    bool engaged = guard->engaged_in_io;

    guard->engaged_in_io = true;
    pci_default_write_config(pdev, addr, val, len);
    guard->engaged_in_io = engaged;
}

static void simt_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);
    /* The presets' names, from their table (simt-preset.c) */
    g_autoptr(GString) preset_desc = g_string_new("machine modelled:");

    for (int i = 0; i < SIMT_PRESET_NR; i++) {
        g_string_append_printf(preset_desc, "%s %s", i ? "," : "",
                               simt_preset_name(i));
    }

    pc->realize = simt_realize;
    pc->exit = simt_exit;
    pc->config_write = simt_config_write;
    pc->vendor_id = SIMT_PCI_VENDOR_ID;
    pc->device_id = SIMT_PCI_DEVICE_ID;
    pc->revision = SIMT_PCI_REVISION;
    pc->class_id = SIMT_PCI_CLASS_CODE;
    rc->phases.hold = simt_reset_hold;
    dc->desc = "SIMT accelerator (preemptible GPU model)";
    dc->vmsd = &vmstate_simt;
    device_class_set_props(dc, simt_properties);
    object_class_property_set_description(klass, "preset", preset_desc->str);
    object_class_property_set_description(klass, "placement",
        "block placement policy (hw/simt/simt-placement.c): most-room "
        "(default), round-robin or least-loaded");
    object_class_property_set_description(klass, "preempt-choice",
        "auto mode's per-block mechanism choice "
        "(hw/simt/simt-preempt-choice.c): cheapest-in-bound (default), "
        "fastest or cheapest");
    object_class_property_set_description(klass, "copy-policy",
        "which pending copy a copy engine moves next "
        "(hw/simt/simt-copy-policy.c): priority (default), fifo or "
        "round-robin");
    object_class_property_set_description(klass, "preempt-queued-saves",
        "auto mode: a switch's estimated latency includes the saves chosen "
        "before it on its SM in the same event (default off: each block's "
        "own save time, as seed 000 estimates it)");
    object_class_property_set_description(klass, "fifo-dispatch",
        "kernels dispatch in launch order, queue priorities ignored, and "
        "no priority preemption (seed 002's baseline hardware)");
    object_class_property_set_description(klass, "threads",
        "host threads that run the SMs of a slice, 1 to 64 (default 1: "
        "one, deterministic; docs/specs/simt.rst, \"Several host "
        "threads\")");
    object_class_property_set_description(klass, "vram-size",
        "device memory bytes, a power of two from 1 MiB to 4 GiB");
    simt_class_add_cfg_props(klass);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo simt_info = {
    .name = TYPE_SIMT,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(SimtState),
    .class_init = simt_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void simt_register_types(void)
{
    type_register_static(&simt_info);
}

type_init(simt_register_types)
