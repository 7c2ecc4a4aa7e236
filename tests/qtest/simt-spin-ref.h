/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * What kernels/spin.c's spin kernel computes for thread @i after @iters
 * iterations, on the host: the expected results of the device qtests
 * and of the interpreter's kernel tests (tests/kernels).  Plain C.
 */
#ifndef SIMT_SPIN_REF_H
#define SIMT_SPIN_REF_H

#include <stdint.h>

static inline uint32_t spin_ref(uint32_t i, uint32_t iters)
{
    uint32_t x = i * 2654435761u + 1;

    for (uint32_t k = 0; k < iters; k++) {
        x = x * 1664525u + 1013904223u;
        x ^= x >> 13;
    }
    return x;
}

#endif /* SIMT_SPIN_REF_H */
