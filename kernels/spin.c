// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A long-running kernel for preemption tests: every thread iterates a
 * linear congruential generator @iters times from its own seed and
 * writes the result, so any interruption that loses or repeats work
 * changes the output.
 */
#include "simt.h"

KERNEL void spin(uint32_t *out, uint32_t iters)
{
    uint32_t i = globalIdx();
    uint32_t x = i * 2654435761u + 1;

    for (uint32_t k = 0; k < iters; k++) {
        x = x * 1664525u + 1013904223u;
        x ^= x >> 13;
    }
    out[i] = x;
}
