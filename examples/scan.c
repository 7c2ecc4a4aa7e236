/* SPDX-License-Identifier: MIT */
/*
 * Inclusive prefix sum, two passes (examples/test-examples.c):
 *   pass 1  scan_blocks: each block scans SCAN_BLOCK elements in shared
 *           memory (Hillis-Steele) and writes its total to sums[];
 *   pass 2  the host scans sums[] with the same kernel (recursively, while
 *           there is more than one block), then add_offsets adds the
 *           scanned total of the blocks before to every element.
 */
#include <simt.h>

#define SCAN_BLOCK 256

SHARED int tmp[SCAN_BLOCK];

KERNEL void scan_blocks(const int *in, int *out, int *sums, uint32_t n)
{
    uint32_t t = threadIdx.x;
    uint32_t i = blockIdx.x * blockDim.x + t;

    /* Threads past the end take part in the barriers with a 0. */
    tmp[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (uint32_t off = 1; off < blockDim.x; off <<= 1) {
        int x = t >= off ? tmp[t - off] : 0;
        __syncthreads();
        tmp[t] += x;
        __syncthreads();
    }
    if (i < n)
        out[i] = tmp[t];
    if (t == blockDim.x - 1)
        sums[blockIdx.x] = tmp[t];
}

/* data[i] += scanned[block - 1]: the sum of every earlier block. */
KERNEL void add_offsets(int *data, const int *scanned, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i >= n || blockIdx.x == 0)
        return;
    data[i] += scanned[blockIdx.x - 1];
}
