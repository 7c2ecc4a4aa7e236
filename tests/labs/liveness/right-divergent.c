// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A divergent kernel: per-thread loop trip counts (Collatz steps), nested
 * branches on the thread index and an early return, so a warp's lanes
 * split and reconverge many times.  out[i] gets a value that depends on
 * every path taken.
 */
#include "simt.h"

KERNEL void divergent(uint32_t *out, uint32_t n)
{
    uint32_t i = globalIdx();
    uint32_t x = i + 1, steps = 0, acc = 0;

    if (i >= n) {
        return;
    }
    if (i % 7 == 3) {
        out[i] = 0xdead0000u | i;
        return;
    }
    /* A count to three instead of steps % 3: no division in the loop. */
    for (uint32_t third = 0; x != 1;) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        steps++;
        if (++third == 3) {
            acc += x;
            third = 0;
        }
    }
    if (i & 1) {
        acc = acc * 31 + steps;
        if (i & 2) {
            acc ^= 0x5555u;
        } else {
            acc += 17;
        }
    } else {
        for (uint32_t k = 0; k < (i & 15); k++) {
            acc = acc * 3 + k;
        }
    }
    out[i] = acc + steps;
}
