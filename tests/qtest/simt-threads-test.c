/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the device's threads property (the SMs of a slice on several
 * host threads, hw/simt/simt-sm-threads.c): race-free kernels give the
 * same results with 1, 2 and 3 threads, the same cycle counts for every
 * threads > 1, and with one block per SM the same as with one thread;
 * SMs running ahead of the slice engine (run-ahead, simt-slice.c) change
 * no cycle count, and a doorbell waits for them 32 slices at most;
 * atomics from blocks on different host threads lose no update; a
 * migration mid-kernel keeps it all, to a device of one thread too.
 */

#include "qemu/osdep.h"
#include "simt-qtest.h"
#include "simt-spin-ref.h"

/*
 * Run the spin kernel, @blocks of @threads, on a device with @props;
 * check every thread's result; its completion record in *@r, and, with
 * @kernel_cycles, the queue's KERNEL_CYCLES in it.  With
 * @migrate_cycles, the device migrates that many cycles after the launch,
 * to a device with @to_props (NULL: @props).
 */
static void spin_run(const char *props, uint32_t blocks, uint32_t threads,
                     uint32_t iters, uint64_t migrate_cycles,
                     const char *to_props, struct simt_completion *r,
                     uint32_t *kernel_cycles)
{
    Dev *d = dev_start(props);
    uint32_t n = blocks * threads;
    uint32_t out = vram_alloc(d, NULL, n * 4);
    g_autofree uint32_t *got = g_new(uint32_t, n);
    Launch l = {
        .kernel = "spin", .grid = { blocks }, .block = { threads },
        .args = { out, iters },
    };

    if (migrate_cycles) {
        uint32_t idx = launch(d, 0, &l);
        int64_t now = qtest_clock_step(d->qts, migrate_cycles * 1000 /
                                       rd(d, SIMT_REG_CLOCK_MHZ));

        g_assert_false(queue_done(d, 0, idx));
        if (to_props) {
            g_free(d->args);
            d->args = g_strdup_printf("-M q35 -nodefaults "
                                      "-device simt,addr=04.0,%s", to_props);
        }
        dev_migrate(d, now);
        g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
        read_record(d, 0, idx, r);
        g_assert_cmpuint(r->status, ==, SIMT_QERR_NONE);
    } else {
        run_ok(d, 0, &l, r);
    }
    g_assert_cmpuint(r->blocks, ==, blocks);
    vram_read(d, out, got, n * 4);
    for (uint32_t i = 0; i < n; i++) {
        g_assert_cmphex(got[i], ==, spin_ref(i, iters));
    }
    if (kernel_cycles) {
        *kernel_cycles = qrd(d, 0, SIMT_QREG_KERNEL_CYCLES);
    }
    dev_stop(d);
}

/*
 * One block per SM: no block is placed while the kernel runs, and the
 * SMs share nothing, so threads change nothing, cycles included, nor
 * the queue's KERNEL_CYCLES, counted slice by slice (over a dozen).
 */
static void test_one_block_per_sm_same_cycles(void)
{
    struct simt_completion one, two, def;
    uint32_t one_cycles, two_cycles;
    Dev *d = dev_start(NULL);
    uint32_t nsm = d->nsm;

    dev_stop(d);
    spin_run(NULL, nsm, 256, 300, 0, NULL, &def, NULL);
    spin_run("threads=1", nsm, 256, 300, 0, NULL, &one, &one_cycles);
    spin_run("threads=2", nsm, 256, 300, 0, NULL, &two, &two_cycles);
    /* The default is one thread. */
    g_assert_cmpuint(def.start_cycle, ==, one.start_cycle);
    g_assert_cmpuint(def.end_cycle, ==, one.end_cycle);
    g_assert_cmpuint(one.start_cycle, ==, two.start_cycle);
    g_assert_cmpuint(one.end_cycle, ==, two.end_cycle);
    g_assert_cmpuint(one.thread_insns, ==, two.thread_insns);
    g_assert_cmpuint(one.warp_insns, ==, two.warp_insns);
    /* Over 10 slices of 1000 cycles. */
    g_assert_cmpuint(one.end_cycle - one.start_cycle, >, 10000);
    g_assert_cmpuint(one_cycles, ==, two_cycles);
}

/*
 * Many more blocks than the device holds: blocks are placed as others
 * retire.  Results and instruction counts are the same for every
 * thread count; cycles the same for 2 and 3 threads (which thread runs
 * an SM changes nothing).
 */
static void test_many_blocks_same_results(void)
{
    struct simt_completion one, two, three;
    Dev *d = dev_start(NULL);
    uint32_t blocks = 6 * d->nsm * d->sm_blocks + 5;

    dev_stop(d);
    spin_run("threads=1", blocks, 64, 40, 0, NULL, &one, NULL);
    spin_run("threads=2", blocks, 64, 40, 0, NULL, &two, NULL);
    spin_run("threads=3", blocks, 64, 40, 0, NULL, &three, NULL);
    g_assert_cmpuint(one.thread_insns, ==, two.thread_insns);
    g_assert_cmpuint(one.warp_insns, ==, two.warp_insns);
    g_assert_cmpuint(two.thread_insns, ==, three.thread_insns);
    g_assert_cmpuint(two.start_cycle, ==, three.start_cycle);
    g_assert_cmpuint(two.end_cycle, ==, three.end_cycle);
}

/*
 * A kernel of several hundred slices, its blocks placed as others
 * retire: with run-ahead, SMs that no block can be placed on run on up
 * to 32 slices ahead of the slice engine, their blocks retiring in the
 * slices they finished in; cycles, KERNEL_CYCLES and results are those
 * of the SMs kept to the slice engine (run-ahead=off).
 */
static void test_run_ahead_same_cycles(void)
{
    struct simt_completion ahead, kept, three;
    uint32_t ahead_cycles, kept_cycles;
    Dev *d = dev_start(NULL);
    uint32_t blocks = 3 * d->nsm * d->sm_blocks + 1;

    dev_stop(d);
    spin_run("threads=2", blocks, 64, 400, 0, NULL, &ahead, &ahead_cycles);
    spin_run("threads=2,run-ahead=off", blocks, 64, 400, 0, NULL, &kept,
             &kept_cycles);
    spin_run("threads=3", blocks, 64, 400, 0, NULL, &three, NULL);
    g_assert_cmpuint(ahead.end_cycle - ahead.start_cycle, >, 100 * 1000);
    g_assert_cmpuint(ahead.start_cycle, ==, kept.start_cycle);
    g_assert_cmpuint(ahead.end_cycle, ==, kept.end_cycle);
    g_assert_cmpuint(ahead.thread_insns, ==, kept.thread_insns);
    g_assert_cmpuint(ahead.warp_insns, ==, kept.warp_insns);
    g_assert_cmpuint(ahead_cycles, ==, kept_cycles);
    g_assert_cmpuint(three.end_cycle, ==, kept.end_cycle);
}

/* Launch spin on queue @q, @blocks of @threads, @iters each; its index. */
static uint32_t spin_on(Dev *d, unsigned q, uint32_t blocks,
                        uint32_t threads, uint32_t iters)
{
    return launch(d, q, &(Launch) {
        .kernel = "spin", .grid = { blocks }, .block = { threads },
        .args = { vram_alloc(d, NULL, blocks * threads * 4), iters },
    });
}

/* Wait for command @idx of queue @q, a LAUNCH: its record in *@r. */
static void spin_wait(Dev *d, unsigned q, uint32_t idx,
                      struct simt_completion *r)
{
    g_assert_cmpuint(wait_queue(d, q, idx), ==, SIMT_QSTATE_IDLE);
    read_record(d, q, idx, r);
    g_assert_cmpuint(r->status, ==, SIMT_QERR_NONE);
}

/*
 * Two scenes where a block would be placed, or a command fetched, at a
 * block's retirement on one SM while the others could run ahead, in
 * records @r[0..5] and a SIGNAL's stamp, *@stamp.  First, a stalled
 * head: queue 0's one block leaves SM 0, queue 1's fill SMs 1 to 3 for
 * long, queue 2's block needs a whole SM, and queue 3's small blocks,
 * which fit beside queue 1's, wait behind it (seed 001's in-order
 * dispatch) until SM 0 is free.  Then a SIGNAL queued behind a short
 * kernel on queue 0 while a long one runs on queue 1.
 */
static void placements_run(const char *props, struct simt_completion *r,
                           uint64_t *stamp)
{
    Dev *d = dev_start(props);
    struct simt_cmd_signal sig = {
        .opcode = SIMT_CMD_SIGNAL, .flags = SIMT_CMDF_TIMESTAMP,
        .addr = SEM_ADDR,
    };
    uint32_t idx[4];

    g_assert_cmpuint(d->nqueues, >=, 4);
    idx[0] = spin_on(d, 0, 1, 256, 100);
    idx[1] = spin_on(d, 1, d->nsm - 1, 256, 3000);
    idx[2] = spin_on(d, 2, 1, 1024, 100);
    idx[3] = spin_on(d, 3, 2 * d->nsm, 64, 100);
    for (unsigned q = 0; q < 4; q++) {
        spin_wait(d, q, idx[q], &r[q]);
    }
    g_assert_cmpuint(r[3].start_cycle, >=, r[0].end_cycle);
    g_assert_cmpuint(r[3].end_cycle, <, r[1].end_cycle);

    qtest_writeq(d->qts, SEM_ADDR, 0);
    idx[0] = spin_on(d, 0, 1, 256, 200);
    submit(d, 0, &sig);
    idx[1] = spin_on(d, 1, d->nsm, 256, 3000);
    spin_wait(d, 0, idx[0], &r[4]);
    spin_wait(d, 1, idx[1], &r[5]);
    *stamp = qtest_readq(d->qts, SEM_ADDR);
    g_assert_cmpuint(*stamp, <, r[5].end_cycle);
    dev_stop(d);
}

/*
 * SMs that a block could be placed on do not run ahead, nor do any while
 * a queue has a command behind a running kernel: the same cycles and
 * stamp as with the SMs kept to the slice engine.
 */
static void test_run_ahead_same_placements(void)
{
    struct simt_completion ahead[6], kept[6];
    uint64_t ahead_stamp, kept_stamp;

    placements_run("threads=2", ahead, &ahead_stamp);
    placements_run("threads=2,run-ahead=off", kept, &kept_stamp);
    for (int i = 0; i < 6; i++) {
        g_assert_cmpuint(ahead[i].start_cycle, ==, kept[i].start_cycle);
        g_assert_cmpuint(ahead[i].end_cycle, ==, kept[i].end_cycle);
    }
    g_assert_cmpuint(ahead_stamp, ==, kept_stamp);
}

enum { STAMPS = 4 };

/*
 * While a kernel whose blocks are all placed runs on queue 0, stamp
 * queue 1's arrival at a SIGNAL (SIMT_CMDF_TIMESTAMP) rung every 8000
 * cycles: the cycles from each doorbell to its stamp, in @delay.
 */
static void doorbell_delays(const char *props, uint64_t *delay)
{
    Dev *d = dev_start(props);
    uint32_t blocks = d->nsm * d->sm_blocks, n = blocks * 64;
    uint32_t out = vram_alloc(d, NULL, n * 4);
    g_autofree uint32_t *got = g_new(uint32_t, n);
    struct simt_cmd_signal sig = {
        .opcode = SIMT_CMD_SIGNAL, .flags = SIMT_CMDF_TIMESTAMP,
        .addr = SEM_ADDR,
    };
    uint32_t mhz = rd(d, SIMT_REG_CLOCK_MHZ);
    uint32_t idx = launch(d, 0, &(Launch) {
        .kernel = "spin", .grid = { blocks }, .block = { 64 },
        .args = { out, 3000 },
    });

    /* Into the kernel: every block placed, SMs running ahead. */
    qtest_clock_step(d->qts, 5300 * 1000 / mhz);
    for (int i = 0; i < STAMPS; i++) {
        uint64_t rung;

        qtest_clock_step(d->qts, 8000 * 1000 / mhz);
        rung = rd(d, SIMT_REG_CYCLE_LO);
        rung |= (uint64_t)rd(d, SIMT_REG_CYCLE_HI) << 32;
        qtest_writeq(d->qts, SEM_ADDR, 0);
        wait_queue(d, 1, submit(d, 1, &sig));
        delay[i] = qtest_readq(d->qts, SEM_ADDR) - rung;
    }
    g_assert_false(queue_done(d, 0, idx));
    g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
    vram_read(d, out, got, n * 4);
    for (uint32_t i = 0; i < n; i++) {
        g_assert_cmphex(got[i], ==, spin_ref(i, 3000));
    }
    dev_stop(d);
}

/*
 * What run-ahead gives up: a queue fetches a command only once the
 * slice engine has caught up with the SMs, up to 32 slices after its
 * doorbell; without run-ahead, in the same slice as with one thread.
 */
static void test_run_ahead_doorbell_waits(void)
{
    uint64_t one[STAMPS], kept[STAMPS], ahead[STAMPS], most = 0;

    doorbell_delays("threads=1", one);
    doorbell_delays("threads=2,run-ahead=off", kept);
    doorbell_delays("threads=2", ahead);
    for (int i = 0; i < STAMPS; i++) {
        g_test_message("doorbell %d: %" PRIu64 " cycles to the stamp with "
                       "one thread, %" PRIu64 " with two running ahead",
                       i, one[i], ahead[i]);
        g_assert_cmpuint(kept[i], ==, one[i]);
        g_assert_cmpuint(one[i], <=, 1000);
        g_assert_cmpuint(ahead[i], >=, one[i]);
        g_assert_cmpuint(ahead[i], <=, 32 * 1000);
        most = MAX(most, ahead[i]);
    }
    /* Doorbells 8 slices apart: some meet SMs far ahead. */
    g_assert_cmpuint(most, >=, 4 * 1000);
}

/*
 * More host threads than SMs: the threads beyond the SM count have no SM
 * of their own and only take those another thread has not reached;
 * results and cycles are those of two threads.
 */
static void test_more_threads_than_sms(void)
{
    struct simt_completion two, many;
    Dev *d = dev_start(NULL);
    uint32_t blocks = 3 * d->nsm * d->sm_blocks + 1;
    g_autofree char *props = g_strdup_printf("threads=%u", d->nsm + 2);

    dev_stop(d);
    spin_run("threads=2", blocks, 64, 40, 0, NULL, &two, NULL);
    spin_run(props, blocks, 64, 40, 0, NULL, &many, NULL);
    g_assert_cmpuint(two.thread_insns, ==, many.thread_insns);
    g_assert_cmpuint(two.start_cycle, ==, many.start_cycle);
    g_assert_cmpuint(two.end_cycle, ==, many.end_cycle);
}

/*
 * Every thread of a grid spread over all SMs adds into the same few
 * words with atomics (kernels/memtest.c's atomic_words): integer sums
 * and a maximum, whatever the order, and no update lost between host
 * threads.
 */
static void atomic_sum(const char *props, uint32_t words)
{
    Dev *d = dev_start(props);
    uint32_t blocks = 4 * d->nsm, threads = 256, n = blocks * threads;
    g_autofree uint32_t *want = g_new0(uint32_t, words + 1);
    g_autofree uint32_t *got = g_new0(uint32_t, words + 1);
    uint32_t p = vram_alloc(d, got, (words + 1) * 4);

    for (uint32_t t = 0; t < n; t++) {
        want[t % words] += t + 1;
    }
    want[words] = n - 1;
    run_ok(d, 0, &(Launch) {
        .kernel = "atomic_words", .grid = { blocks }, .block = { threads },
        .args = { p, words },
    }, NULL);
    vram_read(d, p, got, (words + 1) * 4);
    for (uint32_t i = 0; i <= words; i++) {
        g_assert_cmpuint(got[i], ==, want[i]);
    }
    dev_stop(d);
}

static void test_atomic_sums(void)
{
    atomic_sum("threads=1", 1);
    atomic_sum("threads=2", 1);
    atomic_sum("threads=2", 7);
    atomic_sum("threads=3", 7);
}

/*
 * Migrations a sixth, a third, half and two thirds through a kernel on
 * two threads (the destination has two as well), its SMs running ahead
 * of the slice engine with blocks found finished that retire in slices
 * to come: the same results and cycles as without it.  To a device of
 * one thread, which takes those blocks over: the same results.
 */
static void test_migrate_mid_kernel(void)
{
    struct simt_completion plain, moved;
    Dev *d = dev_start(NULL);
    uint32_t blocks = 2 * d->nsm * d->sm_blocks + 3;

    dev_stop(d);
    spin_run("threads=2", blocks, 64, 60, 0, NULL, &plain, NULL);
    for (int sixth = 1; sixth <= 4; sixth++) {
        uint64_t at = (plain.end_cycle - plain.start_cycle) * sixth / 6;

        spin_run("threads=2", blocks, 64, 60, at, NULL, &moved, NULL);
        g_assert_cmpuint(plain.start_cycle, ==, moved.start_cycle);
        g_assert_cmpuint(plain.end_cycle, ==, moved.end_cycle);
        g_assert_cmpuint(plain.thread_insns, ==, moved.thread_insns);
        spin_run("threads=2", blocks, 64, 60, at, "threads=1", &moved, NULL);
        g_assert_cmpuint(plain.thread_insns, ==, moved.thread_insns);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    if (!simt_qtest_init()) {
        /* Run by QEMU's own qtest suite, without our host build. */
        return g_test_run();
    }
    qtest_add_func("/simt/threads/one-block-per-sm-same-cycles-as-one-thread",
                   test_one_block_per_sm_same_cycles);
    qtest_add_func("/simt/threads/many-blocks-same-results-any-count",
                   test_many_blocks_same_results);
    qtest_add_func("/simt/threads/run-ahead-same-cycles-as-kept-to-slices",
                   test_run_ahead_same_cycles);
    qtest_add_func("/simt/threads/run-ahead-same-placements-and-fetches",
                   test_run_ahead_same_placements);
    qtest_add_func("/simt/threads/run-ahead-doorbell-waits-32-slices-at-most",
                   test_run_ahead_doorbell_waits);
    qtest_add_func("/simt/threads/more-threads-than-sms-same-cycles",
                   test_more_threads_than_sms);
    qtest_add_func("/simt/threads/atomic-sums-lose-no-update",
                   test_atomic_sums);
    qtest_add_func("/simt/threads/migrate-mid-kernel-same-to-2-or-1-threads",
                   test_migrate_mid_kernel);
    return g_test_run();
}
