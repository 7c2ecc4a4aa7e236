// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The line-table reader's kernel (test-lines.c), built with -g as DWARF 5
 * and as DWARF 4.  A line comment of an at sign and a function's name
 * tags the line of that function, which is written on the one line so
 * that all its instructions come from it whatever clang schedules; the
 * test finds the tags here and checks that the function's address maps
 * to the tagged line.  A tag "call:" and a name marks the line of a call
 * of one of simt.h's inline functions, whose code the line table puts in
 * simt.h: the test checks that the inlined-call reader finds the call
 * there.
 */
#include "simt.h"

#define NOINLINE __attribute__((noinline))

NOINLINE static uint32_t twice(uint32_t v) { return v * 2u + 1u; } // @twice

NOINLINE static uint32_t halve(uint32_t v) { return v / 2u + 7u; } // @halve

KERNEL void lines(uint32_t *out, uint32_t n)
{
    uint32_t i = globalIdx();

    if (i < n) {
        out[i] = halve(twice(i));
    }
}

KERNEL void inlined(int *out, int *sum)
{
    int v = (int)globalIdx();

    v += __shfl_down(v, 1); // @call:shfl
    atomicAdd(sum, v); // @call:atomic
    out[globalIdx()] = v;
}
