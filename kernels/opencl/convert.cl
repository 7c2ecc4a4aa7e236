/* SPDX-License-Identifier: MIT */
/*
 * convert_<type>(): between every pair of char, uchar, short, ushort,
 * int, uint, long, ulong and float, scalar and vector, with the default
 * rounding (toward zero to an integer, to nearest to float) and no
 * saturation: C's conversions, which is what OpenCL's defaults are.
 * (as_<type>() is clang's __builtin_astype, in opencl-c.h.)
 */
#include "simt-cl.h"

#define SIMT_CONVERT_N(D, S, N)                                        \
    D##N SIMT_OVL convert_##D##N(S##N x)                               \
    { return __builtin_convertvector(x, D##N); }
#define SIMT_CONVERT_VECTORS(D, S)                                     \
    SIMT_CONVERT_N(D, S, 2) SIMT_CONVERT_N(D, S, 3)                    \
    SIMT_CONVERT_N(D, S, 4) SIMT_CONVERT_N(D, S, 8)                    \
    SIMT_CONVERT_N(D, S, 16)
#define SIMT_CONVERT(D, S)                                             \
    D SIMT_OVL convert_##D(S x) { return (D)x; }                       \
    SIMT_CONVERT_VECTORS(D, S)
#define SIMT_CONVERT_FROM(S)                                           \
    SIMT_CONVERT(char, S) SIMT_CONVERT(uchar, S) SIMT_CONVERT(short, S) \
    SIMT_CONVERT(ushort, S) SIMT_CONVERT(int, S) SIMT_CONVERT(uint, S) \
    SIMT_CONVERT(long, S) SIMT_CONVERT(ulong, S) SIMT_CONVERT(float, S)

SIMT_CONVERT_FROM(char)
SIMT_CONVERT_FROM(uchar)
SIMT_CONVERT_FROM(short)
SIMT_CONVERT_FROM(ushort)
SIMT_CONVERT_FROM(int)
SIMT_CONVERT_FROM(uint)
SIMT_CONVERT_FROM(long)
SIMT_CONVERT_FROM(ulong)
SIMT_CONVERT_FROM(float)
