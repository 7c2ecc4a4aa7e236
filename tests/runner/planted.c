// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Planted bugs for the host runner's checkers (test-checkers.sh), built
 * with -g: each buggy kernel has its bug on the line whose comment names
 * the checker that must report it, and a twin without the bug that every
 * checker must pass in silence.
 */
#include "simt.h"

SHARED int ring[64];

/* One thread per element, but no bounds check: the grid overshoots n. */
KERNEL void fill_unguarded(float *a, uint32_t n)
{
    (void)n;
    a[globalIdx()] = 1.0f;                      /* memcheck: global */
}

KERNEL void fill_guarded(float *a, uint32_t n)
{
    if (globalIdx() < n) {
        a[globalIdx()] = 1.0f;
    }
}

/* Reverses a block through blockDim.x words of dynamic shared memory. */
KERNEL void reverse_overrun(const uint32_t *in, uint32_t *out)
{
    uint32_t *buf = dynamicShared();
    uint32_t t = threadIdx.x;

    buf[t + 1] = in[t];                         /* memcheck: shared */
    __syncthreads();
    out[t] = buf[blockDim.x - t];
}

KERNEL void reverse_within(const uint32_t *in, uint32_t *out)
{
    uint32_t *buf = dynamicShared();
    uint32_t t = threadIdx.x;

    buf[t] = in[t];
    __syncthreads();
    out[t] = buf[blockDim.x - 1 - t];
}

/* Words read from a byte buffer one byte off their alignment. */
KERNEL void read_misaligned(const uint8_t *bytes, uint32_t *out)
{
    const uint32_t *w = (const uint32_t *)(bytes + 1 + 4 * threadIdx.x);

    out[threadIdx.x] = *w;                      /* memcheck: misaligned */
}

/* A local array indexed by an argument: index 8 is past the stack. */
KERNEL void local_index(const uint32_t *index, uint32_t *out)
{
    volatile uint32_t slots[8] = { 0 };
    uint32_t t = threadIdx.x;

    slots[index[t]] = t + 1;                    /* memcheck: local */
    out[t] = slots[0] + slots[7];
}

/*
 * 64 threads (two warps) rotate their values by half through shared
 * memory; without the barrier a warp reads the other's slots before or
 * after it writes them, whichever runs first.
 */
KERNEL void rotate_racy(const int *in, int *out)
{
    uint32_t t = threadIdx.x;

    ring[t] = in[t];                            /* racecheck: write */
    out[t] = ring[(t + 32) % 64];               /* racecheck: read */
}

KERNEL void rotate_synced(const int *in, int *out)
{
    uint32_t t = threadIdx.x;

    ring[t] = in[t];
    __syncthreads();
    out[t] = ring[(t + 32) % 64];
}

/* Half a warp adds its neighbour's value with a plain shuffle. */
KERNEL void neighbour_plain(const int *in, int *out)
{
    uint32_t t = threadIdx.x;
    int v = in[t];

    if (laneId() < 16) {
        v += __shfl_down(v, 1);                 /* synccheck */
    }
    out[t] = v;
}

KERNEL void neighbour_sync(const int *in, int *out)
{
    uint32_t t = threadIdx.x;
    int v = in[t];

    if (laneId() < 16) {
        v += __shfl_down_sync(0x0000ffffu, v, 1);
    }
    out[t] = v;
}

/*
 * Each block's thread 0 adds one to a counter, read, then written some
 * instructions later: blocks that interleave lose updates.
 */
KERNEL void count_blocks_racy(uint32_t *counter)
{
    volatile uint32_t *c = counter;

    if (threadIdx.x == 0) {
        uint32_t v = *c;

        for (volatile int k = 0; k < 4; k++) {
        }
        *c = v + 1;
    }
}

KERNEL void count_blocks_atomic(uint32_t *counter)
{
    if (threadIdx.x == 0) {
        atomicAdd(counter, 1);
    }
}
