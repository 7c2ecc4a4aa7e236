/* SPDX-License-Identifier: MIT */
/*
 * simt.h: what a simt kernel written in C can use.
 *
 * Kernels are compiled for RV32IMAF (see kernels/meson.build); each thread
 * runs the kernel function with its arguments in a0..a7, a private stack
 * in the local window, and exits when the function returns.  Indices and
 * dimensions come from read-only CSRs, barriers, exit and warp operations
 * are custom-0 instructions, shared memory is the SIMT_SHARED_BASE window.
 * The numbers are in hw/simt/simt-isa.h, the hardware contract.
 */
#ifndef SIMT_KERNEL_H
#define SIMT_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/simt/simt-isa.h"
#include "simt-printf-buffer.h"

#define SIMT_STR_(x)    #x
#define SIMT_STR(x)     SIMT_STR_(x)

/*
 * Mark a kernel entry point: `KERNEL void name(args...)`.  The linker
 * script gathers these functions between two markers, which is how the
 * metadata tool tells kernels from helpers.  Helpers are ordinary
 * (preferably static) functions.
 */
#define KERNEL  __attribute__((section(".text.simt.kernel"), used, noinline))

/*
 * Shared memory: `SHARED float tile[16][16];` at file scope or in a
 * function's body.  Such variables live in the block's shared memory
 * window, are not initialised (their value at block start is unspecified)
 * and are the same for every thread of a block.  The metadata tool records
 * their total size.  The static is what lets the section attribute apply
 * inside a body; at file scope it keeps the variable to its file.
 */
#define SHARED  static __attribute__((section(".shared")))

/*
 * CUDA's function and variable spellings.  Every function here runs on
 * the lanes, so __device__ and __host__ (for __host__ __device__ helpers)
 * say nothing; __shared__ cannot be extern (use dynamicShared()).
 */
#define __global__          KERNEL
#define __device__
#define __host__
#define __shared__          SHARED
#define __forceinline__     __attribute__((always_inline)) inline

/*
 * Shared memory sized at launch starts here, after the static variables
 * (16-byte aligned by simt.ld): a launch with D dynamic bytes asks for the
 * note's shared_bytes + D.
 */
extern unsigned char __simt_shared_end[];
static inline void *dynamicShared(void)
{
    return __simt_shared_end;
}

/*
 * Kernel parameters are the 32-bit words in a0..a7: integers and
 * pointers.  Pass a float as its bit pattern and recover it with this.
 * (A float parameter would be expected in fa0, which the launch does not
 * set; simt-meta rejects kernels that read fa0..fa7 on entry.)
 */
static inline float argFloat(uint32_t bits)
{
    return __builtin_bit_cast(float, bits);
}

typedef struct dim3 {
    uint32_t x, y, z;
} dim3;

/*
 * Identity CSRs are constant for the life of a thread, so reads need not
 * be volatile and the compiler may reuse them.
 */
#define simt_csr_read(csr) ({                                           \
    uint32_t v_;                                                        \
    __asm__("csrr %0, " SIMT_STR(csr) : "=r"(v_));                      \
    v_;                                                                 \
})

/* Values that change while the thread runs (a block may move SM). */
#define simt_csr_read_volatile(csr) ({                                  \
    uint32_t v_;                                                        \
    __asm__ __volatile__("csrr %0, " SIMT_STR(csr) : "=r"(v_));         \
    v_;                                                                 \
})

/*
 * threadIdx, blockIdx, blockDim and gridDim as in CUDA (threadIdx.x): each
 * names a dim3 built from the CSRs; components not used are not read.
 */
#define simt_dim3_csr(x, y, z) ((dim3){ simt_csr_read(x),               \
                                        simt_csr_read(y),               \
                                        simt_csr_read(z) })
#define threadIdx   simt_dim3_csr(SIMT_CSR_TID_X, SIMT_CSR_TID_Y,        \
                                  SIMT_CSR_TID_Z)
#define blockIdx    simt_dim3_csr(SIMT_CSR_CTAID_X, SIMT_CSR_CTAID_Y,    \
                                  SIMT_CSR_CTAID_Z)
#define blockDim    simt_dim3_csr(SIMT_CSR_NTID_X, SIMT_CSR_NTID_Y,      \
                                  SIMT_CSR_NTID_Z)
#define gridDim     simt_dim3_csr(SIMT_CSR_NCTAID_X, SIMT_CSR_NCTAID_Y,  \
                                  SIMT_CSR_NCTAID_Z)
#define warpSize    SIMT_WARP_SIZE

static inline uint32_t laneId(void)
{
    return simt_csr_read(SIMT_CSR_LANEID);
}

static inline uint32_t warpId(void)
{
    return simt_csr_read(SIMT_CSR_WARPID);
}

static inline uint32_t numWarps(void)
{
    return simt_csr_read(SIMT_CSR_NWARPS);
}

static inline uint32_t smId(void)
{
    return simt_csr_read_volatile(SIMT_CSR_SMID);
}

/* The standard RISC-V user cycle counter, low and high words */
#define RISCV_CSR_CYCLE     0xc00
#define RISCV_CSR_CYCLEH    0xc80

/* The 64-bit cycle counter, read consistently. */
static inline uint64_t clock64(void)
{
    uint32_t hi, lo, hi2;

    do {
        hi = simt_csr_read_volatile(RISCV_CSR_CYCLEH);
        lo = simt_csr_read_volatile(RISCV_CSR_CYCLE);
        hi2 = simt_csr_read_volatile(RISCV_CSR_CYCLEH);
    } while (hi != hi2);
    return (uint64_t)hi << 32 | lo;
}

static inline uint32_t clock(void)
{
    return simt_csr_read_volatile(RISCV_CSR_CYCLE);
}

/* Linear thread index within the block, x fastest. */
static inline uint32_t threadLinearIdx(void)
{
    dim3 t = threadIdx, d = blockDim;

    return (t.z * d.y + t.y) * d.x + t.x;
}

/* Global x index, the usual blockIdx.x * blockDim.x + threadIdx.x. */
static inline uint32_t globalIdx(void)
{
    return blockIdx.x * blockDim.x + threadIdx.x;
}

/*
 * Block barrier: every thread of the block waits here until all
 * non-exited threads arrive; memory written before it is visible after.
 * The memory clobber keeps the compiler from moving accesses across it.
 */
static inline void __syncthreads(void)
{
    __asm__ __volatile__(".insn r " SIMT_STR(SIMT_OPC_CUSTOM0) ", "
                         SIMT_STR(SIMT_F3_BARRIER) ", 0, x0, x0, x0"
                         ::: "memory");
}

/* End this thread now (returning from the kernel does the same). */
static inline __attribute__((noreturn)) void threadExit(void)
{
    __asm__ __volatile__(".insn r " SIMT_STR(SIMT_OPC_CUSTOM0) ", "
                         SIMT_STR(SIMT_F3_EXIT) ", 0, x0, x0, x0"
                         ::: "memory");
    __builtin_unreachable();
}

/* Order this thread's memory accesses (all memory, all observers). */
static inline void __threadfence(void)
{
    __asm__ __volatile__("fence rw, rw" ::: "memory");
}

/*
 * Warp vote and shuffle over the warp's active lanes.  Like CUDA's, they
 * must be reached by the lanes that take part at the same time: keep them
 * out of divergent code, and compile with -Xclang -fconvergent-functions
 * so that clang does not copy them into divergent paths itself (a
 * convergent attribute here would not survive inlining; see
 * docs/toolchain.rst).
 */
#define simt_vote(kind, pred) ({                                        \
    uint32_t r_;                                                        \
    __asm__ __volatile__(".insn r " SIMT_STR(SIMT_OPC_CUSTOM0) ", "     \
                         SIMT_STR(SIMT_F3_VOTE) ", " SIMT_STR(kind)     \
                         ", %0, %1, x0" : "=r"(r_) : "r"(pred));        \
    r_;                                                                 \
})

#define simt_shfl(kind, val, arg) ({                                    \
    uint32_t r_;                                                        \
    __asm__ __volatile__(".insn r " SIMT_STR(SIMT_OPC_CUSTOM0) ", "     \
                         SIMT_STR(SIMT_F3_SHFL) ", " SIMT_STR(kind)     \
                         ", %0, %1, %2" : "=r"(r_)                      \
                         : "r"(val), "r"(arg));                         \
    r_;                                                                 \
})

static inline bool __any(bool p)
{
    return simt_vote(SIMT_VOTE_ANY, (uint32_t)p);
}

static inline bool __all(bool p)
{
    return simt_vote(SIMT_VOTE_ALL, (uint32_t)p);
}

static inline uint32_t __ballot(bool p)
{
    return simt_vote(SIMT_VOTE_BALLOT, (uint32_t)p);
}

/*
 * Shuffles typed by their value like CUDA's overloads: int, float, and
 * unsigned (any other integer type is shuffled as unsigned).
 */
#define SIMT_SHFL_TYPED(name, kind)                                     \
static inline unsigned simt_##name##_u(unsigned v, uint32_t arg)        \
{                                                                       \
    return simt_shfl(kind, v, arg);                                     \
}                                                                       \
static inline int simt_##name##_i(int v, uint32_t arg)                  \
{                                                                       \
    return (int)simt_shfl(kind, (uint32_t)v, arg);                      \
}                                                                       \
static inline float simt_##name##_f(float v, uint32_t arg)              \
{                                                                       \
    return __builtin_bit_cast(float, simt_shfl(kind,                    \
                              __builtin_bit_cast(uint32_t, v), arg));   \
}

SIMT_SHFL_TYPED(shfl, SIMT_SHFL_IDX)
SIMT_SHFL_TYPED(shfl_down, SIMT_SHFL_DOWN)
SIMT_SHFL_TYPED(shfl_up, SIMT_SHFL_UP)
SIMT_SHFL_TYPED(shfl_xor, SIMT_SHFL_XOR)

#define SIMT_SHFL_SELECT(name, v)                                       \
    _Generic((v), int: simt_##name##_i, float: simt_##name##_f,         \
             default: simt_##name##_u)

#define __shfl(v, lane)         SIMT_SHFL_SELECT(shfl, v)(v, lane)
#define __shfl_down(v, delta)   SIMT_SHFL_SELECT(shfl_down, v)(v, delta)
#define __shfl_up(v, delta)     SIMT_SHFL_SELECT(shfl_up, v)(v, delta)
#define __shfl_xor(v, mask)     SIMT_SHFL_SELECT(shfl_xor, v)(v, mask)
#define __shfl_down_f(v, delta) simt_shfl_down_f(v, delta)

/* The lanes executing this together. */
static inline uint32_t __activemask(void)
{
    return __ballot(true);
}

/*
 * CUDA's *_sync forms.  Each starts with a warp sync (simt.wsync): the
 * calling lane waits until every lane named in @mask that has not exited
 * has reached the same instruction, so the operation runs with all of
 * them even where min-PC scheduling had let some lanes run ahead.  The
 * sync and the operation are one asm statement, so nothing can come
 * between them.  The calling lane always takes part, whatever @mask
 * says; lanes of @mask waiting at a different warp sync, or at a block
 * barrier, are a deadlock (SIMT_FAULT_BARRIER).  Votes count only the
 * lanes of @mask.  The shuffles take CUDA's optional width (a power of
 * two up to warpSize): segments of width lanes, below.
 */
#define SIMT_WSYNC_INSN(reg)                                            \
    ".insn r " SIMT_STR(SIMT_OPC_CUSTOM0) ", " SIMT_STR(SIMT_F3_WSYNC)  \
    ", 0, x0, " reg ", x0\n\t"

#define simt_shfl_sync(kind, mask, val, arg) ({                         \
    uint32_t r_;                                                        \
    __asm__ __volatile__(SIMT_WSYNC_INSN("%1")                          \
                         ".insn r " SIMT_STR(SIMT_OPC_CUSTOM0) ", "     \
                         SIMT_STR(SIMT_F3_SHFL) ", " SIMT_STR(kind)     \
                         ", %0, %2, %3" : "=r"(r_)                      \
                         : "r"(mask), "r"(val), "r"(arg));              \
    r_;                                                                 \
})

/*
 * The source lane of a shuffle within segments of @width lanes, as CUDA
 * defines it: idx reads lane arg % width of this lane's segment; down and
 * up read this lane's value where the source leaves the segment; xor may
 * read an earlier segment but not a later one.  The hardware's kinds do
 * this for width 32 (idx once arg is taken modulo 32: the hardware gives
 * a lane outside 0..31 its own value), so a narrower shuffle is an idx
 * shuffle from here.
 */
static inline uint32_t simt_src_shfl(uint32_t arg, uint32_t width)
{
    return (laneId() & ~(width - 1)) + (arg & (width - 1));
}

static inline uint32_t simt_src_shfl_down(uint32_t arg, uint32_t width)
{
    uint32_t lane = laneId();

    return (lane & (width - 1)) + arg < width ? lane + arg : lane;
}

static inline uint32_t simt_src_shfl_up(uint32_t arg, uint32_t width)
{
    uint32_t lane = laneId();

    return (lane & (width - 1)) >= arg ? lane - arg : lane;
}

static inline uint32_t simt_src_shfl_xor(uint32_t arg, uint32_t width)
{
    uint32_t lane = laneId(), src = lane ^ arg;

    return src < (lane & ~(width - 1)) + width ? src : lane;
}

#define SIMT_SHFL_SYNC_TYPED(name, kind)                                \
static inline unsigned simt_##name##_sync_u(uint32_t mask, unsigned v,  \
                                            uint32_t arg, uint32_t width) \
{                                                                       \
    if (width == SIMT_WARP_SIZE) {                                      \
        return simt_shfl_sync(kind, mask, v, kind == SIMT_SHFL_IDX ?    \
                              arg % SIMT_WARP_SIZE : arg);              \
    }                                                                   \
    return simt_shfl_sync(SIMT_SHFL_IDX, mask, v,                       \
                          simt_src_##name(arg, width));                 \
}                                                                       \
static inline int simt_##name##_sync_i(uint32_t mask, int v,            \
                                       uint32_t arg, uint32_t width)    \
{                                                                       \
    return (int)simt_##name##_sync_u(mask, (unsigned)v, arg, width);    \
}                                                                       \
static inline float simt_##name##_sync_f(uint32_t mask, float v,        \
                                         uint32_t arg, uint32_t width)  \
{                                                                       \
    return __builtin_bit_cast(float, simt_##name##_sync_u(mask,         \
                              __builtin_bit_cast(unsigned, v), arg,     \
                              width));                                  \
}

SIMT_SHFL_SYNC_TYPED(shfl, SIMT_SHFL_IDX)
SIMT_SHFL_SYNC_TYPED(shfl_down, SIMT_SHFL_DOWN)
SIMT_SHFL_SYNC_TYPED(shfl_up, SIMT_SHFL_UP)
SIMT_SHFL_SYNC_TYPED(shfl_xor, SIMT_SHFL_XOR)

#define SIMT_SHFL_SYNC_SELECT(name, v)                                  \
    _Generic((v), int: simt_##name##_sync_i, float: simt_##name##_sync_f, \
             default: simt_##name##_sync_u)

/* An optional last macro argument, or @dflt without one. */
#define SIMT_FIRST_OF(dummy, x, ...)    x
#define SIMT_OPT_ARG(dflt, ...)         SIMT_FIRST_OF(0, ##__VA_ARGS__, dflt, 0)
#define SIMT_WIDTH(...)                 SIMT_OPT_ARG(SIMT_WARP_SIZE, ##__VA_ARGS__)

#define __shfl_sync(mask, v, lane, ...) \
    SIMT_SHFL_SYNC_SELECT(shfl, v)(mask, v, lane, SIMT_WIDTH(__VA_ARGS__))
#define __shfl_down_sync(mask, v, delta, ...) \
    SIMT_SHFL_SYNC_SELECT(shfl_down, v)(mask, v, delta, \
                                        SIMT_WIDTH(__VA_ARGS__))
#define __shfl_up_sync(mask, v, delta, ...) \
    SIMT_SHFL_SYNC_SELECT(shfl_up, v)(mask, v, delta, \
                                      SIMT_WIDTH(__VA_ARGS__))
#define __shfl_xor_sync(mask, v, lm, ...) \
    SIMT_SHFL_SYNC_SELECT(shfl_xor, v)(mask, v, lm, SIMT_WIDTH(__VA_ARGS__))

static inline uint32_t __ballot_sync(uint32_t mask, bool p)
{
    uint32_t r;

    __asm__ __volatile__(SIMT_WSYNC_INSN("%1")
                         ".insn r " SIMT_STR(SIMT_OPC_CUSTOM0) ", "
                         SIMT_STR(SIMT_F3_VOTE) ", "
                         SIMT_STR(SIMT_VOTE_BALLOT) ", %0, %2, x0"
                         : "=r"(r) : "r"(mask), "r"((uint32_t)p));
    return r & mask;
}

static inline int __any_sync(uint32_t mask, bool p)
{
    return __ballot_sync(mask, p) != 0;
}

static inline int __all_sync(uint32_t mask, bool p)
{
    return __ballot_sync(mask, !p) == 0;
}

/*
 * Wait until every lane of @mask that has not exited is here; memory
 * written before it by those lanes is visible to them after it.
 * __syncwarp() is __syncwarp(0xffffffff), as in CUDA.
 */
static inline void simt_syncwarp(uint32_t mask)
{
    __asm__ __volatile__(SIMT_WSYNC_INSN("%0") :: "r"(mask) : "memory");
}

#define __syncwarp(...) \
    simt_syncwarp(SIMT_OPT_ARG(0xffffffffu, ##__VA_ARGS__))

/* Bit counts as CUDA defines them (__clz(0) is 32, __ffs(0) is 0). */
static inline int __popc(unsigned x)
{
    return __builtin_popcount(x);
}

static inline int __clz(int x)
{
    return x ? __builtin_clz((unsigned)x) : 32;
}

static inline int __ffs(int x)
{
    return __builtin_ffs(x);
}

/* A float's bits as an integer and back, unchanged. */
static inline unsigned __float_as_uint(float x)
{
    return __builtin_bit_cast(unsigned, x);
}

static inline float __uint_as_float(unsigned x)
{
    return __builtin_bit_cast(float, x);
}

static inline int __float_as_int(float x)
{
    return __builtin_bit_cast(int, x);
}

static inline float __int_as_float(int x)
{
    return __builtin_bit_cast(float, x);
}

/*
 * min() and max() of CUDA's overloads: the arguments' common type (C's
 * usual arithmetic conversions, so int with unsigned compares unsigned,
 * as C++ overload resolution does) picks the comparison; floats are
 * fminf/fmaxf (a NaN gives the other operand).  umin/umax are unsigned.
 */
#define SIMT_MINMAX(suffix, type)                                       \
static inline type simt_minof_##suffix(type a, type b)                    \
{                                                                       \
    return b < a ? b : a;                                               \
}                                                                       \
static inline type simt_maxof_##suffix(type a, type b)                    \
{                                                                       \
    return b > a ? b : a;                                               \
}

SIMT_MINMAX(i, int)
SIMT_MINMAX(u, unsigned)
SIMT_MINMAX(l, long)
SIMT_MINMAX(ul, unsigned long)
SIMT_MINMAX(ll, long long)
SIMT_MINMAX(ull, unsigned long long)

static inline float simt_minof_f(float a, float b)
{
    return __builtin_fminf(a, b);
}

static inline float simt_maxof_f(float a, float b)
{
    return __builtin_fmaxf(a, b);
}

#define SIMT_MINMAX_SELECT(name, a, b)                                  \
    _Generic((a) + (b), int: simt_##name##_i, unsigned: simt_##name##_u, \
             long: simt_##name##_l, unsigned long: simt_##name##_ul,     \
             long long: simt_##name##_ll,                                \
             unsigned long long: simt_##name##_ull,                      \
             float: simt_##name##_f)

#define min(a, b)   SIMT_MINMAX_SELECT(minof, a, b)(a, b)
#define max(a, b)   SIMT_MINMAX_SELECT(maxof, a, b)(a, b)

static inline unsigned umin(unsigned a, unsigned b)
{
    return simt_minof_u(a, b);
}

static inline unsigned umax(unsigned a, unsigned b)
{
    return simt_maxof_u(a, b);
}

/*
 * CUDA's vector types and their make_ functions, aligned as CUDA aligns
 * them (2 elements to 8 bytes, 4 to 16, 3 to the element), so that
 * structures holding them have CUDA's layout.
 */
#define SIMT_VEC2(type, name)                                           \
typedef struct __attribute__((aligned(8))) name {                       \
    type x, y;                                                          \
} name;                                                                 \
static inline name make_##name(type x, type y)                          \
{                                                                       \
    return (name){ x, y };                                              \
}
#define SIMT_VEC3(type, name)                                           \
typedef struct name {                                                   \
    type x, y, z;                                                       \
} name;                                                                 \
static inline name make_##name(type x, type y, type z)                  \
{                                                                       \
    return (name){ x, y, z };                                           \
}
#define SIMT_VEC4(type, name)                                           \
typedef struct __attribute__((aligned(16))) name {                      \
    type x, y, z, w;                                                    \
} name;                                                                 \
static inline name make_##name(type x, type y, type z, type w)          \
{                                                                       \
    return (name){ x, y, z, w };                                        \
}

SIMT_VEC2(float, float2)
SIMT_VEC3(float, float3)
SIMT_VEC4(float, float4)
SIMT_VEC2(int, int2)
SIMT_VEC3(int, int3)
SIMT_VEC4(int, int4)
SIMT_VEC2(unsigned, uint2)
SIMT_VEC3(unsigned, uint3)
SIMT_VEC4(unsigned, uint4)

/*
 * Float intrinsics that are one RV32F instruction.  The _rn, _rz, _ru and
 * _rd forms round to nearest even, towards zero, up and down with the
 * instruction's static rounding mode; __fdividef is an exact division.
 */
#define SIMT_F_RM(rm, rv)                                               \
static inline float __fadd_##rm(float a, float b)                       \
{                                                                       \
    float r;                                                            \
    __asm__("fadd.s %0, %1, %2, " #rv : "=f"(r) : "f"(a), "f"(b));      \
    return r;                                                           \
}                                                                       \
static inline float __fsub_##rm(float a, float b)                       \
{                                                                       \
    float r;                                                            \
    __asm__("fsub.s %0, %1, %2, " #rv : "=f"(r) : "f"(a), "f"(b));      \
    return r;                                                           \
}                                                                       \
static inline float __fmul_##rm(float a, float b)                       \
{                                                                       \
    float r;                                                            \
    __asm__("fmul.s %0, %1, %2, " #rv : "=f"(r) : "f"(a), "f"(b));      \
    return r;                                                           \
}                                                                       \
static inline float __fdiv_##rm(float a, float b)                       \
{                                                                       \
    float r;                                                            \
    __asm__("fdiv.s %0, %1, %2, " #rv : "=f"(r) : "f"(a), "f"(b));      \
    return r;                                                           \
}                                                                       \
static inline float __frcp_##rm(float a)                                \
{                                                                       \
    return __fdiv_##rm(1.0f, a);                                        \
}                                                                       \
static inline float __fsqrt_##rm(float a)                               \
{                                                                       \
    float r;                                                            \
    __asm__("fsqrt.s %0, %1, " #rv : "=f"(r) : "f"(a));                 \
    return r;                                                           \
}                                                                       \
static inline float __fmaf_##rm(float a, float b, float c)              \
{                                                                       \
    float r;                                                            \
    __asm__("fmadd.s %0, %1, %2, %3, " #rv : "=f"(r)                    \
            : "f"(a), "f"(b), "f"(c));                                  \
    return r;                                                           \
}                                                                       \
static inline int __float2int_##rm(float a)                             \
{                                                                       \
    int r;                                                              \
    __asm__("fcvt.w.s %0, %1, " #rv : "=r"(r) : "f"(a));                \
    return r;                                                           \
}                                                                       \
static inline unsigned __float2uint_##rm(float a)                       \
{                                                                       \
    unsigned r;                                                         \
    __asm__("fcvt.wu.s %0, %1, " #rv : "=r"(r) : "f"(a));               \
    return r;                                                           \
}                                                                       \
static inline float __int2float_##rm(int a)                             \
{                                                                       \
    float r;                                                            \
    __asm__("fcvt.s.w %0, %1, " #rv : "=f"(r) : "r"(a));                \
    return r;                                                           \
}                                                                       \
static inline float __uint2float_##rm(unsigned a)                       \
{                                                                       \
    float r;                                                            \
    __asm__("fcvt.s.wu %0, %1, " #rv : "=f"(r) : "r"(a));               \
    return r;                                                           \
}

SIMT_F_RM(rn, rne)
SIMT_F_RM(rz, rtz)
SIMT_F_RM(ru, rup)
SIMT_F_RM(rd, rdn)

static inline float __fdividef(float a, float b)
{
    return a / b;
}

/*
 * Atomics on global or shared memory, returning the old value, for int,
 * unsigned and (atomicAdd, atomicExch) float objects, chosen by the
 * pointer's type as CUDA's overloads are.  Integer ones are single
 * amo*.w instructions; atomicCAS and float addition are lr.w/sc.w loops.
 * Like CUDA's they are relaxed: use __threadfence() for ordering.
 */
#define SIMT_ATOMIC_INT(name, builtin)                                  \
static inline int simt_##name##_i(int *p, int v)                        \
{                                                                       \
    return builtin(p, v, __ATOMIC_RELAXED);                             \
}                                                                       \
static inline unsigned simt_##name##_u(unsigned *p, unsigned v)         \
{                                                                       \
    return builtin(p, v, __ATOMIC_RELAXED);                             \
}

SIMT_ATOMIC_INT(add, __atomic_fetch_add)
SIMT_ATOMIC_INT(sub, __atomic_fetch_sub)
SIMT_ATOMIC_INT(min, __atomic_fetch_min)
SIMT_ATOMIC_INT(max, __atomic_fetch_max)
SIMT_ATOMIC_INT(and, __atomic_fetch_and)
SIMT_ATOMIC_INT(or, __atomic_fetch_or)
SIMT_ATOMIC_INT(xor, __atomic_fetch_xor)
SIMT_ATOMIC_INT(exch, __atomic_exchange_n)

static inline unsigned simt_cas_u(unsigned *p, unsigned cmp, unsigned val)
{
    __atomic_compare_exchange_n(p, &cmp, val, false, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
    return cmp;
}

static inline int simt_cas_i(int *p, int cmp, int val)
{
    return (int)simt_cas_u((unsigned *)p, (unsigned)cmp, (unsigned)val);
}

static inline float simt_add_f(float *p, float v)
{
    unsigned *w = (unsigned *)p;
    unsigned old = __atomic_load_n(w, __ATOMIC_RELAXED), seen;

    do {
        seen = old;
        old = simt_cas_u(w, seen, __builtin_bit_cast(unsigned,
                         __builtin_bit_cast(float, seen) + v));
    } while (old != seen);
    return __builtin_bit_cast(float, old);
}

static inline float simt_exch_f(float *p, float v)
{
    return __builtin_bit_cast(float, simt_exch_u((unsigned *)p,
                              __builtin_bit_cast(unsigned, v)));
}

#define SIMT_ATOMIC_SELECT(name, p)                                     \
    _Generic((p), int *: simt_##name##_i, unsigned *: simt_##name##_u)

#define atomicAdd(p, v)     _Generic((p), int *: simt_add_i,             \
                                     unsigned *: simt_add_u,             \
                                     float *: simt_add_f)(p, v)
#define atomicSub(p, v)     SIMT_ATOMIC_SELECT(sub, p)(p, v)
#define atomicMin(p, v)     SIMT_ATOMIC_SELECT(min, p)(p, v)
#define atomicMax(p, v)     SIMT_ATOMIC_SELECT(max, p)(p, v)
#define atomicAnd(p, v)     SIMT_ATOMIC_SELECT(and, p)(p, v)
#define atomicOr(p, v)      SIMT_ATOMIC_SELECT(or, p)(p, v)
#define atomicXor(p, v)     SIMT_ATOMIC_SELECT(xor, p)(p, v)
#define atomicExch(p, v)    _Generic((p), int *: simt_exch_i,            \
                                     unsigned *: simt_exch_u,            \
                                     float *: simt_exch_f)(p, v)

/* Store @val if *@p == @cmp; returns the old value either way. */
#define atomicCAS(p, cmp, val) SIMT_ATOMIC_SELECT(cas, p)(p, cmp, val)

/*
 * CUDA's wrapping counters (RV32A has no such AMO, so lr.w/sc.w loops):
 * atomicInc stores old >= limit ? 0 : old + 1, atomicDec stores
 * old == 0 || old > limit ? limit : old - 1; both return the old value.
 */
static inline unsigned atomicInc(unsigned *p, unsigned limit)
{
    unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED), seen;

    do {
        seen = old;
        old = simt_cas_u(p, seen, seen >= limit ? 0 : seen + 1);
    } while (old != seen);
    return old;
}

static inline unsigned atomicDec(unsigned *p, unsigned limit)
{
    unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED), seen;

    do {
        seen = old;
        old = simt_cas_u(p, seen, seen == 0 || seen > limit ? limit
                                                             : seen - 1);
    } while (old != seen);
    return old;
}

/*
 * Device printf, as CUDA's: each call appends a record (the format
 * string's address and the arguments) to a buffer in the image
 * (include/simt-printf-buffer.h), and the runner prints the records after
 * the kernel, in the order the calls reserved them.  Arguments are
 * converted by their type, not promoted: integers, float (printed with
 * %f, %e, %g or %a as the value it is), strings and pointers; at most
 * SIMT_PRINTF_MAX_ARGS.  Returns the number of arguments, or -1 when the
 * buffer is full (the runner reports the records lost).
 */
struct simt_printf_buffer {
    uint32_t used;
    uint32_t reserved;
    uint32_t words[(SIMT_PRINTF_BYTES - SIMT_PRINTF_HEADER) / 4];
};
extern struct simt_printf_buffer __simt_printf_buffer;

static inline __attribute__((noinline)) int
simt_printf(const char *fmt, uint32_t nargs, const uint64_t *args)
{
    uint32_t bytes = 8 + 8 * nargs, at, *r;

    /*
     * The buffer, in a comdat group so that an image gets one however
     * many of its files print, and none if they do not (the asm is
     * emitted only with this function).
     */
    __asm__(".pushsection .bss.simt.printf,\"awG\",@nobits,"
            SIMT_PRINTF_SYMBOL ",comdat\n\t"
            ".globl " SIMT_PRINTF_SYMBOL "\n\t"
            ".type " SIMT_PRINTF_SYMBOL ", @object\n\t"
            ".p2align 3\n"
            SIMT_PRINTF_SYMBOL ":\n\t"
            ".zero " SIMT_STR(SIMT_PRINTF_BYTES) "\n\t"
            ".size " SIMT_PRINTF_SYMBOL ", " SIMT_STR(SIMT_PRINTF_BYTES) "\n\t"
            ".popsection");
    at = atomicAdd(&__simt_printf_buffer.used, bytes);
    if (at > sizeof(__simt_printf_buffer.words) - bytes) {
        return -1;
    }
    r = &__simt_printf_buffer.words[at / 4];
    r[0] = (uint32_t)(uintptr_t)fmt;
    r[1] = nargs;
    for (uint32_t k = 0; k < nargs; k++) {
        r[2 + 2 * k] = (uint32_t)args[k];
        r[3 + 2 * k] = (uint32_t)(args[k] >> 32);
    }
    return (int)nargs;
}

static inline uint64_t simt_printf_signed(long long v)
{
    return (uint64_t)v;
}

static inline uint64_t simt_printf_unsigned(unsigned long long v)
{
    return v;
}

static inline uint64_t simt_printf_float(float v)
{
    return __builtin_bit_cast(uint32_t, v);
}

/* Anything else must be a pointer: a double or a struct is an error here. */
static inline uint64_t simt_printf_pointer(const volatile void *p)
{
    return (uintptr_t)p;
}

#define SIMT_PRINTF_ARG(x) _Generic((x),                                \
    float: simt_printf_float,                                           \
    _Bool: simt_printf_unsigned, char: simt_printf_signed,              \
    signed char: simt_printf_signed, unsigned char: simt_printf_unsigned, \
    short: simt_printf_signed, unsigned short: simt_printf_unsigned,    \
    int: simt_printf_signed, unsigned: simt_printf_unsigned,            \
    long: simt_printf_signed, unsigned long: simt_printf_unsigned,      \
    long long: simt_printf_signed,                                      \
    unsigned long long: simt_printf_unsigned,                           \
    default: simt_printf_pointer)(x)

/* The number of macro arguments (0 to 12) and each one converted. */
#define SIMT_NARGS(...) SIMT_NARGS_(0, ##__VA_ARGS__, 12, 11, 10, 9, 8, \
                                    7, 6, 5, 4, 3, 2, 1, 0)
#define SIMT_NARGS_(z, a, b, c, d, e, f, g, h, i, j, k, l, n, ...) n
#define SIMT_CAT_(a, b)         a##b
#define SIMT_CAT(a, b)          SIMT_CAT_(a, b)
#define SIMT_PRINTF_ARGS(...) \
    SIMT_CAT(SIMT_PRINTF_ARGS_, SIMT_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define SIMT_PRINTF_ARGS_0()
#define SIMT_PRINTF_ARGS_1(x)       SIMT_PRINTF_ARG(x)
#define SIMT_PRINTF_ARGS_2(x, ...)  SIMT_PRINTF_ARG(x), SIMT_PRINTF_ARGS_1(__VA_ARGS__)
#define SIMT_PRINTF_ARGS_3(x, ...)  SIMT_PRINTF_ARG(x), SIMT_PRINTF_ARGS_2(__VA_ARGS__)
#define SIMT_PRINTF_ARGS_4(x, ...)  SIMT_PRINTF_ARG(x), SIMT_PRINTF_ARGS_3(__VA_ARGS__)
#define SIMT_PRINTF_ARGS_5(x, ...)  SIMT_PRINTF_ARG(x), SIMT_PRINTF_ARGS_4(__VA_ARGS__)
#define SIMT_PRINTF_ARGS_6(x, ...)  SIMT_PRINTF_ARG(x), SIMT_PRINTF_ARGS_5(__VA_ARGS__)
#define SIMT_PRINTF_ARGS_7(x, ...)  SIMT_PRINTF_ARG(x), SIMT_PRINTF_ARGS_6(__VA_ARGS__)
#define SIMT_PRINTF_ARGS_8(x, ...)  SIMT_PRINTF_ARG(x), SIMT_PRINTF_ARGS_7(__VA_ARGS__)
#define SIMT_PRINTF_ARGS_9(x, ...)  SIMT_PRINTF_ARG(x), SIMT_PRINTF_ARGS_8(__VA_ARGS__)
#define SIMT_PRINTF_ARGS_10(x, ...) SIMT_PRINTF_ARG(x), SIMT_PRINTF_ARGS_9(__VA_ARGS__)
#define SIMT_PRINTF_ARGS_11(x, ...) SIMT_PRINTF_ARG(x), SIMT_PRINTF_ARGS_10(__VA_ARGS__)
#define SIMT_PRINTF_ARGS_12(x, ...) SIMT_PRINTF_ARG(x), SIMT_PRINTF_ARGS_11(__VA_ARGS__)

#define printf(fmt, ...)                                                \
    simt_printf(fmt, SIMT_NARGS(__VA_ARGS__),                           \
                (const uint64_t[SIMT_NARGS(__VA_ARGS__) + 1]){          \
                    SIMT_PRINTF_ARGS(__VA_ARGS__) })

/*
 * The lanes have no double (RV32F, no compiler-rt): the word is an error
 * where it is written ("attempt to use a poisoned identifier"), rather
 * than a link error naming no line.  Double constants mixed with floats
 * are caught by the -Werror=double-promotion of kernels/meson.build.
 */
#pragma clang poison double

#endif /* SIMT_KERNEL_H */
