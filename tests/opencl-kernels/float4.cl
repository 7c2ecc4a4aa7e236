// SPDX-License-Identifier: GPL-2.0-or-later
// Vector and struct arguments by value, swizzles, vector built-ins.
struct affine {
    float scale;
    int shift;
    float2 bias;
};

__kernel void swizzle(__global const float4 *in, __global float4 *out,
                      float4 k, int2 pick, struct affine t, char tag,
                      __global int *ints)
{
    size_t i = get_global_id(0);
    float4 v = in[i];

    // reversed, scaled by k, plus the bias in .xy and k.w in .zw
    out[i] = v.wzyx * k + (float4)(t.bias, k.ww) * t.scale;
    if (i == 0) {
        ints[0] = pick.y - pick.x + t.shift;
        ints[1] = tag;
        ints[2] = (int)dot(k, (float4)(1.0f));
        ints[3] = any(v.xy > (float2)(1000.0f));
        float3 c = cross(k.xyz, (float3)(0.0f, 0.0f, 1.0f));
        ints[4] = (int)c.x;
        ints[5] = (int)c.y;
        int4 s = select((int4)(1, 2, 3, 4), (int4)(-1), (int4)(0, -1, 0, -1));
        ints[6] = s.x + s.y + s.z + s.w;
        ints[7] = (int)clamp(k.x * 100.0f, 0.0f, 50.0f);
    }
}
