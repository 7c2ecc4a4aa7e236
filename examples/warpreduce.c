/* SPDX-License-Identifier: MIT */
/*
 * Warp-level reduction with shuffles and votes.  Every warp reduces its
 * 32 ints: the sum with __shfl_xor_sync (butterfly: every lane ends with
 * it), the maximum with __shfl_down_sync (lane 0 ends with it), and the
 * count of positive elements with __ballot_sync and __popc.  Lane 0
 * writes the warp's three results to out[3 * warp ...] and adds them to
 * the totals (sum, count) and atomicMax (max).  The last warp is masked:
 * lanes past n contribute 0, INT_MIN and false.
 *
 * totals: [0] sum, [1] positives, [2] max (start it at INT_MIN).
 */
#include <simt.h>

#define FULL 0xffffffffu

KERNEL void warp_reduce(const int *in, int *out, int *totals, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t warp = i / warpSize;
    bool valid = i < n;
    int v = valid ? in[i] : 0;
    int m = valid ? v : INT32_MIN;

    uint32_t pos = __popc(__ballot_sync(FULL, valid && v > 0));
    for (int off = 16; off > 0; off >>= 1) {
        v += __shfl_xor_sync(FULL, v, off);
        int o = __shfl_down_sync(FULL, m, off);
        m = o > m ? o : m;
    }
    if (laneId() == 0) {
        out[3 * warp] = v;
        out[3 * warp + 1] = (int)pos;
        out[3 * warp + 2] = m;
        atomicAdd(&totals[0], v);
        atomicAdd(&totals[1], (int)pos);
        atomicMax(&totals[2], m);
    }
}

/*
 * The same sum in the early-return style: lanes past n leave at once, and
 * the others reduce over the lanes still active (__activemask), which in
 * the last warp are lanes 0..k-1; a shuffle from a lane that has left
 * returns the reader's own value, so the tail adds 0 for them by hand.
 */
KERNEL void warp_sum_tail(const int *in, int *out, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i >= n)
        return;
    uint32_t active = __activemask();
    uint32_t lane = laneId();
    int v = in[i];
    for (uint32_t off = 16; off > 0; off >>= 1) {
        int o = __shfl_down_sync(active, v, off);
        if (lane + off < 32 && (active >> (lane + off) & 1))
            v += o;
    }
    if (lane == 0)
        out[i / warpSize] = v;
}
