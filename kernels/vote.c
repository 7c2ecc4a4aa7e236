// SPDX-License-Identifier: GPL-2.0-or-later
/* Warp votes: each thread writes its warp's ballot, any and all results. */
#include "simt.h"

KERNEL void vote(uint32_t *out, uint32_t n)
{
    uint32_t i = globalIdx();
    uint32_t ballot = __ballot(i % 3 == 0);
    bool any = __any(i % 64 == 5);
    bool all = __all(i < n);

    out[3 * i] = ballot;
    out[3 * i + 1] = any;
    out[3 * i + 2] = all;
}
