// SPDX-License-Identifier: GPL-2.0-or-later
/* Calls through a function pointer: simt-meta cannot follow it. */
#include "simt.h"

typedef uint32_t (*op_fn)(uint32_t);

static __attribute__((noinline)) uint32_t twice(uint32_t x)
{
    return 2 * x;
}

static __attribute__((noinline)) uint32_t square(uint32_t x)
{
    return x * x;
}

static op_fn const ops[2] = { twice, square };

KERNEL void fnptr(uint32_t *out)
{
    uint32_t i = globalIdx();

    out[i] = ops[i & 1](i);
}
