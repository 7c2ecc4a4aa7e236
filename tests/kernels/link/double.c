// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * double arithmetic needs __muldf3 and friends from compiler-rt.  The
 * compile flags catch the word double and a double mixed with a float;
 * an explicit cast of int-and-double arithmetic is left to the link.
 */
#include "simt.h"

KERNEL void dbl(float *p, int n)
{
    p[globalIdx()] = (float)(n * 0.1);
}
