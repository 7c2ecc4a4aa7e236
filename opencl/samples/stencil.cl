// SPDX-License-Identifier: MIT
//
// One Jacobi step of a 5-point stencil on a w x h grid: each interior
// point becomes the mean of itself and its four neighbours.  The border
// is left alone; it holds the boundary values both buffers were given.
__kernel void jacobi(__global const float *in, __global float *out, uint w,
                     uint h)
{
    uint x = get_global_id(0), y = get_global_id(1);

    if (x == 0 || y == 0 || x >= w - 1 || y >= h - 1)
        return;
    uint i = y * w + x;
    // stencil.c computes the same expression in the same order.
    out[i] = 0.2f * (in[i] + in[i - w] + in[i + w] + in[i - 1] + in[i + 1]);
}
