// SPDX-License-Identifier: GPL-2.0-or-later
/* double arithmetic needs __adddf3 and friends from compiler-rt. */
#include "simt.h"

KERNEL void dbl(float *p)
{
    p[globalIdx()] = (float)((double)p[0] + 0.1);
}
