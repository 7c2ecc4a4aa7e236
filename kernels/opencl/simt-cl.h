/* SPDX-License-Identifier: MIT */
/*
 * simt-cl.h: what the OpenCL C built-ins library (the .cl files of
 * kernels/opencl) shares: the device's CSRs and argument block, the
 * float functions of kernels/simt-math.c it calls, and the macros that
 * make the vector overloads of a function from its narrower ones.  Not
 * for kernels.
 */
#ifndef SIMT_CL_H
#define SIMT_CL_H

#include "hw/simt/simt-clargs.h"
#include "hw/simt/simt-isa.h"

/* Each built-in overloads the declarations of clang's opencl-c.h. */
#define SIMT_OVL            __attribute__((overloadable))

#define SIMT_CL_STR_(x)     #x
#define SIMT_CL_STR(x)      SIMT_CL_STR_(x)

/* An identity CSR: constant for the thread, so the read may be reused. */
#define SIMT_CL_CSR(csr) ({                                            \
    uint v_;                                                           \
    __asm__("csrr %0, " SIMT_CL_STR(csr) : "=r"(v_));                  \
    v_;                                                                \
})

/*
 * The launch's argument block header, whose address the kernel's entry
 * put in tp.  Volatile so that no read is scheduled before the entry
 * sets tp (the set is an asm the compiler knows nothing about).
 */
static inline const __global struct simt_cl_block_header *simt_cl_header(void)
{
    const __global struct simt_cl_block_header *h;

    __asm__ __volatile__("mv %0, tp" : "=r"(h));
    return h;
}

/* kernels/simt-math.c, linked from libsimt-math.a (kernels/include/math.h) */
float expf(float x);
float exp2f(float x);
float expm1f(float x);
float logf(float x);
float log2f(float x);
float powf(float x, float y);
float sinf(float x);
float cosf(float x);
float tanf(float x);
float atanf(float x);
float atan2f(float y, float x);
float tanhf(float x);
float erff(float x);
float floorf(float x);
float ceilf(float x);
float truncf(float x);
float roundf(float x);
float fmodf(float x, float y);

/*
 * Vector overloads, componentwise: a 2-vector from two scalar calls, a
 * 4-, 8- or 16-vector from two calls on its halves (which the macro has
 * just defined), a 3-vector from three scalar calls.  RT is the result's
 * scalar type, T (and U) the arguments'.
 */
#define SIMT_VEC1(RT, T, F)                                            \
    RT##2 SIMT_OVL F(T##2 x) { return (RT##2)(F(x.lo), F(x.hi)); }     \
    RT##3 SIMT_OVL F(T##3 x)                                           \
    { return (RT##3)(F(x.s0), F(x.s1), F(x.s2)); }                     \
    RT##4 SIMT_OVL F(T##4 x) { return (RT##4)(F(x.lo), F(x.hi)); }     \
    RT##8 SIMT_OVL F(T##8 x) { return (RT##8)(F(x.lo), F(x.hi)); }     \
    RT##16 SIMT_OVL F(T##16 x) { return (RT##16)(F(x.lo), F(x.hi)); }

#define SIMT_VEC2(RT, T, U, F)                                         \
    RT##2 SIMT_OVL F(T##2 x, U##2 y)                                   \
    { return (RT##2)(F(x.lo, y.lo), F(x.hi, y.hi)); }                  \
    RT##3 SIMT_OVL F(T##3 x, U##3 y)                                   \
    { return (RT##3)(F(x.s0, y.s0), F(x.s1, y.s1), F(x.s2, y.s2)); }   \
    RT##4 SIMT_OVL F(T##4 x, U##4 y)                                   \
    { return (RT##4)(F(x.lo, y.lo), F(x.hi, y.hi)); }                  \
    RT##8 SIMT_OVL F(T##8 x, U##8 y)                                   \
    { return (RT##8)(F(x.lo, y.lo), F(x.hi, y.hi)); }                  \
    RT##16 SIMT_OVL F(T##16 x, U##16 y)                                \
    { return (RT##16)(F(x.lo, y.lo), F(x.hi, y.hi)); }

/* The second argument a scalar: fmax(float4, float), ldexp(float4, int) */
#define SIMT_VEC2S(RT, T, U, F)                                        \
    RT##2 SIMT_OVL F(T##2 x, U y) { return (RT##2)(F(x.lo, y), F(x.hi, y)); } \
    RT##3 SIMT_OVL F(T##3 x, U y)                                      \
    { return (RT##3)(F(x.s0, y), F(x.s1, y), F(x.s2, y)); }            \
    RT##4 SIMT_OVL F(T##4 x, U y) { return (RT##4)(F(x.lo, y), F(x.hi, y)); } \
    RT##8 SIMT_OVL F(T##8 x, U y) { return (RT##8)(F(x.lo, y), F(x.hi, y)); } \
    RT##16 SIMT_OVL F(T##16 x, U y)                                    \
    { return (RT##16)(F(x.lo, y), F(x.hi, y)); }

#define SIMT_VEC3(T, F)                                                \
    T##2 SIMT_OVL F(T##2 x, T##2 y, T##2 z)                            \
    { return (T##2)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi)); }       \
    T##3 SIMT_OVL F(T##3 x, T##3 y, T##3 z)                            \
    { return (T##3)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1),          \
                    F(x.s2, y.s2, z.s2)); }                            \
    T##4 SIMT_OVL F(T##4 x, T##4 y, T##4 z)                            \
    { return (T##4)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi)); }       \
    T##8 SIMT_OVL F(T##8 x, T##8 y, T##8 z)                            \
    { return (T##8)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi)); }       \
    T##16 SIMT_OVL F(T##16 x, T##16 y, T##16 z)                        \
    { return (T##16)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi)); }

/*
 * A function returning a second result through a pointer (sincos,
 * fract): the __private vector overloads from narrower ones through
 * private temporaries, then the __global and __local overloads of
 * every width through the __private ones.
 */
#define SIMT_VECPTR_N(T, N, H, F)                                      \
    T##N SIMT_OVL F(T##N x, __private T##N *p)                         \
    {                                                                  \
        H a, b;                                                        \
        T##N r = (T##N)(F(x.lo, &a), F(x.hi, &b));                     \
        *p = (T##N)(a, b);                                             \
        return r;                                                      \
    }
#define SIMT_VECPTR_AS(T, F, AS)                                       \
    T SIMT_OVL F(T x, AS T *p) { T v; T r = F(x, &v); *p = v; return r; }
#define SIMT_VECPTR_AS_ALL(T, F, AS)                                   \
    SIMT_VECPTR_AS(T, F, AS) SIMT_VECPTR_AS(T##2, F, AS)               \
    SIMT_VECPTR_AS(T##3, F, AS) SIMT_VECPTR_AS(T##4, F, AS)            \
    SIMT_VECPTR_AS(T##8, F, AS) SIMT_VECPTR_AS(T##16, F, AS)
#define SIMT_VECPTR(T, F)                                              \
    SIMT_VECPTR_N(T, 2, T, F)                                          \
    T##3 SIMT_OVL F(T##3 x, __private T##3 *p)                         \
    {                                                                  \
        T a, b, c;                                                     \
        T##3 r = (T##3)(F(x.s0, &a), F(x.s1, &b), F(x.s2, &c));        \
        *p = (T##3)(a, b, c);                                          \
        return r;                                                      \
    }                                                                  \
    SIMT_VECPTR_N(T, 4, T##2, F) SIMT_VECPTR_N(T, 8, T##4, F)          \
    SIMT_VECPTR_N(T, 16, T##8, F)                                      \
    SIMT_VECPTR_AS_ALL(T, F, __global) SIMT_VECPTR_AS_ALL(T, F, __local)

/*
 * M(T) for every scalar integer type, and M(T, N) for a scalar type and
 * every vector width.
 */
#define SIMT_INT_TYPES(M)                                              \
    M(char) M(uchar) M(short) M(ushort) M(int) M(uint) M(long) M(ulong)
#define SIMT_WIDTHS(M, T) M(T, 2) M(T, 3) M(T, 4) M(T, 8) M(T, 16)

#endif /* SIMT_CL_H */
