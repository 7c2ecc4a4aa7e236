// SPDX-License-Identifier: MIT
//
// 256-bin histogram of n bytes.  Each work-group counts into its own
// __local bins, where the atomics contend only within the group, then
// adds its non-zero bins to the __global ones, which the host zeroed.
#define BINS 256

__kernel void histogram(__global const uchar *data, uint n,
                        __global uint *bins)
{
    __local uint group_bins[BINS];
    uint lid = get_local_id(0), lsize = get_local_size(0);

    for (uint b = lid; b < BINS; b += lsize)
        group_bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    // Strided by the global size, so neighbouring work-items read
    // neighbouring bytes.
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&group_bins[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < BINS; b += lsize) {
        if (group_bins[b])
            atomic_add(&bins[b], group_bins[b]);
    }
}
