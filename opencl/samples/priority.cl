// SPDX-License-Identifier: MIT
//
// busy: a long run of an LCG per work-item, to keep the device occupied;
// vecadd: a short kernel to come in front of it.
__kernel void busy(__global uint *out, uint iters)
{
    uint x = get_global_id(0);
    for (uint i = 0; i < iters; i++)
        x = x * 1664525u + 1013904223u;
    out[get_global_id(0)] = x;
}

__kernel void vecadd(__global const float *a, __global const float *b,
                     __global float *c)
{
    uint i = get_global_id(0);
    c[i] = a[i] + b[i];
}
