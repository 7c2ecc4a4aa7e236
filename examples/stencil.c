/* SPDX-License-Identifier: MIT */
/*
 * 5-point stencil on a W x H float grid, zero outside the grid:
 *   out = 0.5 * c + 0.125 * (((n + s) + w) + e)
 * Each 16 x 16 block loads its tile and a one-cell halo into shared
 * memory; threads past the grid's edge load zeros and still reach the
 * barrier, then write nothing.
 */
#include <simt.h>

#define T 16

SHARED float s[T + 2][T + 2];

static inline float at(const float *in, int x, int y, int w, int h)
{
    return x >= 0 && y >= 0 && x < w && y < h ? in[y * w + x] : 0.0f;
}

KERNEL void stencil5(const float *in, float *out, int w, int h)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * T + tx, y = blockIdx.y * T + ty;

    s[ty + 1][tx + 1] = at(in, x, y, w, h);
    if (tx == 0)
        s[ty + 1][0] = at(in, x - 1, y, w, h);
    if (tx == T - 1)
        s[ty + 1][T + 1] = at(in, x + 1, y, w, h);
    if (ty == 0)
        s[0][tx + 1] = at(in, x, y - 1, w, h);
    if (ty == T - 1)
        s[T + 1][tx + 1] = at(in, x, y + 1, w, h);
    __syncthreads();
    if (x >= w || y >= h)
        return;
    float c = s[ty + 1][tx + 1];
    float n = s[ty][tx + 1], so = s[ty + 2][tx + 1];
    float wv = s[ty + 1][tx], e = s[ty + 1][tx + 2];
    out[y * w + x] = 0.5f * c + 0.125f * (((n + so) + wv) + e);
}
