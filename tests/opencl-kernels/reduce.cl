// SPDX-License-Identifier: GPL-2.0-or-later
// One partial sum per work-group, in a __local buffer the host sizes
// (a kernel argument), tree-reduced with barriers.
__kernel void reduce(__global const float *in, __global float *partial,
                     __local float *scratch, uint n)
{
    size_t i = get_global_id(0), l = get_local_id(0);

    scratch[l] = i < n ? in[i] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (l < s) {
            scratch[l] += scratch[l + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
        partial[get_group_id(0)] = scratch[0];
    }
}
