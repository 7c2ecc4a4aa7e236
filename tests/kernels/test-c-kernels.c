/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The C sample kernels on the warp interpreter, checked against host
 * references bit for bit.  Each kernel runs twice: straight through, and
 * one warp instruction at a time with every register that the image's
 * live table calls dead overwritten with garbage after each step, as a
 * lightweight context switch that saves only live registers would do.
 * Identical results show the live table is big enough at every pc.
 *
 * Usage: test-c-kernels IMAGE.elf...  (the images built by kernels/,
 * possibly named PREFIX-NAME.elf)
 */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hw/simt/simt-core.h"
#include "scramble.h"
#include "image-args.h"
#include "../qtest/simt-divergent-ref.h"
#include "../qtest/simt-spin-ref.h"
#include "simt-elf.h"
#include "../tap.h"

#define MEM_SIZE        (16u << 20)
#define MAX_WARP_INSNS  (200u * 1000 * 1000)

struct gpu {
    uint8_t *mem;               /* flat global memory at address 0 */
    uint32_t next;              /* bump allocator */
    SimtMem smem;
    struct simt_image img;
};

static bool gpu_open(struct gpu *g, const char *name)
{
    const char *path = image_args_path(name);

    memset(g, 0, sizeof(*g));
    if (!path) {
        tap_diag("no image %s.elf among the arguments", name);
        return false;
    }
    g->mem = image_load_flat(&g->img, path, MEM_SIZE);
    if (!g->mem) {
        return false;
    }
    g->next = (g->img.base + g->img.size + 0xfff) & ~0xfffu;
    g->smem.flat = g->mem;
    g->smem.flat_base = 0;
    g->smem.flat_size = MEM_SIZE;
    return true;
}

static void gpu_close(struct gpu *g)
{
    free(g->mem);
    simt_image_free(&g->img);
}

static uint32_t gpu_alloc(struct gpu *g, uint32_t bytes)
{
    uint32_t addr = g->next;

    g->next = (g->next + bytes + 0xff) & ~0xffu;
    if (g->next > MEM_SIZE) {
        abort();
    }
    return addr;
}

static void *gpu_ptr(struct gpu *g, uint32_t addr)
{
    return g->mem + addr;
}

static uint64_t image_live_at(const void *opaque, uint32_t pc)
{
    return simt_meta_live_at(opaque, pc);
}

/*
 * Launch kernel @name of the open image on a grid of @grid x @block
 * threads (x, y, z) with @args and @dynamic bytes of shared memory on top
 * of the static ones, straight or scrambled, for at most @budget warp
 * instructions.  Returns 0 when it ran to its end, else nonzero with
 * the fault in *@res (SIMT_FAULT_WATCHDOG when the budget ran out; no
 * fault if it could not be launched).
 */
static int launch_within(struct gpu *g, const char *name,
                         const uint32_t *grid, const uint32_t *block,
                         const uint32_t *args, unsigned nargs,
                         uint32_t dynamic, uint64_t budget, bool scrambled,
                         SimtGridResult *res)
{
    const struct simt_kernel_info *k = simt_image_kernel(&g->img, name);
    SimtLaunch l = { 0 };
    uint32_t local_addr;

    memset(res, 0, sizeof(*res));
    if (!k) {
        tap_diag("kernel %s not in the image's note", name);
        return -1;
    }
    l.entry = k->m.entry;
    l.code_base = g->img.code_start;
    l.code_size = g->img.code_end - g->img.code_start;
    memcpy(l.block_dim, block, sizeof(l.block_dim));
    memcpy(l.grid_dim, grid, sizeof(l.grid_dim));
    l.shared_size = k->m.shared_bytes + dynamic;
    l.local_size = k->m.local_bytes;
    memcpy(l.args, args, nargs * sizeof(*args));
    local_addr = gpu_alloc(g, simt_launch_threads(&l) * l.local_size);

    return scrambled ? run_scrambled(&l, &g->smem, local_addr, budget,
                                     image_live_at, &g->img.meta, res) :
                       simt_run_grid(&l, &g->smem, local_addr, budget, res);
}

/* launch_within() to the end, within MAX_WARP_INSNS; says why not. */
static bool launch_dynamic(struct gpu *g, const char *name,
                           const uint32_t *grid, const uint32_t *block,
                           const uint32_t *args, unsigned nargs,
                           uint32_t dynamic, bool scrambled)
{
    SimtGridResult res;
    int r = launch_within(g, name, grid, block, args, nargs, dynamic,
                          MAX_WARP_INSNS, scrambled, &res);

    if (r != 0) {
        tap_diag("%s: %s at pc 0x%08x", name,
                 r < 0 && !res.fault ? "launch refused" :
                 simt_fault_name(res.fault), res.fault_pc);
        return false;
    }
    return true;
}

static const char *mode(bool scrambled)
{
    return scrambled ? ", dead registers scrambled" : "";
}

static bool launch(struct gpu *g, const char *name, const uint32_t *grid,
                   const uint32_t *block, const uint32_t *args,
                   unsigned nargs, bool scrambled)
{
    return launch_dynamic(g, name, grid, block, args, nargs, 0, scrambled);
}

/* Multiply and add with one rounding each, whatever the host compiler. */
static float mulf(float a, float b)
{
    volatile float r = a * b;

    return r;
}

static bool same_bits(const void *got, const void *want, size_t bytes,
                      const char *what)
{
    const uint32_t *g = got, *w = want;
    size_t i;

    for (i = 0; i < bytes / 4; i++) {
        if (g[i] != w[i]) {
            tap_diag("%s: word %zu is %#x, want %#x", what, i, g[i], w[i]);
            return false;
        }
    }
    return true;
}

static void test_vecadd(bool scrambled)
{
    const uint32_t n = 1000, grid[3] = { 8, 1, 1 };
    const uint32_t block[3] = { 128, 1, 1 };
    struct gpu g;
    float *a, *b, *c, want[1000];
    uint32_t da, db, dc, i, args[4];
    bool ok = false;

    if (gpu_open(&g, "vecadd")) {
        da = gpu_alloc(&g, n * 4);
        db = gpu_alloc(&g, n * 4);
        dc = gpu_alloc(&g, n * 4);
        a = gpu_ptr(&g, da);
        b = gpu_ptr(&g, db);
        c = gpu_ptr(&g, dc);
        for (i = 0; i < n; i++) {
            a[i] = i * 0.5f + 1.0f;
            b[i] = 3.25f - i * 0.125f;
            want[i] = a[i] + b[i];
        }
        args[0] = da;
        args[1] = db;
        args[2] = dc;
        args[3] = n;
        ok = launch(&g, "vecadd", grid, block, args, 4, scrambled) &&
             same_bits(c, want, sizeof(want), "vecadd");
        gpu_close(&g);
    }
    tap_check(ok, "vecadd%s", mode(scrambled));
}

static void test_saxpy(bool scrambled)
{
    const uint32_t n = 777, grid[3] = { 2, 1, 1 }, block[3] = { 64, 1, 1 };
    const float alpha = 1.75f;
    struct gpu g;
    float *x, *y, want[777];
    uint32_t dx, dy, i, args[4];
    bool ok = false;

    if (gpu_open(&g, "saxpy")) {
        dx = gpu_alloc(&g, n * 4);
        dy = gpu_alloc(&g, n * 4);
        x = gpu_ptr(&g, dx);
        y = gpu_ptr(&g, dy);
        for (i = 0; i < n; i++) {
            x[i] = (i % 17) * 0.3f;
            y[i] = i * 0.01f;
            want[i] = mulf(alpha, x[i]) + y[i];
        }
        args[0] = n;
        memcpy(&args[1], &alpha, 4);
        args[2] = dx;
        args[3] = dy;
        ok = launch(&g, "saxpy", grid, block, args, 4, scrambled) &&
             same_bits(y, want, sizeof(want), "saxpy");
        gpu_close(&g);
    }
    tap_check(ok, "saxpy%s", mode(scrambled));
}

#define MM_N 48

static void test_matmul(bool scrambled)
{
    const uint32_t grid[3] = { MM_N / 16, MM_N / 16, 1 };
    const uint32_t block[3] = { 16, 16, 1 };
    static float want[MM_N * MM_N];
    struct gpu g;
    float *a, *b, *c;
    uint32_t da, db, dc, i, row, col, k, args[4];
    bool ok = false;

    if (gpu_open(&g, "matmul")) {
        da = gpu_alloc(&g, sizeof(want));
        db = gpu_alloc(&g, sizeof(want));
        dc = gpu_alloc(&g, sizeof(want));
        a = gpu_ptr(&g, da);
        b = gpu_ptr(&g, db);
        c = gpu_ptr(&g, dc);
        for (i = 0; i < MM_N * MM_N; i++) {
            a[i] = ((int)(i * 7 % 13) - 6) * 0.25f + 0.1f;
            b[i] = ((int)(i * 5 % 11) - 5) * 0.5f - 0.3f;
        }
        for (row = 0; row < MM_N; row++) {
            for (col = 0; col < MM_N; col++) {
                float sum = 0.0f;

                for (k = 0; k < MM_N; k++) {
                    sum = fmaf(a[row * MM_N + k], b[k * MM_N + col], sum);
                }
                want[row * MM_N + col] = sum;
            }
        }
        args[0] = da;
        args[1] = db;
        args[2] = dc;
        args[3] = MM_N;
        ok = launch(&g, "matmul", grid, block, args, 4, scrambled) &&
             same_bits(c, want, sizeof(want), "matmul");
        gpu_close(&g);
    }
    tap_check(ok, "tiled matmul with shared memory and barriers%s",
              mode(scrambled));
}

#define LS_N        5000
#define LS_KEY      7

/* Linear search: the matches' count, and each index once. */
static void test_lsearch(bool scrambled)
{
    const uint32_t grid[3] = { 3, 1, 1 }, block[3] = { 64, 1, 1 };
    static bool seen[LS_N];
    struct gpu g;
    uint32_t *data, *out, ddata, dout, i, want = 0, args[4];
    bool ok = false;

    if (gpu_open(&g, "matmul")) {
        ddata = gpu_alloc(&g, LS_N * 4);
        dout = gpu_alloc(&g, (LS_N + 1) * 4);
        data = gpu_ptr(&g, ddata);
        out = gpu_ptr(&g, dout);
        for (i = 0; i < LS_N; i++) {
            data[i] = i * 2654435761u >> 28;
            want += data[i] == LS_KEY;
        }
        memset(seen, 0, sizeof(seen));
        out[0] = 0;
        args[0] = ddata;
        args[1] = LS_N;
        args[2] = LS_KEY;
        args[3] = dout;
        ok = launch(&g, "lsearch", grid, block, args, 4, scrambled) &&
             want > 0 && out[0] == want;
        for (i = 1; ok && i <= want; i++) {
            ok = out[i] < LS_N && data[out[i]] == LS_KEY && !seen[out[i]];
            if (ok) {
                seen[out[i]] = true;
            }
        }
        gpu_close(&g);
    }
    tap_check(ok, "linear search: each match's index once, and their count%s",
              mode(scrambled));
}

#define RED_N       1000
#define RED_BLOCK   256
#define RED_GRID    4

static void reduce_input(float *in)
{
    uint32_t i;

    for (i = 0; i < RED_N; i++) {
        in[i] = (i % 10) * 0.1f + 0.01f * i;
    }
}

static void reduce_tree_ref(const float *in, float *want)
{
    uint32_t blk, t, s;

    for (blk = 0; blk < RED_GRID; blk++) {
        float p[RED_BLOCK];

        for (t = 0; t < RED_BLOCK; t++) {
            uint32_t i = blk * RED_BLOCK + t;

            p[t] = i < RED_N ? in[i] : 0.0f;
        }
        for (s = RED_BLOCK / 2; s > 0; s /= 2) {
            for (t = 0; t < s; t++) {
                p[t] += p[t + s];
            }
        }
        want[blk] = p[0];
    }
}

static void reduce_warp_ref(const float *in, float *want)
{
    uint32_t blk, w, l, d;

    for (blk = 0; blk < RED_GRID; blk++) {
        float sum = 0.0f;

        for (w = 0; w < RED_BLOCK / 32; w++) {
            float v[32], nv[32];

            for (l = 0; l < 32; l++) {
                uint32_t i = blk * RED_BLOCK + w * 32 + l;

                v[l] = i < RED_N ? in[i] : 0.0f;
            }
            for (d = 16; d > 0; d /= 2) {
                for (l = 0; l < 32; l++) {
                    nv[l] = v[l] + v[l + d < 32 ? l + d : l];
                }
                memcpy(v, nv, sizeof(v));
            }
            sum += v[0];
        }
        want[blk] = sum;
    }
}

static void test_reduce(const char *kernel, bool scrambled)
{
    const uint32_t grid[3] = { RED_GRID, 1, 1 };
    const uint32_t block[3] = { RED_BLOCK, 1, 1 };
    struct gpu g;
    float *in, *out, want[RED_GRID];
    uint32_t din, dout, args[3];
    bool ok = false;

    if (gpu_open(&g, "reduce")) {
        din = gpu_alloc(&g, RED_N * 4);
        dout = gpu_alloc(&g, sizeof(want));
        in = gpu_ptr(&g, din);
        out = gpu_ptr(&g, dout);
        reduce_input(in);
        if (strcmp(kernel, "reduce_tree") == 0) {
            reduce_tree_ref(in, want);
        } else {
            reduce_warp_ref(in, want);
        }
        args[0] = din;
        args[1] = dout;
        args[2] = RED_N;
        ok = launch(&g, kernel, grid, block, args, 3, scrambled) &&
             same_bits(out, want, sizeof(want), kernel);
        gpu_close(&g);
    }
    tap_check(ok, "%s%s", kernel, mode(scrambled));
}

static void test_histogram(bool scrambled)
{
    const uint32_t n = 5000, grid[3] = { 4, 1, 1 };
    const uint32_t block[3] = { 128, 1, 1 };
    struct gpu g;
    uint8_t *data;
    uint32_t *bins, want[256] = { 0 }, dd, db, i, args[3];
    bool ok = false;

    if (gpu_open(&g, "histogram")) {
        dd = gpu_alloc(&g, n);
        db = gpu_alloc(&g, sizeof(want));
        data = gpu_ptr(&g, dd);
        bins = gpu_ptr(&g, db);
        for (i = 0; i < n; i++) {
            data[i] = (uint8_t)((i * 2654435761u) >> 13);
            want[data[i]]++;
        }
        args[0] = dd;
        args[1] = n;
        args[2] = db;
        ok = launch(&g, "histogram", grid, block, args, 3, scrambled) &&
             same_bits(bins, want, sizeof(want), "histogram");
        gpu_close(&g);
    }
    tap_check(ok, "histogram with shared and global atomics%s",
              mode(scrambled));
}

static float horner_ref(float x, const float *coef, int degree)
{
    float r = coef[degree];
    int k;

    for (k = degree - 1; k >= 0; k--) {
        r = mulf(r, x) + coef[k];
    }
    return r;
}

static void test_calls(bool scrambled)
{
    const uint32_t n = 100, grid[3] = { 2, 1, 1 }, block[3] = { 64, 1, 1 };
    const float coef_init[5] = { 1.5f, -0.25f, 0.125f, 2.0f, -0.5f };
    struct gpu g;
    float *xs, *coef, *out, want[100];
    uint32_t dx, dc, dout, i, args[4];
    bool ok = false;

    if (gpu_open(&g, "calls")) {
        dx = gpu_alloc(&g, n * 4);
        dc = gpu_alloc(&g, sizeof(coef_init));
        dout = gpu_alloc(&g, n * 4);
        xs = gpu_ptr(&g, dx);
        coef = gpu_ptr(&g, dc);
        out = gpu_ptr(&g, dout);
        memcpy(coef, coef_init, sizeof(coef_init));
        for (i = 0; i < n; i++) {
            static const int salt_scale[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
            int s = (int)i * salt_scale[i % 8], m = 0, k;
            float e;

            xs[i] = i * 0.05f - 2.0f;
            for (k = 0; k < 10; k++) {
                m += (k + 1) * (s + k);
            }
            e = horner_ref(xs[i], coef, 4) + (float)m;
            want[i] = e - horner_ref(xs[i], coef, 2);
        }
        args[0] = dx;
        args[1] = dc;
        args[2] = dout;
        args[3] = n;
        ok = launch(&g, "calls", grid, block, args, 4, scrambled) &&
             same_bits(out, want, sizeof(want), "calls");
        gpu_close(&g);
    }
    tap_check(ok, "kernel calling functions (stack arguments)%s",
              mode(scrambled));
}

static void test_atomics(bool scrambled)
{
    const uint32_t n = 200, grid[3] = { 4, 1, 1 }, block[3] = { 64, 1, 1 };
    struct gpu g;
    int32_t *r, want[15] = { 0 };
    uint32_t dr, t, args[2];
    float half_sum = 100.0f;
    bool ok = false;

    if (gpu_open(&g, "atomics")) {
        dr = gpu_alloc(&g, sizeof(want));
        r = gpu_ptr(&g, dr);
        memset(r, 0, sizeof(want));
        r[2] = INT32_MAX;
        r[3] = INT32_MIN;
        r[4] = -1;
        r[7] = -1;
        r[9] = -1;
        want[2] = -500;
        want[3] = 3 * (n - 1);
        want[4] = 7;
        want[5] = n - 1;
        want[6] = -1;
        for (t = 0; t < n; t++) {
            want[0] += t;
            want[8] ^= t;
        }
        want[1] = -want[0];
        want[12] = 2 * n;
        memcpy(&want[13], &half_sum, 4);
        want[14] = grid[0] * block[0];
        args[0] = dr;
        args[1] = n;
        if (launch(&g, "atomics", grid, block, args, 2, scrambled)) {
            /*
             * atomicExch: the last value stays, every other one (and the
             * initial -1) was returned once and counted by parity.
             */
            want[9] = r[9];
            want[10] = n / 2 - !(r[9] & 1);
            want[11] = n / 2 + 1 - (r[9] & 1);
            ok = r[9] >= 0 && (uint32_t)r[9] < n &&
                 same_bits(r, want, sizeof(want), "atomics");
        }
        gpu_close(&g);
    }
    tap_check(ok, "every atomic under contention, global and shared%s",
              mode(scrambled));
}

static void test_vote(bool scrambled)
{
    const uint32_t n = 100, grid[3] = { 2, 1, 1 }, block[3] = { 64, 1, 1 };
    struct gpu g;
    uint32_t *out, want[128 * 3], dout, i, l, args[2];
    bool ok = false;

    if (gpu_open(&g, "vote")) {
        dout = gpu_alloc(&g, sizeof(want));
        out = gpu_ptr(&g, dout);
        for (i = 0; i < 128; i++) {
            uint32_t warp = i / 32 * 32, ballot = 0, any = 0, all = 1;

            for (l = 0; l < 32; l++) {
                ballot |= (uint32_t)((warp + l) % 3 == 0) << l;
                any |= (warp + l) % 64 == 5;
                all &= warp + l < n;
            }
            want[3 * i] = ballot;
            want[3 * i + 1] = any;
            want[3 * i + 2] = all;
        }
        args[0] = dout;
        args[1] = n;
        ok = launch(&g, "vote", grid, block, args, 2, scrambled) &&
             same_bits(out, want, sizeof(want), "vote");
        gpu_close(&g);
    }
    tap_check(ok, "warp votes%s", mode(scrambled));
}

#define IDS_WORDS 17

static void test_ids(bool scrambled)
{
    const uint32_t grid[3] = { 2, 2, 2 }, block[3] = { 8, 3, 2 };
    const uint32_t nthreads = 8 * 3 * 2, nblocks = 8;
    static uint32_t want[8 * 48 * IDS_WORDS];
    struct gpu g;
    uint32_t *out, dout, b, t;
    bool ok = false;

    if (gpu_open(&g, "ids")) {
        dout = gpu_alloc(&g, sizeof(want));
        out = gpu_ptr(&g, dout);
        for (b = 0; b < nblocks; b++) {
            for (t = 0; t < nthreads; t++) {
                uint32_t *w = want + (b * nthreads + t) * IDS_WORDS;
                uint32_t d[12] = {
                    t % 8, t / 8 % 3, t / 24, b % 2, b / 2 % 2, b / 4,
                    8, 3, 2, 2, 2, 2,
                };

                memcpy(w, d, sizeof(d));
                w[12] = t % 32;
                w[13] = t / 32;
                w[14] = 2;
                w[15] = 0;
                w[16] = 1;
            }
        }
        ok = launch(&g, "ids", grid, block, &dout, 1, scrambled) &&
             same_bits(out, want, sizeof(want), "ids");
        gpu_close(&g);
    }
    tap_check(ok, "thread, block, grid, lane, warp and SM ids in 3-D, "
              "cycle counter%s", mode(scrambled));
}

static void test_dynshared(bool scrambled)
{
    const uint32_t grid[3] = { 3, 1, 1 }, block[3] = { 96, 1, 1 };
    struct gpu g;
    uint32_t *in, *out, want[288], din, dout, i, args[2];
    bool ok = false;

    if (gpu_open(&g, "dynshared")) {
        din = gpu_alloc(&g, sizeof(want));
        dout = gpu_alloc(&g, sizeof(want));
        in = gpu_ptr(&g, din);
        out = gpu_ptr(&g, dout);
        for (i = 0; i < 288; i++) {
            in[i] = i * 7 + 1;
        }
        for (i = 0; i < 288; i++) {
            want[i] = in[i / 96 * 96 + 95 - i % 96];
        }
        args[0] = din;
        args[1] = dout;
        ok = launch_dynamic(&g, "dynshared", grid, block, args, 2, 96 * 4,
                            scrambled) &&
             same_bits(out, want, sizeof(want), "dynshared");
        gpu_close(&g);
    }
    tap_check(ok, "shared memory sized at launch%s", mode(scrambled));
}

/* fspin: each fp operation rounded once, as the host rounds it */
static uint32_t fspin_host(uint32_t i, uint32_t iters)
{
    float f = (float)(i & 255), t;
    uint32_t bits;

    for (uint32_t k = 0; k < iters; k++) {
        f = f * 0.999f;
        f = f + 0.5f;
        t = f * f;
        t = t * 0.001f;
        f = t - f;
    }
    memcpy(&bits, &f, sizeof(bits));
    return bits;
}

/* mspin: each load sees the store before it */
static uint32_t mspin_host(uint32_t i, uint32_t iters)
{
    uint32_t x = i, v = i;

    for (uint32_t k = 0; k < iters; k++) {
        x += v;
        v = x ^ (x >> 3) ^ k;
    }
    return v;
}

/* @kernel of spin.c (out, iters) over 256 threads against @host */
static void test_spin_kernel(bool scrambled, const char *kernel,
                             uint32_t iters,
                             uint32_t (*host)(uint32_t i, uint32_t iters),
                             const char *what)
{
    const uint32_t grid[3] = { 4, 1, 1 }, block[3] = { 64, 1, 1 };
    struct gpu g;
    uint32_t *out, want[256], dout, i, args[2];
    bool ok = false;

    if (gpu_open(&g, "spin")) {
        dout = gpu_alloc(&g, sizeof(want));
        out = gpu_ptr(&g, dout);
        for (i = 0; i < 256; i++) {
            want[i] = host(i, iters);
        }
        args[0] = dout;
        args[1] = iters;
        ok = launch(&g, kernel, grid, block, args, 2, scrambled) &&
             same_bits(out, want, sizeof(want), kernel);
        gpu_close(&g);
    }
    tap_check(ok, "%s%s", what, mode(scrambled));
}

/*
 * spin_held: with its gate shut it is still running when a budget far
 * above spin's own runs out, the threads of its first block (the one
 * simt_run_grid runs first) counted once each as they started; opened,
 * it finishes with spin's results.
 */
static void test_spin_held(bool scrambled)
{
    const uint32_t grid[3] = { 4, 1, 1 }, block[3] = { 64, 1, 1 };
    const uint32_t iters = 300;
    SimtGridResult res;
    struct gpu g;
    uint32_t *out, *gate, want[256], dout, dgate, i, args[3];
    bool held = false, counted = false, ran = false;
    int r;

    if (gpu_open(&g, "spin")) {
        dout = gpu_alloc(&g, sizeof(want));
        dgate = gpu_alloc(&g, 8);
        out = gpu_ptr(&g, dout);
        gate = gpu_ptr(&g, dgate);
        for (i = 0; i < 256; i++) {
            want[i] = spin_ref(i, iters);
        }
        args[0] = dout;
        args[1] = iters;
        args[2] = dgate;
        /* spin of 300 iterations takes some 3,000 warp instructions a warp */
        r = launch_within(&g, "spin_held", grid, block, args, 3, 0,
                          1000 * 1000, scrambled, &res);
        held = r != 0 && res.fault == SIMT_FAULT_WATCHDOG;
        /* the blocks run in order: the first never ended */
        counted = gate[1] == 64;
        if (!held || !counted) {
            tap_diag("with the gate shut: %s at pc 0x%08x, %u threads "
                     "counted", r ? simt_fault_name(res.fault) : "ended",
                     res.fault_pc, gate[1]);
        }
        gate[0] = 1;
        gate[1] = 0;
        ran = launch(&g, "spin_held", grid, block, args, 3, scrambled) &&
              same_bits(out, want, sizeof(want), "spin_held") &&
              gate[1] == 256;
        gpu_close(&g);
    }
    tap_check(held && counted, "spin_held with its gate shut is still "
              "running after 1e6 warp instructions, the 64 threads of "
              "its first block counted once%s", mode(scrambled));
    tap_check(ran, "spin_held with its gate open computes spin's results "
              "and counts its 256 threads%s", mode(scrambled));
}

static void test_divergent(bool scrambled)
{
    const uint32_t n = 200, grid[3] = { 4, 1, 1 }, block[3] = { 64, 1, 1 };
    struct gpu g;
    uint32_t *out, want[256], dout, i, args[2];
    bool ok = false;

    if (gpu_open(&g, "divergent")) {
        dout = gpu_alloc(&g, sizeof(want));
        out = gpu_ptr(&g, dout);
        for (i = 0; i < 256; i++) {
            out[i] = 0xffffffffu;
            want[i] = i < n ? divergent_ref(i) : 0xffffffffu;
        }
        args[0] = dout;
        args[1] = n;
        ok = launch(&g, "divergent", grid, block, args, 2, scrambled) &&
             same_bits(out, want, sizeof(want), "divergent");
        gpu_close(&g);
    }
    tap_check(ok, "divergent branches, loops and early return%s",
              mode(scrambled));
}

static void test_persistent(bool scrambled)
{
    const uint32_t nitems = 1000, rounds = 20;
    const uint32_t grid[3] = { 3, 1, 1 }, block[3] = { 64, 1, 1 };
    struct gpu g;
    uint32_t *head, *out, want[1000], dhead, dout, i, k, args[4];
    bool ok = false;

    if (gpu_open(&g, "persistent")) {
        dhead = gpu_alloc(&g, 4);
        dout = gpu_alloc(&g, sizeof(want));
        head = gpu_ptr(&g, dhead);
        out = gpu_ptr(&g, dout);
        *head = 0;
        for (i = 0; i < nitems; i++) {
            uint32_t x = i;

            for (k = 0; k < rounds; k++) {
                x = x * 747796405u + 2891336453u;
                x ^= x >> 16;
            }
            want[i] = x;
        }
        args[0] = dhead;
        args[1] = nitems;
        args[2] = dout;
        args[3] = rounds;
        ok = launch(&g, "persistent", grid, block, args, 4, scrambled) &&
             same_bits(out, want, sizeof(want), "persistent") &&
             *head == nitems + grid[0] * block[0];
        gpu_close(&g);
    }
    tap_check(ok, "persistent threads with a global work queue%s",
              mode(scrambled));
}

/*
 * Warp operations after joined branches and in butterflies (warpopt.c):
 * 9 warps, all lanes active, the last 8 threads storing nothing.
 */
#define WOPT_THREADS    288
#define WOPT_N          280

static int wopt_in(uint32_t i)
{
    return i == 37 ? 7 : i == 100 ? 99 :
           (int)((i * 2654435761u) >> 20) % 121 - 60;
}

static void warp_join_ref(const int *in, uint32_t *want)
{
    uint32_t b, l, k;

    for (b = 0; b < WOPT_THREADS; b += 32) {
        uint32_t src = (uint32_t)in[b] & 31, ballot = 0;
        bool any = false, all = true;
        int w[32];

        for (l = 0; l < 32; l++) {
            w[l] = in[b + l] < 0 ? -in[b + l] * 2 : in[b + l];
            ballot |= (uint32_t)(w[l] > 50) << l;
            any |= w[l] == 7;
            all &= w[l] != 99;
        }
        for (l = 0; l < 32 && b + l < WOPT_N; l++) {
            uint32_t *o = want + 8 * (b + l);
            float f = (float)w[l + src < 32 ? l + src : l] * 0.5f;

            o[0] = (uint32_t)(in[b] * 3 + 1);
            o[1] = ballot;
            o[2] = any;
            o[3] = all;
            o[4] = (uint32_t)w[l + 1 < 32 ? l + 1 : l];
            o[5] = (uint32_t)w[l >= 3 ? l - 3 : l];
            o[6] = (uint32_t)w[src];
            memcpy(&o[7], &f, 4);
        }
        for (k = 8 * (b + l); k < 8 * (b + 32); k++) {
            want[k] = 0xffffffffu;
        }
    }
}

static void warp_minmax_ref(const int *in, uint32_t *want)
{
    uint32_t b, l;

    for (b = 0; b < WOPT_THREADS; b += 32) {
        int imax = in[b], imin = in[b];
        uint32_t umax = (uint32_t)in[b];
        float fmin = (float)in[b] * 0.25f;

        for (l = 1; l < 32; l++) {
            int v = in[b + l];

            imax = v > imax ? v : imax;
            imin = v < imin ? v : imin;
            umax = (uint32_t)v > umax ? (uint32_t)v : umax;
            fmin = (float)v * 0.25f < fmin ? (float)v * 0.25f : fmin;
        }
        for (l = 0; l < 32; l++) {
            want[4 * (b + l)] = (uint32_t)imax;
            want[4 * (b + l) + 1] = (uint32_t)imin;
            want[4 * (b + l) + 2] = umax;
            memcpy(&want[4 * (b + l) + 3], &fmin, 4);
        }
    }
}

static void warp_aggregate_ref(const int *in, uint32_t *want)
{
    uint32_t b, l;

    memset(want, 0, 4 * (8 + WOPT_THREADS));
    for (b = 0; b < WOPT_THREADS; b += 32) {
        uint32_t bins = 0;

        for (l = 0; l < 32 && b + l < WOPT_N; l++) {
            want[(uint32_t)in[b + l] & 7]++;
            bins |= 1u << ((uint32_t)in[b + l] & 7);
        }
        for (l = 0; l < 32; l++) {
            want[8 + b + l] = __builtin_popcount(bins);
        }
    }
}

static void test_warpopt(bool scrambled)
{
    const uint32_t grid[3] = { 3, 1, 1 }, block[3] = { 96, 1, 1 };
    static uint32_t want[8 * WOPT_THREADS];
    struct gpu g;
    uint32_t *out, din, dout, i, args[3];
    int *in;
    bool ok = false;

    if (gpu_open(&g, "warpopt")) {
        din = gpu_alloc(&g, WOPT_THREADS * 4);
        dout = gpu_alloc(&g, sizeof(want));
        in = gpu_ptr(&g, din);
        out = gpu_ptr(&g, dout);
        for (i = 0; i < WOPT_THREADS; i++) {
            in[i] = wopt_in(i);
        }
        args[0] = dout;
        args[1] = din;
        args[2] = WOPT_N;

        memset(out, 0xff, sizeof(want));
        memset(want, 0xff, sizeof(want));
        for (i = 0; i < WOPT_N; i++) {
            want[i] = (uint32_t)in[i / 32];
        }
        ok = launch(&g, "warp_bcast", grid, block, args, 3, scrambled) &&
             same_bits(out, want, WOPT_THREADS * 4, "warp_bcast");
        /* each kernel runs even if an earlier one failed, for the log */

        memset(out, 0xff, sizeof(want));
        warp_join_ref(in, want);
        ok = launch(&g, "warp_join", grid, block, args, 3, scrambled) &&
             same_bits(out, want, sizeof(want), "warp_join") && ok;

        memset(out, 0xff, sizeof(want));
        warp_minmax_ref(in, want);
        ok = launch(&g, "warp_minmax", grid, block, args, 2, scrambled) &&
             same_bits(out, want, 4 * 4 * WOPT_THREADS, "warp_minmax") && ok;

        memset(out, 0, 4 * (8 + WOPT_THREADS));
        warp_aggregate_ref(in, want);
        ok = launch(&g, "warp_aggregate", grid, block, args, 3, scrambled) &&
             same_bits(out, want, 4 * (8 + WOPT_THREADS), "warp_aggregate") &&
             ok;
        gpu_close(&g);
    }
    tap_check(ok, "warp operations after joined branches, butterflies, "
              "warp-aggregated atomics with the leader's atomic laid out "
              "after the loop%s", mode(scrambled));
}

/* cuda.c: 2 blocks of 64 threads, CUDA_WORDS words each. */
#define CUDA_THREADS    128
#define CUDA_WORDS      20

static uint32_t fbits(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

/* @op of @a and @b rounded as @mode, at run time. */
static float round_op(int mode, char op, float a, float b)
{
    volatile float x = a, y = b, r;

    fesetround(mode);
    r = op == '+' ? x + y : op == '*' ? x * y : op == '/' ? x / y : sqrtf(x);
    fesetround(FE_TONEAREST);
    return r;
}

static void cuda_ref(const int *in, uint32_t *want)
{
    uint32_t i, l;

    for (i = 0; i < CUDA_THREADS; i++) {
        uint32_t b = i & ~31u, lane = i & 31, *o = want + CUDA_WORDS * i;
        uint32_t ballot = 0, any = 0, all = 1;
        int x = in[i];
        float f = (float)x * 0.375f, g = (float)(lane + 3) / 7.0f;
        float fx = (float)in[i ^ 1] * 0.375f;

        for (l = 0; l < 32; l++) {
            int v = in[b + l];

            ballot |= (uint32_t)(l < 16 && v > 0) << l;
            any |= l >= 16 && v == 7;
            all &= !(l % 2 == 1 && v % 2 != 0);
        }
        o[0] = CUDA_THREADS;
        o[1] = (uint32_t)in[b + 3];
        o[2] = fbits(fx);
        o[3] = (uint32_t)in[lane + 2 < 32 ? i + 2 : i];
        o[4] = (uint32_t)in[lane >= 1 ? i - 1 : i];
        o[5] = ballot;
        o[6] = any;
        o[7] = all;
        o[8] = 0xffffffffu;
        o[9] = (uint32_t)__builtin_popcount((unsigned)x);
        o[10] = x ? (uint32_t)__builtin_clz((unsigned)x) : 32;
        o[11] = (uint32_t)__builtin_ffs(x);
        o[12] = fbits(round_op(FE_TOWARDZERO, '+', f, g));
        o[13] = fbits(round_op(FE_UPWARD, '*', f, g));
        o[14] = fbits(round_op(FE_DOWNWARD, '/', f, g));
        o[15] = fbits(round_op(FE_UPWARD, 's', g, 0));
        o[16] = (uint32_t)(int)rintf(mulf(f, 3.7f));
        o[17] = fbits(f / g);
        o[18] = (uint32_t)in[i ^ 1];
        o[19] = (uint32_t)in[i ^ 15];
    }
}

static void test_cuda(bool scrambled)
{
    const uint32_t grid[3] = { 2, 1, 1 }, block[3] = { 64, 1, 1 };
    uint32_t want[CUDA_WORDS * CUDA_THREADS], *out, din, dout, i, args[2];
    struct gpu g;
    int *in;
    bool ok = false;

    if (gpu_open(&g, "cuda")) {
        din = gpu_alloc(&g, CUDA_THREADS * 4);
        dout = gpu_alloc(&g, sizeof(want));
        in = gpu_ptr(&g, din);
        out = gpu_ptr(&g, dout);
        for (i = 0; i < CUDA_THREADS; i++) {
            in[i] = i == 40 ? 0 : i == 70 ? 7 : wopt_in(i) * 1001;
        }
        cuda_ref(in, want);
        args[0] = dout;
        args[1] = din;
        ok = launch(&g, "cuda_spellings", grid, block, args, 2, scrambled) &&
             same_bits(out, want, sizeof(want), "cuda_spellings");
        gpu_close(&g);
    }
    tap_check(ok, "CUDA spellings: dim3 members, *_sync, __syncwarp, typed "
              "shuffles, bit counts, rounding intrinsics%s", mode(scrambled));
}

/* cudavocab.c: 2 blocks of 64 threads unless said otherwise. */
#define VOCAB_THREADS       128
#define VOCAB_BITS_WORDS    16
#define VOCAB_VEC_WORDS     20
#define VOCAB_NWIDTHS       5
#define VOCAB_SHFL_WORDS    (6 * VOCAB_NWIDTHS + 3)

static int vocab_in(uint32_t i)
{
    return (int)((i * 2246822519u) >> 7) - (1 << 24);
}

static void test_vocab_shared(bool scrambled)
{
    const uint32_t grid[3] = { 2, 1, 1 }, block[3] = { 64, 1, 1 };
    int want[VOCAB_THREADS], *in, *out;
    uint32_t wcounts[2] = { 0, 0 }, *counts, args[3], i;
    struct gpu g;
    bool ok = false;

    if (gpu_open(&g, "cudavocab")) {
        args[1] = gpu_alloc(&g, sizeof(want));
        args[0] = gpu_alloc(&g, sizeof(want));
        args[2] = gpu_alloc(&g, sizeof(wcounts));
        in = gpu_ptr(&g, args[1]);
        out = gpu_ptr(&g, args[0]);
        counts = gpu_ptr(&g, args[2]);
        for (i = 0; i < VOCAB_THREADS; i++) {
            in[i] = vocab_in(i);
            wcounts[i / 64] += in[i] & 1;
        }
        for (i = 0; i < VOCAB_THREADS; i++) {
            want[i] = in[(i & ~63u) + 63 - (i & 63)];
        }
        ok = launch(&g, "vocab_shared", grid, block, args, 3, scrambled) &&
             same_bits(out, want, sizeof(want), "vocab_shared") &&
             same_bits(counts, wcounts, sizeof(wcounts), "vocab_shared");
        gpu_close(&g);
    }
    tap_check(ok, "__global__, __device__, and __shared__ and SHARED "
              "variables declared in a kernel's body%s", mode(scrambled));
}

/* fmin.s/fmax.s: a NaN gives the other operand, -0 orders below +0. */
static float ref_fminmax(float a, float b, bool max)
{
    if (isnan(a) && isnan(b)) {
        return NAN;
    }
    if (isnan(a) || isnan(b)) {
        return isnan(a) ? b : a;
    }
    if (a == b) {
        return (signbit(a) != 0) == max ? b : a;
    }
    return (a < b) != max ? a : b;
}

static void test_vocab_bits_minmax(bool scrambled)
{
    const uint32_t grid[3] = { 2, 1, 1 }, block[3] = { 64, 1, 1 };
    uint32_t want[VOCAB_BITS_WORDS * VOCAB_THREADS], *out, args[4], i;
    int *a, *b;
    float *f;
    struct gpu g;
    bool ok = false;

    if (gpu_open(&g, "cudavocab")) {
        args[0] = gpu_alloc(&g, sizeof(want));
        args[1] = gpu_alloc(&g, VOCAB_THREADS * 4);
        args[2] = gpu_alloc(&g, VOCAB_THREADS * 4);
        args[3] = gpu_alloc(&g, VOCAB_THREADS * 8);
        out = gpu_ptr(&g, args[0]);
        a = gpu_ptr(&g, args[1]);
        b = gpu_ptr(&g, args[2]);
        f = gpu_ptr(&g, args[3]);
        for (i = 0; i < VOCAB_THREADS; i++) {
            a[i] = vocab_in(i);
            b[i] = i % 5 == 0 ? a[i] : vocab_in(i + 1000);
            f[2 * i] = i % 9 == 1 ? NAN : (float)vocab_in(i + 7) * 0.125f;
            f[2 * i + 1] = i % 11 == 2 ? NAN : i % 13 == 3 ? -0.0f :
                           (float)vocab_in(i + 9) * 0.25f;
            if (i % 13 == 3) {
                f[2 * i] = 0.0f;
            }
        }
        for (i = 0; i < VOCAB_THREADS; i++) {
            uint32_t *o = want + VOCAB_BITS_WORDS * i;
            int x = a[i], y = b[i];
            long long wide = (long long)x * (1 << 20);
            float gg = f[2 * i], h = f[2 * i + 1];

            o[0] = fbits(gg);
            o[1] = (uint32_t)x;
            o[2] = fbits(h);
            o[3] = (uint32_t)y;
            o[4] = (uint32_t)(x < y ? x : y);
            o[5] = (uint32_t)(x > y ? x : y);
            o[6] = (uint32_t)x < (uint32_t)y ? (uint32_t)x : (uint32_t)y;
            o[7] = (uint32_t)x > (uint32_t)y ? (uint32_t)x : (uint32_t)y;
            o[8] = fbits(ref_fminmax(gg, h, false));
            o[9] = fbits(ref_fminmax(gg, h, true));
            o[10] = o[6];
            o[11] = o[7];
            o[12] = (uint32_t)(wide < y ? wide : y);
            o[13] = (uint32_t)((uint64_t)(wide > y ? wide : y) >> 32);
            o[14] = (uint32_t)((short)x < (short)y ? (short)x : (short)y);
            o[15] = i < 7 ? i : 7;
        }
        ok = launch(&g, "vocab_bits_minmax", grid, block, args, 4,
                    scrambled) &&
             same_bits(out, want, sizeof(want), "vocab_bits_minmax");
        gpu_close(&g);
    }
    tap_check(ok, "__float_as_uint/__uint_as_float/__float_as_int/"
              "__int_as_float, min/max on int, unsigned, mixed, float with "
              "NaN and -0, long long and short, umin/umax%s",
              mode(scrambled));
}

static void test_vocab_vectors(bool scrambled)
{
    const uint32_t grid[3] = { 2, 1, 1 }, block[3] = { 64, 1, 1 };
    uint32_t want[VOCAB_VEC_WORDS * VOCAB_THREADS], *out, *u, args[3], i;
    float *fin;
    struct gpu g;
    bool ok = false;

    if (gpu_open(&g, "cudavocab")) {
        args[0] = gpu_alloc(&g, sizeof(want));
        args[1] = gpu_alloc(&g, VOCAB_THREADS * 16);
        args[2] = gpu_alloc(&g, VOCAB_THREADS * 16);
        out = gpu_ptr(&g, args[0]);
        fin = gpu_ptr(&g, args[1]);
        u = gpu_ptr(&g, args[2]);
        for (i = 0; i < 4 * VOCAB_THREADS; i++) {
            fin[i] = (float)vocab_in(i) * 0.0625f;
            u[i] = (uint32_t)vocab_in(i + 500);
        }
        for (i = 0; i < VOCAB_THREADS; i++) {
            uint32_t *o = want + VOCAB_VEC_WORDS * i;
            const float *a = fin + 4 * i;
            const uint32_t *v = u + 4 * i;

            o[0] = fbits(a[3]);
            o[1] = fbits(a[2] * 2.0f);
            o[2] = fbits(a[1] + a[0]);
            o[3] = fbits(-a[0]);
            o[4] = (uint32_t)((int)v[0] - (int)v[1]);
            o[5] = v[2] ^ v[3];
            o[6] = fbits(a[0] * a[1]);
            o[7] = fbits(a[2]);
            o[8] = fbits((float)v[3]);
            o[9] = v[3];
            o[10] = v[0] + 1;
            o[11] = (1 + 2 * 3 * 4 + 5 * 6 * 7) + 8 * 10 + 9 + fbits(0.75f);
            o[12] = 8 | 8 << 8;                 /* float2 */
            o[13] = 12 | 4 << 8;                /* float3 */
            o[14] = 16 | 16 << 8;               /* float4 */
            o[15] = 8 | 8 << 8;                 /* int2 */
            o[16] = 12 | 4 << 8;                /* int3 */
            o[17] = 16 | 16 << 8;               /* int4 */
            o[18] = 8 | 8 << 8;                 /* uint2 */
            o[19] = 16 | 16 << 8;               /* uint4 */
        }
        ok = launch(&g, "vocab_vectors", grid, block, args, 3, scrambled) &&
             same_bits(out, want, sizeof(want), "vocab_vectors");
        gpu_close(&g);
    }
    tap_check(ok, "float2/3/4, int2/3/4, uint2/3/4 with make_*, with CUDA's "
              "sizes and alignments%s", mode(scrambled));
}

/* CUDA's atomicInc and atomicDec steps. */
static uint32_t inc_step(uint32_t old, uint32_t limit)
{
    return old >= limit ? 0 : old + 1;
}

static uint32_t dec_step(uint32_t old, uint32_t limit)
{
    return old == 0 || old > limit ? limit : old - 1;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return x < y ? -1 : x > y;
}

/*
 * @n threads each applied @step once, in some order, to a counter that
 * started at @start: the old values they saw (every @stride-th word of
 * @olds) must be the counter's first @n values in some order, and @final
 * its value after them.
 */
static bool wrap_sequence(const uint32_t *olds, uint32_t stride, uint32_t n,
                          uint32_t start, uint32_t final, uint32_t limit,
                          uint32_t (*step)(uint32_t, uint32_t),
                          const char *what)
{
    uint32_t got[VOCAB_THREADS], want[VOCAB_THREADS], v = start, i;

    for (i = 0; i < n; i++) {
        got[i] = olds[i * stride];
        want[i] = v;
        v = step(v, limit);
    }
    qsort(got, n, 4, cmp_u32);
    qsort(want, n, 4, cmp_u32);
    if (final != v) {
        tap_diag("%s: final value %u, want %u", what, final, v);
        return false;
    }
    return same_bits(got, want, n * 4, what);
}

static void test_vocab_atomic_wrap(bool scrambled)
{
    const uint32_t grid[3] = { 2, 1, 1 }, block[3] = { 64, 1, 1 };
    const uint32_t inc_limit = 9, dec_limit = 20;
    uint32_t *counters, *olds, args[4];
    struct gpu g;
    bool ok = false;

    if (gpu_open(&g, "cudavocab")) {
        args[0] = gpu_alloc(&g, 8 * 4);
        args[1] = gpu_alloc(&g, VOCAB_THREADS * 16);
        args[2] = inc_limit;
        args[3] = dec_limit;
        counters = gpu_ptr(&g, args[0]);
        olds = gpu_ptr(&g, args[1]);
        counters[0] = 4;
        counters[1] = 2;
        counters[2] = 50;               /* above the limit: wraps to 0 */
        counters[3] = 0;                /* wraps to the limit */
        ok = launch(&g, "vocab_atomic_wrap", grid, block, args, 4,
                    scrambled) &&
             wrap_sequence(olds, 4, VOCAB_THREADS, 4, counters[0],
                           inc_limit, inc_step, "global atomicInc") &&
             wrap_sequence(olds + 1, 4, VOCAB_THREADS, 2, counters[1],
                           dec_limit, dec_step, "global atomicDec") &&
             wrap_sequence(olds + 2, 4, 64, 50, counters[4], inc_limit,
                           inc_step, "shared atomicInc, block 0") &&
             wrap_sequence(olds + 2 + 256, 4, 64, 50, counters[6],
                           inc_limit, inc_step, "shared atomicInc, block 1") &&
             wrap_sequence(olds + 3, 4, 64, 0, counters[5], dec_limit,
                           dec_step, "shared atomicDec, block 0") &&
             wrap_sequence(olds + 3 + 256, 4, 64, 0, counters[7], dec_limit,
                           dec_step, "shared atomicDec, block 1");
        gpu_close(&g);
    }
    tap_check(ok, "atomicInc/atomicDec wrap at their limit in global and "
              "shared memory under contention%s", mode(scrambled));
}

/* CUDA's shuffles in segments of @w lanes: the value lane @l reads. */
static uint32_t seg_idx(uint32_t l, uint32_t src, uint32_t w)
{
    return l / w * w + src % w;
}

static uint32_t seg_up(uint32_t l, uint32_t d, uint32_t w)
{
    return l % w < d ? l : l - d;
}

static uint32_t seg_down(uint32_t l, uint32_t d, uint32_t w)
{
    return l % w + d >= w ? l : l + d;
}

static uint32_t seg_xor(uint32_t l, uint32_t m, uint32_t w)
{
    uint32_t src = l ^ m;

    return src > 31 || src / w > l / w ? l : src;
}

static void test_vocab_shfl_width(bool scrambled)
{
    const uint32_t grid[3] = { 2, 1, 1 }, block[3] = { 64, 1, 1 };
    const uint32_t widths[VOCAB_NWIDTHS] = { 2, 4, 8, 16, 32 };
    uint32_t want[VOCAB_SHFL_WORDS * VOCAB_THREADS], *out, *dw, args[3];
    uint32_t i, k;
    int *in;
    struct gpu g;
    bool ok = false;

    if (gpu_open(&g, "cudavocab")) {
        args[0] = gpu_alloc(&g, sizeof(want));
        args[1] = gpu_alloc(&g, VOCAB_THREADS * 4);
        args[2] = gpu_alloc(&g, sizeof(widths));
        out = gpu_ptr(&g, args[0]);
        in = gpu_ptr(&g, args[1]);
        dw = gpu_ptr(&g, args[2]);
        memcpy(dw, widths, sizeof(widths));
        for (i = 0; i < VOCAB_THREADS; i++) {
            in[i] = vocab_in(i);
        }
        for (i = 0; i < VOCAB_THREADS; i++) {
            uint32_t *o = want + VOCAB_SHFL_WORDS * i, l = i % 32;
            const int *warp = in + (i - l);

            for (k = 0; k < VOCAB_NWIDTHS; k++, o += 6) {
                uint32_t w = widths[k];

                o[0] = (uint32_t)warp[seg_idx(l, l * 7 + 3, w)];
                o[1] = (uint32_t)warp[seg_up(l, k + 1, w)];
                o[2] = (uint32_t)warp[seg_down(l, k + 1, w)];
                o[3] = (uint32_t)warp[seg_xor(l, w | 1, w)];
                o[4] = fbits((float)warp[seg_xor(l, w / 2, w)] * 0.5f);
                o[5] = (uint32_t)warp[seg_down(l, w - 1, w)];
            }
            o[0] = (uint32_t)warp[seg_xor(l, 1, 16)];
            o[1] = (uint32_t)warp[seg_idx(l, 5, 8)];
            o[2] = (uint32_t)warp[seg_down(l, 3, 32)];
        }
        ok = launch(&g, "vocab_shfl_width", grid, block, args, 3,
                    scrambled) &&
             same_bits(out, want, sizeof(want), "vocab_shfl_width");
        gpu_close(&g);
    }
    tap_check(ok, "__shfl_sync/__shfl_up_sync/__shfl_down_sync/"
              "__shfl_xor_sync with a width of 2 to 32, at run time and "
              "constant%s", mode(scrambled));
}

int main(int argc, char **argv)
{
    int pass;

    image_args_set(argc, argv);
    for (pass = 0; pass < 2; pass++) {
        bool scrambled = pass == 1;

        test_vecadd(scrambled);
        test_saxpy(scrambled);
        test_matmul(scrambled);
        test_lsearch(scrambled);
        test_reduce("reduce_tree", scrambled);
        test_reduce("reduce_warp", scrambled);
        test_histogram(scrambled);
        test_calls(scrambled);
        test_atomics(scrambled);
        test_vote(scrambled);
        test_ids(scrambled);
        test_dynshared(scrambled);
        test_spin_kernel(scrambled, "spin", 300, spin_ref,
                         "long-running loop");
        test_spin_kernel(scrambled, "fspin", 300, fspin_host,
                         "long-running fp32 loop, bits as the host's");
        test_spin_kernel(scrambled, "mspin", 100, mspin_host,
                         "load-store loop on one word per thread");
        test_spin_held(scrambled);
        test_divergent(scrambled);
        test_persistent(scrambled);
        test_warpopt(scrambled);
        test_cuda(scrambled);
        test_vocab_shared(scrambled);
        test_vocab_bits_minmax(scrambled);
        test_vocab_vectors(scrambled);
        test_vocab_atomic_wrap(scrambled);
        test_vocab_shfl_width(scrambled);
    }
    return tap_done();
}
