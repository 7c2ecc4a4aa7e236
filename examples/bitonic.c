/* SPDX-License-Identifier: MIT */
/*
 * Bitonic sort of floats, ascending (examples/test-examples.c):
 *   bitonic_step   one compare-exchange step (k, j) over the whole array in
 *                  global memory; the host launches it for every k and j;
 *   bitonic_tile   each block sorts its tile of 2 * blockDim.x floats in
 *                  shared memory, every step separated by __syncthreads.
 */
#include <simt.h>

#define TILE 1024

SHARED float tile[TILE];

static inline void cmp_swap(float *a, float *b, bool up)
{
    float x = *a, y = *b;

    if ((x > y) == up) {
        *a = y;
        *b = x;
    }
}

/* One thread per element; the lower index of each pair does the work. */
KERNEL void bitonic_step(float *data, uint32_t j, uint32_t k)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t p = i ^ j;

    if (p > i)
        cmp_swap(&data[i], &data[p], (i & k) == 0);
}

/* One thread per pair: tile size 2 * blockDim.x (a power of two). */
KERNEL void bitonic_tile(float *data)
{
    uint32_t t = threadIdx.x, size = 2 * blockDim.x;
    float *g = data + blockIdx.x * size;

    tile[t] = g[t];
    tile[t + blockDim.x] = g[t + blockDim.x];
    __syncthreads();
    for (uint32_t k = 2; k <= size; k <<= 1) {
        for (uint32_t j = k >> 1; j > 0; j >>= 1) {
            /* pair t: the element i with bit j clear, and i + j */
            uint32_t i = 2 * t - (t & (j - 1));

            cmp_swap(&tile[i], &tile[i + j], (i & k) == 0);
            __syncthreads();
        }
    }
    g[t] = tile[t];
    g[t + blockDim.x] = tile[t + blockDim.x];
}
