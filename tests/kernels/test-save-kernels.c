/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The save-area codec on real kernels: every block runs on the warp
 * interpreter in bursts of a few instructions per warp, and every k
 * bursts it is saved (lightweight with the image's live table, or full),
 * restored into fresh warps and shared memory, and continued.  The final
 * memory must be bit-identical to a run of the same schedule without
 * switches.  Lightweight records drop the registers the live table calls
 * dead, so this checks the codec and the liveness tables together.
 *
 * Usage: test-save-kernels IMAGE.elf...  (the images built by kernels/,
 * possibly named PREFIX-NAME.elf)
 */
#include <stdlib.h>
#include <string.h>

#include "hw/simt/simt-core.h"
#include "hw/simt/simt-save.h"
#include "image-args.h"
#include "simt-elf.h"
#include "../tap.h"

#define MEM_SIZE        (4u << 20)
#define MAX_BURSTS      (1u << 20)

/* A kernel launch: buffers are allocated after the image */
typedef struct KCase {
    const char *image, *kernel;
    uint32_t grid[3], block[3];
    uint32_t dynamic;           /* shared bytes on top of the static ones */
    unsigned nargs;
    struct {
        uint32_t bytes;         /* 0: a scalar argument of value @val */
        uint32_t val;
        bool is_float;          /* buffer of small floats, else zeroed */
    } arg[4];
    unsigned need;              /* NEED_*: states the switches must meet */
    const char *what;
} KCase;

#define NEED_DIVERGED   (1u << 0)
#define NEED_WAITING    (1u << 1)
#define NEED_RESERVING  (1u << 2)
#define NEED_WSYNC      (1u << 3)

#define BUF(n)      { (n), 0, false }
#define FBUF(n)     { (n), 0, true }
#define VAL(v)      { 0, (v), false }

static const KCase cases[] = {
    { "divergent", "divergent", { 4, 1, 1 }, { 64, 1, 1 }, 0, 2,
      { BUF(1024), VAL(200) }, NEED_DIVERGED,
      "divergent branches and early return" },
    { "matmul", "matmul", { 2, 2, 1 }, { 16, 16, 1 }, 0, 4,
      { FBUF(32 * 32 * 4), FBUF(32 * 32 * 4), BUF(32 * 32 * 4), VAL(32) },
      NEED_WAITING, "tiled matmul: shared memory and barriers" },
    { "atomics", "atomics", { 4, 1, 1 }, { 64, 1, 1 }, 0, 2,
      { BUF(64), VAL(200) }, NEED_WAITING | NEED_RESERVING | NEED_DIVERGED,
      "atomics and lr/sc loops under contention" },
    { "histogram", "histogram", { 3, 1, 1 }, { 128, 1, 1 }, 0, 3,
      { FBUF(2000), VAL(2000), BUF(1024) }, NEED_WAITING,
      "histogram: shared and global atomics" },
    { "reduce", "reduce_tree", { 2, 1, 1 }, { 256, 1, 1 }, 0, 3,
      { FBUF(2048), BUF(64), VAL(500) }, NEED_WAITING,
      "tree reduction in shared memory" },
    { "reduce", "reduce_warp", { 2, 1, 1 }, { 256, 1, 1 }, 0, 3,
      { FBUF(2048), BUF(64), VAL(500) }, 0, "warp shuffle reduction" },
    { "calls", "calls", { 2, 1, 1 }, { 64, 1, 1 }, 0, 4,
      { FBUF(512), FBUF(32), BUF(512), VAL(100) }, 0,
      "calls with a stack in local memory" },
    { "warpopt", "warp_aggregate", { 3, 1, 1 }, { 96, 1, 1 }, 0, 3,
      { BUF(4 * (8 + 288)), FBUF(288 * 4), VAL(280) },
      NEED_WSYNC | NEED_DIVERGED,
      "warp-aggregated atomics: lanes waiting at a warp sync" },
    { "vote", "vote", { 2, 1, 1 }, { 64, 1, 1 }, 0, 2,
      { BUF(128 * 12), VAL(100) }, 0, "warp votes" },
    { "ids", "ids", { 2, 2, 1 }, { 8, 3, 2 }, 0, 1,
      { BUF(4 * 48 * 17 * 4) }, 0, "ids: 3-D blocks, a partial warp" },
    { "ids", "ids", { 2, 1, 1 }, { 2, 8, 3 }, 0, 1,
      { BUF(2 * 48 * 17 * 4) }, 0, "ids: rows of 2 threads" },
    { "ids", "ids", { 1, 2, 1 }, { 4, 4, 4 }, 0, 1,
      { BUF(2 * 64 * 17 * 4) }, 0, "ids: rows of 4 threads" },
    { "dynshared", "dynshared", { 3, 1, 1 }, { 96, 1, 1 }, 96 * 4, 2,
      { BUF(288 * 4), BUF(288 * 4) }, NEED_WAITING, "dynamic shared memory" },
    { "persistent", "persistent", { 3, 1, 1 }, { 64, 1, 1 }, 0, 4,
      { BUF(4), VAL(600), BUF(600 * 4), VAL(5) }, NEED_DIVERGED,
      "persistent threads with a global work queue" },
};

/* Budgets per simt_warp_run() call and switch intervals, in bursts */
static const struct {
    unsigned every, max_budget;
} schedules[] = {
    { 1, 1 }, { 1, 3 }, { 1, 40 }, { 2, 2 }, { 2, 17 }, { 3, 64 },
    { 4, 7 }, { 5, 9 }, { 6, 128 }, { 7, 100 }, { 8, 4 }, { 9, 12 },
    { 11, 33 }, { 13, 2 }, { 17, 5 }, { 23, 48 }, { 29, 250 }, { 64, 20 },
};

/* What the switches of one run met */
typedef struct Seen {
    unsigned switches;
    unsigned diverged;          /* a warp's runnable lanes at several pcs */
    unsigned waiting;           /* threads waiting at a barrier */
    unsigned wsync;             /* a lane waiting at a warp sync */
    unsigned reserving;         /* a lane holding an lr.w reservation */
    unsigned exited;            /* some threads already exited */
    uint64_t light_bytes, full_bytes;
    uint32_t entries[4];        /* of the light records */
} Seen;

static uint32_t rng;

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* One loaded kernel: memory image before the launch, its launch */
typedef struct Run {
    struct simt_image img;
    const struct simt_kernel_info *k;
    SimtLaunch l;
    uint8_t *init, *mem;
    SimtMem smem;
    SimtCode code;
    uint32_t local_addr;
    SimtWarp *warps[2];
    uint8_t *shared[2];
} Run;

static bool run_open(Run *r, const KCase *c)
{
    const char *path = image_args_path(c->image);
    uint32_t next, i, j;
    char err[256];

    memset(r, 0, sizeof(*r));
    rng = 1;
    if (!path || simt_image_load(&r->img, path, err, sizeof(err)) < 0) {
        tap_diag("%s: %s", c->image, path ? err : "no image");
        return false;
    }
    r->k = simt_image_kernel(&r->img, c->kernel);
    if (!r->k || !r->img.has_meta ||
        (uint64_t)r->img.base + r->img.size > MEM_SIZE / 2) {
        tap_diag("%s: no kernel %s, no note or too big", path, c->kernel);
        return false;
    }
    r->init = calloc(1, MEM_SIZE);
    r->mem = malloc(MEM_SIZE);
    memcpy(r->init + r->img.base, r->img.bytes, r->img.size);
    next = (r->img.base + r->img.size + 0xfff) & ~0xfffu;

    r->l.entry = r->k->m.entry;
    r->l.code_base = r->img.code_start;
    r->l.code_size = r->img.code_end - r->img.code_start;
    memcpy(r->l.block_dim, c->block, sizeof(c->block));
    memcpy(r->l.grid_dim, c->grid, sizeof(c->grid));
    r->l.shared_size = r->k->m.shared_bytes + c->dynamic;
    r->l.local_size = r->k->m.local_bytes;
    for (i = 0; i < c->nargs; i++) {
        if (!c->arg[i].bytes) {
            r->l.args[i] = c->arg[i].val;
            continue;
        }
        r->l.args[i] = next;
        for (j = 0; c->arg[i].is_float && j < c->arg[i].bytes / 4; j++) {
            float v = (int)(rnd() % 2001 - 1000) * 0.01f;

            memcpy(r->init + next + 4 * j, &v, 4);
        }
        next = (next + c->arg[i].bytes + 0xff) & ~0xffu;
    }
    r->local_addr = next;
    next += simt_launch_threads(&r->l) * r->l.local_size;
    for (i = 0; i < 2; i++) {
        r->warps[i] = calloc(simt_launch_warps(&r->l), sizeof(SimtWarp));
        r->shared[i] = malloc(r->l.shared_size + 1);
    }
    r->smem.flat = r->mem;
    r->smem.flat_size = MEM_SIZE;
    return next <= MEM_SIZE && !simt_launch_check(&r->l) &&
           !simt_code_init(&r->code, r->l.code_base, r->l.code_size);
}

static void run_close(Run *r)
{
    int i;

    for (i = 0; i < 2; i++) {
        free(r->warps[i]);
        free(r->shared[i]);
    }
    simt_code_destroy(&r->code);
    free(r->init);
    free(r->mem);
    simt_image_free(&r->img);
}

static void note_state(const SimtBlock *b, Seen *seen)
{
    unsigned wi, lane;

    seen->switches++;
    seen->waiting += b->st.nwaiting > 0;
    seen->exited += b->st.nexited > 0;
    for (wi = 0; wi < b->st.nwarps; wi++) {
        const SimtWarp *w = &b->warps[wi];
        uint32_t run = ~(w->exited | w->waiting | w->wsync);
        bool diverged = false;

        for (lane = 0; lane < SIMT_WARP_SIZE; lane++) {
            if (run >> lane & 1 && w->pc[lane] != w->pc[__builtin_ctz(run)]) {
                diverged = true;
            }
        }
        seen->diverged += diverged;
        seen->reserving += w->resv_mask != 0;
        seen->wsync += w->wsync != 0;
    }
}

/*
 * Save @b (block @blk) in @format, restore it into the other set of
 * buffers, and make that the running block.  NULL or what went wrong.
 */
static const char *switch_block(Run *r, SimtBlock *b, uint32_t blk,
                                unsigned *set, Seen *seen)
{
    const struct simt_meta *meta = &r->img.meta;
    SimtSaveSpec spec = {
        .int_regs = r->k->m.int_regs_used,
        .fp_regs = r->k->m.fp_regs_used,
        .live = meta->live,
        .live_base = meta->h.code_start,
        .live_count = meta->nlive,
    };
    SimtSaveSpec full;
    unsigned c = seen->switches, other = !*set;
    size_t size, len, full_size;
    SimtSaveStats stats;
    const char *err;
    uint8_t *rec;
    SimtBlock nb;

    note_state(b, seen);
    spec.keep_shared = c / 2 % 2;
    full = spec;
    spec.format = SIMT_SAVE_LIGHT;
    spec.pag = simt_save_pag(&r->l);
    full.format = SIMT_SAVE_FULL;
    full.pag = SIMT_WARP_SIZE;
    size = simt_save_size(b, &spec);
    full_size = simt_save_size(b, &full);
    seen->light_bytes += size;
    seen->full_bytes += full_size;
    if (size > full_size) {
        return "light record larger than the full one";
    }
    /*
     * Alternate formats, and keeping or storing shared memory; light
     * records now and then with another group size than the launch's.
     */
    if (c % 2) {
        spec = full;
        size = full_size;
    } else if (c / 4 % 2) {
        spec.pag = 1u << (c / 8 % 6);
        size = simt_save_size(b, &spec);
    }
    rec = malloc(size);
    len = simt_save_encode(b, blk, &spec, rec, size, &stats);
    if (len != size) {
        free(rec);
        return "encode wrote other than size() bytes";
    }
    if (spec.format == SIMT_SAVE_LIGHT) {
        for (c = 0; c < 4; c++) {
            seen->entries[c] += stats.entries[c];
        }
    }

    simt_block_init(&nb, &r->l, &b->st.desc, &r->code, &r->smem,
                    r->warps[other], r->shared[other]);
    if (spec.keep_shared) {
        /* the SM kept it: it is where the block runs next */
        memcpy(r->shared[other], b->shared, r->l.shared_size);
    }
    err = simt_save_decode(&nb, blk, rec, len);
    free(rec);
    if (err) {
        return err;
    }
    nb.st.cycle = b->st.cycle;
    /* Nothing of the old copy may survive */
    memset(r->warps[*set], 0xa5, b->st.nwarps * sizeof(SimtWarp));
    memset(r->shared[*set], 0xa5, r->l.shared_size);
    *b = nb;
    *set = other;
    return NULL;
}

/* Fold a finished block's counters into @sum */
static uint64_t fold_counters(uint64_t sum, const SimtBlock *b)
{
    unsigned wi;

    sum = sum * 31 + b->st.warp_insns;
    sum = sum * 31 + b->st.thread_insns;
    sum = sum * 31 + b->st.barriers;
    sum = sum * 31 + b->st.wrote_global;
    sum = sum * 31 + b->st.cycle;
    for (wi = 0; wi < b->st.nwarps; wi++) {
        sum = sum * 31 + b->warps[wi].instret;
    }
    return sum;
}

/*
 * Run every block of @r's launch from its initial memory, warps in turn
 * with budgets drawn from @seed, switching every @every bursts (never if
 * 0).  The blocks' final counters are folded into *@counters.  NULL or
 * what went wrong.
 */
static const char *run_grid(Run *r, uint32_t seed, unsigned every,
                            unsigned max_budget, Seen *seen,
                            uint64_t *counters)
{
    const SimtLaunch *l = &r->l;
    uint32_t nblocks = l->grid_dim[0] * l->grid_dim[1] * l->grid_dim[2];
    SimtBlockDesc desc = { .local_addr = r->local_addr };
    uint32_t blk;

    memcpy(r->mem, r->init, MEM_SIZE);
    simt_code_invalidate(&r->code);
    rng = seed;
    *counters = 0;
    for (blk = 0; blk < nblocks; blk++) {
        unsigned set = 0, bursts = 0, idle = 0, wi;
        SimtBlock b;

        desc.block_idx[0] = blk % l->grid_dim[0];
        desc.block_idx[1] = blk / l->grid_dim[0] % l->grid_dim[1];
        desc.block_idx[2] = blk / l->grid_dim[0] / l->grid_dim[1];
        simt_block_init(&b, l, &desc, &r->code, &r->smem, r->warps[0],
                        r->shared[0]);
        while (b.st.status == SIMT_RUNNING) {
            uint64_t progress = 0;

            for (wi = 0; wi < b.st.nwarps; wi++) {
                progress += simt_warp_run(&b, wi, 1 + rnd() % max_budget);
            }
            /*
             * A burst that only retires lanes returning from the kernel
             * runs no instruction; two in a row mean the block is stuck.
             */
            idle = progress ? 0 : idle + 1;
            if (idle > 2 || ++bursts > MAX_BURSTS) {
                return "block stopped making progress";
            }
            if (every && bursts % every == 0 &&
                b.st.status == SIMT_RUNNING) {
                const char *err = switch_block(r, &b, blk, &set, seen);

                if (err) {
                    return err;
                }
            }
        }
        if (b.st.status != SIMT_DONE) {
            tap_diag("block %u: %s at pc 0x%08x", blk,
                     simt_fault_name(b.st.fault), b.st.fault_pc);
            return "block faulted";
        }
        *counters = fold_counters(*counters, &b);
    }
    return NULL;
}

static void test_case(const KCase *c)
{
    unsigned s, bad = 0;
    Seen seen = { 0 };
    uint8_t *want;
    Run r;

    if (!run_open(&r, c)) {
        tap_check(false, "%s: set up", c->what);
        run_close(&r);
        return;
    }
    want = malloc(MEM_SIZE);
    for (s = 0; s < sizeof(schedules) / sizeof(schedules[0]); s++) {
        uint32_t seed = 0x9e3779b9u * (s + 1);
        uint64_t want_counters, counters;
        const char *err = run_grid(&r, seed, 0, schedules[s].max_budget,
                                   NULL, &want_counters);

        if (!err) {
            memcpy(want, r.mem, MEM_SIZE);
            err = run_grid(&r, seed, schedules[s].every,
                           schedules[s].max_budget, &seen, &counters);
        }
        if (!err && memcmp(want, r.mem, MEM_SIZE)) {
            err = "memory differs from the run without switches";
        }
        if (!err && counters != want_counters) {
            err = "instruction, barrier or cycle counters differ";
        }
        if (err) {
            tap_diag("%s, switching every %u bursts: %s", c->kernel,
                     schedules[s].every, err);
            bad++;
        }
    }
    tap_diag("%s: %u switches, %u with diverged warps, %u waiting, "
             "%u at a warp sync, %u reserving, %u after exits; light "
             "records %.1f%% of full",
             c->kernel, seen.switches, seen.diverged, seen.waiting,
             seen.wsync, seen.reserving, seen.exited,
             100.0 * seen.light_bytes / (seen.full_bytes + !seen.full_bytes));
    tap_diag("%s: light entries %u dead, %u uniform, %u strided, %u raw",
             c->kernel, seen.entries[0], seen.entries[1], seen.entries[2],
             seen.entries[3]);
    if ((c->need & NEED_DIVERGED && !seen.diverged) ||
        (c->need & NEED_WAITING && !seen.waiting) ||
        (c->need & NEED_RESERVING && !seen.reserving) ||
        (c->need & NEED_WSYNC && !seen.wsync) || !seen.switches) {
        tap_diag("%s: the switches missed a state they must meet",
                 c->kernel);
        bad++;
    }
    tap_check(!bad, "%s (%s), %u switches", c->what, c->kernel,
              seen.switches);
    free(want);
    run_close(&r);
}

int main(int argc, char **argv)
{
    unsigned i;

    image_args_set(argc, argv);
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        test_case(&cases[i]);
    }
    return tap_done();
}
