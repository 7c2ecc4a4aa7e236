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

/*
 * spin, held before its store until the host opens the gate: the long
 * kernel of a test that needs it still running when something else
 * happens (a preemption, another context's launch) for as long as the
 * test wants, whatever the speed of the host, where iterations sized
 * against a sleep are not.  @gate[0] nonzero opens it; each thread adds
 * one to @gate[1] as it starts, so the test knows when every block it
 * expects is resident.  Every lane adds: a branch around the add would
 * let the lanes that skip it spin at the gate ahead of the one that
 * takes it, for ever, where the add is a call placed after the loop (-O0).
 */
KERNEL void spin_held(uint32_t *out, uint32_t iters, uint32_t *gate)
{
    uint32_t i = globalIdx();
    uint32_t x = i * 2654435761u + 1;

    atomicAdd(&gate[1], 1u);
    for (uint32_t k = 0; k < iters; k++) {
        x = x * 1664525u + 1013904223u;
        x ^= x >> 13;
    }
    while (*(volatile uint32_t *)gate == 0) {
        /* held */
    }
    out[i] = x;
}

/*
 * The same in fp32, for the speed of the fp path (scripts/bench.sh): a
 * map that stays finite from every seed, five fp operations (multiplies,
 * an add, a subtract) per iteration.
 */
KERNEL void fspin(uint32_t *out, uint32_t iters)
{
    float f = (float)(globalIdx() & 255);

    for (uint32_t k = 0; k < iters; k++) {
        f = f * 0.999f + 0.5f;
        f = f * f * 0.001f - f;
    }
    out[globalIdx()] = __builtin_bit_cast(uint32_t, f);
}

/*
 * A load and a store per iteration, each waiting for the one before
 * (volatile): the speed of the memory path, which global memory's
 * latency leaves with short bursts (scripts/bench.sh).
 */
KERNEL void mspin(uint32_t *out, uint32_t iters)
{
    uint32_t i = globalIdx();
    volatile uint32_t *p = &out[i];
    uint32_t x = i;

    *p = i;
    for (uint32_t k = 0; k < iters; k++) {
        x += *p;
        *p = x ^ (x >> 3) ^ k;
    }
}
