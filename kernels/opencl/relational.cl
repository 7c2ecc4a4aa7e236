/* SPDX-License-Identifier: MIT */
/*
 * Relational functions.  Written once for every width: a comparison of
 * scalars gives 1 or 0, of vectors a vector of -1 or 0, as OpenCL wants
 * of these functions.
 */
#include "simt-cl.h"

#define SIMT_REL_FLOAT(T, I)                                           \
    I SIMT_OVL isequal(T x, T y) { return x == y; }                    \
    I SIMT_OVL isnotequal(T x, T y) { return x != y; }                 \
    I SIMT_OVL isgreater(T x, T y) { return x > y; }                   \
    I SIMT_OVL isgreaterequal(T x, T y) { return x >= y; }             \
    I SIMT_OVL isless(T x, T y) { return x < y; }                      \
    I SIMT_OVL islessequal(T x, T y) { return x <= y; }                \
    I SIMT_OVL islessgreater(T x, T y) { return x < y || x > y; }      \
    I SIMT_OVL isordered(T x, T y) { return x == x && y == y; }        \
    I SIMT_OVL isunordered(T x, T y) { return x != x || y != y; }      \
    I SIMT_OVL isnan(T x) { return x != x; }                           \
    I SIMT_OVL isinf(T x)                                              \
    { return (__builtin_astype(x, I) & 0x7fffffff) == 0x7f800000; }    \
    I SIMT_OVL isfinite(T x)                                           \
    { return (__builtin_astype(x, I) & 0x7fffffff) < 0x7f800000; }     \
    I SIMT_OVL isnormal(T x)                                           \
    {                                                                  \
        I e = __builtin_astype(x, I) & 0x7f800000;                     \
        return e != 0 && e != 0x7f800000;                              \
    }                                                                  \
    I SIMT_OVL signbit(T x) { return __builtin_astype(x, I) < 0; }     \
    T SIMT_OVL bitselect(T a, T b, T c)                                \
    {                                                                  \
        I m = __builtin_astype(c, I);                                  \
        return __builtin_astype((__builtin_astype(a, I) & ~m) |        \
                                (__builtin_astype(b, I) & m), T);      \
    }

SIMT_REL_FLOAT(float, int)
SIMT_REL_FLOAT(float2, int2)
SIMT_REL_FLOAT(float3, int3)
SIMT_REL_FLOAT(float4, int4)
SIMT_REL_FLOAT(float8, int8)
SIMT_REL_FLOAT(float16, int16)

/*
 * any and all: the most significant bit of some, or every, component
 * (the casts undo the promotion of char and short)
 */
#define SIMT_ANY_ALL(T)                                                \
    int SIMT_OVL any(T x) { return x < 0; }                            \
    int SIMT_OVL all(T x) { return x < 0; }                            \
    int SIMT_OVL any(T##2 x) { return any((T)(x.lo | x.hi)); }         \
    int SIMT_OVL all(T##2 x) { return all((T)(x.lo & x.hi)); }         \
    int SIMT_OVL any(T##3 x) { return any((T)(x.s0 | x.s1 | x.s2)); }  \
    int SIMT_OVL all(T##3 x) { return all((T)(x.s0 & x.s1 & x.s2)); }  \
    int SIMT_OVL any(T##4 x) { return any(x.lo | x.hi); }              \
    int SIMT_OVL all(T##4 x) { return all(x.lo & x.hi); }              \
    int SIMT_OVL any(T##8 x) { return any(x.lo | x.hi); }              \
    int SIMT_OVL all(T##8 x) { return all(x.lo & x.hi); }              \
    int SIMT_OVL any(T##16 x) { return any(x.lo | x.hi); }             \
    int SIMT_OVL all(T##16 x) { return all(x.lo & x.hi); }

SIMT_ANY_ALL(char)
SIMT_ANY_ALL(short)
SIMT_ANY_ALL(int)
SIMT_ANY_ALL(long)

/*
 * bitselect for the integer types, and select: for scalars c != 0
 * chooses b, for vectors the most significant bit of each component
 * of c.  S is the signed type of T's width, U the unsigned one.
 */
#define SIMT_SELECT_ONLY_N(T, S, U, N)                                 \
    T##N SIMT_OVL select(T##N a, T##N b, S##N c)                       \
    {                                                                  \
        S##N m = c < (S##N)0;                                          \
        return __builtin_astype((__builtin_astype(a, S##N) & ~m) |     \
                                (__builtin_astype(b, S##N) & m), T##N); \
    }                                                                  \
    T##N SIMT_OVL select(T##N a, T##N b, U##N c)                       \
    { return select(a, b, __builtin_astype(c, S##N)); }
#define SIMT_SELECT_N(T, S, U, N)                                      \
    T##N SIMT_OVL bitselect(T##N a, T##N b, T##N c)                    \
    { return (a & ~c) | (b & c); }                                     \
    SIMT_SELECT_ONLY_N(T, S, U, N)
#define SIMT_SELECT(T, S, U, N_MACRO)                                  \
    T SIMT_OVL select(T a, T b, S c) { return c ? b : a; }             \
    T SIMT_OVL select(T a, T b, U c) { return c ? b : a; }             \
    N_MACRO(T, S, U, 2) N_MACRO(T, S, U, 3) N_MACRO(T, S, U, 4)        \
    N_MACRO(T, S, U, 8) N_MACRO(T, S, U, 16)
#define SIMT_SELECT_INT(T, S, U)                                       \
    T SIMT_OVL bitselect(T a, T b, T c) { return (a & ~c) | (b & c); } \
    SIMT_SELECT(T, S, U, SIMT_SELECT_N)

SIMT_SELECT_INT(char, char, uchar)
SIMT_SELECT_INT(uchar, char, uchar)
SIMT_SELECT_INT(short, short, ushort)
SIMT_SELECT_INT(ushort, short, ushort)
SIMT_SELECT_INT(int, int, uint)
SIMT_SELECT_INT(uint, int, uint)
SIMT_SELECT_INT(long, long, ulong)
SIMT_SELECT_INT(ulong, long, ulong)
SIMT_SELECT(float, int, uint, SIMT_SELECT_ONLY_N)
