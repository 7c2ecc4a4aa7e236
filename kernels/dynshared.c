// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shared memory sized at launch: each block reverses its slice of the
 * input through a dynamicShared() buffer of blockDim.x words.
 */
#include "simt.h"

KERNEL void dynshared(const uint32_t *in, uint32_t *out)
{
    uint32_t *buf = dynamicShared();
    uint32_t t = threadIdx.x, n = blockDim.x, i = globalIdx();

    buf[t] = in[i];
    __syncthreads();
    out[i] = buf[n - 1 - t];
}
