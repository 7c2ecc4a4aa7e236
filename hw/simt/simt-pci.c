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
#include "hw/pci/msix.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "hw/simt/simt.h"
#include "hw/simt/simt-hw.h"
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

/* Engine state back to power-on values; VRAM contents are kept. */
static void simt_reset_state(SimtState *s, const char *why)
{
    trace_simt_reset(why);
    s->scratch = 0;
    s->irq_status = 0;
    s->irq_mask = 0;
    s->irq_count = 0;
    simt_update_intx(s);
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
    switch (addr) {
    case SIMT_REG_ID:
        val = SIMT_ID_MAGIC;
        break;
    case SIMT_REG_VERSION:
        val = SIMT_VERSION_VALUE;
        break;
    case SIMT_REG_CAPS:
        val = SIMT_CAP_MSIX;
        break;
    case SIMT_REG_SM_COUNT:
        val = s->sm_count;
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
    case SIMT_REG_RESET:
    case SIMT_REG_IRQ_RAISE:
        val = 0;   /* write-only */
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "simt: read of unknown register 0x%" HWADDR_PRIx "\n",
                      addr);
        val = 0;
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
    case SIMT_REG_ID:
    case SIMT_REG_VERSION:
    case SIMT_REG_CAPS:
    case SIMT_REG_SM_COUNT:
    case SIMT_REG_VRAM_SIZE_LO:
    case SIMT_REG_VRAM_SIZE_HI:
    case SIMT_REG_IRQ_COUNT:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "simt: write 0x%x to read-only register 0x%"
                      HWADDR_PRIx " ignored\n", val, addr);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "simt: write 0x%x to unknown register 0x%"
                      HWADDR_PRIx " ignored\n", val, addr);
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

static bool simt_check_properties(SimtState *s, Error **errp)
{
    if (s->sm_count < 1 || s->sm_count > SIMT_MAX_SM_COUNT) {
        error_setg(errp, "simt: sm-count must be between 1 and %u, not %u",
                   SIMT_MAX_SM_COUNT, s->sm_count);
        return false;
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
}

static void simt_exit(PCIDevice *pdev)
{
    SimtState *s = SIMT(pdev);

    msix_unuse_all_vectors(pdev);
    msix_uninit_exclusive_bar(pdev);
    simt_reset_state(s, "unplug");
}

static void simt_reset_hold(Object *obj, ResetType type)
{
    simt_reset_state(SIMT(obj), "bus");
}

static const VMStateDescription vmstate_simt = {
    .name = "simt",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, SimtState),
        VMSTATE_MSIX(parent_obj, SimtState),
        VMSTATE_UINT32(scratch, SimtState),
        VMSTATE_UINT32(irq_status, SimtState),
        VMSTATE_UINT32(irq_mask, SimtState),
        VMSTATE_UINT32(irq_count, SimtState),
        VMSTATE_END_OF_LIST()
    },
};

static const Property simt_properties[] = {
    DEFINE_PROP_UINT32("sm-count", SimtState, sm_count, 4),
    DEFINE_PROP_SIZE("vram-size", SimtState, vram_size, 256 * MiB),
};

static void simt_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    pc->realize = simt_realize;
    pc->exit = simt_exit;
    pc->vendor_id = SIMT_PCI_VENDOR_ID;
    pc->device_id = SIMT_PCI_DEVICE_ID;
    pc->revision = SIMT_PCI_REVISION;
    pc->class_id = SIMT_PCI_CLASS_CODE;
    rc->phases.hold = simt_reset_hold;
    dc->desc = "SIMT accelerator (preemptible GPU model)";
    dc->vmsd = &vmstate_simt;
    device_class_set_props(dc, simt_properties);
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
