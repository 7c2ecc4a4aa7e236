/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * QTest for migrating the simt device in the middle of its work: sample
 * kernels and copies on four queues, and a long low-priority kernel
 * preempted again and again by high-priority ones in each preemption
 * mode.  Each scenario runs once without migration, then again with the
 * machine migrated (to a file, into a second QEMU) at random points of
 * that run; the results, the completion records with their cycle counts,
 * the event log, the timeline and the counters must be identical.
 * Deterministic: the virtual clock is stepped, the points come from a
 * fixed seed.
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/host-utils.h"
#include "qemu/units.h"
#include "simt-qtest.h"

/* Guest RAM: the event log, the timeline, a copy's source. */
#define LOG_ADDR            0x400000
#define LOG_SIZE            256
#define TRACE_ADDR          0x500000
#define TRACE_SIZE          16384
#define HOST_SRC            0x1000000
#define COPY_BYTES          (3 * MiB + 123)

/* VRAM: save area of context 0, its page table. */
#define VRAM_SAVE           0x2800000
#define SAVE_SIZE           (16 * MiB)
#define VRAM_PT             0x7f00000

#define VRAM_BYTES          (128 * MiB)
#define PROPS               "vram-size=128M"
/* The clock advances in steps of this many ns between actions. */
#define STEP_NS             20000

#define LP_BLOCKS           384
#define LP_THREADS          128
#define HP_N                (4 * 128)
#define HP_RUNS             12
#define SAMPLE_N            40000

/* One scenario: what it launches, and in which mode it is preempted. */
typedef struct Scenario {
    const char *name;
    int mode;                   /* context 0's preemption mode; -1: samples */
    bool translated;            /* context 0 through a page table */
    unsigned migrations;
    uint32_t pp_drain;          /* context 0's PP_DRAIN */
} Scenario;

/* What a run leaves behind, part by part. */
typedef struct Outcome {
    GPtrArray *names;
    GPtrArray *parts;           /* GByteArray */
    int64_t end_ns;
    unsigned migrations;        /* done */
    uint32_t events;            /* preemption events */
    /*
     * Translations: the destination decodes code again, and in a
     * translated context its fetches are translations too.
     */
    uint32_t translations;
    uint64_t cycle0;            /* device cycle at the start */
    uint32_t mhz;
    struct simt_preempt_event ev[LOG_SIZE];
} Outcome;

/* A submitted command whose completion record belongs to the outcome. */
typedef struct Cmd {
    unsigned q;
    uint32_t idx;
} Cmd;

typedef struct Run {
    Dev *d;
    const Scenario *sc;
    Cmd cmds[64];
    unsigned ncmds;
    uint32_t bufs[32], buf_len[32];
    unsigned nbufs;
    int64_t t0;                 /* virtual time the scenario started */
    int64_t now;                /* virtual time now */
    /* migration points (ns after t0), ascending; NULL: no migration */
    const int64_t *mig_at;
    unsigned nmig, next_mig;
} Run;

static void add_part(Outcome *o, const char *name, const void *data,
                     size_t len)
{
    GByteArray *b = g_byte_array_sized_new(len);

    g_byte_array_append(b, data, len);
    g_ptr_array_add(o->names, g_strdup(name));
    g_ptr_array_add(o->parts, b);
}

static void outcome_free(Outcome *o)
{
    g_ptr_array_free(o->names, true);
    g_ptr_array_free(o->parts, true);
}

static uint32_t buffer(Run *r, const void *data, size_t len)
{
    uint32_t addr = vram_alloc(r->d, data, len);

    g_assert_cmpuint(r->nbufs, <, G_N_ELEMENTS(r->bufs));
    r->bufs[r->nbufs] = addr;
    r->buf_len[r->nbufs++] = len;
    return addr;
}

static void note_cmd(Run *r, unsigned q, uint32_t idx)
{
    g_assert_cmpuint(r->ncmds, <, G_N_ELEMENTS(r->cmds));
    r->cmds[r->ncmds++] = (Cmd) { q, idx };
}

/* Step the clock by @ns, migrating at every point that falls inside. */
static void advance(Run *r, int64_t ns)
{
    int64_t end = r->now + ns;

    while (r->mig_at && r->next_mig < r->nmig &&
           r->t0 + r->mig_at[r->next_mig] < end) {
        int64_t at = r->t0 + r->mig_at[r->next_mig++];

        if (at > r->now) {
            r->now = qtest_clock_step(r->d->qts, at - r->now);
        }
        dev_migrate(r->d, r->now);
    }
    r->now = qtest_clock_step(r->d->qts, end - r->now);
}

static bool all_done(Run *r)
{
    for (unsigned i = 0; i < r->ncmds; i++) {
        if (!queue_done(r->d, r->cmds[i].q, r->cmds[i].idx)) {
            return false;
        }
    }
    return true;
}

static void copy_from_host(Run *r, unsigned q, uint32_t dst)
{
    struct simt_cmd_copy c = {
        .opcode = SIMT_CMD_COPY, .flags = SIMT_CMDF_SRC_HOST,
        .src = HOST_SRC, .dst = dst, .size = COPY_BYTES,
    };

    note_cmd(r, q, submit(r->d, q, &c));
}

/* Context 0 sees VRAM through an identity map of superpages. */
static void translate(Run *r)
{
    uint32_t pt[1024] = { 0 };

    for (uint32_t i = 0; i < VRAM_BYTES / SIMT_SUPERPAGE_SIZE; i++) {
        pt[i] = cpu_to_le32((i << 10) << SIMT_PTE_PPN_SHIFT | SIMT_PTE_V |
                            SIMT_PTE_R | SIMT_PTE_W | SIMT_PTE_X);
    }
    qpci_memwrite(r->d->dev, r->d->vram, VRAM_PT, pt, sizeof(pt));
    wr(r->d, SIMT_CTX_REG(0, SIMT_CREG_PT),
       SIMT_PT_SV32 | VRAM_PT >> SIMT_PAGE_SHIFT);
}

/* Sample kernels on queues 0..2 and a copy on queue 3, all at once. */
static void start_samples(Run *r)
{
    g_autofree float *a = g_new(float, SAMPLE_N);
    g_autofree float *b = g_new(float, SAMPLE_N);
    g_autofree uint8_t *src = g_malloc(COPY_BYTES);
    uint32_t da, db, dc, dd, ds, dcopy;

    for (int i = 0; i < SAMPLE_N; i++) {
        a[i] = i * 0.5f;
        b[i] = 1000.0f / (i + 1);
    }
    for (uint32_t i = 0; i < COPY_BYTES; i++) {
        src[i] = i * 7 + (i >> 12);
    }
    qtest_memwrite(r->d->qts, HOST_SRC, src, COPY_BYTES);
    da = buffer(r, a, SAMPLE_N * 4);
    db = buffer(r, b, SAMPLE_N * 4);
    dc = buffer(r, NULL, SAMPLE_N * 4);
    dd = buffer(r, NULL, 4096 * 4);
    ds = buffer(r, NULL, 16 * 256 * 4);
    dcopy = buffer(r, NULL, COPY_BYTES);
    qwr(r->d, 1, SIMT_QREG_PRIORITY, 2);
    note_cmd(r, 0, launch(r->d, 0, &(Launch) {
        .kernel = "vecadd", .grid = { SAMPLE_N / 128 }, .block = { 128 },
        .args = { da, db, dc, SAMPLE_N },
    }));
    note_cmd(r, 1, launch(r->d, 1, &(Launch) {
        .kernel = "divergent", .grid = { 32 }, .block = { 128 },
        .args = { dd, 4000 },
    }));
    note_cmd(r, 2, launch(r->d, 2, &(Launch) {
        .kernel = "spin", .grid = { 16 }, .block = { 256 },
        .args = { ds, 300 },
    }));
    note_cmd(r, 2, launch(r->d, 2, &(Launch) {
        .kernel = "saxpy", .grid = { 24 }, .block = { 128 },
        .args = { SAMPLE_N, 0x3fc00000, da, db },
    }));
    copy_from_host(r, 3, dcopy);
    note_cmd(r, 0, launch(r->d, 0, &(Launch) {
        .kernel = "vecadd", .grid = { SAMPLE_N / 128 }, .block = { 128 },
        .args = { dc, db, da, SAMPLE_N },
    }));
}

static void start_preempt(Run *r)
{
    uint32_t out = buffer(r, NULL, LP_BLOCKS * LP_THREADS * 4);
    uint32_t hist = buffer(r, NULL, 64 * 4);

    use_image(r->d, "preempt");
    qwr(r->d, 1, SIMT_QREG_PRIORITY, SIMT_MAX_PRIORITY);
    wr(r->d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_BASE), VRAM_SAVE);
    wr(r->d, SIMT_CTX_REG(0, SIMT_CREG_SAVE_SIZE), SAVE_SIZE);
    wr(r->d, SIMT_CTX_REG(0, SIMT_CREG_PREEMPT_MODE), r->sc->mode);
    wr(r->d, SIMT_CTX_REG(0, SIMT_CREG_PP_DRAIN), r->sc->pp_drain);
    wr(r->d, SIMT_REG_PREEMPT_BOUND, 2000);
    note_cmd(r, 0, launch(r->d, 0, &(Launch) {
        .kernel = "lp_mix", .grid = { LP_BLOCKS }, .block = { LP_THREADS },
        .args = { out, hist, 4 },
    }));
}

/* One high-priority kernel per step until HP_RUNS are queued. */
static void step_preempt(Run *r, unsigned step)
{
    uint32_t buf;

    if (step % 3 || step / 3 >= HP_RUNS) {
        return;
    }
    buf = buffer(r, NULL, HP_N * 4);
    note_cmd(r, 1, launch(r->d, 1, &(Launch) {
        .kernel = "hp_fill", .grid = { HP_N / 128 }, .block = { 128 },
        .args = { buf, HP_N, step },
    }));
}

static void collect(Run *r, Outcome *o)
{
    static const struct {
        const char *name;
        uint32_t reg;
    } regs[] = {
        { "BLOCKS_DONE", SIMT_REG_BLOCKS_DONE },
        { "PEV_COUNT", SIMT_REG_PEV_COUNT },
        { "PREEMPT_EVENTS", SIMT_REG_PREEMPT_EVENTS },
        { "PREEMPT_SAVED", SIMT_REG_PREEMPT_SAVED },
        { "PREEMPT_RESTORED", SIMT_REG_PREEMPT_RESTORED },
        { "PREEMPT_WASTED", SIMT_REG_PREEMPT_WASTED },
        { "PEV_LATENCY", SIMT_REG_PEV_LATENCY },
        { "PEV_DONE_LATENCY", SIMT_REG_PEV_DONE_LATENCY },
        { "TRACE_COUNT", SIMT_REG_TRACE_COUNT },
        { "IRQ_COUNT", SIMT_REG_IRQ_COUNT },
        { "MMU_FAULTS", SIMT_REG_MMU_FAULTS },
        { "POLICY_ERRORS", SIMT_REG_POLICY_ERRORS },
    };
    Dev *d = r->d;
    uint32_t n;

    for (unsigned i = 0; i < r->ncmds; i++) {
        struct simt_completion rec;
        char name[64];

        read_record(d, r->cmds[i].q, r->cmds[i].idx, &rec);
        g_assert_cmpuint(rec.status, ==, SIMT_QERR_NONE);
        snprintf(name, sizeof(name), "record of queue %u command %u",
                 r->cmds[i].q, r->cmds[i].idx);
        add_part(o, name, &rec, sizeof(rec));
    }
    for (unsigned i = 0; i < r->nbufs; i++) {
        g_autofree uint8_t *buf = g_malloc(r->buf_len[i]);
        char name[64];

        vram_read(d, r->bufs[i], buf, r->buf_len[i]);
        snprintf(name, sizeof(name), "VRAM buffer %u (0x%x)", i, r->bufs[i]);
        add_part(o, name, buf, r->buf_len[i]);
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(regs); i++) {
        uint32_t v = rd(d, regs[i].reg);

        add_part(o, regs[i].name, &v, sizeof(v));
    }
    for (unsigned q = 0; q < d->nqueues; q++) {
        static const struct {
            unsigned reg;
            const char *name;
        } counters[] = {
            { SIMT_QREG_ACTIVE_CYCLES, "a queue's ACTIVE_CYCLES" },
            { SIMT_QREG_KERNEL_CYCLES, "a queue's KERNEL_CYCLES" },
            { SIMT_QREG_COPY_CYCLES, "a queue's COPY_CYCLES" },
        };

        for (unsigned i = 0; i < G_N_ELEMENTS(counters); i++) {
            uint32_t v = qrd(d, q, counters[i].reg);

            add_part(o, counters[i].name, &v, sizeof(v));
        }
    }
    n = MIN(rd(d, SIMT_REG_PEV_COUNT), LOG_SIZE);
    if (n) {
        size_t len = n * sizeof(struct simt_preempt_event);
        g_autofree uint8_t *log = g_malloc(len);

        qtest_memread(d->qts, LOG_ADDR, log, len);
        add_part(o, "event log", log, len);
    }
    n = MIN(rd(d, SIMT_REG_TRACE_COUNT), TRACE_SIZE);
    if (n) {
        g_autofree uint8_t *t = g_malloc(n * sizeof(struct simt_trace_record));

        qtest_memread(d->qts, TRACE_ADDR, t,
                      n * sizeof(struct simt_trace_record));
        add_part(o, "timeline", t, n * sizeof(struct simt_trace_record));
    }
}

/* Run scenario @sc, migrating at @mig_at (or not); what it left. */
static void run(const Scenario *sc, const int64_t *mig_at, unsigned nmig,
                Outcome *o)
{
    Run r = { .sc = sc, .mig_at = mig_at, .nmig = nmig };

    o->names = g_ptr_array_new_with_free_func(g_free);
    o->parts = g_ptr_array_new_with_free_func(
        (GDestroyNotify)g_byte_array_unref);
    r.d = dev_start(PROPS);
    if (sc->translated) {
        translate(&r);
    }
    wr(r.d, SIMT_REG_PEV_LOG_LO, LOG_ADDR);
    wr(r.d, SIMT_REG_PEV_LOG_HI, 0);
    wr(r.d, SIMT_REG_PEV_LOG_SIZE, LOG_SIZE);
    wr(r.d, SIMT_REG_TRACE_LO, TRACE_ADDR);
    wr(r.d, SIMT_REG_TRACE_HI, 0);
    wr(r.d, SIMT_REG_TRACE_SIZE, TRACE_SIZE);
    if (sc->mode < 0) {
        start_samples(&r);
    } else {
        start_preempt(&r);
    }
    /* Setting up may have stepped the clock: take it from here. */
    r.t0 = r.now = qtest_clock_step(r.d->qts, 1);
    o->cycle0 = rd(r.d, SIMT_REG_CYCLE_LO);
    o->cycle0 |= (uint64_t)rd(r.d, SIMT_REG_CYCLE_HI) << 32;
    o->mhz = rd(r.d, SIMT_REG_CLOCK_MHZ);
    for (unsigned step = 1; !all_done(&r); step++) {
        g_assert_cmpint(r.now - r.t0, <,
                        WAIT_LIMIT_NS);
        advance(&r, STEP_NS);
        if (sc->mode >= 0) {
            step_preempt(&r, step);
        }
    }
    o->end_ns = r.now - r.t0;
    o->migrations = r.next_mig;
    o->events = MIN(rd(r.d, SIMT_REG_PEV_COUNT), LOG_SIZE);
    o->translations = rd(r.d, SIMT_REG_TLB_HITS) +
                      rd(r.d, SIMT_REG_TLB_MISSES);
    qtest_memread(r.d->qts, LOG_ADDR, o->ev, o->events * sizeof(o->ev[0]));
    collect(&r, o);
    dev_stop(r.d);
}

static uint32_t rng_state;

static uint32_t rng(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static int cmp_ns(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return (x > y) - (x < y);
}

static void test_scenario(gconstpointer data)
{
    const Scenario *sc = data;
    g_autofree int64_t *at = g_new(int64_t, sc->migrations);
    g_autofree Outcome *ref = g_new0(Outcome, 1);
    g_autofree Outcome *mig = g_new0(Outcome, 1);
    unsigned in_event = 0;

    run(sc, NULL, 0, ref);
    /*
     * Points anywhere in the run, at any nanosecond, hence any cycle;
     * with preemption, every other one at a random cycle inside one of
     * the reference run's preemption events.
     */
    rng_state = 0x5eed + sc->mode * 2 + sc->translated;
    for (unsigned i = 0; i < sc->migrations; i++) {
        if (sc->mode >= 0 && i % 2 && ref->events) {
            const struct simt_preempt_event *e = &ref->ev[rng() %
                                                          ref->events];
            uint64_t req = le64_to_cpu(e->req_cycle);
            uint64_t c = req + rng() % MAX(le64_to_cpu(e->done_cycle) - req,
                                           1);

            at[i] = muldiv64(c - ref->cycle0, 1000, ref->mhz);
        } else {
            at[i] = 1 + rng() % (ref->end_ns - 1);
        }
    }
    qsort(at, sc->migrations, sizeof(*at), cmp_ns);
    for (unsigned i = 0; i < sc->migrations; i++) {
        uint64_t c = ref->cycle0 + muldiv64(at[i], ref->mhz, 1000);

        for (uint32_t e = 0; e < ref->events; e++) {
            in_event += c >= le64_to_cpu(ref->ev[e].req_cycle) &&
                        c < le64_to_cpu(ref->ev[e].done_cycle);
        }
    }
    run(sc, at, sc->migrations, mig);
    g_test_message("%s: %u migrations in %" PRId64 " ns of device work, "
                   "%u of them during one of %u preemption events; "
                   "%u parts compared; %u translations, %u after migrating",
                   sc->name, sc->migrations, ref->end_ns, in_event,
                   ref->events, ref->parts->len, ref->translations,
                   mig->translations);
    /* The preemption scenarios preempt many times, and migrate mid-event. */
    if (sc->mode >= 0) {
        g_assert_cmpuint(ref->events, >=, HP_RUNS / 2);
        g_assert_cmpuint(in_event, >, 0);
    }
    g_assert_cmpint(mig->end_ns, ==, ref->end_ns);
    g_assert_cmpuint(mig->translations, >=, ref->translations);
    g_assert_cmpuint(ref->translations > 0, ==, sc->translated);
    g_assert_cmpuint(mig->migrations, ==, sc->migrations);
    g_assert_cmpuint(mig->parts->len, ==, ref->parts->len);
    for (unsigned i = 0; i < ref->parts->len; i++) {
        GByteArray *a = g_ptr_array_index(ref->parts, i);
        GByteArray *b = g_ptr_array_index(mig->parts, i);

        if (a->len != b->len || memcmp(a->data, b->data, a->len)) {
            g_test_message("differs after migration: %s",
                           (char *)g_ptr_array_index(ref->names, i));
        }
        g_assert_cmpmem(b->data, b->len, a->data, a->len);
    }
    outcome_free(ref);
    outcome_free(mig);
}

static const Scenario scenarios[] = {
    { "samples-and-copies", -1, false, 5 },
    { "samples-and-copies-translated", -1, true, 5 },
    { "preempt-drain", SIMT_PMODE_DRAIN, false, 8 },
    { "preempt-flush", SIMT_PMODE_FLUSH, false, 8 },
    { "preempt-switch", SIMT_PMODE_SWITCH, false, 8 },
    { "preempt-light", SIMT_PMODE_LIGHT, false, 8 },
    /* Blocks running on to preemption points when the machine moves */
    { "preempt-selective", SIMT_PMODE_LIGHT, false, 8, 20000 },
    { "preempt-auto", SIMT_PMODE_AUTO, true, 8 },
};

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    if (!simt_qtest_init()) {
        return g_test_run();
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(scenarios); i++) {
        g_autofree char *path = g_strdup_printf(
            "/simt/migrate/%s/identical-after-%u-migrations-at-random-cycles",
            scenarios[i].name, scenarios[i].migrations);

        qtest_add_data_func(path, &scenarios[i], test_scenario);
    }
    return g_test_run();
}
