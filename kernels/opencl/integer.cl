/* SPDX-License-Identifier: MIT */
/*
 * Integer functions for char, uchar, short, ushort, int, uint, long and
 * ulong and their vectors (mul_hi and mad_hi without long and ulong,
 * whose high half needs 128 bits; mul24 and mad24 for int and uint).
 * Each scalar function is written once for every type; the vectors are
 * componentwise.
 */
#include "simt-cl.h"

/* T, its unsigned type, its least and greatest values, its bits */
#define SIMT_INT_INFO(M)                                               \
    M(char, uchar, SCHAR_MIN, SCHAR_MAX, 8)                            \
    M(uchar, uchar, 0, UCHAR_MAX, 8)                                   \
    M(short, ushort, SHRT_MIN, SHRT_MAX, 16)                           \
    M(ushort, ushort, 0, USHRT_MAX, 16)                                \
    M(int, uint, INT_MIN, INT_MAX, 32)                                 \
    M(uint, uint, 0, UINT_MAX, 32)                                     \
    M(long, ulong, LONG_MIN, LONG_MAX, 64)                             \
    M(ulong, ulong, 0, ULONG_MAX, 64)

#define SIMT_INT_FUNCS(T, UT, TMIN, TMAX, BITS)                        \
    UT SIMT_OVL abs(T x) { return x < 0 ? (UT)0 - (UT)x : (UT)x; }     \
    SIMT_VEC1(UT, T, abs)                                              \
    UT SIMT_OVL abs_diff(T x, T y)                                     \
    { return x > y ? (UT)x - (UT)y : (UT)y - (UT)x; }                  \
    SIMT_VEC2(UT, T, T, abs_diff)                                      \
    T SIMT_OVL add_sat(T x, T y)                                       \
    {                                                                  \
        T r;                                                           \
        return __builtin_add_overflow(x, y, &r) ? (y < 0 ? TMIN : TMAX) : r; \
    }                                                                  \
    SIMT_VEC2(T, T, T, add_sat)                                        \
    T SIMT_OVL sub_sat(T x, T y)                                       \
    {                                                                  \
        T r;                                                           \
        return __builtin_sub_overflow(x, y, &r) ? (y > 0 || TMIN == 0 ? \
                                                   TMIN : TMAX) : r;   \
    }                                                                  \
    SIMT_VEC2(T, T, T, sub_sat)                                        \
    /* halves first, so that nothing overflows; >> floors signed ones */ \
    T SIMT_OVL hadd(T x, T y) { return (x >> 1) + (y >> 1) + (x & y & 1); } \
    SIMT_VEC2(T, T, T, hadd)                                           \
    T SIMT_OVL rhadd(T x, T y)                                         \
    { return (x >> 1) + (y >> 1) + ((x | y) & 1); }                    \
    SIMT_VEC2(T, T, T, rhadd)                                          \
    T SIMT_OVL clz(T x)                                                \
    {                                                                  \
        UT u = (UT)x;                                                  \
        return !u ? BITS : BITS == 64 ? __builtin_clzll(u)             \
                         : __builtin_clz(u) - (32 - BITS);             \
    }                                                                  \
    SIMT_VEC1(T, T, clz)                                               \
    T SIMT_OVL popcount(T x)                                           \
    {                                                                  \
        return BITS == 64 ? __builtin_popcountll((UT)x)                \
                          : __builtin_popcount((UT)x);                 \
    }                                                                  \
    SIMT_VEC1(T, T, popcount)                                          \
    T SIMT_OVL max(T x, T y) { return x > y ? x : y; }                 \
    SIMT_VEC2(T, T, T, max)                                            \
    SIMT_VEC2S(T, T, T, max)                                           \
    T SIMT_OVL min(T x, T y) { return x < y ? x : y; }                 \
    SIMT_VEC2(T, T, T, min)                                            \
    SIMT_VEC2S(T, T, T, min)                                           \
    T SIMT_OVL clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }  \
    SIMT_VEC3(T, clamp)                                                \
    SIMT_WIDTHS(SIMT_INT_CLAMP_SPLAT, T)                               \
    T SIMT_OVL rotate(T v, T i)                                        \
    {                                                                  \
        UT u = (UT)v, s = (UT)i & (BITS - 1);                          \
        return (T)(UT)(u << s | u >> ((BITS - s) & (BITS - 1)));       \
    }                                                                  \
    SIMT_VEC2(T, T, T, rotate)

#define SIMT_INT_CLAMP_SPLAT(T, N)                                     \
    T##N SIMT_OVL clamp(T##N x, T lo, T hi)                            \
    { return clamp(x, (T##N)lo, (T##N)hi); }

SIMT_INT_INFO(SIMT_INT_FUNCS)

/* the high half of the product, from a product twice as wide */
#define SIMT_MUL_HI(T, WIDE, BITS)                                     \
    T SIMT_OVL mul_hi(T x, T y) { return (T)(((WIDE)x * (WIDE)y) >> BITS); } \
    SIMT_VEC2(T, T, T, mul_hi)                                         \
    T SIMT_OVL mad_hi(T a, T b, T c) { return mul_hi(a, b) + c; }      \
    SIMT_VEC3(T, mad_hi)

SIMT_MUL_HI(char, short, 8)
SIMT_MUL_HI(uchar, ushort, 8)
SIMT_MUL_HI(short, int, 16)
SIMT_MUL_HI(ushort, uint, 16)
SIMT_MUL_HI(int, long, 32)
SIMT_MUL_HI(uint, ulong, 32)

/* the lanes multiply 32 bits as fast as 24 */
#define SIMT_MUL24(T)                                                  \
    T SIMT_OVL mul24(T x, T y) { return x * y; }                       \
    SIMT_VEC2(T, T, T, mul24)                                          \
    T SIMT_OVL mad24(T x, T y, T z) { return x * y + z; }              \
    SIMT_VEC3(T, mad24)

SIMT_MUL24(int)
SIMT_MUL24(uint)

#define SIMT_UPSAMPLE(H, L, R, BITS)                                   \
    R SIMT_OVL upsample(H hi, L lo) { return (R)hi << BITS | lo; }     \
    SIMT_VEC2(R, H, L, upsample)

SIMT_UPSAMPLE(char, uchar, short, 8)
SIMT_UPSAMPLE(uchar, uchar, ushort, 8)
SIMT_UPSAMPLE(short, ushort, int, 16)
SIMT_UPSAMPLE(ushort, ushort, uint, 16)
SIMT_UPSAMPLE(int, uint, long, 32)
SIMT_UPSAMPLE(uint, uint, ulong, 32)
