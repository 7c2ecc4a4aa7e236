/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt: the save-area codec on hand-built block states: full and
 * lightweight round trips, compression costs and the group size rule,
 * and hostile records (targeted corruptions, truncations, random bytes).
 */

#include "unit-harness.h"
#include "hw/simt/simt-save.h"

#define LIVE_BASE   0x1000u
#define LIVE_COUNT  16

/* One block's storage and launch */
typedef struct Fix {
    SimtLaunch l;
    SimtBlock b;
    SimtWarp *warps;
    uint8_t *shared;
} Fix;

static uint32_t rng_state = 1;

static uint32_t rnd(void)
{
    /* xorshift32: deterministic, good enough for test data */
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static void fix_init(Fix *f, unsigned bx, unsigned by, unsigned bz,
                     uint32_t shared_size)
{
    SimtBlockDesc desc = { .block_idx = { 1, 0, 0 }, .local_addr = T_LOCAL };

    memset(&f->l, 0, sizeof(f->l));
    f->l.entry = LIVE_BASE;
    f->l.code_base = LIVE_BASE;
    f->l.code_size = 4 * LIVE_COUNT;
    f->l.block_dim[0] = bx;
    f->l.block_dim[1] = by;
    f->l.block_dim[2] = bz;
    f->l.grid_dim[0] = f->l.grid_dim[1] = f->l.grid_dim[2] = 2;
    f->l.shared_size = shared_size;
    f->l.local_size = 16;
    assert(!simt_launch_check(&f->l));
    f->warps = calloc(SIMT_MAX_BLOCK_WARPS, sizeof(*f->warps));
    f->shared = calloc(1, shared_size + 1);
    assert(f->warps && f->shared);
    simt_block_init(&f->b, &f->l, &desc, NULL, NULL, f->warps, f->shared);
}

/* A second block of the same launch, its storage full of garbage */
static void fix_twin(Fix *t, const Fix *f)
{
    SimtBlockDesc desc = f->b.st.desc;

    t->l = f->l;
    t->warps = malloc(SIMT_MAX_BLOCK_WARPS * sizeof(*t->warps));
    t->shared = malloc(f->l.shared_size + 1);
    assert(t->warps && t->shared);
    desc.smid = 3;
    simt_block_init(&t->b, &t->l, &desc, NULL, NULL, t->warps, t->shared);
    memset(t->warps, 0xa5, f->b.st.nwarps * sizeof(*t->warps));
    t->b.st.fault = SIMT_FAULT_ACCESS;
    t->b.st.fault_pc = 0x1234;
    t->b.st.status = SIMT_FAULTED;
    t->b.st.cycle = 777;
}

static void fix_free(Fix *f)
{
    free(f->warps);
    free(f->shared);
}

/* Lanes of warp @wi that hold threads of the block */
static uint32_t threads(const Fix *f, unsigned wi)
{
    uint32_t n = f->b.st.nthreads - wi * SIMT_WARP_SIZE;

    return n >= SIMT_WARP_SIZE ? SIMT_FULL_MASK : (1u << n) - 1;
}

/*
 * Fill @f with a state of every kind of register: per group of @pag
 * lanes uniform, strided, random, or one value for the whole warp;
 * random masks of exited, waiting and reserving lanes, pcs from @pcs
 * (lane -> pc) and counters.
 */
static void fill_state(Fix *f, unsigned pag, uint32_t (*pcs)(unsigned,
                                                             unsigned))
{
    SimtBlockState *st = &f->b.st;
    unsigned wi, n, lane, g;

    st->nexited = st->nwaiting = 0;
    for (wi = 0; wi < st->nwarps; wi++) {
        SimtWarp *w = &f->warps[wi];
        uint32_t whole = rnd();

        for (n = 1; n < 64; n++) {
            uint32_t *v = n < 32 ? w->x[n] : w->f[n - 32];

            for (g = 0; g < SIMT_WARP_SIZE; g += pag) {
                uint32_t base = rnd(), stride = rnd() | 1;

                for (lane = g; lane < g + pag; lane++) {
                    switch ((n + wi) % 4) {
                    case 0:
                        v[lane] = base;
                        break;
                    case 1:
                        v[lane] = base + (lane - g) * stride;
                        break;
                    case 2:
                        v[lane] = rnd();
                        break;
                    default:
                        v[lane] = whole;
                        break;
                    }
                }
            }
        }
        for (lane = 0; lane < SIMT_WARP_SIZE; lane++) {
            w->pc[lane] = pcs(wi, lane);
            w->fcsr[lane] = rnd() & 0xff;
            w->resv_addr[lane] = rnd();
            w->resv_val[lane] = rnd();
        }
        /* warp 0 keeps lane 0 runnable: a block must have a live thread */
        w->exited |= rnd() & rnd() & ~(wi ? 0 : 1u);
        w->waiting = rnd() & ~w->exited & ~(wi ? 0 : 1u);
        w->wsync = rnd() & ~(w->exited | w->waiting) & ~(wi ? 0 : 1u);
        w->resv_mask = wi % 2 ? rnd() & ~w->exited : 0;
        w->instret = (uint64_t)rnd() << 32 | rnd();
        st->nexited += __builtin_popcount(w->exited & threads(f, wi));
        st->nwaiting += __builtin_popcount(w->waiting);
    }
    st->barriers = rnd();
    st->wrote_global = 1;
    st->warp_insns = (uint64_t)rnd() << 20;
    st->thread_insns = (uint64_t)rnd() << 24;
    st->cycle = 99;
    for (n = 0; n < f->l.shared_size; n++) {
        f->shared[n] = rnd();
    }
}

static uint32_t pc_entry(unsigned wi, unsigned lane)
{
    return LIVE_BASE;
}

static const SimtSaveSpec full_all = {
    .format = SIMT_SAVE_FULL, .pag = 32,
};

static uint8_t *encode(const Fix *f, const SimtSaveSpec *spec, size_t *len,
                       SimtSaveStats *stats)
{
    size_t size = simt_save_size(&f->b, spec);
    uint8_t *rec = malloc(size);

    assert(size && rec);
    *len = simt_save_encode(&f->b, 1, spec, rec, size, stats);
    assert(*len == size);
    return rec;
}

/*
 * Does @t hold @f's state, with register n of warp w stored iff bit n of
 * @stored[w] is set (dead registers must read 0)?  Shared memory is
 * compared if @shared.
 */
static bool same_state(const Fix *t, const Fix *f, const uint64_t *stored,
                       bool shared)
{
    const SimtBlockState *a = &t->b.st, *e = &f->b.st;
    unsigned wi, n;

    if (a->nexited != e->nexited || a->nwaiting != e->nwaiting ||
        a->barriers != e->barriers || a->wrote_global != e->wrote_global ||
        a->warp_insns != e->warp_insns ||
        a->thread_insns != e->thread_insns ||
        a->status != SIMT_RUNNING || a->fault || a->fault_pc ||
        a->cycle != 777 || a->desc.smid != 3 ||
        a->desc.local_addr != e->desc.local_addr) {
        printf("# block state differs\n");
        return false;
    }
    for (wi = 0; wi < e->nwarps; wi++) {
        SimtWarp want = f->warps[wi];
        const SimtWarp *got = &t->warps[wi];

        for (n = 1; n < 64; n++) {
            uint32_t *v = n < 32 ? want.x[n] : want.f[n - 32];

            if (!(stored[wi] >> n & 1)) {
                memset(v, 0, SIMT_WARP_SIZE * 4);
            }
        }
        memset(want.x[0], 0, sizeof(want.x[0]));
        if (!want.resv_mask) {
            memset(want.resv_addr, 0, sizeof(want.resv_addr));
            memset(want.resv_val, 0, sizeof(want.resv_val));
        }
        if (memcmp(&want, got, sizeof(want))) {
            printf("# warp %u differs\n", wi);
            return false;
        }
    }
    return !shared || !memcmp(t->shared, f->shared, f->l.shared_size);
}

static void test_pag_rule(void)
{
    static const struct {
        uint32_t dim[3], pag;
    } cases[] = {
        { { 1, 32, 1 }, 32 }, { { 2, 16, 1 }, 2 }, { { 4, 8, 2 }, 4 },
        { { 8, 8, 1 }, 8 }, { { 16, 16, 1 }, 16 }, { { 32, 1, 1 }, 32 },
        { { 64, 4, 1 }, 32 }, { { 3, 3, 3 }, 32 }, { { 6, 2, 1 }, 32 },
        { { 12, 4, 1 }, 32 }, { { 24, 2, 1 }, 32 }, { { 256, 1, 1 }, 32 },
    };
    unsigned i, bad = 0;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        SimtLaunch l = { .block_dim = { cases[i].dim[0], cases[i].dim[1],
                                        cases[i].dim[2] } };

        if (simt_save_pag(&l) != cases[i].pag) {
            printf("# %ux%ux%u: pag %u, want %u\n", l.block_dim[0],
                   l.block_dim[1], l.block_dim[2], simt_save_pag(&l),
                   cases[i].pag);
            bad++;
        }
    }
    ok(!bad, "pag: block_dim[0] if a power of two 2..16, else 32");
}

static void test_full_roundtrip(void)
{
    static const uint32_t masks[][2] = {
        { 0, 0 }, { 0x0000fc06u, 0x00000301u }, { 0xffffffffu, 0 },
        { 0, 0x80000000u },
    };
    unsigned m;

    for (m = 0; m < 4; m++) {
        SimtSaveSpec spec = {
            .format = SIMT_SAVE_FULL, .pag = 32,
            .int_regs = masks[m][0], .fp_regs = masks[m][1],
        };
        uint64_t used = masks[m][0] | (uint64_t)masks[m][1] << 32;
        uint64_t stored[SIMT_MAX_BLOCK_WARPS];
        SimtSaveStats stats;
        size_t len, want_len;
        uint8_t *rec;
        const char *err;
        unsigned wi, nregs;
        Fix f, t;

        fix_init(&f, 20, 5, 1, 100);
        fill_state(&f, 4, pc_entry);
        used = (used ? used : ~(uint64_t)0) & ~(uint64_t)1;
        nregs = __builtin_popcountll(used);
        for (wi = 0; wi < f.b.st.nwarps; wi++) {
            stored[wi] = used;
        }
        rec = encode(&f, &spec, &len, &stats);
        fix_twin(&t, &f);
        err = simt_save_decode(&t.b, 1, rec, len);
        want_len = 64 + f.b.st.nwarps * (48 + (nregs + 2) * 128) + 100;
        for (wi = 0; wi < f.b.st.nwarps; wi++) {
            want_len += f.warps[wi].resv_mask ? 256 : 0;
        }
        ok(!err && same_state(&t, &f, stored, true),
           "full round trip, %u registers used%s%s", nregs,
           err ? ": " : "", err ? err : "");
        ok(len == want_len && stats.entries[SIMT_SAVE_RAW] ==
           f.b.st.nwarps * (nregs + 2) &&
           stats.entries[SIMT_SAVE_DEAD] == f.b.st.nwarps * (63 - nregs) &&
           !stats.entries[SIMT_SAVE_UNIFORM] &&
           !stats.entries[SIMT_SAVE_STRIDED] && stats.shared_bytes == 100 &&
           stats.reg_bytes == len - 64 - 48 * f.b.st.nwarps - 100,
           "full record: %zu bytes (want %zu), stats agree", len, want_len);
        free(rec);
        fix_free(&t);
        fix_free(&f);
    }
}

/*
 * Light records, pcs chosen per warp: warp 0 converged inside the table,
 * warp 1 diverged (some lanes exited at a third pc), warp 2 with one
 * lane outside the table, warp 3 misaligned, warp 4 entirely exited,
 * warp 5 waiting at a barrier.
 */
static uint32_t pc_light(unsigned wi, unsigned lane)
{
    switch (wi) {
    case 0:
        return LIVE_BASE + 4 * 2;
    case 1:
        return LIVE_BASE + 4 * (lane < 16 ? 3 : lane < 24 ? 7 : 5);
    case 2:
        return lane == 9 ? LIVE_BASE + 4 * LIVE_COUNT : LIVE_BASE + 4;
    case 3:
        return lane == 30 ? LIVE_BASE + 2 : LIVE_BASE + 4;
    default:
        return LIVE_BASE + 4 * 9;
    }
}

static void light_state(Fix *f, unsigned pag)
{
    /* exited lanes per warp: none of those whose pc matters */
    static const uint32_t exited[6] = {
        0x0000ff00u, 0x00ff0000u, 0x0000f000u, 0x0f000000u, SIMT_FULL_MASK,
        0,
    };
    unsigned wi;

    fill_state(f, pag, pc_light);
    f->b.st.nexited = f->b.st.nwaiting = 0;
    for (wi = 0; wi < 6; wi++) {
        SimtWarp *w = &f->warps[wi];

        w->exited = exited[wi];
        w->waiting = wi == 5 ? 0xfffffff0u : w->waiting & ~w->exited;
        w->wsync &= ~(w->exited | w->waiting);
        w->resv_mask &= ~w->exited;
        f->b.st.nexited += __builtin_popcount(w->exited);
        f->b.st.nwaiting += __builtin_popcount(w->waiting);
    }
}

static void test_light_roundtrip(void)
{
    static const uint32_t masks[][2] = {
        { 0, 0 }, { 0x00fff0f6u, 0x0000ff0fu },
    };
    uint64_t live[LIVE_COUNT];
    unsigned i, m, wi, nlive, bad = 0;

    for (i = 0; i < LIVE_COUNT; i++) {
        live[i] = (uint64_t)0x00000101u << i | (uint64_t)0x11u << (32 + i) |
                  1ull << 2;
    }
    for (m = 0; m < 2; m++) {
        uint64_t used = masks[m][0] | (uint64_t)masks[m][1] << 32;
        SimtSaveSpec spec = {
            .format = SIMT_SAVE_LIGHT, .pag = 8,
            .int_regs = masks[m][0], .fp_regs = masks[m][1],
            .live = live, .live_base = LIVE_BASE, .live_count = LIVE_COUNT,
        };
        uint64_t want[6] = {
            live[2], live[3] | live[5], ~(uint64_t)0, ~(uint64_t)0, 0,
            live[9],
        };
        uint64_t stored[SIMT_MAX_BLOCK_WARPS];
        SimtSaveStats stats;
        size_t len;
        uint8_t *rec;
        const char *err;
        Fix f, t;

        used = used ? used : ~(uint64_t)0;
        fix_init(&f, 8, 24, 1, 64);
        assert(f.b.st.nwarps == 6);
        light_state(&f, 8);
        for (wi = 0; wi < 6; wi++) {
            stored[wi] = want[wi] & used & ~(uint64_t)1;
        }
        rec = encode(&f, &spec, &len, &stats);
        fix_twin(&t, &f);
        err = simt_save_decode(&t.b, 1, rec, len);
        ok(!err && same_state(&t, &f, stored, true),
           "light round trip (%s): live registers kept, dead ones zero%s%s",
           m ? "some registers used" : "all used", err ? ": " : "",
           err ? err : "");
        nlive = 0;
        for (wi = 0; wi < 6; wi++) {
            nlive += 2 + __builtin_popcountll(stored[wi]);
        }
        ok(stats.entries[0] + stats.entries[1] + stats.entries[2] +
           stats.entries[3] == 65 * 6 &&
           stats.entries[SIMT_SAVE_DEAD] == 65 * 6 - nlive,
           "light record: dead entries are exactly the dead registers");
        free(rec);
        fix_free(&t);

        /* Without a live table every used register counts */
        spec.live = NULL;
        for (wi = 0; wi < 6; wi++) {
            stored[wi] = wi == 4 ? 0 : used & ~(uint64_t)1;
        }
        rec = encode(&f, &spec, &len, NULL);
        fix_twin(&t, &f);
        err = simt_save_decode(&t.b, 1, rec, len);
        bad += !!err || !same_state(&t, &f, stored, true);
        free(rec);
        fix_free(&t);

        /* Shared memory kept on the SM: the buffer is left alone */
        spec.keep_shared = true;
        rec = encode(&f, &spec, &len, &stats);
        fix_twin(&t, &f);
        memset(t.shared, 0x5a, 64);
        err = simt_save_decode(&t.b, 1, rec, len);
        for (i = 0; i < 64; i++) {
            bad += t.shared[i] != 0x5a;
        }
        bad += !!err || !same_state(&t, &f, stored, false) ||
               stats.shared_bytes || len % 4 ||
               rec[offsetof(struct simt_save_block, shared_bytes)];
        free(rec);
        fix_free(&t);
        fix_free(&f);
    }
    ok(!bad, "light round trips without a live table and keeping shared");
}

static void test_sizes(void)
{
    SimtSaveSpec spec = { .format = SIMT_SAVE_LIGHT, .pag = 4 };
    size_t size, got;
    uint8_t *buf;
    unsigned i, bad = 0;
    Fix f;

    fix_init(&f, 4, 20, 1, 37);
    fill_state(&f, 4, pc_entry);
    size = simt_save_size(&f.b, &spec);
    buf = malloc(size + 64);
    for (i = 0; i < 64; i++) {
        memset(buf, 0xee, size + 64);
        got = simt_save_encode(&f.b, 1, &spec, buf, size - 1 - i, NULL);
        bad += got != 0 || buf[0] != 0xee;
    }
    got = simt_save_encode(&f.b, 1, &spec, buf, size, NULL);
    for (i = 0; i < 64; i++) {
        bad += buf[size + i] != 0xee;
    }
    ok(size % 4 == 0 && got == size && !bad,
       "size() is what encode() writes; a smaller buffer gets nothing");
    spec.format = 0;
    bad = simt_save_size(&f.b, &spec) != 0 ||
          simt_save_encode(&f.b, 1, &spec, buf, size, NULL) != 0;
    spec.format = SIMT_SAVE_LIGHT;
    spec.pag = 3;
    bad += simt_save_size(&f.b, &spec) != 0;
    spec.pag = 0;
    bad += simt_save_size(&f.b, &spec) != 0;
    spec.pag = 64;
    bad += simt_save_size(&f.b, &spec) != 0;
    ok(!bad, "invalid spec (format 0, pag 0, 3, 64) encodes nothing");
    free(buf);
    fix_free(&f);
}

/*
 * Registers of one known shape each: the cost of storing one is the
 * record's growth when it alone is used.
 */
static void test_compression(void)
{
    static const unsigned pags[] = { 1, 2, 4, 8, 16, 32 };
    unsigned k, wi, lane;

    for (k = 0; k < 6; k++) {
        unsigned pag = pags[k], groups = 32 / pag, bad = 0;
        SimtSaveSpec spec = {
            .format = SIMT_SAVE_LIGHT, .pag = pag, .int_regs = 1,
        };
        SimtSaveStats stats, base_stats;
        size_t base, cost[6];
        unsigned r, want_x7, want_x6;
        Fix f, t;

        fix_init(&f, 64, 1, 1, 0);
        for (wi = 0; wi < 2; wi++) {
            SimtWarp *w = &f.warps[wi];

            for (lane = 0; lane < 32; lane++) {
                w->x[5][lane] = 100 + lane / pag * 7;
                /* stride g + 1 in group g: never uniform */
                w->x[6][lane] = lane / pag * 1000 +
                                lane % pag * (lane / pag + 1);
                w->x[7][lane] = rnd();
                w->x[8][lane] = 0x10000 - 4 * lane;
                /* near misses: one lane off in the last group */
                w->x[9][lane] = lane / pag * 3 + (lane % pag) * 5 +
                                (lane == 31);
                w->x[10][lane] = 42 + (lane == 31);
            }
        }
        free(encode(&f, &spec, &base, &base_stats));
        for (r = 5; r <= 10; r++) {
            spec.int_regs = 1u << r;
            cost[r - 5] = (simt_save_size(&f.b, &spec) - base) / 2;
        }
        bad += cost[0] != 4 * groups;
        bad += cost[1] != (pag == 1 ? 4 : 8) * groups;
        bad += cost[2] != 128;
        bad += cost[3] != (pag == 1 ? 128 : 8 * groups);
        bad += cost[4] != 128;
        bad += cost[5] != 128;
        if (bad) {
            printf("# pag %u: costs %zu %zu %zu %zu %zu %zu\n", pag,
                   cost[0], cost[1], cost[2], cost[3], cost[4], cost[5]);
        }
        ok(!bad, "pag %u: uniform costs %u words, strided %u, random or "
           "near misses 32", pag, groups, pag == 1 ? groups : 2 * groups);

        /*
         * pc and fcsr are uniform; x5 uniform, x6 strided, x7 random,
         * x9 and x10 near misses stored like x7
         */
        spec.int_regs = 0x6e0;
        want_x6 = pag == 1 ? SIMT_SAVE_UNIFORM : SIMT_SAVE_STRIDED;
        want_x7 = pag == 1 ? SIMT_SAVE_UNIFORM :
                  pag == 2 ? SIMT_SAVE_STRIDED : SIMT_SAVE_RAW;
        {
            size_t len;
            uint8_t *rec = encode(&f, &spec, &len, &stats);
            uint64_t stored[2] = { 0x6e0, 0x6e0 };
            unsigned want[4] = { 2 * 58, 2 * 3, 0, 0 };
            const char *err;

            want[want_x6] += 2;
            want[want_x7] += 2 * 3;
            fix_twin(&t, &f);
            err = simt_save_decode(&t.b, 1, rec, len);
            bad = memcmp(stats.entries, want, sizeof(want)) ||
                  stats.reg_bytes != len - 64 - 2 * 48 ||
                  base_stats.entries[SIMT_SAVE_UNIFORM] != 4 ||
                  base_stats.reg_bytes != 4 * 4 * groups;
            ok(!bad && !err && same_state(&t, &f, stored, false),
               "pag %u: stats count entries per pattern, record decodes",
               pag);
            free(rec);
            fix_free(&t);
        }
        fix_free(&f);
    }
}

/* Patch a 32-bit field of a record */
static void poke(uint8_t *rec, size_t off, uint32_t v)
{
    rec[off] = v;
    rec[off + 1] = v >> 8;
    rec[off + 2] = v >> 16;
    rec[off + 3] = v >> 24;
}

static uint32_t peek(const uint8_t *rec, size_t off)
{
    return rec[off] | rec[off + 1] << 8 | rec[off + 2] << 16 |
           (uint32_t)rec[off + 3] << 24;
}

/* Decode @len bytes of @rec from an exact-size copy, so overreads show */
static const char *decode_copy(const Fix *f, const uint8_t *rec, size_t len,
                               uint32_t block, Fix *t)
{
    uint8_t *copy = malloc(len ? len : 1);
    const char *err;

    memcpy(copy, rec, len);
    fix_twin(t, f);
    err = simt_save_decode(&t->b, block, copy, len);
    free(copy);
    return err;
}

/*
 * Is @rec rejected, for reason @why if that is not NULL?  A record made
 * bad in one way only must fail the check that guards against it.
 */
static bool rejects(const Fix *f, const uint8_t *rec, size_t len,
                    uint32_t block, const char *why)
{
    const char *err;
    Fix t;

    err = decode_copy(f, rec, len, block, &t);
    fix_free(&t);
    if (!err || (why && strcmp(err, why))) {
        printf("# want \"%s\", got \"%s\"\n", why ? why : "rejected",
               err ? err : "accepted");
        return false;
    }
    return true;
}

/* The decoder's reasons, and offsets of record fields */
#define BAD_PAG     "group size not a power of two from 1 to 32"
#define BAD_COUNT   "thread counts disagree with the warps"
#define BAD_FLAGS   "unknown flags or reserved bits set"
#define BAD_PATTERN "pattern of a nonexistent entry"
#define BAD_EXITED  "exited lane waiting or holding a reservation"
#define NO_PC       "pc or fcsr not stored"
#define BLKF(x) offsetof(struct simt_save_block, x)
#define WRPF(x) offsetof(struct simt_save_warp, x)

/* Offset of warp @wi's header in @rec, walking the entries before it */
static size_t warp_at(const uint8_t *rec, unsigned wi)
{
    unsigned pag = rec[BLKF(pag)], w, n;
    size_t pos = sizeof(struct simt_save_block);

    for (w = 0; w < wi; w++) {
        const uint8_t *h = rec + pos;

        pos += sizeof(struct simt_save_warp) +
               (peek(h, WRPF(resv_mask)) ? 256 : 0);
        for (n = 0; n < SIMT_SAVE_ENTRIES; n++) {
            unsigned p = peek(h, WRPF(pattern) + n / 16 * 4) >>
                         (n % 16 * 2) & 3;

            pos += p == SIMT_SAVE_UNIFORM ? 4 * 32 / pag :
                   p == SIMT_SAVE_STRIDED ? 8 * 32 / pag :
                   p == SIMT_SAVE_RAW ? 128 : 0;
        }
    }
    return pos;
}

static void test_hostile_fields(void)
{
    SimtSaveSpec spec = { .format = SIMT_SAVE_LIGHT, .pag = 4 };
    SimtSaveSpec full1 = { .format = SIMT_SAVE_FULL, .pag = 1 };
    size_t len, len1, w0, w1, trunc;
    uint8_t *rec, *rec1, *m;
    uint32_t v, ex, wt, waiting = 0;
    unsigned bad = 0;
    Fix f, t;

    /* 40 threads: warp 1 has lanes beyond the block; 42 shared: padding */
    fix_init(&f, 4, 10, 1, 42);
    fill_state(&f, 4, pc_entry);
    ex = f.warps[1].exited;
    wt = f.warps[1].waiting;
    assert(f.warps[0].waiting && f.warps[0].wsync);
    f.warps[1].resv_mask |= 1u << __builtin_ctz(~ex);
    rec = encode(&f, &spec, &len, NULL);
    rec1 = encode(&f, &full1, &len1, NULL);
    m = malloc((len > len1 ? len : len1) + 4);
    w0 = warp_at(rec, 0);
    w1 = warp_at(rec, 1);
    assert(peek(rec, w1 + WRPF(warp_id)) == 1 &&
           peek(rec, w1 + WRPF(exited)) == ex && (ex >> 8) == 0xffffff);
    bad = !!decode_copy(&f, rec, len, 1, &t);
    fix_free(&t);
    bad += !!decode_copy(&f, rec1, len1, 1, &t);
    fix_free(&t);
    ok(!bad, "valid records accepted");

#define MUTATE(why, stmt) do {                                   \
        memcpy(m, rec, len);                                     \
        stmt;                                                    \
        bad += !rejects(&f, m, len, 1, why);                     \
    } while (0)

    MUTATE("bad magic", m[0] ^= 1);
    MUTATE("unknown format", m[BLKF(format)] = 0);
    MUTATE("unknown format", m[BLKF(format)] = 3);
    MUTATE(BAD_PAG, m[BLKF(pag)] = 0);
    MUTATE(BAD_PAG, m[BLKF(pag)] = 3);
    MUTATE(BAD_PAG, m[BLKF(pag)] = 64);
    MUTATE("record size mismatch", poke(m, BLKF(bytes), len + 4));
    MUTATE("block shape mismatch", poke(m, BLKF(nwarps), 3));
    MUTATE("block shape mismatch", poke(m, BLKF(nthreads), 39));
    MUTATE("shared memory size mismatch", poke(m, BLKF(shared_bytes), 40));
    MUTATE(BAD_COUNT, poke(m, BLKF(nexited), f.b.st.nexited + 1));
    MUTATE(BAD_COUNT, poke(m, BLKF(nwaiting), f.b.st.nwaiting - 1));
    MUTATE(BAD_FLAGS, m[BLKF(flags)] |= 2);
    MUTATE(BAD_FLAGS, m[BLKF(reserved)] = 1);
    MUTATE("warp id is not the warp's index", poke(m, w0 + WRPF(warp_id), 1));
    MUTATE(BAD_PATTERN, m[w0 + WRPF(pattern) + 16] |= 4);
    MUTATE(BAD_EXITED, m[w1 + WRPF(wsync) + 3] = 0x80);
    MUTATE("lane waiting at a barrier and a warp sync at once",
           poke(m, w0 + WRPF(wsync), f.warps[0].waiting));
    MUTATE("padding not zero", m[len - 1] = 1);
    bad += !rejects(&f, rec, len, 2, "record of another block");

    /* Warp 1: lanes 8..31 lie beyond the block's 40 threads */
    MUTATE("lane beyond the block's threads not exited",
           poke(m, w1 + WRPF(exited), ex & ~(1u << 31));
           poke(m, BLKF(nexited), f.b.st.nexited - 1));
    MUTATE(BAD_EXITED,
           poke(m, w1 + WRPF(waiting), wt | 1u << 31);
           poke(m, BLKF(nwaiting), f.b.st.nwaiting + 1));
    MUTATE(BAD_EXITED, m[w1 + WRPF(resv_mask) + 3] |= 0x80);

    /* Every runnable lane waiting: the block could never run again */
    waiting = __builtin_popcount(~f.warps[0].exited) +
              __builtin_popcount(~ex);
    MUTATE("no runnable thread",
           poke(m, w0 + WRPF(waiting), ~f.warps[0].exited);
           poke(m, w1 + WRPF(waiting), ~ex);
           poke(m, w0 + WRPF(wsync), 0);
           poke(m, w1 + WRPF(wsync), 0);
           poke(m, BLKF(nwaiting), waiting));

    /* Entries: pc or fcsr DEAD, x1 (STRIDED) made longer or shorter */
    v = peek(rec, w0 + WRPF(pattern));
    assert((v & 3) && (v >> 2 & 3) == SIMT_SAVE_STRIDED);
    MUTATE(NO_PC, poke(m, w0 + WRPF(pattern), v & ~3u));
    MUTATE(NO_PC, m[w0 + WRPF(pattern) + 16] &= ~3);
    /* the next warp's header is then misplaced: any reason will do */
    MUTATE(NULL, poke(m, w0 + WRPF(pattern), v | 0xc));
    MUTATE(NULL, poke(m, w0 + WRPF(pattern), (v & ~0xcu) | 0x4));

    /* A record one word longer */
    memcpy(m, rec, len);
    memset(m + len, 0, 4);
    poke(m, BLKF(bytes), len + 4);
    bad += !rejects(&f, m, len + 4, 1, "record not fully consumed");
#undef MUTATE
    ok(!bad, "hostile header, warp and entry fields rejected");

    /* FULL at pag 1: UNIFORM costs as much as RAW, only the format says */
    memcpy(m, rec1, len1);
    m[w0 + WRPF(pattern)] ^= 2;     /* pc: RAW -> UNIFORM */
    ok(rejects(&f, m, len1, 1, "compressed entry in a full record"),
       "full record with a compressed entry rejected");

    /* Truncations, as they are and with bytes made to agree */
    bad = 0;
    for (trunc = 0; trunc < len; trunc++) {
        bad += !rejects(&f, rec, trunc, 1,
                        trunc < 64 ? "record shorter than its header" :
                        "record size mismatch");
        memcpy(m, rec, len);
        if (trunc >= sizeof(struct simt_save_block)) {
            poke(m, BLKF(bytes), trunc);
        }
        bad += !rejects(&f, m, trunc, 1, NULL);
    }
    ok(!bad, "all %zu truncations rejected, with and without bytes fixed",
       len);
    free(m);
    free(rec1);
    free(rec);
    fix_free(&f);
}

/*
 * Random single-byte corruptions of valid records: each is rejected, or
 * decodes to a state that is itself consistent: a full record of it
 * decodes to the same state again.
 */
static void test_hostile_random(void)
{
    static const SimtSaveSpec specs[] = {
        { .format = SIMT_SAVE_LIGHT, .pag = 8 },
        { .format = SIMT_SAVE_LIGHT, .pag = 2, .keep_shared = true },
        { .format = SIMT_SAVE_FULL, .pag = 32, .int_regs = 0x3fe,
          .fp_regs = 0xf },
    };
    unsigned s, i, bad = 0, accepted = 0, rejected = 0;

    for (s = 0; s < 3; s++) {
        size_t len, len2;
        uint8_t *rec;
        Fix f;

        fix_init(&f, 8, 9, 1, 26);
        fill_state(&f, 8, pc_entry);
        rec = encode(&f, &specs[s], &len, NULL);
        for (i = 0; i < 5000; i++) {
            size_t at = rnd() % len;
            uint8_t old = rec[at];
            uint64_t all[SIMT_MAX_BLOCK_WARPS];
            const char *err;
            uint8_t *rec2;
            Fix t, t2;

            rec[at] ^= 1 + rnd() % 255;
            err = decode_copy(&f, rec, len, 1, &t);
            rec[at] = old;
            if (err) {
                rejected++;
                fix_free(&t);
                continue;
            }
            accepted++;
            t.b.st.cycle = 777;
            rec2 = encode(&t, &full_all, &len2, NULL);
            memset(all, 0xff, sizeof(all));
            if (decode_copy(&t, rec2, len2, 1, &t2) ||
                !same_state(&t2, &t, all, specs[s].keep_shared == false)) {
                bad++;
            }
            free(rec2);
            fix_free(&t2);
            fix_free(&t);
        }
        free(rec);
        fix_free(&f);
    }
    ok(!bad && accepted && rejected,
       "random corruptions: %u rejected, %u accepted and consistent",
       rejected, accepted);
}

int main(void)
{
    test_pag_rule();
    test_full_roundtrip();
    test_light_roundtrip();
    test_sizes();
    test_compression();
    test_hostile_fields();
    test_hostile_random();
    return done_testing();
}
