// SPDX-License-Identifier: GPL-2.0-or-later
/* A float times a double constant is double arithmetic. */
#include "simt.h"

KERNEL void promote(float *p)
{
    p[globalIdx()] = p[0] * 1.5;
}
