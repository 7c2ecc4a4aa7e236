/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt: exact RISC-V fp32 arithmetic.
 *
 * Sums and products of binary32 values are formed in binary64, where a
 * product is exact and a sum is made exact by TwoSum (value = s + e).  The
 * pair is folded into one binary64 rounded to odd, which carries enough
 * bits to round correctly to binary32 in any mode; that final rounding,
 * division, square root and the conversions are done in integers here.
 */

#include "qemu/osdep.h"
#include <float.h>
#include <math.h>
#include "hw/simt/simt-fpu.h"
#ifdef HOST_X86_64
#include <cpuid.h>
#include <immintrin.h>
#endif

/* TwoSum and exact products need strict binary64 evaluation. */
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "simt-fpu needs FLT_EVAL_METHOD == 0 (SSE2 or similar host fp)"
#endif

#define F32_SIGN        0x80000000u
#define F32_ABS         0x7fffffffu
#define F32_INF         0x7f800000u
#define F32_MAX         0x7f7fffffu
#define F32_QUIET       0x00400000u

static inline bool is_nan(uint32_t a)
{
    return (a & F32_ABS) > F32_INF;
}

static inline bool is_snan(uint32_t a)
{
    return is_nan(a) && !(a & F32_QUIET);
}

static inline bool is_inf(uint32_t a)
{
    return (a & F32_ABS) == F32_INF;
}

static inline bool is_zero(uint32_t a)
{
    return !(a & F32_ABS);
}

/* Infinity or NaN */
static inline bool is_special(uint32_t a)
{
    return (a & F32_INF) == F32_INF;
}

static inline double to_double(uint32_t a)
{
    float f;

    memcpy(&f, &a, sizeof(f));
    return f;
}

static inline uint64_t double_bits(double d)
{
    uint64_t u;

    memcpy(&u, &d, sizeof(u));
    return u;
}

static inline double bits_double(uint64_t u)
{
    double d;

    memcpy(&d, &u, sizeof(d));
    return d;
}

/*
 * sig >> shift rounded under @rm for a value of sign @sign; shift may
 * exceed 63.  *inexact tells whether any non-zero bit was dropped.
 */
static uint64_t round_shift(uint64_t sig, unsigned shift, uint32_t sign,
                            int rm, bool *inexact)
{
    uint64_t kept, rem, half;
    bool above, tie;

    if (shift == 0) {
        *inexact = false;
        return sig;
    }
    if (shift < 64) {
        kept = sig >> shift;
        rem = sig & ((UINT64_C(1) << shift) - 1);
        half = UINT64_C(1) << (shift - 1);
        above = rem > half;
        tie = rem == half;
    } else {
        kept = 0;
        rem = sig;
        above = shift == 64 && rem > (UINT64_C(1) << 63);
        tie = shift == 64 && rem == (UINT64_C(1) << 63);
    }
    *inexact = rem != 0;
    if (!rem) {
        return kept;
    }
    switch (rm) {
    case SIMT_RM_RNE:
        return kept + (above || (tie && (kept & 1)));
    case SIMT_RM_RDN:
        return kept + (sign != 0);
    case SIMT_RM_RUP:
        return kept + (sign == 0);
    case SIMT_RM_RMM:
        return kept + (above || tie);
    default:
        return kept;
    }
}

/* Round (-1)^sign * sig * 2^exp, sig != 0, to binary32. */
static uint32_t round_pack(uint32_t sign, int exp, uint64_t sig, int rm,
                           uint32_t *flags)
{
    int lz = __builtin_clzll(sig);
    int e;
    unsigned shift = 40;
    bool tiny = false, inexact, dummy;
    uint64_t kept;
    uint32_t bits;

    sig <<= lz;
    e = exp - lz + 63;          /* value = 1.xxx * 2^e */
    if (e < -126) {
        /* Tininess after rounding: only 2^-127 * 1.111... can escape. */
        tiny = e < -127 ||
               round_shift(sig, 40, sign, rm, &dummy) != (UINT64_C(1) << 24);
        shift = 40 + (-126 - e);
    }
    kept = round_shift(sig, shift, sign, rm, &inexact);
    if (inexact) {
        *flags |= SIMT_FFLAG_NX | (tiny ? SIMT_FFLAG_UF : 0);
    }
    if (e < -126) {
        /* A carry into bit 23 correctly yields the smallest normal. */
        return (sign << 31) | (uint32_t)kept;
    }
    if (e <= 127) {
        /* kept is in [2^23, 2^24]; a carry bumps the exponent field. */
        bits = ((uint32_t)(e + 126) << 23) + (uint32_t)kept;
        if (bits < F32_INF) {
            return (sign << 31) | bits;
        }
    }
    *flags |= SIMT_FFLAG_OF | SIMT_FFLAG_NX;
    if (rm == SIMT_RM_RTZ || (rm == SIMT_RM_RDN && !sign) ||
        (rm == SIMT_RM_RUP && sign)) {
        return (sign << 31) | F32_MAX;
    }
    return (sign << 31) | F32_INF;
}

/* Round a finite binary64 to binary32. */
static uint32_t round_double(double d, int rm, uint32_t *flags)
{
    uint64_t u = double_bits(d);
    uint32_t sign = u >> 63;
    int e = (u >> 52) & 0x7ff;
    uint64_t m = u & ((UINT64_C(1) << 52) - 1);

    /*
     * Fast path for results in binary32's normal range, which cannot be
     * tiny: keep 23 of the 52 fraction bits and round on the other 29.
     */
    if (e >= 1023 - 126 && e <= 1023 + 127) {
        uint32_t bits = (uint32_t)(e - 1023 + 127) << 23 | (uint32_t)(m >> 29);
        uint32_t rem = m & 0x1fffffff, half = 0x10000000;
        uint32_t inc;

        if (!rem) {
            return sign << 31 | bits;
        }
        switch (rm) {
        case SIMT_RM_RNE:
            inc = rem > half || (rem == half && (bits & 1));
            break;
        case SIMT_RM_RDN:
            inc = sign;
            break;
        case SIMT_RM_RUP:
            inc = !sign;
            break;
        case SIMT_RM_RMM:
            inc = rem >= half;
            break;
        default:
            inc = 0;
            break;
        }
        bits += inc;
        if (bits < F32_INF) {
            *flags |= SIMT_FFLAG_NX;
            return sign << 31 | bits;
        }
        /* Rounded up to overflow: the general path reports it. */
    }
    if (!e) {
        if (!m) {
            return sign << 31;
        }
        return round_pack(sign, -1074, m, rm, flags);
    }
    return round_pack(sign, e - 1075, m | (UINT64_C(1) << 52), rm, flags);
}

/*
 * s + e exactly (|e| <= ulp(s) / 2, s != 0 when e != 0), rounded to odd:
 * an inexact value lands on the odd neighbour, which keeps it distinct
 * from every binary32 and from every binary32 rounding boundary.
 */
static double round_to_odd(double s, double e)
{
    uint64_t u = double_bits(s);

    if (e == 0 || (u & 1)) {
        return s;
    }
    return bits_double((e > 0) == (s > 0) ? u + 1 : u - 1);
}

/* x + y exactly as s + e (TwoSum), then rounded to binary32. */
static uint32_t round_sum(double x, double y, uint32_t sx, uint32_t sy,
                          bool exact, int rm, uint32_t *flags)
{
    double s = x + y;
    double bv, e;

    if (s == 0) {
        /* Exact zero: its sign follows IEEE 754 6.3. */
        uint32_t sign = sx == sy ? sx : rm == SIMT_RM_RDN;

        return sign << 31;
    }
    if (exact) {
        return round_double(s, rm, flags);
    }
    bv = s - x;
    e = (x - (s - bv)) + (y - bv);
    return round_double(round_to_odd(s, e), rm, flags);
}

/*
 * Whether binary64 holds a + b exactly: two 24-bit significands at most
 * 28 binades apart, plus a carry, fit in 53 bits.
 */
static bool exact_sum(uint32_t a, uint32_t b)
{
    int ea = (a >> 23) & 0xff, eb = (b >> 23) & 0xff;

    /* subnormals share the smallest normal binade's scale */
    ea += !ea;
    eb += !eb;
    return ea - eb <= 28 && eb - ea <= 28;
}

static uint32_t nan_result(uint32_t a, uint32_t b, uint32_t *flags)
{
    if (is_snan(a) || is_snan(b)) {
        *flags |= SIMT_FFLAG_NV;
    }
    return SIMT_F32_CANON_NAN;
}

static uint32_t invalid(uint32_t *flags)
{
    *flags |= SIMT_FFLAG_NV;
    return SIMT_F32_CANON_NAN;
}

uint32_t simt_f32_add(uint32_t a, uint32_t b, int rm, uint32_t *flags)
{
    if (is_special(a) || is_special(b)) {
        if (is_nan(a) || is_nan(b)) {
            return nan_result(a, b, flags);
        }
        if (is_inf(a) && is_inf(b) && ((a ^ b) & F32_SIGN)) {
            return invalid(flags);
        }
        return is_inf(a) ? a : b;
    }
    return round_sum(to_double(a), to_double(b), a >> 31, b >> 31,
                     exact_sum(a, b), rm, flags);
}

uint32_t simt_f32_sub(uint32_t a, uint32_t b, int rm, uint32_t *flags)
{
    /* Flipping a NaN's sign keeps it a NaN of the same kind. */
    return simt_f32_add(a, b ^ F32_SIGN, rm, flags);
}

uint32_t simt_f32_mul(uint32_t a, uint32_t b, int rm, uint32_t *flags)
{
    uint32_t sign = (a ^ b) & F32_SIGN;

    if (is_special(a) || is_special(b)) {
        if (is_nan(a) || is_nan(b)) {
            return nan_result(a, b, flags);
        }
        if (is_zero(a) || is_zero(b)) {
            return invalid(flags);
        }
        return sign | F32_INF;
    }
    /* 24 x 24 significand bits fit binary64's 53: the product is exact. */
    return round_double(to_double(a) * to_double(b), rm, flags);
}

uint32_t simt_f32_fma(uint32_t a, uint32_t b, uint32_t c, int rm,
                      uint32_t *flags)
{
    uint32_t psign = (a ^ b) & F32_SIGN;
    bool inf_times_zero = (is_inf(a) && is_zero(b)) ||
                          (is_zero(a) && is_inf(b));

    if (is_special(a) || is_special(b) || is_special(c)) {
        /* inf * 0 is invalid even when the addend is a quiet NaN. */
        if (inf_times_zero) {
            return invalid(flags);
        }
        if (is_nan(a) || is_nan(b) || is_nan(c)) {
            if (is_snan(c)) {
                *flags |= SIMT_FFLAG_NV;
            }
            return nan_result(a, b, flags);
        }
        if (is_inf(a) || is_inf(b)) {
            if (is_inf(c) && (c & F32_SIGN) != psign) {
                return invalid(flags);
            }
            return psign | F32_INF;
        }
        return c;
    }
    return round_sum(to_double(a) * to_double(b), to_double(c),
                     psign >> 31, c >> 31, false, rm, flags);
}

/* Finite non-zero a as sig * 2^exp with sig normalised to [2^23, 2^24). */
static int unpack_norm(uint32_t a, uint64_t *sig)
{
    int e = (a >> 23) & 0xff;
    uint64_t m = a & 0x7fffff;

    if (e) {
        *sig = m | 0x800000;
        return e - 150;
    }
    e = __builtin_clzll(m) - 40;
    *sig = m << e;
    return -149 - e;
}

uint32_t simt_f32_div(uint32_t a, uint32_t b, int rm, uint32_t *flags)
{
    uint32_t sign = (a ^ b) & F32_SIGN;
    uint64_t sa, sb, num, q;
    int ea, eb;

    if (is_nan(a) || is_nan(b)) {
        return nan_result(a, b, flags);
    }
    if (is_inf(a)) {
        return is_inf(b) ? invalid(flags) : sign | F32_INF;
    }
    if (is_inf(b)) {
        return sign;
    }
    if (is_zero(b)) {
        if (is_zero(a)) {
            return invalid(flags);
        }
        *flags |= SIMT_FFLAG_DZ;
        return sign | F32_INF;
    }
    if (is_zero(a)) {
        return sign;
    }
    ea = unpack_norm(a, &sa);
    eb = unpack_norm(b, &sb);
    /* A quotient of 40+ bits; a non-zero remainder becomes a sticky bit. */
    num = sa << 40;
    q = num / sb;
    q |= (num % sb) != 0;
    return round_pack(sign >> 31, ea - eb - 40, q, rm, flags);
}

uint32_t simt_f32_sqrt(uint32_t a, int rm, uint32_t *flags)
{
    uint64_t sig, x, r;
    int e;

    if (is_nan(a)) {
        return nan_result(a, a, flags);
    }
    if (is_zero(a)) {
        return a;
    }
    if (a & F32_SIGN) {
        return invalid(flags);
    }
    if (is_inf(a)) {
        return a;
    }
    e = unpack_norm(a, &sig);
    if (e & 1) {
        sig <<= 1;
        e--;
    }
    /* sqrt(sig * 2^38) has 31+ bits; correct the host's estimate exactly. */
    x = sig << 38;
    r = (uint64_t)sqrt((double)x);
    while (r * r > x) {
        r--;
    }
    while ((r + 1) * (r + 1) <= x) {
        r++;
    }
    r |= r * r != x;
    return round_pack(0, (e - 38) / 2, r, rm, flags);
}

/*
 * fmin and fmax with a NaN operand: the other operand, the canonical NaN
 * if both are NaNs (NV for a signalling one).  False if neither is.
 */
static bool minmax_nan(uint32_t a, uint32_t b, uint32_t *flags,
                       uint32_t *res)
{
    if (!is_nan(a) && !is_nan(b)) {
        return false;
    }
    if (is_snan(a) || is_snan(b)) {
        *flags |= SIMT_FFLAG_NV;
    }
    *res = is_nan(a) && is_nan(b) ? SIMT_F32_CANON_NAN : is_nan(a) ? b : a;
    return true;
}

/* The smaller of two numbers in the total order on bit patterns (-0 < +0) */
static uint32_t min_number(uint32_t a, uint32_t b)
{
    if ((a ^ b) & F32_SIGN) {
        return (a & F32_SIGN) ? a : b;
    }
    if (a & F32_SIGN) {
        return a > b ? a : b;
    }
    return a < b ? a : b;
}

uint32_t simt_f32_min(uint32_t a, uint32_t b, uint32_t *flags)
{
    uint32_t res;

    return minmax_nan(a, b, flags, &res) ? res : min_number(a, b);
}

uint32_t simt_f32_max(uint32_t a, uint32_t b, uint32_t *flags)
{
    uint32_t res;

    if (minmax_nan(a, b, flags, &res)) {
        return res;
    }
    return min_number(a, b) == a ? b : a;
}

/* a < b for non-NaN operands, with -0 == +0 */
static bool less(uint32_t a, uint32_t b)
{
    if ((a ^ b) & F32_SIGN) {
        return (a & F32_SIGN) && ((a | b) & F32_ABS);
    }
    return (a & F32_SIGN) ? a > b : a < b;
}

uint32_t simt_f32_eq(uint32_t a, uint32_t b, uint32_t *flags)
{
    if (is_nan(a) || is_nan(b)) {
        /* Quiet comparison: only signalling NaNs are invalid. */
        if (is_snan(a) || is_snan(b)) {
            *flags |= SIMT_FFLAG_NV;
        }
        return 0;
    }
    return a == b || !((a | b) & F32_ABS);
}

uint32_t simt_f32_lt(uint32_t a, uint32_t b, uint32_t *flags)
{
    if (is_nan(a) || is_nan(b)) {
        *flags |= SIMT_FFLAG_NV;
        return 0;
    }
    return less(a, b);
}

uint32_t simt_f32_le(uint32_t a, uint32_t b, uint32_t *flags)
{
    if (is_nan(a) || is_nan(b)) {
        *flags |= SIMT_FFLAG_NV;
        return 0;
    }
    return a == b || !((a | b) & F32_ABS) || less(a, b);
}

uint32_t simt_f32_class(uint32_t a)
{
    bool neg = a & F32_SIGN;
    uint32_t e = (a >> 23) & 0xff;

    if (is_nan(a)) {
        return (a & F32_QUIET) ? 1u << 9 : 1u << 8;
    }
    if (is_inf(a)) {
        return neg ? 1u << 0 : 1u << 7;
    }
    if (is_zero(a)) {
        return neg ? 1u << 3 : 1u << 4;
    }
    if (!e) {
        return neg ? 1u << 2 : 1u << 5;
    }
    return neg ? 1u << 1 : 1u << 6;
}

/*
 * Round to an integer, then saturate: out-of-range results (NaN counts as
 * positive) clip to the nearest bound and raise only NV.
 */
static uint32_t to_int(uint32_t a, int rm, bool is_signed, uint32_t *flags)
{
    uint32_t sign = a >> 31;
    uint64_t sig, mag, limit;
    bool inexact = false;
    int exp;

    if (is_nan(a)) {
        sign = 0;
        mag = UINT64_MAX;
    } else if (is_inf(a)) {
        mag = UINT64_MAX;
    } else if (is_zero(a)) {
        return 0;
    } else {
        exp = unpack_norm(a, &sig);
        if (exp > 8) {
            mag = UINT64_MAX;
        } else if (exp >= 0) {
            mag = sig << exp;
        } else {
            mag = round_shift(sig, -exp, sign, rm, &inexact);
        }
    }
    if (is_signed) {
        limit = sign ? UINT64_C(0x80000000) : 0x7fffffff;
    } else {
        limit = sign ? 0 : 0xffffffff;
    }
    if (mag > limit) {
        *flags |= SIMT_FFLAG_NV;
        if (is_signed) {
            return sign ? 0x80000000u : 0x7fffffffu;
        }
        return sign ? 0 : 0xffffffffu;
    }
    if (inexact) {
        *flags |= SIMT_FFLAG_NX;
    }
    return sign ? -(uint32_t)mag : (uint32_t)mag;
}

uint32_t simt_f32_to_i32(uint32_t a, int rm, uint32_t *flags)
{
    return to_int(a, rm, true, flags);
}

uint32_t simt_f32_to_u32(uint32_t a, int rm, uint32_t *flags)
{
    return to_int(a, rm, false, flags);
}

uint32_t simt_i32_to_f32(uint32_t v, int rm, uint32_t *flags)
{
    uint32_t sign = v >> 31;
    uint64_t mag = sign ? -(uint64_t)(int32_t)v : v;

    if (!v) {
        return 0;
    }
    return round_pack(sign, 0, mag, rm, flags);
}

uint32_t simt_u32_to_f32(uint32_t v, int rm, uint32_t *flags)
{
    if (!v) {
        return 0;
    }
    return round_pack(0, 0, v, rm, flags);
}

/*
 * The warp fast path, in GCC and clang vector types: four lanes per
 * operation, using only operations that SSE2 (and NEON) have on 64-bit
 * lanes, so that nothing falls back to scalar code.  On x86 hosts with
 * AVX2 the same code is compiled a second time for it.
 */
typedef uint32_t v4su __attribute__((vector_size(16)));
typedef int32_t v4si __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef double v4df __attribute__((vector_size(32)));
typedef int64_t v4di __attribute__((vector_size(32)));
typedef uint64_t v4du __attribute__((vector_size(32)));

static inline __attribute__((always_inline))
uint32_t fma_rne_warp(uint32_t *d, uint32_t *nx, uint32_t *left,
                      const uint32_t *a, const uint32_t *b, const uint32_t *c)
{
    uint32_t rest = 0;

    for (unsigned q = 0; q < SIMT_F32_WARP; q += 4) {
        v4su ua, ub, uc, ur, exp, out;
        v4df x, y, z, p, s, bv, e, so;
        v4di u, need, away;
        v4sf r;

        memcpy(&ua, a + q, sizeof(ua));
        memcpy(&ub, b + q, sizeof(ub));
        memcpy(&uc, c + q, sizeof(uc));
        /* binary64 holds every binary32, subnormals included, exactly. */
        x = __builtin_convertvector((v4sf)ua, v4df);
        y = __builtin_convertvector((v4sf)ub, v4df);
        z = __builtin_convertvector((v4sf)uc, v4df);
        /* The product is exact; TwoSum makes the sum exact as s + e. */
        p = x * y;
        s = p + z;
        bv = s - p;
        e = (p - (s - bv)) + (z - bv);
        /*
         * s rounded to odd (round_to_odd), then once to binary32: an even
         * s with a residue moves one unit towards it, up in magnitude when
         * e has s's sign.
         */
        u = (v4di)s;
        need = (e != 0) & ~-(u & 1);
        away = (v4di)((v4du)(u ^ (v4di)e) >> 63);
        u += need & (1 - 2 * away);
        so = (v4df)u;
        r = __builtin_convertvector(so, v4sf);
        ur = (v4su)r;
        memcpy(d + q, &ur, sizeof(ur));
        /*
         * A NaN or infinite operand, or an overflow, gives a NaN or an
         * infinity; a normal result above the smallest normal cannot be
         * tiny, and inexact is then its only possible flag.  Every other
         * result is left to the exact path.
         */
        exp = (v4su)r & F32_INF;
        out = (v4su)((exp == F32_INF) | (((v4su)r & F32_ABS) <= 0x00800000));
        if (left) {
            memcpy(left + q, &out, sizeof(out));
        }
        rest |= (out[0] & 1) << q | (out[1] & 2) << q | (out[2] & 4) << q |
                (out[3] & 8) << q;
        if (nx) {
            /* An odd so (e != 0) is never a binary32: inexact then too. */
            ur = (v4su)__builtin_convertvector(
                __builtin_convertvector(r, v4df) != so, v4si);
            ur &= ~out & SIMT_FFLAG_NX;
            memcpy(nx + q, &ur, sizeof(ur));
        }
    }
    return rest;
}

/*
 * The baseline build, out of line: inlined into the dispatcher below, it
 * made every call save and restore callee-saved registers, a tenth of the
 * time of an fp loop.
 */
static __attribute__((noinline))
uint32_t fma_rne_warp_base(uint32_t *d, uint32_t *nx, uint32_t *left,
                           const uint32_t *a, const uint32_t *b,
                           const uint32_t *c)
{
    return fma_rne_warp(d, nx, left, a, b, c);
}

#ifdef HOST_X86_64
static __attribute__((target("avx2")))
uint32_t fma_rne_warp_avx2(uint32_t *d, uint32_t *nx, uint32_t *left,
                           const uint32_t *a, const uint32_t *b,
                           const uint32_t *c)
{
    return fma_rne_warp(d, nx, left, a, b, c);
}

/*
 * Without inexact flags, on a host with a fused multiply-add: its single
 * rounding to nearest even is the exact result, eight lanes at a time.
 */
static __attribute__((target("avx2,fma")))
uint32_t fma_rne_warp_fma3(uint32_t *d, uint32_t *left, const uint32_t *a,
                           const uint32_t *b, const uint32_t *c)
{
    const __m256i abs = _mm256_set1_epi32(F32_ABS);
    const __m256i inf = _mm256_set1_epi32(F32_INF);
    const __m256i above_min = _mm256_set1_epi32(0x00800001);
    uint32_t rest = 0;

    for (unsigned q = 0; q < SIMT_F32_WARP; q += 8) {
        __m256 r = _mm256_fmadd_ps(_mm256_loadu_ps((const float *)a + q),
                                   _mm256_loadu_ps((const float *)b + q),
                                   _mm256_loadu_ps((const float *)c + q));
        __m256i u = _mm256_castps_si256(r);
        __m256i special = _mm256_cmpeq_epi32(_mm256_and_si256(u, inf), inf);
        __m256i small = _mm256_cmpgt_epi32(above_min,
                                           _mm256_and_si256(u, abs));
        __m256i out = _mm256_or_si256(special, small);

        _mm256_storeu_si256((__m256i *)(d + q), u);
        if (left) {
            _mm256_storeu_si256((__m256i *)(left + q), out);
        }
        rest |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(out)) << q;
    }
    return rest;
}
#endif

#ifdef HOST_X86_64
/* simt_host_x86(), once known; -1 before */
static int host_x86 = -1;

/* Apart, so that every call does not save registers for this one. */
static __attribute__((noinline, cold)) int host_x86_probe(void)
{
    const char *no = getenv("SIMT_NO_AVX2");
    unsigned eax, ebx, ecx, edx;
    int f = 0;

    __builtin_cpu_init();
    /* SIMT_NO_AVX2 lets the tests run the baseline builds on any host. */
    if ((!no || !*no || !strcmp(no, "0")) && __builtin_cpu_supports("avx2")) {
        f = SIMT_HOST_AVX2;
        if (__builtin_cpu_supports("fma")) {
            f |= SIMT_HOST_FMA;
        }
        /*
         * LZCNT from CPUID 0x80000001 (ECX bit 5, ABM): clang 14's
         * __builtin_cpu_supports knows neither "abm" nor "lzcnt".
         */
        if (__builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
            __builtin_cpu_supports("popcnt") &&
            __get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) &&
            (ecx & bit_LZCNT)) {
            f |= SIMT_HOST_BMI;
        }
    }
    host_x86 = f;
    return f;
}

unsigned simt_host_x86(void)
{
    return host_x86 >= 0 ? host_x86 : host_x86_probe();
}
#endif

uint32_t simt_f32_fma_rne_warp(uint32_t *d, uint32_t *nx, uint32_t *left,
                               const uint32_t *a, const uint32_t *b,
                               const uint32_t *c)
{
#ifdef HOST_X86_64
    int host = host_x86 >= 0 ? host_x86 : host_x86_probe();

    if (!nx && (host & SIMT_HOST_FMA)) {
        return fma_rne_warp_fma3(d, left, a, b, c);
    }
    if (host & SIMT_HOST_AVX2) {
        return fma_rne_warp_avx2(d, nx, left, a, b, c);
    }
#endif
    return fma_rne_warp_base(d, nx, left, a, b, c);
}
