// SPDX-License-Identifier: GPL-2.0-or-later
// Math built-ins on n inputs: out[f * n + i] = function f of x[i] (and
// y[i] for the two-argument ones), in the order test-opencl.c lists.
__kernel void mathfn(__global const float *x, __global const float *y,
                     __global float *out, uint n)
{
    size_t i = get_global_id(0);

    if (i >= n) {
        return;
    }
    float a = x[i], b = y[i];
    __global float *o = out + i;

    o[0 * n] = sqrt(fabs(a));
    o[1 * n] = exp(b);
    o[2 * n] = log(fabs(a));
    o[3 * n] = pow(fabs(a), b);
    o[4 * n] = sin(a);
    o[5 * n] = cos(a);
    o[6 * n] = floor(a);
    o[7 * n] = ceil(a);
    o[8 * n] = fmin(a, b);
    o[9 * n] = fmax(a, b);
    o[10 * n] = mad(a, b, 1.0f);
    o[11 * n] = atan2(a, b);
    o[12 * n] = tanh(b);
    o[13 * n] = rint(a);
    o[14 * n] = hypot(a, b);
    o[15 * n] = asin(b / 4.0f);
    o[16 * n] = length((float4)(a, b, 1.0f, 0.0f));
    float4 v = sqrt(fabs((float4)(a, b, a + b, a - b)));
    o[17 * n] = v.z;
    o[18 * n] = isnan(log(a)) ? 1.0f : 0.0f;
    o[19 * n] = exp2(b);
}
