// SPDX-License-Identifier: GPL-2.0-or-later
/* Recursion: the stack cannot be bounded. */
#include "simt.h"

static __attribute__((noinline)) uint32_t fib(uint32_t n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

KERNEL void recursive(uint32_t *out)
{
    out[globalIdx()] = fib(globalIdx() & 15);
}
