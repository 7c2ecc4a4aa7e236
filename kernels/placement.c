// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernels for the block scheduler experiments (seed 001, digest A.4):
 * each block records the SM it ran on, and optionally holds it for a time
 * proportional to the SM id first, so that blocks finish in SM order as
 * in the thesis's harness.
 */
#include "simt.h"

/* out[block] = SM id; start[block], end[block] = clock at each end. */
static void record(uint32_t *out, uint32_t *start, uint32_t *end,
                   uint32_t t0)
{
    if (threadLinearIdx() == 0) {
        uint32_t b = blockIdx.x;

        out[b] = smId();
        if (start) {
            start[b] = t0;
            end[b] = clock();
        }
    }
}

KERNEL void record_sm(uint32_t *out)
{
    record(out, 0, 0, 0);
}

/* Hold the SM for (smid + 1) * ticks cycles, then record. */
KERNEL void hold_sm(uint32_t *out, uint32_t ticks, uint32_t *start,
                    uint32_t *end)
{
    uint64_t t0 = clock64();
    uint64_t until = t0 + (uint64_t)(smId() + 1) * ticks;

    while (clock64() < until) {
        /* spin */
    }
    record(out, start, end, t0);
}

/* Hold for a fixed @ticks cycles, then record. */
KERNEL void hold(uint32_t *out, uint32_t ticks, uint32_t *start,
                 uint32_t *end)
{
    uint64_t t0 = clock64();

    while (clock64() < t0 + ticks) {
        /* spin */
    }
    record(out, start, end, t0);
}

/* Read a word at @addr: faults when @addr is outside device memory. */
KERNEL void load_from(uint32_t *out, const uint32_t *addr)
{
    out[globalIdx()] = *addr;
}
