// SPDX-License-Identifier: GPL-2.0-or-later
/* A misspelled function: an error at the call, not a link error. */
#include "simt.h"

KERNEL void implicit(float *p)
{
    p[globalIdx()] = rsqrtff(p[0]);
}
