/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for kernels on the simt device: queues and commands, the block
 * scheduler, SMs and the timing model.  Kernels are C compiled for the
 * SIMT lanes by the host build (kernels/), loaded from the images in
 * $SIMT_KERNEL_DIR, and checked against results computed here.
 * Everything runs on the virtual clock, stepped by the test.
 */

#include "qemu/osdep.h"
#include <math.h>
#include "qemu/host-utils.h"
#include "qemu/units.h"
#include "simt-qtest.h"
#include "simt-divergent-ref.h"

static void test_vecadd(void)
{
    Dev *d = dev_start(NULL);
    enum { N = 1000 };
    float a[N], b[N], c[N];
    uint32_t da, db, dc;

    for (int i = 0; i < N; i++) {
        a[i] = i * 0.5f;
        b[i] = 1000.0f / (i + 1);
    }
    da = vram_alloc(d, a, sizeof(a));
    db = vram_alloc(d, b, sizeof(b));
    dc = vram_alloc(d, NULL, sizeof(c));
    run_ok(d, 0, &(Launch) {
        .kernel = "vecadd", .grid = { (N + 127) / 128 }, .block = { 128 },
        .args = { da, db, dc, N },
    }, NULL);
    vram_read(d, dc, c, sizeof(c));
    for (int i = 0; i < N; i++) {
        g_assert_cmpfloat(c[i], ==, a[i] + b[i]);
    }
    dev_stop(d);
}

static void test_matmul(void)
{
    Dev *d = dev_start(NULL);
    enum { N = 48, TILE = 16 };
    static float a[N * N], b[N * N], c[N * N];
    uint32_t da, db, dc;

    for (int i = 0; i < N * N; i++) {
        a[i] = (i % 17) * 0.25f - 2.0f;
        b[i] = (i % 13) * 0.125f + 1.0f / (1 + i % 7);
    }
    use_image(d, "matmul");
    da = vram_alloc(d, a, sizeof(a));
    db = vram_alloc(d, b, sizeof(b));
    dc = vram_alloc(d, NULL, sizeof(c));
    run_ok(d, 0, &(Launch) {
        .kernel = "matmul", .grid = { N / TILE, N / TILE },
        .block = { TILE, TILE }, .args = { da, db, dc, N },
    }, NULL);
    vram_read(d, dc, c, sizeof(c));
    for (int row = 0; row < N; row++) {
        for (int col = 0; col < N; col++) {
            float sum = 0.0f;

            /* The kernel's order of fused multiply-adds. */
            for (int k = 0; k < N; k++) {
                sum = fmaf(a[row * N + k], b[k * N + col], sum);
            }
            g_assert_cmphex(fbits(c[row * N + col]), ==,
                            fbits(sum));
        }
    }
    dev_stop(d);
}

static void test_reduce(void)
{
    Dev *d = dev_start(NULL);
    enum { N = 2000, T = 256, BLOCKS = (N + T - 1) / T };
    float in[N], out[BLOCKS];
    uint32_t din, dout;

    for (int i = 0; i < N; i++) {
        in[i] = (i % 100) * 0.01f + 1.0f / (i + 3);
    }
    use_image(d, "reduce");
    din = vram_alloc(d, in, sizeof(in));
    dout = vram_alloc(d, NULL, sizeof(out));
    run_ok(d, 0, &(Launch) {
        .kernel = "reduce_tree", .grid = { BLOCKS }, .block = { T },
        .args = { din, dout, N },
    }, NULL);
    vram_read(d, dout, out, sizeof(out));
    for (int blk = 0; blk < BLOCKS; blk++) {
        float p[T];

        /* The same tree, in the same order, as the kernel. */
        for (int t = 0; t < T; t++) {
            int i = blk * T + t;

            p[t] = i < N ? in[i] : 0.0f;
        }
        for (int s = T / 2; s > 0; s /= 2) {
            for (int t = 0; t < s; t++) {
                p[t] += p[t + s];
            }
        }
        g_assert_cmphex(fbits(out[blk]), ==,
                        fbits(p[0]));
    }
    dev_stop(d);
}

static void test_divergent(void)
{
    Dev *d = dev_start(NULL);
    enum { N = 500 };
    uint32_t out[N + 12];
    uint32_t dout;

    dout = vram_alloc(d, NULL, sizeof(out));
    run_ok(d, 0, &(Launch) {
        .kernel = "divergent", .grid = { 4 }, .block = { 128 },
        .args = { dout, N },
    }, NULL);
    vram_read(d, dout, out, sizeof(out));
    for (uint32_t i = 0; i < N; i++) {
        g_assert_cmphex(out[i], ==, divergent_ref(i));
    }
    for (uint32_t i = N; i < N + 12; i++) {
        g_assert_cmphex(out[i], ==, 0);
    }
    dev_stop(d);
}

static void test_histogram(void)
{
    Dev *d = dev_start(NULL);
    enum { N = 5000, BINS = 256 };
    uint8_t data[N];
    uint32_t bins[BINS], ref[BINS] = { 0 };
    uint32_t ddata, dbins;

    for (int i = 0; i < N; i++) {
        data[i] = (i * 7 + i / 13) & 0xff;
        ref[data[i]]++;
    }
    /* Many blocks add into the same bins at once. */
    use_image(d, "histogram");
    ddata = vram_alloc(d, data, sizeof(data));
    dbins = vram_alloc(d, NULL, sizeof(bins));
    run_ok(d, 0, &(Launch) {
        .kernel = "histogram", .grid = { 8 }, .block = { 128 },
        .args = { ddata, N, dbins },
    }, NULL);
    vram_read(d, dbins, bins, sizeof(bins));
    for (int b = 0; b < BINS; b++) {
        g_assert_cmpuint(bins[b], ==, ref[b]);
    }
    dev_stop(d);
}

/* Wait until @n blocks have retired on the whole device. */
static void wait_blocks_done(Dev *d, uint32_t n)
{
    for (int64_t t = 0; t < WAIT_LIMIT_NS; t += 1000) {
        if (rd(d, SIMT_REG_BLOCKS_DONE) >= n) {
            return;
        }
        qtest_clock_step(d->qts, 1000);
    }
    g_assert_not_reached();
}

/*
 * Seed 001's harness: kernel X holds one block per SM for a time
 * proportional to the SM id; once X0 has retired, kernel Y's blocks show
 * where the scheduler puts them.
 */
static void placement_after_x0(const char *preset, uint32_t x_threads,
                               uint32_t y_blocks, uint32_t y_threads,
                               const uint32_t *expect)
{
    g_autofree char *props = g_strdup_printf("preset=%s", preset);
    Dev *d = dev_start(props);
    uint32_t xout = vram_alloc(d, NULL, 4 * d->nsm);
    uint32_t yout = vram_alloc(d, NULL, 4 * y_blocks);
    uint32_t got[64];
    struct simt_completion r;
    uint32_t yidx;

    launch(d, 0, &(Launch) {
        .kernel = "hold_sm", .grid = { d->nsm }, .block = { x_threads },
        .args = { xout, 20000 },
    });
    wait_blocks_done(d, 1);
    g_assert_cmpuint(rd(d, SIMT_REG_BLOCKS_RESIDENT), ==, d->nsm - 1);

    yidx = launch(d, 1, &(Launch) {
        .kernel = "record_sm", .grid = { y_blocks }, .block = { y_threads },
        .args = { yout },
    });
    wait_queue(d, 1, yidx);
    read_record(d, 1, yidx, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
    vram_read(d, yout, got, 4 * y_blocks);
    for (uint32_t i = 0; i < y_blocks; i++) {
        g_assert_cmpuint(got[i], ==, expect[i]);
    }
    dev_stop(d);
}

static void test_placement_pascal_threads(void)
{
    static const uint32_t expect[] = { 0, 0, 1 };

    placement_after_x0("pascal-5", 256, 3, 160, expect);
}

static void test_placement_pascal_block_slots(void)
{
    static const uint32_t expect[] = { 0, 0, 1 };

    placement_after_x0("pascal-5", 1024, 3, 32, expect);
}

static void test_placement_pascal_warps(void)
{
    static const uint32_t expect[] = { 0, 0, 0 };

    placement_after_x0("pascal-5", 1024, 3, 33, expect);
}

/*
 * Turing-68: A (67 x 512 threads) fills SMs in evens-then-odds order and
 * leaves SM67 empty; B, launched behind it, lands by most room.
 */
static void placement_turing(uint32_t b_blocks, uint32_t b_threads,
                             const uint32_t *expect)
{
    Dev *d = dev_start("preset=turing-68");
    uint32_t aout = vram_alloc(d, NULL, 4 * 67);
    uint32_t bout = vram_alloc(d, NULL, 4 * b_blocks);
    uint32_t got[67];
    uint32_t aidx, bidx;

    g_assert_cmpuint(d->nsm, ==, 68);
    aidx = launch(d, 0, &(Launch) {
        .kernel = "hold", .grid = { 67 }, .block = { 512 },
        .args = { aout, 30000 },
    });
    bidx = launch(d, 1, &(Launch) {
        .kernel = "record_sm", .grid = { b_blocks }, .block = { b_threads },
        .args = { bout },
    });
    wait_queue(d, 1, bidx);
    vram_read(d, bout, got, 4 * b_blocks);
    for (uint32_t i = 0; i < b_blocks; i++) {
        g_assert_cmpuint(got[i], ==, expect[i]);
    }
    wait_queue(d, 0, aidx);
    vram_read(d, aout, got, 4 * 67);
    for (uint32_t i = 0; i < 67; i++) {
        g_assert_cmpuint(got[i], ==, i < 34 ? 2 * i : 2 * (i - 34) + 1);
    }
    dev_stop(d);
}

static void test_placement_turing_32(void)
{
    static const uint32_t expect[] = { 67, 0, 2, 4, 6, 8, 10, 12 };

    placement_turing(8, 32, expect);
}

static void test_placement_turing_33(void)
{
    static const uint32_t expect[] = { 67, 67, 67, 67, 67, 67, 67, 67 };

    placement_turing(8, 33, expect);
}

static void test_placement_turing_33_9(void)
{
    static const uint32_t expect[] = { 67, 67, 67, 67, 67, 67, 67, 67, 0 };

    placement_turing(9, 33, expect);
}

/*
 * One SM, two kernel slots: blocks of two queues' kernels share it at the
 * same time, a third kernel waits until a slot frees.
 */
static void test_kernel_slots(void)
{
    Dev *d = dev_start("sm-count=1,kernel-slots=2");
    uint32_t dstart[3], dend[3], idx[3];
    uint32_t start[3][2], end[3][2];

    for (int k = 0; k < 3; k++) {
        uint32_t out = vram_alloc(d, NULL, 8);

        dstart[k] = vram_alloc(d, NULL, 8);
        dend[k] = vram_alloc(d, NULL, 8);
        idx[k] = launch(d, k, &(Launch) {
            .kernel = "hold", .grid = { 2 }, .block = { 64 },
            .args = { out, 20000, dstart[k], dend[k] },
        });
    }
    for (int k = 0; k < 3; k++) {
        wait_queue(d, k, idx[k]);
        vram_read(d, dstart[k], start[k], sizeof(start[k]));
        vram_read(d, dend[k], end[k], sizeof(end[k]));
    }
    /* Kernels 0 and 1 overlap on the SM; kernel 2 starts after one ends. */
    g_assert_cmpuint(start[1][0], <, end[0][0]);
    g_assert_cmpuint(start[0][0], <, end[1][0]);
    g_assert_cmpuint(start[2][0], >=,
                     MIN(MAX(end[0][0], end[0][1]), MAX(end[1][0], end[1][1])));
    dev_stop(d);
}

/*
 * Priority reorders dispatch only: with the single SM busy, a high and a
 * low priority kernel wait; the high one's blocks go first.
 */
/*
 * Two kernels wait behind a running one on an SM with one block slot.
 * By priority, the later and higher one runs first; with fifo-dispatch,
 * launch order decides, and the high kernel preempts nothing although
 * the low one's context allows switches.
 */
static void priority_order(bool fifo)
{
    Dev *d = dev_start(fifo ? "sm-count=1,sm-blocks=1,fifo-dispatch=on"
                            : "sm-count=1,sm-blocks=1");
    uint32_t busy = vram_alloc(d, NULL, 8);
    uint32_t lo_s = vram_alloc(d, NULL, 8), lo_e = vram_alloc(d, NULL, 8);
    uint32_t hi_s = vram_alloc(d, NULL, 8), hi_e = vram_alloc(d, NULL, 8);
    uint32_t lo_start, lo_end, hi_start, hi_end;
    uint32_t idx_lo, idx_hi;

    g_assert_cmphex(rd(d, SIMT_REG_CAPS) & SIMT_CAP_FIFO_DISPATCH, ==,
                    fifo ? SIMT_CAP_FIFO_DISPATCH : 0);
    if (fifo) {
        wr(d, SIMT_CTX_REG(0, SIMT_CREG_PREEMPT_MODE), SIMT_PMODE_SWITCH);
        wr(d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_BASE), 0x800000);
        wr(d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_SIZE), 0x800000);
    }
    qwr(d, 2, SIMT_QREG_PRIORITY, SIMT_MAX_PRIORITY);
    launch(d, 0, &(Launch) {
        .kernel = "hold", .grid = { 1 }, .block = { 32 },
        .args = { busy, 10000 },
    });
    qtest_clock_step(d->qts, 2000);
    idx_lo = launch(d, 1, &(Launch) {
        .kernel = "hold", .grid = { 1 }, .block = { 32 },
        .args = { busy + 4, 5000, lo_s, lo_e },
    });
    qtest_clock_step(d->qts, 2000);
    idx_hi = launch(d, 2, &(Launch) {
        .kernel = "hold", .grid = { 1 }, .block = { 32 },
        .args = { busy + 4, 5000, hi_s, hi_e },
    });
    wait_queue(d, 1, idx_lo);
    wait_queue(d, 2, idx_hi);
    vram_read(d, lo_s, &lo_start, 4);
    vram_read(d, lo_e, &lo_end, 4);
    vram_read(d, hi_s, &hi_start, 4);
    vram_read(d, hi_e, &hi_end, 4);
    if (fifo) {
        g_assert_cmpuint(lo_end, <=, hi_start);
        g_assert_cmpuint(rd(d, SIMT_REG_PEV_COUNT), ==, 0);
    } else {
        g_assert_cmpuint(hi_end, <=, lo_start);
    }
    dev_stop(d);
}

static void test_priority_order(void)
{
    priority_order(false);
}

static void test_fifo_dispatch(void)
{
    priority_order(true);
}

/* A command on @q that must stop the queue with @error. */
static void expect_queue_error(Dev *d, unsigned q, const void *cmd,
                               uint32_t error)
{
    uint32_t idx = submit(d, q, cmd);
    uint32_t st = wait_queue(d, q, idx);

    g_assert_cmpuint(st, ==, SIMT_QSTATE_ERROR);
    g_assert_cmpuint(SIMT_QSTATUS_ERROR(qrd(d, q, SIMT_QREG_STATUS)), ==,
                     error);
    g_assert_cmpuint(qrd(d, q, SIMT_QREG_ERROR_CMD), ==, idx);
    g_assert_cmpuint(qrd(d, q, SIMT_QREG_HEAD), ==, idx);
    g_assert_true(rd(d, SIMT_REG_IRQ_STATUS) & SIMT_IRQ_BIT(SIMT_IRQ_ERROR));
    wr(d, SIMT_REG_IRQ_STATUS, SIMT_IRQ_ALL);

    /* Reset brings the queue back. */
    qwr(d, q, SIMT_QREG_CONTROL, SIMT_QCTL_RESET);
    g_assert_cmpuint(qrd(d, q, SIMT_QREG_STATUS), ==, SIMT_QSTATE_DISABLED);
    queue_setup(d, q, 0);
}

static void test_malformed_commands(void)
{
    Dev *d = dev_start(NULL);
    uint32_t out = vram_alloc(d, NULL, 4 * 64);
    uint32_t cmd[SIMT_CMD_SIZE / 4] = { 0 };
    struct simt_cmd_launch *l = (void *)cmd;
    const struct simt_kernel_info *k = simt_image_kernel(d->img,
                                                         "record_sm");
    uint32_t good[64];

    cmd[0] = 0x77;
    expect_queue_error(d, 0, cmd, SIMT_QERR_BAD_OPCODE);

    cmd[0] = SIMT_CMD_NOP;
    cmd[1] = 0x80;      /* unknown flag */
    expect_queue_error(d, 0, cmd, SIMT_QERR_BAD_COMMAND);

    memset(cmd, 0, sizeof(cmd));
    cmd[0] = SIMT_CMD_SIGNAL;
    cmd[2] = SEM_ADDR + 4;  /* misaligned */
    expect_queue_error(d, 0, cmd, SIMT_QERR_BAD_COMMAND);

    memset(cmd, 0, sizeof(cmd));
    l->opcode = SIMT_CMD_LAUNCH;
    l->code_addr = d->img->code_start;
    l->code_size = d->img->code_end - d->img->code_start;
    l->entry = k->m.entry;
    l->grid[0] = l->grid[1] = l->grid[2] = 1;
    l->block[0] = 32;
    l->block[1] = 0;    /* empty block */
    l->block[2] = 1;
    l->regs = 16;
    expect_queue_error(d, 0, cmd, SIMT_QERR_BAD_COMMAND);

    l->block[1] = 1;
    l->grid[0] = 1u << 22;  /* 2^64 blocks: 0 in 64-bit arithmetic */
    l->grid[1] = l->grid[2] = 1u << 21;
    expect_queue_error(d, 0, cmd, SIMT_QERR_BAD_COMMAND);
    l->grid[0] = l->grid[1] = l->grid[2] = 0xffffffffu;
    expect_queue_error(d, 0, cmd, SIMT_QERR_BAD_COMMAND);
    l->grid[0] = l->grid[1] = 1u << 16; /* 2^32 blocks */
    l->grid[2] = 1;
    expect_queue_error(d, 0, cmd, SIMT_QERR_BAD_COMMAND);
    l->grid[0] = l->grid[1] = l->grid[2] = 1;

    l->block[0] = 1024;
    l->regs = 64;       /* 64K registers: more than an SM has */
    expect_queue_error(d, 0, cmd, SIMT_QERR_BAD_LAUNCH);

    l->regs = 16;
    l->block[0] = 32;
    l->code_size = 0x7ffffff0;  /* code beyond VRAM */
    expect_queue_error(d, 0, cmd, SIMT_QERR_BAD_COMMAND);

    l->code_size = d->img->code_end - d->img->code_start;
    l->pp_count = l->code_size / 4 + 1;  /* more points than instructions */
    expect_queue_error(d, 0, cmd, SIMT_QERR_BAD_COMMAND);
    l->pp_count = 1;
    l->pp_addr = (uint32_t)d->vram_size;  /* points beyond VRAM */
    expect_queue_error(d, 0, cmd, SIMT_QERR_BAD_COMMAND);
    {
        /* Points out of order, misaligned, outside the code */
        const uint32_t bad_pp[3][2] = {
            { l->entry + 4, l->entry }, { l->entry, l->entry + 6 },
            { l->entry, l->code_addr + l->code_size },
        };

        for (int i = 0; i < 3; i++) {
            l->pp_addr = vram_alloc(d, bad_pp[i], sizeof(bad_pp[i]));
            l->pp_count = 2;
            expect_queue_error(d, 0, cmd, SIMT_QERR_BAD_COMMAND);
        }
    }
    l->pp_count = 0;

    /* A ring the device cannot read. */
    qwr(d, 0, SIMT_QREG_CONTROL, 0);
    qwr(d, 0, SIMT_QREG_BASE_HI, 0x100);
    qwr(d, 0, SIMT_QREG_CONTROL, SIMT_QCTL_ENABLE);
    qwr(d, 0, SIMT_QREG_TAIL, 1);
    qtest_clock_step(d->qts, 100000);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_STATUS), ==,
                     SIMT_QSTATUS(SIMT_QSTATE_ERROR, SIMT_QERR_DMA));
    qwr(d, 0, SIMT_QREG_CONTROL, SIMT_QCTL_RESET);

    /* A ring that is not a power of two. */
    qwr(d, 0, SIMT_QREG_BASE_HI, 0);
    qwr(d, 0, SIMT_QREG_SIZE, 48);
    qwr(d, 0, SIMT_QREG_CONTROL, SIMT_QCTL_ENABLE);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_STATUS), ==,
                     SIMT_QSTATUS(SIMT_QSTATE_ERROR, SIMT_QERR_BAD_RING));

    /* Through all of that, another queue works. */
    run_ok(d, 1, &(Launch) {
        .kernel = "record_sm", .grid = { 64 }, .block = { 32 },
        .args = { out },
    }, NULL);
    vram_read(d, out, good, sizeof(good));
    for (int i = 0; i < 64; i++) {
        g_assert_cmpuint(good[i], <, d->nsm);
    }
    dev_stop(d);
}

/* The ids kernel's words per thread (kernels/ids.c) */
#define IDS_WORDS 17
#define IDS_THREADS 2

/*
 * Run blocks [@first, @first + @count) of ids over @grid (count 0: all)
 * and check every block: those in the subgrid wrote their coordinates in
 * the whole grid and the whole grid's size, the others nothing.
 */
static void check_subgrid(Dev *d, const uint32_t grid[3], uint32_t first,
                          uint32_t count)
{
    uint32_t nblocks = grid[0] * grid[1] * grid[2];
    size_t words = (size_t)nblocks * IDS_THREADS * IDS_WORDS;
    g_autofree uint32_t *out = g_new(uint32_t, words);
    uint32_t last = count ? first + count : nblocks;
    uint32_t done = rd(d, SIMT_REG_BLOCKS_DONE);
    struct simt_completion r;
    uint32_t buf;

    memset(out, 0xff, words * 4);
    buf = vram_alloc(d, out, words * 4);
    run_ok(d, 0, &(Launch) {
        .kernel = "ids", .grid = { grid[0], grid[1], grid[2] },
        .block = { IDS_THREADS }, .args = { buf },
        .first_block = first, .block_count = count,
    }, &r);
    g_assert_cmpuint(r.blocks, ==, last - first);
    g_assert_cmpuint(rd(d, SIMT_REG_BLOCKS_DONE) - done, ==, last - first);
    vram_read(d, buf, out, words * 4);
    for (uint32_t b = 0; b < nblocks; b++) {
        for (uint32_t t = 0; t < IDS_THREADS; t++) {
            const uint32_t *o = out + (b * IDS_THREADS + t) * IDS_WORDS;

            if (b < first || b >= last) {
                g_assert_cmphex(o[0], ==, 0xffffffff);
                g_assert_cmphex(o[3], ==, 0xffffffff);
                continue;
            }
            g_assert_cmpuint(o[0], ==, t);
            g_assert_cmpuint(o[3], ==, b % grid[0]);
            g_assert_cmpuint(o[4], ==, b / grid[0] % grid[1]);
            g_assert_cmpuint(o[5], ==, b / (grid[0] * grid[1]));
            g_assert_cmpuint(o[9], ==, grid[0]);
            g_assert_cmpuint(o[10], ==, grid[1]);
            g_assert_cmpuint(o[11], ==, grid[2]);
        }
    }
}

/*
 * Subgrid launches (seed 002's subkernels): block and grid indices of the
 * whole grid in 1, 2 and 3 dimensions, ranges that start and end in the
 * middle of a row or a plane, block_count 0 as the whole grid, and a grid
 * run piece by piece.
 */
static void test_subgrid_ids(void)
{
    Dev *d = dev_start(NULL);
    static const uint32_t g1[3] = { 7, 1, 1 };
    static const uint32_t g2[3] = { 5, 3, 1 };
    static const uint32_t g3[3] = { 3, 4, 2 };

    use_image(d, "ids");
    check_subgrid(d, g1, 2, 3);
    check_subgrid(d, g1, 6, 1);
    check_subgrid(d, g1, 0, 0);
    check_subgrid(d, g2, 4, 7);     /* from the end of row 0 to mid row 2 */
    check_subgrid(d, g2, 10, 5);    /* exactly the last row */
    check_subgrid(d, g2, 0, 15);
    check_subgrid(d, g3, 5, 13);    /* mid row of plane 0 to plane 1 */
    check_subgrid(d, g3, 23, 1);
    check_subgrid(d, g3, 0, 0);
    dev_stop(d);
}

/*
 * A subgrid outside the grid, overflowing, or with an offset but no
 * count is a bad command, and no block runs.
 */
static void test_subgrid_refused(void)
{
    Dev *d = dev_start(NULL);
    const struct simt_kernel_info *k;
    uint32_t cmd[SIMT_CMD_SIZE / 4] = { 0 };
    struct simt_cmd_launch *l = (void *)cmd;
    static const uint32_t bad[][2] = {
        { 1, 0 },               /* an offset without a count */
        { 0, 25 },              /* one block beyond the 24 */
        { 20, 5 },
        { 24, 1 },
        { 0xffffffffu, 2 },     /* the end wraps around to 1 */
        { 2, 0xffffffffu },
    };
    uint32_t out;

    use_image(d, "ids");
    k = simt_image_kernel(d->img, "ids");
    out = vram_alloc(d, NULL, 24 * IDS_THREADS * IDS_WORDS * 4);
    l->opcode = SIMT_CMD_LAUNCH;
    l->code_addr = d->img->code_start;
    l->code_size = d->img->code_end - d->img->code_start;
    l->entry = k->m.entry;
    l->grid[0] = 3;
    l->grid[1] = 4;
    l->grid[2] = 2;
    l->block[0] = IDS_THREADS;
    l->block[1] = l->block[2] = 1;
    l->regs = ctpop32(k->m.int_regs_used) + ctpop32(k->m.fp_regs_used);
    l->local_size = k->m.local_bytes;
    l->local_base = VRAM_LOCAL;
    l->args[0] = out;
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        l->first_block = bad[i][0];
        l->block_count = bad[i][1];
        expect_queue_error(d, 0, cmd, SIMT_QERR_BAD_COMMAND);
        g_assert_cmpuint(rd(d, SIMT_REG_BLOCKS_DONE), ==, 0);
    }
    /* The same command with a range inside the grid runs. */
    l->first_block = 20;
    l->block_count = 4;
    g_assert_cmpuint(wait_queue(d, 0, submit(d, 0, cmd)), ==,
                     SIMT_QSTATE_IDLE);
    g_assert_cmpuint(rd(d, SIMT_REG_BLOCKS_DONE), ==, 4);
    l->pp_count = l->code_size / 4 + 1;
    expect_queue_error(d, 0, cmd, SIMT_QERR_BAD_COMMAND);
    dev_stop(d);
}

static void test_kernel_fault(void)
{
    Dev *d = dev_start("vram-size=64M");
    uint32_t out = vram_alloc(d, NULL, 4 * 64);
    uint32_t out2 = vram_alloc(d, NULL, 4 * 64);
    struct simt_completion r;
    uint32_t idx, idx2;

    /* Queue 0 reads past VRAM while queue 1 works alongside. */
    idx = launch(d, 0, &(Launch) {
        .kernel = "load_from", .grid = { 2 }, .block = { 32 },
        .args = { out, 64 * MiB },
    });
    idx2 = launch(d, 1, &(Launch) {
        .kernel = "hold", .grid = { 8 }, .block = { 64 },
        .args = { out2, 20000 },
    });
    g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_ERROR);
    g_assert_cmpuint(SIMT_QSTATUS_ERROR(qrd(d, 0, SIMT_QREG_STATUS)), ==,
                     SIMT_QERR_FAULT);
    read_record(d, 0, idx, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_FAULT);
    g_assert_cmpuint(r.fault, ==, SIMT_FAULT_ACCESS);
    g_assert_cmphex(r.fault_addr, ==, 64 * MiB);
    g_assert_cmpuint(r.fault_pc, >=, d->img->code_start);
    g_assert_cmpuint(r.fault_pc, <, d->img->code_end);
    g_assert_true(rd(d, SIMT_REG_IRQ_STATUS) & SIMT_IRQ_BIT(SIMT_IRQ_ERROR));

    g_assert_cmpuint(wait_queue(d, 1, idx2), ==, SIMT_QSTATE_IDLE);
    read_record(d, 1, idx2, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
    g_assert_cmpuint(r.blocks, ==, 8);
    dev_stop(d);
}

/* SIGNAL writes a fence value; WAIT holds a queue until one arrives. */
static void test_signal_wait(void)
{
    Dev *d = dev_start(NULL);
    uint32_t out = vram_alloc(d, NULL, 4 * 4);
    struct simt_cmd_wait w = {
        .opcode = SIMT_CMD_WAIT, .addr = SEM_ADDR, .value = 5,
    };
    struct simt_cmd_signal sig = {
        .opcode = SIMT_CMD_SIGNAL, .flags = SIMT_CMDF_IRQ,
        .addr = SEM_ADDR + 8, .value = 0x1122334455667788ull,
    };
    uint32_t idx;

    qtest_writeq(d->qts, SEM_ADDR, 0);
    qtest_writeq(d->qts, SEM_ADDR + 8, 0);
    wr(d, SIMT_REG_IRQ_MASK, 0);
    submit(d, 0, &w);
    launch(d, 0, &(Launch) {
        .kernel = "record_sm", .grid = { 4 }, .block = { 32 },
        .args = { out },
    });
    idx = submit(d, 0, &sig);
    qtest_clock_step(d->qts, 200000);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_STATUS), ==, SIMT_QSTATE_WAITING);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_HEAD), ==, 0);
    g_assert_cmphex(qtest_readq(d->qts, SEM_ADDR + 8), ==, 0);

    qtest_writeq(d->qts, SEM_ADDR, 4);
    qtest_clock_step(d->qts, 200000);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_HEAD), ==, 0);

    qtest_writeq(d->qts, SEM_ADDR, 5);
    wait_queue(d, 0, idx);
    g_assert_cmphex(qtest_readq(d->qts, SEM_ADDR + 8), ==,
                    0x1122334455667788ull);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_COMPLETED), ==, 3);
    g_assert_true(rd(d, SIMT_REG_IRQ_STATUS) & SIMT_IRQ_BIT(SIMT_IRQ_QUEUE));
    dev_stop(d);
}

/*
 * SIGNAL with SIMT_CMDF_TIMESTAMP writes the cycle at which the queue
 * reached it: after a copy, the copy's end (within a slice); WAIT
 * refuses the flag.
 */
static void test_signal_timestamp(void)
{
    Dev *d = dev_start(NULL);
    uint64_t size = 256 * KiB, copy_cycles, c0, ts;
    uint32_t bw = rd(d, SIMT_REG_COPY_BW);
    struct simt_cmd_copy c = {
        .opcode = SIMT_CMD_COPY, .flags = SIMT_CMDF_SRC_HOST,
        .src = 0x1000000, .dst = VRAM_DATA, .size = size,
    };
    struct simt_cmd_signal sig = {
        .opcode = SIMT_CMD_SIGNAL, .flags = SIMT_CMDF_TIMESTAMP,
        .addr = SEM_ADDR, .value = 1,
    };
    struct simt_cmd_wait w = {
        .opcode = SIMT_CMD_WAIT, .flags = SIMT_CMDF_TIMESTAMP,
        .addr = SEM_ADDR,
    };

    wr(d, SIMT_REG_DMA_CHUNK, SIMT_MAX_DMA_CHUNK);
    qtest_writeq(d->qts, SEM_ADDR, 0);
    copy_cycles = DIV_ROUND_UP(size, bw);
    c0 = rd(d, SIMT_REG_CYCLE_LO);
    c0 |= (uint64_t)rd(d, SIMT_REG_CYCLE_HI) << 32;
    submit(d, 0, &c);
    wait_queue(d, 0, submit(d, 0, &sig));
    ts = qtest_readq(d->qts, SEM_ADDR);
    g_assert_cmpuint(ts, >=, c0 + copy_cycles);
    g_assert_cmpuint(ts, <=, c0 + copy_cycles + 2 * 1000);
    expect_queue_error(d, 0, &w, SIMT_QERR_BAD_COMMAND);
    dev_stop(d);
}

/* The same work gives the same cycle counts, in one VM and across VMs. */
static void run_matmul_cycles(struct simt_completion *r, int runs)
{
    Dev *d = dev_start("preset=gtx480");
    enum { N = 32 };
    static float a[N * N], b[N * N];
    uint32_t da, db, dc;

    for (int i = 0; i < N * N; i++) {
        a[i] = i * 0.01f;
        b[i] = 1.0f - i * 0.001f;
    }
    use_image(d, "matmul");
    da = vram_alloc(d, a, sizeof(a));
    db = vram_alloc(d, b, sizeof(b));
    dc = vram_alloc(d, NULL, sizeof(a));
    for (int i = 0; i < runs; i++) {
        run_ok(d, 0, &(Launch) {
            .kernel = "matmul", .grid = { 2, 2 }, .block = { 16, 16 },
            .args = { da, db, dc, N },
        }, &r[i]);
    }
    dev_stop(d);
}

static void test_deterministic_cycles(void)
{
    struct simt_completion a[2], b[2];

    run_matmul_cycles(a, 2);
    run_matmul_cycles(b, 2);
    for (int i = 0; i < 2; i++) {
        g_assert_cmpuint(a[i].start_cycle, ==, b[i].start_cycle);
        g_assert_cmpuint(a[i].end_cycle, ==, b[i].end_cycle);
        g_assert_cmpuint(a[i].thread_insns, ==, b[i].thread_insns);
        g_assert_cmpuint(a[i].warp_insns, ==, b[i].warp_insns);
    }
    /* Within one VM the second run takes exactly as long as the first. */
    g_assert_cmpuint(a[0].end_cycle - a[0].start_cycle, ==,
                     a[1].end_cycle - a[1].start_cycle);
    g_assert_cmpuint(a[0].thread_insns, ==, a[1].thread_insns);
}

/*
 * Cycles a kernel takes on a device with @props; its first @nbufs
 * arguments are fresh VRAM buffers of @bytes bytes.
 */
static uint64_t kernel_cycles(const char *props, const Launch *l,
                              int nbufs, uint32_t bytes)
{
    Dev *d = dev_start(props);
    struct simt_completion r;
    Launch run = *l;

    for (int i = 0; i < nbufs; i++) {
        run.args[i] = vram_alloc(d, NULL, bytes);
    }
    run_ok(d, 0, &run, &r);
    dev_stop(d);
    return r.end_cycle - r.start_cycle;
}

/*
 * Run @l (image @image, or the samples) on a device with @props, its
 * first argument a fresh buffer of @out_words words, the second, if
 * @in_words, one of that many words of a fixed pattern; the record in
 * *@r, the first buffer in @out.
 */
static void run_words(const char *props, const char *image, const Launch *l,
                      uint32_t out_words, uint32_t in_words,
                      struct simt_completion *r, uint32_t *out)
{
    Dev *d = dev_start(props);
    g_autofree uint32_t *in = g_new(uint32_t, MAX(in_words, 1));
    Launch run = *l;

    if (image) {
        use_image(d, image);
    }
    for (uint32_t i = 0; i < in_words; i++) {
        in[i] = fbits((i % 100) * 0.01f + 1.0f / (i + 3));
    }
    if (in_words) {
        run.args[0] = vram_alloc(d, in, in_words * 4);
        run.args[1] = vram_alloc(d, NULL, out_words * 4);
    } else {
        run.args[0] = vram_alloc(d, NULL, out_words * 4);
    }
    run_ok(d, 0, &run, r);
    vram_read(d, in_words ? run.args[1] : run.args[0], out, out_words * 4);
    dev_stop(d);
}

/*
 * After a step that finds no warp ready, an SM issues next the warp it
 * found to wake first, without scanning again (simt-sm.c, wake_known).
 * The same cycles and results as scanning at every step
 * (x-wake-shortcut=off): memory-bound grids, where most steps find no
 * warp ready, more blocks than fit at once, warps at barriers and
 * released together by one, one issue port and two; warp_clocks
 * records each warp's clock, which any other choice of warp changes.
 */
static void test_wake_shortcut_same_as_scan(void)
{
    static const struct {
        const char *preset, *image;
        Launch l;
        uint32_t out_words, in_words;
    } runs[] = {
        { "default", NULL, { .kernel = "mspin", .grid = { 48 },
                             .block = { 256 }, .args = { 0, 40 } },
          48 * 256, 0 },
        { "gtx480", NULL, { .kernel = "mspin", .grid = { 120 },
                            .block = { 192 }, .args = { 0, 25 } },
          120 * 192, 0 },
        { "default", "reduce", { .kernel = "reduce_tree", .grid = { 40 },
                                 .block = { 256 },
                                 .args = { 0, 0, 40 * 256 } },
          40, 40 * 256 },
        { "gtx480", "reduce", { .kernel = "reduce_tree", .grid = { 100 },
                                .block = { 128 },
                                .args = { 0, 0, 100 * 128 } },
          100, 100 * 128 },
        /* Warps released together by a barrier: ties in the wake */
        { "default", NULL, { .kernel = "warp_clocks", .grid = { 24 },
                             .block = { 256 }, .args = { 0, 0, 6 } },
          2 * 24 * 6 * 8, 256 },
        { "gtx480", NULL, { .kernel = "warp_clocks", .grid = { 100 },
                            .block = { 320 }, .args = { 0, 0, 4 } },
          2 * 100 * 4 * 10, 256 },
    };

    for (size_t i = 0; i < ARRAY_SIZE(runs); i++) {
        g_autofree char *on = g_strdup_printf("preset=%s", runs[i].preset);
        g_autofree char *off = g_strdup_printf("preset=%s,x-wake-shortcut=off",
                                               runs[i].preset);
        g_autofree uint32_t *a = g_new(uint32_t, runs[i].out_words);
        g_autofree uint32_t *b = g_new(uint32_t, runs[i].out_words);
        struct simt_completion ra, rb;

        run_words(on, runs[i].image, &runs[i].l, runs[i].out_words,
                  runs[i].in_words, &ra, a);
        run_words(off, runs[i].image, &runs[i].l, runs[i].out_words,
                  runs[i].in_words, &rb, b);
        g_test_message("%s on %s: %" PRIu64 " cycles", runs[i].l.kernel,
                       runs[i].preset, ra.end_cycle - ra.start_cycle);
        g_assert_cmpuint(ra.start_cycle, ==, rb.start_cycle);
        g_assert_cmpuint(ra.end_cycle, ==, rb.end_cycle);
        g_assert_cmpuint(ra.warp_insns, ==, rb.warp_insns);
        g_assert_cmpuint(ra.thread_insns, ==, rb.thread_insns);
        g_assert_cmpmem(a, runs[i].out_words * 4, b, runs[i].out_words * 4);
    }
}

/* ALU-bound (8 warps an SM on 4 SMs) and memory-bound, for the timing. */
static const Launch spin_4x256 = {
    .kernel = "spin", .grid = { 4 }, .block = { 256 },
    .args = { 0, 2000 },
};
static const Launch vecadd_32x256 = {
    .kernel = "vecadd", .grid = { 32 }, .block = { 256 },
    .args = { 0, 0, 0, 8192 },
};

/* Issue ports and memory bandwidth show in the cycles kernels take. */
static void test_timing_model(void)
{
    uint64_t one, two, narrow, wide;

    /* ALU-bound with 8 warps per SM: two issue ports take half as long. */
    one = kernel_cycles("issue-rate=1", &spin_4x256, 1, 4 * 1024);
    two = kernel_cycles("issue-rate=2", &spin_4x256, 1, 4 * 1024);
    g_assert_cmpuint(two * 19, <, one * 10);
    g_assert_cmpuint(two * 21, >, one * 10);

    /* Memory-bound: 8 bytes per cycle for 4 SMs is much slower than 4096. */
    narrow = kernel_cycles("mem-bandwidth=8", &vecadd_32x256, 3, 4 * 8192);
    wide = kernel_cycles("mem-bandwidth=4096", &vecadd_32x256, 3,
                         4 * 8192);
    g_assert_cmpuint(narrow, >, 4 * wide);
}

/*
 * ideal-memory=on makes global accesses cost what shared ones do: a
 * memory-bound kernel runs much faster, and one whose only global access
 * is a store per thread at its end takes the same cycles.
 */
static void test_ideal_memory(void)
{
    uint64_t real, ideal;

    real = kernel_cycles("mem-bandwidth=8", &vecadd_32x256, 3, 4 * 8192);
    ideal = kernel_cycles("mem-bandwidth=8,ideal-memory=on", &vecadd_32x256,
                          3, 4 * 8192);
    g_assert_cmpuint(ideal * 4, <, real);
    real = kernel_cycles(NULL, &spin_4x256, 1, 4 * 1024);
    ideal = kernel_cycles("ideal-memory=on", &spin_4x256, 1, 4 * 1024);
    g_assert_cmpuint(ideal, ==, real);
}

/* The cycle counter follows the virtual clock at the preset's rate. */
/*
 * A reset starts the SMs' clocks again with the cycle counter: a kernel
 * after it runs at once, however long the device had run before.
 */
static void test_reset_clocks(void)
{
    Dev *d = dev_start(NULL);
    uint32_t out = vram_alloc(d, NULL, 64 * 1024 * 4);
    Launch l = {
        .kernel = "spin", .grid = { 64 }, .block = { 1024 },
        .args = { out, 2000 },
    };
    struct simt_completion before, after;

    run_ok(d, 0, &l, &before);
    g_assert_cmpuint(before.end_cycle, >, 1000000);
    wr(d, SIMT_REG_RESET, SIMT_RESET_MAGIC);
    for (unsigned q = 0; q < rd(d, SIMT_REG_QUEUE_COUNT); q++) {
        queue_setup(d, q, 0);
    }
    run_ok(d, 0, &l, &after);
    g_assert_cmpuint(after.start_cycle, <, 10000);
    g_assert_cmpuint(after.end_cycle - after.start_cycle, ==,
                     before.end_cycle - before.start_cycle);
    dev_stop(d);
}

static void test_cycle_counter(void)
{
    Dev *d = dev_start("preset=gtx480");
    uint32_t c0, c1;

    g_assert_cmpuint(rd(d, SIMT_REG_CLOCK_MHZ), ==, 1400);
    g_assert_cmpuint(rd(d, SIMT_REG_PRESET), ==, SIMT_PRESET_GTX480);
    g_assert_cmpuint(rd(d, SIMT_REG_SM_COUNT), ==, 15);
    c0 = rd(d, SIMT_REG_CYCLE_LO);
    qtest_clock_step(d->qts, 1000000);
    c1 = rd(d, SIMT_REG_CYCLE_LO);
    g_assert_cmpuint(c1 - c0, ==, 1400000);
    g_assert_cmpuint(rd(d, SIMT_REG_CYCLE_HI), ==, 0);
    dev_stop(d);
}

/* The device cycle counter now (latching the high word). */
static uint64_t cycle_read(Dev *d)
{
    uint64_t lo = rd(d, SIMT_REG_CYCLE_LO);

    return (uint64_t)rd(d, SIMT_REG_CYCLE_HI) << 32 | lo;
}

/*
 * The cycle counter never goes backwards whatever happens between two
 * reads: idle time, a queue set up and enabled on an idle device, a NOP
 * doorbelled there, a kernel running across slice ends, a read in the
 * middle of a slice, and after a reset (cycle 0 is the reset; from there
 * on it grows again).
 */
static void test_cycle_never_backwards(void)
{
    uint8_t nop[SIMT_CMD_SIZE] = { SIMT_CMD_NOP };
    Dev *d = dev_start(NULL);
    uint32_t out = vram_alloc(d, NULL, 4096);
    Launch busy = {
        .kernel = "spin", .grid = { 1 }, .block = { 32 },
        .args = { out, 20000 },
    };
    uint64_t last = cycle_read(d), c;
    uint32_t idx;

#define CYCLE_AFTER(what) do {                                        \
        c = cycle_read(d);                                            \
        g_test_message("%s: cycle %" PRIu64, (what), c);              \
        g_assert_cmpuint(c, >=, last);                                \
        last = c;                                                     \
    } while (0)

    qtest_clock_step(d->qts, 1500);
    CYCLE_AFTER("idle 1500 ns");
    queue_setup(d, 2, 0);
    CYCLE_AFTER("queue 2 enabled");
    idx = submit(d, 2, nop);
    CYCLE_AFTER("NOP doorbell");
    g_assert_cmpuint(wait_queue(d, 2, idx), ==, SIMT_QSTATE_IDLE);
    CYCLE_AFTER("NOP done");
    idx = launch(d, 0, &busy);
    CYCLE_AFTER("kernel doorbell");
    for (int i = 0; i < 5; i++) {
        qtest_clock_step(d->qts, 777);
        CYCLE_AFTER("mid-slice read");
    }
    g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
    CYCLE_AFTER("kernel done");
    wr(d, SIMT_REG_RESET, SIMT_RESET_MAGIC);
    last = 0;
    CYCLE_AFTER("reset");
    g_assert_cmpuint(c, <, 1000);
    qtest_clock_step(d->qts, 5000);
    CYCLE_AFTER("idle after reset");
    queue_setup(d, 0, 0);
    CYCLE_AFTER("queue 0 enabled after reset");
    idx = submit(d, 0, nop);
    CYCLE_AFTER("NOP doorbell after reset");
#undef CYCLE_AFTER
    dev_stop(d);
}

/*
 * A doorbell takes effect at its own cycle: on an idle device, and on one
 * running another kernel in the middle of its engine slice, a kernel's
 * first block starts at the cycle its doorbell was written, for doorbells
 * at several points of a 1000-cycle slice.  The cycle counter never goes
 * backwards meanwhile.
 */
static void test_doorbell_cycle(void)
{
    static const uint32_t offsets[] = { 0, 1, 137, 500, 999, 1234 };
    Dev *d = dev_start(NULL);
    uint32_t out = vram_alloc(d, NULL, 64 * 1024 * 4);
    Launch small = {
        .kernel = "spin", .grid = { 1 }, .block = { 32 },
        .args = { out, 10 },
    };
    Launch busy = {
        .kernel = "spin", .grid = { 1 }, .block = { 32 },
        .args = { out + 4096, 200000 },
    };
    struct simt_completion r;
    uint64_t c, last = 0;
    uint32_t idx, bidx;

    for (size_t i = 0; i < ARRAY_SIZE(offsets); i++) {
        /* idle: the last kernel ended up to a wait step ago */
        if (offsets[i]) {
            qtest_clock_step(d->qts,
                             offsets[i] * 1000 / rd(d, SIMT_REG_CLOCK_MHZ));
        }
        c = cycle_read(d);
        g_assert_cmpuint(c, >=, last);
        idx = launch(d, 0, &small);
        g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
        read_record(d, 0, idx, &r);
        g_test_message("idle, doorbell at %" PRIu64 ": kernel %" PRIu64
                       "..%" PRIu64, c, r.start_cycle, r.end_cycle);
        g_assert_cmpuint(r.start_cycle, ==, c);
        last = cycle_read(d);
        g_assert_cmpuint(last, >=, r.end_cycle);
    }

    /* busy: queue 1 runs a long kernel on one SM meanwhile */
    bidx = launch(d, 1, &busy);
    for (size_t i = 0; i < ARRAY_SIZE(offsets); i++) {
        qtest_clock_step(d->qts, (1000 + offsets[i]) * 1000 /
                                 rd(d, SIMT_REG_CLOCK_MHZ));
        c = cycle_read(d);
        g_assert_cmpuint(c, >=, last);
        idx = launch(d, 0, &small);
        g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
        g_assert_false(queue_done(d, 1, bidx));
        read_record(d, 0, idx, &r);
        g_test_message("busy, doorbell at %" PRIu64 ": kernel %" PRIu64
                       "..%" PRIu64, c, r.start_cycle, r.end_cycle);
        g_assert_cmpuint(r.start_cycle, ==, c);
        last = cycle_read(d);
    }
    dev_stop(d);
}

/*
 * A block's end takes effect at its own cycle: on one SM with one block
 * slot, the blocks of a kernel run back to back, each starting at the
 * cycle the one before retired, so n blocks take exactly n times one
 * block's cycles, wherever the slice boundaries fall.
 */
static void test_block_end_cycle(void)
{
    static const uint32_t iters[] = { 37, 100, 333 };

    for (size_t i = 0; i < ARRAY_SIZE(iters); i++) {
        Dev *d = dev_start("sm-count=1,sm-blocks=1");
        uint32_t out = vram_alloc(d, NULL, 8 * 64 * 4);
        Launch l = {
            .kernel = "spin", .grid = { 1 }, .block = { 64 },
            .args = { out, iters[i] },
        };
        struct simt_completion one, eight;

        run_ok(d, 0, &l, &one);
        l.grid[0] = 8;
        run_ok(d, 0, &l, &eight);
        g_test_message("spin %u: one block %" PRIu64 " cycles, eight %"
                       PRIu64, iters[i], one.end_cycle - one.start_cycle,
                       eight.end_cycle - eight.start_cycle);
        g_assert_cmpuint(eight.end_cycle - eight.start_cycle, ==,
                         8 * (one.end_cycle - one.start_cycle));
        dev_stop(d);
    }
}

/* Presets set the SM limits; properties override single fields. */
static void test_presets(void)
{
    static const struct {
        const char *props;
        uint32_t sms, threads, warps, blocks;
    } cases[] = {
        { "preset=pascal-5", 5, 2048, 64, 32 },
        { "preset=volta-80", 80, 2048, 64, 32 },
        { "preset=turing-68", 68, 1024, 32, 16 },
        { "preset=ampere-82", 82, 1536, 48, 16 },
        { "preset=gtx480", 15, 1536, 48, 8 },
        { "preset=turing-68,sm-count=4,sm-warps=16", 4, 1024, 16, 16 },
    };

    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        Dev *d = dev_start(cases[i].props);

        g_assert_cmpuint(rd(d, SIMT_REG_SM_COUNT), ==, cases[i].sms);
        g_assert_cmpuint(rd(d, SIMT_REG_SM_THREADS), ==, cases[i].threads);
        g_assert_cmpuint(rd(d, SIMT_REG_SM_WARPS), ==, cases[i].warps);
        g_assert_cmpuint(rd(d, SIMT_REG_SM_BLOCKS), ==, cases[i].blocks);
        g_assert_cmpuint(rd(d, SIMT_REG_KERNEL_SLOTS), ==, 2);
        dev_stop(d);
    }
}

/*
 * The engine's slice, in cycles: ACTIVE_CYCLES counts whole slices.  The
 * default preset runs at 1000 MHz, so a nanosecond of the clock is a
 * cycle.
 */
#define SLICE               1000

static uint32_t active_cycles(Dev *d, unsigned q)
{
    return qrd(d, q, SIMT_QREG_ACTIVE_CYCLES);
}

/*
 * RESIDENT counts the blocks of the queue's kernel on the SMs: all of a
 * long kernel's while it runs, none once it completed, none right after
 * ENABLE is cleared mid-kernel.  Writes do not change it.
 */
static void test_resident_blocks(void)
{
    Dev *d = dev_start(NULL);
    uint32_t out = vram_alloc(d, NULL, 4 * 6);
    Launch l = {
        .kernel = "hold", .grid = { 6 }, .block = { 32 },
        .args = { out, 100000 },
    };
    uint32_t idx;

    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 0);
    idx = launch(d, 0, &l);
    qtest_clock_step(d->qts, 10000);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 6);
    g_assert_cmpuint(qrd(d, 1, SIMT_QREG_RESIDENT), ==, 0);
    qwr(d, 0, SIMT_QREG_RESIDENT, 0);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 6);
    g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 0);

    /* Stopping the queue takes its blocks off at once. */
    launch(d, 0, &l);
    qtest_clock_step(d->qts, 10000);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 6);
    qwr(d, 0, SIMT_QREG_CONTROL, 0);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 0);
    g_assert_cmpuint(rd(d, SIMT_REG_BLOCKS_RESIDENT), ==, 0);
    qtest_clock_step(d->qts, 10000);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 0);
    dev_stop(d);
}

/*
 * ACTIVE_CYCLES grows by the slices a kernel is on the SMs, to the slice,
 * and stands still while the queue is idle or waits (WAIT) while another
 * queue's kernel runs.  Writes do not change it.
 */
static void test_active_cycles_kernel(void)
{
    Dev *d = dev_start(NULL);
    uint32_t out = vram_alloc(d, NULL, 4);
    struct simt_cmd_wait w = {
        .opcode = SIMT_CMD_WAIT, .addr = SEM_ADDR, .value = 1,
    };
    uint32_t idx, widx, a;

    g_assert_cmpuint(rd(d, SIMT_REG_CLOCK_MHZ), ==, 1000);
    qtest_writeq(d->qts, SEM_ADDR, 0);
    widx = submit(d, 1, &w);
    idx = launch(d, 0, &(Launch) {
        .kernel = "hold", .grid = { 1 }, .block = { 32 },
        .args = { out, 50000 },
    });
    qtest_clock_step(d->qts, 20000);
    a = active_cycles(d, 0);
    g_assert_cmpuint(a, >=, 20000 - SLICE);
    g_assert_cmpuint(a, <=, 20000 + SLICE);
    qwr(d, 0, SIMT_QREG_ACTIVE_CYCLES, 0);
    g_assert_cmpuint(active_cycles(d, 0), ==, a);

    g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
    a = active_cycles(d, 0);
    g_assert_cmpuint(a, >=, 50000);
    g_assert_cmpuint(a, <=, 50000 + 2 * SLICE);
    g_assert_cmpuint(SIMT_QSTATUS_STATE(qrd(d, 1, SIMT_QREG_STATUS)), ==,
                     SIMT_QSTATE_WAITING);
    g_assert_cmpuint(active_cycles(d, 1), ==, 0);

    /* Idle: no growth. */
    qtest_clock_step(d->qts, 100000);
    g_assert_cmpuint(active_cycles(d, 0), ==, a);
    qtest_writeq(d->qts, SEM_ADDR, 1);
    wait_queue(d, 1, widx);
    g_assert_cmpuint(active_cycles(d, 1), ==, 0);
    dev_stop(d);
}

/*
 * A low-priority kernel queued behind a high-priority one that fills the
 * only block slot has no block on an SM: its queue's ACTIVE_CYCLES stands
 * still until it gets the slot, then grows again.
 */
static void test_active_cycles_behind_priority(void)
{
    Dev *d = dev_start("sm-count=1,sm-blocks=1");
    uint32_t out = vram_alloc(d, NULL, 8);
    Launch lo = {
        .kernel = "hold", .grid = { 1 }, .block = { 32 },
        .args = { out, 20000 },
    };
    uint32_t a, b, hidx, lidx;

    qwr(d, 2, SIMT_QREG_PRIORITY, SIMT_MAX_PRIORITY);
    run_ok(d, 1, &lo, NULL);
    a = active_cycles(d, 1);
    g_assert_cmpuint(a, >=, 20000);

    hidx = launch(d, 2, &(Launch) {
        .kernel = "hold", .grid = { 1 }, .block = { 32 },
        .args = { out + 4, 100000 },
    });
    qtest_clock_step(d->qts, 5000);
    g_assert_cmpuint(qrd(d, 2, SIMT_QREG_RESIDENT), ==, 1);
    lidx = launch(d, 1, &lo);
    qtest_clock_step(d->qts, 50000);
    g_assert_cmpuint(SIMT_QSTATUS_STATE(qrd(d, 1, SIMT_QREG_STATUS)), ==,
                     SIMT_QSTATE_BUSY);
    g_assert_cmpuint(qrd(d, 1, SIMT_QREG_RESIDENT), ==, 0);
    g_assert_cmpuint(active_cycles(d, 1), ==, a);
    b = active_cycles(d, 2);
    g_assert_cmpuint(b, >=, 55000 - SLICE);

    g_assert_cmpuint(wait_queue(d, 2, hidx), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(active_cycles(d, 2), >=, 100000);
    g_assert_cmpuint(active_cycles(d, 2), <=, 100000 + 2 * SLICE);
    g_assert_cmpuint(wait_queue(d, 1, lidx), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(active_cycles(d, 1), >=, a + 20000);
    g_assert_cmpuint(active_cycles(d, 1), <=, a + 20000 + 2 * SLICE);
    dev_stop(d);
}

/*
 * With one copy engine, a high-priority copy moves first: the queue of
 * the low-priority copy waiting for the engine does not count, then both
 * count about the copy's model time (bytes / COPY_BW).
 */
static void test_active_cycles_copy(void)
{
    Dev *d = dev_start("copy-engines=1");
    const uint32_t size = 1 * MiB, chunk = 64 * KiB;
    uint32_t hsrc = vram_alloc(d, NULL, size);
    uint32_t hdst = vram_alloc(d, NULL, size);
    uint32_t lsrc = vram_alloc(d, NULL, size);
    uint32_t ldst = vram_alloc(d, NULL, size);
    uint64_t model = DIV_ROUND_UP(size, rd(d, SIMT_REG_COPY_BW));
    uint32_t hidx, lidx, a;

    g_assert_cmpuint(model, >=, 20 * SLICE);
    wr(d, SIMT_REG_DMA_CHUNK, chunk);
    qwr(d, 1, SIMT_QREG_PRIORITY, SIMT_MAX_PRIORITY);
    hidx = submit(d, 1, &(struct simt_cmd_copy) {
        .opcode = SIMT_CMD_COPY, .src = hsrc, .dst = hdst, .size = size,
    });
    qtest_clock_step(d->qts, SLICE);
    lidx = submit(d, 0, &(struct simt_cmd_copy) {
        .opcode = SIMT_CMD_COPY, .src = lsrc, .dst = ldst, .size = size,
    });
    qtest_clock_step(d->qts, model / 2);
    g_assert_cmpuint(SIMT_QSTATUS_STATE(qrd(d, 0, SIMT_QREG_STATUS)), ==,
                     SIMT_QSTATE_BUSY);
    g_assert_cmpuint(active_cycles(d, 0), ==, 0);
    a = active_cycles(d, 1);
    g_assert_cmpuint(a, >=, model / 2);
    g_assert_cmpuint(a, <=, model / 2 + 2 * SLICE);

    g_assert_cmpuint(wait_queue(d, 1, hidx), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(active_cycles(d, 1), >=, model);
    g_assert_cmpuint(active_cycles(d, 1), <=, model + 2 * SLICE);
    g_assert_cmpuint(wait_queue(d, 0, lidx), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(active_cycles(d, 0), >=, model);
    g_assert_cmpuint(active_cycles(d, 0), <=, model + 3 * SLICE);
    dev_stop(d);
}

/*
 * KERNEL_CYCLES and COPY_CYCLES split ACTIVE_CYCLES by engine: a queue
 * that copies, then runs a kernel that waits behind a higher-priority
 * one for the only block slot, counts the copy's model time as copy, the
 * kernel's time on the SM as kernel, and the time it waited in neither.
 */
static void test_engine_cycles(void)
{
    Dev *d = dev_start("sm-count=1,sm-blocks=1,copy-engines=1");
    const uint32_t size = 256 * KiB;
    uint32_t src = vram_alloc(d, NULL, size);
    uint32_t dst = vram_alloc(d, NULL, size);
    uint32_t out = vram_alloc(d, NULL, 8);
    uint64_t model = DIV_ROUND_UP(size, rd(d, SIMT_REG_COPY_BW));
    uint32_t hidx, idx, kernel, copy, active;

    g_assert_cmpuint(model, >=, 5 * SLICE);
    qwr(d, 1, SIMT_QREG_PRIORITY, SIMT_MAX_PRIORITY);
    hidx = launch(d, 1, &(Launch) {
        .kernel = "hold", .grid = { 1 }, .block = { 32 },
        .args = { out, 100000 },
    });
    submit(d, 0, &(struct simt_cmd_copy) {
        .opcode = SIMT_CMD_COPY, .src = src, .dst = dst, .size = size,
    });
    idx = launch(d, 0, &(Launch) {
        .kernel = "hold", .grid = { 1 }, .block = { 32 },
        .args = { out + 4, 30000 },
    });

    /* The copy is done; the kernel waits for the slot. */
    qtest_clock_step(d->qts, 50000);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 0);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_KERNEL_CYCLES), ==, 0);
    copy = qrd(d, 0, SIMT_QREG_COPY_CYCLES);
    g_assert_cmpuint(copy, >=, model);
    g_assert_cmpuint(copy, <=, model + 2 * SLICE);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_ACTIVE_CYCLES), ==, copy);
    g_assert_cmpuint(qrd(d, 1, SIMT_QREG_COPY_CYCLES), ==, 0);
    g_assert_cmpuint(qrd(d, 1, SIMT_QREG_KERNEL_CYCLES), ==,
                     qrd(d, 1, SIMT_QREG_ACTIVE_CYCLES));

    g_assert_cmpuint(wait_queue(d, 1, hidx), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
    kernel = qrd(d, 0, SIMT_QREG_KERNEL_CYCLES);
    g_assert_cmpuint(kernel, >=, 30000);
    g_assert_cmpuint(kernel, <=, 30000 + 2 * SLICE);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_COPY_CYCLES), ==, copy);
    active = qrd(d, 0, SIMT_QREG_ACTIVE_CYCLES);
    g_assert_cmpuint(active, ==, kernel + copy);

    /* Writes are ignored; RESET sets both to 0. */
    qwr(d, 0, SIMT_QREG_KERNEL_CYCLES, 0);
    qwr(d, 0, SIMT_QREG_COPY_CYCLES, 0);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_KERNEL_CYCLES), ==, kernel);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_COPY_CYCLES), ==, copy);
    qwr(d, 0, SIMT_QREG_CONTROL, 0);
    qwr(d, 0, SIMT_QREG_CONTROL, SIMT_QCTL_RESET);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_KERNEL_CYCLES), ==, 0);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_COPY_CYCLES), ==, 0);
    g_assert_cmpuint(qrd(d, 1, SIMT_QREG_KERNEL_CYCLES), >=, 100000);
    wr(d, SIMT_REG_RESET, SIMT_RESET_MAGIC);
    g_assert_cmpuint(qrd(d, 1, SIMT_QREG_KERNEL_CYCLES), ==, 0);
    dev_stop(d);
}

/*
 * The queue's RESET and a device reset set ACTIVE_CYCLES to 0; a device
 * reset mid-kernel leaves no block resident.
 */
static void test_active_cycles_reset(void)
{
    Dev *d = dev_start(NULL);
    uint32_t out = vram_alloc(d, NULL, 4 * 4);
    Launch l = {
        .kernel = "hold", .grid = { 4 }, .block = { 32 },
        .args = { out, 20000 },
    };
    uint32_t a;

    run_ok(d, 0, &l, NULL);
    run_ok(d, 1, &l, NULL);
    a = active_cycles(d, 1);
    g_assert_cmpuint(active_cycles(d, 0), >=, 20000);
    g_assert_cmpuint(a, >=, 20000);
    qwr(d, 0, SIMT_QREG_CONTROL, SIMT_QCTL_RESET);
    g_assert_cmpuint(active_cycles(d, 0), ==, 0);
    g_assert_cmpuint(active_cycles(d, 1), ==, a);

    l.args[1] = 200000;
    launch(d, 2, &l);
    qtest_clock_step(d->qts, 10000);
    g_assert_cmpuint(qrd(d, 2, SIMT_QREG_RESIDENT), ==, 4);
    g_assert_cmpuint(active_cycles(d, 2), >=, 10000 - SLICE);
    wr(d, SIMT_REG_RESET, SIMT_RESET_MAGIC);
    for (unsigned q = 0; q < d->nqueues; q++) {
        g_assert_cmpuint(active_cycles(d, q), ==, 0);
        g_assert_cmpuint(qrd(d, q, SIMT_QREG_RESIDENT), ==, 0);
    }
    qtest_clock_step(d->qts, 10000);
    g_assert_cmpuint(active_cycles(d, 2), ==, 0);
    dev_stop(d);
}

/*
 * Turns of host_loop() that take one host core some 25 milliseconds:
 * starting the second thread is then about 1 % of the time on two.
 */
#define HOST_LOOP_TURNS (3 * 1000 * 1000)

/* Volatile: the loop's result is stored, so the compiler keeps the loop. */
static volatile uint64_t host_loop_sink;

/*
 * @opaque turns of a plain integer loop: eight chains, each on the next,
 * which keep a core's ALUs as busy as the interpreter does.
 */
static gpointer host_loop(gpointer opaque)
{
    uint64_t x[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

    for (uint64_t i = 0; i < GPOINTER_TO_SIZE(opaque); i++) {
        for (int k = 0; k < 8; k++) {
            x[k] += x[(k + 1) % 8] ^ i;
        }
    }
    host_loop_sink = x[0] ^ x[3] ^ x[7];
    return NULL;
}

/* Host seconds for HOST_LOOP_TURNS turns of it, shared by @threads. */
static double host_loop_time(unsigned threads)
{
    gint64 t0 = g_get_monotonic_time();
    GThread *other = NULL;

    if (threads == 2) {
        other = g_thread_new("host-loop", host_loop,
                             GSIZE_TO_POINTER(HOST_LOOP_TURNS / 2));
    }
    host_loop(GSIZE_TO_POINTER(HOST_LOOP_TURNS / threads));
    if (other) {
        g_thread_join(other);
    }
    return (g_get_monotonic_time() - t0) / 1e6;
}

/*
 * Bench mode ($SIMT_BENCH_SPIN = "BLOCKS,THREADS,ITERS[,KERNEL]", set by
 * scripts/bench.sh): the host time the device takes to run the spin
 * kernel (or KERNEL, such as fspin, of the same arguments; the lines are
 * named after it), to compare with bench/simt-spin-bench on the core
 * alone; and
 * the same on two host threads (the threads property), the runs of
 * both taking turns, best of thirty each (one run takes some ten
 * milliseconds: the best is the one least disturbed by other work on
 * the machine, which two threads feel more than one).  The pairs are
 * spread over some thirty seconds: a shared host has spells of seconds
 * in which one or both of its cores run the same work up to half again
 * as long, and with the threads meeting at the end of every phase the
 * slower one sets much of the pace.  After each pair, a plain loop on
 * one host thread and on two (host_loop()): what the host gives a second
 * thread meanwhile, to read the device's figure against.
 *
 * The device's time is that of the clock steps, in which its slices
 * run: the test's own writes of the command and its polls of the queue
 * registers, each a round trip to QEMU of some tens of microseconds, are
 * the harness's, and are reported apart as the wall time from the
 * launch to the poll that sees it done.
 */
static void bench_spin(void)
{
    static const char *const props[2] = { "threads=1", "threads=2" };
    unsigned blocks, threads, iters;
    char kernel[32] = "spin";
    struct simt_completion r[2];
    uint32_t idx;
    double best[2] = { 0, 0 }, best_wall[2] = { 0, 0 };
    double host[2] = { 0, 0 };

    g_assert_cmpint(sscanf(g_getenv("SIMT_BENCH_SPIN"), "%u,%u,%u,%31s",
                           &blocks, &threads, &iters, kernel), >=, 3);
    for (int run = 0; run < 60; run++) {
        Dev *d = dev_start(props[run & 1]);
        uint32_t out = vram_alloc(d, NULL, blocks * threads * 4);
        gint64 t0, stepping = 0;
        double t, wall;

        t0 = g_get_monotonic_time();
        idx = launch(d, 0, &(Launch) {
            .kernel = kernel, .grid = { blocks }, .block = { threads },
            .args = { out, iters },
        });
        /*
         * Steps of 100 us, where a driver would sleep until the interrupt:
         * the test's own round trips stay out of the device's time.
         */
        for (int64_t ns = 0; !queue_done(d, 0, idx); ns += 100000) {
            gint64 step = g_get_monotonic_time();

            g_assert_cmpint(ns, <, WAIT_LIMIT_NS);
            qtest_clock_step(d->qts, 100000);
            stepping += g_get_monotonic_time() - step;
        }
        wall = (g_get_monotonic_time() - t0) / 1e6;
        t = stepping / 1e6;
        g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
        read_record(d, 0, idx, &r[run & 1]);
        g_assert_cmpuint(r[run & 1].status, ==, SIMT_QERR_NONE);
        best[run & 1] = run > 1 && best[run & 1] < t ? best[run & 1] : t;
        best_wall[run & 1] = run > 1 && best_wall[run & 1] < wall ?
                             best_wall[run & 1] : wall;
        dev_stop(d);
        if (run & 1) {
            g_usleep(500 * 1000);
            for (unsigned n = 0; n < 2; n++) {
                t = host_loop_time(n + 1);
                host[n] = run > 1 && host[n] < t ? host[n] : t;
            }
        }
    }
    /* The same work on two threads (results: simt-threads-test). */
    g_assert_cmpuint(r[1].thread_insns, ==, r[0].thread_insns);
    g_test_message("bench device_%s_thread_insns: %" PRIu64 " thread-insns",
                   kernel, r[0].thread_insns);
    g_test_message("bench device_%s_time: %.4f s", kernel, best[0]);
    g_test_message("bench device_%s_wall_time: %.4f s", kernel,
                   best_wall[0]);
    g_test_message("bench device_%s_rate: %.3g thread-insn/s", kernel,
                   r[0].thread_insns / best[0]);
    g_test_message("bench device_%s_cycles: %" PRIu64 " cycles", kernel,
                   r[0].end_cycle - r[0].start_cycle);
    g_test_message("bench device_%s_threads2_time: %.4f s", kernel,
                   best[1]);
    g_test_message("bench device_%s_threads2_wall_time: %.4f s", kernel,
                   best_wall[1]);
    g_test_message("bench device_%s_threads2_speedup: %.2f ratio", kernel,
                   best[0] / best[1]);
    g_test_message("bench host_%s_threads2_speedup: %.2f ratio", kernel,
                   host[0] / host[1]);
}

/*
 * Run an n x n matmul on queue 0 as subgrids of @s blocks (0: unsplit),
 * every LAUNCH queued behind the one before as libsimt's
 * simt_launch_split submits them, but without the host's round trip;
 * the device cycles from the first block's start to the last one's end.
 */
static uint64_t matmul_split_cycles(Dev *d, uint32_t n, uint32_t s,
                                    const uint32_t args[4])
{
    enum { TILE = 16, AHEAD = 32 };
    uint32_t blocks = (n / TILE) * (n / TILE);
    uint32_t m = s ? DIV_ROUND_UP(blocks, s) : 1;
    g_autofree uint32_t *idx = g_new(uint32_t, m);
    struct simt_completion r;
    uint64_t start = 0, end = 0;

    for (uint32_t i = 0; i <= m + AHEAD; i++) {
        /* Keep at most AHEAD launches queued: the ring holds 63. */
        if (i >= AHEAD && i - AHEAD < m) {
            uint32_t j = i - AHEAD;

            g_assert_cmpuint(wait_queue(d, 0, idx[j]), !=, SIMT_QSTATE_ERROR);
            read_record(d, 0, idx[j], &r);
            g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
            start = j ? start : r.start_cycle;
            end = r.end_cycle;
        }
        if (i < m) {
            idx[i] = launch(d, 0, &(Launch) {
                .kernel = "matmul", .grid = { n / TILE, n / TILE },
                .block = { TILE, TILE },
                .args = { args[0], args[1], args[2], args[3] },
                .first_block = s ? i * s : 0,
                .block_count = s ? MIN(s, blocks - i * s) : 0,
            });
        }
    }
    return end - start;
}

/*
 * Bench mode ($SIMT_BENCH_SPLIT = "N,S1,S2,...", set by scripts/bench.sh):
 * seed 002's Table 1 on the GTX480 preset without the host's round
 * trip (the isolating line for guest/bench/simt-bench.c --split's): an n x n
 * matmul split into subkernels of S1 blocks against the unsplit kernel,
 * and of S2, ... against S1 (the paper's reference row), in device time.
 * The split runs' results are checked against the unsplit one's.
 */
static void bench_split(void)
{
    g_auto(GStrv) f = g_strsplit(g_getenv("SIMT_BENCH_SPLIT"), ",", 0);
    uint32_t n = atoi(f[0]), args[4], bytes;
    g_autofree float *a = NULL, *ref = NULL, *got = NULL;
    Dev *d = dev_start("preset=gtx480");
    uint64_t whole, reference = 0;

    g_assert_cmpuint(n % 16, ==, 0);
    bytes = n * n * 4;
    a = g_new(float, n * n);
    ref = g_new(float, n * n);
    got = g_new(float, n * n);
    for (uint32_t i = 0; i < n * n; i++) {
        a[i] = (i % 17) * 0.25f - 2.0f;
    }
    use_image(d, "matmul");
    args[0] = vram_alloc(d, a, bytes);
    args[1] = vram_alloc(d, a, bytes);
    args[2] = vram_alloc(d, NULL, bytes);
    args[3] = n;
    whole = matmul_split_cycles(d, n, 0, args);
    vram_read(d, args[2], ref, bytes);
    g_test_message("%ux%u matmul, %u blocks of 256 threads", n, n,
                   (n / 16) * (n / 16));
    g_test_message("bench seed002_split_unsplit_cycles: %" PRIu64 " cycles",
                   whole);
    for (int i = 1; f[i]; i++) {
        uint32_t s = atoi(f[i]);
        uint64_t t;

        g_assert_cmpuint(s, >, 0);
        memset(got, 0, bytes);
        qpci_memwrite(d->dev, d->vram, args[2], got, bytes);
        t = matmul_split_cycles(d, n, s, args);
        vram_read(d, args[2], got, bytes);
        g_assert_cmpmem(got, bytes, ref, bytes);
        g_test_message("S = %u: M = %u subkernels, %" PRIu64 " cycles", s,
                       DIV_ROUND_UP((n / 16) * (n / 16), s), t);
        if (i == 1) {
            reference = t;
            g_test_message("bench seed002_split_device_reference_over_whole: "
                           "%.1f %%", 100.0 * ((double)t / whole - 1));
        } else {
            g_test_message("bench seed002_split_device_slowdown_S%u: %.1f %%",
                           s, 100.0 * ((double)t / reference - 1));
        }
    }
    dev_stop(d);
}

/*
 * One of seed 001's kernel classes (digest A.5, Table 4.1) as kernel A
 * (67 blocks of 512 threads) and kernel B (8 blocks of 32 or 33).
 */
typedef struct Seed001Class {
    const char *name, *kernel;
    uint32_t a_iters, b_iters;
    double seed_isolated, seed_colocated;   /* Table 4.1, B over serial */
} Seed001Class;

static const Seed001Class seed001_classes[] = {
    { "compute", "fp_chain", 8000, 1400, 1.45, 1.85 },
    { "memory", "strided_writes", 2048, 256, 22.4, 96.1 },
};

/* Kernel arguments of class @c: a fresh output in VRAM, @iters. */
static Launch seed001_launch(Dev *d, const Seed001Class *c, uint32_t blocks,
                             uint32_t threads, uint32_t iters)
{
    enum { WORDS = 1 << 21 };   /* 8 MiB each for A and B */
    bool mem = !strcmp(c->kernel, "strided_writes");
    uint32_t buf = vram_alloc(d, NULL, mem ? WORDS * 4 : blocks * threads * 4);

    return (Launch) {
        .kernel = c->kernel, .grid = { blocks }, .block = { threads },
        .args = { buf, mem ? WORDS : iters, iters },
    };
}

/*
 * B's cycles in seed 001's co-location experiment (digest A.5) on the
 * Turing-68 preset: with @with_a, A holds every SM but SM67 first, so
 * that B's blocks of 33 threads all land on SM67 (isolated) and those of
 * 32 on SM67 and beside A's blocks (colocated).
 */
static uint64_t colocate_b_cycles(const Seed001Class *c, uint32_t b_threads,
                                  bool with_a)
{
    Dev *d = dev_start("preset=turing-68");
    uint32_t aidx = 0, bidx;
    struct simt_completion r;
    Launch a, b;

    if (with_a) {
        a = seed001_launch(d, c, 67, 512, c->a_iters);
        aidx = launch(d, 0, &a);
    }
    b = seed001_launch(d, c, 8, b_threads, c->b_iters);
    bidx = launch(d, 1, &b);
    g_assert_cmpuint(wait_queue(d, 1, bidx), ==, SIMT_QSTATE_IDLE);
    read_record(d, 1, bidx, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
    if (with_a) {
        struct simt_completion ra;

        /* A outlasts B: B ran beside it all the time. */
        g_assert_cmpuint(wait_queue(d, 0, aidx), ==, SIMT_QSTATE_IDLE);
        read_record(d, 0, aidx, &ra);
        g_assert_cmpuint(ra.end_cycle, >, r.end_cycle);
    }
    dev_stop(d);
    return r.end_cycle - r.start_cycle;
}

/*
 * Seed 001's Table 4.1 for the classes the model can represent
 * (scripts/bench.sh): B isolated and colocated over B serial, and B of
 * 33 threads over B of 32 alone.  The transfer-bandwidth row is out of
 * reach: its B is bound by page faults over PCIe, which the device does
 * not model.
 */
static void bench_colocate(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(seed001_classes); i++) {
        const Seed001Class *c = &seed001_classes[i];
        uint64_t serial32 = colocate_b_cycles(c, 32, false);
        uint64_t serial33 = colocate_b_cycles(c, 33, false);
        uint64_t coloc = colocate_b_cycles(c, 32, true);
        uint64_t iso = colocate_b_cycles(c, 33, true);

        g_test_message("%s: B serial %" PRIu64 " cycles (32 threads), %"
                       PRIu64 " (33); the seed's B isolated %.2fx, "
                       "colocated %.2fx", c->name, serial32, serial33,
                       c->seed_isolated, c->seed_colocated);
        if (i == 0) {
            g_test_message("bench seed001_isolated_33_over_32_alone: "
                           "%.2f ratio", (double)serial33 / serial32);
        }
        g_test_message("bench seed001_%s_isolated_slowdown: %.2f ratio",
                       c->name, (double)iso / serial33);
        g_test_message("bench seed001_%s_colocated_slowdown: %.2f ratio",
                       c->name, (double)coloc / serial32);
    }
}

/*
 * The timing model's microbenchmarks (kernels/timing.c) on one preset,
 * beside the published figures of docs/specs/simt.rst: the latency of a
 * dependent add and of a dependent global load in a lone warp, and the
 * throughput of W warps per SM of dependent adds (warp instructions per
 * cycle per SM) and of streaming loads (bytes per cycle per SM).
 */
typedef struct TimingPublished {
    const char *preset, *tag;   /* tag: the preset in bench names */
    double alu_latency, gmem_latency;
    double alu_peak;            /* warp instructions per cycle per SM */
    double gmem_peak;           /* bytes per cycle per SM */
    const char *source;
} TimingPublished;

static const TimingPublished timing_published[] = {
    /* V100: 64 INT32 lanes per SM; 750 GiB/s measured at 1380 MHz. */
    { "volta-80", "volta80", 4, 375, 2, 750.0 * (1 << 30) / 80 / 1.38e9,
      "Jia et al. 2018, Tables 3.1, 4.1; CUDA Guide 12.2 Table 1" },
    /* GTX 1080 SMs: 128 INT32 lanes; 320 GB/s, 1607 MHz, 20 SMs. */
    { "pascal-5", "pascal5", 6, 482, 4, 320e9 / 20 / 1.607e9,
      "Jia et al. 2018, Table 4.1; Arafa et al. 2019 (Pascal)" },
    /* RTX 2080 Ti: 64 INT32 lanes; 616 GB/s at 1350 MHz, 68 SMs. */
    { "turing-68", "turing68", 4, 424, 2, 616e9 / 68 / 1.35e9,
      "Arafa et al. 2019 (Turing); CUDA Guide 12.2 Table 1" },
    /* RTX 3090: 64 INT32 lanes; 936 GB/s at 1395 MHz, 82 SMs. */
    { "ampere-82", "ampere82", 4, 466, 2, 936e9 / 82 / 1.395e9,
      "Abdelkhalik et al. 2022; an A100 measurement (466)" },
    /* CC 2.0: 32 INT32 lanes (two schedulers); 400-800 off-chip. */
    { "gtx480", "gtx480", 22, 600, 1, 177.4e9 / 15 / 1.401e9,
      "CUDA C Programming Guide 3.2, 5.2.3 and Table 5-1" },
};

/*
 * Cycles of @kernel on @w warps per SM of every SM (@args as given): one
 * block per SM up to 32 warps, two beyond (the device's blocks hold at
 * most 1024 threads).  @warp_insns: the run's warp instructions.
 */
static uint64_t timing_run(Dev *d, const char *kernel, uint32_t sms,
                           uint32_t w, const uint32_t *args,
                           uint64_t *warp_insns)
{
    uint32_t per_sm = w > 32 ? 2 : 1;
    struct simt_completion r;
    Launch l = {
        .kernel = kernel, .grid = { sms * per_sm },
        .block = { 32 * w / per_sm },
    };

    memcpy(l.args, args, 4 * sizeof(args[0]));
    run_ok(d, 0, &l, &r);
    *warp_insns = r.warp_insns;
    return r.end_cycle - r.start_cycle;
}

static void bench_timing_preset(const TimingPublished *pub)
{
    g_autofree char *props = g_strdup_printf("preset=%s", pub->preset);
    Dev *d = dev_start(props);
    uint32_t sms = rd(d, SIMT_REG_SM_COUNT);
    uint32_t max_warps = rd(d, SIMT_REG_SM_WARPS);
    uint32_t out = vram_alloc(d, NULL, 8), res[2];
    uint32_t chain = vram_alloc(d, NULL, 4096 * 4);
    uint32_t words = 1 << 20, in = vram_alloc(d, NULL, words * 4);
    uint32_t sink = vram_alloc(d, NULL, sms * max_warps * 32 * 4);
    uint32_t ws[] = { 1, 2, 4, 8, 16, 32, max_warps };
    struct simt_completion r;

    g_test_message("%s: published figures from %s", pub->preset,
                   pub->source);
    run_ok(d, 0, &(Launch) {
        .kernel = "dep_alu", .grid = { 1 }, .block = { 32 },
        .args = { out, 16 },
    }, &r);
    vram_read(d, out, res, sizeof(res));
    g_test_message("bench timing_dep_alu_latency_%s: %.2f cycles "
                   "(published %.0f)", pub->tag, res[0] / (16.0 * 64),
                   pub->alu_latency);
    run_ok(d, 0, &(Launch) {
        .kernel = "dep_gmem", .grid = { 1 }, .block = { 32 },
        .args = { out, chain, 4096, 64 },
    }, &r);
    vram_read(d, out, res, sizeof(res));
    g_test_message("bench timing_dep_gmem_latency_%s: %.1f cycles "
                   "(published %.0f)", pub->tag, res[0] / 64.0,
                   pub->gmem_latency);
    /*
     * The occupancy curves, beside the curve the published latency and
     * peak predict: W warps of dependent adds issue W / latency warp
     * instructions per cycle, W warps of four 128-byte loads in flight
     * move W * 512 bytes per load latency, up to the peak.
     */
    for (size_t i = 0; i < G_N_ELEMENTS(ws); i++) {
        uint32_t w = ws[i];
        uint64_t insns, alu_cycles, gmem_cycles;
        double alu, gmem;

        if (w <= 32 && i == G_N_ELEMENTS(ws) - 1) {
            break;      /* the preset holds no more than 32 warps */
        }
        alu_cycles = timing_run(d, "alu_stream", sms, w,
                                (uint32_t[4]) { sink, 8 }, &insns);
        alu = (double)insns / sms / alu_cycles;
        gmem_cycles = timing_run(d, "gmem_stream", sms, w,
                                 (uint32_t[4]) { sink, in, words, 16 },
                                 &insns);
        /* 16 rounds of four 4-byte loads per thread. */
        gmem = 32.0 * w * 16 * 16 / gmem_cycles;
        g_test_message("bench timing_alu_throughput_%uw_%s: %.3f "
                       "warp-insn/cycle/SM (published peak %.0f)", w,
                       pub->tag, alu, pub->alu_peak);
        g_test_message("bench timing_gmem_throughput_%uw_%s: %.2f "
                       "bytes/cycle/SM (published peak %.2f)", w, pub->tag,
                       gmem, pub->gmem_peak);
        g_test_message("occupancy %-9s %2u  %6.3f %6.3f  %6.2f %6.2f",
                       pub->preset, w, alu,
                       MIN(w / pub->alu_latency, pub->alu_peak), gmem,
                       MIN(w * 512 / pub->gmem_latency, pub->gmem_peak));
    }
    dev_stop(d);
}

/* Bench mode ($SIMT_BENCH_TIMING set, by scripts/bench.sh). */
static void bench_timing(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(timing_published); i++) {
        bench_timing_preset(&timing_published[i]);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    if (!simt_qtest_init()) {
        /* Run by QEMU's own qtest suite, without our host build. */
        return g_test_run();
    }
    if (g_getenv("SIMT_BENCH_SPIN")) {
        qtest_add_func("/simt/bench/spin", bench_spin);
        return g_test_run();
    }
    if (g_getenv("SIMT_BENCH_SPLIT")) {
        qtest_add_func("/simt/bench/split", bench_split);
        return g_test_run();
    }
    if (g_getenv("SIMT_BENCH_COLOCATE")) {
        qtest_add_func("/simt/bench/colocate", bench_colocate);
        return g_test_run();
    }
    if (g_getenv("SIMT_BENCH_TIMING")) {
        qtest_add_func("/simt/bench/timing", bench_timing);
        return g_test_run();
    }

    qtest_add_func("/simt/kernel/vecadd", test_vecadd);
    qtest_add_func("/simt/kernel/matmul", test_matmul);
    qtest_add_func("/simt/kernel/reduce", test_reduce);
    qtest_add_func("/simt/kernel/divergent", test_divergent);
    qtest_add_func("/simt/kernel/histogram", test_histogram);
    qtest_add_func("/simt/sched/pascal-threads",
                   test_placement_pascal_threads);
    qtest_add_func("/simt/sched/pascal-block-slots",
                   test_placement_pascal_block_slots);
    qtest_add_func("/simt/sched/pascal-warps", test_placement_pascal_warps);
    qtest_add_func("/simt/sched/turing-8x32", test_placement_turing_32);
    qtest_add_func("/simt/sched/turing-8x33", test_placement_turing_33);
    qtest_add_func("/simt/sched/turing-9x33", test_placement_turing_33_9);
    qtest_add_func("/simt/sched/kernel-slots", test_kernel_slots);
    qtest_add_func("/simt/sched/priority-order", test_priority_order);
    qtest_add_func("/simt/sched/fifo-dispatch/launch-order-no-preemption",
                   test_fifo_dispatch);
    qtest_add_func("/simt/queue/malformed", test_malformed_commands);
    qtest_add_func("/simt/queue/kernel-fault", test_kernel_fault);
    qtest_add_func("/simt/queue/subgrid/ids-1d-2d-3d", test_subgrid_ids);
    qtest_add_func("/simt/queue/subgrid/refused", test_subgrid_refused);
    qtest_add_func("/simt/queue/signal-wait", test_signal_wait);
    qtest_add_func("/simt/queue/signal-timestamp/copy-end-wait-refuses",
                   test_signal_timestamp);
    qtest_add_func("/simt/queue/resident/running-done-disabled",
                   test_resident_blocks);
    qtest_add_func("/simt/queue/active-cycles/kernel-not-idle-or-wait",
                   test_active_cycles_kernel);
    qtest_add_func("/simt/queue/active-cycles/not-behind-higher-priority",
                   test_active_cycles_behind_priority);
    qtest_add_func("/simt/queue/active-cycles/copy-not-waiting-engine",
                   test_active_cycles_copy);
    qtest_add_func("/simt/queue/active-cycles/zero-after-resets",
                   test_active_cycles_reset);
    qtest_add_func("/simt/queue/engine-cycles/copy-kernel-not-waiting",
                   test_engine_cycles);
    qtest_add_func("/simt/timing/deterministic", test_deterministic_cycles);
    qtest_add_func("/simt/timing/cycle-counter", test_cycle_counter);
    qtest_add_func("/simt/timing/cycle-never-backwards",
                   test_cycle_never_backwards);
    qtest_add_func("/simt/timing/doorbell-at-its-cycle", test_doorbell_cycle);
    qtest_add_func("/simt/timing/block-end-at-its-cycle",
                   test_block_end_cycle);
    qtest_add_func("/simt/timing/reset-clocks", test_reset_clocks);
    qtest_add_func("/simt/timing/model", test_timing_model);
    qtest_add_func("/simt/timing/ideal-memory-removes-only-global-waits",
                   test_ideal_memory);
    qtest_add_func("/simt/timing/wake-shortcut-same-cycles-as-scan",
                   test_wake_shortcut_same_as_scan);
    qtest_add_func("/simt/presets", test_presets);

    return g_test_run();
}
