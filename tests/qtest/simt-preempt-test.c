// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * QTest for the simt preemption engine: every mechanism, hundreds of
 * times at points spread over a long low-priority kernel (while its warps
 * diverge, wait at barriers and between atomics), with its results
 * bit-identical to a run alone and the high-priority kernels' results
 * right; explicit preempt and resume requests; restores on other SMs;
 * save areas that are too small, unmapped or corrupted; the time slice;
 * the event log and timeline rings.  Deterministic: the test steps the
 * virtual clock and draws its preemption points from a fixed sequence.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/host-utils.h"
#include "qemu/units.h"
#include "hw/simt/simt-config.h"
#include "simt-qtest.h"
#include "simt-rodinia.h"
#include "simt-user-kernels.h"

/* Guest RAM: the event log and the timeline rings. */
#define LOG_ADDR            0x400000
#define LOG_SIZE            1024
#define TRACE_ADDR          0x500000
#define TRACE_SIZE          16384
/* ... and the drain oracle's table */
#define ORACLE_ADDR         0x600000

/* VRAM: the page table of the translated context, the save area. */
#define VRAM_PT             0x4000000
#define VRAM_SAVE           0x8000000
#define SAVE_SIZE           (16 * MiB)

/* The low-priority kernel and its reference results. */
/* Short blocks, many waves: drained blocks end often enough. */
#define LP_BLOCKS           768
#define LP_THREADS          128
#define LP_ROUNDS           4
#define HP_BLOCKS           4
#define HP_N                (HP_BLOCKS * 128)
#define MIN_EVENTS          200

typedef struct Lp {
    const char *kernel;
    uint32_t out, hist;         /* VRAM buffers */
    uint32_t ref_out[LP_BLOCKS * LP_THREADS];
    uint32_t ref_hist[64];
    uint32_t flags;
} Lp;

static uint32_t rng_state;

/* A fixed pseudo-random sequence: the same points on every run. */
static uint32_t rng(uint32_t lo, uint32_t hi)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return lo + (rng_state >> 8) % (hi - lo + 1);
}

/* Extra device properties ("preempt-choice=NAME"), or NULL. */
static const char *extra_props;

static Dev *pdev_start(void)
{
    Dev *d = dev_start(extra_props);

    use_image(d, "preempt");
    qwr(d, 1, SIMT_QREG_PRIORITY, SIMT_MAX_PRIORITY);
    wr(d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_BASE), VRAM_SAVE);
    wr(d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_SIZE), SAVE_SIZE);
    wr(d, SIMT_REG_PEV_LOG_LO, LOG_ADDR);
    wr(d, SIMT_REG_PEV_LOG_HI, 0);
    wr(d, SIMT_REG_PEV_LOG_SIZE, LOG_SIZE);
    return d;
}

static Launch lp_launch(const Lp *lp)
{
    Launch l = {
        .kernel = lp->kernel, .grid = { LP_BLOCKS }, .block = { LP_THREADS },
        .args = { lp->out, lp->hist, LP_ROUNDS }, .flags = lp->flags,
    };

    if (!strcmp(lp->kernel, "lp_spin")) {
        l.args[1] = LP_ROUNDS * 100;
    }
    return l;
}

static void lp_clear(Dev *d, const Lp *lp)
{
    g_autofree uint8_t *zero = g_malloc0(sizeof(lp->ref_out));

    qpci_memwrite(d->dev, d->vram, lp->out, zero, sizeof(lp->ref_out));
    qpci_memwrite(d->dev, d->vram, lp->hist, zero, sizeof(lp->ref_hist));
}

/* Buffers, and the results of a run with nothing else on the device. */
static void lp_init(Dev *d, Lp *lp, const char *kernel)
{
    Launch l;

    lp->kernel = kernel;
    lp->out = vram_alloc(d, NULL, sizeof(lp->ref_out));
    lp->hist = vram_alloc(d, NULL, sizeof(lp->ref_hist));
    l = lp_launch(lp);
    run_ok(d, 0, &l, NULL);
    vram_read(d, lp->out, lp->ref_out, sizeof(lp->ref_out));
    vram_read(d, lp->hist, lp->ref_hist, sizeof(lp->ref_hist));
}

static void lp_check(Dev *d, const Lp *lp, unsigned q, uint32_t idx)
{
    g_autofree uint32_t *out = g_malloc(sizeof(lp->ref_out));
    uint32_t hist[64];
    struct simt_completion r;

    read_record(d, q, idx, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
    g_assert_cmpuint(r.blocks, ==, LP_BLOCKS);
    vram_read(d, lp->out, out, sizeof(lp->ref_out));
    vram_read(d, lp->hist, hist, sizeof(hist));
    g_assert_cmpmem(out, sizeof(lp->ref_out), lp->ref_out,
                    sizeof(lp->ref_out));
    g_assert_cmpmem(hist, sizeof(hist), lp->ref_hist, sizeof(hist));
}

/* Run the short kernel on the high-priority queue; check its output. */
static void hp_run(Dev *d, uint32_t buf, uint32_t seed)
{
    uint32_t out[HP_N];
    uint32_t idx = launch(d, 1, &(Launch) {
        .kernel = "hp_fill", .grid = { HP_BLOCKS }, .block = { 128 },
        .args = { buf, HP_N, seed },
    });
    struct simt_completion r;

    g_assert_cmpuint(wait_queue(d, 1, idx), ==, SIMT_QSTATE_IDLE);
    read_record(d, 1, idx, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
    vram_read(d, buf, out, sizeof(out));
    for (uint32_t i = 0; i < HP_N; i++) {
        g_assert_cmphex(out[i], ==, seed ^ (i * 0x9e3779b9u));
    }
}

/* The event log entries written so far, in host order. */
static uint32_t read_events(Dev *d, struct simt_preempt_event *ev)
{
    uint32_t n = rd(d, SIMT_REG_PEV_COUNT);

    g_assert_cmpuint(n, <=, LOG_SIZE);
    qtest_memread(d->qts, LOG_ADDR, ev, n * sizeof(*ev));
    for (uint32_t i = 0; i < n; i++) {
        ev[i].seq = le32_to_cpu(ev[i].seq);
        ev[i].drained = le16_to_cpu(ev[i].drained);
        ev[i].flushed = le16_to_cpu(ev[i].flushed);
        ev[i].switched = le16_to_cpu(ev[i].switched);
        ev[i].light = le16_to_cpu(ev[i].light);
        ev[i].saved_bytes = le32_to_cpu(ev[i].saved_bytes);
        ev[i].occupied_bytes = le32_to_cpu(ev[i].occupied_bytes);
        ev[i].reg_bytes = le32_to_cpu(ev[i].reg_bytes);
        ev[i].req_cycle = le64_to_cpu(ev[i].req_cycle);
        ev[i].dispatch_cycle = le64_to_cpu(ev[i].dispatch_cycle);
        ev[i].done_cycle = le64_to_cpu(ev[i].done_cycle);
        ev[i].save_bound = le32_to_cpu(ev[i].save_bound);
        ev[i].queue_wait = le32_to_cpu(ev[i].queue_wait);
        ev[i].pp_drain = le32_to_cpu(ev[i].pp_drain);
        ev[i].pp_warps = le32_to_cpu(ev[i].pp_warps);
        ev[i].pp_cut = le32_to_cpu(ev[i].pp_cut);
        ev[i].live_bytes = le32_to_cpu(ev[i].live_bytes);
    }
    return n;
}

/*
 * The timeline's records from @from on into @t (TRACE_SIZE of them), in
 * commands of TRACE_CHUNK bytes (the qtest protocol is slow with long
 * lines); the ring must not have wrapped.  Returns how many it has.
 */
#define TRACE_CHUNK         0x10000

static uint32_t read_timeline(Dev *d, struct simt_trace_record *t,
                              uint32_t from)
{
    uint32_t n = rd(d, SIMT_REG_TRACE_COUNT);
    size_t end = n * sizeof(*t);

    g_assert_cmpuint(n, <=, TRACE_SIZE);
    for (size_t at = from * sizeof(*t); at < end; at += TRACE_CHUNK) {
        qtest_memread(d->qts, TRACE_ADDR + at, (uint8_t *)t + at,
                      MIN(end - at, TRACE_CHUNK));
    }
    return n;
}

static gint trace_cycle_cmp(gconstpointer a, gconstpointer b, gpointer unused)
{
    uint64_t x = le64_to_cpu(((const struct simt_trace_record *)a)->cycle);
    uint64_t y = le64_to_cpu(((const struct simt_trace_record *)b)->cycle);

    return x < y ? -1 : x > y;
}

/*
 * @t's @n records in the order of their cycles: the ring's order is not
 * always that (a save's record can follow the record of the same block's
 * restore); stable, so records of one cycle keep their order.
 */
static void timeline_by_cycle(struct simt_trace_record *t, uint32_t n)
{
    g_qsort_with_data(t, n, sizeof(*t), trace_cycle_cmp, NULL);
}

/* Blocks saved on one SM and restored on another, from the timeline. */
static uint32_t moved_blocks(Dev *d)
{
    g_autofree struct simt_trace_record *t =
        g_new(struct simt_trace_record, TRACE_SIZE);
    g_autofree uint16_t *saved_on = g_new0(uint16_t, LP_BLOCKS);
    uint32_t n = read_timeline(d, t, 0), moved = 0;

    timeline_by_cycle(t, n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = le32_to_cpu(t[i].block);
        uint16_t sm = le16_to_cpu(t[i].sm);

        if (t[i].queue != 0 || b >= LP_BLOCKS) {
            continue;
        }
        if (t[i].type == SIMT_TRACE_SAVE) {
            saved_on[b] = sm;
        } else if (t[i].type == SIMT_TRACE_RESTORE) {
            moved += saved_on[b] != sm;
        }
    }
    return moved;
}

static void trace_on(Dev *d)
{
    wr(d, SIMT_REG_TRACE_LO, TRACE_ADDR);
    wr(d, SIMT_REG_TRACE_HI, 0);
    wr(d, SIMT_REG_TRACE_SIZE, TRACE_SIZE);
}

/*
 * Run the low-priority kernel again and again with a stream of
 * high-priority kernels at spread points, until MIN_EVENTS preemptions
 * have happened; check every result; return the events.
 */
static uint32_t priority_stream(Dev *d, Lp *lp, unsigned mode,
                                struct simt_preempt_event *ev,
                                uint32_t *moved)
{
    uint32_t hp_buf = vram_alloc(d, NULL, HP_N * 4);
    uint32_t runs = 0;

    wr(d, SIMT_CTX_REG(0, SIMT_CREG_PREEMPT_MODE), mode);
    rng_state = mode;
    *moved = 0;
    while (rd(d, SIMT_REG_PEV_COUNT) < MIN_EVENTS) {
        Launch l = lp_launch(lp);
        uint32_t idx;

        g_assert_cmpuint(runs++, <, 20);
        lp_clear(d, lp);
        trace_on(d);
        idx = launch(d, 0, &l);
        while (!queue_done(d, 0, idx)) {
            qtest_clock_step(d->qts, rng(2, 40) * 1000);
            hp_run(d, hp_buf, rng_state);
        }
        g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
        lp_check(d, lp, 0, idx);
        *moved += moved_blocks(d);

    }
    /* Let the last event end. */
    qtest_clock_step(d->qts, 10000);
    return read_events(d, ev);
}

typedef struct Totals {
    uint32_t drained, flushed, switched, light;
    uint64_t saved, occupied, kept;
} Totals;

static Totals check_events(const struct simt_preempt_event *ev, uint32_t n)
{
    Totals t = { 0 };

    g_assert_cmpuint(n, >=, MIN_EVENTS);
    for (uint32_t i = 0; i < n; i++) {
        g_assert_cmpuint(ev[i].seq, ==, i);
        g_assert_cmpuint(ev[i].trigger, ==, SIMT_PTRIG_PRIORITY);
        g_assert_cmpuint(ev[i].status, ==, SIMT_PERR_NONE);
        g_assert_cmpuint(ev[i].preemptor, ==, 1);
        g_assert_cmphex(ev[i].victims, ==, 1);
        g_assert_cmpuint(ev[i].done_cycle, >=, ev[i].req_cycle);
        g_assert_cmpuint(ev[i].dispatch_cycle, >=, ev[i].req_cycle);
        /* A save bound exactly when bytes were saved; never beaten. */
        g_assert_cmpuint(ev[i].save_bound > 0, ==, ev[i].saved_bytes > 0);
        g_assert_cmpuint(ev[i].done_cycle - ev[i].req_cycle, >=,
                         ev[i].save_bound);
        /*
         * Without drained blocks the latency is the bound: saves and the
         * traffic queued before them, at the modelled bandwidth (10 %).
         */
        if (!ev[i].drained) {
            g_assert_cmpuint(ev[i].done_cycle - ev[i].req_cycle, <=,
                             ev[i].save_bound + ev[i].save_bound / 10);
        }
        g_assert_cmpuint(ev[i].queue_wait, <=, ev[i].save_bound);
        /* Drains on an estimate: each took at most the event's time. */
        g_assert_cmpuint(ev[i].drain_time, <=,
                         (uint64_t)ev[i].drained *
                         (ev[i].done_cycle - ev[i].req_cycle));
        if (!ev[i].drained) {
            g_assert_cmpuint(ev[i].drain_time + ev[i].drain_error, ==, 0);
        }
        g_assert_cmpuint(ev[i].drained + ev[i].flushed + ev[i].switched +
                         ev[i].light, >, 0);
        /* Only as many blocks leave as the high-priority kernel needs. */
        g_assert_cmpuint(ev[i].drained + ev[i].flushed + ev[i].switched +
                         ev[i].light, <=, HP_BLOCKS);
        t.drained += ev[i].drained;
        t.flushed += ev[i].flushed;
        t.switched += ev[i].switched;
        t.light += ev[i].light;
        t.saved += ev[i].saved_bytes;
        t.occupied += ev[i].occupied_bytes;
        t.kept += le32_to_cpu(ev[i].kept_bytes);
    }
    return t;
}

static struct simt_preempt_event events[LOG_SIZE];

static void test_priority_drain(void)
{
    Dev *d = pdev_start();
    Lp *lp = g_new0(Lp, 1);
    uint32_t moved;
    Totals t;

    lp_init(d, lp, "lp_mix");
    t = check_events(events, priority_stream(d, lp, SIMT_PMODE_DRAIN,
                                             events, &moved));
    g_assert_cmpuint(t.drained, >, 0);
    g_assert_cmpuint(t.flushed + t.switched + t.light, ==, 0);
    /* The drain mode estimates nothing: no drain is counted as missed. */
    for (uint32_t i = 0; i < MIN_EVENTS; i++) {
        g_assert_cmpuint(events[i].drain_time + events[i].drain_error, ==,
                         0);
    }
    g_free(lp);
    dev_stop(d);
}

/*
 * lp_mix makes atomics from its first round on, so most of its blocks
 * may no longer be flushed: they drain, and its results prove that no
 * block was run twice.  lp_spin stays flushable until its last store.
 */
static void test_priority_flush(void)
{
    Dev *d = pdev_start();
    Lp *lp = g_new0(Lp, 1);
    uint32_t moved, flushed;
    Totals t;

    lp_init(d, lp, "lp_mix");
    t = check_events(events, priority_stream(d, lp, SIMT_PMODE_FLUSH,
                                             events, &moved));
    g_assert_cmpuint(t.drained, >, 0);
    g_assert_cmpuint(t.switched + t.light, ==, 0);
    flushed = t.flushed;
    dev_stop(d);

    d = pdev_start();
    lp_init(d, lp, "lp_spin");
    t = check_events(events, priority_stream(d, lp, SIMT_PMODE_FLUSH,
                                             events, &moved));
    g_assert_cmpuint(t.flushed, >, t.drained);
    g_assert_cmpuint(rd(d, SIMT_REG_PREEMPT_WASTED), >, 0);
    g_test_message("flushed %u lp_mix blocks, %u lp_spin blocks", flushed,
                   t.flushed);
    g_free(lp);
    dev_stop(d);
}

static void switch_stream(unsigned mode)
{
    Dev *d = pdev_start();
    Lp *lp = g_new0(Lp, 1);
    uint32_t moved;
    Totals t;

    lp_init(d, lp, "lp_mix");
    t = check_events(events, priority_stream(d, lp, mode, events, &moved));
    if (mode == SIMT_PMODE_SWITCH) {
        g_assert_cmpuint(t.switched, >, 0);
        g_assert_cmpuint(t.saved, ==, t.occupied);
        g_assert_cmpuint(t.kept, ==, 0);
        /* Saved blocks come back on other SMs too. */
        g_assert_cmpuint(moved, >, 0);
    } else {
        g_assert_cmpuint(t.light, >, 0);
        g_assert_cmpuint(t.saved, <, t.occupied);
        /*
         * hp_fill uses no shared memory: lp_mix's stays on its SM, and
         * the blocks come back there.
         */
        g_assert_cmpuint(t.kept, ==, t.light * 1024);
        g_assert_cmpuint(moved, ==, 0);
    }
    g_assert_cmpuint(t.flushed, ==, 0);
    g_assert_cmpuint(rd(d, SIMT_REG_PREEMPT_RESTORED), ==,
                     rd(d, SIMT_REG_PREEMPT_SAVED));
    g_assert_cmpuint(rd(d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_USED)), ==, 0);
    g_test_message("saved %" PRIu64 " of %" PRIu64 " bytes, %u blocks moved",
                   t.saved, t.occupied, moved);
    g_free(lp);
    dev_stop(d);
}

static void test_priority_switch(void)
{
    switch_stream(SIMT_PMODE_SWITCH);
}

static void test_priority_light(void)
{
    switch_stream(SIMT_PMODE_LIGHT);
}

/*
 * Blocks saved, restored and parked by switches and lightweight switches
 * under a stream of high-priority kernels: the SMs' wake shortcut
 * (simt-sm.c) changes no event and no cycle of theirs
 * (x-wake-shortcut=off scans at every step).
 */
static void test_wake_shortcut_same_events(void)
{
    static const unsigned modes[] = { SIMT_PMODE_SWITCH, SIMT_PMODE_LIGHT };

    for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
        g_autofree struct simt_preempt_event *off =
            g_new0(struct simt_preempt_event, LOG_SIZE);
        uint32_t n[2], moved[2];

        for (int scan = 0; scan < 2; scan++) {
            Lp *lp = g_new0(Lp, 1);
            Dev *d;

            extra_props = scan ? "x-wake-shortcut=off" : NULL;
            d = pdev_start();
            extra_props = NULL;
            lp_init(d, lp, "lp_mix");
            n[scan] = priority_stream(d, lp, modes[m], scan ? off : events,
                                      &moved[scan]);
            g_free(lp);
            dev_stop(d);
        }
        check_events(events, n[0]);
        g_assert_cmpuint(n[0], ==, n[1]);
        g_assert_cmpuint(moved[0], ==, moved[1]);
        g_assert_cmpmem(events, n[0] * sizeof(events[0]),
                        off, n[1] * sizeof(off[0]));
    }
}

/*
 * The grader's PREEMPT_BOUND: 2000 cycles, or with SIMT_LAB_SEED (make
 * grade) one drawn from it between 1400 and 4200 (1 to 3 us on the
 * GTX480 preset), so that a rule tuned to one bound is tried on another.
 */
static uint32_t choice_bound(void)
{
    const char *seed = g_getenv("SIMT_LAB_SEED");
    g_autoptr(GRand) rand = NULL;

    if (!seed || !*seed) {
        return 2000;
    }
    rand = g_rand_new_with_seed(g_ascii_strtoull(seed, NULL, 10) ^ 0x9c);
    return g_rand_int_range(rand, 1400, 4201);
}

/*
 * A preemption choice policy (the lab's grader, docs/labs/
 * preempt-choice.rst) under a stream of priority preemptions in the auto
 * mode: the low-priority results are bit-identical to a run alone and
 * every high-priority result right (priority_stream), the events are
 * sound (check_events: every one ends, none beats its bound, only as
 * many blocks leave as needed), and the device never had to overrule a
 * pick (POLICY_ERRORS 0).  With @no_room the context has no save area:
 * neither switch is usable, lp_mix's blocks may not be flushed once they
 * have done an atomic, and a drain cannot meet the bound, so a rule that
 * does not look at "usable" picks what the block cannot do.
 */
static void choice_stream(const char *policy, bool no_room)
{
    g_autofree char *props = g_strdup_printf("preempt-choice=%s", policy);
    Dev *d;
    Lp *lp;
    uint32_t moved, bound = choice_bound();
    Totals t;

    extra_props = props;
    d = pdev_start();
    extra_props = NULL;
    lp = g_new0(Lp, 1);
    if (no_room) {
        wr(d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_SIZE), 0);
    }
    lp_init(d, lp, "lp_mix");
    wr(d, SIMT_REG_PREEMPT_BOUND, bound);
    g_test_message("%s: bound %u cycles%s", policy, bound,
                   no_room ? ", no save area" : "");
    t = check_events(events, priority_stream(d, lp, SIMT_PMODE_AUTO, events,
                                             &moved));
    g_test_message("%s: drained %u flushed %u switched %u light %u", policy,
                   t.drained, t.flushed, t.switched, t.light);
    if (no_room) {
        g_assert_cmpuint(t.switched + t.light, ==, 0);
    }
    g_assert_cmpuint(rd(d, SIMT_REG_POLICY_ERRORS), ==, 0);
    g_free(lp);
    dev_stop(d);
}

static void test_choice_stream(gconstpointer data)
{
    g_test_message("property: over 200 preemptions the results equal a run "
                   "alone, every event is sound and every pick is a usable "
                   "option (POLICY_ERRORS stays 0)");
    choice_stream(data, false);
}

static void test_choice_no_save_room(gconstpointer data)
{
    g_test_message("property: with no save area (no switch usable) and "
                   "blocks that may not be flushed, every pick is still "
                   "usable: a drain, although it cannot meet the bound");
    choice_stream(data, true);
}

/*
 * preempt-choice=seed000, seed 000's scheme as its paper ran it: the
 * same stream as with the default policy, which takes lightweight
 * switches, gets drains, flushes and context switches only.
 */
static void test_choice_seed000_no_light(void)
{
    const char *const policies[] = { "cheapest-in-bound", "seed000" };
    Totals t[2];

    for (int i = 0; i < 2; i++) {
        g_autofree char *props = g_strdup_printf("preempt-choice=%s",
                                                 policies[i]);
        Lp *lp = g_new0(Lp, 1);
        uint32_t moved;
        Dev *d;

        extra_props = props;
        d = pdev_start();
        extra_props = NULL;
        lp_init(d, lp, "lp_mix");
        wr(d, SIMT_REG_PREEMPT_BOUND, 2000);
        t[i] = check_events(events, priority_stream(d, lp, SIMT_PMODE_AUTO,
                                                    events, &moved));
        g_assert_cmpuint(rd(d, SIMT_REG_POLICY_ERRORS), ==, 0);
        g_free(lp);
        dev_stop(d);
    }
    g_assert_cmpuint(t[0].light, >, 0);
    g_assert_cmpuint(t[1].light, ==, 0);
    g_assert_cmpuint(t[1].drained + t[1].flushed + t[1].switched, >, 0);
}

static void test_priority_auto(void)
{
    Dev *d = pdev_start();
    Lp *lp = g_new0(Lp, 1);
    uint32_t moved;
    Totals t;

    lp_init(d, lp, "lp_mix");
    /* 2 microseconds at the default preset's 1000 MHz */
    wr(d, SIMT_REG_PREEMPT_BOUND, 2000);
    t = check_events(events, priority_stream(d, lp, SIMT_PMODE_AUTO, events,
                                             &moved));
    g_test_message("auto: drained %u flushed %u switched %u light %u",
                   t.drained, t.flushed, t.switched, t.light);
    /* The cheapest mechanism within the bound varies with progress. */
    g_assert_cmpuint(!!t.drained + !!t.flushed + !!t.switched + !!t.light,
                     >=, 2);
    g_free(lp);
    dev_stop(d);
}

/* Decode a warp's pc entry of a save record into 32 lanes' pcs. */
static const uint8_t *walk_entry(const uint8_t *p, unsigned pat,
                                 unsigned pag, uint32_t *lanes)
{
    unsigned groups = SIMT_WARP_SIZE / pag;

    for (unsigned g = 0; g < groups; g++) {
        for (unsigned j = 0; j < pag; j++) {
            uint32_t base = ldl_le_p(p + (pat == SIMT_SAVE_RAW ?
                                          (g * pag + j) * 4 :
                                          g * 4 * (pat == SIMT_SAVE_STRIDED
                                                   ? 2 : 1)));
            uint32_t stride = pat == SIMT_SAVE_STRIDED ?
                              ldl_le_p(p + g * 8 + 4) : 0;

            if (lanes) {
                lanes[g * pag + j] = pat == SIMT_SAVE_RAW ? base
                                                          : base + j * stride;
            }
        }
    }
    switch (pat) {
    case SIMT_SAVE_UNIFORM:
        return p + groups * 4;
    case SIMT_SAVE_STRIDED:
        return p + groups * 8;
    case SIMT_SAVE_RAW:
        return p + SIMT_WARP_SIZE * 4;
    default:
        return p;
    }
}

/* What save_area_warps() hands its callback for one warp's record. */
typedef void SaveWarpFn(Dev *d, const struct simt_save_warp *sw,
                        const uint32_t *pcs, void *opaque);

/*
 * Walk the records in the save area, calling @fn for every warp with
 * its lanes' pcs; the number of block records, whose executed warp
 * instructions are added to *@insns.
 */
static uint32_t save_area_warps(Dev *d, uint32_t local_bytes,
                                uint64_t *insns, SaveWarpFn *fn,
                                void *opaque)
{
    uint32_t used = rd(d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_USED));
    g_autofree uint8_t *area = g_malloc(used);
    uint32_t off = 0, n = 0;

    vram_read(d, VRAM_SAVE, area, used);
    while (off < used) {
        struct simt_save_block b;
        const uint8_t *p;

        memcpy(&b, area + off, sizeof(b));
        g_assert_cmphex(le32_to_cpu(b.magic), ==, SIMT_SAVE_MAGIC);
        *insns += le64_to_cpu(b.warp_insns);
        p = area + off + sizeof(b);
        for (uint32_t w = 0; w < le32_to_cpu(b.nwarps); w++) {
            struct simt_save_warp sw;
            uint32_t pcs[SIMT_WARP_SIZE];

            memcpy(&sw, p, sizeof(sw));
            p += sizeof(sw);
            for (unsigned e = 0; e < SIMT_SAVE_ENTRIES; e++) {
                unsigned pat = (le32_to_cpu(sw.pattern[e / 16]) >>
                                (e % 16 * 2)) & 3;

                p = walk_entry(p, pat, le16_to_cpu(b.pag), e ? NULL : pcs);
            }
            if (sw.resv_mask) {
                p += 2 * SIMT_WARP_SIZE * 4;
            }
            fn(d, &sw, pcs, opaque);
        }
        off += le32_to_cpu(b.bytes) + local_bytes;
        n++;
    }
    return n;
}

/* Warps stopped while diverged, waiting at a barrier, at a warp sync. */
typedef struct StopCounts {
    uint32_t diverged, at_barrier, at_wsync;
} StopCounts;

static void count_stops(Dev *d, const struct simt_save_warp *sw,
                        const uint32_t *pcs, void *opaque)
{
    StopCounts *c = opaque;

    for (unsigned i = 0; i < SIMT_WARP_SIZE; i++) {
        if (!(le32_to_cpu(sw->exited) & (1u << i)) &&
            pcs[i] != pcs[ctz32(~le32_to_cpu(sw->exited))]) {
            c->diverged++;
            break;
        }
    }
    c->at_barrier += sw->waiting != 0;
    c->at_wsync += sw->wsync != 0;
}

/* Step until no preemption event is under way. */
static void wait_preempt_idle(Dev *d)
{
    for (int i = 0; i < 10000; i++) {
        if (!(rd(d, SIMT_REG_PREEMPT_STATUS) & SIMT_PSTATUS_BUSY)) {
            return;
        }
        qtest_clock_step(d->qts, 1000);
    }
    g_assert_not_reached();
}

/*
 * PREEMPT and RESUME the low-priority context (running @kernel) at
 * spread points: each time, every block leaves; the saved state is
 * inspected; the results stay the same.
 */
static void request_stream(unsigned mode, const char *kernel)
{
    Dev *d = pdev_start();
    Lp *lp = g_new0(Lp, 1);
    uint32_t events_done = 0;
    StopCounts stops = { 0 };
    uint64_t insns = 0;
    uint32_t runs = 0;
    const struct simt_kernel_info *k;

    lp_init(d, lp, kernel);
    k = simt_image_kernel(d->img, kernel);
    rng_state = 100 + mode;
    while (events_done < MIN_EVENTS) {
        Launch l = lp_launch(lp);
        uint32_t idx;

        g_assert_cmpuint(runs++, <, 20);
        lp_clear(d, lp);
        idx = launch(d, 0, &l);
        for (;;) {
            qtest_clock_step(d->qts, rng(5, 60) * 1000);
            if (queue_done(d, 0, idx)) {
                break;
            }
            wr(d, SIMT_REG_PREEMPT_REQ,
               SIMT_PREQ(0, SIMT_PREQ_PREEMPT, mode));
            wait_preempt_idle(d);
            g_assert_cmpuint(rd(d, SIMT_CTX_REG(0, SIMT_CREG_PSTATE)) &
                             SIMT_PSTATE_SUSPENDED, !=, 0);
            g_assert_cmpuint(rd(d, SIMT_REG_BLOCKS_RESIDENT), ==, 0);
            g_assert_cmpuint(SIMT_PSTATUS_ERROR(rd(d,
                             SIMT_REG_PREEMPT_STATUS)), ==, SIMT_PERR_NONE);
            if (rd(d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_USED))) {
                g_assert_cmpuint(rd(d, SIMT_CTX_REG(0, SIMT_CREG_PSTATE)) &
                                 SIMT_PSTATE_SAVED, !=, 0);
                save_area_warps(d, k->m.local_bytes * LP_THREADS, &insns,
                                count_stops, &stops);
            }
            /* Held: nothing runs until RESUME. */
            qtest_clock_step(d->qts, 20000);
            g_assert_cmpuint(rd(d, SIMT_REG_BLOCKS_RESIDENT), ==, 0);
            events_done++;
            wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(0, SIMT_PREQ_RESUME, 0));
            g_assert_cmpuint(rd(d, SIMT_CTX_REG(0, SIMT_CREG_PSTATE)) &
                             SIMT_PSTATE_SUSPENDED, ==, 0);
        }
        g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
        lp_check(d, lp, 0, idx);
    }
    if (mode != SIMT_PMODE_DRAIN) {
        g_test_message("%u warps saved while diverged, %u at a barrier, "
                       "%u at a warp sync", stops.diverged, stops.at_barrier,
                       stops.at_wsync);
        g_assert_cmpuint(stops.diverged, >, 0);
        /* lp_mix has barriers, lp_warp warp syncs */
        g_assert_cmpuint(strcmp(kernel, "lp_warp") ? stops.at_barrier
                                                   : stops.at_wsync,
                         >, 0);
    }
    g_free(lp);
    dev_stop(d);
}

/*
 * A subgrid (seed 002's subkernel) preempted and resumed in @mode: the
 * blocks that leave (saved, flushed, drained) come back as the blocks of
 * the whole grid they are, and only the subgrid's blocks run.
 */
static void request_subgrid(const char *kernel, unsigned mode)
{
    enum { FIRST = 200, COUNT = 333 };
    Dev *d = pdev_start();
    Lp *lp = g_new0(Lp, 1);
    g_autofree uint32_t *out = g_malloc(sizeof(lp->ref_out));
    uint32_t events = 0, moved = 0, idx;
    struct simt_completion r;
    Launch l;

    lp_init(d, lp, kernel);
    lp_clear(d, lp);
    l = lp_launch(lp);
    l.first_block = FIRST;
    l.block_count = COUNT;
    rng_state = 300 + mode;
    idx = launch(d, 0, &l);
    for (;;) {
        qtest_clock_step(d->qts, rng(5, 60) * 1000);
        if (queue_done(d, 0, idx)) {
            break;
        }
        wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(0, SIMT_PREQ_PREEMPT, mode));
        wait_preempt_idle(d);
        g_assert_cmpuint(rd(d, SIMT_REG_BLOCKS_RESIDENT), ==, 0);
        events++;
        moved += rd(d, SIMT_REG_PEV_FLUSHED) + rd(d, SIMT_REG_PEV_SWITCHED);
        wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(0, SIMT_PREQ_RESUME, 0));
    }
    g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
    g_test_message("%u preemptions of blocks %u..%u, %u blocks flushed or "
                   "switched", events, FIRST, FIRST + COUNT - 1, moved);
    g_assert_cmpuint(events, >=, 5);
    g_assert_cmpuint(moved, >, 0);
    read_record(d, 0, idx, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
    g_assert_cmpuint(r.blocks, ==, COUNT);
    vram_read(d, lp->out, out, sizeof(lp->ref_out));
    for (uint32_t i = 0; i < LP_BLOCKS * LP_THREADS; i++) {
        uint32_t b = i / LP_THREADS;

        g_assert_cmphex(out[i], ==, b >= FIRST && b < FIRST + COUNT ?
                        lp->ref_out[i] : 0);
    }
    g_free(lp);
    dev_stop(d);
}

static void test_request_subgrid_switch(void)
{
    request_subgrid("lp_mix", SIMT_PMODE_SWITCH);
}

/* Blocks are flushed until their first atomic, drained after it. */
static void test_request_subgrid_flush(void)
{
    request_subgrid("lp_mix", SIMT_PMODE_FLUSH);
}

static void test_request_drain(void)
{
    request_stream(SIMT_PMODE_DRAIN, "lp_mix");
}

static void test_request_switch(void)
{
    request_stream(SIMT_PMODE_SWITCH, "lp_mix");
}

static void test_request_light(void)
{
    request_stream(SIMT_PMODE_LIGHT, "lp_mix");
}

static void test_request_switch_wsync(void)
{
    request_stream(SIMT_PMODE_SWITCH, "lp_warp");
}

static void test_request_light_wsync(void)
{
    request_stream(SIMT_PMODE_LIGHT, "lp_warp");
}

/*
 * Preempt context 0 with a lightweight switch, wait until every block
 * has left, and read the event's log entry into *@ev.
 */
static void light_preempt_event(Dev *d, struct simt_preempt_event *ev)
{
    wr(d, SIMT_REG_PREEMPT_REQ,
       SIMT_PREQ(0, SIMT_PREQ_PREEMPT, SIMT_PMODE_LIGHT));
    wait_preempt_idle(d);
    g_assert_cmpuint(rd(d, SIMT_REG_BLOCKS_RESIDENT), ==, 0);
    qtest_memread(d->qts, LOG_ADDR + (rd(d, SIMT_REG_PEV_COUNT) - 1) %
                  LOG_SIZE * sizeof(*ev), ev, sizeof(*ev));
}

/*
 * A warp stopped with lanes left to run must be about to run a
 * preemption point of the image: the lowest pc of its lanes neither
 * exited nor waiting.  Counts the warps checked.
 */
static void check_stop_at_pp(Dev *d, const struct simt_save_warp *sw,
                             const uint32_t *pcs, void *opaque)
{
    uint32_t *checked = opaque, runnable, pc = UINT32_MAX;

    runnable = ~(le32_to_cpu(sw->exited) | le32_to_cpu(sw->waiting) |
                 le32_to_cpu(sw->wsync));
    for (unsigned i = 0; i < SIMT_WARP_SIZE; i++) {
        if (runnable & (1u << i)) {
            pc = MIN(pc, pcs[i]);
        }
    }
    if (checked && runnable) {
        g_assert_true(simt_meta_is_pp(&d->img->meta, pc));
        (*checked)++;
    }
}

/*
 * The save area's records: how many, their warp instructions executed,
 * and (@pp_checked) how many warps stopped with lanes left to run, each
 * at a preemption point (check_stop_at_pp).
 */
static uint32_t walk_records(Dev *d, uint32_t local_bytes, uint64_t *insns,
                             uint32_t *pp_checked)
{
    return save_area_warps(d, local_bytes, insns, check_stop_at_pp,
                           pp_checked);
}

/*
 * Seed 004's selective preemption on lp_mix (loops, barriers, divergent
 * lanes): with PP_DRAIN set, a lightweight switch lets the warps run on
 * to the image's preemption points.  Every saved warp that has lanes
 * left to run is about to run a point, no warp is cut at this generous
 * bound, the drain is counted and within the event, and the results
 * stay right.
 */
static void test_selective_saved_at_points(void)
{
    Dev *d = pdev_start();
    Lp *lp = g_new0(Lp, 1);
    const struct simt_kernel_info *k;
    uint32_t events_done = 0, checked = 0, runs = 0, drained_to_pp = 0;

    lp_init(d, lp, "lp_mix");
    k = simt_image_kernel(d->img, "lp_mix");
    g_assert_cmpuint(d->img->meta.h.pp_count, >, 0);
    wr(d, SIMT_CTX_REG(0, SIMT_CREG_PP_DRAIN), 1000000);
    g_assert_cmpuint(rd(d, SIMT_CTX_REG(0, SIMT_CREG_PP_DRAIN)), ==, 1000000);
    rng_state = 400;
    while (events_done < 60) {
        Launch l = lp_launch(lp);
        uint32_t idx;

        g_assert_cmpuint(runs++, <, 20);
        lp_clear(d, lp);
        idx = launch(d, 0, &l);
        for (;;) {
            struct simt_preempt_event ev;
            uint64_t insns = 0;

            qtest_clock_step(d->qts, rng(5, 60) * 1000);
            if (queue_done(d, 0, idx)) {
                break;
            }
            light_preempt_event(d, &ev);
            g_assert_cmpuint(le32_to_cpu(ev.pp_cut), ==, 0);
            g_assert_cmpuint(le32_to_cpu(ev.pp_drain), <=,
                             le64_to_cpu(ev.done_cycle) -
                             le64_to_cpu(ev.req_cycle));
            if (le16_to_cpu(ev.light)) {
                g_assert_cmpuint(le32_to_cpu(ev.pp_warps), >, 0);
                g_assert_cmpuint(le32_to_cpu(ev.pp_drain), >, 0);
                drained_to_pp++;
            }
            g_assert_cmpuint(walk_records(d, k->m.local_bytes * LP_THREADS,
                                          &insns, &checked), ==,
                             le16_to_cpu(ev.light));
            events_done++;
            wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(0, SIMT_PREQ_RESUME, 0));
        }
        g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
        lp_check(d, lp, 0, idx);
    }
    g_test_message("%u events drained to points, %u warps checked at one",
                   drained_to_pp, checked);
    g_assert_cmpuint(drained_to_pp, >, events_done / 2);
    g_assert_cmpuint(checked, >, 0);
    g_free(lp);
    dev_stop(d);
}

/*
 * A launch without preemption points: the warps of a selective switch
 * run on until PP_DRAIN cycles have passed (or they exit), then stop
 * where they are; every event ends soon after the bound (the last
 * instruction's latency and the saves), and the results stay right.
 */
static void test_selective_no_points_bounded(void)
{
    enum { BOUND = 3000, SLACK = 4000 };
    Dev *d = pdev_start();
    Lp *lp = g_new0(Lp, 1);
    uint32_t events_done = 0, cut = 0, runs = 0;

    lp_init(d, lp, "lp_mix");
    wr(d, SIMT_CTX_REG(0, SIMT_CREG_PP_DRAIN), BOUND);
    rng_state = 500;
    while (events_done < 40) {
        Launch l = lp_launch(lp);
        uint32_t idx;

        g_assert_cmpuint(runs++, <, 20);
        l.no_points = true;
        lp_clear(d, lp);
        idx = launch(d, 0, &l);
        for (;;) {
            struct simt_preempt_event ev;

            qtest_clock_step(d->qts, rng(5, 60) * 1000);
            if (queue_done(d, 0, idx)) {
                break;
            }
            light_preempt_event(d, &ev);
            g_assert_cmpuint(le32_to_cpu(ev.pp_warps), ==, 0);
            g_assert_cmpuint(le32_to_cpu(ev.pp_drain), <=, BOUND + SLACK);
            g_assert_cmpuint(le64_to_cpu(ev.done_cycle) -
                             le64_to_cpu(ev.req_cycle), <=,
                             BOUND + SLACK + le32_to_cpu(ev.save_bound));
            cut += le32_to_cpu(ev.pp_cut);
            events_done++;
            wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(0, SIMT_PREQ_RESUME, 0));
        }
        g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
        lp_check(d, lp, 0, idx);
    }
    g_assert_cmpuint(cut, >, 0);
    g_free(lp);
    dev_stop(d);
}

/*
 * Seed 000's wasted work, counted by the device: a flush loses exactly
 * the warp instructions its blocks had executed, and nothing else does.
 * Two identical runs of lp_spin (idempotent: every block flushable) are
 * stopped at the same cycle, one by a context switch, whose records say
 * how many warp instructions each block had executed, one by a flush,
 * whose event must count their sum; drains and switches count none.
 */
static void test_flush_wasted_is_executed(void)
{
    static const unsigned modes[] = {
        SIMT_PMODE_SWITCH, SIMT_PMODE_FLUSH, SIMT_PMODE_DRAIN,
        SIMT_PMODE_LIGHT,
    };
    uint64_t executed = 0;
    uint32_t records = 0;

    for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
        Dev *d = pdev_start();
        Lp *lp = g_new0(Lp, 1);
        const struct simt_kernel_info *k;
        uint32_t idx;
        Launch l;

        lp->flags = SIMT_CMDF_IDEMPOTENT;
        lp_init(d, lp, "lp_spin");
        k = simt_image_kernel(d->img, "lp_spin");
        lp_clear(d, lp);
        l = lp_launch(lp);
        idx = launch(d, 0, &l);
        qtest_clock_step(d->qts, 77000);
        wr(d, SIMT_REG_PREEMPT_REQ,
           SIMT_PREQ(0, SIMT_PREQ_PREEMPT, modes[m]));
        wait_preempt_idle(d);
        if (modes[m] == SIMT_PMODE_SWITCH) {
            records = walk_records(d, k->m.local_bytes * LP_THREADS,
                                   &executed, NULL);
            g_assert_cmpuint(records, ==, rd(d, SIMT_REG_PEV_SWITCHED));
            g_assert_cmpuint(executed, >, 0);
        }
        if (modes[m] == SIMT_PMODE_FLUSH) {
            g_assert_cmpuint(rd(d, SIMT_REG_PEV_FLUSHED), ==, records);
            g_assert_cmpuint(rd(d, SIMT_REG_PEV_WASTED), ==, executed);
            g_assert_cmpuint(rd(d, SIMT_REG_PREEMPT_WASTED), ==, executed);
        } else {
            g_assert_cmpuint(rd(d, SIMT_REG_PEV_WASTED), ==, 0);
            g_assert_cmpuint(rd(d, SIMT_REG_PREEMPT_WASTED), ==, 0);
        }
        wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(0, SIMT_PREQ_RESUME, 0));
        g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
        lp_check(d, lp, 0, idx);
        g_free(lp);
        dev_stop(d);
    }
}

/*
 * Suspend lp_mix (of context @ctx) by a context switch part way; return
 * its launch index.
 */
static uint32_t lp_suspended(Dev *d, Lp *lp, unsigned ctx)
{
    Launch l = lp_launch(lp);
    uint32_t idx;

    lp_clear(d, lp);
    idx = launch(d, 0, &l);
    qtest_clock_step(d->qts, 100000);
    wr(d, SIMT_REG_PREEMPT_REQ,
       SIMT_PREQ(ctx, SIMT_PREQ_PREEMPT, SIMT_PMODE_SWITCH));
    wait_preempt_idle(d);
    return idx;
}

static void test_save_area_small(void)
{
    Dev *d = pdev_start();
    Lp *lp = g_new0(Lp, 1);
    uint32_t idx;

    lp_init(d, lp, "lp_mix");
    wr(d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_SIZE), 4096);
    idx = lp_suspended(d, lp, 0);
    g_assert_cmpuint(SIMT_PSTATUS_ERROR(rd(d, SIMT_REG_PREEMPT_STATUS)), ==,
                     SIMT_PERR_SAVE_SPACE);
    /* Blocks that found no room drained instead; nothing is resident. */
    g_assert_cmpuint(rd(d, SIMT_REG_PEV_DRAINED), >, 0);
    g_assert_cmpuint(rd(d, SIMT_REG_BLOCKS_RESIDENT), ==, 0);
    wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(0, SIMT_PREQ_RESUME, 0));
    g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
    lp_check(d, lp, 0, idx);
    g_free(lp);
    dev_stop(d);
}

/*
 * Context 1 maps the first 128 MiB of VRAM one to one with superpages;
 * the save area above is not mapped.
 */
static void test_save_area_unmapped(void)
{
    Dev *d = pdev_start();
    Lp *lp = g_new0(Lp, 1);
    uint32_t pt[1024] = { 0 };
    uint32_t idx;

    for (uint32_t i = 0; i < VRAM_SAVE / SIMT_SUPERPAGE_SIZE; i++) {
        pt[i] = cpu_to_le32((i << 10) << SIMT_PTE_PPN_SHIFT | SIMT_PTE_V |
                            SIMT_PTE_R | SIMT_PTE_W | SIMT_PTE_X);
    }
    qpci_memwrite(d->dev, d->vram, VRAM_PT, pt, sizeof(pt));
    wr(d, SIMT_CTX_REG(1, SIMT_CREG_PT),
       SIMT_PT_SV32 | VRAM_PT >> SIMT_PAGE_SHIFT);
    wr(d, SIMT_CTX_REG(1, SIMT_CREG_SAVE_BASE), VRAM_SAVE);
    wr(d, SIMT_CTX_REG(1, SIMT_CREG_SAVE_SIZE), SAVE_SIZE);
    qwr(d, 0, SIMT_QREG_CONTROL, 0);
    qwr(d, 0, SIMT_QREG_CONTEXT, 1);
    queue_setup(d, 0, 0);

    lp_init(d, lp, "lp_mix");
    idx = lp_suspended(d, lp, 1);
    g_assert_cmpuint(SIMT_PSTATUS_ERROR(rd(d, SIMT_REG_PREEMPT_STATUS)), ==,
                     SIMT_PERR_SAVE_FAULT);
    g_assert_cmpuint(rd(d, SIMT_REG_PEV_SWITCHED), ==, 0);
    g_assert_cmpuint(rd(d, SIMT_REG_PEV_DRAINED), >, 0);
    g_assert_cmpuint(rd(d, SIMT_CTX_REG(1, SIMT_CREG_SAVE_USED)), ==, 0);
    wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(1, SIMT_PREQ_RESUME, 0));
    g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
    lp_check(d, lp, 0, idx);
    g_free(lp);
    dev_stop(d);
}

/*
 * The save area in system memory: context 1 maps the first 128 MiB of
 * VRAM one to one with superpages, and the save area above through
 * SIMT_PTE_SYS pages of guest RAM.  Blocks are switched out into guest
 * RAM (VRAM at the same offsets stays untouched) and come back from it.
 */
#define SYS_SAVE            0x4000000

static void test_save_area_sys(void)
{
    Dev *d = pdev_start();
    Lp *lp = g_new0(Lp, 1);
    uint32_t pt[1024] = { 0 }, l2[1024];
    g_autofree uint8_t *buf = g_malloc(64 * 1024);
    uint32_t idx, used;
    bool written = false;

    for (uint32_t i = 0; i < VRAM_SAVE / SIMT_SUPERPAGE_SIZE; i++) {
        pt[i] = cpu_to_le32((i << 10) << SIMT_PTE_PPN_SHIFT | SIMT_PTE_V |
                            SIMT_PTE_R | SIMT_PTE_W | SIMT_PTE_X);
    }
    for (uint32_t t = 0; t < SAVE_SIZE / SIMT_SUPERPAGE_SIZE; t++) {
        uint32_t table = VRAM_PT + (t + 1) * SIMT_PAGE_SIZE;

        for (uint32_t i = 0; i < 1024; i++) {
            uint64_t gpa = SYS_SAVE + (uint64_t)(t * 1024 + i) *
                           SIMT_PAGE_SIZE;

            l2[i] = cpu_to_le32((gpa >> SIMT_PAGE_SHIFT) <<
                                SIMT_PTE_PPN_SHIFT |
                                SIMT_PTE_V | SIMT_PTE_R | SIMT_PTE_W |
                                SIMT_PTE_SYS);
        }
        qpci_memwrite(d->dev, d->vram, table, l2, sizeof(l2));
        pt[VRAM_SAVE / SIMT_SUPERPAGE_SIZE + t] =
            cpu_to_le32((table >> SIMT_PAGE_SHIFT) << SIMT_PTE_PPN_SHIFT |
                        SIMT_PTE_V);
    }
    qpci_memwrite(d->dev, d->vram, VRAM_PT, pt, sizeof(pt));
    qtest_memset(d->qts, SYS_SAVE, 0, SAVE_SIZE);
    wr(d, SIMT_CTX_REG(1, SIMT_CREG_PT),
       SIMT_PT_SV32 | VRAM_PT >> SIMT_PAGE_SHIFT);
    wr(d, SIMT_CTX_REG(1, SIMT_CREG_SAVE_BASE), VRAM_SAVE);
    wr(d, SIMT_CTX_REG(1, SIMT_CREG_SAVE_SIZE), SAVE_SIZE);
    qwr(d, 0, SIMT_QREG_CONTROL, 0);
    qwr(d, 0, SIMT_QREG_CONTEXT, 1);
    queue_setup(d, 0, 0);

    lp_init(d, lp, "lp_mix");
    idx = lp_suspended(d, lp, 1);
    g_assert_cmpuint(SIMT_PSTATUS_ERROR(rd(d, SIMT_REG_PREEMPT_STATUS)), ==,
                     SIMT_PERR_NONE);
    g_assert_cmpuint(rd(d, SIMT_REG_PEV_SWITCHED), >, 0);
    used = rd(d, SIMT_CTX_REG(1, SIMT_CREG_SAVE_USED));
    g_assert_cmpuint(used, >, 0);
    qtest_memread(d->qts, SYS_SAVE, buf, 64 * 1024);
    for (size_t i = 0; i < 64 * 1024 && !written; i++) {
        written = buf[i] != 0;
    }
    g_assert_true(written);
    vram_read(d, VRAM_SAVE, buf, 64 * 1024);
    for (size_t i = 0; i < 64 * 1024; i++) {
        g_assert_cmpuint(buf[i], ==, 0);
    }
    g_assert_cmpuint(rd(d, SIMT_CTX_REG(1, SIMT_CREG_FAULT)), ==, 0);

    wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(1, SIMT_PREQ_RESUME, 0));
    g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
    lp_check(d, lp, 0, idx);
    g_assert_cmpuint(rd(d, SIMT_CTX_REG(1, SIMT_CREG_SAVE_USED)), ==, 0);
    g_free(lp);
    dev_stop(d);
}

/* A save record the guest overwrote stops the kernel, not the device. */
static void test_save_area_corrupt(void)
{
    Dev *d = pdev_start();
    Lp *lp = g_new0(Lp, 1);
    uint32_t idx, junk = 0x12345678;
    struct simt_completion r;

    lp_init(d, lp, "lp_mix");
    idx = lp_suspended(d, lp, 0);
    g_assert_cmpuint(rd(d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_USED)), >, 0);
    qpci_memwrite(d->dev, d->vram, VRAM_SAVE + 8, &junk, sizeof(junk));
    wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(0, SIMT_PREQ_RESUME, 0));
    g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_ERROR);
    read_record(d, 0, idx, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_FAULT);
    g_assert_cmpuint(r.fault, ==, SIMT_FAULT_SAVE_AREA);
    g_assert_cmpuint(rd(d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_USED)), ==, 0);

    /* The queue and the device go on. */
    qwr(d, 0, SIMT_QREG_CONTROL, SIMT_QCTL_RESET);
    queue_setup(d, 0, 0);
    lp_init(d, lp, "lp_mix");
    g_free(lp);
    dev_stop(d);
}

/*
 * Blocks draining for a PREEMPT_REQ are still on their SMs: RESIDENT
 * counts them until they have left, and ACTIVE_CYCLES grows meanwhile.
 */
static void test_resident_draining(void)
{
    Dev *d = dev_start(NULL);
    uint32_t out = vram_alloc(d, NULL, 4 * 4);
    uint32_t idx, a;

    idx = launch(d, 0, &(Launch) {
        .kernel = "hold", .grid = { 4 }, .block = { 32 },
        .args = { out, 100000 },
    });
    qtest_clock_step(d->qts, 10000);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 4);
    wr(d, SIMT_REG_PREEMPT_REQ,
       SIMT_PREQ(0, SIMT_PREQ_PREEMPT, SIMT_PMODE_DRAIN));
    qtest_clock_step(d->qts, 10000);
    g_assert_cmpuint(rd(d, SIMT_REG_PREEMPT_STATUS) & SIMT_PSTATUS_BUSY, !=,
                     0);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 4);
    a = qrd(d, 0, SIMT_QREG_ACTIVE_CYCLES);
    qtest_clock_step(d->qts, 20000);
    g_assert_cmpuint(rd(d, SIMT_REG_PREEMPT_STATUS) & SIMT_PSTATUS_BUSY, !=,
                     0);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 4);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_ACTIVE_CYCLES), >=, a + 19000);
    wait_preempt_idle(d);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 0);
    wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(0, SIMT_PREQ_RESUME, 0));
    g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
    dev_stop(d);
}

/*
 * A context suspended by PREEMPT_REQ has no block on the SMs: its queue's
 * RESIDENT reads 0 and ACTIVE_CYCLES stands still until RESUME brings the
 * saved blocks back; then it grows again.
 */
static void test_active_cycles_suspended(void)
{
    Dev *d = dev_start(NULL);
    uint32_t out = vram_alloc(d, NULL, 4 * 4);
    struct simt_completion r;
    uint32_t idx, a;

    wr(d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_BASE), VRAM_SAVE);
    wr(d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_SIZE), SAVE_SIZE);
    idx = launch(d, 0, &(Launch) {
        .kernel = "hold", .grid = { 4 }, .block = { 32 },
        .args = { out, 300000 },
    });
    qtest_clock_step(d->qts, 20000);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 4);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_ACTIVE_CYCLES), >=, 19000);
    wr(d, SIMT_REG_PREEMPT_REQ,
       SIMT_PREQ(0, SIMT_PREQ_PREEMPT, SIMT_PMODE_SWITCH));
    wait_preempt_idle(d);
    g_assert_cmpuint(rd(d, SIMT_CTX_REG(0, SIMT_CREG_PSTATE)) &
                     SIMT_PSTATE_SUSPENDED, !=, 0);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 0);
    a = qrd(d, 0, SIMT_QREG_ACTIVE_CYCLES);
    qtest_clock_step(d->qts, 100000);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 0);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_ACTIVE_CYCLES), ==, a);

    wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(0, SIMT_PREQ_RESUME, 0));
    qtest_clock_step(d->qts, 20000);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 4);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_ACTIVE_CYCLES), >=, a + 19000);
    g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
    read_record(d, 0, idx, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
    g_assert_cmpuint(r.blocks, ==, 4);
    g_assert_cmpuint(qrd(d, 0, SIMT_QREG_RESIDENT), ==, 0);
    dev_stop(d);
}

/* Two kernels of equal priority take turns on the SMs. */
static void test_timeslice(void)
{
    Dev *d = pdev_start();
    Lp *a = g_new0(Lp, 1), *b = g_new0(Lp, 1);
    Launch la, lb;
    uint32_t ia, ib, n, slices = 0;

    lp_init(d, a, "lp_spin");
    lp_init(d, b, "lp_spin");
    qwr(d, 1, SIMT_QREG_PRIORITY, 0);
    wr(d, SIMT_CTX_REG(0, SIMT_CREG_PREEMPT_MODE), SIMT_PMODE_LIGHT);
    wr(d, SIMT_REG_TIMESLICE, 50000);
    la = lp_launch(a);
    lb = lp_launch(b);
    lp_clear(d, a);
    lp_clear(d, b);
    ia = launch(d, 0, &la);
    ib = launch(d, 1, &lb);
    g_assert_cmpuint(wait_queue(d, 0, ia), ==, SIMT_QSTATE_IDLE);
    g_assert_cmpuint(wait_queue(d, 1, ib), ==, SIMT_QSTATE_IDLE);
    lp_check(d, a, 0, ia);
    lp_check(d, b, 1, ib);
    n = read_events(d, events);
    for (uint32_t i = 0; i < n; i++) {
        slices += events[i].trigger == SIMT_PTRIG_TIMESLICE;
    }
    g_assert_cmpuint(slices, >=, 2);
    g_free(a);
    g_free(b);
    dev_stop(d);
}

/* The timeline records copies, blocks and kernel ends. */
static void test_timeline(void)
{
    Dev *d = pdev_start();
    uint32_t buf = vram_alloc(d, NULL, HP_N * 4);
    struct simt_cmd_copy c = {
        .opcode = SIMT_CMD_COPY, .flags = SIMT_CMDF_SRC_HOST,
        .src = LOG_ADDR, .dst = buf, .size = 4096,
    };
    g_autofree struct simt_trace_record *t = NULL;
    uint32_t n, count[SIMT_TRACE_KERNEL_DONE + 1] = { 0 };

    trace_on(d);
    g_assert_cmpuint(wait_queue(d, 0, submit(d, 0, &c)), ==,
                     SIMT_QSTATE_IDLE);
    hp_run(d, buf, 5);
    n = rd(d, SIMT_REG_TRACE_COUNT);
    t = g_new(struct simt_trace_record, n);
    qtest_memread(d->qts, TRACE_ADDR, t, n * sizeof(*t));
    for (uint32_t i = 0; i < n; i++) {
        g_assert_cmpuint(t[i].type, <=, SIMT_TRACE_KERNEL_DONE);
        count[t[i].type]++;
        if (t[i].type == SIMT_TRACE_COPY) {
            g_assert_cmpuint(le16_to_cpu(t[i].sm), ==, 0xffff);
        } else if (t[i].type == SIMT_TRACE_KERNEL_DONE) {
            g_assert_cmpuint(t[i].queue, ==, 1);
            g_assert_cmpuint(le32_to_cpu(t[i].block), ==, HP_BLOCKS);
        }
    }
    g_assert_cmpuint(count[SIMT_TRACE_COPY], ==, 1);
    g_assert_cmpuint(count[SIMT_TRACE_COPY_DONE], ==, 1);
    g_assert_cmpuint(count[SIMT_TRACE_DISPATCH], ==, HP_BLOCKS);
    g_assert_cmpuint(count[SIMT_TRACE_RETIRE], ==, HP_BLOCKS);
    g_assert_cmpuint(count[SIMT_TRACE_KERNEL_DONE], ==, 1);
    g_assert_cmpuint(n, ==, 3 + 2 * HP_BLOCKS);
    dev_stop(d);
}

static void test_registers(void)
{
    Dev *d = pdev_start();

    g_assert_cmphex(rd(d, SIMT_REG_CAPS) & SIMT_CAP_PREEMPT, !=, 0);
    g_assert_cmpuint(rd(d, SIMT_CTX_REG(0, SIMT_CREG_PREEMPT_MODE)), ==,
                     SIMT_PMODE_DRAIN);
    wr(d, SIMT_CTX_REG(0, SIMT_CREG_PREEMPT_MODE), SIMT_PMODE_NR);
    g_assert_cmpuint(rd(d, SIMT_CTX_REG(0, SIMT_CREG_PREEMPT_MODE)), ==,
                     SIMT_PMODE_DRAIN);
    wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(0, 3, 0));
    g_assert_cmpuint(SIMT_PSTATUS_ERROR(rd(d, SIMT_REG_PREEMPT_STATUS)), ==,
                     SIMT_PERR_BAD_REQ);
    wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(0, SIMT_PREQ_PREEMPT, 7));
    g_assert_cmpuint(rd(d, SIMT_CTX_REG(0, SIMT_CREG_PSTATE)), ==, 0);
    /* An idle context's request ends at once, with nothing to move. */
    wr(d, SIMT_REG_PREEMPT_REQ, SIMT_PREQ(0, SIMT_PREQ_PREEMPT, 0));
    wait_preempt_idle(d);
    g_assert_cmpuint(rd(d, SIMT_REG_PEV_COUNT), ==, 1);
    g_assert_cmpuint(rd(d, SIMT_CTX_REG(0, SIMT_CREG_PSTATE)), ==,
                     SIMT_PSTATE_SUSPENDED);
    g_assert_cmphex(rd(d, SIMT_REG_IRQ_STATUS) &
                    SIMT_IRQ_BIT(SIMT_IRQ_PREEMPT), !=, 0);
    wr(d, SIMT_REG_PEV_LOG_SIZE, 3);
    g_assert_cmpuint(rd(d, SIMT_REG_PEV_LOG_SIZE), ==, 0);
    dev_stop(d);
}

static uint64_t cycle_now(Dev *d)
{
    uint64_t lo = rd(d, SIMT_REG_CYCLE_LO);

    return (uint64_t)rd(d, SIMT_REG_CYCLE_HI) << 32 | lo;
}

/*
 * Chimera on constructed cases: SMs of 256 threads, each holding two
 * lp_var blocks of 128 threads whose lengths the test sets, so that at
 * the injection the blocks are where the case needs them.  A slow
 * memory makes a context switch cost more than the bound unless the
 * case raises the bound.
 */
#define CH_THREADS          128
#define CH_MAX_BLOCKS       16
#define CH_ITERS            1000        /* about 75000 cycles, two blocks */
#define CH_SM(n)            "sm-count=" #n ",sm-threads=256"

typedef struct Ch {
    Dev *d;
    uint32_t nblocks;
    uint32_t iters[CH_MAX_BLOCKS];
    uint32_t out;
    uint32_t lp;                /* the launch's command index */
    uint32_t seen;              /* timeline records looked at */
} Ch;

typedef struct ChEvent {
    uint64_t cycle;
    uint32_t sm;
} ChEvent;

static void ch_start(Ch *c, const char *props, unsigned mode, uint32_t bound)
{
    memset(c, 0, sizeof(*c));
    c->d = dev_start(props);
    use_image(c->d, "preempt");
    qwr(c->d, 1, SIMT_QREG_PRIORITY, SIMT_MAX_PRIORITY);
    wr(c->d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_BASE), VRAM_SAVE);
    wr(c->d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_SIZE), SAVE_SIZE);
    wr(c->d, SIMT_CTX_REG(0, SIMT_CREG_PREEMPT_MODE), mode);
    wr(c->d, SIMT_REG_PREEMPT_BOUND, bound);
    wr(c->d, SIMT_REG_PEV_LOG_LO, LOG_ADDR);
    wr(c->d, SIMT_REG_PEV_LOG_HI, 0);
    wr(c->d, SIMT_REG_PEV_LOG_SIZE, LOG_SIZE);
    trace_on(c->d);
}

/* Launch lp_var with block b running iters[b] steps (CH_ITERS units). */
static void ch_launch(Ch *c, const uint32_t *tenths, uint32_t n,
                      uint32_t store_first)
{
    uint32_t it;

    c->nblocks = n;
    for (uint32_t b = 0; b < n; b++) {
        c->iters[b] = tenths[b] * CH_ITERS / 10;
    }
    it = vram_alloc(c->d, c->iters, n * 4);
    c->out = vram_alloc(c->d, NULL, n * CH_THREADS * 4);
    c->lp = launch(c->d, 0, &(Launch) {
        .kernel = "lp_var", .grid = { n }, .block = { CH_THREADS },
        .args = { c->out, it, store_first },
    });
}

/*
 * The first (@last: the last) timeline record of @type for queue @q's
 * block @b, if any.
 */
static bool ch_find_nth(Ch *c, unsigned type, unsigned q, uint32_t b,
                        bool last, ChEvent *e)
{
    uint32_t n = rd(c->d, SIMT_REG_TRACE_COUNT);
    g_autofree struct simt_trace_record *t = NULL;
    bool found = false;

    g_assert_cmpuint(n, <=, TRACE_SIZE);
    t = g_new(struct simt_trace_record, MAX(n, 1));
    qtest_memread(c->d->qts, TRACE_ADDR, t, n * sizeof(*t));
    for (uint32_t i = 0; i < n; i++) {
        if (t[i].type == type && t[i].queue == q &&
            le32_to_cpu(t[i].block) == b) {
            e->cycle = le64_to_cpu(t[i].cycle);
            e->sm = le16_to_cpu(t[i].sm);
            found = true;
            if (!last) {
                break;
            }
        }
    }
    return found;
}

static bool ch_find(Ch *c, unsigned type, unsigned q, uint32_t b,
                    ChEvent *e)
{
    return ch_find_nth(c, type, q, b, false, e);
}

/*
 * Step the clock until block @b of the low-priority kernel has retired,
 * by 100 cycles, reading the cycle counter so that the engine runs up
 * to each step (not to the end of its slice): the caller acts at most
 * 100 cycles after the retirement.
 */
static ChEvent ch_wait_retired(Ch *c, uint32_t b)
{
    ChEvent e;

    for (int i = 0; i < 1000000; i++) {
        if (ch_find(c, SIMT_TRACE_RETIRE, 0, b, &e)) {
            return e;
        }
        qtest_clock_step(c->d->qts, 100);
        cycle_now(c->d);
    }
    g_assert_not_reached();
}

/* The high-priority kernel: @n blocks of @threads threads. */
static uint32_t ch_hp(Ch *c, uint32_t n, uint32_t threads)
{
    uint32_t buf = vram_alloc(c->d, NULL, n * threads * 4);

    return launch(c->d, 1, &(Launch) {
        .kernel = "hp_fill", .grid = { n }, .block = { threads },
        .args = { buf, n * threads, 1 },
    });
}

/*
 * Both kernels done and right (lp_var's results against the same steps
 * on the host); the one event of the run, which must be over.
 */
static void ch_finish(Ch *c, uint32_t hp, struct simt_preempt_event *ev)
{
    g_autofree uint32_t *out = g_new(uint32_t, c->nblocks * CH_THREADS);
    struct simt_completion r;

    g_assert_cmpuint(wait_queue(c->d, 1, hp), ==, SIMT_QSTATE_IDLE);
    read_record(c->d, 1, hp, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
    g_assert_cmpuint(wait_queue(c->d, 0, c->lp), ==, SIMT_QSTATE_IDLE);
    read_record(c->d, 0, c->lp, &r);
    g_assert_cmpuint(r.status, ==, SIMT_QERR_NONE);
    vram_read(c->d, c->out, out, c->nblocks * CH_THREADS * 4);
    for (uint32_t i = 0; i < c->nblocks * CH_THREADS; i++) {
        uint32_t x = i * 2654435761u + 1, y = i;

        for (uint32_t k = 0; k < c->iters[i / CH_THREADS]; k++) {
            x = x * 1664525u + 1013904223u;
            y += x >> 7;
            x ^= x >> 13;
        }
        g_assert_cmphex(out[i], ==, x ^ y);
    }
    wait_preempt_idle(c->d);
    g_assert_cmpuint(read_events(c->d, events), ==, 1);
    *ev = events[0];
    g_assert_cmpuint(ev->trigger, ==, SIMT_PTRIG_PRIORITY);
    g_assert_cmpuint(ev->status, ==, SIMT_PERR_NONE);
}

/*
 * One SM: block 0 ends at 1.0, block 1 (1.1 long) is near its end then,
 * block 2 has just started in block 0's place.  Both leave for the
 * two high-priority blocks: block 1 by drain (its estimate is 0), block
 * 2 by flush (a switch misses the bound on this slow memory, a drain
 * is long).  Chimera places no high-priority block before both are
 * gone; auto places one in block 2's room at once, beside block 1.
 * Returns the event; @retire1: when block 1 ended.
 */
static void ch_near_end_and_started(unsigned mode,
                                    struct simt_preempt_event *ev,
                                    uint64_t *retire1)
{
    static const uint32_t len[] = { 10, 11, 11 };
    ChEvent e;
    Ch c;
    uint32_t hp;

    ch_start(&c, CH_SM(1) ",mem-bandwidth=2", mode, 2000);
    ch_launch(&c, len, ARRAY_SIZE(len), 0);
    ch_wait_retired(&c, 0);
    hp = ch_hp(&c, 2, CH_THREADS);
    ch_finish(&c, hp, ev);
    g_assert_true(ch_find(&c, SIMT_TRACE_RETIRE, 0, 1, &e));
    *retire1 = e.cycle;
    g_assert_true(ch_find(&c, SIMT_TRACE_FLUSH, 0, 2, &e));
    dev_stop(c.d);
}

static void test_chimera_sm_waits_for_drain_and_flush(void)
{
    struct simt_preempt_event ch, au;
    uint64_t ch_retire1, au_retire1;

    ch_near_end_and_started(SIMT_PMODE_CHIMERA, &ch, &ch_retire1);
    g_assert_cmpuint(ch.drained, ==, 1);
    g_assert_cmpuint(ch.flushed, ==, 1);
    g_assert_cmpuint(ch.switched + ch.light, ==, 0);
    /* Block 1 was still running; the SM was handed over after it. */
    g_assert_cmpuint(ch_retire1, >, ch.req_cycle);
    g_assert_cmpuint(ch.done_cycle, ==, ch_retire1);
    g_assert_cmpuint(ch.dispatch_cycle, >=, ch_retire1);
    /* Block 1 drained on Chimera's estimate: its drain is counted. */
    g_assert_cmpuint(ch.drain_time, ==, ch_retire1 - ch.req_cycle);

    ch_near_end_and_started(SIMT_PMODE_AUTO, &au, &au_retire1);
    g_assert_cmpuint(au.drained, ==, 1);
    g_assert_cmpuint(au.drain_time, ==, au_retire1 - au.req_cycle);
    g_assert_cmpuint(au.flushed, ==, 1);
    /* Auto's first high-priority block runs beside the draining one. */
    g_assert_cmpuint(au.dispatch_cycle, <, au_retire1);
    g_assert_cmpuint(au.dispatch_cycle - au.req_cycle, <,
                     ch.dispatch_cycle - ch.req_cycle);
    g_test_message("first high-priority block after %" PRIu64 " cycles "
                   "with Chimera, %" PRIu64 " with auto",
                   ch.dispatch_cycle - ch.req_cycle,
                   au.dispatch_cycle - au.req_cycle);
}

/*
 * Two SMs.  A first wave of blocks sets the mean block time; in the
 * second, SM 0 holds two long blocks and SM 1 two short ones, all
 * started together, so that Chimera's estimates (which only see the
 * time spent) tie and SM 0 goes first.  The memory is slow and the
 * bound loose: SM 0's blocks leave by switches, one after the other.
 * SM 1's short blocks end meanwhile and the (long) high-priority block
 * goes there; its kernel has nothing left to place, the low-priority
 * one is the head again, with its first saved block ready, but SM 0 is
 * the preemptor's until the event ends: no low-priority block is placed
 * or restored on it before its last victim is off.
 */
static void test_chimera_handed_sm_kept_until_event_ends(void)
{
    static const uint32_t len[] = { 20, 20, 20, 20, 20, 6, 20, 6, 5, 5 };
    struct simt_preempt_event ev;
    ChEvent d0, r0, w2, e;
    uint64_t mean, at;
    Ch c;
    uint32_t hp;

    ch_start(&c, CH_SM(2) ",mem-bandwidth=2", SIMT_PMODE_CHIMERA, 1000000);
    ch_launch(&c, len, ARRAY_SIZE(len), 0);
    ch_wait_retired(&c, 3);
    g_assert_true(ch_find(&c, SIMT_TRACE_DISPATCH, 0, 0, &d0));
    g_assert_true(ch_find(&c, SIMT_TRACE_RETIRE, 0, 0, &r0));
    g_assert_true(ch_find(&c, SIMT_TRACE_DISPATCH, 0, 7, &w2));
    for (uint32_t b = 4; b < 8; b++) {
        g_assert_true(ch_find(&c, SIMT_TRACE_DISPATCH, 0, b, &e));
        g_assert_cmpuint(e.sm, ==, b % 2);
    }
    /* Just before SM 1's blocks (0.3 of the mean) end. */
    mean = r0.cycle - d0.cycle;
    at = w2.cycle + mean * 3 / 10 - 2000;
    g_assert_cmpuint(at, >, cycle_now(c.d));
    qtest_clock_step(c.d->qts, at - cycle_now(c.d));
    /* A long one, which keeps SM 1 while SM 0's switches go on. */
    hp = launch(c.d, 1, &(Launch) {
        .kernel = "lp_spin", .grid = { 1 }, .block = { 256 },
        .args = { vram_alloc(c.d, NULL, 256 * 4), CH_ITERS },
    });
    ch_finish(&c, hp, &ev);
    g_assert_cmpuint(ev.switched, ==, 2);
    g_assert_cmpuint(ev.drained + ev.flushed + ev.light, ==, 0);
    g_assert_true(ch_find(&c, SIMT_TRACE_DISPATCH, 1, 0, &e));
    g_assert_cmpuint(e.sm, ==, 1);
    g_assert_cmpuint(e.cycle, <, ev.done_cycle);
    for (uint32_t b = 0; b < ARRAY_SIZE(len); b++) {
        if (ch_find_nth(&c, SIMT_TRACE_DISPATCH, 0, b, true, &e) &&
            e.sm == 0 && e.cycle > ev.req_cycle) {
            g_assert_cmpuint(e.cycle, >=, ev.done_cycle);
        }
        if (ch_find(&c, SIMT_TRACE_RESTORE, 0, b, &e) && e.sm == 0) {
            g_assert_cmpuint(e.cycle, >=, ev.done_cycle);
        }
    }
    dev_stop(c.d);
}

/*
 * Two SMs (0 first in the preset's order) and a high-priority kernel
 * that needs one.  When it comes, SM 0's two blocks are 0.7 through
 * their run and SM 1's are 0.95 and just started: every block's only
 * option within the bound is a flush, and SM 1's cost less.
 */
static void test_chimera_picks_the_cheaper_sm(void)
{
    /* SM 0: 0, 2, then 6, 7; SM 1: 1, 3, then 4, 5, then 8 */
    static const uint32_t len[] = { 13, 10, 13, 11, 10, 10, 10, 10, 10 };
    struct simt_preempt_event ev;
    ChEvent e;
    Ch c;
    uint32_t hp;

    ch_start(&c, CH_SM(2) ",mem-bandwidth=2", SIMT_PMODE_CHIMERA, 2000);
    ch_launch(&c, len, ARRAY_SIZE(len), 0);
    ch_wait_retired(&c, 4);
    for (uint32_t b = 0; b < ARRAY_SIZE(len); b++) {
        g_assert_true(ch_find(&c, SIMT_TRACE_DISPATCH, 0, b, &e));
        g_assert_cmpuint(e.sm, ==, b == 0 || b == 2 || b == 6 || b == 7 ?
                         0 : 1);
    }
    hp = ch_hp(&c, 2, CH_THREADS);
    ch_finish(&c, hp, &ev);
    g_assert_cmpuint(ev.flushed, ==, 2);
    g_assert_cmpuint(ev.drained + ev.switched + ev.light, ==, 0);
    g_assert_true(ch_find(&c, SIMT_TRACE_FLUSH, 0, 5, &e));
    g_assert_cmpuint(e.sm, ==, 1);
    g_assert_true(ch_find(&c, SIMT_TRACE_FLUSH, 0, 8, &e));
    g_assert_cmpuint(e.sm, ==, 1);
    for (uint32_t b = 0; b < 2; b++) {
        g_assert_true(ch_find(&c, SIMT_TRACE_DISPATCH, 1, b, &e));
        g_assert_cmpuint(e.sm, ==, 1);
    }
    dev_stop(c.d);
}

/*
 * Two lp_var blocks on one SM, neither retired, so that auto (seed 000's
 * rule, without the lightweight switch) has no drain estimate, and a
 * slow memory, so that a switch misses the bound: without a table both
 * are flushed.  With an ORACLE entry saying block
 * 0 is off its SM within the bound, auto drains it (the table is taken
 * as it is, even where it is wrong) and flushes block 1, which the
 * table does not have.  The victims' instructions are what flushing both
 * would have lost.
 */
static void oracle_case(bool table, struct simt_preempt_event *ev)
{
    static const uint32_t len[] = { 10, 10 };
    Ch c;
    uint32_t hp;

    ch_start(&c, CH_SM(1) ",mem-bandwidth=2,preempt-choice=seed000",
             SIMT_PMODE_AUTO, 2000);
    ch_launch(&c, len, ARRAY_SIZE(len), 0);
    qtest_clock_step(c.d->qts, 2000);
    if (table) {
        struct simt_oracle_entry e = {
            .queue = 0, .block = 0,
            .done_cycle = cpu_to_le64(cycle_now(c.d) + 100),
        };

        qtest_memwrite(c.d->qts, ORACLE_ADDR, &e, sizeof(e));
        wr(c.d, SIMT_REG_ORACLE_LO, ORACLE_ADDR);
        wr(c.d, SIMT_REG_ORACLE_COUNT, 1);
    }
    hp = ch_hp(&c, 2, CH_THREADS);
    ch_finish(&c, hp, ev);
    dev_stop(c.d);
}

static void test_oracle_drain_time(void)
{
    struct simt_preempt_event ev;

    oracle_case(false, &ev);
    g_assert_cmpuint(ev.flushed, ==, 2);
    g_assert_cmpuint(le32_to_cpu(ev.oracle_drains), ==, 0);
    /* Flushing both lost what they had executed. */
    g_assert_cmpuint(le32_to_cpu(ev.victim_insns), ==,
                     le32_to_cpu(ev.wasted_insns));
    oracle_case(true, &ev);
    g_assert_cmpuint(ev.drained, ==, 1);
    g_assert_cmpuint(ev.flushed, ==, 1);
    g_assert_cmpuint(le32_to_cpu(ev.oracle_drains), ==, 1);
    g_assert_cmpuint(le32_to_cpu(ev.victim_insns), >,
                     le32_to_cpu(ev.wasted_insns));
}

/*
 * The ORACLE registers read back; too many entries, or a table the
 * device cannot read at an event, turn the oracle off and the victims
 * are chosen on estimates.
 */
static void test_oracle_registers(void)
{
    static const uint32_t len[] = { 10, 10 };
    struct simt_preempt_event ev;
    Ch c;
    uint32_t hp;

    ch_start(&c, CH_SM(1) ",mem-bandwidth=2,preempt-choice=seed000",
             SIMT_PMODE_AUTO, 2000);
    wr(c.d, SIMT_REG_ORACLE_COUNT, SIMT_MAX_ORACLE_ENTRIES + 1);
    g_assert_cmpuint(rd(c.d, SIMT_REG_ORACLE_COUNT), ==, 0);
    wr(c.d, SIMT_REG_ORACLE_COUNT, SIMT_MAX_ORACLE_ENTRIES);
    g_assert_cmpuint(rd(c.d, SIMT_REG_ORACLE_COUNT), ==,
                     SIMT_MAX_ORACLE_ENTRIES);
    wr(c.d, SIMT_REG_ORACLE_LO, 0x1000);
    wr(c.d, SIMT_REG_ORACLE_HI, 0x100);
    g_assert_cmphex(rd(c.d, SIMT_REG_ORACLE_LO), ==, 0x1000);
    g_assert_cmphex(rd(c.d, SIMT_REG_ORACLE_HI), ==, 0x100);
    ch_launch(&c, len, ARRAY_SIZE(len), 0);
    qtest_clock_step(c.d->qts, 2000);
    hp = ch_hp(&c, 2, CH_THREADS);
    ch_finish(&c, hp, &ev);
    g_assert_cmpuint(rd(c.d, SIMT_REG_ORACLE_COUNT), ==, 0);
    g_assert_cmpuint(ev.flushed, ==, 2);
    g_assert_cmpuint(le32_to_cpu(ev.oracle_drains), ==, 0);
    dev_stop(c.d);
}

/*
 * One SM of one block, blocks that store before their loop (never
 * flushable), a bound of one cycle that nothing meets, and block 1 (in
 * the way of the high-priority block) at the point where its drain
 * estimate lies between one and two switch times: the switch is the
 * faster, the drain the cheaper (half the switch's factor 2).  Chimera
 * takes the faster.  A first run in switch mode measures the switch
 * time: its event lasts exactly that.
 */
static void test_chimera_fastest_when_nothing_meets_bound(void)
{
    static const uint32_t len[] = { 10, 10 };
    const char *props = "sm-count=1,sm-threads=128,mem-bandwidth=1";
    struct simt_preempt_event ev;
    ChEvent b0, b1, r0;
    uint64_t t_switch, mean, drain_est, at;
    Ch c;
    uint32_t hp;

    ch_start(&c, props, SIMT_PMODE_SWITCH, 1);
    ch_launch(&c, len, ARRAY_SIZE(len), 1);
    ch_wait_retired(&c, 0);
    hp = ch_hp(&c, 1, CH_THREADS);
    ch_finish(&c, hp, &ev);
    g_assert_cmpuint(ev.switched, ==, 1);
    t_switch = ev.done_cycle - ev.req_cycle;
    dev_stop(c.d);

    ch_start(&c, props, SIMT_PMODE_CHIMERA, 1);
    ch_launch(&c, len, ARRAY_SIZE(len), 1);
    r0 = ch_wait_retired(&c, 0);
    g_assert_true(ch_find(&c, SIMT_TRACE_DISPATCH, 0, 0, &b0));
    g_assert_true(ch_find(&c, SIMT_TRACE_DISPATCH, 0, 1, &b1));
    mean = r0.cycle - b0.cycle;
    g_assert_cmpuint(mean, >, 3 * t_switch);
    /* The default preset's 1000 MHz: a cycle is a nanosecond. */
    at = b1.cycle + mean - 3 * t_switch / 2;
    g_assert_cmpuint(at, >, cycle_now(c.d));
    qtest_clock_step(c.d->qts, at - cycle_now(c.d));
    hp = ch_hp(&c, 1, CH_THREADS);
    ch_finish(&c, hp, &ev);
    drain_est = mean - (ev.req_cycle - b1.cycle);
    g_assert_cmpuint(drain_est, >, t_switch);
    g_assert_cmpuint(drain_est, <, 2 * t_switch);
    g_assert_cmpuint(ev.switched, ==, 1);
    g_assert_cmpuint(ev.drained + ev.flushed + ev.light, ==, 0);
    dev_stop(c.d);
}

/*
 * As in the first case, but the blocks store before their loop: block
 * 2, just started, would be flushed if it could (it has done less work
 * than a switch costs on this slow memory); it may not, and goes by a
 * context switch (within the raised bound and cheaper than its long
 * drain), while block 1 drains.
 */
static void test_chimera_never_flushes_after_a_store(void)
{
    static const uint32_t len[] = { 10, 11, 11 };
    struct simt_preempt_event ev;
    ChEvent e;
    Ch c;
    uint32_t hp;

    ch_start(&c, CH_SM(1) ",mem-bandwidth=2", SIMT_PMODE_CHIMERA, 100000);
    ch_launch(&c, len, ARRAY_SIZE(len), 1);
    ch_wait_retired(&c, 0);
    /* Past block 2's store (a block placed this slice has run nothing). */
    qtest_clock_step(c.d->qts, 1000);
    hp = ch_hp(&c, 2, CH_THREADS);
    ch_finish(&c, hp, &ev);
    g_assert_cmpuint(ev.flushed, ==, 0);
    g_assert_cmpuint(ev.drained, ==, 1);
    g_assert_cmpuint(ev.switched, ==, 1);
    g_assert_true(ch_find(&c, SIMT_TRACE_SAVE, 0, 2, &e));
    dev_stop(c.d);
}

/*
 * Measurements (SIMT_BENCH_PREEMPT=1; bench/preempt-bench.sh runs it and
 * writes docs/preemption-results.rst).  The GTX480 preset; low-priority
 * kernels with the per-block footprint of seed 000's benchmarks, a
 * synthetic high-priority kernel like seed 000's (256 threads, 2048
 * shared bytes and 16 registers per block), injected at points spread
 * uniformly over the low-priority kernel's run.
 */
typedef struct Shape {
    const char *name;
    const char *kernel;
    uint32_t threads, shared, regs;
    uint32_t per_sm;            /* blocks per SM the footprint allows */
    uint32_t work;              /* the kernel's rounds or iterations */
    /* The results computed on the host, for @blocks blocks, or NULL. */
    void (*reference)(uint32_t *out, uint32_t blocks, uint32_t threads,
                      uint32_t work);
    const UserKernel *user;     /* a kernel a user brought, or NULL */
} Shape;

/* The image of the kernels a user brought. */
static const char *user_image = USER_IMAGE;

/* The table lp_btree and lp_srad read (kernels/preempt.c). */
#define BENCH_TABLE_WORDS   4096

static uint32_t bench_table(uint32_t j)
{
    return (j * 2654435761u >> 7) & (BENCH_TABLE_WORDS - 1);
}

/* bench_table(0 .. BENCH_TABLE_WORDS - 1), filled by bench_preempt(). */
static uint32_t bench_table_words[BENCH_TABLE_WORDS];

/* Block @b's length in lp_btree and lp_srad: one to four times @work. */
static uint32_t bench_block_length(uint32_t b, uint32_t work)
{
    return work * (1 + (b * 2654435761u >> 30));
}

static void ref_btree(uint32_t *out, uint32_t blocks, uint32_t threads,
                      uint32_t work)
{
    for (uint32_t b = 0; b < blocks; b++) {
        uint32_t n = bench_block_length(b, work);

        for (uint32_t t = 0; t < threads; t++) {
            uint32_t i = b * threads + t, node = i & 4095;

            for (uint32_t k = 0; k < n; k++) {
                node = bench_table((node + k) & 4095);
            }
            out[i] = node + n;
        }
    }
}

static void ref_srad(uint32_t *out, uint32_t blocks, uint32_t threads,
                     uint32_t work)
{
    uint32_t v[256], image[256];

    g_assert_cmpuint(threads, ==, 256);
    for (uint32_t b = 0; b < blocks; b++) {
        uint32_t n = bench_block_length(b, work);

        for (uint32_t t = 0; t < 256; t++) {
            v[t] = bench_table((b * 256 + t) & 4095);
        }
        for (uint32_t k = 0; k < n; k++) {
            memcpy(image, v, sizeof(image));
            for (uint32_t t = 0; t < 256; t++) {
                uint32_t sum = image[(t + 1) & 255] + image[(t + 255) & 255] +
                               image[(t + 16) & 255] + image[(t + 240) & 255];

                if (v[t] & 1) {
                    for (uint32_t j = 0; j < 8; j++) {
                        sum = sum * 3 + (sum >> 5);
                    }
                } else {
                    sum ^= sum >> 3;
                }
                v[t] = (v[t] + sum) & 4095;
            }
        }
        memcpy(&out[b * 256], v, sizeof(v));
    }
}

/*
 * Seed 000's footprints (its Table 4.2: registers and shared memory per
 * block, threads, blocks per SM).  The first six are synthetic kernels
 * with those footprints (kernels/preempt.c), on which seed 004's
 * figures and the mechanisms lab are measured; b+tree's findK and
 * srad's second kernel are the irregular, non-idempotent kernels the
 * seed traces its late responses to.
 */
static const Shape shapes[] = {
    { "pathfinder", "lp_spin", 256, 2048, 16, 6, 400 },
    { "hotspot", "lp_spin", 256, 3072, 36, 3, 400 },
    { "streamcluster", "lp_spin", 512, 0, 12, 3, 400 },
    { "backprop", "lp_mix", 256, 1088, 20, 6, 2 },
    { "btree", "lp_btree", 256, 0, 16, 6, 100, ref_btree },
    { "srad", "lp_srad", 256, 5120, 20, 6, 30, ref_srad },
    /*
     * Kernels that do what those of Table 4.2 do (kernels/rodinia.c),
     * named after them: the shapes of seed 000's figures.  work:
     * pathfinder's rows, hotspot's steps, streamcluster's coordinates,
     * k-means' features, b+tree's inner nodes (findK and findRangeK),
     * bfs's most neighbours, Needleman-Wunsch's tiles per side of a
     * score matrix, bfs's second kernel's vertices per thread, the
     * weight update's strips of 16 input units per block.
     */
    { "dynproc", "rd_pathfinder", 256, 2048, 16, 6, 20 },
    { "calctemp", "rd_hotspot", 256, 3072, 36, 3, 2 },
    { "computecost", "rd_streamcluster", 512, 0, 12, 3, 16 },
    { "kmeanspoint", "rd_kmeans", 256, 3072, 12, 6, 34 },
    { "findk", "rd_findk", 256, 0, 16, 6, 8 },
    { "srad2", "rd_srad2", 256, 5120, 20, 6, 0 },
    { "bfskernel", "rd_bfs", 512, 0, 16, 3, 8 },
    { "layerforward", "rd_backprop", 256, 1088, 12, 6, 0 },
    { "findrange", "rd_findrange", 256, 0, 20, 6, 8 },
    { "srad1", "rd_srad1", 256, 6144, 20, 6, 0 },
    { "needle", "rd_needle", 32, 2180, 48, 8, 4 },
    { "bfskernel2", "rd_bfs2", 512, 0, 12, 3, 8 },
    { "adjustweights", "rd_adjust", 256, 0, 24, 5, 4 },
};

#define BENCH_SMS           15
#define BENCH_WAVES         4
#define BENCH_INJECTIONS    24
#define BENCH_HP_BLOCKS     30
#define BENCH_MHZ           1400
/*
 * PP_DRAIN of the selective runs: 50 us, far more than any drain to a
 * point of the kernels takes (the runs print the warps it cut: none)
 */
#define BENCH_PP_DRAIN      (50 * BENCH_MHZ)

/*
 * Seed 000's Oracle, built on the device's drain oracle: per injection,
 * the cycle each low-priority block on an SM at the event's request left
 * it in a run that drained every victim of that event (and ran the
 * events before it with their tables).  @probe: the injection such a run
 * drains at, then stops; -1: the run that uses every table.
 */
typedef struct Oracle {
    GArray *table[BENCH_INJECTIONS];    /* struct simt_oracle_entry */
    int probe;
} Oracle;

/* How a run differs from the shape's defaults. */
typedef struct BenchOpts {
    bool used_regs;         /* declare the registers the kernel uses */
    bool selective;         /* PP_DRAIN: light switches drain to points */
    bool hp_unshared;       /* the high-priority kernel uses no shared */
    bool oracle;            /* seed 000's Oracle: bench_oracle's runs */
    Oracle *tables;         /* in those runs */
    /*
     * Not 0: the low-priority blocks take shared memory enough that this
     * many fit on an SM beside the high-priority kernel's, which is
     * injected once (bench_hp_beside)
     */
    uint32_t beside;
} BenchOpts;

typedef struct BenchRun {
    uint64_t lp_cycles;
    uint32_t n;                 /* injections that found the kernel running */
    uint64_t dispatch[BENCH_INJECTIONS];  /* submit to first HP block */
    uint64_t response[BENCH_INJECTIONS];  /* submit to HP done */
    uint32_t events;
    Totals t;
    uint64_t wasted;
    uint64_t save_latency;      /* median request to last victim off */
    uint64_t worst_latency;     /* the longest of them */
    double mean_latency;        /* their mean */
    uint64_t save_bound;        /* median of the events' save_bound */
    uint32_t over_bound;        /* events whose latency passed the bound */
    uint64_t drain_error;       /* estimated drains: how far they missed */
    uint64_t drain_time;        /* estimated drains: how long they took */
    uint64_t reg_bytes;         /* register entries saved, all events */
    uint64_t live_bytes;        /* ... they would take uncompressed */
    uint64_t kept_bytes;        /* shared memory kept in place */
    uint64_t pp_drain;          /* drains to preemption points, summed */
    uint64_t pp_cut;            /* warps the bound stopped elsewhere */
    uint64_t latency_sum;       /* request to last victim off, summed */
    uint64_t save_cycles;       /* saves at the SMs' bandwidth share */
    uint64_t lp_warp_insns;     /* the low-priority kernel's */
    uint32_t *out;              /* the low-priority kernel's results */
    size_t out_bytes;
    uint32_t policy_errors;     /* picks the device overruled */
    uint64_t victim_insns;      /* what flushing every victim would lose */
    uint32_t oracle_drains;     /* victims drained on the oracle's time */
    double window_use;          /* thread slots in use in the windows */
    double empty_room;          /* block-cycles of it left empty */
    double sm_use;              /* what SMs that gave room kept in use */
    uint64_t refill_wait;       /* the longest a retired block's room */
} BenchRun;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, uint32_t n)
{
    qsort(v, n, sizeof(*v), cmp_u64);
    return n ? v[n / 2] : 0;
}

static bool trace_leaves(uint8_t type)
{
    return type == SIMT_TRACE_RETIRE || type == SIMT_TRACE_FLUSH ||
           type == SIMT_TRACE_SAVE;
}

static gint oracle_cmp(gconstpointer a, gconstpointer b)
{
    const struct simt_oracle_entry *x = a, *y = b;

    return le32_to_cpu(x->block) < le32_to_cpu(y->block) ? -1 :
           le32_to_cpu(x->block) > le32_to_cpu(y->block);
}

/*
 * The Oracle's table for the first event after cycle @after, in a run
 * that drains its victims: every block of queue 0's @blocks on an SM at
 * the request, and the cycle it left; the clock runs until all have.
 * Empty if the high-priority kernel found room without an event.
 */
static GArray *oracle_learn(Dev *d, uint64_t after, uint32_t blocks)
{
    GArray *table = g_array_new(false, false,
                                sizeof(struct simt_oracle_entry));
    g_autofree bool *on = g_new0(bool, blocks);
    g_autofree uint64_t *left = g_new0(uint64_t, blocks);
    g_autofree struct simt_trace_record *t =
        g_new(struct simt_trace_record, TRACE_SIZE);
    uint32_t n = 0;

    for (;;) {
        uint32_t waiting = 0;
        uint64_t req = 0;

        n = read_timeline(d, t, n);
        timeline_by_cycle(t, n);
        for (uint32_t i = 0; i < n && !req; i++) {
            if (t[i].type == SIMT_TRACE_PREEMPT &&
                le64_to_cpu(t[i].cycle) >= after) {
                req = le64_to_cpu(t[i].cycle);
            }
        }
        if (!req) {
            return table;
        }
        memset(on, 0, blocks * sizeof(*on));
        memset(left, 0, blocks * sizeof(*left));
        /* On an SM at the request: placed before it, not gone by it. */
        for (uint32_t i = 0; i < n; i++) {
            uint32_t b = le32_to_cpu(t[i].block);
            uint64_t c = le64_to_cpu(t[i].cycle);

            if (t[i].queue || b >= blocks || c > req) {
                continue;
            }
            if ((t[i].type == SIMT_TRACE_DISPATCH ||
                 t[i].type == SIMT_TRACE_RESTORE) && c < req) {
                on[b] = true;
            } else if (trace_leaves(t[i].type)) {
                on[b] = false;
            }
        }
        for (uint32_t i = 0; i < n; i++) {
            uint32_t b = le32_to_cpu(t[i].block);
            uint64_t c = le64_to_cpu(t[i].cycle);

            if (!t[i].queue && b < blocks && on[b] && !left[b] && c > req &&
                trace_leaves(t[i].type)) {
                left[b] = c;
            }
        }
        for (uint32_t b = 0; b < blocks; b++) {
            waiting += on[b] && !left[b];
        }
        if (!waiting) {
            for (uint32_t b = 0; b < blocks; b++) {
                struct simt_oracle_entry e = {
                    .queue = 0, .block = cpu_to_le32(b),
                    .done_cycle = cpu_to_le64(left[b]),
                };

                if (on[b]) {
                    g_array_append_val(table, e);
                }
            }
            g_array_sort(table, oracle_cmp);
            return table;
        }
        qtest_clock_step(d->qts, 50000);
    }
}

/*
 * Seed 000's Fig. 4.4: the share of the @slots thread slots of the SMs
 * in use during the events' windows (request to last victim off), from
 * the timeline @t (in cycle order): each block's threads times its
 * cycles on an SM inside a window, over the slots times the windows'
 * cycles.  @threads: a block's, per queue.
 */
static double window_use(const struct simt_trace_record *t, uint32_t n,
                         uint32_t slots, const struct simt_preempt_event *ev,
                         uint32_t nev, const uint32_t threads[2],
                         uint32_t blocks)
{
    g_autofree uint64_t *since = g_new0(uint64_t, 2 * blocks);
    double used = 0, span = 0;

    for (uint32_t e = 0; e < nev; e++) {
        span += (double)(le64_to_cpu(ev[e].done_cycle) -
                         le64_to_cpu(ev[e].req_cycle)) * slots;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = le32_to_cpu(t[i].block), q = t[i].queue;
        uint64_t c = le64_to_cpu(t[i].cycle);

        if (q > 1 || b >= blocks) {
            continue;
        }
        if (t[i].type == SIMT_TRACE_DISPATCH ||
            t[i].type == SIMT_TRACE_RESTORE) {
            since[q * blocks + b] = c;
        } else if (trace_leaves(t[i].type)) {
            for (uint32_t e = 0; e < nev; e++) {
                uint64_t lo = MAX(since[q * blocks + b],
                                  le64_to_cpu(ev[e].req_cycle));
                uint64_t hi = MIN(c, le64_to_cpu(ev[e].done_cycle));

                used += hi > lo ? (double)(hi - lo) * threads[q] : 0;
            }
        }
    }
    return span > 0 ? used / span : 0;
}

/*
 * The room preemption leaves empty, from the timeline @t (in cycle
 * order), over the events' windows (request to last victim off), per
 * SM: r->empty_room, the thread slots in use at the request that are
 * not in use since, by either kernel, times the cycles they stay so
 * while a kernel has blocks to place (a low-priority kernel of @blocks
 * blocks, an event's preemptor of @hp_blocks), in low-priority blocks
 * of @threads[0]; r->sm_use, on the SMs that gave up some of their room,
 * the threads in use over those in use at the request (seed 000's Fig.
 * 4.4: an SM handed over whole idles until its last victim is off, one
 * shared with the newcomer takes it in as room frees).
 */
static void room_in_windows(const struct simt_trace_record *t, uint32_t n,
                            const struct simt_preempt_event *ev, uint32_t nev,
                            const uint32_t threads[2], uint32_t blocks,
                            uint32_t hp_blocks, BenchRun *r)
{
    int64_t occ[BENCH_SMS] = { 0 }, at_req[BENCH_SMS] = { 0 };
    int64_t resident = 0, retired = 0, hp_placed = hp_blocks;
    double used[BENCH_SMS] = { 0 }, kept = 0, held = 0;
    bool lost[BENCH_SMS] = { false };
    uint64_t prev = 0;
    double empty = 0;
    uint32_t e = 0;
    bool in = false;

    for (uint32_t i = 0; i <= n && e < nev; i++) {
        uint64_t c = i < n ? le64_to_cpu(t[i].cycle) : UINT64_MAX;
        uint64_t req = le64_to_cpu(ev[e].req_cycle);
        uint64_t done = le64_to_cpu(ev[e].done_cycle);

        /* Integrate up to c, crossing the window's edges. */
        while (e < nev && prev < c) {
            uint64_t to = MIN(c, in ? done : req);

            for (unsigned sm = 0; in && sm < BENCH_SMS; sm++) {
                used[sm] += (double)occ[sm] * (to - prev);
                lost[sm] |= occ[sm] < at_req[sm] && to > prev;
            }
            if (in && (retired + resident < blocks ||
                       hp_placed < hp_blocks)) {
                for (unsigned sm = 0; sm < BENCH_SMS; sm++) {
                    empty += (double)MAX(at_req[sm] - occ[sm], 0) *
                             (to - prev);
                }
            }
            prev = MAX(prev, to);
            if (!in && prev == req) {
                memcpy(at_req, occ, sizeof(occ));
                memset(used, 0, sizeof(used));
                memset(lost, 0, sizeof(lost));
                in = true;
            } else if (in && prev == done) {
                for (unsigned sm = 0; sm < BENCH_SMS; sm++) {
                    if (lost[sm]) {
                        kept += used[sm];
                        held += (double)at_req[sm] * (done - req);
                    }
                }
                in = false;
                if (++e < nev) {
                    req = le64_to_cpu(ev[e].req_cycle);
                    done = le64_to_cpu(ev[e].done_cycle);
                }
            } else {
                prev = c;
            }
        }
        if (i < n && t[i].type == SIMT_TRACE_PREEMPT) {
            /* An event's preemptor is waiting to place its blocks. */
            hp_placed = 0;
        } else if (i < n && t[i].type == SIMT_TRACE_KERNEL_DONE) {
            hp_placed = t[i].queue == 1 ? hp_blocks : hp_placed;
        } else if (i < n && t[i].queue <= 1 &&
                   le32_to_cpu(t[i].block) < blocks &&
                   le16_to_cpu(t[i].sm) < BENCH_SMS) {
            unsigned sm = le16_to_cpu(t[i].sm);
            bool lp = t[i].queue == 0;

            if (t[i].type == SIMT_TRACE_DISPATCH ||
                t[i].type == SIMT_TRACE_RESTORE) {
                occ[sm] += threads[t[i].queue];
                resident += lp;
                hp_placed += !lp;
            } else if (trace_leaves(t[i].type)) {
                occ[sm] -= threads[t[i].queue];
                resident -= lp;
                retired += lp && t[i].type == SIMT_TRACE_RETIRE;
            }
        }
    }
    r->empty_room = empty / threads[0];
    r->sm_use = held > 0 ? kept / held : 0;
}

/*
 * The longest a low-priority block's room stood empty in the events'
 * windows while its kernel had blocks to place: from a queue-0 block's
 * retirement inside a window to the next block placed on its SM, of
 * either kernel, or the window's end; from the timeline @t (in cycle
 * order) of a kernel of @blocks blocks.  A retirement's cycle is its
 * last warp's, which a burst may carry past the slice whose end placed
 * the next block: a placement up to a burst before it is its refill.
 */
static uint64_t refill_wait(const struct simt_trace_record *t, uint32_t n,
                            const struct simt_preempt_event *ev, uint32_t nev,
                            uint32_t blocks)
{
    uint32_t empty[BENCH_SMS] = { 0 }, early[BENCH_SMS] = { 0 };
    uint64_t since[BENCH_SMS] = { 0 }, placed[BENCH_SMS] = { 0 };
    int64_t resident = 0, retired = 0;
    uint64_t wait = 0;
    uint32_t e = 0;

    for (uint32_t i = 0; i < n; i++) {
        uint64_t c = le64_to_cpu(t[i].cycle);
        uint16_t sm = le16_to_cpu(t[i].sm);
        bool lp = t[i].queue == 0;

        /* Windows that ended before c: what is still empty stops there. */
        while (e < nev && le64_to_cpu(ev[e].done_cycle) <= c) {
            for (unsigned j = 0; j < BENCH_SMS; j++) {
                if (empty[j]) {
                    wait = MAX(wait, le64_to_cpu(ev[e].done_cycle) - since[j]);
                }
                empty[j] = early[j] = 0;
            }
            e++;
        }
        if (t[i].queue > 1 || le32_to_cpu(t[i].block) >= blocks ||
            sm >= BENCH_SMS) {
            continue;
        }
        if (t[i].type == SIMT_TRACE_DISPATCH ||
            t[i].type == SIMT_TRACE_RESTORE) {
            resident += lp;
            if (empty[sm]) {
                wait = MAX(wait, c - since[sm]);
                empty[sm]--;
            } else {
                early[sm]++;
                placed[sm] = c;
            }
        } else if (trace_leaves(t[i].type)) {
            resident -= lp;
            if (!lp || t[i].type != SIMT_TRACE_RETIRE ||
                ++retired + resident >= blocks || e == nev ||
                le64_to_cpu(ev[e].req_cycle) > c) {
                continue;
            }
            if (early[sm] && c - placed[sm] <= SIMT_BURST_CYCLES) {
                early[sm]--;
            } else if (!empty[sm]++) {
                since[sm] = c;
            }
        }
    }
    return wait;
}

/*
 * From @d's timeline, r->window_use, r->empty_room, r->sm_use and
 * r->refill_wait of its events.
 */
static void window_figures(Dev *d, const struct simt_preempt_event *ev,
                           const uint32_t threads[2], uint32_t blocks,
                           BenchRun *r)
{
    g_autofree struct simt_trace_record *t =
        g_new(struct simt_trace_record, TRACE_SIZE);
    uint32_t n = read_timeline(d, t, 0);

    timeline_by_cycle(t, n);
    r->window_use = window_use(t, n, BENCH_SMS * rd(d, SIMT_REG_SM_THREADS),
                               ev, r->events, threads, blocks);
    room_in_windows(t, n, ev, r->events, threads, blocks, BENCH_HP_BLOCKS,
                    r);
    r->refill_wait = refill_wait(t, n, ev, r->events, blocks);
}

/*
 * Before injection @i of an Oracle run: its table, or (the probe) no
 * table and every victim drained.
 */
static void oracle_set(Dev *d, const Oracle *o, uint32_t i)
{
    GArray *t = o->table[i];

    if (o->probe == (int)i) {
        wr(d, SIMT_CTX_REG(0, SIMT_CREG_PREEMPT_MODE), SIMT_PMODE_DRAIN);
        wr(d, SIMT_REG_ORACLE_COUNT, 0);
        return;
    }
    g_assert(t);
    qtest_memwrite(d->qts, ORACLE_ADDR, t->data,
                   t->len * sizeof(struct simt_oracle_entry));
    wr(d, SIMT_REG_ORACLE_LO, ORACLE_ADDR);
    wr(d, SIMT_REG_ORACLE_HI, 0);
    wr(d, SIMT_REG_ORACLE_COUNT, t->len);
}

/*
 * The low-priority kernel of @sh with the high-priority one injected at
 * @inject (cycles from the launch; NULL: never), or (@hp_only) the
 * high-priority kernel once on an idle device; @o: NULL, or how the
 * run differs from the shape's defaults.
 */
static void bench_run(const Shape *sh, unsigned mode, uint32_t bound,
                      const int64_t *inject, bool hp_only,
                      const BenchOpts *o, BenchRun *r)
{
    static const BenchOpts defaults;
    g_autofree char *props = g_strdup_printf("preset=gtx480%s%s",
                                             extra_props ? "," : "",
                                             extra_props ? extra_props : "");
    Dev *d = dev_start(props);
    uint32_t blocks = BENCH_SMS * sh->per_sm * BENCH_WAVES;
    uint32_t nout = blocks * sh->threads;
    uint32_t out = vram_alloc(d, NULL, nout * 4);
    /* lp_mix's histogram bins, and the table of lp_btree and lp_srad. */
    uint32_t hist = vram_alloc(d, bench_table_words,
                               sizeof(bench_table_words));
    uint32_t hp_buf = vram_alloc(d, NULL, BENCH_HP_BLOCKS * 256 * 4);
    const struct simt_kernel_info *k;
    RodiniaRun wl;
    bool rodinia;
    Launch hp = {
        .kernel = "hp_fill", .grid = { BENCH_HP_BLOCKS }, .block = { 256 },
        .args = { hp_buf, BENCH_HP_BLOCKS * 256, 1 }, .dyn_shared = 2048,
        .regs = 16,
    };
    Launch lp = {
        .kernel = sh->kernel, .grid = { blocks }, .block = { sh->threads },
        .args = { out, hist, sh->work },
    };
    struct simt_completion rec;
    uint64_t lat[LOG_SIZE], bound_cycles[LOG_SIZE];
    uint64_t t0;
    uint32_t idx;

    if (!o) {
        o = &defaults;
    }
    if (o->hp_unshared) {
        hp.dyn_shared = 0;
    }
    /*
     * kernels/rodinia.c's kernels bring their own inputs and outputs, and
     * so do a user's.
     */
    if (sh->user) {
        user_setup(d, sh->user, blocks, &wl);
        rodinia = true;
    } else {
        rodinia = rodinia_setup(d, sh->kernel, blocks, sh->threads,
                                sh->work, &wl);
    }
    if (rodinia) {
        lp = wl.launch;
    }
    lp.regs = o->used_regs ? 0 : sh->regs;
    use_image(d, sh->user ? user_image : rodinia ? "rodinia" : "preempt");
    k = simt_image_kernel(d->img, sh->kernel);
    if (!k) {
        g_error("%s: kernel [%s]: the image has no kernel %s",
                sh->user ? sh->user->where : "shapes[]", sh->name,
                sh->kernel);
    }
    lp.dyn_shared = sh->shared - MIN(sh->shared, k->m.shared_bytes);
    if (o->beside) {
        /* What the SM's shared memory leaves beside 2 HP blocks, / N */
        uint32_t share = (rd(d, SIMT_REG_SM_SHARED) -
                          BENCH_HP_BLOCKS / BENCH_SMS * hp.dyn_shared) /
                         o->beside / 256 * 256;

        lp.dyn_shared = MAX(sh->shared, share) -
                        MIN(MAX(sh->shared, share), k->m.shared_bytes);
    }
    if (!strcmp(sh->kernel, "lp_spin")) {
        lp.args[1] = sh->work;
    }
    qwr(d, 1, SIMT_QREG_PRIORITY, SIMT_MAX_PRIORITY);
    wr(d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_BASE), VRAM_SAVE);
    wr(d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_SIZE), SAVE_SIZE);
    wr(d, SIMT_CTX_REG(0, SIMT_CREG_PREEMPT_MODE), mode);
    wr(d, SIMT_CTX_REG(0, SIMT_CREG_PP_DRAIN),
       o->selective ? BENCH_PP_DRAIN : 0);
    wr(d, SIMT_REG_PREEMPT_BOUND, bound);
    wr(d, SIMT_REG_PEV_LOG_LO, LOG_ADDR);
    wr(d, SIMT_REG_PEV_LOG_SIZE, LOG_SIZE);
    trace_on(d);
    memset(r, 0, sizeof(*r));

    if (hp_only) {
        uint64_t c0 = cycle_now(d);
        uint32_t h = launch(d, 1, &hp);

        g_assert_cmpuint(wait_queue(d, 1, h), ==, SIMT_QSTATE_IDLE);
        read_record(d, 1, h, &rec);
        r->response[0] = rec.end_cycle - c0;
        g_free(wl.want);
        dev_stop(d);
        return;
    }
    t0 = cycle_now(d);
    idx = launch(d, 0, &lp);
    for (uint32_t i = 0; inject && i < (o->beside ? 1 : BENCH_INJECTIONS);
         i++) {
        uint64_t now = cycle_now(d);
        uint64_t c0;
        uint32_t h;

        if (t0 + inject[i] > now) {
            qtest_clock_step(d->qts, (t0 + inject[i] - now) * 1000 /
                                     BENCH_MHZ + 1);
        }
        if (queue_done(d, 0, idx)) {
            break;
        }
        c0 = cycle_now(d);
        if (o->tables) {
            oracle_set(d, o->tables, i);
        }
        h = launch(d, 1, &hp);
        g_assert_cmpuint(wait_queue(d, 1, h), ==, SIMT_QSTATE_IDLE);
        read_record(d, 1, h, &rec);
        g_assert_cmpuint(rec.status, ==, SIMT_QERR_NONE);
        if (o->tables && o->tables->probe == (int)i) {
            o->tables->table[i] = oracle_learn(d, c0, blocks);
            g_free(wl.want);
            dev_stop(d);
            return;
        }
        r->dispatch[r->n] = rec.start_cycle - c0;
        r->response[r->n] = rec.end_cycle - c0;
        r->n++;
    }
    g_assert_cmpuint(wait_queue(d, 0, idx), ==, SIMT_QSTATE_IDLE);
    read_record(d, 0, idx, &rec);
    g_assert_cmpuint(rec.status, ==, SIMT_QERR_NONE);
    r->lp_cycles = rec.end_cycle - rec.start_cycle;
    r->lp_warp_insns = rec.warp_insns;
    if (rodinia) {
        size_t at = 0;

        for (unsigned i = 0; i < wl.outs; i++) {
            r->out_bytes += wl.out_bytes[i];
        }
        r->out = g_malloc(r->out_bytes);
        for (unsigned i = 0; i < wl.outs; i++) {
            vram_read(d, wl.out_addr[i], (uint8_t *)r->out + at,
                      wl.out_bytes[i]);
            at += wl.out_bytes[i];
        }
        /* Preempted or not, what the host computes (a user's: unknown). */
        if (wl.want) {
            g_assert_cmpmem(r->out, r->out_bytes, wl.want, wl.want_bytes);
        }
    } else {
        r->out = g_new(uint32_t, nout);
        r->out_bytes = nout * 4;
        vram_read(d, out, r->out, nout * 4);
    }

    qtest_clock_step(d->qts, 10000);
    r->events = read_events(d, events);
    r->t = (Totals) { 0 };
    for (uint32_t i = 0; i < r->events; i++) {
        r->t.drained += events[i].drained;
        r->t.flushed += events[i].flushed;
        r->t.switched += events[i].switched;
        r->t.light += events[i].light;
        r->t.saved += events[i].saved_bytes;
        r->t.occupied += events[i].occupied_bytes;
        r->reg_bytes += events[i].reg_bytes;
        r->live_bytes += events[i].live_bytes;
        r->kept_bytes += le32_to_cpu(events[i].kept_bytes);
        r->pp_drain += events[i].pp_drain;
        r->pp_cut += events[i].pp_cut;
        r->save_cycles += DIV_ROUND_UP((uint64_t)events[i].saved_bytes *
                                       BENCH_SMS, rd(d, SIMT_REG_MEM_BW));
        r->wasted += le32_to_cpu(events[i].wasted_insns);
        lat[i] = events[i].done_cycle - events[i].req_cycle;
        r->latency_sum += lat[i];
        r->over_bound += bound && lat[i] > bound;
        r->drain_error += le32_to_cpu(events[i].drain_error);
        r->drain_time += le32_to_cpu(events[i].drain_time);
        r->victim_insns += le32_to_cpu(events[i].victim_insns);
        r->oracle_drains += le32_to_cpu(events[i].oracle_drains);
        bound_cycles[i] = events[i].save_bound;
        /* The saves alone take that long: no event can end sooner. */
        g_assert_cmpuint(lat[i], >=, bound_cycles[i]);
    }
    for (uint32_t i = 0; i < r->events; i++) {
        r->worst_latency = MAX(r->worst_latency, lat[i]);
        r->mean_latency += (double)lat[i] / r->events;
    }
    r->save_latency = median(lat, r->events);
    r->save_bound = median(bound_cycles, r->events);
    window_figures(d, events, (const uint32_t[2]) { sh->threads,
                                                   hp.block[0] },
                   blocks, r);
    r->policy_errors = rd(d, SIMT_REG_POLICY_ERRORS);
    g_free(wl.want);
    dev_stop(d);
}

/*
 * Seed 000's Oracle at @bound: one run per injection learns its table
 * (oracle_learn), then a run uses them all.
 */
static void bench_oracle(const Shape *sh, uint32_t bound,
                         const int64_t *inject, const BenchOpts *o,
                         BenchRun *r)
{
    Oracle tables = { 0 };
    BenchOpts with = *o;

    with.tables = &tables;
    for (int i = 0; i < BENCH_INJECTIONS; i++) {
        tables.probe = i;
        bench_run(sh, SIMT_PMODE_AUTO, bound, inject, false, &with, r);
        if (!tables.table[i]) {
            break;      /* the kernel was done before injection @i */
        }
    }
    tables.probe = -1;
    bench_run(sh, SIMT_PMODE_AUTO, bound, inject, false, &with, r);
    for (int i = 0; i < BENCH_INJECTIONS; i++) {
        if (tables.table[i]) {
            g_array_free(tables.table[i], true);
        }
    }
}

/*
 * The share of @sh's run alone that waits on global memory: one minus
 * its cycles with global memory at shared memory's cost (ideal-memory)
 * over its cycles as modelled (@alone), with the same results.
 */
static void bench_mem_wait(const Shape *sh, const BenchRun *alone)
{
    const char *props = extra_props;
    g_autofree char *ideal_props =
        g_strdup_printf("%s%sideal-memory=on", props ? props : "",
                        props ? "," : "");
    BenchRun ideal;

    extra_props = ideal_props;
    bench_run(sh, SIMT_PMODE_NONE, 0, NULL, false, NULL, &ideal);
    extra_props = props;
    g_assert_cmpmem(ideal.out, ideal.out_bytes, alone->out,
                    alone->out_bytes);
    g_test_message("bench preempt_%s_lp_mem_wait: %.3f of cycles alone",
                   sh->name,
                   1.0 - (double)ideal.lp_cycles / alone->lp_cycles);
    g_free(ideal.out);
}

/*
 * Seed 000's kernels characterised: the high-priority kernel's run
 * (first block to done) over its run alone (@hp_alone) when it shares
 * the SMs with N of @sh's blocks each, N from 1 to the blocks an SM
 * holds, the low-priority kernel's shared memory limiting it to N; with
 * no preemption, so the dispatch waits where the high-priority blocks
 * do not fit beside them (printed too).
 */
static void bench_hp_beside(const Shape *sh, const BenchRun *alone,
                            uint64_t hp_alone)
{
    int64_t inject[BENCH_INJECTIONS] = { alone->lp_cycles / 8 };

    for (uint32_t n = 1; n <= sh->per_sm; n++) {
        BenchOpts o = { .beside = n };
        BenchRun r;

        bench_run(sh, SIMT_PMODE_NONE, 0, inject, false, &o, &r);
        g_assert_cmpmem(r.out, r.out_bytes, alone->out, alone->out_bytes);
        g_free(r.out);
        g_assert_cmpuint(r.n, ==, 1);
        g_test_message("bench preempt_%s_hp_beside_%u: %.2f ratio", sh->name,
                       n, (double)(r.response[0] - r.dispatch[0]) / hp_alone);
        g_test_message("bench preempt_%s_hp_beside_%u_dispatch: %" PRIu64
                       " cycles", sh->name, n, r.dispatch[0]);
    }
}

static void bench_print(const char *shape, const char *mode,
                        const BenchRun *r, uint64_t hp_alone,
                        uint64_t lp_alone)
{
    uint64_t disp[BENCH_INJECTIONS], resp[BENCH_INJECTIONS];
    uint32_t ev = MAX(r->events, 1);

    memcpy(disp, r->dispatch, sizeof(disp));
    memcpy(resp, r->response, sizeof(resp));
    g_test_message("bench preempt_%s_%s_dispatch: %" PRIu64 " cycles", shape,
                   mode, median(disp, r->n));
    g_test_message("bench preempt_%s_%s_response: %" PRIu64 " cycles", shape,
                   mode, median(resp, r->n));
    for (uint32_t us = 2; us <= 5; us++) {
        uint32_t late = 0;

        for (uint32_t i = 0; i < r->n; i++) {
            late += r->response[i] > hp_alone + us * BENCH_MHZ;
        }
        g_test_message("bench preempt_%s_%s_violations_%uus: %.1f %%", shape,
                       mode, us, 100.0 * late / MAX(r->n, 1));
    }
    g_test_message("bench preempt_%s_%s_events: %u events", shape, mode,
                   r->events);
    g_test_message("bench preempt_%s_%s_mix: %u/%u/%u/%u "
                   "drained/flushed/switched/light", shape, mode,
                   r->t.drained, r->t.flushed, r->t.switched, r->t.light);
    g_test_message("bench preempt_%s_%s_policy_errors: %u picks overruled",
                   shape, mode, r->policy_errors);
    g_test_message("bench preempt_%s_%s_saved: %" PRIu64 " bytes/event",
                   shape, mode, r->t.saved / ev);
    g_test_message("bench preempt_%s_%s_occupied: %" PRIu64 " bytes/event",
                   shape, mode, r->t.occupied / ev);
    g_test_message("bench preempt_%s_%s_save_latency: %" PRIu64 " cycles",
                   shape, mode, r->save_latency);
    g_test_message("bench preempt_%s_%s_save_bound: %" PRIu64 " cycles",
                   shape, mode, r->save_bound);
    g_test_message("bench preempt_%s_%s_reg_bytes: %" PRIu64 " bytes/event",
                   shape, mode, r->reg_bytes / ev);
    g_test_message("bench preempt_%s_%s_live_bytes: %" PRIu64 " bytes/event",
                   shape, mode, r->live_bytes / ev);
    g_test_message("bench preempt_%s_%s_wasted: %" PRIu64
                   " warp-insns/event", shape, mode, r->wasted / ev);
    g_test_message("bench preempt_%s_%s_empty_room: %.0f block-cycles/event",
                   shape, mode, r->empty_room / ev);
    g_test_message("bench preempt_%s_%s_refill_wait: %" PRIu64 " cycles",
                   shape, mode, r->refill_wait);
    g_test_message("bench preempt_%s_%s_sm_use: %.1f %%", shape, mode,
                   100 * r->sm_use);
    g_test_message("bench preempt_%s_%s_lp_slowdown: %.1f %%", shape, mode,
                   100.0 * ((double)r->lp_cycles - lp_alone) / lp_alone);
    g_test_message("bench preempt_%s_%s_drain_error: %.1f %%", shape, mode,
                   r->drain_time ? 100.0 * r->drain_error / r->drain_time
                                 : 0.0);
    if (r->pp_drain || r->pp_cut) {
        g_test_message("bench preempt_%s_%s_pp_drain: %.1f %%", shape, mode,
                       r->latency_sum ? 100.0 * r->pp_drain / r->latency_sum
                                      : 0.0);
        g_test_message("bench preempt_%s_%s_pp_cut: %" PRIu64 " warps",
                       shape, mode, r->pp_cut);
    }
}

/*
 * Seed 000's comparison of its scheme (paper here, and auto with the
 * lightweight switch) with Chimera, over every kernel shape: late
 * responses pooled over all injections per bound, and the wasted work at
 * 2 us.  Overhead is what the low-priority kernel lost to the
 * injections (its run time over its run alone), normalized per shape to
 * that of the flush mode, averaged over the shapes where that mode
 * flushed every victim (a kernel whose blocks store first drains them
 * instead: no baseline); waste, the paper's metric, is normalized to
 * what flushing every victim of the same run would have lost, which
 * every kernel has.
 */
/* The schemes seed 000 compares, as bench_preempt's modes name them. */
/*
 * paper_queued: the paper's scheme with preempt-queued-saves=on, its
 * switch estimates counting the saves queued before them on the SM,
 * where the paper's simulator stalled each block for its own save time.
 */
/*
 * oracle: paper_queued with each victim's true drain time (bench_oracle),
 * the Oracle seed 000 compares with; chimera_plus: Chimera with seed
 * 000's drain estimate (chimera-plus=on), the seed's "Chimera+".
 */
enum {
    SEED000_AUTO, SEED000_CHIMERA, SEED000_PAPER, SEED000_PAPER_QUEUED,
    SEED000_ORACLE, SEED000_CHIMERA_PLUS, SEED000_SCHEMES
};
static const char *const seed000_scheme[SEED000_SCHEMES] = {
    "auto", "chimera", "paper", "paper_queued", "oracle", "chimera_plus",
};

typedef struct Seed000 {
    uint32_t late[SEED000_SCHEMES][6], runs[SEED000_SCHEMES][6];
    uint32_t over[SEED000_SCHEMES][6], events[SEED000_SCHEMES][6];
    /* Fig. 4.5(c): victims drained, flushed, switched, switched light */
    uint32_t mix[SEED000_SCHEMES][6][4];
    double hp_run[SEED000_SCHEMES][6];  /* first block to done, / alone */
    uint64_t drain_error[SEED000_SCHEMES], drain_time[SEED000_SCHEMES];
    double lost_flush, lost[SEED000_SCHEMES];   /* this shape's, at 2 us */
    double norm[SEED000_SCHEMES];               /* summed over shapes */
    uint32_t shapes;
    /*
     * The paper's overhead (Fig. 4.3): wasted warp instructions, those
     * flushed (the device's count) plus the switches' cost, a block's
     * mean issue rate alone (@block_ipc) times twice (save and restore)
     * the cycles its save takes; at 2 us, over what flushing every
     * victim of the same run would have lost, summed over the shapes.
     */
    double block_ipc;
    double waste_norm[SEED000_SCHEMES][6], flushed_norm[SEED000_SCHEMES];
    /*
     * Chimera's own overhead for draining (the seed's section 3.3.2):
     * the work the room a scheme leaves empty during the windows could
     * have done at @block_ipc (BenchRun.empty_room), measured for every
     * scheme where the seed takes its own as zero; per bound, with the
     * flushed and switched work, over flushing every victim.
     */
    double waste_empty_norm[SEED000_SCHEMES][6];
    /*
     * Fig. 4.4: thread slots in use in the windows, and what the SMs
     * that gave up room kept in use, summed over the shapes whose events
     * had windows (@windows of them; where every victim was flushed at
     * once, there is none)
     */
    double use[SEED000_SCHEMES][6], sm_use[SEED000_SCHEMES][6];
    uint32_t windows[SEED000_SCHEMES][6];
    /*
     * And per kernel: this shape's sm_use at 2 us per scheme, of the
     * schemes whose bits @shape_windows has (those with windows), and
     * the paper's over Chimera's summed over the @ratios shapes where
     * both had windows (the seed's "on average ... 2.93x" may be a mean
     * of its per-benchmark bars)
     */
    double shape_sm_use[SEED000_SCHEMES];
    uint32_t shape_windows;
    double sm_use_ratio;
    uint32_t ratios;
    uint32_t all_shapes;
    uint32_t oracle_drains, drains;     /* the oracle's, all its drains */
} Seed000;

/* Add a run of scheme @m (-1: a single mechanism) at @us microseconds. */
static void seed000_add(Seed000 *sd, int m, unsigned mode, uint32_t us,
                        const BenchRun *r, uint64_t hp_alone,
                        uint64_t lp_alone)
{
    double lost = (double)r->lp_cycles - lp_alone;
    double waste = r->wasted + sd->block_ipc * 2 * r->save_cycles;

    if (mode == SIMT_PMODE_FLUSH) {
        /* A baseline only where every victim could be flushed. */
        sd->lost_flush = r->t.flushed && !r->t.drained ? lost : 0;
    }
    if (m < 0) {
        return;
    }
    for (uint32_t i = 0; i < r->n; i++) {
        sd->late[m][us] += r->response[i] > hp_alone + us * BENCH_MHZ;
        sd->hp_run[m][us] += (double)(r->response[i] - r->dispatch[i]) /
                             hp_alone;
    }
    sd->runs[m][us] += r->n;
    sd->over[m][us] += r->over_bound;
    sd->drain_error[m] += r->drain_error;
    sd->drain_time[m] += r->drain_time;
    sd->events[m][us] += r->events;
    sd->mix[m][us][0] += r->t.drained;
    sd->mix[m][us][1] += r->t.flushed;
    sd->mix[m][us][2] += r->t.switched;
    sd->mix[m][us][3] += r->t.light;
    if (r->latency_sum) {
        sd->use[m][us] += r->window_use;
        sd->sm_use[m][us] += r->sm_use;
        sd->windows[m][us]++;
        if (us == 2) {
            sd->shape_sm_use[m] = r->sm_use;
            sd->shape_windows |= 1u << m;
        }
    }
    if (r->victim_insns) {
        sd->waste_norm[m][us] += waste / r->victim_insns;
        sd->waste_empty_norm[m][us] +=
            (waste + sd->block_ipc * r->empty_room) / r->victim_insns;
    }
    if (m == SEED000_ORACLE) {
        sd->oracle_drains += r->oracle_drains;
        sd->drains += r->t.drained;
    }
    if (us == 2) {
        sd->lost[m] = lost;
        sd->flushed_norm[m] += r->victim_insns ?
                               (double)r->wasted / r->victim_insns : 0;
    }
}

static void seed000_shape_done(Seed000 *sd)
{
    uint32_t both = 1u << SEED000_PAPER | 1u << SEED000_CHIMERA;

    if ((sd->shape_windows & both) == both &&
        sd->shape_sm_use[SEED000_CHIMERA] > 0) {
        sd->sm_use_ratio += sd->shape_sm_use[SEED000_PAPER] /
                            sd->shape_sm_use[SEED000_CHIMERA];
        sd->ratios++;
    }
    sd->shape_windows = 0;
    if (sd->lost_flush > 0) {
        for (int m = 0; m < SEED000_SCHEMES; m++) {
            sd->norm[m] += sd->lost[m] / sd->lost_flush;
        }
        sd->shapes++;
    }
    sd->all_shapes++;
}

/*
 * "bench seed000_@name_<L>us_<scheme>": @use per bound and scheme, summed
 * over @n shapes each, in % of them; and the paper's scheme's over
 * Chimera's at 2 us.
 */
static void seed000_print_use(const char *name,
                              const double use[SEED000_SCHEMES][6],
                              const uint32_t n[SEED000_SCHEMES][6])
{
    double paper = use[SEED000_PAPER][2] / MAX(n[SEED000_PAPER][2], 1);
    double chimera = use[SEED000_CHIMERA][2] /
                     MAX(n[SEED000_CHIMERA][2], 1);

    for (uint32_t us = 2; us <= 5; us++) {
        for (int m = 0; m < SEED000_SCHEMES; m++) {
            g_test_message("bench seed000_%s_%uus_%s: %.1f %%", name, us,
                           seed000_scheme[m],
                           100 * use[m][us] / MAX(n[m][us], 1));
        }
    }
    g_test_message("bench seed000_%s_paper_over_chimera: %.2f ratio", name,
                   chimera > 0 ? paper / chimera : 0.0);
}

/* "bench seed000_@name": how much less @ours is than @theirs, in %. */
static void print_less(const char *name, double ours, double theirs)
{
    g_test_message("bench seed000_%s: %.1f %%", name,
                   theirs > 0 ? 100.0 * (1 - ours / theirs) : 0.0);
}

/*
 * Late responses per scheme and bound; what isolates their causes: how
 * many events took longer than the bound to get their victims off (the
 * bound is on that), and how much longer than alone the high-priority
 * kernel ran from its first block on (the deadline allows its time
 * alone); the wasted work at 2 us.
 */
static void seed000_print(const Seed000 *sd)
{
    for (uint32_t us = 2; us <= 5; us++) {
        for (int m = 0; m < SEED000_SCHEMES; m++) {
            g_test_message("bench seed000_violations_%uus_%s: %.2f %%", us,
                           seed000_scheme[m], 100.0 * sd->late[m][us] /
                                              MAX(sd->runs[m][us], 1));
        }
    }
    for (uint32_t us = 2; us <= 5; us++) {
        for (int m = 0; m < SEED000_SCHEMES; m++) {
            g_test_message("bench seed000_latency_over_bound_%uus_%s: "
                           "%.2f %%", us, seed000_scheme[m],
                           100.0 * sd->over[m][us] /
                           MAX(sd->events[m][us], 1));
        }
    }
    for (uint32_t us = 2; us <= 5; us++) {
        for (int m = 0; m < SEED000_SCHEMES; m++) {
            g_test_message("bench seed000_hp_run_over_alone_%uus_%s: "
                           "%.2f ratio", us, seed000_scheme[m],
                           sd->hp_run[m][us] / MAX(sd->runs[m][us], 1));
        }
    }
    /* Fig. 4.5(c): each technique's share of the victims. */
    for (uint32_t us = 2; us <= 5; us++) {
        for (int m = 0; m < SEED000_SCHEMES; m++) {
            static const char *const technique[4] = {
                "drain", "flush", "switch", "light",
            };
            const uint32_t *mix = sd->mix[m][us];
            uint32_t all = mix[0] + mix[1] + mix[2] + mix[3];

            for (int t = 0; t < 4; t++) {
                g_test_message("bench seed000_mix_%s_%uus_%s: %.1f %%",
                               technique[t], us, seed000_scheme[m],
                               100.0 * mix[t] / MAX(all, 1));
            }
        }
    }
    /* Seed 000's Fig. 4.2: how far the drains missed their estimates. */
    for (int m = 0; m < SEED000_SCHEMES; m++) {
        g_test_message("bench seed000_drain_estimate_error_%s: %.1f %%",
                       seed000_scheme[m], sd->drain_time[m] ?
                       100.0 * sd->drain_error[m] / sd->drain_time[m] : 0.0);
    }
    for (int m = 0; m < SEED000_SCHEMES; m++) {
        g_test_message("bench seed000_overhead_%s: %.3f of flush",
                       seed000_scheme[m], sd->norm[m] / MAX(sd->shapes, 1));
    }
    print_less("overhead_auto_vs_chimera", sd->norm[SEED000_AUTO],
               sd->norm[SEED000_CHIMERA]);
    /* Fig. 4.3 in the paper's metric: wasted instructions. */
    for (int m = 0; m < SEED000_SCHEMES; m++) {
        g_test_message("bench seed000_waste_flushed_%s: %.3f of flush",
                       seed000_scheme[m],
                       sd->flushed_norm[m] / MAX(sd->all_shapes, 1));
    }
    print_less("waste_paper_vs_chimera", sd->waste_norm[SEED000_PAPER][2],
               sd->waste_norm[SEED000_CHIMERA][2]);
    print_less("waste_flushed_paper_vs_chimera",
               sd->flushed_norm[SEED000_PAPER],
               sd->flushed_norm[SEED000_CHIMERA]);
    print_less("waste_paper_queued_vs_chimera",
               sd->waste_norm[SEED000_PAPER_QUEUED][2],
               sd->waste_norm[SEED000_CHIMERA][2]);
    print_less("waste_paper_vs_chimera_plus",
               sd->waste_norm[SEED000_PAPER][2],
               sd->waste_norm[SEED000_CHIMERA_PLUS][2]);
    /*
     * Fig. 4.5(b), per bound: as above; with the room each scheme leaves
     * empty; and in the seed's accounting, Chimera charged its empty
     * room (its draining's overhead) and the paper's scheme not.
     */
    for (uint32_t us = 2; us <= 5; us++) {
        g_autofree char *empty =
            g_strdup_printf("waste_empty_%uus_paper_vs_chimera", us);
        g_autofree char *as_seed =
            g_strdup_printf("waste_as_seed_%uus_paper_vs_chimera", us);

        for (int m = 0; m < SEED000_SCHEMES; m++) {
            g_test_message("bench seed000_waste_%uus_%s: %.3f of flush",
                           us, seed000_scheme[m],
                           sd->waste_norm[m][us] / MAX(sd->all_shapes, 1));
            g_test_message("bench seed000_waste_empty_%uus_%s: %.3f of flush",
                           us, seed000_scheme[m],
                           sd->waste_empty_norm[m][us] /
                           MAX(sd->all_shapes, 1));
        }
        print_less(empty, sd->waste_empty_norm[SEED000_PAPER][us],
                   sd->waste_empty_norm[SEED000_CHIMERA][us]);
        print_less(as_seed, sd->waste_norm[SEED000_PAPER][us],
                   sd->waste_empty_norm[SEED000_CHIMERA][us]);
    }
    /* "Within about 2 % of Oracle" on violations, per bound. */
    for (uint32_t us = 2; us <= 5; us++) {
        for (int m = SEED000_PAPER; m <= SEED000_PAPER_QUEUED; m++) {
            g_test_message("bench seed000_over_oracle_%uus_%s: %.2f points",
                           us, seed000_scheme[m],
                           100.0 * sd->late[m][us] / MAX(sd->runs[m][us], 1) -
                           100.0 * sd->late[SEED000_ORACLE][us] /
                           MAX(sd->runs[SEED000_ORACLE][us], 1));
        }
    }
    g_test_message("bench seed000_oracle_drains: %.1f %% of its drains",
                   100.0 * sd->oracle_drains / MAX(sd->drains, 1));
    /*
     * Fig. 4.4: the SMs' thread slots in use during the windows, and on
     * the SMs that gave up room, of what they held.
     */
    seed000_print_use("window_use", sd->use, sd->windows);
    seed000_print_use("sm_use", sd->sm_use, sd->windows);
    g_test_message("bench seed000_sm_use_mean_of_ratios_paper_over_chimera: "
                   "%.2f ratio", sd->sm_use_ratio / MAX(sd->ratios, 1));
    g_test_message("bench seed000_sm_use_ratio_kernels: %u kernels",
                   sd->ratios);
}

/*
 * Seed 004's figures, per event, averaged over the shapes where both
 * runs compared switched anything: against the full switch (registers
 * used, stored whole, stopped at once), the lightweight switch stopped
 * at once (the idealised "preempt anywhere") and the paper's selective
 * scheme (warps drained to preemption points, then saved light); and
 * the selective switch with in-place shared memory (a high-priority
 * kernel that uses none).
 */
typedef struct Seed004 {
    double reg_less, lat_lower;         /* light */
    double worst_over[3];               /* (worst - mean) / mean */
    uint32_t shapes;
    double sel_reg_less, live_less, sel_lat_lower, drain_share;
    double worst_lower;                 /* selective's worst against full */
    uint32_t sel_shapes;
    double inplace_less;                /* spill bytes in-place avoided */
    uint32_t inplace_shapes;
    /* this shape's full switch */
    double full_reg;
    uint64_t full_latency, full_worst;
    double full_worst_over;
} Seed004;

static void seed004_add(Seed004 *sd, unsigned mode, const BenchOpts *o,
                        const BenchRun *r)
{
    double reg = r->events ? (double)r->reg_bytes / r->events : 0;
    double live = r->events ? (double)r->live_bytes / r->events : 0;
    double worst_over = r->mean_latency > 0 ?
        (r->worst_latency - r->mean_latency) / r->mean_latency : 0;
    bool against_full = reg > 0 && sd->full_reg > 0 && sd->full_latency;

    if (mode == SIMT_PMODE_SWITCH) {
        sd->full_reg = reg;
        sd->full_latency = r->save_latency;
        sd->full_worst = r->worst_latency;
        sd->full_worst_over = worst_over;
    } else if (mode != SIMT_PMODE_LIGHT || !against_full) {
        return;
    } else if (!o->selective) {
        sd->reg_less += 1 - reg / sd->full_reg;
        sd->lat_lower += 1 - (double)r->save_latency / sd->full_latency;
        sd->worst_over[0] += sd->full_worst_over;
        sd->worst_over[1] += worst_over;
        sd->shapes++;
    } else if (!o->hp_unshared) {
        sd->sel_reg_less += 1 - reg / sd->full_reg;
        sd->live_less += 1 - live / sd->full_reg;
        sd->sel_lat_lower += 1 - (double)r->save_latency / sd->full_latency;
        sd->drain_share += r->latency_sum ?
                           (double)r->pp_drain / r->latency_sum : 0;
        sd->worst_lower += 1 - (double)r->worst_latency / sd->full_worst;
        sd->worst_over[2] += worst_over;
        sd->sel_shapes++;
    } else {
        /* Of the registers and shared memory a complete switch spills */
        sd->inplace_less += (double)r->kept_bytes /
                            (r->reg_bytes + r->kept_bytes);
        sd->inplace_shapes++;
    }
}

/*
 * @suffix: "" for launches that declare the registers their kernel uses,
 * as seed 004 measures; "_padded" for the shapes' register counts (seed
 * 000's footprints), which add registers no switch needs to save (light
 * and full switches only).
 */
static void seed004_print(const Seed004 *sd, const char *suffix)
{
    uint32_t n = MAX(sd->shapes, 1), sel = MAX(sd->sel_shapes, 1);
    bool padded = *suffix;

    if (!padded) {
        /* The paper's scheme: at preemption points, drain included. */
        g_test_message("bench seed004_register_reduction: %.1f %%",
                       100 * sd->sel_reg_less / sel);
        g_test_message("bench seed004_liveness_only_reduction: %.1f %%",
                       100 * sd->live_less / sel);
        g_test_message("bench seed004_latency_reduction: %.1f %%",
                       100 * sd->sel_lat_lower / sel);
        g_test_message("bench seed004_drain_share: %.1f %%",
                       100 * sd->drain_share / sel);
        /* Fig. 16: the worst event's latency, and its distance. */
        g_test_message("bench seed004_worst_latency_reduction: %.1f %%",
                       100 * sd->worst_lower / sel);
        g_test_message("bench seed004_worst_over_average_select: %.2f ratio",
                       sd->worst_over[2] / sel);
        /* Fig. 17: what in-place switching spares of the spills. */
        g_test_message("bench seed004_inplace_reduction: %.1f %%",
                       100 * sd->inplace_less /
                       MAX(sd->inplace_shapes, 1));
    }
    /* Light switches stopped at once: the idealised preempt-anywhere. */
    g_test_message("bench seed004_register_reduction%s: %.1f %%",
                   padded ? suffix : "_anywhere", 100 * sd->reg_less / n);
    g_test_message("bench seed004_latency_reduction%s: %.1f %%",
                   padded ? suffix : "_anywhere", 100 * sd->lat_lower / n);
    g_test_message("bench seed004_worst_over_average_full%s: %.2f ratio",
                   suffix, sd->worst_over[0] / n);
    g_test_message("bench seed004_worst_over_average_light%s: %.2f ratio",
                   suffix, sd->worst_over[1] / n);
}

/* The kernels of description file @path (g_error on a bad one). */
static GArray *user_kernels_load(const char *path)
{
    GArray *user = g_array_new(false, false, sizeof(UserKernel));
    g_autofree char *text = NULL;
    g_autofree char *bad = NULL;
    g_autoptr(GError) err = NULL;

    if (!g_file_get_contents(path, &text, NULL, &err)) {
        g_error("%s", err->message);
    }
    bad = user_kernels_parse(path, text, user);
    if (bad) {
        g_error("%s", bad);
    }
    return user;
}

/* @user's kernels as shapes, in @out. */
static void user_shapes(GArray *user, GArray *out)
{
    for (guint i = 0; i < user->len; i++) {
        const UserKernel *k = &g_array_index(user, UserKernel, i);
        Shape sh = {
            k->name, k->function, k->block[0] * k->block[1], k->shared,
            k->regs, k->per_sm, 0, NULL, k,
        };

        g_array_append_val(out, sh);
    }
}

static void bench_preempt(void)
{
    /* seed: the scheme of seed000_scheme[] a mode plays, or -1. */
    static const struct {
        const char *name;
        unsigned mode;
        uint32_t us;
        int seed;
        const char *props;
        BenchOpts opts;
    } modes[] = {
        { "none", SIMT_PMODE_NONE, 0, -1 },
        { "drain", SIMT_PMODE_DRAIN, 0, -1 },
        { "flush", SIMT_PMODE_FLUSH, 0, -1 },
        { "switch", SIMT_PMODE_SWITCH, 0, -1 },
        { "light", SIMT_PMODE_LIGHT, 0, -1 },
        { "auto2us", SIMT_PMODE_AUTO, 2, SEED000_AUTO },
        { "auto3us", SIMT_PMODE_AUTO, 3, SEED000_AUTO },
        { "auto4us", SIMT_PMODE_AUTO, 4, SEED000_AUTO },
        { "auto5us", SIMT_PMODE_AUTO, 5, SEED000_AUTO },
        { "chimera2us", SIMT_PMODE_CHIMERA, 2, SEED000_CHIMERA },
        { "chimera3us", SIMT_PMODE_CHIMERA, 3, SEED000_CHIMERA },
        { "chimera4us", SIMT_PMODE_CHIMERA, 4, SEED000_CHIMERA },
        { "chimera5us", SIMT_PMODE_CHIMERA, 5, SEED000_CHIMERA },
        /* Seed 000's scheme as the paper ran it: no lightweight switch. */
#define PAPER(us) { "paper" #us "us", SIMT_PMODE_AUTO, us, SEED000_PAPER, \
                    "preempt-choice=seed000" }
        PAPER(2), PAPER(3), PAPER(4), PAPER(5),
#undef PAPER
#define PAPER_QUEUED(us) { "paperq" #us "us", SIMT_PMODE_AUTO, us,      \
                           SEED000_PAPER_QUEUED,                      \
                           "preempt-choice=seed000,preempt-queued-saves=on" }
        PAPER_QUEUED(2), PAPER_QUEUED(3), PAPER_QUEUED(4), PAPER_QUEUED(5),
#undef PAPER_QUEUED
#define ORACLE(us) { "oracle" #us "us", SIMT_PMODE_AUTO, us, SEED000_ORACLE, \
                     "preempt-choice=seed000,preempt-queued-saves=on",     \
                     { .oracle = true } }
        ORACLE(2), ORACLE(3), ORACLE(4), ORACLE(5),
#undef ORACLE
#define CHIMERA_PLUS(us) { "chimeraplus" #us "us", SIMT_PMODE_CHIMERA, us, \
                           SEED000_CHIMERA_PLUS, "chimera-plus=on" }
        CHIMERA_PLUS(2), CHIMERA_PLUS(3), CHIMERA_PLUS(4), CHIMERA_PLUS(5),
#undef CHIMERA_PLUS
        /*
         * Seed 004's switches without the shapes' register padding: full,
         * light stopped at once, selective (light at preemption points),
         * and selective with a newcomer that needs no shared memory.
         */
        { "switchregs", SIMT_PMODE_SWITCH, 0, -1, NULL, { true } },
        { "lightregs", SIMT_PMODE_LIGHT, 0, -1, NULL, { true } },
        { "selectregs", SIMT_PMODE_LIGHT, 0, -1, NULL, { true, true } },
        { "inplaceregs", SIMT_PMODE_LIGHT, 0, -1, NULL,
          { true, true, true } },
    };
    const char *only = g_getenv("SIMT_BENCH_PREEMPT");
    const char *mode_list = g_getenv("SIMT_BENCH_MODES");
    g_auto(GStrv) wanted = mode_list ? g_strsplit(mode_list, ",", 0) : NULL;
    Seed000 seed = { 0 };
    Seed004 seed4 = { 0 }, seed4_used = { 0 };
    const char *user_file = g_getenv("SIMT_BENCH_KERNELS");
    g_autoptr(GArray) own = g_array_new(false, false, sizeof(Shape));
    GArray *user = NULL;
    const Shape *list = shapes;
    size_t nshapes = ARRAY_SIZE(shapes);

    for (uint32_t j = 0; j < BENCH_TABLE_WORDS; j++) {
        bench_table_words[j] = bench_table(j);
    }
    if (user_file) {
        /* A user's kernels (make bench-preempt KERNELS=DIR), alone. */
        user = user_kernels_load(user_file);
        user_shapes(user, own);
        list = (const Shape *)own->data;
        nshapes = own->len;
    }
    for (size_t s = 0; s < nshapes; s++) {
        const Shape *sh = &list[s];
        BenchRun alone, hp, run;
        int64_t inject[BENCH_INJECTIONS];
        uint64_t lp;
        uint32_t nout = BENCH_SMS * sh->per_sm * BENCH_WAVES * sh->threads;
        /*
         * Seed 000's figures come from the kernels that behave like its,
         * or from a user's.
         */
        bool seed000_shape = rodinia_kernel(sh->kernel) || sh->user;

        if (strcmp(only, "1") && strcmp(only, sh->name) &&
            (strcmp(only, "seed000") || !seed000_shape)) {
            continue;
        }
        bench_run(sh, SIMT_PMODE_NONE, 0, NULL, false, NULL, &alone);
        if (sh->reference) {
            /* The kernel is right, not only the same when preempted. */
            g_autofree uint32_t *want = g_new(uint32_t, nout);

            sh->reference(want, nout / sh->threads, sh->threads, sh->work);
            g_assert_cmpmem(alone.out, nout * 4, want, nout * 4);
        }
        bench_run(sh, SIMT_PMODE_NONE, 0, NULL, true, NULL, &hp);
        lp = alone.lp_cycles;
        seed.block_ipc = (double)alone.lp_warp_insns / alone.lp_cycles /
                         (BENCH_SMS * sh->per_sm);
        rng_state = s + 1;
        for (uint32_t i = 0; i < BENCH_INJECTIONS; i++) {
            inject[i] = (i * lp + rng(0, 999) * lp / 1000) /
                        BENCH_INJECTIONS;
        }
        g_test_message("bench preempt_%s_lp_alone: %" PRIu64 " cycles",
                       sh->name, alone.lp_cycles);
        g_test_message("bench preempt_%s_hp_alone: %" PRIu64 " cycles",
                       sh->name, hp.response[0]);
        g_test_message("bench preempt_%s_lp_ipc: %.3f warp-insns/cycle/SM",
                       sh->name, (double)alone.lp_warp_insns /
                                 alone.lp_cycles / BENCH_SMS);
        bench_mem_wait(sh, &alone);
        if (seed000_shape && (!wanted ||
                              g_strv_contains((const char *const *)wanted,
                                              "beside"))) {
            bench_hp_beside(sh, &alone, hp.response[0]);
        }
        for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
            const char *props = extra_props;
            g_autofree char *mode_props = props && modes[m].props ?
                g_strdup_printf("%s,%s", props, modes[m].props) :
                g_strdup(modes[m].props ? modes[m].props : props);

            if (wanted && !g_strv_contains((const char *const *)wanted,
                                           modes[m].name)) {
                continue;
            }
            /*
             * Seed 004's runs are on the synthetic shapes only, the
             * queued-saves experiment, the Oracle and Chimera+ on seed
             * 000's.
             */
            if (seed000_shape ? modes[m].opts.used_regs :
                modes[m].seed >= SEED000_PAPER_QUEUED) {
                continue;
            }
            extra_props = mode_props;
            if (modes[m].opts.oracle) {
                bench_oracle(sh, modes[m].us * BENCH_MHZ, inject,
                             &modes[m].opts, &run);
            } else {
                bench_run(sh, modes[m].mode, modes[m].us * BENCH_MHZ, inject,
                          false, &modes[m].opts, &run);
            }
            extra_props = props;
            /* Preempted or not, the same results. */
            g_assert_cmpmem(run.out, run.out_bytes, alone.out,
                            alone.out_bytes);
            g_free(run.out);
            bench_print(sh->name, modes[m].name, &run, hp.response[0],
                        alone.lp_cycles);
            if (seed000_shape) {
                seed000_add(&seed, modes[m].seed, modes[m].mode,
                            modes[m].us, &run, hp.response[0],
                            alone.lp_cycles);
            } else {
                seed004_add(modes[m].opts.used_regs ? &seed4_used : &seed4,
                            modes[m].mode, &modes[m].opts, &run);
            }
        }
        if (seed000_shape) {
            seed000_shape_done(&seed);
        }
        g_free(alone.out);
    }
    if ((!strcmp(only, "1") || !strcmp(only, "seed000")) && !wanted) {
        seed000_print(&seed);
    }
    if (!strcmp(only, "1") && !wanted) {
        seed004_print(&seed4_used, "");
        seed004_print(&seed4, "_padded");
    }
    if (user) {
        user_kernels_free(user);
    }
}

/*
 * @sh alone into *@alone, and @inject its BENCH_INJECTIONS points spread
 * evenly over that run.
 */
static void run_alone_spread(const Shape *sh, BenchRun *alone,
                             int64_t *inject)
{
    bench_run(sh, SIMT_PMODE_NONE, 0, NULL, false, NULL, alone);
    for (uint32_t i = 0; i < BENCH_INJECTIONS; i++) {
        inject[i] = i * alone->lp_cycles / BENCH_INJECTIONS;
    }
}

/*
 * Each of seed 000's workloads (kernels/rodinia.c) gives what its host
 * reference computes (bench_run checks), alone and with the stream of
 * high-priority kernels preempting it in auto mode at a 2 us bound.
 */
static uint32_t alone_and_preempted(const Shape *sh)
{
    BenchRun alone, run;
    int64_t inject[BENCH_INJECTIONS];

    run_alone_spread(sh, &alone, inject);
    bench_run(sh, SIMT_PMODE_AUTO, 2 * BENCH_MHZ, inject, false, NULL, &run);
    g_assert_cmpuint(run.n, >, 0);
    g_free(alone.out);
    g_free(run.out);
    return run.events;
}

static void test_rodinia(const void *data)
{
    alone_and_preempted(data);
}

/*
 * preempt-queued-saves=on: seed 000's scheme (preempt-choice=seed000) at
 * a 3 us bound on dynproc, whose SMs switch several blocks in one
 * event, gets fewer events past the bound than with each switch
 * estimated as its SM's only save; the results stay right.
 */
static void test_queued_saves(void)
{
    /* shapes[]'s, which a lab may replace (scripts/grade.sh) */
    static const Shape dynproc = {
        "dynproc", "rd_pathfinder", 256, 2048, 16, 6, 20
    };
    const Shape *sh = &dynproc;
    BenchRun alone, each, queued;
    int64_t inject[BENCH_INJECTIONS];

    run_alone_spread(sh, &alone, inject);
    extra_props = "preempt-choice=seed000";
    bench_run(sh, SIMT_PMODE_AUTO, 3 * BENCH_MHZ, inject, false, NULL, &each);
    extra_props = "preempt-choice=seed000,preempt-queued-saves=on";
    bench_run(sh, SIMT_PMODE_AUTO, 3 * BENCH_MHZ, inject, false, NULL,
              &queued);
    extra_props = NULL;
    g_assert_cmpuint(each.t.switched, >, 0);
    g_assert_cmpuint(each.over_bound, >, 0);
    g_assert_cmpuint(queued.over_bound, <, each.over_bound);
    g_free(alone.out);
    g_free(each.out);
    g_free(queued.out);
}

/* bfskernel as shapes[] has it, which a lab may replace (scripts/grade.sh) */
static const Shape bfs = { "bfskernel", "rd_bfs", 512, 0, 16, 3, 8 };

/*
 * bfskernel's blocks switched at a 2 us bound: an SM's saves are written
 * one after another, and the high-priority kernel ends before the last
 * of them; meanwhile every low-priority block that retires has its room
 * taken again within a slice of the preemption engine (saved blocks
 * whose records are written, then new ones), none waiting for a record
 * still being written elsewhere; the results stay right.
 */
static void test_priority_refill_while_saves_written(void)
{
    BenchRun alone, run;
    int64_t inject[BENCH_INJECTIONS];

    run_alone_spread(&bfs, &alone, inject);
    bench_run(&bfs, SIMT_PMODE_SWITCH, 2 * BENCH_MHZ, inject, false, NULL,
              &run);
    g_assert_cmpmem(run.out, run.out_bytes, alone.out, alone.out_bytes);
    g_assert_cmpuint(run.t.switched, >, run.events);
    g_test_message("%u blocks switched in %u events; a retired block's "
                   "room empty for %" PRIu64 " cycles at most",
                   run.t.switched, run.events, run.refill_wait);
    g_assert_cmpuint(run.refill_wait, <=, 100);
    g_free(alone.out);
    g_free(run.out);
}

/*
 * chimera-plus=on: Chimera drains on seed 000's estimate; on bfskernel,
 * whose blocks' lengths depend on their data, that estimate lets it
 * drain more victims at a 2 us bound than its own from run times does;
 * the results stay right.
 */
static void test_chimera_plus(void)
{
    BenchRun alone, own, plus;
    int64_t inject[BENCH_INJECTIONS];

    run_alone_spread(&bfs, &alone, inject);
    bench_run(&bfs, SIMT_PMODE_CHIMERA, 2 * BENCH_MHZ, inject, false, NULL,
              &own);
    extra_props = "chimera-plus=on";
    bench_run(&bfs, SIMT_PMODE_CHIMERA, 2 * BENCH_MHZ, inject, false, NULL,
              &plus);
    extra_props = NULL;
    g_assert_cmpuint(own.t.drained, >, 0);
    g_assert_cmpuint(plus.t.drained, >, own.t.drained);
    g_free(alone.out);
    g_free(own.out);
    g_free(plus.out);
}

/*
 * examples/own-kernels, as make bench-preempt KERNELS=DIR runs a user's
 * kernels (its image and description built beside the others): each
 * gives the same results alone and preempted in auto mode at 2 us, and
 * is preempted.
 */
static void test_own_kernels(void)
{
    g_autofree char *path = g_strdup_printf("%s/own-kernels.ini",
                                            g_getenv("SIMT_KERNEL_DIR"));
    GArray *user = user_kernels_load(path);
    g_autoptr(GArray) own = g_array_new(false, false, sizeof(Shape));

    user_image = "own-kernels";
    user_shapes(user, own);
    g_assert_cmpuint(own->len, ==, 2);
    for (guint i = 0; i < own->len; i++) {
        g_assert_cmpuint(alone_and_preempted(&g_array_index(own, Shape, i)),
                         >, 0);
    }
    user_image = USER_IMAGE;
    user_kernels_free(user);
}

/*
 * A description file's mistakes are told with the file and line; a
 * right one gives what it says.
 */
static void test_own_kernels_errors(void)
{
    static const char *const bad[][2] = {
        { "arg = number 1\n",
          "k.ini:1: \"arg = number 1\" before any [kernel]" },
        { "[Bad]\n", "k.ini:1: a kernel's name is" },
        { "[a]\nthreads = 2000\n", "k.ini:2: threads is" },
        { "[a]\n\n# x\nsize = 3\n", "k.ini:4: unknown key \"size\"" },
        { "[a]\narg = out 6\n", "k.ini:2: a buffer's size" },
        { "[a]\narg = in 8/warp\n", "k.ini:2: a buffer's size" },
        { "[a]\narg = in 8 ones\n", "k.ini:2: a buffer is filled" },
        { "[a]\narg = vector 8\n", "k.ini:2: an argument is" },
        { "[a]\nfunction = f\nthreads = 64\nblocks-per-sm = 2\n",
          "k.ini:1: kernel [a] needs 1 to 4 out" },
        { "[a]\nfunction = f\n[b]\n", "k.ini:1: kernel [a] needs function" },
        { "[a]\nidempotent = maybe\n", "k.ini:2: idempotent is yes or no" },
        { "# nothing\n", "k.ini:1: no [kernel] section" },
    };
    const char *good = "[ab1]  # a kernel\nfunction = f\nthreads = 16x8\n"
                       "blocks-per-sm = 3\nshared-bytes = 512\n"
                       "idempotent = no\narg = in 4/thread float\n"
                       "arg = number 7\narg = inout 64/block\n";
    GArray *out;
    UserKernel *k;
    char *err;

    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        out = g_array_new(false, false, sizeof(UserKernel));
        err = user_kernels_parse("k.ini", bad[i][0], out);
        g_assert_nonnull(err);
        if (!g_str_has_prefix(err, bad[i][1])) {
            g_error("\"%s\" gave \"%s\", not \"%s...\"", bad[i][0], err,
                    bad[i][1]);
        }
        g_free(err);
        user_kernels_free(out);
    }
    out = g_array_new(false, false, sizeof(UserKernel));
    g_assert_null(user_kernels_parse("k.ini", good, out));
    g_assert_cmpuint(out->len, ==, 1);
    k = &g_array_index(out, UserKernel, 0);
    g_assert_cmpstr(k->name, ==, "ab1");
    g_assert_cmpstr(k->where, ==, "k.ini:1");
    g_assert_cmpuint(k->block[0], ==, 16);
    g_assert_cmpuint(k->block[1], ==, 8);
    g_assert_cmpuint(k->per_sm, ==, 3);
    g_assert_cmpuint(k->shared, ==, 512);
    g_assert_false(k->idempotent);
    g_assert_cmpuint(k->nargs, ==, 3);
    g_assert_cmpuint(k->args[0].kind, ==, USER_ARG_IN);
    g_assert_cmpuint(k->args[0].scale, ==, USER_PER_THREAD);
    g_assert_cmpuint(k->args[0].fill, ==, USER_FILL_FLOAT);
    g_assert_cmpuint(k->args[1].value, ==, 7);
    g_assert_cmpuint(k->args[2].kind, ==, USER_ARG_INOUT);
    g_assert_cmpuint(k->args[2].scale, ==, USER_PER_BLOCK);
    g_assert_cmpuint(k->args[2].value, ==, 64);
    user_kernels_free(out);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    if (!simt_qtest_init()) {
        return g_test_run();
    }
    extra_props = g_getenv("SIMT_PREEMPT_PROPS");
    if (g_getenv("SIMT_BENCH_PREEMPT")) {
        qtest_add_func("/simt/bench/preempt", bench_preempt);
        return g_test_run();
    }
    extra_props = NULL;
    {
        const char *list = g_getenv("SIMT_LAB_POLICIES");
        g_auto(GStrv) choices = g_strsplit(list && *list ? list :
                                           "cheapest-in-bound,fastest,"
                                           "cheapest", ",", 0);

        for (uint32_t i = 0; choices[i]; i++) {
            g_autofree char *path = g_strdup_printf(
                "/simt/preempt/choice/%s/auto-stream-results-and-events",
                choices[i]);

            g_autofree char *no_room = g_strdup_printf(
                "/simt/preempt/choice/%s/no-save-area-only-usable-picks",
                choices[i]);

            qtest_add_data_func(path, g_strdup(choices[i]),
                                test_choice_stream);
            qtest_add_data_func(no_room, g_strdup(choices[i]),
                                test_choice_no_save_room);
        }
    }
    qtest_add_func("/simt/preempt/registers", test_registers);
    qtest_add_func("/simt/preempt/choice/seed000/drain-flush-switch-no-light",
                   test_choice_seed000_no_light);
    qtest_add_func("/simt/preempt/priority/drain", test_priority_drain);
    qtest_add_func("/simt/preempt/priority/flush", test_priority_flush);
    qtest_add_func("/simt/preempt/priority/switch", test_priority_switch);
    qtest_add_func("/simt/preempt/priority/light", test_priority_light);
    qtest_add_func("/simt/preempt/priority/auto", test_priority_auto);
    qtest_add_func("/simt/preempt/priority/wake-shortcut-same-events-as-scan",
                   test_wake_shortcut_same_events);
    qtest_add_func("/simt/preempt/chimera/sm-waits-for-drain-and-flush",
                   test_chimera_sm_waits_for_drain_and_flush);
    qtest_add_func("/simt/preempt/chimera/handed-sm-kept-until-event-ends",
                   test_chimera_handed_sm_kept_until_event_ends);
    qtest_add_func("/simt/preempt/chimera/picks-the-cheaper-sm",
                   test_chimera_picks_the_cheaper_sm);
    qtest_add_func("/simt/preempt/chimera/fastest-when-nothing-meets-bound",
                   test_chimera_fastest_when_nothing_meets_bound);
    qtest_add_func("/simt/preempt/chimera/never-flushes-after-a-store",
                   test_chimera_never_flushes_after_a_store);
    qtest_add_func("/simt/preempt/request/drain", test_request_drain);
    qtest_add_func("/simt/preempt/request/switch", test_request_switch);
    qtest_add_func("/simt/preempt/request/light", test_request_light);
    qtest_add_func("/simt/preempt/request/subgrid-switch",
                   test_request_subgrid_switch);
    qtest_add_func("/simt/preempt/request/subgrid-flush",
                   test_request_subgrid_flush);
    qtest_add_func("/simt/preempt/request/switch-at-warp-sync",
                   test_request_switch_wsync);
    qtest_add_func("/simt/preempt/request/light-at-warp-sync",
                   test_request_light_wsync);
    qtest_add_func("/simt/preempt/request/resident-counts-draining-blocks",
                   test_resident_draining);
    qtest_add_func("/simt/preempt/request/active-cycles-stop-while-suspended",
                   test_active_cycles_suspended);
    qtest_add_func("/simt/preempt/selective/saved-at-points-results-right",
                   test_selective_saved_at_points);
    qtest_add_func("/simt/preempt/selective/no-points-stops-within-bound",
                   test_selective_no_points_bounded);
    qtest_add_func("/simt/preempt/flush/wasted-is-what-blocks-executed",
                   test_flush_wasted_is_executed);
    qtest_add_func("/simt/preempt/save-area/small", test_save_area_small);
    qtest_add_func("/simt/preempt/save-area/unmapped",
                   test_save_area_unmapped);
    qtest_add_func("/simt/preempt/save-area/corrupt", test_save_area_corrupt);
    qtest_add_func("/simt/preempt/save-area/system", test_save_area_sys);
    qtest_add_func("/simt/preempt/timeslice", test_timeslice);
    qtest_add_func("/simt/preempt/timeline", test_timeline);
    for (size_t i = 0; i < ARRAY_SIZE(shapes); i++) {
        if (rodinia_kernel(shapes[i].kernel)) {
            g_autofree char *path = g_strdup_printf(
                "/simt/preempt/rodinia/%s/results-match-host-alone-and-"
                "preempted", shapes[i].name);

            qtest_add_data_func(path, &shapes[i], test_rodinia);
        }
    }
    qtest_add_func("/simt/preempt/auto/queued-saves-fewer-events-past-bound",
                   test_queued_saves);
    qtest_add_func("/simt/preempt/oracle/drains-a-block-the-table-says-"
                   "ends-in-bound", test_oracle_drain_time);
    qtest_add_func("/simt/preempt/oracle/unreadable-table-or-too-many-"
                   "entries-turn-it-off", test_oracle_registers);
    qtest_add_func("/simt/preempt/priority/room-refilled-while-saves-are-"
                   "written", test_priority_refill_while_saves_written);
    qtest_add_func("/simt/preempt/chimera/plus-drains-more-on-seed000-"
                   "estimate", test_chimera_plus);
    qtest_add_func("/simt/preempt/own-kernels/example-results-match-alone-"
                   "and-preempted", test_own_kernels);
    qtest_add_func("/simt/preempt/own-kernels/description-errors-name-file-"
                   "and-line", test_own_kernels_errors);
    return g_test_run();
}
