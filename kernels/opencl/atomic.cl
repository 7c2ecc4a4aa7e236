/* SPDX-License-Identifier: MIT */
/*
 * 32-bit atomics, global and local, int and uint: RV32A's AMOs
 * (amoadd, amoswap, amoand, amoor, amoxor, amomin[u], amomax[u]) and an
 * LR/SC loop for cmpxchg, through clang's __atomic built-ins; relaxed,
 * as OpenCL 1.2 atomics are.  Both spellings: atomic_* (OpenCL 1.1) and
 * atom_* (the cl_khr_*_int32_*_atomics extensions).
 */
#include "simt-cl.h"

#define SIMT_ATOMIC_RMW(NAME, T, AS, EXPR)                             \
    T SIMT_OVL atomic_##NAME(volatile AS T *p, T v) { return EXPR; }   \
    T SIMT_OVL atom_##NAME(volatile AS T *p, T v) { return EXPR; }

#define SIMT_ATOMIC_AS_T(AS, T)                                        \
    SIMT_ATOMIC_RMW(add, T, AS, __atomic_fetch_add(p, v, __ATOMIC_RELAXED)) \
    SIMT_ATOMIC_RMW(sub, T, AS, __atomic_fetch_sub(p, v, __ATOMIC_RELAXED)) \
    SIMT_ATOMIC_RMW(xchg, T, AS, __atomic_exchange_n(p, v, __ATOMIC_RELAXED)) \
    SIMT_ATOMIC_RMW(min, T, AS, __atomic_fetch_min(p, v, __ATOMIC_RELAXED)) \
    SIMT_ATOMIC_RMW(max, T, AS, __atomic_fetch_max(p, v, __ATOMIC_RELAXED)) \
    SIMT_ATOMIC_RMW(and, T, AS, __atomic_fetch_and(p, v, __ATOMIC_RELAXED)) \
    SIMT_ATOMIC_RMW(or, T, AS, __atomic_fetch_or(p, v, __ATOMIC_RELAXED)) \
    SIMT_ATOMIC_RMW(xor, T, AS, __atomic_fetch_xor(p, v, __ATOMIC_RELAXED)) \
    T SIMT_OVL atomic_inc(volatile AS T *p)                            \
    { return __atomic_fetch_add(p, 1, __ATOMIC_RELAXED); }             \
    T SIMT_OVL atom_inc(volatile AS T *p)                              \
    { return __atomic_fetch_add(p, 1, __ATOMIC_RELAXED); }             \
    T SIMT_OVL atomic_dec(volatile AS T *p)                            \
    { return __atomic_fetch_sub(p, 1, __ATOMIC_RELAXED); }             \
    T SIMT_OVL atom_dec(volatile AS T *p)                              \
    { return __atomic_fetch_sub(p, 1, __ATOMIC_RELAXED); }             \
    T SIMT_OVL atomic_cmpxchg(volatile AS T *p, T cmp, T v)            \
    {                                                                  \
        __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, \
                                    __ATOMIC_RELAXED);                 \
        return cmp;                                                    \
    }                                                                  \
    T SIMT_OVL atom_cmpxchg(volatile AS T *p, T cmp, T v)              \
    {                                                                  \
        return atomic_cmpxchg(p, cmp, v);                              \
    }

#define SIMT_ATOMIC_AS(AS)                                             \
    SIMT_ATOMIC_AS_T(AS, int)                                          \
    SIMT_ATOMIC_AS_T(AS, uint)                                         \
    float SIMT_OVL atomic_xchg(volatile AS float *p, float v)          \
    {                                                                  \
        return as_float(__atomic_exchange_n((volatile AS uint *)p,     \
                                            as_uint(v), __ATOMIC_RELAXED)); \
    }

SIMT_ATOMIC_AS(__global)
SIMT_ATOMIC_AS(__local)
