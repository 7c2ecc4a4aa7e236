// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every identity a thread can read, written out for the host to check:
 * thread, block, block and grid dimensions in x, y and z, lane, warp,
 * warps per block, SM, and whether the cycle counter advances.
 */
#include "simt.h"

#define IDS_WORDS 17

KERNEL void ids(uint32_t *out)
{
    dim3 t = threadIdx, b = blockIdx, bd = blockDim, gd = gridDim;
    uint32_t block = (b.z * gd.y + b.y) * gd.x + b.x;
    uint32_t *o = out + (block * bd.x * bd.y * bd.z + threadLinearIdx()) *
                        IDS_WORDS;
    uint64_t start = clock64();

    o[0] = t.x;
    o[1] = t.y;
    o[2] = t.z;
    o[3] = b.x;
    o[4] = b.y;
    o[5] = b.z;
    o[6] = bd.x;
    o[7] = bd.y;
    o[8] = bd.z;
    o[9] = gd.x;
    o[10] = gd.y;
    o[11] = gd.z;
    o[12] = laneId();
    o[13] = warpId();
    o[14] = numWarps();
    o[15] = smId();
    o[16] = clock64() > start;
}
