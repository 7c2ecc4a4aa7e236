// SPDX-License-Identifier: GPL-2.0-or-later
// c = a + b, one work-item per element, with a global offset honoured
__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c, uint n)
{
    size_t i = get_global_id(0);

    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
