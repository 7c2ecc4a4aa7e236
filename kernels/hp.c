// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The short high-priority kernel of the preemption tests and
 * measurements, linked into the images of the low-priority kernels it
 * preempts (kernels/preempt.c's and kernels/rodinia.c's).
 */
#include "simt.h"

KERNEL void hp_fill(uint32_t *out, uint32_t n, uint32_t seed)
{
    uint32_t i = globalIdx();

    if (i < n) {
        out[i] = seed ^ (i * 0x9e3779b9u);
    }
}
