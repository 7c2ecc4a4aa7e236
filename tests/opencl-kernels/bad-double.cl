// SPDX-License-Identifier: GPL-2.0-or-later
// The lanes have no double: the front end refuses it at line 6.
__kernel void bad(__global float *x)
{
    size_t i = get_global_id(0);
    double d = x[i];
    x[i] = d;
}
