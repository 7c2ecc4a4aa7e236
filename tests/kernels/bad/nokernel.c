// SPDX-License-Identifier: GPL-2.0-or-later
/* No KERNEL anywhere and nothing global: no entry point to describe. */
#include "simt.h"

static __attribute__((used, noinline)) void helper(uint32_t *out)
{
    out[globalIdx()] = 1;
}
