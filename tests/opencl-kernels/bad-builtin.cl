// SPDX-License-Identifier: GPL-2.0-or-later
// lgamma is in opencl-c.h but not in simt's built-ins library.
__kernel void bad(__global float *x)
{
    x[0] = lgamma(x[1]);
}
