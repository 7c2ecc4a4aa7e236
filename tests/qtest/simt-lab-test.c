/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the labs' graders and experiments (docs/labs/).
 *
 * Without SIMT_LAB this is a grader: for every block placement policy
 * named in $SIMT_LAB_POLICIES (comma-separated; by default the device's
 * own: most-room, round-robin, least-loaded) it checks the properties a
 * correct policy must have.  make check runs it on the device's
 * policies; `make lab-check LAB=placement POLICY=NAME` on a student's.
 *
 * The copy policies (the chunks lab) are graded the same way, on
 * $SIMT_LAB_COPY_POLICIES or the device's own (priority, fifo,
 * round-robin).
 *
 * With SIMT_LAB=placement or SIMT_LAB=chunks it runs that lab's
 * experiment instead and prints its table (`make lab LAB=...`).
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/units.h"
#include "simt-qtest.h"

#define TRACE_ADDR          0x500000
#define TRACE_SIZE          16384
#define EMPTY               0xffffffffu

static const char *const default_policies[] = {
    "most-room", "round-robin", "least-loaded",
};

#define HOST_SRC            0x1000000
#define VRAM_BIG_SRC        0x2000000
#define VRAM_SMALL_DST      0x6000000
#define VRAM_BIG_DST        0x8000000

static Dev *policy_start(const char *policy, const char *preset)
{
    g_autofree char *props = g_strdup_printf("preset=%s,placement=%s",
                                             preset, policy);
    Dev *d = dev_start(props);

    wr(d, SIMT_REG_TRACE_LO, TRACE_ADDR);
    wr(d, SIMT_REG_TRACE_HI, 0);
    wr(d, SIMT_REG_TRACE_SIZE, TRACE_SIZE);
    return d;
}

/*
 * A grader's setting: @fixed, or with SIMT_LAB_SEED (make grade) one
 * drawn from [@lo, @hi] by the seed and the setting's @salt, so that a
 * policy tuned to the fixed settings is tried on others.
 */
static uint32_t lab_setting(uint32_t salt, uint32_t fixed, uint32_t lo,
                            uint32_t hi)
{
    const char *seed = g_getenv("SIMT_LAB_SEED");
    g_autoptr(GRand) rand = NULL;

    if (!seed || !*seed) {
        return fixed;
    }
    rand = g_rand_new_with_seed(g_ascii_strtoull(seed, NULL, 10) ^ salt);
    return g_rand_int_range(rand, lo, hi + 1);
}

/* The timeline written so far; *n records. */
static struct simt_trace_record *timeline(Dev *d, uint32_t *n)
{
    struct simt_trace_record *t;

    *n = rd(d, SIMT_REG_TRACE_COUNT);
    g_assert_cmpuint(*n, <=, TRACE_SIZE);
    t = g_new(struct simt_trace_record, *n);
    qtest_memread(d->qts, TRACE_ADDR, t, *n * sizeof(*t));
    return t;
}

/*
 * Every block runs exactly once, on a real SM: a kernel of several waves
 * of blocks records the SM of each.  Returns where they ran in @sm_of.
 */
static void blocks_run_once(Dev *d, uint32_t *sm_of, uint32_t blocks,
                            uint32_t threads)
{
    g_autofree uint32_t *init = g_new(uint32_t, blocks);
    uint32_t out;
    struct simt_completion r;

    memset(init, 0xff, blocks * 4);
    out = vram_alloc(d, init, blocks * 4);
    run_ok(d, 0, &(Launch) {
        .kernel = "record_sm", .grid = { blocks }, .block = { threads },
        .args = { out },
    }, &r);
    vram_read(d, out, sm_of, blocks * 4);
    for (uint32_t b = 0; b < blocks; b++) {
        g_assert_cmpuint(sm_of[b], !=, EMPTY);
        g_assert_cmpuint(sm_of[b], <, d->nsm);
    }
    g_assert_cmpuint(rd(d, SIMT_REG_POLICY_ERRORS), ==, 0);
}

/*
 * Every block runs once, and the same policy places the same way again
 * after a device reset in the same QEMU: state kept anywhere but in
 * s->place_next (a C static, say) survives the reset and shows.  A
 * second, smaller kernel before the reset (40 blocks: one SM's worth and
 * more) leaves such state where the first kernel did not start.
 */
static void check_runs_once_deterministic(gconstpointer data)
{
    const char *policy = data;
    /* Three waves of 96 threads on pascal-5; graded: two to four. */
    const uint32_t blocks = lab_setting(1, 5 * 32 * 3, 5 * 32 * 2,
                                        5 * 32 * 4);
    const uint32_t threads = 32 * lab_setting(2, 3, 1, 4);
    g_autofree uint32_t *a = g_new(uint32_t, blocks);
    g_autofree uint32_t *b = g_new(uint32_t, blocks);
    uint32_t more[40];
    Dev *d;

    g_test_message("property: every block of a three-wave kernel runs "
                   "once on a real SM, placed the same way again after a "
                   "device reset");
    d = policy_start(policy, "pascal-5");
    g_test_message("%s: %u blocks of %u threads", policy, blocks, threads);
    blocks_run_once(d, a, blocks, threads);
    blocks_run_once(d, more, ARRAY_SIZE(more), 96);
    wr(d, SIMT_REG_RESET, SIMT_RESET_MAGIC);
    for (unsigned q = 0; q < d->nqueues; q++) {
        queue_setup(d, q, 0);
    }
    use_image(d, "samples");
    blocks_run_once(d, b, blocks, threads);
    g_assert_cmpmem(a, blocks * 4, b, blocks * 4);
    dev_stop(d);
}

/*
 * Work conserving: a kernel whose blocks all fit at once has every block
 * placed at the cycle its first one was (no block waits while an SM has
 * room), and uses every SM it needs to.
 */
static void check_work_conserving(gconstpointer data)
{
    const char *policy = data;
    g_autofree struct simt_trace_record *t = NULL;
    struct simt_completion r;
    uint64_t first = UINT64_MAX;
    uint32_t n, out, placed = 0;
    Dev *d;

    g_test_message("property: all blocks of a kernel that fits at once "
                   "are placed in the same cycle");
    d = policy_start(policy, "pascal-5");
    /* 2048 threads an SM: 8 blocks of 1024 threads need 4 SMs' worth. */
    out = vram_alloc(d, NULL, 8 * 4);
    run_ok(d, 0, &(Launch) {
        .kernel = "hold", .grid = { 8 }, .block = { 1024 },
        .args = { out, 2000 },
    }, &r);
    t = timeline(d, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (t[i].type != SIMT_TRACE_DISPATCH) {
            continue;
        }
        first = MIN(first, le64_to_cpu(t[i].cycle));
        g_assert_cmpuint(le64_to_cpu(t[i].cycle), ==, first);
        placed++;
    }
    g_assert_cmpuint(placed, ==, 8);
    g_assert_cmpuint(rd(d, SIMT_REG_POLICY_ERRORS), ==, 0);
    dev_stop(d);
}

/*
 * Room respected: behind a kernel that fills some SMs, a second kernel's
 * blocks all go where they fit, and both kernels' results are complete.
 */
static void check_room_respected(gconstpointer data)
{
    const char *policy = data;
    uint32_t aout, bout, init[20];
    uint32_t ai, bi, got[20];
    struct simt_completion r;
    Dev *d;

    g_test_message("property: every pick has room (POLICY_ERRORS stays 0) "
                   "and a second kernel placed around a first completes");
    d = policy_start(policy, "pascal-5");
    aout = vram_alloc(d, NULL, 6 * 4);
    memset(init, 0xff, sizeof(init));
    bout = vram_alloc(d, init, sizeof(init));
    /* A: three SMs' worth of 2048 threads. */
    ai = launch(d, 0, &(Launch) {
        .kernel = "hold", .grid = { 6 }, .block = { 1024 },
        .args = { aout, 20000 },
    });
    bi = launch(d, 1, &(Launch) {
        .kernel = "record_sm", .grid = { 20 }, .block = { 512 },
        .args = { bout },
    });
    g_assert_cmpuint(wait_queue(d, 1, bi), ==, SIMT_QSTATE_IDLE);
    read_record(d, 1, bi, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
    g_assert_cmpuint(wait_queue(d, 0, ai), ==, SIMT_QSTATE_IDLE);
    vram_read(d, bout, got, sizeof(got));
    for (uint32_t b = 0; b < 20; b++) {
        g_assert_cmpuint(got[b], <, d->nsm);
    }
    /* Every pick had room: the scheduler never had to correct one. */
    g_assert_cmpuint(rd(d, SIMT_REG_POLICY_ERRORS), ==, 0);
    dev_stop(d);
}

/* ---- the experiment (SIMT_LAB=placement) ---- */

typedef struct Colocation {
    uint64_t cycles;            /* B's, first block placed to last retired */
    uint32_t beside_a;          /* B's blocks placed on an SM holding A's */
    uint32_t sms;               /* SMs B's blocks ran on */
    uint32_t policy_errors;     /* picks the scheduler overruled */
} Colocation;

/*
 * Seed 001's co-location experiment (digest A.5) on Turing-68: A (67
 * blocks of 512 threads copying in place) first, then B (8 blocks of
 * @b_threads threads copying 64 words each, memory-bound).  Most room
 * puts B's 33-thread blocks all on A's empty SM67 and its 32-thread ones
 * there and beside A's blocks.
 */
static Colocation colocate(const char *policy, uint32_t b_threads,
                           bool with_a)
{
    Dev *d = policy_start(policy, "turing-68");
    uint32_t nb = 8 * b_threads * 64, na = 67 * 512 * 128, n;
    uint32_t bsrc = vram_alloc(d, NULL, nb * 4);
    uint32_t bdst = vram_alloc(d, NULL, nb * 4), bidx;
    g_autofree struct simt_trace_record *t = NULL;
    g_autofree bool *has_a = g_new0(bool, d->nsm);
    g_autofree bool *has_b = g_new0(bool, d->nsm);
    struct simt_completion r;
    Colocation c = { 0 };

    if (with_a) {
        uint32_t abuf = vram_alloc(d, NULL, na * 4);

        launch(d, 0, &(Launch) {
            .kernel = "copy_words", .grid = { 67 }, .block = { 512 },
            .args = { abuf, abuf, na },
        });
    }
    bidx = launch(d, 1, &(Launch) {
        .kernel = "copy_words", .grid = { 8 }, .block = { b_threads },
        .args = { bsrc, bdst, nb },
    });
    g_assert_cmpuint(wait_queue(d, 1, bidx), ==, SIMT_QSTATE_IDLE);
    read_record(d, 1, bidx, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
    c.cycles = r.end_cycle - r.start_cycle;
    t = timeline(d, &n);
    for (uint32_t i = 0; i < n; i++) {
        uint16_t sm = le16_to_cpu(t[i].sm);

        if (t[i].type != SIMT_TRACE_DISPATCH || sm >= d->nsm) {
            continue;
        }
        if (t[i].queue == 0) {
            has_a[sm] = true;
        } else {
            c.beside_a += has_a[sm];
            c.sms += !has_b[sm];
            has_b[sm] = true;
        }
    }
    c.policy_errors = rd(d, SIMT_REG_POLICY_ERRORS);
    dev_stop(d);
    return c;
}

static void lab_placement(gconstpointer data)
{
    const char *const *policies = data;

    g_test_message("lab placement: seed 001's co-location on turing-68, "
                   "B = 8 memory-bound blocks behind A = 67 blocks of 512 "
                   "threads");
    g_test_message("%-14s %9s %12s %12s %9s %10s %6s %9s", "policy",
                   "B threads", "B alone", "B beside A", "slowdown",
                   "B beside A", "B SMs", "overruled");
    g_test_message("%-14s %9s %12s %12s %9s %10s %6s %9s", "", "", "cycles",
                   "cycles", "", "blocks", "", "picks");
    for (uint32_t i = 0; policies[i]; i++) {
        for (uint32_t bt = 32; bt <= 33; bt++) {
            Colocation alone = colocate(policies[i], bt, false);
            Colocation with = colocate(policies[i], bt, true);

            g_test_message("%-14s %9u %12" PRIu64 " %12" PRIu64 " %9.2f "
                           "%10u %6u %9u", policies[i], bt, alone.cycles,
                           with.cycles, (double)with.cycles / alone.cycles,
                           with.beside_a, with.sms,
                           alone.policy_errors + with.policy_errors);
        }
    }
}

/* ---- the chunks lab: copy policies ---- */

static Dev *copy_start(const char *policy, uint32_t chunk)
{
    g_autofree char *props = g_strdup_printf("copy-engines=1,copy-policy=%s",
                                             policy);
    Dev *d = dev_start(props);

    wr(d, SIMT_REG_DMA_CHUNK, chunk);
    g_assert_cmpuint(rd(d, SIMT_REG_DMA_CHUNK), ==, chunk);
    wr(d, SIMT_REG_TRACE_LO, TRACE_ADDR);
    wr(d, SIMT_REG_TRACE_HI, 0);
    wr(d, SIMT_REG_TRACE_SIZE, TRACE_SIZE);
    return d;
}

static uint32_t copy_submit(Dev *d, unsigned q, uint32_t flags, uint64_t src,
                            uint64_t dst, uint64_t size)
{
    struct simt_cmd_copy c = {
        .opcode = SIMT_CMD_COPY, .flags = flags,
        .src = src, .dst = dst, .size = size,
    };

    return submit(d, q, &c);
}

/* Cycles from queue @q's copy submission to its end, from the timeline. */
static uint64_t copy_cycles(Dev *d, unsigned q, uint64_t *submitted)
{
    g_autofree struct simt_trace_record *t = NULL;
    uint64_t start = 0, end = 0;
    uint32_t n;

    t = timeline(d, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (t[i].queue == q && t[i].type == SIMT_TRACE_COPY) {
            start = le64_to_cpu(t[i].cycle);
        } else if (t[i].queue == q && t[i].type == SIMT_TRACE_COPY_DONE) {
            end = le64_to_cpu(t[i].cycle);
        }
    }
    g_assert_cmpuint(end, >=, start);
    if (submitted) {
        *submitted = start;
    }
    return end - start;
}

/* An engine's cycles for a copy of @size bytes in chunks of @chunk. */
static uint64_t chunked_cycles(uint64_t size, uint32_t chunk, uint32_t bw)
{
    return size / chunk * DIV_ROUND_UP(chunk, bw) +
           DIV_ROUND_UP(size % chunk, bw);
}

static void fill_pattern(uint8_t *buf, size_t len, uint32_t seed)
{
    for (size_t i = 0; i < len; i++) {
        buf[i] = (uint8_t)((i * 131 + seed) ^ (i >> 9));
    }
}

/*
 * Every byte arrives: large copies of queues 0 and 2, a small one of
 * queue 1 at the highest priority and one from guest memory of queue 3,
 * all at once on one engine in small chunks; every destination checked,
 * and the engine never idle while copies wait (the last ends after
 * exactly the cycles of all their chunks).
 */
static void check_copies_intact(gconstpointer data)
{
    const char *policy = data;
    /* 64 KiB chunks, 4 MiB and 16 KiB copies; graded: others. */
    const uint32_t chunk = 4 * KiB << lab_setting(3, 4, 2, 5);
    const uint32_t big = chunk * lab_setting(4, 64, 16, 48);
    const uint32_t small = 4 * KiB * lab_setting(5, 4, 1, 8);
    g_autofree uint8_t *a = g_malloc(big), *b = g_malloc(big);
    g_autofree uint8_t *h = g_malloc(small), *got = g_malloc(big);
    g_autofree struct simt_trace_record *t = NULL;
    uint64_t first = UINT64_MAX, last = 0, cycles = 0;
    uint32_t idx[4], n, bw;
    Dev *d;

    g_test_message("property: every byte of four copies arrives, the "
                   "engine is never idle while a copy waits, and every "
                   "pick is an index of p[] (POLICY_ERRORS stays 0)");
    g_test_message("%s: %u KiB chunks, copies of %u and %u KiB", policy,
                   (unsigned)(chunk / KiB), (unsigned)(big / KiB),
                   (unsigned)(small / KiB));
    d = copy_start(policy, chunk);
    bw = rd(d, SIMT_REG_COPY_BW);
    fill_pattern(a, big, 1);
    fill_pattern(b, big, 2);
    fill_pattern(h, small, 3);
    qtest_bufwrite(d->qts, d->vram.addr + VRAM_BIG_SRC, a, big);
    qtest_bufwrite(d->qts, d->vram.addr + VRAM_BIG_SRC + big, b, big);
    qtest_bufwrite(d->qts, HOST_SRC, h, small);
    qwr(d, 1, SIMT_QREG_PRIORITY, SIMT_MAX_PRIORITY);
    idx[0] = copy_submit(d, 0, 0, VRAM_BIG_SRC, VRAM_BIG_DST, big);
    idx[2] = copy_submit(d, 2, 0, VRAM_BIG_SRC + big, VRAM_BIG_DST + big,
                         big);
    idx[1] = copy_submit(d, 1, SIMT_CMDF_SRC_HOST, HOST_SRC, VRAM_SMALL_DST,
                         small);
    idx[3] = copy_submit(d, 3, SIMT_CMDF_SRC_HOST, HOST_SRC,
                         VRAM_SMALL_DST + small, small);
    for (unsigned q = 0; q < 4; q++) {
        g_assert_cmpuint(wait_queue(d, q, idx[q]), ==, SIMT_QSTATE_IDLE);
    }
    qtest_memread(d->qts, d->vram.addr + VRAM_BIG_DST, got, big);
    g_assert_cmpmem(got, big, a, big);
    qtest_memread(d->qts, d->vram.addr + VRAM_BIG_DST + big, got, big);
    g_assert_cmpmem(got, big, b, big);
    for (uint32_t i = 0; i < 2; i++) {
        qtest_memread(d->qts, d->vram.addr + VRAM_SMALL_DST + i * small, got,
                      small);
        g_assert_cmpmem(got, small, h, small);
    }
    /* Work conserving: all chunks back to back from the first submission. */
    t = timeline(d, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (t[i].type == SIMT_TRACE_COPY) {
            first = MIN(first, le64_to_cpu(t[i].cycle));
        } else if (t[i].type == SIMT_TRACE_COPY_DONE) {
            last = MAX(last, le64_to_cpu(t[i].cycle));
        }
    }
    cycles = 2 * chunked_cycles(big, chunk, bw) +
             2 * chunked_cycles(small, chunk, bw);
    g_assert_cmpuint(last - first, ==, cycles);
    g_assert_cmpuint(rd(d, SIMT_REG_POLICY_ERRORS), ==, 0);
    dev_stop(d);
}

/* One run of the experiment: a 4 KiB high-priority copy during 64 MiB. */
typedef struct ChunkRun {
    uint64_t hp;                /* the small copy's cycles */
    uint64_t lp;                /* the large copy's */
    uint32_t switches;          /* the engine's switches between copies */
    uint32_t policy_errors;     /* picks the engine overruled */
} ChunkRun;

static ChunkRun chunk_run(const char *policy, uint32_t chunk)
{
    Dev *d = copy_start(policy, chunk);
    uint32_t bidx, sidx;
    ChunkRun r;

    qwr(d, 1, SIMT_QREG_PRIORITY, SIMT_MAX_PRIORITY);
    bidx = copy_submit(d, 0, 0, VRAM_BIG_SRC, VRAM_BIG_DST, 64 * MiB);
    /* A third of the way in (the default clock: a cycle a nanosecond). */
    qtest_clock_step(d->qts, 64 * MiB / rd(d, SIMT_REG_COPY_BW) / 3);
    sidx = copy_submit(d, 1, SIMT_CMDF_SRC_HOST, HOST_SRC, VRAM_SMALL_DST,
                       4 * KiB);
    g_assert_cmpuint(wait_queue(d, 1, sidx), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(wait_queue(d, 0, bidx), ==, SIMT_QSTATE_IDLE);
    r.hp = copy_cycles(d, 1, NULL);
    r.lp = copy_cycles(d, 0, NULL);
    r.switches = rd(d, SIMT_COPY_REG(0, SIMT_EREG_SWITCHES));
    r.policy_errors = rd(d, SIMT_REG_POLICY_ERRORS);
    dev_stop(d);
    return r;
}

static void lab_chunks(gconstpointer data)
{
    const char *const *policies = data;
    static const uint32_t chunks[] = {
        16 * KiB, 256 * KiB, 1 * MiB, 4 * MiB, 64 * MiB,
    };

    g_test_message("lab chunks: a 4 KiB high-priority copy submitted a "
                   "third into a 64 MiB low-priority copy, one engine");
    g_test_message("%-16s %9s %12s %12s %9s %9s", "policy", "chunk KiB",
                   "HP cycles", "LP cycles", "switches", "overruled");
    for (uint32_t i = 0; policies[i]; i++) {
        for (size_t c = 0; c < ARRAY_SIZE(chunks); c++) {
            ChunkRun r = chunk_run(policies[i], chunks[c]);

            g_test_message("%-16s %9u %12" PRIu64 " %12" PRIu64 " %9u %9u",
                           policies[i], (unsigned)(chunks[c] / KiB), r.hp, r.lp,
                           r.switches, r.policy_errors);
        }
    }
}

int main(int argc, char **argv)
{
    const char *list = g_getenv("SIMT_LAB_POLICIES");
    const char *copy_list = g_getenv("SIMT_LAB_COPY_POLICIES");
    const char *lab = g_getenv("SIMT_LAB");
    g_auto(GStrv) policies = NULL;
    g_auto(GStrv) copy_policies = g_strsplit(copy_list && *copy_list ?
                                             copy_list :
                                             "priority,fifo,round-robin",
                                             ",", 0);

    g_test_init(&argc, &argv, NULL);
    if (!simt_qtest_init()) {
        return g_test_run();
    }
    policies = list && *list ? g_strsplit(list, ",", 0) :
               g_strdupv((char **)(const char *const[]) {
                   default_policies[0], default_policies[1],
                   default_policies[2], NULL });
    if (lab && !strcmp(lab, "chunks")) {
        qtest_add_data_func("/simt/lab/chunks/experiment", copy_policies,
                            lab_chunks);
        return g_test_run();
    }
    if (lab) {
        g_assert_cmpstr(lab, ==, "placement");
        qtest_add_data_func("/simt/lab/placement/experiment", policies,
                            lab_placement);
        return g_test_run();
    }
    for (uint32_t i = 0; copy_policies[i]; i++) {
        g_autofree char *path = g_strdup_printf(
            "/simt/lab/chunks/%s/every-byte-arrives-engine-never-idle",
            copy_policies[i]);

        qtest_add_data_func(path, copy_policies[i], check_copies_intact);
    }
    for (uint32_t i = 0; policies[i]; i++) {
        g_autofree char *a = g_strdup_printf(
            "/simt/lab/placement/%s/every-block-once-and-deterministic",
            policies[i]);
        g_autofree char *b = g_strdup_printf(
            "/simt/lab/placement/%s/work-conserving", policies[i]);
        g_autofree char *c = g_strdup_printf(
            "/simt/lab/placement/%s/room-respected-results-complete",
            policies[i]);

        qtest_add_data_func(a, policies[i], check_runs_once_deterministic);
        qtest_add_data_func(b, policies[i], check_work_conserving);
        qtest_add_data_func(c, policies[i], check_room_respected);
    }
    return g_test_run();
}
