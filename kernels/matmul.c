// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * C = A * B for n x n row-major matrices, n a multiple of TILE.  Blocks of
 * TILE x TILE threads each compute one tile of C, staging tiles of A and
 * B through shared memory with a barrier before and after each use.
 * Products are accumulated with fused multiply-adds, in order of k.
 */
#include "simt.h"

#define TILE 16

SHARED static float tile_a[TILE][TILE];
SHARED static float tile_b[TILE][TILE];

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
