/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the device state shared by the device's hardware blocks.
 */
#ifndef HW_SIMT_SIMT_H
#define HW_SIMT_SIMT_H

#include "hw/pci/pci_device.h"
#include "qom/object.h"

#define TYPE_SIMT "simt"
OBJECT_DECLARE_SIMPLE_TYPE(SimtState, SIMT)

/* Limits on the properties, checked at realize. */
#define SIMT_MAX_SM_COUNT       256
#define SIMT_MIN_VRAM_SIZE      (1 * MiB)
#define SIMT_MAX_VRAM_SIZE      (4 * GiB)

struct SimtState {
    PCIDevice parent_obj;

    MemoryRegion regs;
    MemoryRegion vram;

    /* properties */
    uint32_t sm_count;
    uint64_t vram_size;

    /* registers */
    uint32_t scratch;
    uint32_t irq_status;
    uint32_t irq_mask;
    uint32_t irq_count;
};

/* Latch an interrupt of class @cls and deliver it if it is unmasked. */
void simt_irq_raise(SimtState *s, unsigned int cls);

#endif /* HW_SIMT_SIMT_H */
