// SPDX-License-Identifier: GPL-2.0-or-later
/* A variable-length array: the stack cannot be bounded. */
#include "simt.h"

static __attribute__((noinline)) uint32_t sum(const uint32_t *v, uint32_t n)
{
    uint32_t s = 0;

    for (uint32_t k = 0; k < n; k++) {
        s += v[k];
    }
    return s;
}

KERNEL void vla(uint32_t *out, uint32_t n)
{
    uint32_t tmp[n];

    for (uint32_t k = 0; k < n; k++) {
        tmp[k] = k * globalIdx();
    }
    out[globalIdx()] = sum(tmp, n);
}
