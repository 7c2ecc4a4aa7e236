/* SPDX-License-Identifier: MIT */
/*
 * An irregular gather, latency-bound: each thread sums @rounds floats
 * of @in at indices it reads from @idx, one dependent load after the
 * other (the next index depends on the value loaded), and writes the
 * sum once at the end, so a preempted block may be flushed and run
 * again.
 */
#include <simt.h>

KERNEL void gather(const uint32_t *idx, const float *in, float *out,
                   uint32_t n, uint32_t rounds)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t at = idx[i % n] % n;
    float sum = 0.0f;

    for (uint32_t r = 0; r < rounds; r++) {
        float v = in[at];

        sum += v;
        at = (idx[at] + (uint32_t)(v * 1024.0f)) % n;
    }
    out[i] = sum;
}
