// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seed 002's two benchmarks.  matmul: C = A * B for n x n row-major
 * matrices, n a multiple of TILE.  Blocks of TILE x TILE threads each
 * compute one tile of C, staging tiles of A and B through shared memory
 * with a barrier before and after each use.  Products are accumulated
 * with fused multiply-adds, in order of k.  lsearch: linear search.
 */
#include "simt.h"

#define TILE 16

SHARED float tile_a[TILE][TILE];
SHARED float tile_b[TILE][TILE];

KERNEL void matmul(const float *a, const float *b, float *c, uint32_t n)
{
    dim3 t = threadIdx, blk = blockIdx;
    uint32_t row = blk.y * TILE + t.y;
    uint32_t col = blk.x * TILE + t.x;
    float sum = 0.0f;

    for (uint32_t k0 = 0; k0 < n; k0 += TILE) {
        tile_a[t.y][t.x] = a[row * n + k0 + t.x];
        tile_b[t.y][t.x] = b[(k0 + t.y) * n + col];
        __syncthreads();
        for (uint32_t k = 0; k < TILE; k++) {
            sum = __builtin_fmaf(tile_a[t.y][k], tile_b[k][t.x], sum);
        }
        __syncthreads();
    }
    c[row * n + col] = sum;
}

/*
 * The indices of the words of data[0..n) equal to @key: their count in
 * out[0] (zero before the launch), the indices after it in no particular
 * order.  Each thread strides through the data by the grid's threads.
 */
KERNEL void lsearch(const uint32_t *data, uint32_t n, uint32_t key,
                    uint32_t *out)
{
    uint32_t stride = gridDim.x * blockDim.x;

    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride) {
        if (data[i] == key) {
            out[1 + atomicAdd(&out[0], 1u)] = i;
        }
    }
}
