/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt: the warp interpreter's fast paths against its reference paths.
 *
 * Random programs of integer, memory and fp32 instructions (every integer
 * operation, with destinations that are and are not sources; loads and
 * stores of every size, coalesced in a page or spread over pages,
 * misaligned now and then, in flat memory or through a page table with
 * read-only and unmapped pages; every fp32 rounding mode,
 * static and dynamic, frm changes, fflags reads, branches on per-lane
 * bits so that warps diverge, branches of every kind, jumps with and
 * without a link, loops that all lanes or some run again, longer loops
 * that the timed tier replays once their turns run alike) run from
 * random register contents on blocks with some lanes exited, once with
 * SimtCode.reference set (every
 * instruction on its exact path, one look at the code and the other lanes
 * per instruction, the baseline build of the instruction loop) and once
 * without (the fast paths: straight runs, the vector build where the host
 * has one), a quarter of those in flat memory with the code decoded
 * whole first, as the device does with threads > 1 (the straight runs
 * then counted in one pass).  Half the blocks run as on the device: with
 * the latency
 * model of a preset, short issue bursts and instruction budgets that cut
 * straight runs anywhere, and now and then preemption points.  Every
 * register, program counter, fcsr and counter of every warp, every byte
 * of memory, the number of translations and, when timed, every warp's
 * timing state, the memory pipe and what each burst returned must be
 * identical.
 */

#include "unit-harness.h"
#include "simt-xlate.h"
#include "hw/simt/simt-config.h"

#define PROGRAMS        3000
#define LOOP_PROGRAMS   500
#define PROG_INSNS      48
#define THREADS         64
#define WARPS           (THREADS / SIMT_WARP_SIZE)

/*
 * Registers the programs use: x8..x15, the branch bits in x20, a lane's
 * data address in x21, a loop's count in x17, f1..f15.
 */
#define XR(n)           (8 + (n) % 8)
#define FR(n)           (1 + (n) % 15)
#define X_BITS          20
#define X_ADDR          21
#define X_TMP           16
#define X_COUNT         17

/*
 * Data: 256 KiB at DATA_VA.  Half the programs see memory flat, half
 * through a page table (as a translated context does) that maps the data
 * pages shuffled, some read-only, some not at all.
 */
#define DATA_VA         0x100000u
#define DATA_PAGES      64
#define PAGE            SIMT_MEM_PAGE_SIZE

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint32_t rnd(void)
{
    return xorshift(&rng_state);
}

/* Mostly ordinary numbers, some zeros, subnormals, huge values and NaNs. */
static uint32_t fp_value(void)
{
    static const uint32_t special[] = {
        0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
        0x7f800001, 0x00000001, 0x007fffff, 0x00800000, 0x80800000,
        0x7f7fffff, 0x3f800000, 0x00800001, 0x00ffffff,
    };

    switch (rnd() % 10) {
    case 0:
        return special[rnd() % (sizeof(special) / sizeof(special[0]))];
    case 1:
        return (rnd() & 0x80ffffff) | (rnd() % 4) << 23;   /* tiny */
    case 2:
        return (rnd() & 0x807fffff) | (0xfb + rnd() % 4) << 23; /* huge */
    default:
        return (rnd() & 0x807fffff) | (110 + rnd() % 36) << 23;
    }
}

/* Rounding modes: mostly nearest-even and dynamic, sometimes the rest. */
static unsigned rm_field(void)
{
    static const unsigned rms[] = { 0, 0, 0, 7, 7, 7, 1, 2, 3, 4 };

    return rms[rnd() % 10];
}

/* funct7, funct3 of the register-register integer operations */
static const unsigned int_ops[18][2] = {
    { 0, 0 }, { 0x20, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 },
    { 0, 5 }, { 0x20, 5 }, { 0, 6 }, { 0, 7 },
    { 1, 0 }, { 1, 1 }, { 1, 2 }, { 1, 3 }, { 1, 4 }, { 1, 5 }, { 1, 6 },
    { 1, 7 },
};
/* funct3 of addi, slli, slti, sltiu, xori, srli/srai, and their immediates */
static const unsigned imm_f3[6] = { 0, 1, 2, 3, 4, 5 };
static const uint32_t imm_mask[6] = { 0xfff, 0x1f, 0xfff, 0xfff, 0xfff, 0x41f };

/* A load or store; now and then misaligned for its size. */
static uint32_t mem_op(unsigned a, unsigned b, unsigned c)
{
    int32_t off = (int32_t)(c % 64) * 4 - 128 + (c % 64 ? 0 : 1 + b % 3);

    switch (b % 8) {
    case 0:
        return LB(XR(a), X_ADDR, off);
    case 1:
        return LHU(XR(a), X_ADDR, off & ~1);
    case 2:
        return SH(XR(a), X_ADDR, off & ~1);
    case 3:
        return FLW(FR(a), X_ADDR, off);
    case 4:
        return FSW(FR(a), X_ADDR, off);
    case 5:
        return SW(XR(a), X_ADDR, off);
    default:
        return LW(XR(a), X_ADDR, off);
    }
}

/*
 * One of the first @ops register-register operations of int_ops[] or an
 * immediate one, sources and destination at random.
 */
static void some_int_op(Prog *p, unsigned ops, unsigned a, unsigned b,
                        unsigned c, unsigned d)
{
    emit(p, d % 3 ? OP(int_ops[b % ops][0], int_ops[b % ops][1],
                       XR(a), XR(c), XR(d / 3))
                  : enc_i(c & imm_mask[b % 6], XR(d / 3), imm_f3[b % 6],
                          XR(a), 0x13));
}

/* Every integer operation, sources and destination at random. */
static void int_op(Prog *p, unsigned a, unsigned b, unsigned c, unsigned d)
{
    some_int_op(p, 18, a, b, c, d);
}

/*
 * One of the integer operations the straight-run tier runs itself (not
 * mulh*, div*, rem*), sources and destination at random.
 */
static void tier_op(Prog *p, unsigned a, unsigned b, unsigned c, unsigned d)
{
    some_int_op(p, 11, a, b, c, d);
}

/*
 * A loop of @body of the tier's integer operations (tier_op(), or a
 * multiply, whose latency makes turns differ), @turns turns for every
 * lane, after a division and @muls multiplies whose results it may read:
 * its first turns may wait for them, later ones run alike, and the timed
 * tier then replays them (tier_loop()).
 */
static void slow_loop(Prog *p, unsigned body, unsigned muls, unsigned turns)
{
    unsigned top;

    emit(p, DIV(XR(rnd()), XR(rnd()), XR(rnd())));
    while (muls--) {
        emit(p, MUL(XR(rnd()), XR(rnd()), XR(rnd())));
    }
    emit(p, ADDI(X_COUNT, 0, turns));
    top = p->n;
    for (unsigned i = 0; i < body; i++) {
        if (rnd() % 3) {
            tier_op(p, rnd(), rnd(), rnd(), rnd());
        } else {
            emit(p, MUL(XR(rnd()), XR(rnd()), XR(rnd())));
        }
    }
    emit(p, ADDI(X_COUNT, X_COUNT, -1));
    emit(p, BLT(0, X_COUNT, ((int)top - (int)p->n) * 4));
}

static void random_program(Prog *p)
{
    /* funct3 of the six conditional branches */
    static const unsigned branch_f3[6] = { 0, 1, 4, 5, 6, 7 };

    p->n = 0;
    while (p->n < PROG_INSNS) {
        unsigned a = rnd(), b = rnd(), c = rnd(), d = rnd();

        switch (rnd() % 28) {
        case 0: case 1: case 2:
            emit(p, FADD(FR(a), FR(b), FR(c), rm_field()));
            break;
        case 3:
            emit(p, FSUB(FR(a), FR(b), FR(c), rm_field()));
            break;
        case 4: case 5:
            emit(p, FMUL(FR(a), FR(b), FR(c), rm_field()));
            break;
        case 6: case 7:
            emit(p, FMADD(FR(a), FR(b), FR(c), FR(d), rm_field()));
            break;
        case 8:
            emit(p, FMSUB(FR(a), FR(b), FR(c), FR(d), rm_field()));
            break;
        case 9:
            emit(p, FNMSUB(FR(a), FR(b), FR(c), FR(d), rm_field()));
            break;
        case 10:
            emit(p, FNMADD(FR(a), FR(b), FR(c), FR(d), rm_field()));
            break;
        case 11:
            emit(p, FMIN(FR(a), FR(b), FR(c)));
            break;
        case 12:
            emit(p, FLT(XR(a), FR(b), FR(c)));
            break;
        case 13:
            emit(p, FCVT_S_W(FR(a), XR(b), rm_field()));
            break;
        case 14: case 15:
            int_op(p, a, b, c, d);
            break;
        case 16:
            /* a new frm; now and then a reserved one, illegal for dyn */
            emit(p, CSRRWI(XR(a), 0x002, b % 64 ? c % 5 : 5));
            break;
        case 17:
            emit(p, CSRR(XR(a), 0x001));
            break;
        case 18: case 19:
            /* loads and stores of every size near the lane's address */
            emit(p, mem_op(a, b, c));
            break;
        case 20:
            /* any branch on two registers, over the next one to three */
            emit(p, enc_b(4 * (2 + b % 3), XR(c), XR(a), branch_f3[d % 6]));
            break;
        case 21:
            /* a jump over the next one or two, now and then linking */
            emit(p, JAL(d % 4 ? 0 : XR(c), 4 * (2 + b % 2)));
            break;
        case 22: case 23: {
            /*
             * A loop of one to four integer operations, one to four times
             * for every lane or as many times as the lane's bits say.
             */
            unsigned top, body = 1 + b % 4;

            emit(p, d % 2 ? ANDI(X_COUNT, X_BITS, 3) : ADDI(X_COUNT, 0, 0));
            emit(p, ADDI(X_COUNT, X_COUNT, 1 + c % 4));
            top = p->n;
            for (unsigned i = 0; i < body; i++) {
                int_op(p, rnd(), rnd(), rnd(), rnd());
            }
            /* while the count is positive: a skip into the loop ends it */
            emit(p, ADDI(X_COUNT, X_COUNT, -1));
            emit(p, BLT(0, X_COUNT, ((int)top - (int)p->n) * 4));
            break;
        }
        case 24: case 25:
            /* a loop the timed tier replays once its turns run alike */
            slow_loop(p, 1 + b % 7, 2, 8 + c % 16);
            break;
        default:
            /* lanes whose bit is clear skip the next one to three */
            emit(p, ANDI(X_TMP, X_BITS, 1u << (a % 11)));
            emit(p, BEQ(X_TMP, 0, 4 * (2 + b % 3)));
            break;
        }
    }
    /* a skip from the end lands on a return too */
    for (unsigned i = 0; i < 4; i++) {
        emit(p, RET);
    }
}

typedef struct Run {
    SimtWarp w[WARPS];
    SimtBlockState st;
    uint8_t shared[64];
    uint8_t *mem;               /* its own copy of the machine's memory */
    Xlate x;
    uint64_t converged_insns;   /* thread insns had no lane branched off */
    /* When timed: the timing state, and a digest of every burst's end */
    SimtWarpTiming wt[WARPS];
    uint64_t pipe;
    uint64_t bursts;
} Run;

/*
 * How the device drives a timed block (simt-sm.c): a warp's burst starts
 * at the port's clock or when the warp is ready, whichever is later, and
 * issues until @limit cycles later or @insns instructions, the port
 * taking what it issued.  Every @stop_every-th burst stops at the
 * preemption points @stops.  Warps in turn, as long as any is runnable.
 */
typedef struct Bursts {
    SimtTiming timing;
    uint64_t limit;
    uint64_t insns;
    unsigned stop_every;
    uint32_t stops[4];
} Bursts;

static void run_bursts(SimtBlock *b, Run *r, const Bursts *bu)
{
    uint64_t port = 0, total = 0, digest = 0;
    unsigned idle = 0, k = 0;

    b->wtiming = r->wt;
    b->mem_pipe = &r->pipe;
    while (b->st.status == SIMT_RUNNING && idle <= WARPS && total < 100000) {
        unsigned wi = k % WARPS;
        uint64_t n;

        b->st.cycle = port > r->wt[wi].ready ? port : r->wt[wi].ready;
        b->issue_limit = b->st.cycle + bu->limit;
        b->issue_cycles = 0;
        b->stop_pcs = k % bu->stop_every ? NULL : bu->stops;
        b->stop_count = 4;
        n = simt_warp_run(b, wi, bu->insns);
        b->stop_pcs = NULL;
        r->wt[wi].ready = b->st.cycle;
        port += b->issue_cycles ? b->issue_cycles : 1;
        digest = digest * 31 + n * 7 + b->stopped + b->st.cycle;
        total += n;
        idle = n ? 0 : idle + 1;
        k++;
    }
    r->bursts = digest;
}

/*
 * Run @mc's program from @init on the reference or the fast path, with
 * @whole its code decoded whole first, as the device does with threads > 1
 * (flat memory only: the fetches would count translations).
 */
static void run(Machine *mc, const SimtWarp *init, const Xlate *pt,
                const Bursts *bu, bool reference, bool whole, Run *r)
{
    SimtBlockDesc desc = { .local_addr = T_LOCAL };
    SimtMem m = { .flat = r->mem, .flat_size = T_MEM_SIZE };
    unsigned live[WARPS];
    SimtCode code;
    SimtBlock b;

    memcpy(r->mem, mc->mem, T_MEM_SIZE);
    if (pt) {
        r->x = *pt;
        r->x.mem = r->mem;
        m = xlate_mem(&r->x);
    }
    simt_code_init(&code, mc->l.code_base, mc->l.code_size);
    code.reference = reference;
    code.timing = bu ? &bu->timing : NULL;
    if (whole) {
        simt_code_decode_all(&code, &m);
    }
    memset(r->wt, 0, sizeof(r->wt));
    r->pipe = 0;
    r->bursts = 0;
    simt_block_init(&b, &mc->l, &desc, &code, &m, r->w, r->shared);
    for (unsigned w = 0; w < WARPS; w++) {
        uint32_t exited = r->w[w].exited;

        live[w] = SIMT_WARP_SIZE - __builtin_popcount(exited);
        r->w[w] = init[w];
        r->w[w].exited = exited;
    }
    if (bu) {
        run_bursts(&b, r, bu);
    } else {
        simt_block_run(&b, 100000);
    }
    r->st = b.st;
    r->converged_insns = 0;
    for (unsigned w = 0; w < WARPS; w++) {
        r->converged_insns += r->w[w].instret * live[w];
    }
    simt_code_destroy(&code);
}

/* The page table: code and stack identity, data shuffled and holed. */
static void page_table(Xlate *x)
{
    xlate_identity(x, NULL, T_MEM_SIZE);
    for (uint32_t i = 0; i < DATA_PAGES; i++) {
        uint32_t r = rnd() % 16;

        x->pte[DATA_VA / PAGE + i] =
            ((DATA_VA / PAGE + (i * 37) % DATA_PAGES) << 2) |
            (r ? XLATE_V : 0) | (r > 1 ? XLATE_W : 0);
    }
}

/* A lane's data address: coalesced in one page, or spread over pages. */
static uint32_t lane_address(unsigned mode, uint32_t page, unsigned lane)
{
    switch (mode) {
    case 0:
        return DATA_VA + page * PAGE + 256 + lane * 4;
    case 1:
        return DATA_VA + page * PAGE + 256 + (lane % 4) * 4;
    case 2:
        return DATA_VA + ((page + lane / 8) % DATA_PAGES) * PAGE + 1024;
    default:
        return DATA_VA + (rnd() % DATA_PAGES) * PAGE + 512 + rnd() % 256 * 4;
    }
}

/*
 * A preset's latency model, bursts of 1 to 64 cycles and 1 to 40
 * instructions or, one time in four, the device's, preemption points at
 * four instructions of the program.
 */
static void bursts(Bursts *bu)
{
    bool device = rnd() % 4 == 0;

    simt_preset_timing(rnd() % SIMT_PRESET_NR, &bu->timing);
    bu->limit = device ? SIMT_BURST_CYCLES : 1 + rnd() % 64;
    bu->insns = device ? SIMT_BURST_INSNS : 1 + rnd() % 40;
    bu->stop_every = 2 + rnd() % 4;
    for (unsigned i = 0; i < 4; i++) {
        bu->stops[i] = T_CODE + 4 * (i * PROG_INSNS / 4 + rnd() % 8);
    }
}

/* The registers of every warp's lanes: random, as the programs expect. */
static void init_warps(SimtWarp *init, unsigned n)
{
    memset(init, 0, WARPS * sizeof(*init));
    for (unsigned w = 0; w < WARPS; w++) {
        unsigned mode = rnd() % 4;
        uint32_t page = rnd() % DATA_PAGES;

        for (unsigned i = 0; i < SIMT_WARP_SIZE; i++) {
            for (unsigned k = 1; k < 32; k++) {
                init[w].x[k][i] = k >= 8 && k < 16 ? rnd() : 0;
                init[w].f[k][i] = fp_value();
            }
            init[w].x[X_BITS][i] = rnd();
            init[w].x[X_ADDR][i] = lane_address(mode, page, i);
            /* frm: nearest-even in most warps, mixed in some */
            init[w].fcsr[i] = (n % 3 ? 0 : rnd() % 5) << 5 | rnd() % 32;
            init[w].x[1][i] = SIMT_EXIT_RA;
            init[w].pc[i] = T_CODE;
        }
        init[w].warp_id = w;
    }
}

/*
 * Program @n run on the reference and the fast paths: identical?  Prints
 * the first differences of the first programs that are not.
 */
static bool same_runs(unsigned n, const Run *ref, const Run *fast,
                      bool paged, bool is_timed, unsigned *bad)
{
    if (!memcmp(ref->w, fast->w, sizeof(ref->w)) &&
        !memcmp(&ref->st, &fast->st, sizeof(ref->st)) &&
        !memcmp(ref->mem, fast->mem, T_MEM_SIZE) &&
        (!paged || ref->x.translations == fast->x.translations) &&
        !memcmp(ref->wt, fast->wt, sizeof(ref->wt)) &&
        ref->pipe == fast->pipe && ref->bursts == fast->bursts) {
        return true;
    }
    if (*bad < 3) {
        printf("# program %u (%s%s): memory %s, translations %" PRIu64
               "/%" PRIu64 ", timing %s\n", n,
               paged ? "paged" : "flat", is_timed ? ", timed" : "",
               memcmp(ref->mem, fast->mem, T_MEM_SIZE) ? "differs" : "same",
               ref->x.translations, fast->x.translations,
               memcmp(ref->wt, fast->wt, sizeof(ref->wt)) ||
               ref->pipe != fast->pipe || ref->bursts != fast->bursts ?
               "differs" : "same");
        for (unsigned w = 0; w < WARPS; w++) {
            for (unsigned i = 0; i < SIMT_WARP_SIZE; i++) {
                for (unsigned k = 0; k < 32; k++) {
                    if (ref->w[w].f[k][i] != fast->w[w].f[k][i] ||
                        ref->w[w].x[k][i] != fast->w[w].x[k][i]) {
                        printf("# program %u warp %u lane %u reg %u:"
                               " f %08x/%08x x %08x/%08x\n", n, w, i,
                               k, ref->w[w].f[k][i], fast->w[w].f[k][i],
                               ref->w[w].x[k][i], fast->w[w].x[k][i]);
                    }
                }
                if (ref->w[w].fcsr[i] != fast->w[w].fcsr[i]) {
                    printf("# program %u warp %u lane %u: fcsr "
                           "%02x/%02x\n", n, w, i, ref->w[w].fcsr[i],
                           fast->w[w].fcsr[i]);
                }
            }
        }
    }
    (*bad)++;
    return false;
}

/*
 * Loops of the tier's integer operations alone, with multiplies of a
 * long latency, after multiplies and a division whose results they may
 * read: such a loop's turns can take two or more turns to run alike, and
 * the timed tier must replay only the turns that do (tier_loop()).  Long
 * bursts, so that many turns run in one.
 */
static void loop_program(Prog *p)
{
    p->n = 0;
    for (unsigned loops = 0; loops < 4; loops++) {
        slow_loop(p, 1 + rnd() % 7, rnd() % 4, 8 + rnd() % 40);
    }
    emit(p, RET);
}

int main(void)
{
    static Prog p;
    static SimtWarp init[WARPS];
    static Run ref, fast;
    static Xlate pt;
    Bursts bu;
    Machine mc;
    unsigned bad = 0, faulted = 0, diverged = 0, translated = 0, timed = 0;
    unsigned whole = 0;
    uint64_t insns = 0, translations = 0;

    ref.mem = malloc(T_MEM_SIZE);
    fast.mem = malloc(T_MEM_SIZE);
    assert(ref.mem && fast.mem);
    check_host_builds();

    for (unsigned n = 0; n < PROGRAMS; n++) {
        bool paged = n % 2, is_timed = n / 2 % 2;

        machine_init(&mc, 1 + rnd() % THREADS);
        mc.l.shared_size = 0;
        random_program(&p);
        machine_load(&mc, &p);
        for (uint32_t i = 0; i < DATA_PAGES * PAGE; i += 4) {
            wr32(&mc, DATA_VA + i, rnd());
        }
        page_table(&pt);
        init_warps(init, n);
        bursts(&bu);
        run(&mc, init, paged ? &pt : NULL, is_timed ? &bu : NULL, true,
            false, &ref);
        run(&mc, init, paged ? &pt : NULL, is_timed ? &bu : NULL, false,
            !paged && n / 4 % 2, &fast);
        same_runs(n, &ref, &fast, paged, is_timed, &bad);
        translated += paged;
        timed += is_timed;
        whole += !paged && n / 4 % 2;
        translations += paged ? ref.x.translations : 0;
        faulted += ref.st.status == SIMT_FAULTED;
        diverged += ref.st.thread_insns < ref.converged_insns;
        insns += ref.st.thread_insns;
        machine_free(&mc);
    }
    ok(bad == 0, "%u random programs (%" PRIu64 " thread instructions, %u "
       "with diverged warps, %u ending in a fault, %u through a page table "
       "with %" PRIu64 " translations, %u timed in bursts with preemption "
       "points, %u with the code decoded whole first): every register, "
       "pc, fcsr, counter, memory byte, translation count and timing state "
       "identical on the fast and reference paths", PROGRAMS, insns,
       diverged, faulted, translated, translations, timed, whole);
    ok(diverged > PROGRAMS / 2 && faulted < PROGRAMS / 2,
       "the programs diverge, and most run to their end");

    bad = 0;
    insns = 0;
    for (unsigned n = 0; n < LOOP_PROGRAMS; n++) {
        machine_init(&mc, 1 + rnd() % THREADS);
        mc.l.shared_size = 0;
        loop_program(&p);
        machine_load(&mc, &p);
        init_warps(init, n);
        bursts(&bu);
        /* Multiplies slower than a turn, bursts of many turns */
        bu.timing.latency[SIMT_IC_MUL] = 20 + rnd() % 100;
        bu.limit = 200 + rnd() % 2000;
        bu.insns = 100 + rnd() % 1000;
        run(&mc, init, NULL, &bu, true, false, &ref);
        run(&mc, init, NULL, &bu, false, n % 2, &fast);
        same_runs(n, &ref, &fast, false, true, &bad);
        insns += ref.st.thread_insns;
        machine_free(&mc);
    }
    ok(bad == 0, "%u programs of loops whose turns take a while to run "
       "alike (%" PRIu64 " thread instructions, half with the code decoded "
       "whole first), timed in long bursts: "
       "every register, counter and timing state identical on the fast "
       "path, which replays the steady turns, and the reference path",
       LOOP_PROGRAMS, insns);
    free(ref.mem);
    free(fast.mem);
    return done_testing();
}
