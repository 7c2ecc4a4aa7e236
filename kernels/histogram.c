// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 256-bin histogram of bytes.  Each block counts into a shared histogram
 * with atomics, then adds it to the global one with atomics, the usual
 * way to keep contention on global memory low.
 */
#include "simt.h"

#define BINS 256

SHARED unsigned block_bins[BINS];

KERNEL void histogram(const uint8_t *data, uint32_t n, unsigned *bins)
{
    uint32_t t = threadIdx.x, nthreads = blockDim.x;
    uint32_t stride = gridDim.x * nthreads;

    for (uint32_t b = t; b < BINS; b += nthreads) {
        block_bins[b] = 0;
    }
    __syncthreads();
    for (uint32_t i = globalIdx(); i < n; i += stride) {
        atomicAdd(&block_bins[data[i]], 1);
    }
    __syncthreads();
    for (uint32_t b = t; b < BINS; b += nthreads) {
        if (block_bins[b]) {
            atomicAdd(&bins[b], block_bins[b]);
        }
    }
}
