/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernels' math library (kernels/simt-math.c, <math.h> of
 * kernels/include) on the warp interpreter against the host's libm.
 * Each function runs on a few thousand inputs (special values, ranges
 * where the function is interesting, random bit patterns); the reference
 * is the host's double function (glibc's are within 1 double ulp, so they
 * stand in for the exact value; fmaf is the host's, correctly rounded).
 * The error is |got - reference| in float ulps of the reference; NaN must
 * give NaN, and zeros must have the right sign.  A function fails when its
 * worst error exceeds the bound in docs/toolchain.rst's "Math library"
 * table, which this test reads.
 *
 * Usage: test-math MATH_IMAGE.elf docs/toolchain.rst
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hw/simt/simt-core.h"
#include "image-args.h"
#include "simt-elf.h"
#include "../tap.h"

#define MEM_SIZE        (16u << 20)
#define MAX_WARP_INSNS  (500u * 1000 * 1000)
#define MAX_INPUTS      8192

enum gen {
    G_ROUNDING, G_FMOD, G_UNARY_BITS, G_BINARY, G_SQRT, G_EXP, G_EXP2,
    G_EXPM1, G_LOG, G_POW, G_TRIG, G_ATAN, G_ATAN2, G_TANH, G_ERF,
};

struct fn {
    const char *name;           /* as in the docs' table */
    const char *form;           /* "" or how it is called */
    unsigned id;                /* math_eval's number */
    enum gen gen;
    double (*ref)(double, double);
    bool any_zero_sign;         /* fmin/fmax may return either zero */
};

static double r_fabs(double x, double y) { (void)y; return fabs(x); }
static double r_copysign(double x, double y) { return copysign(x, y); }
static double r_fmin(double x, double y) { return fmin(x, y); }
static double r_fmax(double x, double y) { return fmax(x, y); }
static double r_sqrt(double x, double y) { (void)y; return sqrt(x); }
static double r_fma(double x, double y) { return fmaf(x, y, 0.75f); }
static double r_floor(double x, double y) { (void)y; return floor(x); }
static double r_ceil(double x, double y) { (void)y; return ceil(x); }
static double r_trunc(double x, double y) { (void)y; return trunc(x); }
static double r_round(double x, double y) { (void)y; return round(x); }
static double r_fmod(double x, double y) { return fmod(x, y); }
static double r_exp(double x, double y) { (void)y; return exp(x); }
static double r_exp2(double x, double y) { (void)y; return exp2(x); }
static double r_expm1(double x, double y) { (void)y; return expm1(x); }
static double r_log(double x, double y) { (void)y; return log(x); }
static double r_log2(double x, double y) { (void)y; return log2(x); }
static double r_pow(double x, double y) { return pow(x, y); }
static double r_sin(double x, double y) { (void)y; return sin(x); }
static double r_cos(double x, double y) { (void)y; return cos(x); }
static double r_tan(double x, double y) { (void)y; return tan(x); }
static double r_atan(double x, double y) { (void)y; return atan(x); }
static double r_atan2(double x, double y) { return atan2(x, y); }
static double r_tanh(double x, double y) { (void)y; return tanh(x); }
static double r_erf(double x, double y) { (void)y; return erf(x); }
static double r_rsqrt(double x, double y) { (void)y; return 1 / sqrt(x); }
static double r_saturate(double x, double y)
{
    (void)y;
    return isnan(x) || x <= 0 ? 0 : x > 1 ? 1 : x;
}

static const struct fn fns[] = {
    { "fabsf", " (macro)", 0, G_UNARY_BITS, r_fabs, false },
    { "copysignf", " (macro)", 1, G_BINARY, r_copysign, false },
    { "fminf", " (macro)", 2, G_BINARY, r_fmin, true },
    { "fmaxf", " (macro)", 3, G_BINARY, r_fmax, true },
    { "sqrtf", " (macro)", 4, G_SQRT, r_sqrt, false },
    { "fmaf", " (macro, z = 0.75)", 5, G_BINARY, r_fma, false },
    { "fabsf", " (function)", 6, G_UNARY_BITS, r_fabs, false },
    { "copysignf", " (function)", 7, G_BINARY, r_copysign, false },
    { "fminf", " (function)", 8, G_BINARY, r_fmin, true },
    { "fmaxf", " (function)", 9, G_BINARY, r_fmax, true },
    { "sqrtf", " (function)", 10, G_SQRT, r_sqrt, false },
    { "fmaf", " (function, z = 0.75)", 11, G_BINARY, r_fma, false },
    { "floorf", "", 12, G_ROUNDING, r_floor, false },
    { "ceilf", "", 13, G_ROUNDING, r_ceil, false },
    { "truncf", "", 14, G_ROUNDING, r_trunc, false },
    { "roundf", "", 15, G_ROUNDING, r_round, false },
    { "fmodf", "", 16, G_FMOD, r_fmod, false },
    { "expf", "", 17, G_EXP, r_exp, false },
    { "exp2f", "", 18, G_EXP2, r_exp2, false },
    { "expm1f", "", 19, G_EXPM1, r_expm1, false },
    { "logf", "", 20, G_LOG, r_log, false },
    { "log2f", "", 21, G_LOG, r_log2, false },
    { "powf", "", 22, G_POW, r_pow, false },
    { "sinf", "", 23, G_TRIG, r_sin, false },
    { "cosf", "", 24, G_TRIG, r_cos, false },
    { "tanf", "", 25, G_TRIG, r_tan, false },
    { "atanf", "", 26, G_ATAN, r_atan, false },
    { "atan2f", "", 27, G_ATAN2, r_atan2, false },
    { "tanhf", "", 28, G_TANH, r_tanh, false },
    { "erff", "", 29, G_ERF, r_erf, false },
    { "rsqrtf", " (macro)", 30, G_SQRT, r_rsqrt, false },
    { "rsqrtf", " (function)", 31, G_SQRT, r_rsqrt, false },
    { "__saturatef", "", 32, G_ROUNDING, r_saturate, false },
    { "__expf", "", 33, G_EXP, r_exp, false },
    { "__logf", "", 34, G_LOG, r_log, false },
    { "__log2f", "", 35, G_LOG, r_log2, false },
    { "__powf", "", 36, G_POW, r_pow, false },
    { "__sinf", "", 37, G_TRIG, r_sin, false },
    { "__cosf", "", 38, G_TRIG, r_cos, false },
    { "__tanf", "", 39, G_TRIG, r_tan, false },
};
#define NFNS (sizeof(fns) / sizeof(fns[0]))

/* ---- inputs ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 32);
}

static float asf(uint32_t u)
{
    float f;

    memcpy(&f, &u, 4);
    return f;
}

static uint32_t asu(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

static float uni(float lo, float hi)
{
    return lo + (hi - lo) * (float)(rnd() >> 8) * 0x1p-24f;
}

static const uint32_t specials[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
    0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
    0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000,
    0x40000000, 0xc0000000, 0x40400000, 0xc0400000, 0x3fc00000, 0xbfc00000,
    0x3f7fffff, 0x3f800001, 0x3dcccccd, 0x41200000, 0x4b000000, 0xcb000000,
    0x4b7fffff, 0x3effffff, 0x40490fdb, 0x3fc90fdb, 0x3f490fdb, 0x42b17218,
};
#define NSPEC (sizeof(specials) / sizeof(specials[0]))

struct inputs {
    unsigned n;
    float a[MAX_INPUTS], b[MAX_INPUTS];
};

static void add(struct inputs *in, float a, float b)
{
    if (in->n < MAX_INPUTS) {
        in->a[in->n] = a;
        in->b[in->n] = b;
        in->n++;
    }
}

/* specials, then @nbits random bit patterns, then the ranges */
static void unary(struct inputs *in, unsigned nbits, const float *ranges,
                  unsigned nranges, unsigned per_range)
{
    unsigned i, r;

    for (i = 0; i < NSPEC; i++) {
        add(in, asf(specials[i]), 1.0f);
    }
    for (i = 0; i < nbits; i++) {
        add(in, asf(rnd()), 1.0f);
    }
    for (r = 0; r < nranges; r++) {
        for (i = 0; i < per_range; i++) {
            add(in, uni(ranges[2 * r], ranges[2 * r + 1]), 1.0f);
        }
    }
}

static void gen_inputs(enum gen g, struct inputs *in)
{
    unsigned i, j;
    in->n = 0;

    switch (g) {
    case G_ROUNDING: {
        static const float rg[] = { -10, 10, -1e7f, 1e7f, -1, 1 };

        unary(in, 1500, rg, 3, 800);
        for (i = 0; i < 400; i++) {     /* halves and quarters */
            add(in, (float)((int)(rnd() % 81) - 40) * 0.25f, 1.0f);
        }
        break;
    }
    case G_UNARY_BITS:
        unary(in, 4000, NULL, 0, 0);
        break;
    case G_SQRT: {
        static const float rg[] = { 0, 4, 0, 1e30f };

        unary(in, 3000, rg, 2, 1000);
        break;
    }
    case G_BINARY:
    case G_FMOD:
    case G_ATAN2: {
        for (i = 0; i < NSPEC; i++) {
            for (j = 0; j < NSPEC; j++) {
                add(in, asf(specials[i]), asf(specials[j]));
            }
        }
        for (i = 0; i < 2500; i++) {
            add(in, asf(rnd()), asf(rnd()));
        }
        for (i = 0; i < 2500; i++) {
            if (g == G_FMOD) {
                add(in, uni(-1000, 1000), uni(-10, 10));
            } else {
                add(in, uni(-10, 10), uni(-10, 10));
            }
        }
        break;
    }
    case G_EXP: {
        static const float rg[] = { -104, 89, -1, 1, -0.01f, 0.01f,
                                    85, 89, -104, -87 };

        unary(in, 1000, rg, 5, 800);
        break;
    }
    case G_EXP2: {
        static const float rg[] = { -151, 129, -1, 1, -0.01f, 0.01f,
                                    120, 128.5f, -150, -125 };

        unary(in, 1000, rg, 5, 800);
        for (i = 0; i < 300; i++) {     /* exact: integers */
            add(in, (float)((int)(rnd() % 300) - 150), 1.0f);
        }
        break;
    }
    case G_EXPM1: {
        static const float rg[] = { -1, 1, -0.001f, 0.001f, -20, 89,
                                    -30, -5 };

        unary(in, 1000, rg, 4, 800);
        break;
    }
    case G_LOG: {
        static const float rg[] = { 0, 4, 0.5f, 2, 0.99f, 1.01f,
                                    0, 1e30f };

        unary(in, 1500, rg, 4, 600);
        for (i = 0; i < 600; i++) {     /* positive bit patterns */
            add(in, asf(rnd() >> 1), 1.0f);
        }
        for (i = 0; i < 300; i++) {     /* 1 +- 2^-k */
            float d = asf(0x3f800000u - ((1 + rnd() % 30) << 23)) *
                      uni(1, 2);

            add(in, (i & 1) ? 1.0f + d : 1.0f - d, 1.0f);
        }
        for (i = 0; i < 150; i++) {      /* exact: powers of two */
            add(in, asf((uint32_t)(i + 1) << 23), 1.0f);
        }
        break;
    }
    case G_POW: {
        for (i = 0; i < NSPEC; i++) {
            for (j = 0; j < NSPEC; j++) {
                add(in, asf(specials[i]), asf(specials[j]));
            }
        }
        for (i = 0; i < 1200; i++) {
            add(in, uni(0, 4), uni(-40, 40));
        }
        for (i = 0; i < 800; i++) {
            add(in, asf(rnd() >> 1), uni(-2, 2));
        }
        for (i = 0; i < 800; i++) {
            add(in, uni(0.9f, 1.1f), uni(-1000, 1000));
        }
        for (i = 0; i < 600; i++) {     /* negative x, integer y */
            add(in, uni(-10, 0), (float)((int)(rnd() % 41) - 20));
        }
        for (i = 0; i < 600; i++) {     /* random bit patterns */
            add(in, asf(rnd()), asf(rnd()));
        }
        /* exact cases: small integers to integer powers, roots */
        for (i = 1; i <= 20; i++) {
            for (j = 0; j <= 12; j++) {
                add(in, (float)i, (float)j);
                add(in, -(float)i, (float)j);
            }
        }
        for (i = 0; i < 40; i++) {
            add(in, 2.0f, (float)i - 20.0f);
            add(in, 0.5f, (float)i);
            add(in, (float)(i * i), 0.5f);
            add(in, (float)(i * i * i * i), 0.25f);
            add(in, (float)(1u << (i % 24)), 1.0f / (1 + i % 4));
        }
        break;
    }
    case G_TRIG: {
        static const float rg[] = { -8, 8, -1e5f, 1e5f, -0.8f, 0.8f,
                                    -0.001f, 0.001f };

        unary(in, 2000, rg, 4, 600);
        for (i = 1; i < 800; i++) {     /* near multiples of pi/2 */
            float v = (float)(i * M_PI_2);

            add(in, v, 1.0f);
            add(in, asf(asu(v) + 1), 1.0f);
        }
        break;
    }
    case G_ATAN: {
        static const float rg[] = { -3, 3, -1, 1, -100, 100, -0.1f, 0.1f };

        unary(in, 2000, rg, 4, 600);
        break;
    }
    case G_TANH: {
        static const float rg[] = { -12, 12, -1, 1, -0.05f, 0.05f,
                                    -0.6f, 0.6f };

        unary(in, 1500, rg, 4, 800);
        break;
    }
    case G_ERF: {
        static const float rg[] = { -5, 5, -1, 1, -0.05f, 0.05f, 2, 4 };

        unary(in, 1500, rg, 4, 800);
        break;
    }
    }
}

/* ---- error ---- */

/* |got - ref| in float ulps at ref; INFINITY for a wrong NaN or zero */
static double ulp_err(float got, double ref, bool any_zero_sign)
{
    double a, g, ulp;

    if (isnan(ref) || isnan(got)) {
        return isnan(ref) && isnan(got) ? 0 : INFINITY;
    }
    if (ref == 0 && got == 0) {
        return any_zero_sign || !signbit(ref) == !signbit(got) ? 0 : INFINITY;
    }
    if (isinf(ref) || isinf(got)) {
        /* an infinity counts as +-2^128, the first value past FLT_MAX */
        if (isinf(ref) && isinf(got)) {
            return ref == got ? 0 : INFINITY;
        }
    }
    g = isinf(got) ? copysign(0x1p128, got) : got;
    a = fabs(ref);
    if (isinf(ref) || a > 0x1p128) {
        if (isinf(got) && !signbit(got) == !signbit(ref)) {
            return 0;
        }
        ref = copysign(0x1p128, ref);
        a = 0x1p128;
    }
    if (a < FLT_MIN) {
        ulp = 0x1p-149;
    } else if (a >= 0x1p128) {
        ulp = 0x1p104;
    } else {
        ulp = ldexp(1.0, ilogb(a) - 23);
    }
    return fabs(g - ref) / ulp;
}

/* ---- the bound table of docs/toolchain.rst ---- */

static bool doc_bound(const char *doc, const char *name, double *bound)
{
    FILE *f = fopen(doc, "r");
    char line[512], n[64];
    bool in_section = false, found = false;

    if (!f) {
        return false;
    }
    while (fgets(line, sizeof(line), f)) {
        if (!strncmp(line, "Math library", 12)) {
            in_section = true;
            continue;
        }
        if (in_section && sscanf(line, " ``%63[a-z0-9_]`` %lf", n, bound) == 2
            && !strcmp(n, name)) {
            found = true;
            break;
        }
    }
    fclose(f);
    return found;
}

/* ---- the device ---- */

struct gpu {
    uint8_t *mem;
    SimtMem smem;
    struct simt_image img;
    uint32_t da, db, dout, local;
};

static bool gpu_open(struct gpu *g, const char *path)
{
    memset(g, 0, sizeof(*g));
    g->mem = image_load_flat(&g->img, path, MEM_SIZE);
    if (!g->mem) {
        return false;
    }
    g->da = (g->img.base + g->img.size + 0xfff) & ~0xfffu;
    g->db = g->da + MAX_INPUTS * 4;
    g->dout = g->db + MAX_INPUTS * 4;
    g->local = g->dout + MAX_INPUTS * 4;
    g->smem.flat = g->mem;
    g->smem.flat_base = 0;
    g->smem.flat_size = MEM_SIZE;
    return true;
}

static bool run(struct gpu *g, unsigned id, const struct inputs *in,
                float *out)
{
    const struct simt_kernel_info *k = simt_image_kernel(&g->img,
                                                         "math_eval");
    SimtLaunch l = { 0 };
    SimtGridResult res;
    int r;

    if (!k) {
        tap_diag("kernel math_eval not in the image's note");
        return false;
    }
    memcpy(g->mem + g->da, in->a, in->n * 4);
    memcpy(g->mem + g->db, in->b, in->n * 4);
    l.entry = k->m.entry;
    l.code_base = g->img.code_start;
    l.code_size = g->img.code_end - g->img.code_start;
    l.block_dim[0] = 128;
    l.block_dim[1] = l.block_dim[2] = 1;
    l.grid_dim[0] = 8;
    l.grid_dim[1] = l.grid_dim[2] = 1;
    l.shared_size = k->m.shared_bytes;
    l.local_size = k->m.local_bytes;
    l.args[0] = id;
    l.args[1] = in->n;
    l.args[2] = g->da;
    l.args[3] = g->db;
    l.args[4] = g->dout;
    if ((uint64_t)g->local + simt_launch_threads(&l) * l.local_size >
        MEM_SIZE) {
        tap_diag("local memory does not fit");
        return false;
    }
    r = simt_run_grid(&l, &g->smem, g->local, MAX_WARP_INSNS, &res);
    if (r != 0) {
        tap_diag("math_eval: %s at pc 0x%08x",
                 r < 0 && !res.fault ? "launch refused" :
                 simt_fault_name(res.fault), res.fault_pc);
        return false;
    }
    memcpy(out, g->mem + g->dout, in->n * 4);
    return true;
}

static bool binary(const struct fn *f)
{
    return f->gen == G_BINARY || f->gen == G_FMOD || f->gen == G_POW ||
           f->gen == G_ATAN2;
}

int main(int argc, char **argv)
{
    static struct inputs in;
    static float out[MAX_INPUTS];
    struct {
        double worst, bound;
        unsigned n;
    } sum[NFNS];
    struct gpu g;
    unsigned i, j, worst_at;
    double e;
    bool opened;

    if (argc != 3) {
        fprintf(stderr, "usage: %s MATH_IMAGE.elf docs/toolchain.rst\n",
                argv[0]);
        return 2;
    }
    opened = gpu_open(&g, argv[1]);
    tap_check(opened, "the math test kernel loads (libsimt-math.a linked, "
              "annotated by simt-meta)");
    if (!opened) {
        return tap_done();
    }
    for (i = 0; i < NFNS; i++) {
        const struct fn *f = &fns[i];
        bool ok, have_bound;

        sum[i].bound = NAN;
        have_bound = doc_bound(argv[2], f->name, &sum[i].bound);

        sum[i].worst = -1;
        sum[i].n = 0;
        if (!have_bound) {
            tap_check(false, "%s: docs/toolchain.rst's Math library table "
                      "gives its bound", f->name);
            continue;
        }
        rng_state = 0x9e3779b97f4a7c15ull + i;
        gen_inputs(f->gen, &in);
        if (!run(&g, f->id, &in, out)) {
            tap_check(false, "%s%s runs on the interpreter", f->name,
                      f->form);
            continue;
        }
        sum[i].worst = 0;
        sum[i].n = in.n;
        worst_at = 0;
        for (j = 0; j < in.n; j++) {
            e = ulp_err(out[j], f->ref(in.a[j], in.b[j]), f->any_zero_sign);
            if (e > sum[i].worst) {
                sum[i].worst = e;
                worst_at = j;
            }
        }
        ok = sum[i].worst <= sum[i].bound;
        j = worst_at;
        if (binary(f)) {
            tap_diag("%s%s: worst %.3f ulp at (%a, %a): got %a, reference %a",
                     f->name, f->form, sum[i].worst, in.a[j], in.b[j],
                     out[j], f->ref(in.a[j], in.b[j]));
        } else {
            tap_diag("%s%s: worst %.3f ulp at %a: got %a, reference %a",
                     f->name, f->form, sum[i].worst, in.a[j], out[j],
                     f->ref(in.a[j], in.b[j]));
        }
        tap_check(ok, "%s%s within its documented %g ulp of the host libm "
                  "over %u inputs (worst %.3f ulp)", f->name, f->form,
                  sum[i].bound, in.n, sum[i].worst);
    }
    tap_diag("%s", "");
    tap_diag("math summary: worst error in ulp against the host libm");
    tap_diag("%-12s %-22s %7s %10s %7s", "function", "form", "inputs",
             "worst-ulp", "bound");
    for (i = 0; i < NFNS; i++) {
        tap_diag("%-12s %-22s %7u %10.3f %7g", fns[i].name,
                 fns[i].form[0] ? fns[i].form + 1 : "-", sum[i].n,
                 sum[i].worst, sum[i].bound);
    }
    free(g.mem);
    simt_image_free(&g.img);
    return tap_done();
}
