/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libqos driver node for the simt accelerator: a PCI device on any
 * machine's PCI bus, with its register BAR mapped.
 */

#ifndef QTEST_LIBQOS_SIMT_H
#define QTEST_LIBQOS_SIMT_H

#include "qemu/units.h"
#include "qgraph.h"
#include "pci.h"

/* The options the node's edge gives the device (its size in the tests). */
#define QSIMT_SM_COUNT      6
#define QSIMT_VRAM_SIZE     (64 * MiB)

typedef struct QSimt {
    QOSGraphObject obj;
    QPCIDevice dev;
    QPCIBar regs;               /* BAR 0, mapped by start_hw */
    uint64_t regs_size;
} QSimt;

#endif
