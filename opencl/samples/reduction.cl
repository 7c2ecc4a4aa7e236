// SPDX-License-Identifier: MIT
//
// One step of a sum: each work-group adds its get_local_size(0) elements
// of in (zeros past n) pairwise in a tree in scratch, a __local buffer
// sized by the host, and writes the group's sum to out[group].  The
// local size is a power of two.
__kernel void reduce(__global const float *in, __global float *out,
                     __local float *scratch, uint n)
{
    uint lid = get_local_id(0), gid = get_global_id(0);

    scratch[lid] = gid < n ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s /= 2) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        // Each level reads the sums the level before wrote.
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}
