/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for the device's threads property (the SMs of a slice on several
 * host threads, hw/simt/simt-sm-threads.c): race-free kernels give the
 * same results with 1, 2 and 3 threads, the same cycle counts for every
 * threads > 1, and with one block per SM the same as with one thread;
 * atomics from blocks on different host threads lose no update; a
 * migration mid-kernel keeps it all.
 */

#include "qemu/osdep.h"
#include "simt-qtest.h"
#include "simt-spin-ref.h"

/*
 * Run the spin kernel, @blocks of @threads, on a device with @props;
 * check every thread's result; its completion record in *@r, and, with
 * @kernel_cycles, the queue's KERNEL_CYCLES in it.  With
 * @migrate_cycles, the device migrates that many cycles after the launch.
 */
static void spin_run(const char *props, uint32_t blocks, uint32_t threads,
                     uint32_t iters, uint64_t migrate_cycles,
                     struct simt_completion *r, uint32_t *kernel_cycles)
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
    spin_run(NULL, nsm, 256, 300, 0, &def, NULL);
    spin_run("threads=1", nsm, 256, 300, 0, &one, &one_cycles);
    spin_run("threads=2", nsm, 256, 300, 0, &two, &two_cycles);
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
    spin_run("threads=1", blocks, 64, 40, 0, &one, NULL);
    spin_run("threads=2", blocks, 64, 40, 0, &two, NULL);
    spin_run("threads=3", blocks, 64, 40, 0, &three, NULL);
    g_assert_cmpuint(one.thread_insns, ==, two.thread_insns);
    g_assert_cmpuint(one.warp_insns, ==, two.warp_insns);
    g_assert_cmpuint(two.thread_insns, ==, three.thread_insns);
    g_assert_cmpuint(two.start_cycle, ==, three.start_cycle);
    g_assert_cmpuint(two.end_cycle, ==, three.end_cycle);
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
    spin_run("threads=2", blocks, 64, 40, 0, &two, NULL);
    spin_run(props, blocks, 64, 40, 0, &many, NULL);
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
 * A migration halfway through a kernel on two threads (the destination
 * has two as well): the same results and cycles as without it.
 */
static void test_migrate_mid_kernel(void)
{
    struct simt_completion plain, moved;
    Dev *d = dev_start(NULL);
    uint32_t blocks = 2 * d->nsm * d->sm_blocks + 3;

    dev_stop(d);
    spin_run("threads=2", blocks, 64, 60, 0, &plain, NULL);
    spin_run("threads=2", blocks, 64, 60,
             (plain.end_cycle - plain.start_cycle) / 2, &moved, NULL);
    g_assert_cmpuint(plain.start_cycle, ==, moved.start_cycle);
    g_assert_cmpuint(plain.end_cycle, ==, moved.end_cycle);
    g_assert_cmpuint(plain.thread_insns, ==, moved.thread_insns);
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
    qtest_add_func("/simt/threads/more-threads-than-sms-same-cycles",
                   test_more_threads_than_sms);
    qtest_add_func("/simt/threads/atomic-sums-lose-no-update",
                   test_atomic_sums);
    qtest_add_func("/simt/threads/migrate-mid-kernel-same-results",
                   test_migrate_mid_kernel);
    return g_test_run();
}
