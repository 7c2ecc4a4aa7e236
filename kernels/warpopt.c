// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Warp operations in the shapes optimisers like to rearrange: after an if
 * that some lanes skip, followed by a conditional store (tail duplication
 * would copy them into both arms), in butterflies whose min/max is a
 * branch on RV32, and with a source lane known only at run time.  Built
 * at every optimisation level; each needs -fconvergent-functions.  The
 * last, warp-aggregated atomics, also needs the *_sync forms' warp sync.
 */
#include "simt.h"

/* The reproducer: lane 0 loads, the warp takes its value. */
KERNEL void warp_bcast(uint32_t *out, const uint32_t *in, uint32_t n)
{
    uint32_t i = globalIdx(), v = 0;

    if (laneId() == 0) {
        v = in[i / 32];
    }
    v = __shfl(v, 0);
    if (i < n) {
        out[i] = v;
    }
}

/* Eight words per thread; threads at or past @n store nothing. */
KERNEL void warp_join(uint32_t *out, const int *in, uint32_t n)
{
    uint32_t i = globalIdx(), lane = laneId();
    uint32_t src = (uint32_t)in[i & ~31u] & 31;
    int w = in[i], first = 0;
    uint32_t ballot, bcast, any, all, down, up, pick, pick_f;

    if (lane == 0) {
        first = in[i] * 3 + 1;
    }
    bcast = __shfl((uint32_t)first, 0);
    if (w < 0) {
        w = -w * 2;
    }
    ballot = __ballot(w > 50);
    any = __any(w == 7);
    all = __all(w != 99);
    down = __shfl_down((uint32_t)w, 1);
    up = __shfl_up((uint32_t)w, 3);
    pick = __shfl((uint32_t)w, src);
    pick_f = __builtin_bit_cast(uint32_t, __shfl_down_f((float)w * 0.5f,
                                                        src));
    if (i < n) {
        out[8 * i] = bcast;
        out[8 * i + 1] = ballot;
        out[8 * i + 2] = any;
        out[8 * i + 3] = all;
        out[8 * i + 4] = down;
        out[8 * i + 5] = up;
        out[8 * i + 6] = pick;
        out[8 * i + 7] = pick_f;
    }
}

/* Warp maximum and minimum of int, unsigned and float by butterfly. */
KERNEL void warp_minmax(uint32_t *out, const int *in)
{
    uint32_t i = globalIdx();
    int imax = in[i], imin = in[i];
    uint32_t umax = (uint32_t)in[i];
    float fmin = (float)in[i] * 0.25f;

    for (uint32_t m = 1; m < 32; m <<= 1) {
        int o = (int)__shfl_xor((uint32_t)imax, m);
        imax = o > imax ? o : imax;
        o = (int)__shfl_xor((uint32_t)imin, m);
        imin = o < imin ? o : imin;
        uint32_t u = __shfl_xor(umax, m);
        umax = u > umax ? u : umax;
        float f = __builtin_bit_cast(float, __shfl_xor(
            __builtin_bit_cast(uint32_t, fmin), m));
        fmin = f < fmin ? f : fmin;
    }
    out[4 * i] = (uint32_t)imax;
    out[4 * i + 1] = (uint32_t)imin;
    out[4 * i + 2] = umax;
    out[4 * i + 3] = __builtin_bit_cast(uint32_t, fmin);
}

/*
 * Warp-aggregated atomics, the histogram shape: each pass the lowest lane
 * still to be counted leads, and one atomicAdd counts the lanes with its
 * bin.  From -O1 on clang lays the leader's atomicAdd out after the loop
 * latch (the hint makes sure of it at -Os too), so min-PC scheduling runs
 * the other lanes into the next pass first; the warp sync of __shfl_sync
 * and __ballot_sync holds them there until the leader arrives.
 * out[0..7] count the bins (start at 0), out[8 + i] is thread i's
 * number of passes.
 */
KERNEL void warp_aggregate(uint32_t *out, const int *in, uint32_t n)
{
    uint32_t i = globalIdx(), lane = laneId();
    bool valid = i < n;
    uint32_t bin = valid ? (uint32_t)in[i] & 7 : 0;
    uint32_t todo = __ballot_sync(0xffffffffu, valid), passes = 0;

    while (todo) {
        uint32_t leader = (uint32_t)__ffs((int)todo) - 1;
        uint32_t lbin = __shfl_sync(0xffffffffu, bin, leader);
        uint32_t same = __ballot_sync(0xffffffffu,
                                      (todo >> lane & 1) && bin == lbin);

        if (__builtin_expect(lane == leader, 0)) {
            atomicAdd(&out[lbin], (uint32_t)__popc(same));
        }
        todo &= ~same;
        passes++;
    }
    out[8 + i] = passes;
}
