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

/*
 * CUDA's rsqrtf: fsqrt then fdiv, two correct roundings (within 1.5
 * ulp; CUDA allows 2).  A macro, and a function for (rsqrtf)(x).
 */
float rsqrtf(float x);
#define rsqrtf(x)       (1.0f / __builtin_sqrtf(x))

/* CUDA's __saturatef: x clamped to [0, 1], NaN to 0 (fmax.s, fmin.s). */
#define __saturatef(x)  __builtin_fminf(__builtin_fmaxf((x), 0.0f), 1.0f)

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

/*
 * CUDA's fast intrinsics, where the library has the function: no
 * instruction computes them, so they are the functions above, more
 * accurate than CUDA's approximations and no faster.
 */
#define __expf(x)       expf(x)
#define __logf(x)       logf(x)
#define __log2f(x)      log2f(x)
#define __powf(x, y)    powf((x), (y))
#define __sinf(x)       sinf(x)
#define __cosf(x)       cosf(x)
#define __tanf(x)       tanf(x)

#endif
