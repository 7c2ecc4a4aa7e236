/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: PCI front end of the SIMT accelerator.
 *
 * Identification and control registers in BAR0, device memory (VRAM) in
 * BAR2, MSI-X in BAR4 with one vector per interrupt class.  The register
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
#include "system/cpu-timers.h"
#include "system/qtest.h"
#include "system/runstate.h"
#include "hw/simt/simt.h"
#include "hw/simt/simt-hw.h"
#include "hw/simt/simt-policy.h"
#include "trace.h"

static bool simt_use_msix(SimtState *s)
{
    return msix_enabled(PCI_DEVICE(s));
}

/*
 * Without MSI-X the device falls back to a level-triggered INTx line that
 * is high while any unmasked status bit is set.
 */
static void simt_update_intx(SimtState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    pci_set_irq(pdev, !simt_use_msix(s) && (s->irq_status & s->irq_mask));
}

/* Send one message per newly pending, unmasked class. */
static void simt_deliver(SimtState *s, uint32_t newly_pending)
{
    uint32_t bits = newly_pending & s->irq_mask;

    for (unsigned int cls = 0; cls < SIMT_IRQ_NR; cls++) {
        if (!(bits & SIMT_IRQ_BIT(cls))) {
            continue;
        }
        trace_simt_irq_deliver(cls, simt_use_msix(s));
        if (simt_use_msix(s)) {
            msix_notify(PCI_DEVICE(s), cls);
        }
        s->irq_count++;
    }
    simt_update_intx(s);
}

void simt_irq_raise(SimtState *s, unsigned int cls)
{
    uint32_t bit = SIMT_IRQ_BIT(cls);
    uint32_t newly = bit & ~s->irq_status;

    s->irq_status |= bit;
    trace_simt_irq_raise(cls, s->irq_status, s->irq_mask);
    simt_deliver(s, newly);
}

uint64_t simt_now_cycle(SimtState *s)
{
    int64_t ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) - s->time_base_ns;

    return muldiv64(ns, simt_cfg(s, SIMT_CFG_CLOCK_MHZ), 1000);
}

/* Virtual time at which device cycle @cycle begins (rounded up). */
static int64_t simt_cycle_to_ns(SimtState *s, uint64_t cycle)
{
    uint32_t mhz = simt_cfg(s, SIMT_CFG_CLOCK_MHZ);

    return s->time_base_ns + muldiv64(cycle, 1000, mhz) +
           (muldiv64(cycle, 1000, mhz) * mhz < cycle * 1000);
}

/*
 * Where a slice that starts now ends: shorter while blocks are saved, and
 * at the cycle a saved block leaves its SM, so that its room is free from
 * that cycle.
 */
static uint64_t simt_slice_end(SimtState *s)
{
    if (!simt_preempt_busy(s)) {
        return s->slice_start + SIMT_SLICE_CYCLES;
    }
    return MIN(s->slice_start + SIMT_PREEMPT_SLICE_CYCLES,
               simt_preempt_next_leave(s, s->slice_start));
}

/*
 * Run device cycles [slice_start, end): queues fetch commands, the
 * scheduler places blocks, SMs and copy engines run.  True while there
 * is work left.
 */
static bool simt_run_slice(SimtState *s, uint64_t end)
{
    uint64_t start = s->slice_start;
    bool waiting;

    waiting = simt_queues_process(s, start);
    simt_preempt_check(s, start);
    simt_sched_dispatch(s, start);
    /* An event that starts now shortens the slice. */
    end = MIN(end, simt_slice_end(s));
    simt_queues_slice_begin(s);
    simt_sm_run_slice(s, start, end);
    simt_dma_run_slice(s, start, end);
    simt_queues_slice_end(s, end - start);
    /* Queues whose kernels or copies finished can go on at once. */
    waiting |= simt_queues_process(s, end);
    simt_preempt_advance(s, end);
    simt_sched_dispatch(s, end);
    s->slice_start = end;
    return waiting || simt_queues_busy(s) || s->pre.active ||
           s->pre.requested;
}

/* Run [slice_start, end); false, and the engine stopped, once idle. */
static bool simt_run_to(SimtState *s, uint64_t end)
{
    if (simt_run_slice(s, end)) {
        return true;
    }
    s->ticking = false;
    timer_del(s->tick);
    return false;
}

/*
 * Run the engine up to cycle @until: the slices that have ended by then,
 * and with @partial the one under way up to @until.  The engine is never
 * ahead of virtual time: a slice runs once virtual time has reached its
 * end (the timer), or up to now when a register access needs the
 * engine's present (simt_catch_up), so a doorbell or a preemption request
 * takes effect at its own cycle and an interrupt is never raised before
 * the cycle of its event.  Under qtest and -icount virtual time stands
 * still while this runs and every due slice runs, so results and cycle
 * counts are deterministic (host time must not decide where the engine
 * stops).  When virtual time follows the host (plain TCG, KVM) and the
 * engine is slower than real time, slices fall due faster than they run:
 * the engine lags, runs due slices for up to SIMT_TICK_BUDGET_NS of host
 * time, and leaves the guest as much time again before the next tick.
 */
static void simt_run_until(SimtState *s, uint64_t until, bool partial)
{
    int64_t host_start = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
    /* Virtual time waits for the engine: no budget, nothing host-timed. */
    bool budget = !qtest_enabled() && !icount_enabled();
    int64_t spent;

    while (simt_slice_end(s) <= until) {
        if (!simt_run_to(s, simt_slice_end(s))) {
            return;
        }
        spent = qemu_clock_get_ns(QEMU_CLOCK_REALTIME) - host_start;
        if (budget && simt_slice_end(s) <= until &&
            spent >= SIMT_TICK_BUDGET_NS) {
            timer_mod(s->tick, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + spent);
            return;
        }
    }
    while (partial && s->slice_start < until) {
        if (!simt_run_to(s, MIN(simt_slice_end(s), until))) {
            return;
        }
    }
    timer_mod(s->tick, simt_cycle_to_ns(s, simt_slice_end(s)));
}

static void simt_tick_run(SimtState *s)
{
    simt_run_until(s, simt_now_cycle(s), false);
}

static void simt_tick(void *opaque)
{
    SimtState *s = opaque;
    MemReentrancyGuard *guard = &DEVICE(s)->mem_reentrancy_guard;
    bool engaged = guard->engaged_in_io;

    /*
     * The device's DMA (copies, kernels' system pages, rings and records)
     * goes to guest-chosen addresses, which may be the device's own
     * registers.  As in a guarded bottom half, such an access fails
     * (a DMA error) instead of re-entering the device mid-slice.
     */
    guard->engaged_in_io = true;
    simt_tick_run(s);
    guard->engaged_in_io = engaged;
}

void simt_kick(SimtState *s)
{
    if (s->ticking) {
        return;
    }
    /* The engine was idle: its next slice starts now. */
    s->slice_start = MAX(simt_now_cycle(s), s->slice_start);
    s->ticking = true;
    timer_mod(s->tick, simt_cycle_to_ns(s, simt_slice_end(s)));
}

/*
 * Before a register write that may change what the engine does, run it
 * up to the current cycle, so that the write takes effect at its own
 * cycle rather than at the end of the slice under way.
 */
static void simt_catch_up(SimtState *s)
{
    if (s->ticking) {
        simt_run_until(s, simt_now_cycle(s), true);
    }
}

/* Engine state back to power-on values; VRAM contents are kept. */
static void simt_reset_state(SimtState *s, const char *why)
{
    trace_simt_reset(why);
    if (s->tick) {
        timer_del(s->tick);
    }
    s->ticking = false;
    simt_queues_reset(s);
    simt_mmu_reset(s);
    simt_dma_reset(s);
    simt_preempt_reset(s);
    simt_sched_reset(s);
    s->scratch = 0;
    s->irq_status = 0;
    s->irq_mask = 0;
    s->irq_count = 0;
    s->cycle_hi_latch = 0;
    s->blocks_done = 0;
    s->launch_seq = 0;
    s->slice_start = 0;
    s->time_base_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    simt_update_intx(s);
}

/*
 * The instruction costs of the timing model (docs/specs/simt.rst): global
 * memory also pays for its bytes at the SM's equal share of the VRAM
 * bandwidth, as seed 000 models it.
 */
static void simt_timing_init(SimtState *s)
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

static bool simt_reg_access_ok(hwaddr addr, unsigned size, bool write)
{
    if (size == 4 && !(addr & 3)) {
        return true;
    }
    qemu_log_mask(LOG_GUEST_ERROR,
                  "simt: %s of size %u at unaligned or odd offset 0x%"
                  HWADDR_PRIx " ignored\n",
                  write ? "write" : "read", size, addr);
    return false;
}

static uint64_t simt_reg_read(void *opaque, hwaddr addr, unsigned size)
{
    SimtState *s = opaque;
    uint32_t val;

    if (!simt_reg_access_ok(addr, size, false)) {
        return 0;
    }
    if (addr >= SIMT_QUEUE_BASE &&
        addr < SIMT_QUEUE_REG(simt_cfg(s, SIMT_CFG_QUEUES), 0)) {
        hwaddr off = addr - SIMT_QUEUE_BASE;

        val = simt_queue_reg_read(s, off / SIMT_QUEUE_STRIDE,
                                  off % SIMT_QUEUE_STRIDE);
        trace_simt_reg_read(addr, val);
        return val;
    }
    if (addr >= SIMT_CTX_BASE &&
        addr < SIMT_CTX_REG(simt_cfg(s, SIMT_CFG_CONTEXTS), 0)) {
        hwaddr off = addr - SIMT_CTX_BASE;

        val = simt_ctx_reg_read(s, off / SIMT_CTX_STRIDE,
                                off % SIMT_CTX_STRIDE);
        trace_simt_reg_read(addr, val);
        return val;
    }
    if (addr >= SIMT_COPY_BASE &&
        addr < SIMT_COPY_REG(simt_cfg(s, SIMT_CFG_COPY_ENGINES), 0)) {
        hwaddr off = addr - SIMT_COPY_BASE;

        val = simt_engine_reg_read(s, off / SIMT_COPY_STRIDE,
                                   off % SIMT_COPY_STRIDE);
        trace_simt_reg_read(addr, val);
        return val;
    }
    switch (addr) {
    case SIMT_REG_ID:
        val = SIMT_ID_MAGIC;
        break;
    case SIMT_REG_VERSION:
        val = SIMT_VERSION_VALUE;
        break;
    case SIMT_REG_CAPS:
        val = SIMT_CAP_MSIX | SIMT_CAP_QUEUES | SIMT_CAP_MMU | SIMT_CAP_COPY |
              SIMT_CAP_PREEMPT;
        break;
    case SIMT_REG_SM_COUNT:
        val = simt_cfg(s, SIMT_CFG_SM_COUNT);
        break;
    case SIMT_REG_VRAM_SIZE_LO:
        val = (uint32_t)s->vram_size;
        break;
    case SIMT_REG_VRAM_SIZE_HI:
        val = s->vram_size >> 32;
        break;
    case SIMT_REG_SCRATCH:
        val = s->scratch;
        break;
    case SIMT_REG_IRQ_STATUS:
        val = s->irq_status;
        break;
    case SIMT_REG_IRQ_MASK:
        val = s->irq_mask;
        break;
    case SIMT_REG_IRQ_COUNT:
        val = s->irq_count;
        break;
    case SIMT_REG_CYCLE_LO: {
        /*
         * The engine's time, brought up to the current cycle first: when
         * it still runs behind virtual time (a slow host), the cycle it
         * has reached, so that the counter agrees with the cycles in
         * completion records and events and with ACTIVE_CYCLES.
         */
        uint64_t now;

        simt_catch_up(s);
        now = s->ticking ? MIN(simt_now_cycle(s), s->slice_start)
                         : MAX(simt_now_cycle(s), s->slice_start);

        s->cycle_hi_latch = now >> 32;
        val = now;
        break;
    }
    case SIMT_REG_CYCLE_HI:
        val = s->cycle_hi_latch;
        break;
    case SIMT_REG_CLOCK_MHZ:
        val = simt_cfg(s, SIMT_CFG_CLOCK_MHZ);
        break;
    case SIMT_REG_PRESET:
        val = s->preset;
        break;
    case SIMT_REG_SM_THREADS:
        val = simt_cfg(s, SIMT_CFG_SM_THREADS);
        break;
    case SIMT_REG_SM_WARPS:
        val = simt_cfg(s, SIMT_CFG_SM_WARPS);
        break;
    case SIMT_REG_SM_BLOCKS:
        val = simt_cfg(s, SIMT_CFG_SM_BLOCKS);
        break;
    case SIMT_REG_SM_REGS:
        val = simt_cfg(s, SIMT_CFG_SM_REGS);
        break;
    case SIMT_REG_SM_SHARED:
        val = simt_cfg(s, SIMT_CFG_SM_SHARED);
        break;
    case SIMT_REG_KERNEL_SLOTS:
        val = simt_cfg(s, SIMT_CFG_KERNEL_SLOTS);
        break;
    case SIMT_REG_QUEUE_COUNT:
        val = simt_cfg(s, SIMT_CFG_QUEUES);
        break;
    case SIMT_REG_MEM_BW:
        val = simt_cfg(s, SIMT_CFG_MEM_BW);
        break;
    case SIMT_REG_BLOCKS_RESIDENT:
        val = 0;
        for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
            val += simt_cfg(s, SIMT_CFG_SM_BLOCKS) - s->sms[i].free_blocks;
        }
        break;
    case SIMT_REG_BLOCKS_DONE:
        val = s->blocks_done;
        break;
    case SIMT_REG_POLICY_ERRORS:
        val = s->policy_errors;
        break;
    case SIMT_REG_CONTEXT_COUNT:
        val = simt_cfg(s, SIMT_CFG_CONTEXTS);
        break;
    case SIMT_REG_COPY_ENGINES:
        val = simt_cfg(s, SIMT_CFG_COPY_ENGINES);
        break;
    case SIMT_REG_DMA_CHUNK:
        val = s->dma_chunk;
        break;
    case SIMT_REG_COPY_BW:
        val = simt_cfg(s, SIMT_CFG_COPY_BW);
        break;
    case SIMT_REG_TLB_INV_CTX:
        val = s->tlb_inv_ctx;
        break;
    case SIMT_REG_TLB_INV_ADDR:
        val = s->tlb_inv_addr;
        break;
    case SIMT_REG_TLB_HITS:
        val = s->tlb_hits;
        break;
    case SIMT_REG_TLB_MISSES:
        val = s->tlb_misses;
        break;
    case SIMT_REG_MMU_FAULTS:
        val = s->mmu_faults;
        break;
    case SIMT_REG_RESET:
    case SIMT_REG_IRQ_RAISE:
    case SIMT_REG_TLB_INV:
    case SIMT_REG_PREEMPT_REQ:
        val = 0;   /* write-only */
        break;
    default:
        if (!simt_preempt_reg_read(s, addr, &val)) {
            qemu_log_mask(LOG_GUEST_ERROR, "simt: read of unknown register "
                          "0x%" HWADDR_PRIx "\n", addr);
            val = 0;
        }
        break;
    }
    trace_simt_reg_read(addr, val);
    return val;
}

static void simt_reg_write(void *opaque, hwaddr addr, uint64_t data,
                           unsigned size)
{
    SimtState *s = opaque;
    uint32_t val = data;

    if (!simt_reg_access_ok(addr, size, true)) {
        return;
    }
    trace_simt_reg_write(addr, val);
    /* Writes that cannot change what the engine does leave it as it is. */
    if (addr != SIMT_REG_SCRATCH && addr != SIMT_REG_RESET &&
        addr != SIMT_REG_IRQ_STATUS && addr != SIMT_REG_IRQ_MASK &&
        addr != SIMT_REG_IRQ_RAISE) {
        simt_catch_up(s);
    }
    if (addr >= SIMT_QUEUE_BASE &&
        addr < SIMT_QUEUE_REG(simt_cfg(s, SIMT_CFG_QUEUES), 0)) {
        hwaddr off = addr - SIMT_QUEUE_BASE;

        simt_queue_reg_write(s, off / SIMT_QUEUE_STRIDE,
                             off % SIMT_QUEUE_STRIDE, val);
        return;
    }
    if (addr >= SIMT_CTX_BASE &&
        addr < SIMT_CTX_REG(simt_cfg(s, SIMT_CFG_CONTEXTS), 0)) {
        hwaddr off = addr - SIMT_CTX_BASE;

        simt_ctx_reg_write(s, off / SIMT_CTX_STRIDE, off % SIMT_CTX_STRIDE,
                           val);
        return;
    }
    switch (addr) {
    case SIMT_REG_SCRATCH:
        s->scratch = val;
        break;
    case SIMT_REG_RESET:
        if (val == SIMT_RESET_MAGIC) {
            simt_reset_state(s, "register");
        } else {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "simt: reset register written with 0x%x, "
                          "not the reset magic; ignored\n", val);
        }
        break;
    case SIMT_REG_IRQ_STATUS:
        s->irq_status &= ~val;
        simt_update_intx(s);
        break;
    case SIMT_REG_IRQ_MASK: {
        uint32_t unmasked = val & ~s->irq_mask;

        s->irq_mask = val & SIMT_IRQ_ALL;
        /* Classes that were pending while masked fire when unmasked. */
        simt_deliver(s, s->irq_status & unmasked);
        break;
    }
    case SIMT_REG_IRQ_RAISE:
        if (val == SIMT_IRQ_BIT(SIMT_IRQ_TEST)) {
            simt_irq_raise(s, SIMT_IRQ_TEST);
        } else {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "simt: only the test interrupt can be raised "
                          "by software (wrote 0x%x)\n", val);
        }
        break;
    case SIMT_REG_DMA_CHUNK:
        if (!is_power_of_2(val) || val < SIMT_MIN_DMA_CHUNK ||
            val > SIMT_MAX_DMA_CHUNK) {
            qemu_log_mask(LOG_GUEST_ERROR, "simt: DMA chunk of %u bytes "
                          "refused (a power of two from 4 KiB to 64 MiB)\n",
                          val);
        } else {
            s->dma_chunk = val;
        }
        break;
    case SIMT_REG_TLB_INV_CTX:
        s->tlb_inv_ctx = val;
        break;
    case SIMT_REG_TLB_INV_ADDR:
        s->tlb_inv_addr = val;
        break;
    case SIMT_REG_TLB_INV:
        simt_mmu_tlb_invalidate(s, val);
        break;
    case SIMT_REG_ID:
    case SIMT_REG_VERSION:
    case SIMT_REG_CAPS:
    case SIMT_REG_SM_COUNT:
    case SIMT_REG_VRAM_SIZE_LO:
    case SIMT_REG_VRAM_SIZE_HI:
    case SIMT_REG_IRQ_COUNT:
    case SIMT_REG_CYCLE_LO ... SIMT_REG_COPY_ENGINES:
    case SIMT_REG_COPY_BW:
    case SIMT_REG_TLB_HITS ... SIMT_REG_MMU_FAULTS:
    case SIMT_REG_PREEMPT_STATUS:
    case SIMT_REG_PEV_COUNT:
    case SIMT_REG_TRACE_COUNT ... SIMT_REG_PREEMPT_EVENTS:
    case SIMT_REG_POLICY_ERRORS:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "simt: write 0x%x to read-only register 0x%"
                      HWADDR_PRIx " ignored\n", val, addr);
        break;
    default:
        if (!simt_preempt_reg_write(s, addr, val)) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "simt: write 0x%x to unknown register 0x%"
                          HWADDR_PRIx " ignored\n", val, addr);
        }
        break;
    }
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

    if (!simt_check_properties(s, errp)) {
        return;
    }

    pci_config_set_interrupt_pin(pdev->config, 1);

    memory_region_init_io(&s->regs, OBJECT(s), &simt_reg_ops, s,
                          "simt-regs", SIMT_REGS_SIZE);
    pci_register_bar(pdev, SIMT_BAR_REGS, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->regs);

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

    s->tick = timer_new_ns(QEMU_CLOCK_VIRTUAL, simt_tick, s);
    s->vm_state = qemu_add_vm_change_state_handler(simt_vm_state_change, s);
    s->bounce = g_malloc(SIMT_DMA_BOUNCE);
    simt_timing_init(s);
    simt_sched_init(s);
    simt_preempt_init(s);
    simt_reset_state(s, "realize");
}

static void simt_exit(PCIDevice *pdev)
{
    SimtState *s = SIMT(pdev);

    msix_unuse_all_vectors(pdev);
    msix_uninit_exclusive_bar(pdev);
    simt_reset_state(s, "unplug");
    simt_sched_free(s);
    timer_free(s->tick);
    s->tick = NULL;
    qemu_del_vm_change_state_handler(s->vm_state);
    s->vm_state = NULL;
    g_free(s->bounce);
    s->bounce = NULL;
}

static void simt_reset_hold(Object *obj, ResetType type)
{
    simt_reset_state(SIMT(obj), "bus");
}

/*
 * Migration carries everything the device holds while it works: kernels
 * and their resident blocks, copies mid-chunk, the preemption event under
 * way, saved blocks, the TLB and the engine's clock.  Only the decoded
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

    return s->launch_seq || s->copy_seq || s->pre.events;
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
    .version_id = 1,
    .minimum_version_id = 1,
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
        VMSTATE_STRUCT_ARRAY(engines, SimtState, SIMT_MAX_COPY_ENGINES, 1,
                             vmstate_simt_engine, SimtEngine),
        VMSTATE_STRUCT(pre, SimtState, 1, vmstate_simt_preempt_work,
                       SimtPreempt),
        VMSTATE_STRUCT_ARRAY(tlb, SimtState, SIMT_TLB_ENTRIES, 1,
                             vmstate_simt_tlb_entry, SimtTlbEntry),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_simt_context = {
    .name = "simt/context",
    .version_id = 2,
    .minimum_version_id = 2,
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
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_simt_queue = {
    .name = "simt/queue",
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(base, SimtQueue),
        VMSTATE_UINT32(size, SimtQueue),
        VMSTATE_UINT32(head, SimtQueue),
        VMSTATE_UINT32(tail, SimtQueue),
        VMSTATE_UINT32(priority, SimtQueue),
        VMSTATE_UINT32(control, SimtQueue),
        VMSTATE_UINT32(state, SimtQueue),
        VMSTATE_UINT32(error, SimtQueue),
        VMSTATE_UINT32(error_cmd, SimtQueue),
        VMSTATE_UINT32(completed, SimtQueue),
        VMSTATE_UINT32(ctx, SimtQueue),
        VMSTATE_UINT32(active_cycles, SimtQueue),
        VMSTATE_END_OF_LIST()
    },
};

/* The preemption engine's registers; its work is in simt/work. */
static const VMStateDescription vmstate_simt_preempt = {
    .name = "simt/preempt",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(bound, SimtPreempt),
        VMSTATE_UINT32(timeslice, SimtPreempt),
        VMSTATE_UINT64(log_base, SimtPreempt),
        VMSTATE_UINT32(log_size, SimtPreempt),
        VMSTATE_UINT32(log_count, SimtPreempt),
        VMSTATE_UINT64(trace_base, SimtPreempt),
        VMSTATE_UINT32(trace_size, SimtPreempt),
        VMSTATE_UINT32(trace_count, SimtPreempt),
        VMSTATE_UINT32(events, SimtPreempt),
        VMSTATE_UINT32(saved_total, SimtPreempt),
        VMSTATE_UINT32(restored_total, SimtPreempt),
        VMSTATE_UINT32(wasted_total, SimtPreempt),
        VMSTATE_UINT64(requested, SimtPreempt),
        VMSTATE_UINT8_ARRAY(req_mode, SimtPreempt, SIMT_MAX_CONTEXTS),
        VMSTATE_END_OF_LIST()
    },
};

/*
 * Nested structures carry no version in the stream: a changed one (the
 * queue's, at 2) bumps this version, so that an old stream is refused.
 */
static const VMStateDescription vmstate_simt = {
    .name = "simt",
    .version_id = 3,
    .minimum_version_id = 3,
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
        VMSTATE_INT64(time_base_ns, SimtState),
        VMSTATE_UINT64(slice_start, SimtState),
        VMSTATE_BOOL(ticking, SimtState),
        VMSTATE_UINT64(launch_seq, SimtState),
        VMSTATE_UINT64(blocks_done, SimtState),
        VMSTATE_STRUCT_ARRAY(queues, SimtState, SIMT_MAX_QUEUES, 1,
                             vmstate_simt_queue, SimtQueue),
        VMSTATE_TIMER_PTR(tick, SimtState),
        VMSTATE_STRUCT_ARRAY(contexts, SimtState, SIMT_MAX_CONTEXTS, 1,
                             vmstate_simt_context, SimtContext),
        VMSTATE_UINT32(tlb_inv_ctx, SimtState),
        VMSTATE_UINT32(tlb_inv_addr, SimtState),
        VMSTATE_UINT64(tlb_hits, SimtState),
        VMSTATE_UINT64(tlb_misses, SimtState),
        VMSTATE_UINT32(mmu_faults, SimtState),
        VMSTATE_UINT32(dma_chunk, SimtState),
        VMSTATE_UINT64(copy_seq, SimtState),
        VMSTATE_STRUCT(pre, SimtState, 1, vmstate_simt_preempt, SimtPreempt),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_simt_work,
        NULL
    },
};

static const Property simt_properties[] = {
    DEFINE_PROP_STRING("preset", SimtState, preset_name),
    DEFINE_PROP_STRING("placement", SimtState, placement_name),
    DEFINE_PROP_STRING("preempt-choice", SimtState, preempt_choice_name),
    DEFINE_PROP_STRING("copy-policy", SimtState, copy_policy_name),
    DEFINE_PROP_SIZE("vram-size", SimtState, vram_size, 256 * MiB),
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
    object_class_property_set_description(klass, "preset",
        "machine modelled: default, gtx480, pascal-5, volta-80, turing-68 "
        "or ampere-82");
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
