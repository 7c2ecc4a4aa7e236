// SPDX-License-Identifier: GPL-2.0-or-later
// A 64-bin histogram of bytes with atomic_inc on __global bins, and the
// work-item functions written out (get_global_size, get_num_groups,
// get_work_dim) into a second buffer.
__kernel void histogram(__global const uchar *data, uint n,
                        volatile __global uint *bins,
                        __global uint *info)
{
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) {
        atomic_inc(&bins[data[i] & 63]);
    }
    if (get_global_id(0) == 0) {
        info[0] = get_work_dim();
        info[1] = get_global_size(0);
        info[2] = get_num_groups(0);
        info[3] = get_local_size(0);
        info[4] = get_global_size(1);
        info[5] = get_local_id(3);
        info[6] = get_local_size(3);
    }
}
