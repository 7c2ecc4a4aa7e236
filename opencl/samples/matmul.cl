// SPDX-License-Identifier: MIT
//
// c (m x n) = a (m x k) * b (k x n), row-major, one work-item per element
// of c.  Each work-group stages TILE x TILE blocks of a and b in __local
// memory, so every element read from __global is used TILE times.  n and
// k are multiples of TILE, which comes from matmul.c's build options.
#ifndef TILE
#error "build with -DTILE=N, as matmul.c does"
#endif

__kernel void matmul(__global const float *a, __global const float *b,
                     __global float *c, uint n, uint k)
{
    __local float ta[TILE][TILE];
    __local float tb[TILE][TILE];
    uint lx = get_local_id(0), ly = get_local_id(1);
    uint col = get_global_id(0), row = get_global_id(1);
    float sum = 0.0f;

    for (uint t = 0; t < k; t += TILE) {
        ta[ly][lx] = a[row * k + t + lx];
        tb[ly][lx] = b[(t + ly) * n + col];
        // The tiles must be complete before anyone reads them...
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint i = 0; i < TILE; i++)
            sum += ta[ly][i] * tb[i][lx];
        // ...and read by everyone before the next step overwrites them.
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    c[row * n + col] = sum;
}
