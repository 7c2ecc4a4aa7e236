// SPDX-License-Identifier: GPL-2.0-or-later
/* The word double, poisoned by simt.h. */
#include "simt.h"

KERNEL void dbl(float *p)
{
    double d = p[0];

    p[globalIdx()] = (float)d;
}
