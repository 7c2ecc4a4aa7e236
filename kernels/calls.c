// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A kernel whose work happens in called functions: a Horner polynomial,
 * a function with more arguments than registers (some go on the stack),
 * and a two-deep call chain that keeps values live across calls.  A
 * constant table in .rodata comes with the image.
 */
#include "simt.h"

#define DEGREE 4

static const int salt_scale[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };

static __attribute__((noinline)) float horner(float x, const float *coef,
                                              int degree)
{
    float r = coef[degree];

    for (int k = degree - 1; k >= 0; k--) {
        r = r * x + coef[k];
    }
    return r;
}

static __attribute__((noinline)) int mix(int a, int b, int c, int d, int e,
                                         int f, int g, int h, int i, int j)
{
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h +
           9 * i + 10 * j;
}

static __attribute__((noinline)) float eval(float x, const float *coef,
                                            int salt)
{
    float p = horner(x, coef, DEGREE);
    int m = mix(salt, salt + 1, salt + 2, salt + 3, salt + 4, salt + 5,
                salt + 6, salt + 7, salt + 8, salt + 9);

    return p + (float)m;
}

KERNEL void calls(const float *xs, const float *coef, float *out, uint32_t n)
{
    uint32_t i = globalIdx();

    if (i < n) {
        out[i] = eval(xs[i], coef, (int)i * salt_scale[i % 8]) -
                 horner(xs[i], coef, 2);
    }
}
