// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernels for the preemption tests and measurements: long low-priority
 * kernels whose warps diverge, wait at barriers or warp syncs and use
 * atomics (the short high-priority one is kernels/hp.c's).  Results do
 * not depend on the order in which blocks run, so a preempted run must
 * give the same bits as one alone.
 */
#include "simt.h"

SHARED uint32_t tile[256];

/*
 * Per round: a data-dependent loop (lanes diverge), an exchange through
 * shared memory between two barriers, and for some threads a global
 * atomic add (commutative, so the order does not matter).  Up to 256
 * threads per block.
 */
KERNEL void lp_mix(uint32_t *out, uint32_t *hist, uint32_t rounds)
{
    uint32_t t = threadIdx.x, i = globalIdx();
    uint32_t x = i * 2654435761u + 7, acc = 0;

    for (uint32_t r = 0; r < rounds; r++) {
        uint32_t y = (x & 255) + 1, steps = 0;

        while (y != 1 && steps < 48) {
            y = (y & 1) ? 3 * y + 1 : y / 2;
            steps++;
        }
        acc += steps;
        tile[t] = acc ^ x;
        __syncthreads();
        acc += tile[(t + 1) % blockDim.x];
        __syncthreads();
        if ((x & 7) == 0) {
            atomicAdd(&hist[x % 64], 1);
        }
        x = x * 1664525u + 1013904223u;
    }
    out[i] = acc;
}

/*
 * lp_mix's rounds with warp-aggregated atomics: the lanes of a warp with
 * the same bin add their count once, through a leader whose atomicAdd
 * clang lays out after the loop, so that lanes wait at the warp sync of
 * __shfl_sync and __ballot_sync for it: a preemption finds warps there.
 */
KERNEL void lp_warp(uint32_t *out, uint32_t *hist, uint32_t rounds)
{
    uint32_t i = globalIdx(), lane = laneId();
    uint32_t x = i * 2654435761u + 7, acc = 0;

    for (uint32_t r = 0; r < rounds; r++) {
        uint32_t y = (x & 255) + 1, steps = 0;
        uint32_t bin = x % 64, todo;

        while (y != 1 && steps < 48) {
            y = (y & 1) ? 3 * y + 1 : y / 2;
            steps++;
        }
        acc += steps;
        todo = __ballot_sync(0xffffffffu, (x & 3) == 0);
        while (todo) {
            uint32_t leader = (uint32_t)__ffs((int)todo) - 1;
            uint32_t lbin = __shfl_sync(0xffffffffu, bin, leader);
            uint32_t same = __ballot_sync(0xffffffffu,
                                          (todo >> lane & 1) && bin == lbin);

            if (__builtin_expect(lane == leader, 0)) {
                atomicAdd(&hist[lbin], (uint32_t)__popc(same));
            }
            todo &= ~same;
        }
        x = x * 1664525u + 1013904223u;
    }
    out[i] = acc;
}

/* Registers only, one store at the end: flushable nearly all its life. */
KERNEL void lp_spin(uint32_t *out, uint32_t iters)
{
    uint32_t i = globalIdx();
    uint32_t x = i * 2654435761u + 1, y = i;

    for (uint32_t k = 0; k < iters; k++) {
        x = x * 1664525u + 1013904223u;
        y += x >> 7;
        x ^= x >> 13;
    }
    out[i] = x ^ y;
}

/*
 * Registers only, like lp_spin, for iters[blockIdx.x] steps, so that a
 * test sets each block's length.  @store_first: a global store before
 * the loop, after which the block may no longer be flushed.
 */
KERNEL void lp_var(uint32_t *out, const uint32_t *iters,
                   uint32_t store_first)
{
    uint32_t i = globalIdx(), n = iters[blockIdx.x];
    uint32_t x = i * 2654435761u + 1, y = i;

    if (store_first) {
        out[i] = 0;
    }
    for (uint32_t k = 0; k < n; k++) {
        x = x * 1664525u + 1013904223u;
        y += x >> 7;
        x ^= x >> 13;
    }
    out[i] = x ^ y;
}

/*
 * Seed 000's irregular kernels (its Table 4.2), which its violations come
 * from: blocks of data-dependent length (one to four times @work), a
 * global store at their start, after which the engine may not flush
 * them, and for b+tree dependent loads, for srad divergent branches
 * around a shared-memory stencil.  @table: 4096 words, table[j] < 4096.
 */
static uint32_t block_length(uint32_t work)
{
    return work * (1 + (blockIdx.x * 2654435761u >> 30));
}

/* b+tree's findK: each thread walks @table from its key, a load at a time. */
KERNEL void lp_btree(uint32_t *out, const uint32_t *table, uint32_t work)
{
    uint32_t i = globalIdx(), node = i & 4095, n = block_length(work);

    out[i] = 0;
    for (uint32_t k = 0; k < n; k++) {
        node = table[(node + k) & 4095];
    }
    out[i] = node + n;
}

/*
 * srad's second kernel: rounds of a four-neighbour stencil over the
 * block's row of 256 cells in shared memory (lp_mix's tile: the image's
 * shared memory is its kernels' together), each cell taking one of two
 * branches of different lengths by its value.
 */
KERNEL void lp_srad(uint32_t *out, const uint32_t *table, uint32_t work)
{
    uint32_t t = threadIdx.x, i = globalIdx(), n = block_length(work);
    uint32_t v = table[i & 4095];

    out[i] = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t sum;

        tile[t] = v;
        __syncthreads();
        sum = tile[(t + 1) & 255] + tile[(t + 255) & 255] +
              tile[(t + 16) & 255] + tile[(t + 240) & 255];
        if (v & 1) {
            for (uint32_t j = 0; j < 8; j++) {
                sum = sum * 3 + (sum >> 5);
            }
        } else {
            sum ^= sum >> 3;
        }
        v = (v + sum) & 4095;
        __syncthreads();
    }
    out[i] = v;
}

/*
 * The guest demo's long kernel: many device cycles for little work on the
 * host (divisions, the costliest instructions, and no memory access in
 * the loop), so that a kernel of 100 ms device time runs in seconds under
 * TCG.
 */
KERNEL void lp_long(uint32_t *out, const uint32_t *src, uint32_t mask,
                    uint32_t iters)
{
    uint32_t i = globalIdx(), acc = src[i & mask] + i, x = i + 7;
    /* Divisors from memory, so that they stay divisions. */
    uint32_t d = src[0] | 1, e = src[1] | 1;

    for (uint32_t k = 0; k < iters; k++) {
        acc = acc / ((x & 7) + 1) + acc % d + k;
        x = x / e + acc;
    }
    out[i] = acc ^ x;
}
