/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt qtest: seed 002's real-time experiments (Basaran and Kang 2012,
 * digest part B) on the device's clock.  Periodic tasks on queues of
 * their own priority; each job uploads its inputs, runs its kernel
 * (matmul, or linear search) and downloads its result, then a SIGNAL
 * with SIMT_CMDF_TIMESTAMP stamps its end.  The host (this test) only
 * releases jobs and keeps the rings fed; virtual time stands still while
 * it acts, so every figure is the device's.  The paper's systems are the
 * modes:
 *
 *   none      plain CUDA on 2012 hardware: fifo-dispatch=on (kernels in
 *             launch order), each copy in one chunk
 *   chunked   RGEM: copies in chunks, the copy engine taking the highest
 *             priority at every boundary; kernels still in launch order
 *   split     PKM: chunked copies, and kernels split into subkernels of
 *             RT_SPLIT blocks queued one after another on their queue, the
 *             block scheduler taking the highest priority's next one (the
 *             paper's host scheduler; no block is ever stopped)
 *   preempt   chunked copies and the device's context switches
 *
 * on the GTX480 preset with one copy engine (the paper's GTX 460 has
 * one).  The data are 1/16 of the paper's (matrices a quarter of its
 * side), and so are the chunk (64 KiB for its 1 MiB) and the subkernel
 * (64 blocks for its 1024), which keeps its chunks and subkernels per
 * job.
 *
 * Bench modes ($SIMT_BENCH_RT = response or periodic, set by
 * scripts/bench.sh) print "bench seed002_..." lines; see bench_response()
 * and bench_periodic().
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "simt-qtest.h"

#define RT_HOST         0x1000000   /* guest RAM of the jobs' data */
#define RT_HOST_END     0x7800000   /* of q35's 128 MiB */
#define RT_SAVE         0x8000000   /* VRAM save area for switches */
#define RT_SAVE_SIZE    (16 * MiB)
#define RT_CHUNK        (64 * KiB)
#define RT_SPLIT        64
#define RT_STEP_NS      100000      /* how often the host looks */
#define RT_LS_MATCHES   64          /* room for a search's indices */
#define RT_LS_BLOCKS    60          /* a search's grid of 256 threads */
#define RT_LIMIT_NS     (2000 * 1000 * 1000LL)

enum { RT_NONE, RT_CHUNKED, RT_SPLIT_MODE, RT_PREEMPT, RT_NR };
static const char *const rt_mode_names[RT_NR] = {
    "none", "chunked", "split", "preempt",
};

typedef struct RtTask {
    const char *name;
    uint32_t mm_n;              /* matmul side; 0: linear search */
    uint32_t ls_bytes;          /* linear search data */
    uint32_t priority;
    int64_t offset_ns;          /* first release */
    int64_t period_ns;          /* between releases, the deadline too */
    unsigned jobs;
    /* set by rt_task_setup() */
    unsigned queue;
    uint32_t vram;              /* inputs, then output */
    uint64_t host_in, host_out; /* guest RAM: inputs, each job's output */
    uint32_t in_bytes, out_bytes;
    float *mm_ref;
    uint32_t ls_count;          /* matches of the search's key */
} RtTask;

typedef struct RtJob {
    RtTask *task;
    unsigned idx;               /* the task's job number */
    int64_t release_ns;
    uint64_t arrival;           /* device cycle of its release */
    uint64_t stamp_addr;
    uint64_t done;              /* device cycle of its end; 0: not yet */
} RtJob;

/* A command waiting for room on its ring. */
typedef struct RtCmd {
    bool is_launch;
    Launch launch;
    uint8_t raw[SIMT_CMD_SIZE];
} RtCmd;

typedef struct RtRun {
    Dev *d;
    int mode;
    uint32_t mhz;
    uint64_t c0;                /* device cycle at release time 0 */
    uint64_t host_next;
    GQueue pending[SIMT_MAX_QUEUES];
    RtJob *jobs;
    unsigned njobs;
} RtRun;

#define RT_LS_KEY       7

static uint32_t ls_word(uint32_t i)
{
    return (i * 2654435761u) >> 16;
}

static uint64_t rt_cycle(Dev *d)
{
    uint64_t lo = rd(d, SIMT_REG_CYCLE_LO);

    return lo | (uint64_t)rd(d, SIMT_REG_CYCLE_HI) << 32;
}

static uint64_t rt_host_alloc(RtRun *r, uint64_t len)
{
    uint64_t addr = r->host_next;

    r->host_next = ROUND_UP(addr + len, 4096);
    g_assert_cmpuint(r->host_next, <=, RT_HOST_END);
    return addr;
}

/*
 * A task's buffers and expected result.  Matmul inputs are small
 * integers, so that every sum is exact and the reference needs no
 * particular order of additions.
 */
static void rt_task_setup(RtRun *r, RtTask *t, unsigned queue)
{
    Dev *d = r->d;

    t->queue = queue;
    if (t->mm_n) {
        uint32_t n = t->mm_n, nn = n * n;
        g_autofree float *ab = g_new(float, 2 * nn);
        g_autofree int32_t *acc = g_new0(int32_t, nn);

        for (uint32_t i = 0; i < nn; i++) {
            ab[i] = (int)(i * 7 % 5) - 2;
            ab[nn + i] = (int)(i * 3 % 5) - 2;
        }
        for (uint32_t i = 0; i < n; i++) {
            for (uint32_t k = 0; k < n; k++) {
                int32_t a = ab[i * n + k];

                for (uint32_t j = 0; j < n; j++) {
                    acc[i * n + j] += a * (int32_t)ab[nn + k * n + j];
                }
            }
        }
        t->mm_ref = g_new(float, nn);
        for (uint32_t i = 0; i < nn; i++) {
            t->mm_ref[i] = acc[i];
        }
        t->in_bytes = 2 * nn * 4;
        t->out_bytes = nn * 4;
        t->host_in = rt_host_alloc(r, t->in_bytes);
        qtest_memwrite(d->qts, t->host_in, ab, t->in_bytes);
    } else {
        uint32_t words = t->ls_bytes / 4;
        /* The data, then the word that zeroes the count. */
        g_autofree uint32_t *data = g_new0(uint32_t, words + 1);

        t->ls_count = 0;
        for (uint32_t i = 0; i < words; i++) {
            data[i] = ls_word(i);
            t->ls_count += data[i] == RT_LS_KEY;
        }
        g_assert_cmpuint(t->ls_count, >, 0);
        g_assert_cmpuint(t->ls_count, <=, RT_LS_MATCHES);
        t->in_bytes = t->ls_bytes + 4;
        t->out_bytes = (1 + RT_LS_MATCHES) * 4;
        t->host_in = rt_host_alloc(r, t->in_bytes);
        qtest_memwrite(d->qts, t->host_in, data, t->in_bytes);
    }
    t->vram = vram_alloc(d, NULL, t->in_bytes + t->out_bytes);
    t->host_out = rt_host_alloc(r, (uint64_t)t->out_bytes * t->jobs);
    qwr(d, queue, SIMT_QREG_PRIORITY, t->priority);
}

/* A task's output in VRAM: a search's count is its inputs' last word. */
static uint32_t rt_out(const RtTask *t)
{
    return t->vram + (t->mm_n ? t->in_bytes : t->ls_bytes);
}

static void rt_push_raw(RtRun *r, unsigned q, const void *cmd)
{
    RtCmd *c = g_new0(RtCmd, 1);

    memcpy(c->raw, cmd, SIMT_CMD_SIZE);
    g_queue_push_tail(&r->pending[q], c);
}

static void rt_push_copy(RtRun *r, unsigned q, uint32_t flags, uint64_t src,
                         uint64_t dst, uint64_t size)
{
    struct simt_cmd_copy c = {
        .opcode = SIMT_CMD_COPY, .flags = flags, .src = src, .dst = dst,
        .size = size,
    };

    rt_push_raw(r, q, &c);
}

/* A job's commands, onto its queue's pending list. */
static void rt_release(RtRun *r, RtJob *j)
{
    RtTask *t = j->task;
    unsigned q = t->queue;
    uint32_t out = rt_out(t);
    struct simt_cmd_signal stamp = {
        .opcode = SIMT_CMD_SIGNAL, .flags = SIMT_CMDF_TIMESTAMP,
        .addr = j->stamp_addr,
    };

    j->arrival = rt_cycle(r->d);
    if (t->mm_n) {
        uint32_t n = t->mm_n, nn = n * n, blocks = (n / 16) * (n / 16);
        uint32_t s = r->mode == RT_SPLIT_MODE ? RT_SPLIT : blocks;

        rt_push_copy(r, q, SIMT_CMDF_SRC_HOST, t->host_in, t->vram,
                     t->in_bytes);
        for (uint32_t b = 0; b < blocks; b += s) {
            RtCmd *c = g_new0(RtCmd, 1);

            c->is_launch = true;
            c->launch = (Launch) {
                .kernel = "matmul", .grid = { n / 16, n / 16 },
                .block = { 16, 16 },
                .args = { t->vram, t->vram + nn * 4, out, n },
                .first_block = s < blocks ? b : 0,
                .block_count = s < blocks ? MIN(s, blocks - b) : 0,
            };
            g_queue_push_tail(&r->pending[q], c);
        }
    } else {
        RtCmd *c = g_new0(RtCmd, 1);

        rt_push_copy(r, q, SIMT_CMDF_SRC_HOST, t->host_in, t->vram,
                     t->in_bytes);
        c->is_launch = true;
        c->launch = (Launch) {
            .kernel = "lsearch", .grid = { RT_LS_BLOCKS }, .block = { 256 },
            .args = { t->vram, t->ls_bytes / 4, RT_LS_KEY, out },
        };
        g_queue_push_tail(&r->pending[q], c);
    }
    rt_push_copy(r, q, SIMT_CMDF_DST_HOST, out,
                 t->host_out + (uint64_t)t->out_bytes * j->idx, t->out_bytes);
    rt_push_raw(r, q, &stamp);
}

/* Pending commands onto the rings, as far as they have room. */
static void rt_feed(RtRun *r)
{
    Dev *d = r->d;

    for (unsigned q = 0; q < d->nqueues; q++) {
        uint32_t head = qrd(d, q, SIMT_QREG_HEAD);

        while (!g_queue_is_empty(&r->pending[q]) &&
               (d->tail[q] + 1) % RING_SIZE != head) {
            g_autofree RtCmd *c = g_queue_pop_head(&r->pending[q]);

            if (c->is_launch) {
                launch(d, q, &c->launch);
            } else {
                submit(d, q, c->raw);
            }
        }
    }
}

static int rt_job_order(const void *a, const void *b)
{
    const RtJob *x = a, *y = b;

    return x->release_ns < y->release_ns ? -1 : x->release_ns > y->release_ns;
}

/* Check every job's output against its task's reference. */
static void rt_check_results(RtRun *r)
{
    for (unsigned i = 0; i < r->njobs; i++) {
        RtJob *j = &r->jobs[i];
        RtTask *t = j->task;
        uint64_t at = t->host_out + (uint64_t)t->out_bytes * j->idx;
        g_autofree uint32_t *got = g_malloc(t->out_bytes);

        qtest_memread(r->d->qts, at, got, t->out_bytes);
        if (t->mm_n) {
            g_assert_cmpmem(got, t->out_bytes, t->mm_ref, t->out_bytes);
            continue;
        }
        g_assert_cmpuint(got[0], ==, t->ls_count);
        for (uint32_t m = 1; m <= t->ls_count; m++) {
            g_assert_cmpuint(got[m], <, t->ls_bytes / 4);
            g_assert_cmpuint(ls_word(got[m]), ==, RT_LS_KEY);
            for (uint32_t o = 1; o < m; o++) {
                g_assert_cmpuint(got[o], !=, got[m]);
            }
        }
    }
}

/*
 * Run @ntasks tasks in @mode until every job is done, then check every
 * job's result.  The jobs, by release time, are left in *@jobs (the
 * caller frees them).
 */
static unsigned rt_run(int mode, RtTask *tasks, unsigned ntasks,
                       RtJob **jobs, uint32_t *mhz)
{
    RtRun r = { .mode = mode, .host_next = RT_HOST };
    unsigned next = 0, left, n = 0;
    int64_t now = 0;
    uint64_t stamps;

    r.d = dev_start(mode == RT_NONE || mode == RT_CHUNKED ?
                    "preset=gtx480,copy-engines=1,fifo-dispatch=on" :
                    "preset=gtx480,copy-engines=1");
    use_image(r.d, "matmul");
    r.mhz = rd(r.d, SIMT_REG_CLOCK_MHZ);
    wr(r.d, SIMT_REG_DMA_CHUNK, mode == RT_NONE ? SIMT_MAX_DMA_CHUNK
                                                : RT_CHUNK);
    wr(r.d, SIMT_CTX_REG(0, SIMT_CREG_PREEMPT_MODE),
       mode == RT_PREEMPT ? SIMT_PMODE_SWITCH : SIMT_PMODE_NONE);
    wr(r.d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_BASE), RT_SAVE);
    wr(r.d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_SIZE), RT_SAVE_SIZE);
    for (unsigned i = 0; i < ntasks; i++) {
        g_queue_init(&r.pending[i]);
        r.njobs += tasks[i].jobs;
    }
    g_assert_cmpuint(ntasks, <=, r.d->nqueues);
    r.jobs = g_new0(RtJob, r.njobs);
    stamps = rt_host_alloc(&r, r.njobs * 8);
    qtest_memset(r.d->qts, stamps, 0, r.njobs * 8);
    for (unsigned i = 0; i < ntasks; i++) {
        rt_task_setup(&r, &tasks[i], i);
        for (unsigned k = 0; k < tasks[i].jobs; k++, n++) {
            r.jobs[n] = (RtJob) {
                .task = &tasks[i], .idx = k,
                .release_ns = tasks[i].offset_ns + k * tasks[i].period_ns,
            };
        }
    }
    qsort(r.jobs, r.njobs, sizeof(*r.jobs), rt_job_order);
    for (unsigned i = 0; i < r.njobs; i++) {
        r.jobs[i].stamp_addr = stamps + i * 8;
    }
    r.c0 = rt_cycle(r.d);
    for (left = r.njobs; left;) {
        int64_t step = RT_STEP_NS;

        while (next < r.njobs && r.jobs[next].release_ns <= now) {
            rt_release(&r, &r.jobs[next++]);
        }
        rt_feed(&r);
        if (next < r.njobs) {
            step = MIN(step, r.jobs[next].release_ns - now);
        }
        qtest_clock_step(r.d->qts, step);
        now += step;
        g_assert_cmpint(now, <, RT_LIMIT_NS);
        for (unsigned i = 0; i < next; i++) {
            if (!r.jobs[i].done) {
                r.jobs[i].done = qtest_readq(r.d->qts, r.jobs[i].stamp_addr);
                left -= r.jobs[i].done != 0;
            }
        }
    }
    for (unsigned q = 0; q < r.d->nqueues; q++) {
        g_assert_cmpuint(SIMT_QSTATUS_STATE(qrd(r.d, q, SIMT_QREG_STATUS)),
                         !=, SIMT_QSTATE_ERROR);
    }
    rt_check_results(&r);
    dev_stop(r.d);
    for (unsigned i = 0; i < ntasks; i++) {
        g_clear_pointer(&tasks[i].mm_ref, g_free);
    }
    *jobs = r.jobs;
    *mhz = r.mhz;
    return r.njobs;
}

static double rt_ms(uint64_t cycles, uint32_t mhz)
{
    return cycles / (mhz * 1000.0);
}

/* A job's response: release to end, in device cycles. */
static uint64_t rt_response(const RtJob *j)
{
    g_assert_cmpuint(j->done, >=, j->arrival);
    return j->done - j->arrival;
}

/* The time of one job of @t alone in @mode, in device cycles. */
static uint64_t rt_alone(int mode, const RtTask *t, uint32_t *mhz)
{
    RtTask one = *t;
    g_autofree RtJob *jobs = NULL;

    one.offset_ns = 0;
    one.jobs = 1;
    rt_run(mode, &one, 1, &jobs, mhz);
    return rt_response(&jobs[0]);
}

/*
 * Experiment 4.1 (Fig. 4b): a low-priority matmul job and a high-priority
 * one arriving @arrivals times, spread evenly over the time the
 * low-priority job takes alone.  The high-priority responses, in cycles,
 * into @resp.
 */
static void rt_response_runs(int mode, uint32_t lp_n, uint32_t hp_n,
                             unsigned arrivals, int64_t lp_alone_ns,
                             uint64_t *resp)
{
    RtTask tasks[2] = {
        { .name = "low", .mm_n = lp_n, .priority = 0, .jobs = 1 },
        {
            .name = "high", .mm_n = hp_n, .priority = SIMT_MAX_PRIORITY,
            .period_ns = lp_alone_ns / arrivals,
            .offset_ns = lp_alone_ns / arrivals / 2, .jobs = arrivals,
        },
    };
    g_autofree RtJob *jobs = NULL;
    unsigned n, k = 0;
    uint32_t mhz;

    n = rt_run(mode, tasks, 2, &jobs, &mhz);
    for (unsigned i = 0; i < n; i++) {
        if (jobs[i].task == &tasks[1]) {
            resp[k++] = rt_response(&jobs[i]);
        }
    }
    g_assert_cmpuint(k, ==, arrivals);
}

/*
 * Bench mode "response": seed 002's experiment 4.1 (Fig. 4b) at 1/16 of
 * its data.  A low-priority job (8 MiB up, a 1024x1024 matmul, 4 MiB
 * down: the paper's 4096x4096) and a high-priority one (a 176x176
 * matmul, which keeps the paper's ratio of about 125 between the jobs'
 * times) released 16 times, spread evenly over the low-priority job's
 * time alone (its copies and its kernel).  Per mode, the mean and the
 * worst response in device milliseconds.
 */
static void bench_response(void)
{
    enum { LP_N = 1024, HP_N = 176, ARRIVALS = 16 };
    RtTask lp = { .name = "low", .mm_n = LP_N };
    RtTask hp = { .name = "high", .mm_n = HP_N };
    uint64_t lp_alone, hp_alone, resp[ARRIVALS];
    uint32_t mhz;

    lp_alone = rt_alone(RT_NONE, &lp, &mhz);
    hp_alone = rt_alone(RT_NONE, &hp, &mhz);
    g_test_message("the low-priority job alone %.2f ms, the high-priority "
                   "one %.3f ms", rt_ms(lp_alone, mhz), rt_ms(hp_alone, mhz));
    g_test_message("bench seed002_lp_over_hp_job: %.0f ratio",
                   (double)lp_alone / hp_alone);
    for (int mode = 0; mode < RT_NR; mode++) {
        g_autoptr(GString) each = g_string_new(NULL);
        uint64_t sum = 0, max = 0;

        rt_response_runs(mode, LP_N, HP_N, ARRIVALS,
                         lp_alone * 1000 / mhz, resp);
        for (int i = 0; i < ARRIVALS; i++) {
            sum += resp[i];
            max = MAX(max, resp[i]);
            g_string_append_printf(each, " %.2f", rt_ms(resp[i], mhz));
        }
        g_test_message("%s: responses, ms:%s", rt_mode_names[mode],
                       each->str);
        g_test_message("bench seed002_hp_response_%s: %.3f ms",
                       rt_mode_names[mode], rt_ms(sum / ARRIVALS, mhz));
        g_test_message("bench seed002_hp_response_max_%s: %.3f ms",
                       rt_mode_names[mode], rt_ms(max, mhz));
    }
}

/*
 * Experiment 4.2 (Tables 2-3, Fig. 5): five periodic tasks, at 1/16 of
 * the paper's data and periods, over one hyperperiod (75 ms, the paper's
 * 1200), all released together at 0.  Queue priorities have four
 * levels, so the two lowest tasks share the lowest.
 */
static const RtTask periodic_set[] = {
    { .name = "tau0", .mm_n = 256, .priority = 3,
      .period_ns = 3125000, .jobs = 24 },
    { .name = "tau1", .ls_bytes = 2 * MiB, .priority = 2,
      .period_ns = 6250000, .jobs = 12 },
    { .name = "tau2", .mm_n = 256, .priority = 1,
      .period_ns = 6250000, .jobs = 12 },
    { .name = "tau3", .mm_n = 512, .priority = 0,
      .period_ns = 37500000, .jobs = 2 },
    { .name = "tau4", .ls_bytes = 6 * MiB, .priority = 0,
      .period_ns = 75000000, .jobs = 1 },
};

/*
 * Bench mode "periodic": per mode, the jobs that ended after their
 * deadline (the end of their period), and tau0's worst response (the
 * paper's Table 3: 25 ms under PKM, 90 ms under RGEM for a 50 ms period).
 */
static void bench_periodic(void)
{
    enum { NT = ARRAY_SIZE(periodic_set) };

    for (int mode = 0; mode < RT_NR; mode++) {
        RtTask tasks[NT];
        g_autofree RtJob *jobs = NULL;
        uint64_t sum[NT] = { 0 }, max[NT] = { 0 };
        unsigned count[NT] = { 0 }, misses = 0, n;
        uint32_t mhz;

        memcpy(tasks, periodic_set, sizeof(tasks));
        n = rt_run(mode, tasks, NT, &jobs, &mhz);
        for (unsigned i = 0; i < n; i++) {
            unsigned t = jobs[i].task - tasks;
            uint64_t resp = rt_response(&jobs[i]);

            sum[t] += resp;
            max[t] = MAX(max[t], resp);
            count[t]++;
            misses += resp * 1000 / mhz > tasks[t].period_ns;
        }
        for (unsigned t = 0; t < NT; t++) {
            g_test_message("%s %s: period %.3f ms, %u jobs, response mean "
                           "%.3f ms, most %.3f ms", rt_mode_names[mode],
                           tasks[t].name, tasks[t].period_ns / 1e6,
                           count[t], rt_ms(sum[t] / count[t], mhz),
                           rt_ms(max[t], mhz));
        }
        g_test_message("bench seed002_periodic_deadline_misses_%s: %u count",
                       rt_mode_names[mode], misses);
        g_test_message("bench seed002_periodic_tau0_max_%s: %.3f ms",
                       rt_mode_names[mode], rt_ms(max[0], mhz));
    }
}

/*
 * The modes on a small pair (a 256x256 low-priority matmul, a 64x64
 * high-priority one arriving in the middle of the low one's kernel):
 * every result right; with launch-order dispatch the high job waits for
 * the rest of the low kernel, split bounds that wait to one subkernel,
 * and a switch does better than waiting.
 */
static void test_modes_small(void)
{
    RtTask lp = { .name = "low", .mm_n = 256 };
    RtTask hp = { .name = "high", .mm_n = 64 };
    uint64_t lp_alone, hp_alone, resp[RT_NR];
    uint32_t mhz;

    lp_alone = rt_alone(RT_NONE, &lp, &mhz);
    hp_alone = rt_alone(RT_NONE, &hp, &mhz);
    for (int mode = 0; mode < RT_NR; mode++) {
        /* One arrival, at half the low job's time: inside its kernel. */
        rt_response_runs(mode, 256, 64, 1, lp_alone * 1000 / mhz,
                         &resp[mode]);
        g_test_message("%s: response %" PRIu64 " cycles (low job alone %"
                       PRIu64 ", high %" PRIu64 ")", rt_mode_names[mode],
                       resp[mode], lp_alone, hp_alone);
    }
    /* The rest of the kernel, less its download and one block's time. */
    g_assert_cmpuint(resp[RT_NONE], >, lp_alone / 4);
    g_assert_cmpuint(resp[RT_CHUNKED], >, lp_alone / 4);
    /* A subkernel of 64 of 256 blocks: a quarter of the kernel. */
    g_assert_cmpuint(resp[RT_SPLIT_MODE], <, hp_alone + lp_alone / 4);
    g_assert_cmpuint(resp[RT_SPLIT_MODE], <, resp[RT_CHUNKED]);
    g_assert_cmpuint(resp[RT_PREEMPT], <, resp[RT_CHUNKED]);
}

/* A small periodic set: every job of every task right in every mode. */
static void test_periodic_small(void)
{
    RtTask tasks[] = {
        { .name = "mm", .mm_n = 64, .priority = 3,
          .period_ns = 200000, .jobs = 4 },
        { .name = "ls", .ls_bytes = 256 * KiB, .priority = 1,
          .period_ns = 400000, .jobs = 2 },
        { .name = "mm-low", .mm_n = 128, .priority = 0,
          .period_ns = 800000, .jobs = 1 },
    };

    for (int mode = 0; mode < RT_NR; mode++) {
        g_autofree RtJob *jobs = NULL;
        uint32_t mhz;

        g_assert_cmpuint(rt_run(mode, tasks, ARRAY_SIZE(tasks), &jobs, &mhz),
                         ==, 7);
        for (unsigned i = 0; i < 7; i++) {
            g_assert_cmpuint(jobs[i].done, >, jobs[i].arrival);
        }
    }
}

int main(int argc, char **argv)
{
    const char *bench = g_getenv("SIMT_BENCH_RT");

    g_test_init(&argc, &argv, NULL);
    if (!simt_qtest_init()) {
        return g_test_run();
    }
    if (bench) {
        if (!strcmp(bench, "response")) {
            qtest_add_func("/simt/bench/rt-response", bench_response);
        } else if (!strcmp(bench, "periodic")) {
            qtest_add_func("/simt/bench/rt-periodic", bench_periodic);
        }
        return g_test_run();
    }
    qtest_add_func("/simt/rt/modes/results-and-hp-wait-by-mode",
                   test_modes_small);
    qtest_add_func("/simt/rt/periodic/every-job-right-in-every-mode",
                   test_periodic_small);
    return g_test_run();
}
