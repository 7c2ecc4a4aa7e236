/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * OpenCL C kernels compiled by simt-cc, run on the warp interpreter
 * through libsimt: each launch's argument block is built from the
 * image's .simt.clargs section (tools/simt-cc/simt-clargs.c) as a
 * runtime would, and the results are checked against host references.
 * TAP.
 *
 * Usage: test-opencl IMAGE-DIR [PREFIX]   (PREFIXvadd.elf,
 * PREFIXmatmul.elf, ... from tests/opencl-kernels/meson.build)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm/simt_accel.h>

#include "libsimt.h"
#include "simt-clargs-reader.h"
#include "../tap.h"

static const char *image_dir, *image_prefix = "";
static simt_context *ctx;

/* One kernel of an image, and the argument block being built for it. */
struct cl_launch {
    simt_module *mod;
    simt_kernel *kernel;
    struct simt_elf elf;
    struct simt_clargs ca;
    const struct simt_clkernel *k;
    uint8_t block[1024];
    uint32_t static_shared;
    uint32_t dynamic_shared;    /* __local buffers so far */
};

static bool cl_open(struct cl_launch *l, const char *image, const char *name)
{
    struct simt_kernel_attrs attrs;
    char path[4096], err[512];
    int found;

    memset(l, 0, sizeof(*l));
    snprintf(path, sizeof(path), "%s/%s%s.elf", image_dir, image_prefix,
             image);
    if (simt_module_load(ctx, path, &l->mod) ||
        simt_module_get_kernel(l->mod, name, &l->kernel)) {
        tap_diag("%s", simt_last_error());
        return false;
    }
    if (simt_elf_read_file(&l->elf, path, err, sizeof(err)) < 0 ||
        (found = simt_clargs_read(&l->ca, &l->elf, err, sizeof(err))) < 0) {
        tap_diag("%s", err);
        return false;
    }
    l->k = found ? simt_clargs_kernel(&l->ca, name) : NULL;
    if (!l->k || l->k->block_size > sizeof(l->block)) {
        tap_diag("%s: no argument information for %s", path, name);
        return false;
    }
    simt_kernel_get_attrs(l->kernel, &attrs);
    l->static_shared = attrs.shared_bytes;
    ((struct simt_cl_block_header *)l->block)->work_dim = 1;
    return true;
}

static void cl_close(struct cl_launch *l)
{
    simt_clargs_free(&l->ca);
    simt_elf_free(&l->elf);
    simt_module_unload(l->mod);
}

static struct simt_cl_block_header *cl_header(struct cl_launch *l)
{
    return (struct simt_cl_block_header *)l->block;
}

static bool cl_arg_value(struct cl_launch *l, uint32_t i, const void *v,
                         uint32_t size)
{
    const struct simt_clarg *a = &l->k->args[i];

    if (i >= l->k->nargs || a->kind != SIMT_CLARG_VALUE || a->size != size) {
        tap_diag("%s: argument %u is not a value of %u bytes", l->k->name, i,
                 size);
        return false;
    }
    memcpy(l->block + a->offset, v, size);
    return true;
}

static bool cl_arg_buffer(struct cl_launch *l, uint32_t i, simt_buffer *buf)
{
    uint32_t addr = simt_buffer_addr(buf);

    if (i >= l->k->nargs || l->k->args[i].kind != SIMT_CLARG_POINTER) {
        tap_diag("%s: argument %u is not a pointer", l->k->name, i);
        return false;
    }
    memcpy(l->block + l->k->args[i].offset, &addr, 4);
    return true;
}

/* A __local buffer: its address in the shared window, after the others. */
static bool cl_arg_local(struct cl_launch *l, uint32_t i, uint32_t bytes)
{
    uint32_t addr = SIMT_SHARED_BASE + l->static_shared + l->dynamic_shared;

    if (i >= l->k->nargs || l->k->args[i].kind != SIMT_CLARG_LOCAL) {
        tap_diag("%s: argument %u is not a __local pointer", l->k->name, i);
        return false;
    }
    memcpy(l->block + l->k->args[i].offset, &addr, 4);
    l->dynamic_shared += (bytes + SIMT_CL_LOCAL_ALIGN - 1) &
                         ~(SIMT_CL_LOCAL_ALIGN - 1);
    return true;
}

static bool cl_run(struct cl_launch *l, simt_dim3 grid, simt_dim3 block)
{
    simt_buffer *blk;
    uint32_t arg;
    uint64_t seq;
    bool ok;

    if (simt_mem_alloc(ctx, l->k->block_size, &blk) ||
        simt_memcpy_htod(blk, 0, l->block, l->k->block_size)) {
        tap_diag("%s", simt_last_error());
        return false;
    }
    arg = simt_buffer_addr(blk);
    ok = !simt_launch(l->kernel, grid, block, l->dynamic_shared, &arg, 1,
                      &seq) && !simt_wait(ctx, seq, -1, NULL);
    if (!ok) {
        tap_diag("%s: %s", l->k->name, simt_last_error());
    }
    simt_mem_free(blk);
    return ok;
}

static simt_buffer *buffer(const void *data, size_t size)
{
    simt_buffer *b;

    if (simt_mem_alloc(ctx, size, &b)) {
        printf("Bail out! %s\n", simt_last_error());
        exit(1);
    }
    if (data) {
        simt_memcpy_htod(b, 0, data, size);
    } else {
        void *zero = calloc(1, size);

        simt_memcpy_htod(b, 0, zero, size);
        free(zero);
    }
    return b;
}

static void read_back(void *dst, simt_buffer *b, size_t size)
{
    simt_memcpy_dtoh(dst, b, 0, size);
}

/* The deterministic inputs: a small LCG. */
static uint32_t lcg_state = 12345;

static uint32_t lcg(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state >> 8;
}

static void test_arg_info(void)
{
    struct cl_launch l;
    const struct simt_clarg *a;
    bool ok;

    if (!tap_check(cl_open(&l, "float4", "swizzle"), "float4.elf loads, "
                   "argument information found")) {
        return;
    }
    a = l.k->args;
    ok = l.k->nargs == 7 && l.k->block_header_size == 16;
    /* in, out: pointers at 16 and 20; k: float4 aligned to 16 */
    ok = ok && !strcmp(a[0].name, "in") && !strcmp(a[0].type_name, "float4*") &&
         a[0].kind == SIMT_CLARG_POINTER &&
         a[0].address_qual == SIMT_CLARG_ADDRESS_GLOBAL &&
         a[0].type_qual == SIMT_CLARG_TYPE_CONST && a[0].offset == 16 &&
         a[0].size == 4;
    ok = ok && a[1].offset == 20 && a[1].type_qual == 0;
    ok = ok && !strcmp(a[2].name, "k") && !strcmp(a[2].type_name, "float4") &&
         a[2].kind == SIMT_CLARG_VALUE && a[2].offset == 32 &&
         a[2].size == 16 && a[2].align == 16;
    ok = ok && !strcmp(a[3].type_name, "int2") && a[3].offset == 48 &&
         a[3].size == 8;
    ok = ok && !strcmp(a[4].type_name, "struct affine") && a[4].offset == 56 &&
         a[4].size == 16 && a[4].align == 8;
    ok = ok && !strcmp(a[5].type_name, "char") && a[5].offset == 72 &&
         a[5].size == 1;
    ok = ok && a[6].offset == 76 && l.k->block_size == 80 &&
         l.k->block_align == 16;
    if (!ok) {
        uint32_t i;

        for (i = 0; i < l.k->nargs; i++) {
            tap_diag("arg %u %s %s kind %u as %u qual %u at %u size %u align %u",
                     i, a[i].name, a[i].type_name, a[i].kind, a[i].address_qual,
                     a[i].type_qual, a[i].offset, a[i].size, a[i].align);
        }
    }
    tap_check(ok, "swizzle: names, types, qualifiers, offsets, sizes and "
              "alignments of its 7 arguments");
    cl_close(&l);

    if (cl_open(&l, "reduce", "reduce")) {
        a = l.k->args;
        tap_check(l.k->nargs == 4 && a[2].kind == SIMT_CLARG_LOCAL &&
                  a[2].address_qual == SIMT_CLARG_ADDRESS_LOCAL &&
                  !strcmp(a[2].name, "scratch") &&
                  !strcmp(a[3].type_name, "uint"),
                  "reduce: the __local float* argument is kind LOCAL");
        cl_close(&l);
    }
}

static void test_vadd(void)
{
    enum { N = 1000 };
    static float a[N], b[N], c[N];
    struct cl_launch l;
    simt_buffer *ba, *bb, *bc;
    uint32_t n = N, i, bad = 0;

    for (i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = 0.5f * (float)(lcg() % 1000);
    }
    ba = buffer(a, sizeof(a));
    bb = buffer(b, sizeof(b));
    bc = buffer(NULL, sizeof(c));
    if (!cl_open(&l, "vadd", "vadd") || !cl_arg_buffer(&l, 0, ba) ||
        !cl_arg_buffer(&l, 1, bb) || !cl_arg_buffer(&l, 2, bc) ||
        !cl_arg_value(&l, 3, &n, 4) ||
        !cl_run(&l, (simt_dim3){ 16, 1, 1 }, (simt_dim3){ 64, 1, 1 })) {
        tap_check(false, "vadd: c = a + b over 1000 floats");
        return;
    }
    read_back(c, bc, sizeof(c));
    for (i = 0; i < N; i++) {
        bad += c[i] != a[i] + b[i];
    }
    tap_check(!bad, "vadd: c = a + b over 1000 floats (%u wrong)", bad);

    /* again from global offset 600 with b doubled: the first 600 stay */
    for (i = 0; i < N; i++) {
        b[i] *= 2.0f;
    }
    simt_memcpy_htod(bb, 0, b, sizeof(b));
    cl_header(&l)->global_offset[0] = 600;
    bad = 0;
    if (cl_run(&l, (simt_dim3){ 7, 1, 1 }, (simt_dim3){ 64, 1, 1 })) {
        read_back(c, bc, sizeof(c));
        for (i = 0; i < N; i++) {
            bad += c[i] != a[i] + (i < 600 ? b[i] / 2.0f : b[i]);
        }
    } else {
        bad = N;
    }
    tap_check(!bad, "vadd: get_global_id adds the block's global offset "
              "(%u wrong)", bad);
    cl_close(&l);
}

static void test_matmul(void)
{
    enum { N = 32 };
    static float a[N * N], b[N * N], c[N * N];
    struct cl_launch l;
    simt_buffer *ba, *bb, *bc;
    int n = N;
    uint32_t i, j, k, bad = 0;

    for (i = 0; i < N * N; i++) {
        a[i] = (float)(lcg() % 17) - 8.0f;
        b[i] = (float)(lcg() % 13) * 0.25f;
    }
    ba = buffer(a, sizeof(a));
    bb = buffer(b, sizeof(b));
    bc = buffer(NULL, sizeof(c));
    if (!cl_open(&l, "matmul", "matmul") || !cl_arg_buffer(&l, 0, ba) ||
        !cl_arg_buffer(&l, 1, bb) || !cl_arg_buffer(&l, 2, bc) ||
        !cl_arg_value(&l, 3, &n, 4)) {
        tap_check(false, "matmul: 32 x 32 in 8 x 8 __local tiles");
        return;
    }
    cl_header(&l)->work_dim = 2;
    tap_check(l.static_shared == 2 * 8 * 8 * 4, "matmul: its two __local "
              "tiles are the kernel's static shared memory (%u bytes)",
              l.static_shared);
    if (cl_run(&l, (simt_dim3){ N / 8, N / 8, 1 }, (simt_dim3){ 8, 8, 1 })) {
        read_back(c, bc, sizeof(c));
        for (i = 0; i < N; i++) {
            for (j = 0; j < N; j++) {
                float sum = 0.0f;

                for (k = 0; k < N; k++) {
                    sum += a[i * N + k] * b[k * N + j];
                }
                bad += c[i * N + j] != sum;
            }
        }
    } else {
        bad = N * N;
    }
    tap_check(!bad, "matmul: 32 x 32 in 8 x 8 __local tiles with barriers, "
              "2-D NDRange (%u wrong)", bad);
    cl_close(&l);
}

static void test_reduce(void)
{
    enum { N = 1000, LOCAL = 128, GROUPS = (N + LOCAL - 1) / LOCAL };
    static float in[N], part[GROUPS];
    float tree[LOCAL];
    struct cl_launch l;
    simt_buffer *bi, *bp;
    uint32_t n = N, g, i, s, bad = 0;

    for (i = 0; i < N; i++) {
        in[i] = (float)(lcg() % 1000) / 8.0f;
    }
    bi = buffer(in, sizeof(in));
    bp = buffer(NULL, sizeof(part));
    if (!cl_open(&l, "reduce", "reduce") || !cl_arg_buffer(&l, 0, bi) ||
        !cl_arg_buffer(&l, 1, bp) || !cl_arg_local(&l, 2, LOCAL * 4) ||
        !cl_arg_value(&l, 3, &n, 4) ||
        !cl_run(&l, (simt_dim3){ GROUPS, 1, 1 }, (simt_dim3){ LOCAL, 1, 1 })) {
        tap_check(false, "reduce: per-group sums in a __local float* argument");
        return;
    }
    read_back(part, bp, sizeof(part));
    for (g = 0; g < GROUPS; g++) {
        for (i = 0; i < LOCAL; i++) {
            tree[i] = g * LOCAL + i < N ? in[g * LOCAL + i] : 0.0f;
        }
        for (s = LOCAL / 2; s > 0; s >>= 1) {
            for (i = 0; i < s; i++) {
                tree[i] += tree[i + s];
            }
        }
        bad += part[g] != tree[0];
    }
    tap_check(!bad, "reduce: per-group sums in a __local float* argument "
              "sized at launch (%u of %u wrong)", bad, GROUPS);
    cl_close(&l);
}

static void test_histogram(void)
{
    enum { N = 5000 };
    static uint8_t data[N];
    uint32_t bins[64] = { 0 }, got[64], info[8];
    static const uint32_t want_info[7] = { 1, 256, 4, 64, 1, 0, 1 };
    struct cl_launch l;
    simt_buffer *bd, *bb, *bi;
    uint32_t n = N, i, bad = 0;

    for (i = 0; i < N; i++) {
        data[i] = lcg() & 0xff;
        bins[data[i] & 63]++;
    }
    bd = buffer(data, sizeof(data));
    bb = buffer(NULL, sizeof(got));
    bi = buffer(NULL, sizeof(info));
    if (!cl_open(&l, "histogram", "histogram") || !cl_arg_buffer(&l, 0, bd) ||
        !cl_arg_value(&l, 1, &n, 4) || !cl_arg_buffer(&l, 2, bb) ||
        !cl_arg_buffer(&l, 3, bi) ||
        !cl_run(&l, (simt_dim3){ 4, 1, 1 }, (simt_dim3){ 64, 1, 1 })) {
        tap_check(false, "histogram: atomic_inc on __global bins");
        return;
    }
    read_back(got, bb, sizeof(got));
    read_back(info, bi, sizeof(info));
    for (i = 0; i < 64; i++) {
        bad += got[i] != bins[i];
    }
    tap_check(!bad, "histogram: 5000 bytes into 64 bins with atomic_inc on "
              "__global (%u bins wrong)", bad);
    tap_check(!memcmp(info, want_info, sizeof(want_info)),
              "histogram: get_work_dim, get_global_size, get_num_groups, "
              "get_local_size, and dimension 3 (%u %u %u %u %u %u %u)",
              info[0], info[1], info[2], info[3], info[4], info[5], info[6]);
    cl_close(&l);
}

/* struct affine of float4.cl as the lanes lay it out */
struct affine {
    float scale;
    int32_t shift;
    _Alignas(8) float bias[2];
};

static void test_float4(void)
{
    enum { N = 64 };
    static float in[N][4], out[N][4];
    static const float k[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
    static const int32_t pick[2] = { 3, 10 };
    static const int32_t want_ints[8] = { 107, -5, 10, 1, 2, -1, 2, 50 };
    struct affine t = { 0.5f, 100, { 8.0f, 16.0f } };
    int8_t tag = -5;
    int32_t ints[8];
    struct cl_launch l;
    simt_buffer *bi, *bo, *bn;
    uint32_t i, j, bad = 0;

    for (i = 0; i < N; i++) {
        for (j = 0; j < 4; j++) {
            in[i][j] = (float)(lcg() % 100) - 50.0f;
        }
    }
    in[0][0] = 2000.0f;
    bi = buffer(in, sizeof(in));
    bo = buffer(NULL, sizeof(out));
    bn = buffer(NULL, sizeof(ints));
    if (!cl_open(&l, "float4", "swizzle") || !cl_arg_buffer(&l, 0, bi) ||
        !cl_arg_buffer(&l, 1, bo) || !cl_arg_value(&l, 2, k, 16) ||
        !cl_arg_value(&l, 3, pick, 8) || !cl_arg_value(&l, 4, &t, sizeof(t)) ||
        !cl_arg_value(&l, 5, &tag, 1) || !cl_arg_buffer(&l, 6, bn) ||
        !cl_run(&l, (simt_dim3){ 1, 1, 1 }, (simt_dim3){ N, 1, 1 })) {
        tap_check(false, "float4: vector and struct arguments by value");
        return;
    }
    read_back(out, bo, sizeof(out));
    read_back(ints, bn, sizeof(ints));
    for (i = 0; i < N; i++) {
        const float add[4] = { t.bias[0], t.bias[1], k[3], k[3] };

        for (j = 0; j < 4; j++) {
            bad += out[i][j] != in[i][3 - j] * k[j] + add[j] * t.scale;
        }
    }
    tap_check(!bad, "float4: float4, int2, struct and char arguments by "
              "value, .wzyx and .ww swizzles (%u wrong)", bad);
    tap_check(!memcmp(ints, want_ints, sizeof(ints)),
              "float4: dot, any, cross, select, clamp (%d %d %d %d %d %d %d %d)",
              ints[0], ints[1], ints[2], ints[3], ints[4], ints[5], ints[6],
              ints[7]);
    cl_close(&l);
}

/* |got - want| in ulps of want, as a float; NaN and infinities must match */
static double ulps(float got, double want)
{
    double ulp;
    int e;

    if (isnan(want) || isnan(got)) {
        return isnan(want) && isnan(got) ? 0 : INFINITY;
    }
    if (isinf(want) || isinf(got)) {
        return (double)got == want ? 0 : INFINITY;
    }
    frexp(want, &e);
    ulp = ldexp(1.0, (e - 24 < -149 ? -149 : e - 24));
    return fabs((double)got - want) / ulp;
}

static void test_math(void)
{
    enum { N = 2048, NF = 20 };
    static const struct {
        const char *name;
        double bound;           /* ulps */
    } fns[NF] = {
        { "sqrt", 0.5 }, { "exp", 2 }, { "log", 2 }, { "pow", 2 },
        { "sin", 2 }, { "cos", 2 }, { "floor", 0 }, { "ceil", 0 },
        { "fmin", 0 }, { "fmax", 0 }, { "mad", 0.5 }, { "atan2", 2 },
        { "tanh", 3 }, { "rint", 0 }, { "hypot", 2 }, { "asin", 4 },
        { "length(float4)", 3 }, { "sqrt(float4).z", 0.5 },
        { "isnan(log(x))", 0 }, { "exp2", 2 },
    };
    static float x[N], y[N], out[NF * N];
    struct cl_launch l;
    simt_buffer *bx, *by, *bo;
    uint32_t n = N, i, f;

    for (i = 0; i < N; i++) {
        x[i] = ((float)(lcg() % 200001) - 100000.0f) / 10000.0f;
        y[i] = ((float)(lcg() % 60001) - 30000.0f) / 10000.0f;
    }
    x[0] = 0.0f;
    x[1] = -0.0f;
    x[2] = 0.5f;
    y[3] = 4.0f;
    bx = buffer(x, sizeof(x));
    by = buffer(y, sizeof(y));
    bo = buffer(NULL, sizeof(out));
    if (!cl_open(&l, "mathfn", "mathfn") || !cl_arg_buffer(&l, 0, bx) ||
        !cl_arg_buffer(&l, 1, by) || !cl_arg_buffer(&l, 2, bo) ||
        !cl_arg_value(&l, 3, &n, 4) ||
        !cl_run(&l, (simt_dim3){ N / 128, 1, 1 }, (simt_dim3){ 128, 1, 1 })) {
        tap_check(false, "math built-ins");
        return;
    }
    read_back(out, bo, sizeof(out));
    for (f = 0; f < NF; f++) {
        double worst = 0;
        uint32_t worst_i = 0;

        for (i = 0; i < N; i++) {
            double a = x[i], b = y[i], want, e;

            switch (f) {
            case 0: want = sqrt(fabs(a)); break;
            case 1: want = exp(b); break;
            case 2: want = log(fabs(a)); break;
            case 3: want = pow(fabs(a), b); break;
            case 4: want = sin(a); break;
            case 5: want = cos(a); break;
            case 6: want = floor(a); break;
            case 7: want = ceil(a); break;
            case 8: want = fmin(a, b); break;
            case 9: want = fmax(a, b); break;
            case 10: want = x[i] * y[i] + 1.0f; break;
            case 11: want = atan2(a, b); break;
            case 12: want = tanh(b); break;
            case 13: want = rintf(x[i]); break;
            case 14: want = hypot(a, b); break;
            case 15: want = asin(y[i] / 4.0f); break;
            case 16: want = sqrt(a * a + b * b + 1.0); break;
            case 17: want = sqrt(fabs((double)(x[i] + y[i]))); break;
            case 18: want = x[i] < 0.0f ? 1.0 : 0.0; break;
            default: want = exp2(b); break;
            }
            e = ulps(out[f * N + i], want);
            if (e > worst) {
                worst = e;
                worst_i = i;
            }
        }
        tap_check(worst <= fns[f].bound, "math: %s within %.1f ulp of the "
                  "host's double result over %u inputs (worst %.2f at "
                  "x = %a, y = %a)", fns[f].name, fns[f].bound, N, worst,
                  x[worst_i], y[worst_i]);
    }
    cl_close(&l);
}

int main(int argc, char **argv)
{
    simt_device *dev;

    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: test-opencl IMAGE-DIR [PREFIX]\n");
        return 2;
    }
    image_dir = argv[1];
    if (argc == 3) {
        image_prefix = argv[2];
    }
    if (simt_device_open(NULL, &dev) ||
        simt_context_create(dev, SIMT_PRIORITY_NORMAL, SIMT_PREEMPT_DEFAULT,
                            &ctx)) {
        printf("Bail out! %s\n", simt_last_error());
        return 1;
    }
    test_arg_info();
    test_vadd();
    test_matmul();
    test_reduce();
    test_histogram();
    test_float4();
    test_math();
    simt_context_destroy(ctx);
    simt_device_close(dev);
    return tap_done();
}
