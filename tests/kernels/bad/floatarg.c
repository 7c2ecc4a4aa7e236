// SPDX-License-Identifier: GPL-2.0-or-later
/* A float parameter arrives in fa0, which the launch does not set. */
#include "simt.h"

KERNEL void floatarg(float scale, float *out)
{
    out[globalIdx()] = scale * (float)globalIdx();
}
