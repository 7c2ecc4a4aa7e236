// SPDX-License-Identifier: GPL-2.0-or-later
/* An int times a double constant, stored into a float. */
#include "simt.h"

KERNEL void narrow(float *p, int n)
{
    float y = n * 1.5;

    p[globalIdx()] = y;
}
