// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * More of CUDA's device vocabulary in simt.h: __global__/__device__,
 * __shared__ and SHARED inside a kernel's body, float/int bit casts,
 * min/max/umin/umax, the vector types, atomicInc/atomicDec and shuffles
 * with a width.  Checked by tests/kernels/test-c-kernels.c.
 */
#include "simt.h"

/* A __device__ helper called from __global__ kernels. */
__device__ int reversed_index(int t, int n)
{
    return n - 1 - t;
}

/*
 * Each block reverses its slice of @in into @out through a __shared__
 * array, and counts its threads with odd input in a SHARED counter; both
 * are declared in the body.  counts[blockIdx.x] gets the count.
 */
__global__ void vocab_shared(int *out, const int *in, unsigned *counts)
{
    __shared__ int tile[64];
    SHARED unsigned odd;
    int t = (int)threadIdx.x, n = (int)blockDim.x;
    uint32_t i = globalIdx();

    if (t == 0) {
        odd = 0;
    }
    tile[t] = in[i];
    __syncthreads();
    out[i] = tile[reversed_index(t, n)];
    if (in[i] & 1) {
        atomicAdd(&odd, 1u);
    }
    __syncthreads();
    if (t == 0) {
        counts[blockIdx.x] = odd;
    }
}

#define VOCAB_BITS_WORDS    16

/* Bit casts and min/max of @a, @b (two ints) and @f (floats, NaNs). */
__global__ void vocab_bits_minmax(uint32_t *out, const int *a, const int *b,
                                  const float *f)
{
    uint32_t i = globalIdx(), *o = out + VOCAB_BITS_WORDS * i;
    int x = a[i], y = b[i];
    float g = f[2 * i], h = f[2 * i + 1];
    long long wide = (long long)x << 20;

    o[0] = __float_as_uint(g);
    o[1] = __float_as_uint(__uint_as_float((unsigned)x));
    o[2] = (uint32_t)__float_as_int(h);
    o[3] = __float_as_uint(__int_as_float(y));
    o[4] = (uint32_t)min(x, y);
    o[5] = (uint32_t)max(x, y);
    o[6] = min((unsigned)x, (unsigned)y);
    o[7] = max(x, (unsigned)y);                 /* compares unsigned */
    o[8] = __float_as_uint(min(g, h));
    o[9] = __float_as_uint(max(g, h));
    o[10] = umin((unsigned)x, (unsigned)y);
    o[11] = umax((unsigned)x, (unsigned)y);
    o[12] = (uint32_t)min(wide, (long long)y);
    o[13] = (uint32_t)(max(wide, (long long)y) >> 32);
    o[14] = (uint32_t)min((short)x, (short)y);  /* promoted to int */
    o[15] = min(i, 7u);
}

/*
 * The vector types: @in holds a float4 and a uint4 per thread, @out gets
 * a float4, an int2, a float3 and a uint2 computed from them, then the
 * sizes and alignments of the types.
 */
#define VOCAB_VEC_WORDS 20

__global__ void vocab_vectors(uint32_t *out, const float4 *fin,
                              const uint4 *uin)
{
    uint32_t i = globalIdx(), *o = out + VOCAB_VEC_WORDS * i;
    float4 a = fin[i];
    uint4 u = uin[i];
    float4 r = make_float4(a.w, a.z * 2.0f, a.y + a.x, -a.x);
    int2 d = make_int2((int)u.x - (int)u.y, (int)(u.z ^ u.w));
    float3 c = make_float3(a.x * a.y, a.z, (float)u.w);
    uint2 e = make_uint2(u.w, u.x + 1);
    int4 q = make_int4(1, 2, 3, 4);
    int3 p = make_int3(5, 6, 7);
    uint3 s = make_uint3(8, 9, 10);
    float2 h = make_float2(0.5f, 0.25f);

    *(float4 *)o = r;
    *(int2 *)(o + 4) = d;
    o[6] = __float_as_uint(c.x);
    o[7] = __float_as_uint(c.y);
    o[8] = __float_as_uint(c.z);
    o[9] = e.x;
    o[10] = e.y;
    o[11] = (uint32_t)(q.x + q.y * q.z * q.w + p.x * p.y * p.z) + s.x * s.z
            + s.y + __float_as_uint(h.x + h.y);
    o[12] = sizeof(float2) | _Alignof(float2) << 8;
    o[13] = sizeof(float3) | _Alignof(float3) << 8;
    o[14] = sizeof(float4) | _Alignof(float4) << 8;
    o[15] = sizeof(int2) | _Alignof(int2) << 8;
    o[16] = sizeof(int3) | _Alignof(int3) << 8;
    o[17] = sizeof(int4) | _Alignof(int4) << 8;
    o[18] = sizeof(uint2) | _Alignof(uint2) << 8;
    o[19] = sizeof(uint4) | _Alignof(uint4) << 8;
}

/*
 * atomicInc/atomicDec from every thread: counters[0] and [1] in global
 * memory with limits @inc_limit and @dec_limit, the same in shared memory
 * (starting from counters[2] and [3], copied back at the end of each
 * block to counters[4 + 2 * block] and [5 + 2 * block]).  @olds gets each
 * thread's four old values.
 */
__global__ void vocab_atomic_wrap(unsigned *counters, unsigned *olds,
                                  unsigned inc_limit, unsigned dec_limit)
{
    __shared__ unsigned inc, dec;
    uint32_t i = globalIdx(), t = threadIdx.x;

    if (t == 0) {
        inc = counters[2];
        dec = counters[3];
    }
    __syncthreads();
    olds[4 * i] = atomicInc(&counters[0], inc_limit);
    olds[4 * i + 1] = atomicDec(&counters[1], dec_limit);
    olds[4 * i + 2] = atomicInc(&inc, inc_limit);
    olds[4 * i + 3] = atomicDec(&dec, dec_limit);
    __syncthreads();
    if (t == 0) {
        counters[4 + 2 * blockIdx.x] = inc;
        counters[5 + 2 * blockIdx.x] = dec;
    }
}

/*
 * Shuffles with a width, for each width of @widths (read at run time) and
 * with constant widths: VOCAB_SHFL_WORDS words per thread.
 */
#define VOCAB_NWIDTHS       5
#define VOCAB_SHFL_WORDS    (6 * VOCAB_NWIDTHS + 3)

__global__ void vocab_shfl_width(uint32_t *out, const int *in,
                                 const uint32_t *widths)
{
    const uint32_t full = 0xffffffffu;
    uint32_t i = globalIdx(), lane = laneId(), *o;
    int x = in[i];
    float f = (float)x * 0.5f;

    o = out + VOCAB_SHFL_WORDS * i;
    for (uint32_t k = 0; k < VOCAB_NWIDTHS; k++) {
        uint32_t w = widths[k];

        o[0] = (uint32_t)__shfl_sync(full, x, lane * 7 + 3, w);
        o[1] = (uint32_t)__shfl_up_sync(full, x, k + 1, w);
        o[2] = (uint32_t)__shfl_down_sync(full, x, k + 1, w);
        o[3] = (uint32_t)__shfl_xor_sync(full, x, w | 1, w);
        o[4] = __float_as_uint(__shfl_xor_sync(full, f, w / 2, w));
        o[5] = __shfl_down_sync(full, (unsigned)x, w - 1, w);
        o += 6;
    }
    o[0] = (uint32_t)__shfl_xor_sync(full, x, 1, 16);
    o[1] = (uint32_t)__shfl_sync(full, x, 5, 8);
    o[2] = (uint32_t)__shfl_down_sync(full, x, 3);
}
