// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Microbenchmarks of the timing model (docs/specs/simt.rst, "Published
 * figures"), written the way the published ones are: a dependent chain
 * timed with the cycle counter for latencies, and many warps of
 * independent chains timed by the device for throughputs.
 */
#include "simt.h"

/* Sixteen dependent adds of @x to itself. */
#define ADD16(x)                                                        \
    __asm__ volatile("add %0, %0, %0\n\tadd %0, %0, %0\n\t"             \
                     "add %0, %0, %0\n\tadd %0, %0, %0\n\t"             \
                     "add %0, %0, %0\n\tadd %0, %0, %0\n\t"             \
                     "add %0, %0, %0\n\tadd %0, %0, %0\n\t"             \
                     "add %0, %0, %0\n\tadd %0, %0, %0\n\t"             \
                     "add %0, %0, %0\n\tadd %0, %0, %0\n\t"             \
                     "add %0, %0, %0\n\tadd %0, %0, %0\n\t"             \
                     "add %0, %0, %0\n\tadd %0, %0, %0" : "+r"(x))

/*
 * out[0] = cycles of @n rounds of 64 dependent adds in lane 0 of a lone
 * warp; out[1] keeps the chain's result alive.
 */
KERNEL void dep_alu(uint32_t *out, uint32_t n)
{
    uint32_t x = laneId() + 1, t0, t1;

    t0 = clock();
    for (uint32_t i = 0; i < n; i++) {
        ADD16(x);
        ADD16(x);
        ADD16(x);
        ADD16(x);
    }
    t1 = clock();
    if (laneId() == 0) {
        out[0] = t1 - t0;
        out[1] = x;
    }
}

/*
 * out[0] = cycles of @n dependent loads by one lane, each reading the
 * address of the next from @chain (@len words: a ring with a stride of
 * 33 words, built here first); out[1] keeps the last address.
 */
KERNEL void dep_gmem(uint32_t *out, uint32_t *chain, uint32_t len,
                     uint32_t n)
{
    uint32_t *p = chain, t0, t1;

    if (laneId() != 0) {
        return;
    }
    for (uint32_t i = 0; i < len; i++) {
        chain[i] = (uint32_t)(uintptr_t)&chain[(i + 33) % len];
    }
    t0 = clock();
    for (uint32_t i = 0; i < n; i++) {
        p = (uint32_t *)(uintptr_t)*(volatile uint32_t *)p;
    }
    if (!p) {
        return;     /* a branch on the last load: wait for it */
    }
    t1 = clock();
    out[0] = t1 - t0;
    out[1] = (uint32_t)(uintptr_t)p;
}

/*
 * Every thread: @n rounds of 64 dependent adds (no parallelism within a
 * warp, as in the published throughput curves: the warps are what hide
 * the latency); out[thread] keeps the result.
 */
KERNEL void alu_stream(uint32_t *out, uint32_t n)
{
    uint32_t x = globalIdx() + 1;

    for (uint32_t i = 0; i < n; i++) {
        ADD16(x);
        ADD16(x);
        ADD16(x);
        ADD16(x);
    }
    out[globalIdx()] = x;
}

/*
 * Every thread: @n rounds of four independent loads from @in, summed,
 * each warp load reading 128 consecutive bytes; out[thread] keeps the
 * sum.  @words is the size of @in, a power of two.
 */
KERNEL void gmem_stream(uint32_t *out, const uint32_t *in, uint32_t words,
                        uint32_t n)
{
    const volatile uint32_t *v = in;
    uint32_t t = gridDim.x * blockDim.x, i = globalIdx(), sum = 0;

    for (uint32_t r = 0; r < n; r++) {
        uint32_t a = v[i & (words - 1)];
        uint32_t b = v[(i + t) & (words - 1)];
        uint32_t c = v[(i + 2 * t) & (words - 1)];
        uint32_t d = v[(i + 3 * t) & (words - 1)];

        sum += a + b + c + d;
        i += 4 * t;
    }
    out[globalIdx()] = sum;
}

/*
 * For round r of @rounds, in which each thread follows a chain of
 * dependent loads of @in (6 in the middle warp, so that it arrives last,
 * 1 in the others), waits at a barrier, loads once more and runs 4
 * independent chains of 64 adds: out[2 * ((block * rounds + r) * warps
 * + w)] = warp w's clock after that load, and the word after it what the
 * round computed.  Every clock shows the order in which the SM issued
 * the warps (the qtest of simt-sm.c's wake shortcut,
 * tests/qtest/simt-kernel-test.c).
 */
KERNEL void warp_clocks(const uint32_t *in, uint32_t *out, uint32_t rounds)
{
    uint32_t w = warpId(), nw = numWarps();
    uint32_t *o = out + 2 * blockIdx.x * rounds * nw;
    uint32_t x = laneId(), a = 0, b = 1, c = 2, d = 3;

    for (uint32_t r = 0; r < rounds; r++) {
        for (uint32_t k = w == nw / 2 ? 0 : 5; k < 6; k++) {
            x = in[(x + k) & 255];
        }
        __syncthreads();
        x = in[(x + 1) & 255];
        if (laneId() == 0) {
            o[2 * (r * nw + w)] = clock() + x - x;
        }
        for (uint32_t k = 0; k < 64; k++) {
            a += x;
            b ^= a;
            c += k;
            d ^= c;
        }
        if (laneId() == 0) {
            o[2 * (r * nw + w) + 1] = a + b + c + d;
        }
    }
}
