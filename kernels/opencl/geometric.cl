/* SPDX-License-Identifier: MIT */
/*
 * Geometric functions on float, float2, float3 and float4.  length and
 * distance square and add, so components past about 1.8e19 overflow.
 */
#include "simt-cl.h"

float SIMT_OVL dot(float x, float y) { return x * y; }
float SIMT_OVL dot(float2 x, float2 y) { return x.x * y.x + x.y * y.y; }
float SIMT_OVL dot(float3 x, float3 y)
{
    return x.x * y.x + x.y * y.y + x.z * y.z;
}
float SIMT_OVL dot(float4 x, float4 y)
{
    return x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
}

float3 SIMT_OVL cross(float3 a, float3 b)
{
    return (float3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,
                    a.x * b.y - a.y * b.x);
}

float4 SIMT_OVL cross(float4 a, float4 b)
{
    return (float4)(cross(a.xyz, b.xyz), 0.0f);
}

#define SIMT_GEOMETRIC(T)                                              \
    float SIMT_OVL length(T p) { return __builtin_sqrtf(dot(p, p)); }  \
    float SIMT_OVL distance(T a, T b) { return length(a - b); }        \
    T SIMT_OVL normalize(T p)                                          \
    {                                                                  \
        float d = dot(p, p);                                           \
                                                                       \
        return d == 0.0f ? p : p / __builtin_sqrtf(d);                 \
    }                                                                  \
    float SIMT_OVL fast_length(T p) { return length(p); }              \
    float SIMT_OVL fast_distance(T a, T b) { return distance(a, b); }  \
    T SIMT_OVL fast_normalize(T p) { return normalize(p); }

SIMT_GEOMETRIC(float)
SIMT_GEOMETRIC(float2)
SIMT_GEOMETRIC(float3)
SIMT_GEOMETRIC(float4)
