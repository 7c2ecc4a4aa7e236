/* SPDX-License-Identifier: MIT */
/*
 * Common functions on float and its vectors; the forms taking a scalar
 * where the others are vectors splat it and call the vector form.
 */
#include "simt-cl.h"

float SIMT_OVL clamp(float x, float lo, float hi)
{
    return __builtin_fminf(__builtin_fmaxf(x, lo), hi);
}
SIMT_VEC3(float, clamp)

float SIMT_OVL degrees(float r)
{
    return r * (180.0f / M_PI_F);
}
SIMT_VEC1(float, float, degrees)

float SIMT_OVL radians(float d)
{
    return d * (M_PI_F / 180.0f);
}
SIMT_VEC1(float, float, radians)

float SIMT_OVL max(float x, float y)
{
    return __builtin_fmaxf(x, y);
}
SIMT_VEC2(float, float, float, max)
SIMT_VEC2S(float, float, float, max)

float SIMT_OVL min(float x, float y)
{
    return __builtin_fminf(x, y);
}
SIMT_VEC2(float, float, float, min)
SIMT_VEC2S(float, float, float, min)

float SIMT_OVL mix(float x, float y, float a)
{
    return x + (y - x) * a;
}
SIMT_VEC3(float, mix)

/* 1, -1, the zero itself, or 0 for a NaN */
float SIMT_OVL sign(float x)
{
    if (x > 0.0f) {
        return 1.0f;
    }
    if (x < 0.0f) {
        return -1.0f;
    }
    return x == x ? x : 0.0f;
}
SIMT_VEC1(float, float, sign)

float SIMT_OVL step(float edge, float x)
{
    return x < edge ? 0.0f : 1.0f;
}
SIMT_VEC2(float, float, float, step)

float SIMT_OVL smoothstep(float e0, float e1, float x)
{
    float t = clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);

    return t * t * (3.0f - 2.0f * t);
}
SIMT_VEC3(float, smoothstep)

#define SIMT_COMMON_SPLAT(T, N)                                        \
    T##N SIMT_OVL clamp(T##N x, T lo, T hi)                            \
    { return clamp(x, (T##N)lo, (T##N)hi); }                           \
    T##N SIMT_OVL mix(T##N x, T##N y, T a) { return mix(x, y, (T##N)a); } \
    T##N SIMT_OVL step(T edge, T##N x) { return step((T##N)edge, x); } \
    T##N SIMT_OVL smoothstep(T e0, T e1, T##N x)                       \
    { return smoothstep((T##N)e0, (T##N)e1, x); }

SIMT_WIDTHS(SIMT_COMMON_SPLAT, float)
