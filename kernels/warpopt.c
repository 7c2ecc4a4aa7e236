// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Warp operations in the shapes optimisers like to rearrange: after an if
 * that some lanes skip, followed by a conditional store (tail duplication
 * would copy them into both arms), in butterflies whose min/max is a
 * branch on RV32, and with a source lane known only at run time.  Built
 * at every optimisation level; each needs -fconvergent-functions.
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
