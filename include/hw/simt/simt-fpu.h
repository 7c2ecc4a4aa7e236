/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt: exact RISC-V F (fp32) arithmetic for the warp interpreter.
 *
 * Every function takes and returns IEEE binary32 bit patterns and ORs the
 * exceptions it raises into *flags (RISC-V fflags layout).  Results follow
 * the RISC-V unprivileged spec: NaN results are the canonical NaN, tininess
 * is detected after rounding, fcvt saturates.  Host floating point is only
 * used where it is exact (binary64 sums and products of binary32 values) and
 * in the default rounding mode, so the host's fenv is never touched.
 */
#ifndef HW_SIMT_FPU_H
#define HW_SIMT_FPU_H

#include <stdbool.h>
#include <stdint.h>

#define SIMT_FFLAG_NX       0x01    /* inexact */
#define SIMT_FFLAG_UF       0x02    /* underflow */
#define SIMT_FFLAG_OF       0x04    /* overflow */
#define SIMT_FFLAG_DZ       0x08    /* divide by zero */
#define SIMT_FFLAG_NV       0x10    /* invalid operation */
#define SIMT_FFLAGS_MASK    0x1f

#define SIMT_F32_CANON_NAN  0x7fc00000u

/* Rounding modes, as encoded in the rm field and in frm. */
enum {
    SIMT_RM_RNE = 0,    /* to nearest, ties to even */
    SIMT_RM_RTZ = 1,    /* towards zero */
    SIMT_RM_RDN = 2,    /* down */
    SIMT_RM_RUP = 3,    /* up */
    SIMT_RM_RMM = 4,    /* to nearest, ties away from zero */
    SIMT_RM_DYN = 7,    /* instruction field only: use frm */
};

uint32_t simt_f32_add(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t simt_f32_sub(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t simt_f32_mul(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t simt_f32_div(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t simt_f32_sqrt(uint32_t a, int rm, uint32_t *flags);
/* a * b + c with a single rounding (fmadd; negate a and/or c for the rest) */
uint32_t simt_f32_fma(uint32_t a, uint32_t b, uint32_t c, int rm,
                      uint32_t *flags);
uint32_t simt_f32_min(uint32_t a, uint32_t b, uint32_t *flags);
uint32_t simt_f32_max(uint32_t a, uint32_t b, uint32_t *flags);
uint32_t simt_f32_eq(uint32_t a, uint32_t b, uint32_t *flags);
uint32_t simt_f32_lt(uint32_t a, uint32_t b, uint32_t *flags);
uint32_t simt_f32_le(uint32_t a, uint32_t b, uint32_t *flags);
uint32_t simt_f32_class(uint32_t a);
uint32_t simt_f32_to_i32(uint32_t a, int rm, uint32_t *flags);
uint32_t simt_f32_to_u32(uint32_t a, int rm, uint32_t *flags);
uint32_t simt_i32_to_f32(uint32_t v, int rm, uint32_t *flags);
uint32_t simt_u32_to_f32(uint32_t v, int rm, uint32_t *flags);

#define SIMT_F32_WARP       32

/*
 * d[i] = a[i] * b[i] + c[i] rounded to nearest even, for the 32 lanes of
 * a warp, computed with the host's floating point four lanes at a time:
 * fadd (b = 1), fsub, fmul (c = -0) and the fmadd family (signs flipped
 * beforehand).  Where the result is a normal number above the smallest
 * normal it is the exact one and inexact is its only possible flag:
 * left[i] = 0, d[i] the result, nx[i] SIMT_FFLAG_NX or 0 (@nx may be NULL
 * when every lane's inexact flag is already set, which is faster).  Elsewhere
 * left[i] = all ones, nx[i] = 0, and the lane is for simt_f32_fma and
 * friends.  Returns the lanes left, bit i for lane i (@left may be NULL).
 * Needs the host's default rounding mode, without flush-to-zero.
 */
uint32_t simt_f32_fma_rne_warp(uint32_t *d, uint32_t *nx, uint32_t *left,
                               const uint32_t *a, const uint32_t *b,
                               const uint32_t *c);

#ifdef HOST_X86_64
/*
 * What the x86 host has of what the AVX2 builds of simt-core.c and
 * simt-fpu.c use (SIMT_HOST_*), probed once; none when the environment
 * variable SIMT_NO_AVX2 is set, neither empty nor 0, so that the
 * baseline builds run as on a host without AVX2.
 */
#define SIMT_HOST_AVX2      1u      /* AVX2 */
#define SIMT_HOST_FMA       2u      /* AVX2 and FMA3 */
#define SIMT_HOST_BMI       4u      /* AVX2, BMI1, BMI2, POPCNT and LZCNT */
unsigned simt_host_x86(void);
#endif

#endif /* HW_SIMT_FPU_H */
