// SPDX-License-Identifier: GPL-2.0-or-later
// C = A B for n x n matrices (n a multiple of TILE), in TILE x TILE tiles
// of __local memory, two barriers per tile; a 2-D NDRange.
#define TILE 8

__kernel void matmul(__global const float *a, __global const float *b,
                     __global float *c, int n)
{
    __local float ta[TILE][TILE], tb[TILE][TILE];
    int col = get_global_id(0), row = get_global_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    float sum = 0.0f;

    for (int t = 0; t < n; t += TILE) {
        ta[ly][lx] = a[row * n + t + lx];
        tb[ly][lx] = b[(t + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; k++) {
            sum += ta[ly][k] * tb[k][lx];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    c[row * n + col] = sum;
}
