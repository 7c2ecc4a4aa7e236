// SPDX-License-Identifier: GPL-2.0-or-later
/* 64-bit division needs __udivdi3 from compiler-rt. */
#include "simt.h"

KERNEL void div64(uint64_t *p)
{
    p[globalIdx()] /= p[0];
}
