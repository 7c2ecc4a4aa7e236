// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every atomic of simt.h under contention from all threads of the grid,
 * on global memory and on shared memory, with results that do not depend
 * on the order the threads got there.
 */
#include "simt.h"

SHARED int block_count;

KERNEL void atomics(int *r, uint32_t n)
{
    int t = (int)globalIdx(), seen, old;

    if (threadIdx.x == 0) {
        block_count = 0;
    }
    __syncthreads();
    atomicAdd(&block_count, 1);
    __syncthreads();
    if ((uint32_t)t >= n) {
        return;
    }
    atomicAdd(&r[0], t);
    atomicSub(&r[1], t);
    atomicMin(&r[2], t - 500);
    atomicMax(&r[3], 3 * t);
    atomicMin((unsigned *)&r[4], (unsigned)t + 7);
    atomicMax((unsigned *)&r[5], (unsigned)t);
    atomicOr(&r[6], 1 << (t & 31));
    atomicAnd(&r[7], ~(1 << (t & 31)));
    atomicXor(&r[8], t);
    old = atomicExch(&r[9], t);
    atomicAdd(&r[10 + (old & 1)], 1);
    seen = r[12];
    while ((old = atomicCAS(&r[12], seen, seen + 2)) != seen) {
        seen = old;
    }
    atomicAdd((float *)&r[13], 0.5f);
    if (threadIdx.x == 0) {
        atomicAdd(&r[14], block_count);
    }
}
