// SPDX-License-Identifier: GPL-2.0-or-later
/* Ten parameters: the last two would be on a stack the launch never set. */
#include "simt.h"

KERNEL void stackargs(uint32_t *out, uint32_t a, uint32_t b, uint32_t c,
                      uint32_t d, uint32_t e, uint32_t f, uint32_t g,
                      uint32_t h, uint32_t i)
{
    out[globalIdx()] = a + b + c + d + e + f + g + h + i;
}
