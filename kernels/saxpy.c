// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * y[i] = a * x[i] + y[i].  Kernel arguments are integer registers, so the
 * float @a arrives as its bit pattern (see argFloat in simt.h).  A
 * grid-stride loop lets any grid size cover n.
 */
#include "simt.h"

KERNEL void saxpy(uint32_t n, uint32_t a_bits, const float *x, float *y)
{
    float a = argFloat(a_bits);
    uint32_t stride = gridDim.x * blockDim.x;

    for (uint32_t i = globalIdx(); i < n; i += stride) {
        y[i] = a * x[i] + y[i];
    }
}
