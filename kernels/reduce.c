// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sums: each block adds up blockDim.x consecutive elements and writes
 * one partial sum per block.  reduce_tree halves the active threads at
 * every step through shared memory and barriers; reduce_warp does the
 * last 32 steps with warp shuffles.  blockDim.x is a power of two.
 */
#include "simt.h"

#define MAX_THREADS 1024

SHARED float partial[MAX_THREADS];

KERNEL void reduce_tree(const float *in, float *out, uint32_t n)
{
    uint32_t t = threadIdx.x, i = globalIdx();

    partial[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (uint32_t s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s) {
            partial[t] += partial[t + s];
        }
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = partial[0];
    }
}

KERNEL void reduce_warp(const float *in, float *out, uint32_t n)
{
    uint32_t t = threadIdx.x, i = globalIdx();
    float v = i < n ? in[i] : 0.0f;

    for (uint32_t d = SIMT_WARP_SIZE / 2; d > 0; d /= 2) {
        v += __shfl_down_f(v, d);
    }
    if (laneId() == 0) {
        partial[warpId()] = v;
    }
    __syncthreads();
    if (t == 0) {
        float sum = 0.0f;

        for (uint32_t w = 0; w < numWarps(); w++) {
            sum += partial[w];
        }
        out[blockIdx.x] = sum;
    }
}
