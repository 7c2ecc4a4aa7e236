// SPDX-License-Identifier: GPL-2.0-or-later
/* c[i] = a[i] + b[i]: one thread per element, the grid may overshoot n. */
#include "simt.h"

KERNEL void vecadd(const float *a, const float *b, float *c, uint32_t n)
{
    uint32_t i = globalIdx();

    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
