/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * What kernels/divergent.c computes for thread @i, on the host: the
 * expected results of the divergence tests of the device qtests and of
 * the interpreter's kernel tests (tests/kernels).  Plain C.
 */
#ifndef SIMT_DIVERGENT_REF_H
#define SIMT_DIVERGENT_REF_H

#include <stdint.h>

static inline uint32_t divergent_ref(uint32_t i)
{
    uint32_t x = i + 1, steps = 0, acc = 0;

    if (i % 7 == 3) {
        return 0xdead0000u | i;
    }
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        steps++;
        if (steps % 3 == 0) {
            acc += x;
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
    return acc + steps;
}

#endif /* SIMT_DIVERGENT_REF_H */
