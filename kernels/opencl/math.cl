/* SPDX-License-Identifier: MIT */
/*
 * Math functions on float and its vectors: single RV32F instructions
 * where there is one, else the functions of kernels/simt-math.c (whose
 * accuracy docs/toolchain.rst gives), else short formulas on those.
 * native_* and half_* are the same functions.
 */
#include "simt-cl.h"

#define SIMT_MATH1(F, EXPR)                                            \
    float SIMT_OVL F(float x) { return EXPR; }                         \
    SIMT_VEC1(float, float, F)
#define SIMT_MATH2(F, EXPR)                                            \
    float SIMT_OVL F(float x, float y) { return EXPR; }                \
    SIMT_VEC2(float, float, float, F)

SIMT_MATH1(sqrt, __builtin_sqrtf(x))
SIMT_MATH1(rsqrt, 1.0f / __builtin_sqrtf(x))
SIMT_MATH1(fabs, __builtin_fabsf(x))
SIMT_MATH1(floor, floorf(x))
SIMT_MATH1(ceil, ceilf(x))
SIMT_MATH1(trunc, truncf(x))
SIMT_MATH1(round, roundf(x))
SIMT_MATH1(exp, expf(x))
SIMT_MATH1(exp2, exp2f(x))
SIMT_MATH1(exp10, powf(10.0f, x))
SIMT_MATH1(expm1, expm1f(x))
SIMT_MATH1(log, logf(x))
SIMT_MATH1(log2, log2f(x))
/* log2 x times log10 2: within 1 ulp of log2f's result */
SIMT_MATH1(log10, log2f(x) * 0.301029995663981195f)
SIMT_MATH1(sin, sinf(x))
SIMT_MATH1(cos, cosf(x))
SIMT_MATH1(tan, tanf(x))
SIMT_MATH1(atan, atanf(x))
SIMT_MATH1(atanpi, atanf(x) * M_1_PI_F)
SIMT_MATH1(tanh, tanhf(x))
SIMT_MATH1(erf, erff(x))
/* (1 - x)(1 + x) keeps the precision near |x| = 1 that 1 - x * x loses */
SIMT_MATH1(asin, atan2f(x, __builtin_sqrtf((1.0f - x) * (1.0f + x))))
SIMT_MATH1(acos, atan2f(__builtin_sqrtf((1.0f - x) * (1.0f + x)), x))

SIMT_MATH2(copysign, __builtin_copysignf(x, y))
SIMT_MATH2(fmin, __builtin_fminf(x, y))
SIMT_MATH2(fmax, __builtin_fmaxf(x, y))
SIMT_VEC2S(float, float, float, fmin)
SIMT_VEC2S(float, float, float, fmax)
SIMT_MATH2(fmod, fmodf(x, y))
SIMT_MATH2(pow, powf(x, y))
SIMT_MATH2(powr, x < 0.0f ? __builtin_nanf("") : powf(x, y))
SIMT_MATH2(atan2, atan2f(x, y))
SIMT_MATH2(atan2pi, atan2f(x, y) * M_1_PI_F)
SIMT_MATH2(fdim, x != x || y != y ? x + y : x > y ? x - y : 0.0f)
SIMT_MATH2(maxmag, __builtin_fabsf(x) > __builtin_fabsf(y) ? x :
                   __builtin_fabsf(y) > __builtin_fabsf(x) ? y :
                   __builtin_fmaxf(x, y))
SIMT_MATH2(minmag, __builtin_fabsf(x) < __builtin_fabsf(y) ? x :
                   __builtin_fabsf(y) < __builtin_fabsf(x) ? y :
                   __builtin_fminf(x, y))

/* to nearest even: adding 2^23 leaves no fraction bits, in fcsr's mode */
float SIMT_OVL rint(float x)
{
    float a = __builtin_fabsf(x);

    if (!(a < 0x1p23f)) {
        return x;
    }
    return __builtin_copysignf((a + 0x1p23f) - 0x1p23f, x);
}
SIMT_VEC1(float, float, rint)

/* sinh and cosh from expm1 and exp; past 88, exp(|x| - ln 2) avoids overflow */
float SIMT_OVL sinh(float x)
{
    float a = __builtin_fabsf(x), e;

    if (a > 88.0f) {
        e = expf(a - 0.693147180559945309f);
        return __builtin_copysignf(e, x);
    }
    e = expm1f(a);
    return __builtin_copysignf(0.5f * (e + e / (e + 1.0f)), x);
}
SIMT_VEC1(float, float, sinh)

float SIMT_OVL cosh(float x)
{
    float a = __builtin_fabsf(x), e;

    if (a > 88.0f) {
        return expf(a - 0.693147180559945309f);
    }
    e = expf(a);
    return 0.5f * (e + 1.0f / e);
}
SIMT_VEC1(float, float, cosh)

/* hypot without the overflow of x * x: the larger times sqrt(1 + r^2) */
float SIMT_OVL hypot(float x, float y)
{
    float a = __builtin_fabsf(x), b = __builtin_fabsf(y), t, r;

    if (a < b) {
        t = a;
        a = b;
        b = t;
    }
    if (a == __builtin_inff() || b == __builtin_inff()) {
        return __builtin_inff();
    }
    if (b == 0.0f || a != a || b != b) {
        return a + b;
    }
    r = b / a;
    return a * __builtin_sqrtf(1.0f + r * r);
}
SIMT_VEC2(float, float, float, hypot)

float SIMT_OVL fma(float a, float b, float c)
{
    return __builtin_fmaf(a, b, c);
}
SIMT_VEC3(float, fma)

/* OpenCL lets mad round as it likes: the product rounds, then the sum */
float SIMT_OVL mad(float a, float b, float c)
{
    return a * b + c;
}
SIMT_VEC3(float, mad)

float SIMT_OVL pown(float x, int n)
{
    return powf(x, (float)n);
}
SIMT_VEC2(float, float, int, pown)

/*
 * x * 2^n in at most three exact steps; the last may round (a
 * subnormal result).
 */
float SIMT_OVL ldexp(float x, int n)
{
    if (n > 127) {
        x *= 0x1p127f;
        n -= 127;
        if (n > 127) {
            x *= 0x1p127f;
            n = n - 127 > 127 ? 127 : n - 127;
        }
    } else if (n < -126) {
        x *= 0x1p-126f;
        n += 126;
        if (n < -126) {
            x *= 0x1p-126f;
            n = n + 126 < -126 ? -126 : n + 126;
        }
    }
    return x * as_float((uint)(n + 127) << 23);
}
SIMT_VEC2(float, float, int, ldexp)
SIMT_VEC2S(float, float, int, ldexp)

float SIMT_OVL nan(uint code)
{
    return as_float(0x7fc00000u | (code & 0x3fffffu));
}
SIMT_VEC1(float, uint, nan)

float SIMT_OVL sincos(float x, __private float *cosval)
{
    *cosval = cosf(x);
    return sinf(x);
}
SIMT_VECPTR(float, sincos)

/* x - floor(x), below 1 even when x is a tiny negative */
float SIMT_OVL fract(float x, __private float *iptr)
{
    float fl = floorf(x);

    *iptr = fl;
    if (x != x) {
        return x;
    }
    if (__builtin_fabsf(x) == __builtin_inff()) {
        return __builtin_copysignf(0.0f, x);
    }
    return __builtin_fminf(x - fl, 0x1.fffffep-1f);
}
SIMT_VECPTR(float, fract)

float SIMT_OVL modf(float x, __private float *iptr)
{
    float t = truncf(x);

    *iptr = t;
    if (__builtin_fabsf(x) == __builtin_inff()) {
        return __builtin_copysignf(0.0f, x);
    }
    return __builtin_copysignf(x - t, x);
}
SIMT_VECPTR(float, modf)

/* native_ and half_: the full-precision functions */
#define SIMT_ALIAS1(P, F) SIMT_MATH1(P##_##F, F(x))
#define SIMT_ALIAS2(P, F) SIMT_MATH2(P##_##F, F(x, y))
#define SIMT_ALIASES(P)                                                \
    SIMT_ALIAS1(P, sqrt) SIMT_ALIAS1(P, rsqrt) SIMT_ALIAS1(P, exp)     \
    SIMT_ALIAS1(P, exp2) SIMT_ALIAS1(P, exp10) SIMT_ALIAS1(P, log)     \
    SIMT_ALIAS1(P, log2) SIMT_ALIAS1(P, log10) SIMT_ALIAS1(P, sin)     \
    SIMT_ALIAS1(P, cos) SIMT_ALIAS1(P, tan) SIMT_ALIAS2(P, powr)       \
    SIMT_MATH1(P##_recip, 1.0f / x) SIMT_MATH2(P##_divide, x / y)

SIMT_ALIASES(native)
SIMT_ALIASES(half)
