/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt: the fp32 unit against the host FPU.
 *
 * The host (x86 SSE: IEEE 754 binary32, tininess after rounding like
 * RISC-V) is the oracle for RNE/RTZ/RDN/RUP results and flags.  For RMM,
 * which hosts lack, the oracle is the RNE result except on exact ties,
 * found by redoing the operation exactly in binary64.  NaN results must be
 * the canonical NaN.  Operands are random bit patterns biased towards the
 * interesting places: zeros, subnormals, the overflow edge, infinities,
 * NaNs and near-cancelling sums.
 */

#include "unit-harness.h"
#include <fenv.h>
#include <float.h>
#include <math.h>

enum { T_ADD, T_SUB, T_MUL, T_DIV, T_SQRT, T_FMA, T_I2F, T_U2F, T_F2I, T_F2U,
       T_NR };

static const char *const op_names[T_NR] = {
    "fadd", "fsub", "fmul", "fdiv", "fsqrt", "fmadd",
    "fcvt.s.w", "fcvt.s.wu", "fcvt.w.s", "fcvt.wu.s",
};

static const int host_modes[5] = {
    FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD, FE_TONEAREST,
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
    return xorshift(&rng_state);
}

static float f_of(uint32_t u)
{
    float f;

    memcpy(&f, &u, 4);
    return f;
}

static uint32_t u_of(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

static uint32_t operand(void)
{
    static const uint32_t special[] = {
        0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
        0x7f800001, 0xffa00000, 0x00000001, 0x007fffff, 0x00800000,
        0x7f7fffff, 0x3f800000, 0xbf800000, 0x00400000, 0x80000001,
        0x4b800000, 0x4f000000, 0x4f800000, 0xcf000000, 0x3f000000,
        0x3fc00000, 0x40200000, 0xbfc00000, 0x0c000000, 0x1f800000,
        0x5f800000, 0x7f000000, 0x00800001,
    };
    uint32_t r = rnd();

    switch (r % 8) {
    case 0:
        return special[rnd() % (sizeof(special) / sizeof(special[0]))];
    case 1:     /* tiny */
        return (rnd() & 0x80ffffff) | (rnd() % 8) << 23;
    case 2:     /* huge */
        return (rnd() & 0x807fffff) | (0xf8 + rnd() % 7) << 23;
    case 3:     /* around 1, so sums cancel */
        return (rnd() & 0x807fffff) | (124 + rnd() % 6) << 23;
    case 4:     /* few significant bits: exact results and ties */
        return (rnd() & 0xfff80000) | (rnd() % 2 ? 0 : 0x400000);
    default:
        return rnd();
    }
}

static uint32_t host_flags(void)
{
    int e = fetestexcept(FE_ALL_EXCEPT);

    return (e & FE_INEXACT ? SIMT_FFLAG_NX : 0) |
           (e & FE_UNDERFLOW ? SIMT_FFLAG_UF : 0) |
           (e & FE_OVERFLOW ? SIMT_FFLAG_OF : 0) |
           (e & FE_DIVBYZERO ? SIMT_FFLAG_DZ : 0) |
           (e & FE_INVALID ? SIMT_FFLAG_NV : 0);
}

__attribute__((target("fma")))
static float host_fmaf(float a, float b, float c)
{
    return __builtin_fmaf(a, b, c);
}

__attribute__((target("fma")))
static double host_fma(double a, double b, double c)
{
    return __builtin_fma(a, b, c);
}

/* Result of @op in binary32 under the host's current rounding mode. */
static float host_f32(int op, volatile float a, volatile float b,
                      volatile float c, uint32_t ia)
{
    switch (op) {
    case T_ADD:
        return a + b;
    case T_SUB:
        return a - b;
    case T_MUL:
        return a * b;
    case T_DIV:
        return a / b;
    case T_SQRT:
        return sqrtf(a);
    case T_FMA:
        return host_fmaf(a, b, c);
    case T_I2F:
        return (float)(int32_t)ia;
    default:
        return (float)ia;
    }
}

/* The exact value in binary64, or NAN if it does not fit there. */
static double exact_f64(int op, volatile double a, volatile double b,
                        volatile double c, uint32_t ia)
{
    volatile double r;

    fesetround(FE_TONEAREST);
    feclearexcept(FE_ALL_EXCEPT);
    switch (op) {
    case T_ADD:
        r = a + b;
        break;
    case T_SUB:
        r = a - b;
        break;
    case T_MUL:
        r = a * b;
        break;
    case T_DIV:
        r = a / b;
        break;
    case T_SQRT:
        r = sqrt(a);
        break;
    case T_FMA:
        r = host_fma(a, b, c);
        break;
    case T_I2F:
        r = (int32_t)ia;
        break;
    default:
        r = ia;
        break;
    }
    return fetestexcept(FE_INEXACT) ? NAN : r;
}

static uint32_t oracle_arith(int op, uint32_t a, uint32_t b, uint32_t c,
                             int rm, uint32_t *flags)
{
    volatile float r;
    float rz, ra;
    double d, mid;

    fesetround(host_modes[rm]);
    feclearexcept(FE_ALL_EXCEPT);
    r = host_f32(op, f_of(a), f_of(b), f_of(c), a);
    *flags = host_flags();
    fesetround(FE_TONEAREST);
    if (isnan(r)) {
        /* RISC-V: inf * 0 + qNaN is invalid too; x86 is quiet */
        if (op == T_FMA && isnan(f_of(c)) &&
            ((isinf(f_of(a)) && f_of(b) == 0) ||
             (f_of(a) == 0 && isinf(f_of(b))))) {
            *flags |= SIMT_FFLAG_NV;
        }
        return SIMT_F32_CANON_NAN;
    }
    if (rm != SIMT_RM_RMM) {
        return u_of(r);
    }
    /* RMM differs from RNE on exact ties only. */
    d = exact_f64(op, f_of(a), f_of(b), f_of(c), a);
    if (isnan(d) || isinf(d)) {
        return u_of(r);
    }
    fesetround(FE_TOWARDZERO);
    rz = (volatile float)d;
    fesetround(FE_TONEAREST);
    ra = nextafterf(rz, d < 0 ? -INFINITY : INFINITY);
    if (isinf(ra) || (double)rz == d) {
        return u_of(r);
    }
    mid = ((double)rz + (double)ra) / 2;
    return d == mid ? u_of(ra) : u_of(r);
}

static uint32_t oracle_to_int(uint32_t a, int rm, bool is_signed,
                              uint32_t *flags)
{
    double d = f_of(a), r;
    double lo = is_signed ? -2147483648.0 : 0;
    double hi = is_signed ? 2147483647.0 : 4294967295.0;

    *flags = 0;
    if (isnan(d)) {
        *flags = SIMT_FFLAG_NV;
        return is_signed ? 0x7fffffff : 0xffffffff;
    }
    if (rm == SIMT_RM_RMM) {
        r = round(d);
    } else {
        fesetround(host_modes[rm]);
        r = nearbyint(d);
        fesetround(FE_TONEAREST);
    }
    if (r < lo || r > hi) {
        *flags = SIMT_FFLAG_NV;
        if (is_signed) {
            return r < 0 ? 0x80000000 : 0x7fffffff;
        }
        return r < 0 ? 0 : 0xffffffff;
    }
    if (r != d) {
        *flags = SIMT_FFLAG_NX;
    }
    return is_signed ? (uint32_t)(int32_t)r : (uint32_t)r;
}

static uint32_t simt_op(int op, uint32_t a, uint32_t b, uint32_t c, int rm,
                        uint32_t *flags)
{
    *flags = 0;
    switch (op) {
    case T_ADD:
        return simt_f32_add(a, b, rm, flags);
    case T_SUB:
        return simt_f32_sub(a, b, rm, flags);
    case T_MUL:
        return simt_f32_mul(a, b, rm, flags);
    case T_DIV:
        return simt_f32_div(a, b, rm, flags);
    case T_SQRT:
        return simt_f32_sqrt(a, rm, flags);
    case T_FMA:
        return simt_f32_fma(a, b, c, rm, flags);
    case T_I2F:
        return simt_i32_to_f32(a, rm, flags);
    case T_U2F:
        return simt_u32_to_f32(a, rm, flags);
    case T_F2I:
        return simt_f32_to_i32(a, rm, flags);
    default:
        return simt_f32_to_u32(a, rm, flags);
    }
}

static void check_op(int op, int rm, unsigned iters)
{
    unsigned i, bad = 0;
    uint32_t fa = 0, fb = 0, fc = 0, got = 0, want = 0, gfl = 0, wfl = 0;

    for (i = 0; i < iters; i++) {
        uint32_t a = operand(), b = operand(), c = operand();
        uint32_t r, e, fl, efl;

        if (op == T_FMA && i % 4 == 0) {
            /* c close to -(a * b): massive cancellation */
            c = u_of(-(f_of(a) * f_of(b))) + (rnd() % 5) - 2;
        }
        if (op >= T_I2F && op <= T_U2F && i % 2) {
            a = rnd() >> (rnd() % 32);
        }
        r = simt_op(op, a, b, c, rm, &fl);
        if (op == T_F2I || op == T_F2U) {
            e = oracle_to_int(a, rm, op == T_F2I, &efl);
        } else {
            e = oracle_arith(op, a, b, c, rm, &efl);
        }
        if (r != e || fl != efl) {
            if (!bad++) {
                fa = a, fb = b, fc = c, got = r, want = e;
                gfl = fl, wfl = efl;
            }
        }
    }
    fesetround(FE_TONEAREST);
    if (!ok(!bad, "%s rm=%d: %u random operands match the oracle",
            op_names[op], rm, iters)) {
        printf("# %u mismatches; first: a=%08x b=%08x c=%08x got %08x/%02x "
               "want %08x/%02x\n", bad, fa, fb, fc, got, gfl, want, wfl);
    }
}

/* Hand-picked cases the spec calls out. */
static void check_cases(void)
{
    uint32_t fl = 0;

    ok(simt_f32_add(0x3f800000, 0xbf800000, SIMT_RM_RDN, &fl) == 0x80000000
       && !fl, "x + -x is -0 when rounding down");
    fl = 0;
    ok(simt_f32_add(0x3f800000, 0xbf800000, SIMT_RM_RNE, &fl) == 0 && !fl,
       "x + -x is +0 otherwise");
    fl = 0;
    ok(simt_f32_fma(0x7f800000, 0, 0x7fc00000, SIMT_RM_RNE, &fl) ==
       SIMT_F32_CANON_NAN && fl == SIMT_FFLAG_NV,
       "fma inf * 0 + qNaN raises NV");
    fl = 0;
    ok(simt_f32_mul(0x7fc12345, 0x3f800000, SIMT_RM_RNE, &fl) ==
       SIMT_F32_CANON_NAN && !fl, "qNaN payload is not propagated");
    fl = 0;
    ok(simt_f32_add(0x7f800001, 0x3f800000, SIMT_RM_RNE, &fl) ==
       SIMT_F32_CANON_NAN && fl == SIMT_FFLAG_NV, "sNaN raises NV");
    fl = 0;
    ok(simt_f32_div(0x3f800000, 0x80000000, SIMT_RM_RNE, &fl) == 0xff800000
       && fl == SIMT_FFLAG_DZ, "1 / -0 is -inf with DZ");
    fl = 0;
    ok(simt_f32_sqrt(0x80000000, SIMT_RM_RNE, &fl) == 0x80000000 && !fl,
       "sqrt(-0) is -0");
    fl = 0;
    ok(simt_f32_sqrt(0xbf800000, SIMT_RM_RNE, &fl) == SIMT_F32_CANON_NAN &&
       fl == SIMT_FFLAG_NV, "sqrt(-1) is invalid");
    /* 1.5 * 2^-126 * 2^-1 = 0.75 * 2^-126, a tie in subnormal precision */
    fl = 0;
    ok(simt_f32_mul(0x00c00000, 0x3f000000, SIMT_RM_RMM, &fl) == 0x00600000
       && !fl, "exact subnormal product raises nothing");
    fl = 0;
    ok(simt_f32_mul(0x00800001, 0x3f000000, SIMT_RM_RMM, &fl) == 0x00400001
       && fl == (SIMT_FFLAG_NX | SIMT_FFLAG_UF),
       "RMM rounds a subnormal tie away from zero");
    fl = 0;
    ok(simt_f32_mul(0x00800001, 0x3f000000, SIMT_RM_RNE, &fl) == 0x00400000
       && fl == (SIMT_FFLAG_NX | SIMT_FFLAG_UF),
       "RNE rounds the same tie to even");
    /* (1 - 2^-24 + 2^-47) * 2^-126: rounds up to 2^-126 when rounding up */
    fl = 0;
    ok(simt_f32_fma(0x3f7fffff, 0x007fffff, 1, SIMT_RM_RUP, &fl) ==
       0x00800000 && fl == SIMT_FFLAG_NX,
       "tininess is detected after rounding");
    fl = 0;
    ok(simt_f32_fma(0x3f7fffff, 0x007fffff, 1, SIMT_RM_RTZ, &fl) ==
       0x007fffff && fl == (SIMT_FFLAG_NX | SIMT_FFLAG_UF),
       "... and is tiny when rounding down");
    fl = 0;
    ok(simt_f32_mul(0x7f7fffff, 0x40000000, SIMT_RM_RTZ, &fl) == 0x7f7fffff
       && fl == (SIMT_FFLAG_OF | SIMT_FFLAG_NX),
       "overflow towards zero gives the largest finite");
    fl = 0;
    ok(simt_f32_add(0x3f800000, 0x33800000, SIMT_RM_RMM, &fl) == 0x3f800001
       && fl == SIMT_FFLAG_NX, "RMM: 1 + 2^-24 rounds away");
    fl = 0;
    ok(simt_f32_to_i32(0xbf000000, SIMT_RM_RMM, &fl) == 0xffffffff &&
       fl == SIMT_FFLAG_NX, "fcvt.w.s RMM: -0.5 -> -1");
    fl = 0;
    ok(simt_f32_to_u32(0xbf000000, SIMT_RM_RNE, &fl) == 0 &&
       fl == SIMT_FFLAG_NX, "fcvt.wu.s: -0.5 rounds to 0, inexact only");
    fl = 0;
    ok(simt_f32_to_u32(0xbf400000, SIMT_RM_RNE, &fl) == 0 &&
       fl == SIMT_FFLAG_NV, "fcvt.wu.s: -0.75 rounds to -1: invalid");
    fl = 0;
    ok(simt_f32_to_i32(0x4f000000, SIMT_RM_RNE, &fl) == 0x7fffffff &&
       fl == SIMT_FFLAG_NV, "fcvt.w.s: 2^31 saturates");
    fl = 0;
    ok(simt_f32_to_i32(0xcf000000, SIMT_RM_RNE, &fl) == 0x80000000 && !fl,
       "fcvt.w.s: -2^31 is exact");
    fl = 0;
    ok(simt_f32_to_i32(0xff800000, SIMT_RM_RNE, &fl) == 0x80000000 &&
       fl == SIMT_FFLAG_NV, "fcvt.w.s: -inf saturates low");
    fl = 0;
    ok(simt_f32_to_u32(0x7fc00000, SIMT_RM_RNE, &fl) == 0xffffffff &&
       fl == SIMT_FFLAG_NV, "fcvt.wu.s: NaN gives all ones");
}

/*
 * The round-to-nearest-even warp fast path (simt_f32_fma_rne_warp)
 * against the exact functions, lane by lane: fadd (b = 1), fsub (c
 * negated), fmul (c = -0) and fmadd.  Every lane it takes has the exact
 * function's result and flags; it takes every lane whose exact result is
 * a normal above the smallest normal with no flag but inexact, and leaves
 * the others; without flags (the host's fused multiply-add where it has
 * one) it takes the same lanes with the same results.
 */
static void check_warp_fast(int op, unsigned warps)
{
    static const char *const names[] = { "fadd", "fsub", "fmul", "fmadd" };
    uint32_t a[32], b[32], c[32], d[32], nx[32], left[32], d2[32], left2[32];
    unsigned bad = 0, taken = 0, lanes = 0, wrongly_left = 0;

    fesetround(FE_TONEAREST);
    for (unsigned n = 0; n < warps; n++) {
        for (int i = 0; i < 32; i++) {
            /* Half the warps ordinary numbers, half the biased mix. */
            a[i] = n % 2 ? operand() : (rnd() & 0x8fffffff) | 0x30000000;
            b[i] = op < 2 ? 0x3f800000u
                          : n % 2 ? operand()
                                  : (rnd() & 0x8fffffff) | 0x30000000;
            c[i] = op == 2 ? 0x80000000u
                           : n % 2 ? operand()
                                   : (rnd() & 0x8fffffff) | 0x30000000;
            if (op == 1) {
                c[i] ^= 0x80000000u;
            }
        }
        simt_f32_fma_rne_warp(d, nx, left, a, b, c);
        /* Without flags (all already set): the same results and lanes. */
        simt_f32_fma_rne_warp(d2, NULL, left2, a, b, c);
        for (int i = 0; i < 32; i++) {
            if (left2[i] != left[i] || (!left[i] && d2[i] != d[i])) {
                if (bad++ < 5) {
                    printf("# %s without flags 0x%08x 0x%08x 0x%08x: 0x%08x "
                           "left %x, with flags 0x%08x left %x\n", names[op],
                           a[i], b[i], c[i], d2[i], left2[i], d[i], left[i]);
                }
            }
        }
        for (int i = 0; i < 32; i++) {
            uint32_t flags = 0;
            uint32_t want = simt_f32_fma(a[i], b[i], c[i], SIMT_RM_RNE,
                                         &flags);
            bool takeable = (want & 0x7fffffff) > 0x00800000 &&
                            (want & 0x7f800000) != 0x7f800000 &&
                            !(flags & ~SIMT_FFLAG_NX);

            lanes++;
            if (left[i] == ~0u) {
                wrongly_left += takeable;
                continue;
            }
            taken++;
            if (left[i] != 0 || d[i] != want || nx[i] != flags) {
                if (bad++ < 5) {
                    printf("# %s 0x%08x 0x%08x 0x%08x: 0x%08x nx %x left "
                           "%x, want 0x%08x flags 0x%x\n", names[op], a[i],
                           b[i], c[i], d[i], nx[i], left[i], want, flags);
                }
            }
        }
    }
    ok(bad == 0, "%s fast path: %u of %u lanes taken, every one exact with "
       "its flags", names[op], taken, lanes);
    ok(wrongly_left == 0 && taken > lanes / 2, "%s fast path leaves only "
       "lanes whose result is special, zero, subnormal or the smallest "
       "normal (%u others left)", names[op], wrongly_left);
}

int main(void)
{
    int op, rm;

    check_host_builds();
    for (op = 0; op < 4; op++) {
        check_warp_fast(op, 100000);
    }

    for (op = 0; op < T_NR; op++) {
        for (rm = 0; rm <= SIMT_RM_RMM; rm++) {
            check_op(op, rm, 200000);
        }
    }
    check_cases();
    return done_testing();
}
