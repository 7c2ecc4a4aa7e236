/* SPDX-License-Identifier: MIT */
/*
 * Relaxation in place: each thread moves its value @rounds times towards
 * the mean of its neighbours in shared memory, a barrier between steps,
 * and writes it back over its input, so a preempted block may not be
 * flushed (its input is gone): it is drained or switched.
 */
#include <simt.h>

KERNEL void relax(float *x, uint32_t rounds)
{
    float *tile = dynamicShared();
    uint32_t t = threadIdx.x, n = blockDim.x;
    uint32_t i = blockIdx.x * n + t;
    float v = x[i];

    for (uint32_t r = 0; r < rounds; r++) {
        tile[t] = v;
        __syncthreads();
        v = 0.5f * v + 0.25f * (tile[(t + n - 1) % n] + tile[(t + 1) % n]);
        __syncthreads();
    }
    x[i] = v;
}
