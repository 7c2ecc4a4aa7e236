/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the simt device under hostile input, systematically: LAUNCH,
 * COPY, SIGNAL and WAIT commands and queue descriptors with every field
 * drawn at random from values around the limits of the spec, page tables
 * of garbage, rings that overlap their own completion records, save
 * areas over code.  For every case the hostile queue must stop with the
 * error the spec gives and SIMT_IRQ_ERROR (or, when the random command
 * is valid, complete with the spec's result), while the other queues run
 * a known-good kernel and a copy at the same time and finish with
 * correct results; afterwards the device still answers.  Also the
 * limits of docs/specs/simt.rst, "Host cost of guest commands".
 *
 * The generator is a fixed-seed xorshift: every run is the same.  Set
 * SIMT_HOSTILE_SEED to try other seeds; the seed is printed.  Only the
 * virtual clock is stepped.  Every case runs again with the SMs on two
 * host threads (hostile/two-threads/), so running ahead of the slice
 * engine: guest writes then wait for the SMs, kernels fault or stop
 * with blocks found finished in slices to come.
 */

#include "qemu/osdep.h"
#include "qemu/host-utils.h"
#include "simt-qtest.h"

#define HQ                  0       /* the hostile queue */
#define N                   256     /* vecadd elements */

/* Guest RAM of the hostile commands (below the test machine's 128 MiB) */
#define HOST_SRC            0x1000000
#define HOST_DST            0x1400000
#define HOST_SEM            0x1800000
#define HOST_RINGS          0x2000000   /* zeroed, for random ring bases */
#define HOST_RINGS_SIZE     0x100000
#define HOST_BIG_RING       0x3000000   /* SIMT_MAX_QUEUE_SIZE NOPs */
#define RAM_END             0x8000000
#define HOST_NOWHERE        0x4000000000ull  /* no RAM nor device */

/* VRAM of the hostile commands, past what vram_alloc hands out */
#define VRAM_HSRC           0x1800000
#define VRAM_HDST           0x1c00000
#define VRAM_PT             0x2800000   /* garbage page tables */
#define VRAM_PT_PAGES       16

/* One engine slice (SIMT_SLICE_CYCLES) at the default 1000 MHz, in ns */
#define SLICE_NS            1000
/* Commands a queue may start per slice: two fetch passes of 64 */
#define SLICE_CMDS          128

/* Longest a case may take before the hostile queue counts as stuck */
#define CASE_LIMIT_NS       (20 * 1000 * 1000)

#define ERR(e)              (1u << (e))

static uint64_t seed;
static uint64_t rng;

static void rng_seed(uint64_t salt)
{
    rng = seed ^ (salt * 0x9e3779b97f4a7c15ull);
    if (!rng) {
        rng = 1;
    }
}

static uint64_t rnd64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint32_t rnd(void)
{
    return rnd64() >> 32;
}

static uint32_t below(uint32_t n)
{
    return rnd() % n;
}

static bool chance(unsigned percent)
{
    return below(100) < percent;
}

/*
 * The device and its good work: queues 1 and 2 add vectors, queue 3
 * copies a buffer into VRAM, at the same time as each hostile command.
 */
typedef struct Good {
    uint32_t a, b, c;           /* vecadd buffers, per queue */
    uint32_t idx;
} Good;

typedef struct H {
    Dev *d;
    Good good[SIMT_MAX_QUEUES];
    uint32_t copy_dst, copy_idx;
    uint8_t copy_data[8192];
    float a[N], b[N];
    uint32_t ha, hb, hc;        /* the hostile vecadd's buffers */
    unsigned ngood;
    unsigned cases, errors, completed;
} H;

static H *h_start(const char *props, uint64_t salt)
{
    H *h = g_new0(H, 1);
    Dev *d;

    rng_seed(salt);
    h->d = d = dev_start(props);
    g_assert_cmpuint(d->nqueues, >=, 4);
    g_assert_cmpuint(d->vram_size, >=, VRAM_PT + VRAM_PT_PAGES * 4096);
    for (int i = 0; i < N; i++) {
        h->a[i] = i * 0.25f;
        h->b[i] = 100.0f / (i + 1);
    }
    h->ngood = 2;
    for (unsigned q = 1; q <= h->ngood; q++) {
        h->good[q].a = vram_alloc(d, h->a, sizeof(h->a));
        h->good[q].b = vram_alloc(d, h->b, sizeof(h->b));
        h->good[q].c = vram_alloc(d, NULL, N * 4);
    }
    h->ha = vram_alloc(d, h->a, sizeof(h->a));
    h->hb = vram_alloc(d, h->b, sizeof(h->b));
    h->hc = vram_alloc(d, NULL, N * 4);
    h->copy_dst = vram_alloc(d, NULL, sizeof(h->copy_data));
    return h;
}

static void h_stop(H *h)
{
    g_test_message("%u cases: %u errors, %u completed", h->cases,
                   h->errors, h->completed);
    dev_stop(h->d);
    g_free(h);
}

static void vecadd_cmd(H *h, unsigned q, uint32_t a, uint32_t b, uint32_t c,
                       uint32_t n, struct simt_cmd_launch *cmd)
{
    Dev *d = h->d;
    const struct simt_kernel_info *k = simt_image_kernel(d->img, "vecadd");

    g_assert_nonnull(k);
    *cmd = (struct simt_cmd_launch) {
        .opcode = SIMT_CMD_LAUNCH,
        .record = RECORD_ADDR(q, d->tail[q]),
        .code_addr = d->img->code_start,
        .code_size = d->img->code_end - d->img->code_start,
        .entry = k->m.entry,
        .grid = { N / 128, 1, 1 },
        .block = { 128, 1, 1 },
        .shared_size = k->m.shared_bytes,
        .local_size = k->m.local_bytes,
        .regs = ctpop32(k->m.int_regs_used) + ctpop32(k->m.fp_regs_used),
        .local_base = VRAM_LOCAL,
        .args = { a, b, c, n },
        .live_addr = d->img->has_meta ? VRAM_LIVE : 0,
        .int_regs = k->m.int_regs_used,
        .fp_regs = k->m.fp_regs_used,
    };
}

static void zero_vram(Dev *d, uint32_t addr, size_t len)
{
    g_autofree uint8_t *zero = g_malloc0(len);

    qpci_memwrite(d->dev, d->vram, addr, zero, len);
}

/* Start the good work of one case. */
static void good_start(H *h)
{
    Dev *d = h->d;
    struct simt_cmd_launch c;
    struct simt_cmd_copy cp = {
        .opcode = SIMT_CMD_COPY, .flags = SIMT_CMDF_SRC_HOST,
        .src = HOST_SRC + 0x200000, .dst = h->copy_dst,
        .size = sizeof(h->copy_data),
    };

    for (unsigned q = 1; q <= h->ngood; q++) {
        zero_vram(d, h->good[q].c, N * 4);
        vecadd_cmd(h, q, h->good[q].a, h->good[q].b, h->good[q].c, N, &c);
        qtest_memset(d->qts, c.record, 0xff, sizeof(struct simt_completion));
        h->good[q].idx = submit(d, q, &c);
    }
    for (size_t i = 0; i < sizeof(h->copy_data); i++) {
        h->copy_data[i] = rnd();
    }
    qtest_memwrite(d->qts, cp.src, h->copy_data, sizeof(h->copy_data));
    zero_vram(d, h->copy_dst, sizeof(h->copy_data));
    h->copy_idx = submit(d, 3, &cp);
}

static bool good_done(H *h)
{
    for (unsigned q = 1; q <= h->ngood; q++) {
        if (!queue_done(h->d, q, h->good[q].idx)) {
            return false;
        }
    }
    return queue_done(h->d, 3, h->copy_idx);
}

static void check_vecadd(H *h, uint32_t c, uint32_t n, uint32_t lo,
                         uint32_t hi)
{
    float out[N];

    vram_read(h->d, c, out, sizeof(out));
    for (uint32_t i = 0; i < N; i++) {
        if (i < n && i >= lo && i < hi) {
            g_assert_cmpfloat(out[i], ==, h->a[i] + h->b[i]);
        } else {
            g_assert_cmpfloat(out[i], ==, 0.0f);
        }
    }
}

/* The good work finished, and correctly. */
static void good_check(H *h)
{
    Dev *d = h->d;
    uint8_t buf[sizeof(h->copy_data)];
    struct simt_completion r;

    for (unsigned q = 1; q <= h->ngood; q++) {
        g_assert_cmpuint(qrd(d, q, SIMT_QREG_STATUS), ==, SIMT_QSTATE_IDLE);
        read_record(d, q, h->good[q].idx, &r);
        g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
        g_assert_cmpuint(r.blocks, ==, N / 128);
        check_vecadd(h, h->good[q].c, N, 0, N);
    }
    g_assert_cmpuint(qrd(d, 3, SIMT_QREG_STATUS), ==, SIMT_QSTATE_IDLE);
    vram_read(d, h->copy_dst, buf, sizeof(buf));
    g_assert_true(memcmp(buf, h->copy_data, sizeof(buf)) == 0);
}

/* The device answers: SCRATCH reads back what was written. */
static void device_answers(H *h)
{
    uint32_t v = rnd() | 1;

    wr(h->d, SIMT_REG_SCRATCH, v);
    g_assert_cmphex(rd(h->d, SIMT_REG_SCRATCH), ==, v);
    g_assert_cmphex(rd(h->d, SIMT_REG_ID), ==, SIMT_ID_MAGIC);
}

/* The hostile queue back to an empty ring of its own, enabled. */
static void hq_reset(H *h)
{
    qwr(h->d, HQ, SIMT_QREG_CONTROL, SIMT_QCTL_RESET);
    qwr(h->d, HQ, SIMT_QREG_CONTEXT, 0);
    queue_setup(h->d, HQ, below(SIMT_MAX_PRIORITY + 1));
}

/*
 * Step the clock until the good work is done and the hostile queue has
 * settled: idle, stopped or waiting; its state.
 */
static uint32_t run_case(H *h)
{
    Dev *d = h->d;

    for (int64_t t = 0; t < CASE_LIMIT_NS; t += 5000) {
        uint32_t st = SIMT_QSTATUS_STATE(qrd(d, HQ, SIMT_QREG_STATUS));

        if (good_done(h) && st != SIMT_QSTATE_BUSY) {
            return st;
        }
        qtest_clock_step(d->qts, 5000);
    }
    g_test_message("stuck: hostile status 0x%x head %u tail %u, good %u %u "
                   "copy %u", qrd(d, HQ, SIMT_QREG_STATUS),
                   qrd(d, HQ, SIMT_QREG_HEAD), qrd(d, HQ, SIMT_QREG_TAIL),
                   qrd(d, 1, SIMT_QREG_STATUS), qrd(d, 2, SIMT_QREG_STATUS),
                   qrd(d, 3, SIMT_QREG_STATUS));
    g_assert_not_reached();
}

/*
 * The end of a case: the hostile queue is in one of the @allowed states
 * (ERR(SIMT_QERR_NONE): completed), stopped ones with SIMT_IRQ_ERROR and
 * the failed command's index; the good work is right; the device answers.
 * Returns the error (SIMT_QERR_NONE: completed).
 */
static uint32_t case_end(H *h, uint32_t idx, uint32_t st, uint32_t allowed,
                         const char *what)
{
    Dev *d = h->d;
    uint32_t status = qrd(d, HQ, SIMT_QREG_STATUS);
    uint32_t err = SIMT_QSTATUS_ERROR(status);

    h->cases++;
    if (!(allowed & ERR(err)) || (st != SIMT_QSTATE_ERROR && err)) {
        g_test_message("case %u (%s): queue status 0x%x, allowed errors "
                       "0x%x", h->cases, what, status, allowed);
        g_assert_not_reached();
    }
    if (st == SIMT_QSTATE_ERROR) {
        h->errors++;
        g_assert_cmpuint(qrd(d, HQ, SIMT_QREG_ERROR_CMD), ==, idx);
        g_assert_true(rd(d, SIMT_REG_IRQ_STATUS) &
                      SIMT_IRQ_BIT(SIMT_IRQ_ERROR));
    } else {
        h->completed++;
        g_assert_cmpuint(st, ==, SIMT_QSTATE_IDLE);
    }
    good_check(h);
    device_answers(h);
    return err;
}

static void case_begin(H *h)
{
    hq_reset(h);
    wr(h->d, SIMT_REG_IRQ_STATUS, SIMT_IRQ_ALL);
    good_start(h);
}

/* After the cases: a fresh good kernel on the hostile queue runs. */
static void fresh_kernel_runs(H *h)
{
    Dev *d = h->d;
    struct simt_cmd_launch c;
    uint32_t idx;

    hq_reset(h);
    zero_vram(d, h->hc, N * 4);
    vecadd_cmd(h, HQ, h->ha, h->hb, h->hc, N, &c);
    idx = submit(d, HQ, &c);
    g_assert_cmpuint(wait_queue(d, HQ, idx), ==, SIMT_QSTATE_IDLE);
    check_vecadd(h, h->hc, N, 0, N);
    device_answers(h);
}

/*
 * LAUNCH: a valid vecadd with one to three fields replaced by values
 * around the spec's limits.  What should happen is worked out from the
 * final command by the spec's rules (launch_expect): static errors
 * (BAD_OPCODE, BAD_COMMAND, BAD_LAUNCH) before run-time ones (DMA for
 * the record, FAULT); a launch left valid must compute what its grid,
 * subgrid and n say.
 */
static void mutate_launch(H *h, struct simt_cmd_launch *c)
{
    uint64_t vram = h->d->vram_size;
    uint32_t v;

    switch (below(25)) {
    case 0:
        c->flags = rnd() | (1u << (4 + below(28)));
        break;
    case 1:
        c->flags = below(16) & SIMT_CMDF_LAUNCH_ALL;
        break;
    case 2:
        /* Preemption points running past VRAM's end, or too many */
        c->pp_count = chance(50) ? c->code_size / 4 + 1 + below(100)
                                 : 1 + below(64);
        c->pp_addr = vram - 4 * below(MIN(c->pp_count, 1024));
        break;
    case 3:
        c->grid[below(3)] = 0;
        break;
    case 4:
        c->grid[0] = 0x10000 + below(0x10000);
        c->grid[1] = 0x10000 + below(0x10000);
        c->grid[2] = 2 + below(100);
        if (chance(30)) {
            /* 2^64 blocks, 0 in 64-bit arithmetic */
            c->grid[0] = 1u << 22;
            c->grid[1] = c->grid[2] = 1u << 21;
        }
        break;
    case 5:
        c->block[below(3)] = chance(50) ? 0 : 1025 + below(100000);
        break;
    case 6:
        c->block[1] = 9 + below(100);
        break;
    case 7:
        c->shared_size = SIMT_SHARED_WINDOW + 1 + below(0x7fffffff);
        break;
    case 8:
        c->shared_size = rd(h->d, SIMT_REG_SM_SHARED) + 1 +
                         below(SIMT_SHARED_WINDOW -
                               rd(h->d, SIMT_REG_SM_SHARED));
        break;
    case 9:
        c->local_size = (below(SIMT_LOCAL_WINDOW / 16) * 16) | (1 + below(15));
        break;
    case 10:
        c->local_size = 16 * (1 + below(64));
        c->local_base = chance(50) ? rnd() : vram - below(1 << 20);
        break;
    case 11:
        c->regs = chance(50) ? 0 : 65 + below(1000);
        break;
    case 12:
        c->block[0] = 1024;
        c->regs = 64;
        break;
    case 13:
        v = below(4);
        if (v == 0) {
            c->code_addr |= 1 + below(3);
        } else if (v == 1) {
            c->code_size |= 1 + below(3);
        } else if (v == 2) {
            c->code_size = SIMT_MAX_CODE_SIZE + 4 * (1 + below(1000));
        } else {
            c->code_addr = (vram - below(0x1000)) & ~3u;
            c->code_size = 0x1000 + 4 * below(1000);
        }
        break;
    case 14:
        c->entry = chance(50) ? rnd() | 1 : vram + below(0x100000) * 4;
        break;
    case 15:
        c->live_addr = vram - below(0x1000) * 8;
        break;
    case 16:
        c->live_addr = below(vram / 2);
        break;
    case 17:
        c->int_regs = rnd();
        c->fp_regs = rnd();
        break;
    case 18:
        if (chance(50)) {
            c->first_block = 1 + below(100);
            c->block_count = 0;
        } else {
            c->first_block = below(3);
            c->block_count = 3 - c->first_block + below(1000);
        }
        break;
    case 19:
        c->grid[0] = 1 + below(8);
        c->first_block = below(c->grid[0]);
        c->block_count = chance(30) ? 0 : 1 + below(c->grid[0] -
                                                    c->first_block);
        if (!c->block_count) {
            c->first_block = 0;
        }
        break;
    case 20:
        c->args[below(3)] = vram + below(0x10000000 - (uint32_t)vram / 16);
        break;
    case 21:
        c->args[3] = below(N + 1);
        break;
    case 22:
        c->record = chance(50) ? HOST_NOWHERE + below(1 << 20) * 64 : 0;
        break;
    case 23:
        /* threads x local_size of 2^32 bytes per block: wraps 32 bits */
        v = 5 + below(6);
        c->block[0] = 1u << v;
        c->local_size = 1u << (32 - v);
        break;
    default:
        c->opcode = 5 + below(1000);
        break;
    }
}

/* The errors the spec allows for LAUNCH @c (ERR(SIMT_QERR_NONE): runs). */
static uint32_t launch_expect(H *h, const struct simt_cmd_launch *c)
{
    Dev *d = h->d;
    uint64_t vram = d->vram_size, threads = 1, blocks = 1, count;
    uint32_t e = 0, fit = 0;
    bool fault = false;

    if (c->opcode != SIMT_CMD_LAUNCH) {
        return ERR(SIMT_QERR_BAD_OPCODE);
    }
    for (int i = 0; i < 3; i++) {
        if (!c->block[i] || !c->grid[i]) {
            e |= ERR(SIMT_QERR_BAD_COMMAND);
        }
        threads *= c->block[i];
        /* Saturated: three 32-bit sizes can wrap a 64-bit product. */
        blocks = blocks > UINT32_MAX ? blocks : blocks * c->grid[i];
    }
    if ((c->flags & ~SIMT_CMDF_LAUNCH_ALL) ||
        threads > 1024 ||
        c->shared_size > SIMT_SHARED_WINDOW ||
        c->local_size > SIMT_LOCAL_WINDOW || c->local_size % 16 ||
        c->code_addr % 4 || c->code_size % 4 ||
        (uint64_t)c->code_addr + c->code_size > vram ||
        c->code_size > SIMT_MAX_CODE_SIZE ||
        c->regs < 1 || c->regs > 64 || blocks > UINT32_MAX ||
        (c->block_count ? (uint64_t)c->first_block + c->block_count > blocks
                        : c->first_block != 0) ||
        (threads * c->local_size != 0 &&
         c->local_base + (uint64_t)d->nsm * d->sm_blocks * threads *
         c->local_size > vram)) {
        e |= ERR(SIMT_QERR_BAD_COMMAND);
    }
    if (e) {
        return e;
    }
    if (threads > rd(d, SIMT_REG_SM_THREADS) ||
        DIV_ROUND_UP(threads, 32) > rd(d, SIMT_REG_SM_WARPS) ||
        threads * c->regs > rd(d, SIMT_REG_SM_REGS) ||
        c->shared_size > rd(d, SIMT_REG_SM_SHARED)) {
        fit = ERR(SIMT_QERR_BAD_LAUNCH);
    }
    if (c->live_addr &&
        c->live_addr + (uint64_t)c->code_size / 4 * 8 > vram) {
        e |= ERR(SIMT_QERR_BAD_COMMAND);
    }
    /* (mutate_launch's points always run past VRAM's end) */
    if (c->pp_count &&
        (c->pp_count > c->code_size / 4 ||
         c->pp_addr + (uint64_t)c->pp_count * 4 > vram)) {
        e |= ERR(SIMT_QERR_BAD_COMMAND);
    }
    if (fit) {
        return fit | e;
    }
    if (e) {
        return e;
    }
    if (c->record >= RAM_END) {
        return ERR(SIMT_QERR_DMA);
    }
    /* A fault: no code at the entry, or a buffer out of VRAM in use */
    count = c->block_count ? c->block_count : blocks;
    fault = c->entry % 4 || c->entry < c->code_addr ||
            c->entry >= c->code_addr + c->code_size;
    if ((c->args[0] >= vram || c->args[1] >= vram || c->args[2] >= vram) &&
        (uint64_t)c->first_block * threads < c->args[3] && count) {
        fault = true;
    }
    return fault ? ERR(SIMT_QERR_FAULT) : ERR(SIMT_QERR_NONE);
}

static void test_launch_fields(const void *props)
{
    H *h = h_start(props, 1);
    Dev *d = h->d;

    for (int i = 0; i < 150; i++) {
        struct simt_cmd_launch c;
        struct simt_completion r;
        unsigned muts = 1 + (chance(30) ? below(3) : 0);
        uint32_t idx, st, err, done0;
        uint64_t first, count;

        case_begin(h);
        zero_vram(d, h->hc, N * 4);
        vecadd_cmd(h, HQ, h->ha, h->hb, h->hc, N, &c);
        for (unsigned m = 0; m < muts; m++) {
            mutate_launch(h, &c);
        }
        qtest_memset(d->qts, RECORD_ADDR(HQ, d->tail[HQ]), 0xff, sizeof(r));
        done0 = qrd(d, HQ, SIMT_QREG_COMPLETED);
        idx = submit(d, HQ, &c);
        st = run_case(h);
        err = case_end(h, idx, st, launch_expect(h, &c), "launch");
        if (err == SIMT_QERR_NONE) {
            first = c.first_block;
            count = c.block_count ? c.block_count :
                    (uint64_t)c.grid[0] * c.grid[1] * c.grid[2];
            g_assert_cmpuint(qrd(d, HQ, SIMT_QREG_COMPLETED), ==, done0 + 1);
            if (c.record) {
                read_record(d, HQ, idx, &r);
                g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
                g_assert_cmpuint(r.blocks, ==, count);
            }
            if (c.block[0] == 128 && c.block[1] == 1 && c.block[2] == 1) {
                check_vecadd(h, h->hc, c.args[3], first * 128,
                             (first + count) * 128);
            }
        }
    }
    fresh_kernel_runs(h);
    h_stop(h);
}

/*
 * COPY: flags, addresses and sizes on either side of RAM, VRAM and the
 * 32-bit device space, reserved words.  The spec's order: malformed
 * (BAD_COMMAND) first, then a device range beyond VRAM (DMA), then, as
 * the copy runs, guest memory that is not there (DMA).
 */
static uint64_t pick_host(uint64_t base, uint64_t size, bool *bad,
                          bool *wraps)
{
    uint64_t a;

    switch (below(6)) {
    case 0:
        *bad = size > 0;
        return HOST_NOWHERE + below(1 << 20);
    case 1:
        a = UINT64_MAX - below(0x1000);
        *wraps |= a + size < a;
        *bad |= size > 0;
        return a;
    case 2:
        /* Running off the end of RAM */
        a = RAM_END - 1 - below(0x4000);
        *bad = a + size > RAM_END;
        return a;
    default:
        return base + below(0x200000);
    }
}

static uint64_t pick_dev(H *h, uint64_t base, uint64_t size, uint32_t *stat,
                         bool *dma)
{
    uint64_t vram = h->d->vram_size, a;

    switch (below(6)) {
    case 0:
        a = vram - below(0x10000);
        break;
    case 1:
        a = vram + below(0x10000000);
        break;
    case 2:
        a = 0x100000000ull - below(0x10000);
        break;
    case 3:
        a = UINT64_MAX - below(0x1000);
        break;
    default:
        a = base + below(0x200000);
        break;
    }
    if (a + size < a || a + size > 0x100000000ull) {
        *stat |= ERR(SIMT_QERR_BAD_COMMAND);
    } else if (a > vram || size > vram - a) {
        *dma = true;
    }
    return a;
}

static void test_copy_fields(const void *props)
{
    H *h = h_start(props, 2);
    Dev *d = h->d;
    g_autofree uint8_t *src = g_malloc(0x40000);
    g_autofree uint8_t *got = g_malloc(0x40000);

    for (int i = 0; i < 150; i++) {
        struct simt_cmd_copy c = { .opcode = SIMT_CMD_COPY };
        uint32_t stat = 0, idx, st, err, allowed;
        bool sbad = false, dbad = false, wrap = false, dma = false;
        bool shost, dhost;
        g_autofree char *what = NULL;

        case_begin(h);
        c.flags = below(8) & SIMT_CMDF_COPY_ALL;
        if (chance(8)) {
            c.flags |= 1u << (3 + below(29));
            stat |= ERR(SIMT_QERR_BAD_COMMAND);
        }
        switch (below(5)) {
        case 0:
            c.size = 0;
            break;
        case 1:
            c.size = 0x10000 + below(0x30000);
            break;
        case 2:
            c.size = 1ull << (33 + below(30));
            break;
        default:
            c.size = 1 + below(0x3000);
            break;
        }
        shost = c.flags & SIMT_CMDF_SRC_HOST;
        dhost = c.flags & SIMT_CMDF_DST_HOST;
        c.src = shost ? pick_host(HOST_SRC, c.size, &sbad, &wrap)
                      : pick_dev(h, VRAM_HSRC, c.size, &stat, &dma);
        c.dst = dhost ? pick_host(HOST_DST, c.size, &dbad, &wrap)
                      : pick_dev(h, VRAM_HDST, c.size, &stat, &dma);
        if (shost && dhost && c.size > 0x40000 && !wrap) {
            /* Guest memory to guest memory, huge: it runs off RAM soon */
            c.src = RAM_END - 0x80000 + below(0x10000);
            sbad = true;
        }
        if (chance(8)) {
            c.reserved[below(24)] = rnd() | 1;
            stat |= ERR(SIMT_QERR_BAD_COMMAND);
        }
        if (wrap) {
            stat |= ERR(SIMT_QERR_BAD_COMMAND);
        }
        if (stat) {
            allowed = stat;
        } else if (dma || sbad || dbad) {
            allowed = ERR(SIMT_QERR_DMA);
        } else {
            allowed = ERR(SIMT_QERR_NONE);
            g_assert_cmpuint(c.size, <=, 0x40000);
            for (uint64_t j = 0; j < c.size; j++) {
                src[j] = rnd();
            }
            if (shost) {
                qtest_memwrite(d->qts, c.src, src, c.size);
            } else {
                qpci_memwrite(d->dev, d->vram, c.src, src, c.size);
            }
        }
        what = g_strdup_printf("copy flags 0x%x src 0x%" PRIx64 " dst 0x%"
                               PRIx64 " size 0x%" PRIx64, c.flags, c.src,
                               c.dst, c.size);
        idx = submit(d, HQ, &c);
        st = run_case(h);
        err = case_end(h, idx, st, allowed, what);
        if (err == SIMT_QERR_NONE && c.size) {
            if (dhost) {
                qtest_memread(d->qts, c.dst, got, c.size);
            } else {
                qpci_memread(d->dev, d->vram, c.dst, got, c.size);
            }
            g_assert_true(memcmp(got, src, c.size) == 0);
        }
    }
    fresh_kernel_runs(h);
    h_stop(h);
}

/*
 * SIGNAL and WAIT: addresses aligned or not, in RAM or not, flags and
 * reserved words.  A valid SIGNAL stores its value; a valid WAIT goes on
 * at once when the semaphore is already there, else waits until it is.
 */
static const char *const cmd_name[] = {
    [SIMT_CMD_SIGNAL] = "signal",
    [SIMT_CMD_WAIT] = "wait",
};

static void test_signal_wait_fields(const void *props)
{
    H *h = h_start(props, 3);
    Dev *d = h->d;

    for (int i = 0; i < 100; i++) {
        bool is_wait = chance(50);
        struct simt_cmd_signal c = {
            .opcode = is_wait ? SIMT_CMD_WAIT : SIMT_CMD_SIGNAL,
            .flags = below(2) ? SIMT_CMDF_IRQ : 0,
            .value = rnd64() >> below(64),
        };
        uint32_t stat = 0, run = 0, idx, st, err;
        uint64_t cur = rnd64() >> below(64), mem;

        case_begin(h);
        switch (below(6)) {
        case 0:
            c.addr = HOST_SEM + below(0x1000) * 8 + 1 + below(7);
            stat |= ERR(SIMT_QERR_BAD_COMMAND);
            break;
        case 1:
            c.addr = HOST_NOWHERE + below(0x1000) * 8;
            run |= ERR(SIMT_QERR_DMA);
            break;
        case 2:
            c.addr = UINT64_MAX - 7 - below(0x100) * 8;
            run |= ERR(SIMT_QERR_DMA);
            break;
        default:
            c.addr = HOST_SEM + below(0x1000) * 8;
            break;
        }
        if (chance(10)) {
            c.flags |= 1u << (1 + below(31));
            stat |= ERR(SIMT_QERR_BAD_COMMAND);
        }
        if (chance(10)) {
            c.reserved[below(26)] = rnd() | 1;
            stat |= ERR(SIMT_QERR_BAD_COMMAND);
        }
        if (c.addr < RAM_END) {
            qtest_writeq(d->qts, c.addr & ~7ull, cur);
        }
        idx = submit(d, HQ, &c);
        st = run_case(h);
        if (st == SIMT_QSTATE_WAITING) {
            /* Only a valid WAIT whose value is not there yet */
            g_assert_true(is_wait && !stat && !run && cur < c.value);
            g_assert_cmpuint(qrd(d, HQ, SIMT_QREG_HEAD), ==, idx);
            qtest_clock_step(d->qts, 20 * SLICE_NS);
            g_assert_cmpuint(SIMT_QSTATUS_STATE(qrd(d, HQ,
                             SIMT_QREG_STATUS)), ==, SIMT_QSTATE_WAITING);
            qtest_writeq(d->qts, c.addr, c.value + below(2));
            /* Polled every slice: it goes on within two */
            qtest_clock_step(d->qts, 2 * SLICE_NS);
            g_assert_true(queue_done(d, HQ, idx));
            st = SIMT_QSTATUS_STATE(qrd(d, HQ, SIMT_QREG_STATUS));
        }
        if (!stat) {
            stat = run ? run : ERR(SIMT_QERR_NONE);
        }
        err = case_end(h, idx, st, stat, cmd_name[c.opcode]);
        if (err == SIMT_QERR_NONE) {
            if (c.flags & SIMT_CMDF_IRQ) {
                g_assert_true(rd(d, SIMT_REG_IRQ_STATUS) &
                              SIMT_IRQ_BIT(SIMT_IRQ_QUEUE));
            }
            if (!is_wait) {
                mem = qtest_readq(d->qts, c.addr);
                g_assert_cmphex(mem, ==, c.value);
            }
        }
    }
    fresh_kernel_runs(h);
    h_stop(h);
}

/*
 * Queue descriptors: BASE, SIZE, TAIL, PRIORITY and CONTEXT at random
 * before ENABLE.  Invalid rings stop with BAD_RING at once; a valid ring
 * of zeroes (NOPs) runs to TAIL; a ring outside RAM stops with DMA.
 */
static void test_queue_descriptors(const void *props)
{
    H *h = h_start(props, 4);
    Dev *d = h->d;
    g_autofree uint8_t *zero = g_malloc0(HOST_RINGS_SIZE);

    for (int i = 0; i < 80; i++) {
        uint32_t size, tail, prio, ctx, allowed, done0;
        uint64_t base;
        bool bad = false, nowhere = false;

        case_begin(h);
        qtest_memwrite(d->qts, HOST_RINGS, zero, HOST_RINGS_SIZE);
        qwr(d, HQ, SIMT_QREG_CONTROL, SIMT_QCTL_RESET);
        switch (below(5)) {
        case 0:
            size = rnd() >> below(32);
            break;
        case 1:
            size = SIMT_MAX_QUEUE_SIZE << (1 + below(4));
            break;
        case 2:
            size = below(SIMT_MIN_QUEUE_SIZE);
            break;
        default:
            size = 1u << (1 + below(12));
            break;
        }
        bad |= !is_power_of_2(size) || size < SIMT_MIN_QUEUE_SIZE ||
               size > SIMT_MAX_QUEUE_SIZE;
        switch (below(4)) {
        case 0:
            base = HOST_RINGS + below(HOST_RINGS_SIZE);
            bad |= base % SIMT_CMD_SIZE != 0;
            break;
        case 1:
            base = HOST_NOWHERE + below(0x1000) * SIMT_CMD_SIZE;
            nowhere = true;
            break;
        default:
            base = HOST_RINGS + below(HOST_RINGS_SIZE / SIMT_CMD_SIZE / 2) *
                   SIMT_CMD_SIZE;
            break;
        }
        tail = chance(20) ? rnd() >> below(32) : below(MAX(size, 1));
        bad |= tail >= size;
        prio = rnd() >> below(32);
        ctx = rnd() >> below(32);
        qwr(d, HQ, SIMT_QREG_BASE_LO, base);
        qwr(d, HQ, SIMT_QREG_BASE_HI, base >> 32);
        qwr(d, HQ, SIMT_QREG_SIZE, size);
        qwr(d, HQ, SIMT_QREG_TAIL, tail);
        qwr(d, HQ, SIMT_QREG_PRIORITY, prio);
        g_assert_cmpuint(qrd(d, HQ, SIMT_QREG_PRIORITY), ==,
                         MIN(prio, SIMT_MAX_PRIORITY));
        qwr(d, HQ, SIMT_QREG_CONTEXT, ctx);
        g_assert_cmpuint(qrd(d, HQ, SIMT_QREG_CONTEXT), ==,
                         ctx < SIMT_MAX_CONTEXTS &&
                         ctx < rd(d, SIMT_REG_CONTEXT_COUNT) ? ctx : 0);
        done0 = qrd(d, HQ, SIMT_QREG_COMPLETED);
        qwr(d, HQ, SIMT_QREG_CONTROL, SIMT_QCTL_ENABLE);
        if (bad) {
            g_assert_cmphex(qrd(d, HQ, SIMT_QREG_STATUS), ==,
                            SIMT_QSTATUS(SIMT_QSTATE_ERROR,
                                         SIMT_QERR_BAD_RING));
            /* BAD_RING names the command at HEAD: 0 */
            case_end(h, 0, run_case(h), ERR(SIMT_QERR_BAD_RING), "ring");
            continue;
        }
        /* Translated contexts do not matter: rings are guest physical. */
        allowed = nowhere && tail ? ERR(SIMT_QERR_DMA) : ERR(SIMT_QERR_NONE);
        case_end(h, 0, run_case(h), allowed, "ring");
        if (!nowhere) {
            g_assert_cmpuint(qrd(d, HQ, SIMT_QREG_HEAD), ==, tail);
            g_assert_cmpuint(qrd(d, HQ, SIMT_QREG_COMPLETED), ==,
                             done0 + tail);
        }
    }
    qwr(d, HQ, SIMT_QREG_CONTROL, SIMT_QCTL_RESET);
    fresh_kernel_runs(h);
    h_stop(h);
}

/*
 * A ring that overlaps its own records: a LAUNCH whose completion record
 * lands on the ring, on its own entry or on the next one, and a SIGNAL
 * that rewrites the next entry.  Commands are read when they run, so
 * what was written there is what runs next.
 */
static void test_ring_overlaps_records(const void *props)
{
    H *h = h_start(props, 5);
    Dev *d = h->d;

    for (int i = 0; i < 40; i++) {
        struct simt_cmd_launch c;
        struct simt_cmd_signal sig = { .opcode = SIMT_CMD_SIGNAL };
        uint32_t nop[SIMT_CMD_SIZE / 4] = { SIMT_CMD_NOP };
        uint32_t idx, next, st, where = below(4);

        uint64_t entry;

        case_begin(h);
        /* Start anywhere on the ring: wrap-around included */
        for (uint32_t n = below(RING_SIZE - 2); n; n--) {
            submit(d, HQ, nop);
        }
        run_case(h);
        entry = RING_ADDR(HQ) + d->tail[HQ] * SIMT_CMD_SIZE;
        next = (d->tail[HQ] + 1) % RING_SIZE;
        if (where == 3) {
            /* SIGNAL 0 over the next entry's opcode and flags: a NOP */
            sig.addr = RING_ADDR(HQ) + next * SIMT_CMD_SIZE;
            sig.value = 0;
            idx = submit(d, HQ, &sig);
            nop[0] = 1000 + below(1000);
            nop[1] = rnd();
            g_assert_cmpuint(submit(d, HQ, nop), ==, next);
            st = run_case(h);
            case_end(h, next, st, ERR(SIMT_QERR_NONE), "signal over ring");
            continue;
        }
        zero_vram(d, h->hc, N * 4);
        vecadd_cmd(h, HQ, h->ha, h->hb, h->hc, N, &c);
        c.record = where == 0 ? entry :
                   RING_ADDR(HQ) + next * SIMT_CMD_SIZE + (where - 1) * 64;
        idx = submit(d, HQ, &c);
        g_assert_cmpuint(submit(d, HQ, nop), ==, next);
        st = run_case(h);
        if (where == 0) {
            /* Its own entry, already read: the NOP after it runs */
            case_end(h, next, st, ERR(SIMT_QERR_NONE), "record on itself");
        } else {
            /* The record's cycles are not a valid command */
            case_end(h, next, st, ERR(SIMT_QERR_BAD_COMMAND),
                     "record on the next entry");
        }
        g_assert_cmpuint(qrd(d, HQ, SIMT_QREG_HEAD), ==, where ? next :
                         (next + 1) % RING_SIZE);
        check_vecadd(h, h->hc, N, 0, N);
        (void)idx;
    }
    fresh_kernel_runs(h);
    h_stop(h);
}

/*
 * Page tables of garbage: the hostile queue's context points at pages of
 * random PTEs, with pointers back to their own table (loops), PPNs
 * beyond VRAM, reserved permission encodings, system pages.  A COPY from
 * a device address of that context to guest memory either faults (MMU)
 * or moves what a reference Sv32 walk of the same tables says.
 */
typedef struct Walk {
    int reason;                 /* 0, or enum simt_mmu_fault */
    uint64_t pa;
    bool sys;
} Walk;

static uint32_t pt_rd(H *h, uint64_t addr, bool *ok)
{
    uint32_t v;

    *ok = addr + 4 <= h->d->vram_size;
    if (!*ok) {
        return 0;
    }
    qpci_memread(h->d->dev, h->d->vram, addr, &v, 4);
    return le32_to_cpu(v);
}

static Walk ref_walk(H *h, uint32_t pt, uint32_t va)
{
    uint64_t table = (uint64_t)(pt & SIMT_PT_PPN_MASK) << SIMT_PAGE_SHIFT;
    uint64_t pfn;
    uint32_t pte;
    bool ok;

    pte = pt_rd(h, table + SIMT_VPN1(va) * 4, &ok);
    if (!ok) {
        return (Walk) { SIMT_MMU_BEYOND };
    }
    if (!(pte & SIMT_PTE_V)) {
        return (Walk) { SIMT_MMU_UNMAPPED };
    }
    if (((pte & SIMT_PTE_W) && !(pte & SIMT_PTE_R)) || (pte & SIMT_PTE_SYS)) {
        return (Walk) { SIMT_MMU_MALFORMED };
    }
    if (pte & (SIMT_PTE_R | SIMT_PTE_X)) {
        if (SIMT_PTE_PPN0(pte)) {
            return (Walk) { SIMT_MMU_MALFORMED };
        }
        pfn = ((uint64_t)(pte >> 20) << 10) | SIMT_VPN0(va);
    } else {
        table = (uint64_t)(pte >> SIMT_PTE_PPN_SHIFT) << SIMT_PAGE_SHIFT;
        pte = pt_rd(h, table + SIMT_VPN0(va) * 4, &ok);
        if (!ok) {
            return (Walk) { SIMT_MMU_BEYOND };
        }
        if (!(pte & SIMT_PTE_V)) {
            return (Walk) { SIMT_MMU_UNMAPPED };
        }
        if (((pte & SIMT_PTE_W) && !(pte & SIMT_PTE_R)) ||
            !(pte & (SIMT_PTE_R | SIMT_PTE_X))) {
            return (Walk) { SIMT_MMU_MALFORMED };
        }
        pfn = pte >> SIMT_PTE_PPN_SHIFT;
    }
    if (!(pte & SIMT_PTE_SYS) &&
        (pfn + 1) << SIMT_PAGE_SHIFT > h->d->vram_size) {
        return (Walk) { SIMT_MMU_BEYOND };
    }
    if (!(pte & SIMT_PTE_R)) {
        return (Walk) { SIMT_MMU_PERMISSION };
    }
    if ((pte & SIMT_PTE_SYS) && pfn >= (RAM_END >> SIMT_PAGE_SHIFT)) {
        return (Walk) { SIMT_MMU_BEYOND };
    }
    return (Walk) { 0, pfn << SIMT_PAGE_SHIFT | (va & 0xfff),
                    pte & SIMT_PTE_SYS };
}

static uint32_t garbage_pte(H *h)
{
    uint32_t ppn, flags = rnd() & 0x3ff;

    switch (below(5)) {
    case 0:
        /* A table of the pool: loops back to tables already walked */
        ppn = (VRAM_PT >> 12) + below(VRAM_PT_PAGES);
        flags &= ~(SIMT_PTE_R | SIMT_PTE_W | SIMT_PTE_X | SIMT_PTE_SYS);
        flags |= SIMT_PTE_V;
        break;
    case 1:
        ppn = rnd() >> 10;
        break;
    case 2:
        /* System pages in the test's RAM, superpages of VRAM */
        ppn = chance(50) ? (HOST_SRC >> 12) + below(0x200) :
              below(h->d->vram_size >> 22) << 10;
        flags |= SIMT_PTE_V | SIMT_PTE_R;
        break;
    default:
        ppn = below(h->d->vram_size >> 12);
        flags |= SIMT_PTE_V;
        break;
    }
    /* Where a system page may be is RAM or nothing: not other devices */
    if ((flags & SIMT_PTE_SYS) && ppn >= (RAM_END >> 12) &&
        ppn < (0x100000000ull >> 12)) {
        flags &= ~SIMT_PTE_SYS;
    }
    return ppn << SIMT_PTE_PPN_SHIFT | flags;
}

static void test_page_table_garbage(const void *props)
{
    H *h = h_start(props, 6);
    Dev *d = h->d;
    g_autofree uint32_t *pt = g_new(uint32_t, VRAM_PT_PAGES * 1024);
    g_autofree uint8_t *want = g_malloc(0x2000);
    g_autofree uint8_t *got = g_malloc(0x2000);

    for (int i = 0; i < 100; i++) {
        struct simt_cmd_copy c = {
            .opcode = SIMT_CMD_COPY, .flags = SIMT_CMDF_DST_HOST,
            .dst = HOST_DST,
        };
        uint32_t va, root, vpn1, allowed, idx, st, err;
        uint64_t done = 0;
        int reason = 0;

        case_begin(h);
        /* Ten passes over the tables: most VAs hit garbage set here */
        vpn1 = below(1024);
        for (int j = 0; j < VRAM_PT_PAGES * 1024; j++) {
            pt[j] = chance(70) ? 0 : cpu_to_le32(garbage_pte(h));
        }
        for (int j = 0; j < VRAM_PT_PAGES; j++) {
            pt[j * 1024 + vpn1] = cpu_to_le32(garbage_pte(h));
        }
        qpci_memwrite(d->dev, d->vram, VRAM_PT, pt, VRAM_PT_PAGES * 4096);
        root = chance(90) ? (VRAM_PT >> 12) + below(VRAM_PT_PAGES) :
               rnd() & SIMT_PT_PPN_MASK;
        wr(d, SIMT_CTX_REG(1, SIMT_CREG_PT), SIMT_PT_SV32 | root);
        wr(d, SIMT_CTX_REG(1, SIMT_CREG_FAULT), SIMT_CFAULT_VALID);
        wr(d, SIMT_REG_TLB_INV, SIMT_TLB_INV_ALL);
        qwr(d, HQ, SIMT_QREG_CONTROL, 0);
        qwr(d, HQ, SIMT_QREG_CONTEXT, 1);
        qwr(d, HQ, SIMT_QREG_CONTROL, SIMT_QCTL_ENABLE);
        va = vpn1 << 22 | below(1024) << 12 | below(4096);
        c.src = va;
        c.size = 1 + below(0x1800);
        /* The reference: page by page, as the engine moves it */
        while (done < c.size) {
            uint32_t a = va + done;
            uint64_t len = MIN(c.size - done, 4096 - (a & 0xfff));
            Walk w = ref_walk(h, SIMT_PT_SV32 | root, a);

            if (w.reason) {
                reason = w.reason;
                break;
            }
            if (w.sys) {
                qtest_memread(d->qts, w.pa, want + done, len);
            } else {
                qpci_memread(d->dev, d->vram, w.pa, want + done, len);
            }
            done += len;
        }
        allowed = reason ? ERR(SIMT_QERR_MMU) : ERR(SIMT_QERR_NONE);
        idx = submit(d, HQ, &c);
        st = run_case(h);
        err = case_end(h, idx, st, allowed, "page tables");
        if (err == SIMT_QERR_NONE) {
            qtest_memread(d->qts, HOST_DST, got, c.size);
            g_assert_true(memcmp(got, want, c.size) == 0);
        } else {
            uint32_t f = rd(d, SIMT_CTX_REG(1, SIMT_CREG_FAULT));

            g_assert_true(f & SIMT_CFAULT_VALID);
            g_assert_cmpuint(SIMT_CFAULT_REASON(f), ==, reason);
            g_assert_cmpuint(SIMT_CFAULT_ACCESS(f), ==,
                             SIMT_ACCESS_COPY_READ);
            g_assert_cmphex(rd(d, SIMT_CTX_REG(1, SIMT_CREG_FAULT_ADDR)), ==,
                            (uint32_t)(va + done));
        }
    }
    fresh_kernel_runs(h);
    h_stop(h);
}

/*
 * A save area over code: the hostile queue's context maps a private copy
 * of the kernel image read-write-execute and puts its save area on it;
 * its spinning kernel is switched out (the save overwrites code) and
 * resumed.  What it runs then is garbage: it may fault, finish or spin.
 * The device must stay sound: queues in other contexts finish right,
 * the hostile queue can be stopped, and the device answers.
 */
static void map4k(H *h, uint32_t root, uint32_t l0, uint32_t va, uint32_t pa,
                  uint32_t perm)
{
    Dev *d = h->d;
    uint32_t pte = cpu_to_le32((l0 >> 12) << SIMT_PTE_PPN_SHIFT | SIMT_PTE_V);

    qpci_memwrite(d->dev, d->vram, root + (va >> 22) * 4, &pte, 4);
    pte = cpu_to_le32((pa >> 12) << SIMT_PTE_PPN_SHIFT | perm | SIMT_PTE_V);
    qpci_memwrite(d->dev, d->vram, l0 + ((va >> 12) & 0x3ff) * 4, &pte, 4);
}

static void test_save_area_over_code(const void *props)
{
    H *h = h_start(props, 7);
    Dev *d = h->d;
    const struct simt_image *img = d->img;
    const struct simt_kernel_info *k = simt_image_kernel(img, "spin");
    uint32_t root = VRAM_PT, l0 = VRAM_PT + 0x1000, l0b = VRAM_PT + 0x2000;
    uint32_t copy = VRAM_HSRC, out = VRAM_HDST, start, end;
    uint32_t rwx = SIMT_PTE_R | SIMT_PTE_W | SIMT_PTE_X;

    g_assert_nonnull(k);
    start = img->base & ~0xfffu;
    end = ROUND_UP(img->base + img->size, 4096);
    g_assert_cmpuint(end - start, <=, 0x400000);
    g_assert_cmpuint((start >> 22), ==, ((end - 1) >> 22));
    for (int i = 0; i < 12; i++) {
        struct simt_cmd_launch c = {
            .opcode = SIMT_CMD_LAUNCH,
            .code_addr = img->code_start,
            .code_size = img->code_end - img->code_start,
            .entry = k->m.entry,
            .grid = { 1 + below(8), 1, 1 },
            .block = { 32 * (1 + below(4)), 1, 1 },
            .shared_size = k->m.shared_bytes,
            .local_size = k->m.local_bytes,
            .regs = ctpop32(k->m.int_regs_used) + ctpop32(k->m.fp_regs_used),
            .local_base = VRAM_LOCAL,
            .args = { out, 200000 + below(100000) },
        };
        g_autofree uint8_t *code = g_malloc(end - start);
        uint32_t idx, save, mode = below(2) ? SIMT_PMODE_SWITCH :
                                              SIMT_PMODE_LIGHT;

        case_begin(h);
        /* Context 2: code copy RWX at the link address, out, local */
        zero_vram(d, root, 0x3000);
        qpci_memread(d->dev, d->vram, start, code, end - start);
        qpci_memwrite(d->dev, d->vram, copy, code, end - start);
        for (uint32_t a = start; a < end; a += 4096) {
            map4k(h, root, l0, a, copy + (a - start), rwx);
        }
        map4k(h, root, l0b, out, out, SIMT_PTE_R | SIMT_PTE_W);
        for (uint32_t a = 0; a < 0x10000; a += 4096) {
            map4k(h, root, l0b, VRAM_LOCAL + a, VRAM_LOCAL + 0x100000 + a,
                  SIMT_PTE_R | SIMT_PTE_W);
        }
        wr(d, SIMT_CTX_REG(2, SIMT_CREG_PT), SIMT_PT_SV32 | root >> 12);
        wr(d, SIMT_REG_TLB_INV, SIMT_TLB_INV_ALL);
        save = (start + below((end - start) / 2)) & ~255u;
        wr(d, SIMT_CTX_REG(2, SIMT_CREG_SAVE_BASE), save);
        wr(d, SIMT_CTX_REG(2, SIMT_CREG_SAVE_SIZE), end - save);
        wr(d, SIMT_CTX_REG(2, SIMT_CREG_PREEMPT_MODE), mode);
        qwr(d, HQ, SIMT_QREG_CONTROL, 0);
        qwr(d, HQ, SIMT_QREG_CONTEXT, 2);
        qwr(d, HQ, SIMT_QREG_CONTROL, SIMT_QCTL_ENABLE);
        c.record = RECORD_ADDR(HQ, d->tail[HQ]);
        idx = submit(d, HQ, &c);
        qtest_clock_step(d->qts, (1 + below(20)) * SLICE_NS);
        wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(2, SIMT_PREQ_PREEMPT, mode));
        for (int t = 0; t < 1000 &&
             (rd(d, SIMT_REG_PREEMPT_STATUS) & SIMT_PSTATUS_BUSY); t++) {
            qtest_clock_step(d->qts, SLICE_NS);
        }
        wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(2, SIMT_PREQ_RESUME, 0));
        /* Let it run a while, then stop it if it has not stopped */
        for (int t = 0; t < 200 && !good_done(h); t++) {
            qtest_clock_step(d->qts, 5 * SLICE_NS);
        }
        qtest_clock_step(d->qts, 100 * SLICE_NS);
        if (!queue_done(d, HQ, idx)) {
            qwr(d, HQ, SIMT_QREG_CONTROL, 0);
            g_assert_cmpuint(qrd(d, HQ, SIMT_QREG_RESIDENT), ==, 0);
        }
        h->cases++;
        good_check(h);
        device_answers(h);
    }
    fresh_kernel_runs(h);
    h_stop(h);
}

/*
 * Limits: a ring of commands that do nothing costs the host at most
 * SLICE_CMDS command fetches per queue and slice; the whole ring still
 * runs, in as many slices as that takes.
 */
static void test_nop_ring_bounded_per_slice(const void *props)
{
    H *h = h_start(props, 8);
    Dev *d = h->d;
    g_autofree uint8_t *zero = g_malloc0(SIMT_MAX_QUEUE_SIZE *
                                          SIMT_CMD_SIZE);
    uint32_t tail = SIMT_MAX_QUEUE_SIZE - 1, slices = 0, prev = 0;
    uint32_t done;

    qtest_memwrite(d->qts, HOST_BIG_RING, zero,
                   SIMT_MAX_QUEUE_SIZE * SIMT_CMD_SIZE);
    for (unsigned q = 0; q < d->nqueues; q++) {
        qwr(d, q, SIMT_QREG_CONTROL, SIMT_QCTL_RESET);
        qwr(d, q, SIMT_QREG_BASE_LO, HOST_BIG_RING);
        qwr(d, q, SIMT_QREG_BASE_HI, 0);
        qwr(d, q, SIMT_QREG_SIZE, SIMT_MAX_QUEUE_SIZE);
        qwr(d, q, SIMT_QREG_CONTROL, SIMT_QCTL_ENABLE);
        qwr(d, q, SIMT_QREG_TAIL, tail);
    }
    do {
        qtest_clock_step(d->qts, SLICE_NS);
        slices++;
        for (unsigned q = 0; q < d->nqueues; q++) {
            done = qrd(d, q, SIMT_QREG_COMPLETED);
            g_assert_cmpuint(done, <=, (uint64_t)slices * SLICE_CMDS);
            if (q == 0) {
                g_assert_cmpuint(done - prev, <=, SLICE_CMDS);
                prev = done;
            }
        }
        device_answers(h);
    } while (qrd(d, 0, SIMT_QREG_COMPLETED) < tail && slices < 1000);
    for (unsigned q = 0; q < d->nqueues; q++) {
        g_assert_cmpuint(qrd(d, q, SIMT_QREG_COMPLETED), ==, tail);
        g_assert_cmpuint(qrd(d, q, SIMT_QREG_STATUS), ==, SIMT_QSTATE_IDLE);
    }
    g_assert_cmpuint(slices, >=, tail / SLICE_CMDS);
    g_assert_cmpuint(slices, <=, tail / SLICE_CMDS + 2);
    g_test_message("%u NOPs on each of %u queues took %u slices", tail,
                   d->nqueues, slices);
    for (unsigned q = 0; q < d->nqueues; q++) {
        qwr(d, q, SIMT_QREG_CONTROL, SIMT_QCTL_RESET);
        queue_setup(d, q, 0);
    }
    fresh_kernel_runs(h);
    h_stop(h);
}

/*
 * Limits: a copy moves at most one DMA_CHUNK per engine step (one host
 * memcpy through the 64 KiB bounce buffer at a time), and the engine
 * then waits the chunk's cycles: even a copy of the largest chunk costs
 * the host one chunk per chunk-time of virtual time.
 */
static void test_copy_bounded_by_chunk(const void *props)
{
    g_autofree char *with_vram = g_strdup_printf("vram-size=256M%s%s",
                                                 props ? "," : "",
                                                 props ? (char *)props : "");
    H *h = h_start(with_vram, 9);
    Dev *d = h->d;
    uint32_t bw = rd(d, SIMT_REG_COPY_BW), chunk = 1u << 20, idx;
    uint64_t size = 32ull << 20, bytes, chunk_ns;
    struct simt_cmd_copy c = {
        .opcode = SIMT_CMD_COPY, .flags = SIMT_CMDF_SRC_HOST,
        .src = 0x4000000, .dst = 0x8000000, .size = size,
    };

    wr(d, SIMT_REG_DMA_CHUNK, chunk);
    g_assert_cmpuint(rd(d, SIMT_REG_DMA_CHUNK), ==, chunk);
    chunk_ns = (uint64_t)chunk / bw * 1000 / rd(d, SIMT_REG_CLOCK_MHZ);
    idx = submit(d, HQ, &c);
    qtest_clock_step(d->qts, SLICE_NS);
    bytes = rd(d, SIMT_COPY_REG(0, SIMT_EREG_BYTES_LO));
    g_assert_cmpuint(bytes, <=, chunk);
    for (uint64_t t = SLICE_NS; !queue_done(d, HQ, idx); t += SLICE_NS) {
        uint64_t all = 0;

        for (unsigned e = 0; e < rd(d, SIMT_REG_COPY_ENGINES); e++) {
            all += rd(d, SIMT_COPY_REG(e, SIMT_EREG_BYTES_LO));
        }
        /* Never more than the chunks begun by now */
        g_assert_cmpuint(all, <=, (t / chunk_ns + 1) * chunk);
        qtest_clock_step(d->qts, SLICE_NS);
    }
    g_assert_cmpuint(qrd(d, HQ, SIMT_QREG_STATUS), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(rd(d, SIMT_COPY_REG(0, SIMT_EREG_CHUNKS)), ==,
                     size / chunk);
    fresh_kernel_runs(h);
    h_stop(h);
}

/*
 * A guest that queues as many commands as the ring has entries writes
 * TAIL == HEAD: the ring is empty again, those commands are lost, and
 * the queue must say IDLE (not BUSY with nothing to run, which would
 * also keep the device from ever being idle for migration).
 */
static void test_ring_overrun_goes_idle(const void *props)
{
    H *h = h_start(props, 10);
    Dev *d = h->d;
    uint32_t nop[SIMT_CMD_SIZE / 4] = { SIMT_CMD_NOP };

    for (int i = 0; i < 10; i++) {
        uint32_t n = below(RING_SIZE / 2) + RING_SIZE / 2, done0;

        hq_reset(h);
        /* The first half runs, the rest fills the ring to the brim */
        for (uint32_t j = 0; j < n; j++) {
            submit(d, HQ, nop);
        }
        while (qrd(d, HQ, SIMT_QREG_STATUS) != SIMT_QSTATE_IDLE) {
            qtest_clock_step(d->qts, SLICE_NS);
        }
        done0 = qrd(d, HQ, SIMT_QREG_COMPLETED);
        for (uint32_t j = 0; j < RING_SIZE; j++) {
            submit(d, HQ, nop);
        }
        g_assert_cmpuint(qrd(d, HQ, SIMT_QREG_HEAD), ==, d->tail[HQ]);
        g_assert_cmpuint(qrd(d, HQ, SIMT_QREG_STATUS), ==, SIMT_QSTATE_IDLE);
        qtest_clock_step(d->qts, 10 * SLICE_NS);
        g_assert_cmpuint(qrd(d, HQ, SIMT_QREG_STATUS), ==, SIMT_QSTATE_IDLE);
        /* Some of the overrun ring may have run before TAIL caught up */
        g_assert_cmpuint(qrd(d, HQ, SIMT_QREG_COMPLETED) - done0, <,
                         RING_SIZE);
        device_answers(h);
    }
    fresh_kernel_runs(h);
    h_stop(h);
}

static void add_tests(const char *prefix, const char *props)
{
    static const struct {
        const char *name;
        GTestDataFunc fn;
    } tests[] = {
        { "launch-fields-error-on-own-queue", test_launch_fields },
        { "copy-fields-error-on-own-queue", test_copy_fields },
        { "signal-wait-fields-error-on-own-queue", test_signal_wait_fields },
        { "queue-descriptors-bad-ring-or-run", test_queue_descriptors },
        { "ring-overlapping-own-records", test_ring_overlaps_records },
        { "ring-overrun-tail-at-head-goes-idle", test_ring_overrun_goes_idle },
        { "page-tables-of-garbage-vs-reference", test_page_table_garbage },
        { "save-area-over-code-others-unharmed", test_save_area_over_code },
        { "limits/nop-ring-bounded-per-slice",
          test_nop_ring_bounded_per_slice },
        { "limits/copy-one-chunk-per-step", test_copy_bounded_by_chunk },
    };

    for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
        g_autofree char *path = g_strconcat(prefix, tests[i].name, NULL);

        qtest_add_data_func(path, props, tests[i].fn);
    }
}

int main(int argc, char **argv)
{
    const char *s = g_getenv("SIMT_HOSTILE_SEED");

    g_test_init(&argc, &argv, NULL);
    seed = s ? g_ascii_strtoull(s, NULL, 0) : 0x51a7e5eedull;
    g_test_message("simt-hostile seed 0x%" PRIx64
                   " (SIMT_HOSTILE_SEED to change)", seed);
    if (simt_qtest_init()) {
        /* Each case also with the SMs on two host threads, running ahead. */
        for (int i = 0; i < 2; i++) {
            add_tests(i ? "/simt/hostile/two-threads/" : "/simt/hostile/",
                      i ? "threads=2" : NULL);
        }
    }
    return g_test_run();
}
