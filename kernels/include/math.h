/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * <math.h> for simt kernels: the float functions of kernels/simt-math.c
 * (linked from libsimt-math.a) and the ones that are single RV32F
 * instructions.  Only float: the lanes have no double, so the double
 * functions (sin, exp, ...) are not declared; calling one is an implicit
 * declaration, an error with the flags of kernels/meson.build.
 * Accuracy per function: docs/toolchain.rst, "Math library".
 *
 * There is no errno and no floating-point exception reporting: a domain
 * error returns NaN, an overflow returns an infinity.
 */
#ifndef SIMT_MATH_H
#define SIMT_MATH_H

typedef float float_t;

#define HUGE_VALF       __builtin_huge_valf()
#define INFINITY        __builtin_inff()
#define NAN             __builtin_nanf("")

#define isnan(x)        __builtin_isnan(x)
#define isinf(x)        __builtin_isinf(x)
#define isfinite(x)     __builtin_isfinite(x)
#define signbit(x)      __builtin_signbit(x)

/* Exact: bit operations (0 ulp). */
float floorf(float x);
float ceilf(float x);
float truncf(float x);
float roundf(float x);          /* halfway cases away from zero */
float fmodf(float x, float y);

/*
 * One instruction each, correctly rounded (0 ulp): fsgnjx, fsgnj, fmin,
 * fmax, fsqrt, fmadd.  fminf/fmaxf return the other operand when one is
 * a NaN, as C requires, and order -0 below +0.  The macros expand to the
 * instruction; the functions exist too, for (fabsf)(x).
 */
float fabsf(float x);
float copysignf(float x, float y);
float fminf(float x, float y);
float fmaxf(float x, float y);
float sqrtf(float x);
float fmaf(float x, float y, float z);
#define fabsf(x)        __builtin_fabsf(x)
#define copysignf(x, y) __builtin_copysignf((x), (y))
#define fminf(x, y)     __builtin_fminf((x), (y))
#define fmaxf(x, y)     __builtin_fmaxf((x), (y))
#define sqrtf(x)        __builtin_sqrtf(x)
#define fmaf(x, y, z)   __builtin_fmaf((x), (y), (z))

/* Within the bound of docs/toolchain.rst's table. */
float expf(float x);
float exp2f(float x);
float expm1f(float x);
float logf(float x);
float log2f(float x);
float powf(float x, float y);
float sinf(float x);
float cosf(float x);
float tanf(float x);
float atanf(float x);
float atan2f(float y, float x);
float tanhf(float x);
float erff(float x);

#endif
