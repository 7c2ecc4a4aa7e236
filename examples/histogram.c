/* SPDX-License-Identifier: MIT */
/*
 * Histogram of bytes into NBINS bins (bin = value % NBINS) with
 * warp-aggregated atomics: the lanes of a warp that fall in the same bin
 * elect a leader (the lowest such lane, __ffs of the ballot of lanes
 * still to be counted), which adds their count (__popc of the ballot of
 * the lanes with the leader's bin) with one atomicAdd.  The loop runs the
 * same number of times in every lane (the ballot is the warp's), so the
 * votes and the shuffle stay convergent; no __match_any_sync needed.
 * atomics[warp] gets the number of atomicAdds the warp did: the number of
 * distinct bins among its lanes.
 *
 * At -O1 and above clang lays the leader's atomicAdd block out after the
 * loop latch, so min-PC scheduling runs the other lanes through the latch
 * into the next pass first; the warp sync that starts __shfl_sync and
 * __ballot_sync holds them there until the leader has caught up (see
 * "Examples" in docs/toolchain.rst).
 */
#include <simt.h>

#define FULL  0xffffffffu
#define NBINS 64

KERNEL void histogram_warp(const uint8_t *data, uint32_t *hist,
                           uint32_t *atomics, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t lane = laneId();
    bool valid = i < n;
    uint32_t bin = valid ? data[i] % NBINS : 0;
    uint32_t todo = __ballot_sync(FULL, valid);
    uint32_t count = 0;

    while (todo) {
        int leader = __ffs(todo) - 1;
        uint32_t lbin = __shfl_sync(FULL, bin, leader);
        bool mine = (todo >> lane & 1) && bin == lbin;
        uint32_t same = __ballot_sync(FULL, mine);

        if (lane == (uint32_t)leader)
            atomicAdd(&hist[lbin], (uint32_t)__popc(same));
        todo &= ~same;
        count++;
    }
    if (lane == 0)
        atomics[i / warpSize] = count;
}
