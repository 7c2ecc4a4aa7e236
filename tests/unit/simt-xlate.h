/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt: memory behind a page table, for the core's tests and benchmarks.
 *
 * A SimtMem whose callbacks (SimtMemOps) translate every access through
 * a one-level table of 4 KiB pages, as a translated context's accesses go
 * through the device's MMU: load, store and the whole-page fast path
 * (page), with unmapped and read-only pages and a count of translations.
 */
#ifndef SIMT_XLATE_H
#define SIMT_XLATE_H

#include "hw/simt/simt-core.h"

#define XLATE_PAGES     4096            /* 16 MiB of virtual addresses */
#define XLATE_V         1u              /* mapped */
#define XLATE_W         2u              /* writable */

typedef struct Xlate {
    uint8_t *mem;                       /* physical memory */
    uint32_t pte[XLATE_PAGES];          /* pfn << 2 | XLATE_W | XLATE_V */
    uint64_t translations;
} Xlate;

/* The pages of @mem's @bytes mapped to themselves, writable; no others. */
void xlate_identity(Xlate *x, uint8_t *mem, uint32_t bytes);
/* The memory kernels see through @x. */
SimtMem xlate_mem(Xlate *x);

#endif /* SIMT_XLATE_H */
