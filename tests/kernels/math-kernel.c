// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out[i] = f(a[i], b[i]) for the math function numbered @fn (the order of
 * the table in test-math.c), for tests/kernels/test-math.c.  Numbers 0-5
 * are the macro forms of the single-instruction functions, 6-11 the same
 * functions called out of line; 30-39 CUDA's spellings (rsqrtf, the fast
 * intrinsics).
 */
#include <math.h>

#include "simt.h"

static float eval(uint32_t fn, float x, float y)
{
    switch (fn) {
    case 0: return fabsf(x);
    case 1: return copysignf(x, y);
    case 2: return fminf(x, y);
    case 3: return fmaxf(x, y);
    case 4: return sqrtf(x);
    case 5: return fmaf(x, y, 0.75f);
    case 6: return (fabsf)(x);
    case 7: return (copysignf)(x, y);
    case 8: return (fminf)(x, y);
    case 9: return (fmaxf)(x, y);
    case 10: return (sqrtf)(x);
    case 11: return (fmaf)(x, y, 0.75f);
    case 12: return floorf(x);
    case 13: return ceilf(x);
    case 14: return truncf(x);
    case 15: return roundf(x);
    case 16: return fmodf(x, y);
    case 17: return expf(x);
    case 18: return exp2f(x);
    case 19: return expm1f(x);
    case 20: return logf(x);
    case 21: return log2f(x);
    case 22: return powf(x, y);
    case 23: return sinf(x);
    case 24: return cosf(x);
    case 25: return tanf(x);
    case 26: return atanf(x);
    case 27: return atan2f(x, y);
    case 28: return tanhf(x);
    case 29: return erff(x);
    case 30: return rsqrtf(x);
    case 31: return (rsqrtf)(x);
    case 32: return __saturatef(x);
    case 33: return __expf(x);
    case 34: return __logf(x);
    case 35: return __log2f(x);
    case 36: return __powf(x, y);
    case 37: return __sinf(x);
    case 38: return __cosf(x);
    case 39: return __tanf(x);
    default: return NAN;
    }
}

KERNEL void math_eval(uint32_t fn, uint32_t n, const float *a,
                      const float *b, float *out)
{
    uint32_t stride = gridDim.x * blockDim.x;

    for (uint32_t i = globalIdx(); i < n; i += stride) {
        out[i] = eval(fn, a[i], b[i]);
    }
}
