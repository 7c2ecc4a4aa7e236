/* SPDX-License-Identifier: MIT */
/*
 * vloadN and vstoreN: N elements at p + offset * N, which need only be
 * aligned to the element, so they move one element at a time (the
 * optimiser merges what it can).
 */
#include "simt-cl.h"

#define SIMT_VLOAD(T, N, AS)                                           \
    T##N SIMT_OVL vload##N(size_t offset, const AS T *p)               \
    {                                                                  \
        T##N r;                                                        \
        __private T *e = (__private T *)&r;                            \
        for (int i = 0; i < N; i++) {                                  \
            e[i] = p[offset * N + i];                                  \
        }                                                              \
        return r;                                                      \
    }
#define SIMT_VSTORE(T, N, AS)                                          \
    void SIMT_OVL vstore##N(T##N data, size_t offset, AS T *p)         \
    {                                                                  \
        __private T *e = (__private T *)&data;                         \
        for (int i = 0; i < N; i++) {                                  \
            p[offset * N + i] = e[i];                                  \
        }                                                              \
    }
#define SIMT_VLOADSTORE_N(T, N)                                        \
    SIMT_VLOAD(T, N, __global) SIMT_VLOAD(T, N, __local)               \
    SIMT_VLOAD(T, N, __constant) SIMT_VLOAD(T, N, __private)           \
    SIMT_VSTORE(T, N, __global) SIMT_VSTORE(T, N, __local)             \
    SIMT_VSTORE(T, N, __private)
#define SIMT_VLOADSTORE(T) SIMT_WIDTHS(SIMT_VLOADSTORE_N, T)

SIMT_INT_TYPES(SIMT_VLOADSTORE)
SIMT_VLOADSTORE(float)
