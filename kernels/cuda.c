// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CUDA spellings of simt.h: dim3 members, *_sync warp operations,
 * __syncwarp, typed shuffles, bit counts and rounding-mode float
 * intrinsics.
 * CUDA_WORDS words per thread.
 */
#include "simt.h"

#define CUDA_WORDS  20

SHARED int xchg[64];

KERNEL void cuda_spellings(uint32_t *out, const int *in)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t lane = threadIdx.x % warpSize, *o = out + CUDA_WORDS * i;
    const uint32_t full = 0xffffffffu;
    int x = in[i];
    float f = (float)x * 0.375f, g = (float)(lane + 3) / 7.0f;

    o[0] = gridDim.x * blockDim.x;
    o[1] = (uint32_t)__shfl_sync(full, x, 3);
    o[2] = __builtin_bit_cast(uint32_t, __shfl_xor_sync(full, f, 1));
    o[3] = __shfl_down_sync(full, (unsigned)x, 2);
    o[4] = (uint32_t)__shfl_up_sync(full, x, 1);
    o[5] = __ballot_sync(0x0000ffffu, x > 0);
    o[6] = (uint32_t)__any_sync(0xffff0000u, x == 7);
    o[7] = (uint32_t)__all_sync(0xaaaaaaaau, x % 2 == 0);
    o[8] = __activemask();
    o[9] = (uint32_t)__popc((unsigned)x);
    o[10] = (uint32_t)__clz(x);
    o[11] = (uint32_t)__ffs(x);
    o[12] = __builtin_bit_cast(uint32_t, __fadd_rz(f, g));
    o[13] = __builtin_bit_cast(uint32_t, __fmul_ru(f, g));
    o[14] = __builtin_bit_cast(uint32_t, __fdiv_rd(f, g));
    o[15] = __builtin_bit_cast(uint32_t, __fsqrt_ru(g));
    o[16] = (uint32_t)__float2int_rn(f * 3.7f);
    o[17] = __builtin_bit_cast(uint32_t, __fdividef(f, g));
    xchg[threadIdx.x] = x;
    __syncwarp();
    o[18] = (uint32_t)xchg[threadIdx.x ^ 1];
    __syncwarp(lane < 16 ? 0x0000ffffu : 0xffff0000u);
    o[19] = (uint32_t)xchg[threadIdx.x ^ 15];
}
