// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernels for the block scheduler experiments (seed 001, digest A.4):
 * each block records the SM it ran on, and optionally holds it for a time
 * proportional to the SM id first, so that blocks finish in SM order as
 * in the thesis's harness; and two of its synthetic kernel classes for
 * the performance experiments (digest A.5).
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

/*
 * Seed 001's compute-intensive class (digest A.5): floating-point
 * operations and no memory traffic, @n dependent multiply-adds a thread
 * (@n a multiple of 8), fused and unrolled eight times as nvcc would
 * compile them, so that the loop's own instructions are few.
 */
KERNEL void fp_chain(float *out, uint32_t n)
{
    float x = (float)threadIdx.x;

    for (uint32_t i = 0; i < n; i += 8) {
        x = __builtin_fmaf(x, 1.0001f, 0.5f);
        x = __builtin_fmaf(x, 1.0001f, 0.5f);
        x = __builtin_fmaf(x, 1.0001f, 0.5f);
        x = __builtin_fmaf(x, 1.0001f, 0.5f);
        x = __builtin_fmaf(x, 1.0001f, 0.5f);
        x = __builtin_fmaf(x, 1.0001f, 0.5f);
        x = __builtin_fmaf(x, 1.0001f, 0.5f);
        x = __builtin_fmaf(x, 1.0001f, 0.5f);
    }
    out[globalIdx()] = x;
}

/*
 * Seed 001's memory-intensive class: @n strided, uncoalesced writes a
 * thread (lanes 33 words apart) over @buf of @words words, a power of
 * two, so that no cache could hold them.
 */
KERNEL void strided_writes(uint32_t *buf, uint32_t words, uint32_t n)
{
    uint32_t i = globalIdx() * 33;

    for (uint32_t r = 0; r < n; r++) {
        buf[i & (words - 1)] = r;
        i += 32 * 33 * 4099;
    }
}
