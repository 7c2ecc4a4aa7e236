/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * simt: the hardware contract of the simt PCIe accelerator.
 *
 * Plain C, no QEMU or kernel types: the QEMU device, the qtests, the guest
 * driver and the userspace tools all include this one file, so every
 * register offset, bit and layout is written down exactly once.
 * Dual-licensed so that GPL code and MIT userspace may both include it.
 *
 * All registers are 32 bits wide, little-endian, and must be accessed with
 * naturally aligned 32-bit loads and stores.
 */
#ifndef SIMT_HW_H
#define SIMT_HW_H

#include "simt-isa.h"

/* PCI identity */
#define SIMT_PCI_VENDOR_ID          0x1234
#define SIMT_PCI_DEVICE_ID          0x5349  /* "SI" */
#define SIMT_PCI_CLASS_CODE         0x1200  /* processing accelerator */
#define SIMT_PCI_REVISION           0x01

/* BARs */
#define SIMT_BAR_REGS               0       /* control registers */
#define SIMT_BAR_VRAM               2       /* 64-bit prefetchable VRAM */
#define SIMT_BAR_MSIX               4       /* MSI-X table and PBA only */
#define SIMT_REGS_SIZE              0x10000

/* Identification: the ASCII bytes "SIMT" read as a little-endian word */
#define SIMT_ID_MAGIC               0x544d4953u
#define SIMT_VERSION_MAJOR          0
#define SIMT_VERSION_MINOR          1
#define SIMT_VERSION_VALUE \
    (((uint32_t)SIMT_VERSION_MAJOR << 16) | SIMT_VERSION_MINOR)

/* BAR0 register offsets */
#define SIMT_REG_ID                 0x0000  /* RO: SIMT_ID_MAGIC */
#define SIMT_REG_VERSION            0x0004  /* RO: major << 16 | minor */
#define SIMT_REG_CAPS               0x0008  /* RO: SIMT_CAP_* */
#define SIMT_REG_SM_COUNT           0x000c  /* RO: number of SMs */
#define SIMT_REG_VRAM_SIZE_LO       0x0010  /* RO: VRAM bytes, low word */
#define SIMT_REG_VRAM_SIZE_HI       0x0014  /* RO: VRAM bytes, high word */
#define SIMT_REG_SCRATCH            0x0018  /* RW: no effect, reset to 0 */
#define SIMT_REG_RESET              0x001c  /* WO: SIMT_RESET_MAGIC resets */
#define SIMT_REG_IRQ_STATUS         0x0020  /* RW1C: pending SIMT_IRQ_* */
#define SIMT_REG_IRQ_MASK           0x0024  /* RW: 1 = class enabled */
#define SIMT_REG_IRQ_RAISE          0x0028  /* WO: SIMT_IRQ_TEST only */
#define SIMT_REG_IRQ_COUNT          0x002c  /* RO: interrupts delivered */

/*
 * Writing any other value to SIMT_REG_RESET is ignored, so that a stray
 * write cannot reset the device.
 */
#define SIMT_RESET_MAGIC            0x52534554u  /* "TESR" */

/* Capability bits in SIMT_REG_CAPS */
#define SIMT_CAP_MSIX               (1u << 0)

/*
 * Interrupt classes.  Bit N of SIMT_REG_IRQ_STATUS / SIMT_REG_IRQ_MASK is
 * class N, and class N is delivered on MSI-X vector N.
 */
enum simt_irq_class {
    SIMT_IRQ_QUEUE   = 0,   /* a queue completed a command */
    SIMT_IRQ_DMA     = 1,   /* a copy engine finished */
    SIMT_IRQ_PREEMPT = 2,   /* a preemption request completed */
    SIMT_IRQ_MMU     = 3,   /* a device MMU fault */
    SIMT_IRQ_ERROR   = 4,   /* a queue stopped on an error */
    SIMT_IRQ_TEST    = 5,   /* raised by writing SIMT_REG_IRQ_RAISE */
    SIMT_IRQ_NR      = 6,
};
#define SIMT_IRQ_BIT(cls)           (1u << (cls))
#define SIMT_IRQ_ALL                ((1u << SIMT_IRQ_NR) - 1)

#endif /* SIMT_HW_H */
