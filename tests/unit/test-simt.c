/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt: warp-level behaviour: thread context CSRs, divergence and min-PC
 * reconvergence, barriers, vote and shuffle, atomics under contention,
 * faults, bounded stepping, state copy, and the memory callbacks.
 */

#include "unit-harness.h"

#define OUT     T_DATA

static void patch_b(Prog *p, unsigned at, unsigned f3, unsigned a,
                    unsigned b, unsigned to)
{
    p->w[at] = enc_b(rel(at, to), b, a, f3);
}

static void patch_j(Prog *p, unsigned at, unsigned rd, unsigned to)
{
    p->w[at] = enc_j(rel(at, to), rd);
}

/* x5 = tid.x, x6 = 4 * tid.x, x7 = a0 + 4 * tid.x */
static void prologue(Prog *p)
{
    emit(p, CSRR(5, SIMT_CSR_TID_X));
    emit(p, SLLI(6, 5, 2));
    emit(p, ADD(7, 10, 6));
}

static Machine *new_machine(Machine *mc, unsigned threads, Prog *p)
{
    machine_init(mc, threads);
    machine_load(mc, p);
    mc->l.args[0] = OUT;
    mc->l.args[1] = T_DATA + 0x80000;
    return mc;
}

static void test_context_csrs(void)
{
    static const unsigned csrs[] = {
        SIMT_CSR_TID_X, SIMT_CSR_TID_Y, SIMT_CSR_TID_Z, SIMT_CSR_CTAID_X,
        SIMT_CSR_CTAID_Y, SIMT_CSR_CTAID_Z, SIMT_CSR_NTID_X, SIMT_CSR_NTID_Y,
        SIMT_CSR_NTID_Z, SIMT_CSR_NCTAID_X, SIMT_CSR_NCTAID_Y,
        SIMT_CSR_NCTAID_Z, SIMT_CSR_LANEID, SIMT_CSR_WARPID, SIMT_CSR_SMID,
        SIMT_CSR_NWARPS,
    };
    Prog p = { .n = 0 };
    Machine mc;
    unsigned k, bx, bz, t, bad = 0;
    int f;

    /* slot = (block linear * 128 + warp * 32 + lane) * 64 */
    emit(&p, CSRR(5, SIMT_CSR_CTAID_Z));
    emit(&p, CSRR(6, SIMT_CSR_NCTAID_X));
    emit(&p, MUL(5, 5, 6));
    emit(&p, CSRR(6, SIMT_CSR_CTAID_X));
    emit(&p, ADD(5, 5, 6));
    emit(&p, SLLI(5, 5, 7));
    emit(&p, CSRR(6, SIMT_CSR_WARPID));
    emit(&p, SLLI(6, 6, 5));
    emit(&p, ADD(5, 5, 6));
    emit(&p, CSRR(6, SIMT_CSR_LANEID));
    emit(&p, ADD(5, 5, 6));
    emit(&p, SLLI(5, 5, 6));
    emit(&p, ADD(7, 10, 5));
    for (k = 0; k < 16; k++) {
        emit(&p, CSRR(8, csrs[k]));
        emit(&p, SW(8, 7, 4 * k));
    }
    emit(&p, RET);
    new_machine(&mc, 1, &p);
    mc.l.block_dim[0] = 8;
    mc.l.block_dim[1] = 4;
    mc.l.block_dim[2] = 3;
    mc.l.grid_dim[0] = 2;
    mc.l.grid_dim[2] = 2;
    f = machine_run(&mc);
    for (bz = 0; bz < 2; bz++) {
        for (bx = 0; bx < 2; bx++) {
            for (t = 0; t < 96; t++) {
                uint32_t want[16] = {
                    t % 8, t / 8 % 4, t / 32, bx, 0, bz, 8, 4, 3, 2, 1, 2,
                    t % 32, t / 32, 0, 3,
                };
                uint32_t slot = OUT + ((bz * 2 + bx) * 128 + t) * 64;

                for (k = 0; k < 16; k++) {
                    bad += rd32(&mc, slot + 4 * k) != want[k];
                }
            }
        }
    }
    ok(!f && !bad, "thread, block, grid, lane, warp CSRs in a 3-D launch");
    ok(mc.r.thread_insns == 4 * 96 * (13 + 32 + 1) &&
       mc.r.warp_insns == 4 * 3 * (13 + 32 + 1),
       "thread and warp instruction counts");
    machine_free(&mc);
}

/*
 * Per lane: if (tid & 1) { if (tid & 2) r = 1 else r = 2 } else r = 3;
 * then a loop of tid % 5 iterations adding 10, a call to a function
 * that spills ra to the stack, and a ballot right after each join point,
 * which sees all 32 lanes only if the warp reconverged there.
 */
static void test_divergence(void)
{
    Prog p = { .n = 0 };
    Machine mc;
    unsigned b1, b2, j1, j2, join, loop, lexit, call, fn, i;
    bool good;
    int f;

    prologue(&p);
    emit(&p, ANDI(8, 5, 1));
    b1 = emit(&p, 0);                   /* beq x8, x0, else */
    emit(&p, ANDI(9, 5, 2));
    b2 = emit(&p, 0);                   /* beq x9, x0, inner else */
    emit(&p, ADDI(11, 0, 1));
    j1 = emit(&p, 0);                   /* j join */
    patch_b(&p, b2, 0, 9, 0, p.n);
    emit(&p, ADDI(11, 0, 2));
    j2 = emit(&p, 0);
    patch_b(&p, b1, 0, 8, 0, p.n);
    emit(&p, ADDI(11, 0, 3));
    join = emit(&p, ADDI(12, 0, 1));
    patch_j(&p, j1, 0, join);
    patch_j(&p, j2, 0, join);
    emit(&p, VOTE(SIMT_VOTE_BALLOT, 13, 12));
    emit(&p, SW(13, 7, 0x100));
    /* loop: x14 = tid % 5 iterations */
    emit(&p, ADDI(14, 0, 5));
    emit(&p, REMU(14, 5, 14));
    loop = emit(&p, 0);                 /* beq x14, x0, exit */
    emit(&p, ADDI(11, 11, 10));
    emit(&p, ADDI(14, 14, -1));
    emit(&p, JAL(0, rel(p.n, loop)));
    lexit = emit(&p, VOTE(SIMT_VOTE_BALLOT, 13, 12));
    patch_b(&p, loop, 0, 14, 0, lexit);
    emit(&p, SW(13, 7, 0x200));
    /* call fn, which saves ra on the stack */
    emit(&p, ADDI(2, 2, -16));
    emit(&p, SW(1, 2, 12));
    call = emit(&p, 0);
    emit(&p, LW(1, 2, 12));
    emit(&p, ADDI(2, 2, 16));
    emit(&p, SW(11, 7, 0));
    emit(&p, RET);
    /* fn: x11 = x11 * 3 if tid < 20 (divergent return paths) */
    fn = emit(&p, ADDI(15, 0, 20));
    patch_j(&p, call, 1, fn);
    emit(&p, BGEU(5, 15, 12));
    emit(&p, ADD(16, 11, 11));
    emit(&p, ADD(11, 16, 11));
    emit(&p, RET);

    new_machine(&mc, 32, &p);
    f = machine_run(&mc);
    good = !f;
    for (i = 0; i < 32; i++) {
        uint32_t r = i & 1 ? (i & 2 ? 1 : 2) : 3;

        r += 10 * (i % 5);
        r = i < 20 ? r * 3 : r;
        good &= rd32(&mc, OUT + 4 * i) == r;
    }
    ok(good, "nested if/else, per-lane loop and a call compute per lane");
    good = true;
    for (i = 0; i < 32; i++) {
        good &= rd32(&mc, OUT + 0x100 + 4 * i) == SIMT_FULL_MASK &&
                rd32(&mc, OUT + 0x200 + 4 * i) == SIMT_FULL_MASK;
    }
    ok(good, "the warp reconverges after if/else and after the loop");
    machine_free(&mc);
}

/* Each side of an if/else issues once: no lane runs the other side. */
static void test_divergence_cost(void)
{
    Prog p = { .n = 0 };
    Machine mc;
    unsigned br, j, i;
    int f;

    prologue(&p);                       /* 3 */
    emit(&p, ANDI(8, 5, 1));            /* 1 */
    br = emit(&p, 0);                   /* 1 */
    for (i = 0; i < 5; i++) {
        emit(&p, ADDI(18, 18, 1));      /* 5, then side */
    }
    j = emit(&p, 0);                    /* 1 */
    patch_b(&p, br, 0, 8, 0, p.n);
    for (i = 0; i < 7; i++) {
        emit(&p, ADDI(18, 18, 2));      /* 7, else side */
    }
    patch_j(&p, j, 0, p.n);
    emit(&p, SW(18, 7, 0));             /* 1 */
    emit(&p, RET);                      /* 1 */
    new_machine(&mc, 32, &p);
    f = machine_run(&mc);
    ok(!f && mc.r.warp_insns == 3 + 1 + 1 + 6 + 7 + 2,
       "if/else costs the sum of both sides once (%" PRIu64 ")",
       mc.r.warp_insns);
    ok(mc.r.thread_insns == 32 * 7 + 16 * 6 + 16 * 7,
       "thread instructions count active lanes only");
    ok(rd32(&mc, OUT) == 14 && rd32(&mc, OUT + 4) == 5,
       "both sides computed");
    machine_free(&mc);
}

static void test_early_exit(void)
{
    Prog p = { .n = 0 };
    Machine mc;
    unsigned br, br2, i;
    bool good;
    int f;

    prologue(&p);
    emit(&p, ADDI(8, 0, 1));
    emit(&p, SW(8, 7, 0));
    emit(&p, ANDI(8, 5, 3));
    br = emit(&p, 0);                   /* tid % 4 == 0: return */
    emit(&p, ADDI(9, 0, 1));
    br2 = emit(&p, 0);                  /* tid % 4 == 1: exit insn */
    emit(&p, ADDI(8, 0, 2));
    emit(&p, SW(8, 7, 0));
    emit(&p, RET);
    patch_b(&p, br, 0, 8, 0, p.n);
    emit(&p, RET);
    patch_b(&p, br2, 0, 8, 9, p.n);
    emit(&p, EXIT);
    new_machine(&mc, 40, &p);
    f = machine_run(&mc);
    good = !f;
    for (i = 0; i < 40; i++) {
        good &= rd32(&mc, OUT + 4 * i) == (i % 4 < 2 ? 1u : 2u);
    }
    ok(good, "early return and exit leave the other lanes running");
    machine_free(&mc);
}

/* shared[t] = 3t; barrier; out[t] = shared[(t + 1) % n] */
static void test_barrier_exchange(void)
{
    Prog p = { .n = 0 };
    Machine mc;
    unsigned i, n = 128;
    bool good;
    int f;

    prologue(&p);
    emit_li(&p, 8, SIMT_SHARED_BASE);
    emit(&p, ADD(9, 8, 6));
    emit(&p, ADD(11, 5, 5));
    emit(&p, ADD(11, 11, 5));
    emit(&p, SW(11, 9, 0));
    emit(&p, BARRIER);
    emit(&p, ADDI(12, 5, 1));
    emit(&p, CSRR(13, SIMT_CSR_NTID_X));
    emit(&p, REMU(12, 12, 13));
    emit(&p, SLLI(12, 12, 2));
    emit(&p, ADD(12, 12, 8));
    emit(&p, LW(11, 12, 0));
    emit(&p, SW(11, 7, 0));
    emit(&p, RET);
    new_machine(&mc, n, &p);
    f = machine_run(&mc);
    good = !f;
    for (i = 0; i < n; i++) {
        good &= rd32(&mc, OUT + 4 * i) == 3 * ((i + 1) % n);
    }
    ok(good, "barrier orders shared memory across 4 warps");
    machine_free(&mc);
}

/*
 * Ten rounds of: every thread adds 1 to a shared counter, waits, reads it,
 * waits again.  The two halves of each warp reach the first barrier through
 * different barrier instructions (barriers count threads, not sites).
 */
static void test_barrier_loop_divergent(void)
{
    Prog p = { .n = 0 };
    Machine mc;
    unsigned top, br, j, i, n = 96;
    bool good;
    int f;

    prologue(&p);
    emit_li(&p, 8, SIMT_SHARED_BASE);
    emit(&p, ADDI(14, 0, 10));          /* rounds */
    top = emit(&p, ADDI(13, 0, 1));
    emit(&p, AMOADD(0, 8, 13));         /* shared[0] += 1 */
    emit(&p, ANDI(9, 5, 16));
    br = emit(&p, 0);
    emit(&p, BARRIER);                  /* lanes 0..15 of each warp */
    j = emit(&p, 0);
    patch_b(&p, br, 1, 9, 0, p.n);
    emit(&p, BARRIER);                  /* lanes 16..31 */
    patch_j(&p, j, 0, p.n);
    emit(&p, LW(11, 8, 0));             /* all increments of this round */
    emit(&p, BARRIER);
    emit(&p, SLLI(12, 14, 9));
    emit(&p, ADD(12, 12, 7));
    emit(&p, SW(11, 12, 0));
    emit(&p, ADDI(14, 14, -1));
    emit(&p, BNE(14, 0, rel(p.n, top)));
    emit(&p, RET);
    new_machine(&mc, n, &p);
    f = machine_run(&mc);
    good = !f;
    for (i = 0; i < n; i++) {
        unsigned r;

        for (r = 1; r <= 10; r++) {
            /* round r (counting down from 10) saw (11 - r) * n adds */
            good &= rd32(&mc, OUT + 4 * i + 512 * r) == (11 - r) * n;
        }
    }
    ok(good, "barriers in a loop, reached from divergent paths");
    machine_free(&mc);
}

/*
 * `if (...) return;` before a barrier: threads with tid % 3 == 0 and the
 * whole second warp exit first; the others count themselves in shared
 * memory and meet at a barrier reached through two instructions (even
 * and odd lanes), then read the count.  Exited threads do not count, so
 * the barrier completes and every remaining thread reads all of them.
 */
static void test_barrier_after_exit(void)
{
    Prog p = { .n = 0 };
    Machine mc;
    unsigned exit3, exitw, odd, join, i, n = 96, live = 0;
    bool good;
    int f;

    prologue(&p);
    emit_li(&p, 8, SIMT_SHARED_BASE);
    emit(&p, ADDI(13, 0, 3));
    emit(&p, REMU(9, 5, 13));
    exit3 = emit(&p, 0);                /* tid % 3 == 0: return */
    emit(&p, SRLI(9, 5, 5));
    emit(&p, ADDI(13, 0, 1));
    exitw = emit(&p, 0);                /* warp 1: return */
    emit(&p, AMOADD(0, 8, 13));         /* shared[0] += 1 */
    emit(&p, ANDI(9, 5, 1));
    odd = emit(&p, 0);
    emit(&p, BARRIER);                  /* even lanes */
    join = emit(&p, 0);
    patch_b(&p, odd, 1, 9, 0, p.n);
    emit(&p, BARRIER);                  /* odd lanes */
    patch_j(&p, join, 0, p.n);
    emit(&p, LW(11, 8, 0));
    emit(&p, SW(11, 7, 0));
    emit(&p, RET);
    patch_b(&p, exit3, 0, 9, 0, p.n);
    patch_b(&p, exitw, 0, 9, 13, p.n);
    emit(&p, RET);
    new_machine(&mc, n, &p);
    f = machine_run(&mc);
    for (i = 0; i < n; i++) {
        live += i % 3 && i / 32 != 1;
    }
    good = !f;
    for (i = 0; i < n; i++) {
        good &= rd32(&mc, OUT + 4 * i) == (i % 3 && i / 32 != 1 ? live : 0);
    }
    ok(good, "barrier after early returns: exited threads do not count, "
       "%u threads meet at two barrier instructions (fault %d)", live, f);
    machine_free(&mc);
}

static void test_vote_shuffle(void)
{
    Prog p = { .n = 0 };
    Machine mc;
    unsigned i, br;
    bool good;
    int f;

    prologue(&p);
    emit(&p, ANDI(8, 5, 4));
    emit(&p, VOTE(SIMT_VOTE_BALLOT, 11, 8));
    emit(&p, SW(11, 7, 0));
    emit(&p, VOTE(SIMT_VOTE_ANY, 11, 8));
    emit(&p, SW(11, 7, 0x100));
    emit(&p, VOTE(SIMT_VOTE_ALL, 11, 8));
    emit(&p, SW(11, 7, 0x200));
    emit(&p, ADDI(9, 0, 1));
    emit(&p, VOTE(SIMT_VOTE_ALL, 11, 9));
    emit(&p, SW(11, 7, 0x300));
    /* shuffles of v = 100 + lane */
    emit(&p, ADDI(12, 5, 100));
    emit(&p, ADDI(13, 0, 3));
    emit(&p, SHFL(SIMT_SHFL_DOWN, 11, 12, 13));
    emit(&p, SW(11, 7, 0x400));
    emit(&p, SHFL(SIMT_SHFL_UP, 11, 12, 13));
    emit(&p, SW(11, 7, 0x500));
    emit(&p, SHFL(SIMT_SHFL_XOR, 11, 12, 13));
    emit(&p, SW(11, 7, 0x600));
    emit(&p, XORI(14, 5, 31));
    emit(&p, SHFL(SIMT_SHFL_IDX, 11, 12, 14));
    emit(&p, SW(11, 7, 0x700));
    /* butterfly sum with shfl.xor 16, 8, 4, 2, 1 */
    emit(&p, ADD(11, 12, 0));
    for (i = 16; i; i >>= 1) {
        emit(&p, ADDI(13, 0, i));
        emit(&p, SHFL(SIMT_SHFL_XOR, 15, 11, 13));
        emit(&p, ADD(11, 11, 15));
    }
    emit(&p, ADDI(17, 7, 0x400));       /* x17 = x7 + 0x800 */
    emit(&p, ADDI(17, 17, 0x400));
    emit(&p, SW(11, 17, 0));
    /* inside a branch taken by even lanes only */
    emit(&p, ANDI(8, 5, 1));
    br = emit(&p, 0);
    emit(&p, ADDI(9, 0, 1));
    emit(&p, VOTE(SIMT_VOTE_BALLOT, 11, 9));
    emit(&p, SW(11, 17, 0x100));
    emit(&p, ADDI(13, 0, 1));
    emit(&p, SHFL(SIMT_SHFL_DOWN, 11, 12, 13));
    emit(&p, SW(11, 17, 0x200));
    patch_b(&p, br, 1, 8, 0, p.n);
    emit(&p, RET);
    new_machine(&mc, 32, &p);
    f = machine_run(&mc);
    good = !f;
    for (i = 0; i < 32; i++) {
        good &= rd32(&mc, OUT + 4 * i) == 0xf0f0f0f0 &&
                rd32(&mc, OUT + 0x100 + 4 * i) == 1 &&
                rd32(&mc, OUT + 0x200 + 4 * i) == 0 &&
                rd32(&mc, OUT + 0x300 + 4 * i) == 1;
    }
    ok(good, "vote ballot, any, all");
    good = !f;
    for (i = 0; i < 32; i++) {
        good &= rd32(&mc, OUT + 0x400 + 4 * i) == 100 + (i + 3 < 32 ? i + 3
                                                                   : i) &&
                rd32(&mc, OUT + 0x500 + 4 * i) == 100 + (i >= 3 ? i - 3 : i) &&
                rd32(&mc, OUT + 0x600 + 4 * i) == 100 + (i ^ 3) &&
                rd32(&mc, OUT + 0x700 + 4 * i) == 100 + (i ^ 31);
    }
    ok(good, "shuffle down, up, xor, idx; out of range keeps own value");
    good = !f;
    for (i = 0; i < 32; i++) {
        good &= rd32(&mc, OUT + 0x800 + 4 * i) == 32 * 100 + 496;
    }
    ok(good, "butterfly reduction with shfl.xor");
    good = !f;
    for (i = 0; i < 32; i += 2) {
        good &= rd32(&mc, OUT + 0x900 + 4 * i) == 0x55555555 &&
                rd32(&mc, OUT + 0xa00 + 4 * i) == 100 + i;
    }
    ok(good, "vote and shuffle see only the active lanes");
    machine_free(&mc);
}

/*
 * Lanes with lane % 8 == 0 add 1000 to v = 100 + lane in a block laid out
 * after the join (as clang's block placement does), the others go
 * straight to the join; there every lane reads lane 0's v.  With @wsync
 * a warp sync on the full mask precedes the shuffle.
 */
static int run_join_shuffle(bool wsync, Machine *mc)
{
    Prog p = { .n = 0 };
    unsigned br, join, back;

    prologue(&p);
    emit(&p, ADDI(12, 5, 100));
    emit_li(&p, 20, SIMT_FULL_MASK);
    emit(&p, ANDI(8, 5, 7));
    br = emit(&p, 0);
    join = p.n;
    if (wsync) {
        emit(&p, WSYNC(20));
    }
    emit(&p, SHFL(SIMT_SHFL_IDX, 11, 12, 0));
    emit(&p, SW(11, 7, 0));
    emit(&p, RET);
    patch_b(&p, br, 0, 8, 0, p.n);      /* lane % 8 == 0: out of line */
    emit(&p, ADDI(12, 12, 1000));
    back = emit(&p, 0);
    patch_j(&p, back, 0, join);
    new_machine(mc, 32, &p);
    return machine_run(mc);
}

/*
 * Two halves of the warp take different paths; each reaches a warp sync
 * with @lo_mask / @hi_mask, then reads v = 100 + lane of lane 15 / 16.
 */
static int run_split_sync(uint32_t lo_mask, uint32_t hi_mask, Machine *mc)
{
    Prog p = { .n = 0 };
    unsigned br, end;

    prologue(&p);
    emit(&p, ADDI(12, 5, 100));
    emit(&p, SRLI(8, 5, 4));
    br = emit(&p, 0);
    emit_li(&p, 20, lo_mask);
    emit(&p, WSYNC(20));
    emit(&p, ADDI(13, 0, 15));
    emit(&p, SHFL(SIMT_SHFL_IDX, 11, 12, 13));
    end = emit(&p, 0);
    patch_b(&p, br, 1, 8, 0, p.n);      /* lanes 16..31 */
    emit_li(&p, 20, hi_mask);
    emit(&p, WSYNC(20));
    emit(&p, ADDI(13, 0, 16));
    emit(&p, SHFL(SIMT_SHFL_IDX, 11, 12, 13));
    patch_j(&p, end, 0, p.n);
    emit(&p, SW(11, 7, 0));
    emit(&p, RET);
    new_machine(mc, 32, &p);
    return machine_run(mc);
}

static void test_warp_sync(void)
{
    Prog p = { .n = 0 };
    Machine mc;
    unsigned i, br, wrong = 0;
    bool good;
    int f;

    f = run_join_shuffle(false, &mc);
    for (i = 1; i < 32; i++) {
        wrong += rd32(&mc, OUT + 4 * i) != 1100;
    }
    machine_free(&mc);
    f |= run_join_shuffle(true, &mc);
    good = !f && wrong == 28;
    for (i = 0; i < 32; i++) {
        good &= rd32(&mc, OUT + 4 * i) == 1100;
    }
    ok(good, "warp sync: lanes wait for a lane in a block laid out after "
       "the join, then shuffle together (without it %u lanes read a wrong "
       "value)", wrong);
    machine_free(&mc);

    /* lanes 16..31 return first; lanes 0..15 sync on the full mask */
    prologue(&p);
    emit(&p, ADDI(12, 5, 100));
    emit_li(&p, 20, SIMT_FULL_MASK);
    emit(&p, ADDI(8, 0, 16));
    br = emit(&p, 0);
    emit(&p, WSYNC(20));
    emit(&p, ADDI(13, 0, 15));
    emit(&p, SHFL(SIMT_SHFL_IDX, 11, 12, 13));
    emit(&p, SW(11, 7, 0));
    patch_b(&p, br, 7, 5, 8, p.n);      /* tid >= 16: return */
    emit(&p, RET);
    new_machine(&mc, 32, &p);
    f = machine_run(&mc);
    good = !f;
    for (i = 0; i < 32; i++) {
        good &= rd32(&mc, OUT + 4 * i) == (i < 16 ? 115 : 0);
    }
    ok(good, "warp sync: exited lanes of the mask do not count (fault %d)",
       f);
    machine_free(&mc);

    f = run_split_sync(0x0000ffffu, 0xffff0000u, &mc);
    good = !f;
    for (i = 0; i < 32; i++) {
        good &= rd32(&mc, OUT + 4 * i) == (i < 16 ? 115 : 116);
    }
    ok(good, "warp sync: two half-warp masks at two pcs complete "
       "independently (fault %d)", f);
    machine_free(&mc);

    f = run_split_sync(SIMT_FULL_MASK, SIMT_FULL_MASK, &mc);
    ok(f == SIMT_FAULT_BARRIER && mc.r.fault_lane == 0 &&
       rd32(&mc, OUT + 4 * 20) == 0,
       "warp sync: full-mask syncs at two different pcs fault as a "
       "deadlock (fault %d, lane %u)", f, mc.r.fault_lane);
    machine_free(&mc);

    /* lanes 0..15 at the block barrier, 16..31 at a full-mask warp sync */
    p.n = 0;
    prologue(&p);
    emit_li(&p, 20, SIMT_FULL_MASK);
    emit(&p, SRLI(8, 5, 4));
    br = emit(&p, 0);
    emit(&p, BARRIER);
    emit(&p, RET);
    patch_b(&p, br, 1, 8, 0, p.n);
    emit(&p, WSYNC(20));
    emit(&p, RET);
    new_machine(&mc, 32, &p);
    f = machine_run(&mc);
    ok(f == SIMT_FAULT_BARRIER && mc.r.fault_lane == 16 &&
       mc.r.fault_pc == T_CODE + 4 * (br + 3),
       "warp sync waiting for lanes at a block barrier faults as a "
       "deadlock (fault %d, lane %u)", f, mc.r.fault_lane);
    machine_free(&mc);
}

/* 8 warps x 32 lanes x 50 rounds of atomic increments */
static void test_contention(void)
{
    static const char *const where[] = { "shared", "global" };
    unsigned k;

    for (k = 0; k < 2; k++) {
        Prog p = { .n = 0 };
        Machine mc;
        unsigned top, top2;
        uint32_t counter = k ? T_DATA + 0x10000 : SIMT_SHARED_BASE;
        int f;

        prologue(&p);
        emit_li(&p, 8, counter);
        emit(&p, ADDI(14, 0, 50));
        emit(&p, ADDI(13, 0, 1));
        top = emit(&p, AMOADD(0, 8, 13));
        emit(&p, AMOMAX(0, 8, 0));          /* no-op: counter >= 0 */
        emit(&p, ADDI(14, 14, -1));
        emit(&p, BNE(14, 0, rel(p.n, top)));
        /* the same with lr/sc on the next word */
        emit(&p, ADDI(14, 0, 50));
        emit(&p, ADDI(9, 8, 4));
        top2 = emit(&p, LR_W(15, 9));
        emit(&p, ADDI(15, 15, 1));
        emit(&p, SC_W(16, 9, 15));
        emit(&p, BNE(16, 0, rel(p.n, top2)));
        emit(&p, ADDI(14, 14, -1));
        emit(&p, BNE(14, 0, rel(p.n, top2)));
        emit(&p, AMOMAXU(0, 8, 5));         /* no-op: counter > tid */
        emit(&p, BARRIER);
        emit(&p, LW(11, 8, 0));
        emit(&p, LW(12, 9, 0));
        emit(&p, SW(11, 7, 0));
        emit(&p, SW(12, 7, 0x400));
        emit(&p, RET);
        new_machine(&mc, 256, &p);
        f = machine_run(&mc);
        ok(!f && rd32(&mc, OUT) == 256 * 50 &&
           rd32(&mc, OUT + 4 * 255) == 256 * 50,
           "amoadd.w contention on %s memory across 8 warps", where[k]);
        ok(!f && rd32(&mc, OUT + 0x400) == 256 * 50,
           "lr/sc increment loop on %s memory across 8 warps", where[k]);
        machine_free(&mc);
    }
}

/* Local memory is private per thread and lives at local_addr. */
static void test_local(void)
{
    Prog p = { .n = 0 };
    Machine mc;
    unsigned i;
    bool good;
    int f;

    prologue(&p);
    emit(&p, SW(5, 2, -4));
    emit(&p, ADDI(8, 5, 7));
    emit_li(&p, 9, SIMT_LOCAL_BASE);
    emit(&p, SW(8, 9, 0));
    emit(&p, LW(11, 2, -4));
    emit(&p, LW(12, 9, 0));
    emit(&p, ADD(11, 11, 12));
    emit(&p, SW(11, 7, 0));
    emit(&p, SW(2, 7, 0x400));
    emit(&p, RET);
    new_machine(&mc, 64, &p);
    f = machine_run(&mc);
    good = !f;
    for (i = 0; i < 64; i++) {
        good &= rd32(&mc, OUT + 4 * i) == 2 * i + 7 &&
                rd32(&mc, OUT + 0x400 + 4 * i) == SIMT_LOCAL_BASE + 256 &&
                rd32(&mc, T_LOCAL + 256 * i) == i + 7 &&
                rd32(&mc, T_LOCAL + 256 * i + 252) == i;
    }
    ok(good, "local memory: sp at the top, private per thread");
    machine_free(&mc);
}

static int run_one(uint32_t *code, unsigned n, SimtGridResult *r)
{
    Prog p = { .n = 0 };
    Machine mc;
    unsigned i;
    int f;

    prologue(&p);
    for (i = 0; i < n; i++) {
        emit(&p, code[i]);
    }
    emit(&p, RET);
    new_machine(&mc, 40, &p);
    f = machine_run(&mc);
    *r = mc.r;
    machine_free(&mc);
    return f;
}

static void test_faults(void)
{
    SimtGridResult r;
    int f;

    {
        uint32_t c[] = { ADDI(8, 0, 0x102), LW(9, 8, 0) };

        f = run_one(c, 2, &r);
        ok(f == SIMT_FAULT_MISALIGNED && r.fault_addr == 0x102 &&
           r.fault_pc == T_CODE + 16 && r.fault_lane == 0,
           "misaligned lw: cause, pc, address, lane");
    }
    {
        uint32_t c[] = { ADDI(8, 0, 0x101), SH(9, 8, 0) };

        f = run_one(c, 2, &r);
        ok(f == SIMT_FAULT_MISALIGNED, "misaligned sh");
    }
    {
        uint32_t c[] = { LUI(8, 0x00500000), ADD(8, 8, 6), SW(9, 8, 0) };

        f = run_one(c, 3, &r);
        ok(f == SIMT_FAULT_ACCESS && r.fault_addr == 0x00500000,
           "store outside memory");
    }
    {
        /* lane 33 (warp 1, lane 1) is the first to go out of range */
        uint32_t c[] = { ADDI(8, 0, 33), BLTU(5, 8, 12), LUI(9, 0x00500000),
                         LW(9, 9, 0) };

        f = run_one(c, 4, &r);
        ok(f == SIMT_FAULT_ACCESS && r.fault_warp == 1 && r.fault_lane == 1,
           "fault names the warp and lane");
    }
    {
        uint32_t c[] = { LUI(8, SIMT_SHARED_BASE + 0x1000), LW(9, 8, 0) };

        f = run_one(c, 2, &r);
        ok(f == SIMT_FAULT_ACCESS, "shared access past shared_size");
    }
    {
        uint32_t c[] = { LUI(8, SIMT_LOCAL_BASE), LW(9, 8, 256) };

        f = run_one(c, 2, &r);
        ok(f == SIMT_FAULT_ACCESS, "local access past local_size");
    }
    {
        uint32_t c[] = { LUI(8, 0x00200000), JALR(0, 8, 0) };

        f = run_one(c, 2, &r);
        ok(f == SIMT_FAULT_FETCH && r.fault_pc == 0x00200000,
           "jump outside the code range");
    }
    {
        uint32_t c[] = { JAL(0, 0) };

        f = run_one(c, 1, &r);
        ok(f == SIMT_FAULT_WATCHDOG && r.warp_insns == 10000000 &&
           r.fault_pc == T_CODE + 12, "endless loop hits the budget");
    }
    {
        uint32_t c[] = { 0x0000000b | 5 << 12 };

        f = run_one(c, 1, &r);
        ok(f == SIMT_FAULT_ILLEGAL_INSN && r.fault_pc == T_CODE + 12,
           "unknown custom-0 function");
    }
    {
        uint32_t c[] = { VOTE(3, 8, 9) };

        f = run_one(c, 1, &r);
        ok(f == SIMT_FAULT_ILLEGAL_INSN, "unknown vote kind");
    }
}

static unsigned cb_loads, cb_stores;

static int cb_load(void *opaque, uint32_t addr, unsigned size, uint32_t *val)
{
    uint8_t *mem = opaque;

    cb_loads++;
    if (addr >= 0x00800000 && addr < 0x00801000) {
        return SIMT_FAULT_PAGE;
    }
    if (addr + size > T_MEM_SIZE) {
        return SIMT_FAULT_ACCESS;
    }
    *val = 0;
    memcpy(val, mem + addr, size);
    return SIMT_FAULT_NONE;
}

static int cb_store(void *opaque, uint32_t addr, unsigned size, uint32_t val)
{
    uint8_t *mem = opaque;

    cb_stores++;
    if (addr >= 0x00800000 && addr < 0x00801000) {
        return SIMT_FAULT_PAGE;
    }
    if (addr + size > T_MEM_SIZE) {
        return SIMT_FAULT_ACCESS;
    }
    memcpy(mem + addr, &val, size);
    return SIMT_FAULT_NONE;
}

static unsigned cb_fetches;

static int cb_fetch(void *opaque, uint32_t addr, uint32_t *val)
{
    cb_fetches++;
    if (addr == T_CODE + 8) {
        return SIMT_FAULT_PAGE;     /* the third instruction's page */
    }
    return cb_load(opaque, addr, 4, val);
}

static const SimtMemOps cb_ops = { .load = cb_load, .store = cb_store };
static const SimtMemOps cb_fetch_ops = {
    .load = cb_load, .store = cb_store, .fetch = cb_fetch,
};

static void test_callbacks(void)
{
    Prog p = { .n = 0 };
    Machine mc;
    unsigned i;
    bool good;
    int f;

    prologue(&p);
    emit(&p, ADDI(8, 5, 1));
    emit(&p, SW(8, 7, 0));
    emit(&p, ADDI(9, 0, 2));
    emit(&p, AMOADD(11, 7, 9));
    emit(&p, SB(5, 7, 0x100));
    emit(&p, LBU(12, 7, 0x100));
    emit(&p, SW(12, 7, 0x200));
    emit(&p, SW(2, 2, -4));
    emit(&p, RET);
    new_machine(&mc, 32, &p);
    mc.m.flat = NULL;
    mc.m.ops = &cb_ops;
    mc.m.opaque = mc.mem;
    cb_loads = cb_stores = 0;
    f = machine_run(&mc);
    good = !f;
    for (i = 0; i < 32; i++) {
        good &= rd32(&mc, OUT + 4 * i) == i + 3 &&
                rd32(&mc, OUT + 0x200 + 4 * i) == i &&
                rd32(&mc, T_LOCAL + 256 * i + 252) == SIMT_LOCAL_BASE + 256;
    }
    ok(good && cb_loads >= 32 * 2 + p.n && cb_stores == 32 * 5,
       "global, local and code go through the callbacks without flat");

    p.n = 0;
    prologue(&p);
    emit(&p, LUI(8, 0x00800000));
    emit(&p, ADD(8, 8, 6));
    emit(&p, LW(9, 8, 0));
    emit(&p, RET);
    machine_free(&mc);
    new_machine(&mc, 32, &p);
    mc.m.flat_size = 0x2000;            /* code only in the flat window */
    mc.m.ops = &cb_ops;
    mc.m.opaque = mc.mem;
    f = machine_run(&mc);
    ok(f == SIMT_FAULT_PAGE && mc.r.fault_addr == 0x00800000 &&
       mc.r.fault_pc == T_CODE + 20, "a callback's page fault is recorded");
    machine_free(&mc);

    /* Code comes through the fetch callback when there is one. */
    new_machine(&mc, 32, &p);
    mc.m.flat = NULL;
    mc.m.ops = &cb_fetch_ops;
    mc.m.opaque = mc.mem;
    cb_fetches = 0;
    f = machine_run(&mc);
    ok(f == SIMT_FAULT_PAGE && mc.r.fault_pc == T_CODE + 8 &&
       cb_fetches == 3, "instruction fetch uses the fetch callback");
    machine_free(&mc);
}

/* Drive a block by hand: small budgets, and a copy of its state. */
static void test_stepping(void)
{
    Prog p = { .n = 0 };
    Machine mc;
    SimtCode code;
    SimtBlock b, b2;
    SimtBlockDesc d = { .local_addr = T_LOCAL };
    SimtWarp *w = calloc(4, sizeof(*w)), *w2 = calloc(4, sizeof(*w2));
    uint8_t shared[4096], shared2[4096];
    uint32_t ref[128];
    unsigned i, top, calls = 0;
    uint64_t n;
    bool good = true, copy_ok = true;

    /* out[t] = sum over k < 20 + t % 7 of k * t, with a barrier per 8 */
    prologue(&p);
    emit(&p, ADDI(8, 0, 0));
    emit(&p, ADDI(9, 0, 7));
    emit(&p, REMU(9, 5, 9));
    emit(&p, ADDI(9, 9, 20));
    emit(&p, ADDI(11, 0, 0));
    top = emit(&p, MUL(12, 8, 5));
    emit(&p, ADD(11, 11, 12));
    emit(&p, ADDI(8, 8, 1));
    emit(&p, BLTU(8, 9, rel(p.n, top)));
    emit(&p, BARRIER);
    emit(&p, SW(11, 7, 0));
    emit(&p, RET);
    new_machine(&mc, 128, &p);
    for (i = 0; i < 128; i++) {
        unsigned k;

        ref[i] = 0;
        for (k = 0; k < 20 + i % 7; k++) {
            ref[i] += k * i;
        }
    }
    simt_code_init(&code, mc.l.code_base, mc.l.code_size);
    simt_block_init(&b, &mc.l, &d, &code, &mc.m, w, shared);
    ok(simt_warp_run(&b, 0, 5) == 5 && b.st.warp_insns == 5,
       "simt_warp_run stops after its budget");
    while (b.st.status == SIMT_RUNNING && calls < 100000u) {
        n = b.st.warp_insns;
        simt_block_run(&b, 7);
        good &= b.st.warp_insns - n <= 7;
        calls++;
        if (calls == 50) {
            /* migrate: copy the architectural state to a new block */
            simt_block_init(&b2, &mc.l, &d, &code, &mc.m, w2, shared2);
            b2.st = b.st;
            memcpy(w2, w, 4 * sizeof(*w));
            memcpy(shared2, shared, sizeof(shared));
            copy_ok = b2.st.status == SIMT_RUNNING;
            b = b2;
        }
    }
    ok(good && b.st.status == SIMT_DONE && calls > 50,
       "simt_block_run honours budgets of 7 (%u calls)", calls);
    for (i = 0; i < 128; i++) {
        copy_ok &= rd32(&mc, OUT + 4 * i) == ref[i];
    }
    ok(copy_ok, "a block continued from a copy of its state is exact");
    ok(simt_block_run(&b, 100) == SIMT_DONE && simt_warp_run(&b, 0, 9) == 0,
       "a finished block does nothing");
    simt_code_destroy(&code);
    machine_free(&mc);
    free(w);
    free(w2);
}

/*
 * Preemption points: a warp stops before issuing an instruction at one of
 * b->stop_pcs (before its first, too), with its lanes' pcs there, and
 * goes on from there exactly once the points are taken away.
 */
static void test_stop_pcs(void)
{
    Prog p = { .n = 0 };
    Machine mc;
    SimtCode code;
    SimtBlock b;
    SimtBlockDesc d = { .local_addr = T_LOCAL };
    SimtWarp *w = calloc(1, sizeof(*w));
    uint8_t shared[4096];
    uint32_t stop[2], ref[32];
    unsigned i, top;
    uint64_t n;
    bool at_top = true, good = true;

    /* out[t] = sum over k < 20 + t % 7 of k * t */
    prologue(&p);
    emit(&p, ADDI(8, 0, 0));
    emit(&p, ADDI(9, 0, 7));
    emit(&p, REMU(9, 5, 9));
    emit(&p, ADDI(9, 9, 20));
    emit(&p, ADDI(11, 0, 0));
    top = emit(&p, MUL(12, 8, 5));
    emit(&p, ADD(11, 11, 12));
    emit(&p, ADDI(8, 8, 1));
    emit(&p, BLTU(8, 9, rel(p.n, top)));
    emit(&p, SW(11, 7, 0));
    emit(&p, RET);
    new_machine(&mc, 32, &p);
    simt_code_init(&code, mc.l.code_base, mc.l.code_size);
    simt_block_init(&b, &mc.l, &d, &code, &mc.m, w, shared);
    stop[0] = mc.l.code_base + 4 * top;
    stop[1] = mc.l.code_base + 4 * p.n;   /* past the code: never reached */
    b.stop_pcs = stop;
    b.stop_count = 2;

    n = simt_warp_run(&b, 0, 1000);
    for (i = 0; i < 32; i++) {
        at_top &= w->pc[i] == stop[0];
    }
    ok(b.stopped && n == top && at_top,
       "a warp stops before the point, its lanes there (%" PRIu64 ")", n);
    ok(simt_warp_run(&b, 0, 1000) == 0 && b.stopped,
       "a warp at a point issues nothing");
    b.stop_pcs = NULL;
    n = simt_warp_run(&b, 0, 1);
    b.stop_pcs = stop;
    n += simt_warp_run(&b, 0, 1000);
    ok(b.stopped && n == 4 && w->pc[0] == stop[0],
       "one loop iteration later it stops there again (%" PRIu64 ")", n);
    b.stop_pcs = &stop[1];
    b.stop_count = 1;
    ok(simt_warp_run(&b, 0, 2) == 2 && !b.stopped,
       "a run that meets no point clears stopped");
    b.stop_pcs = NULL;
    while (b.st.status == SIMT_RUNNING) {
        simt_warp_run(&b, 0, 1000);
    }
    for (i = 0; i < 32; i++) {
        unsigned k;

        ref[i] = 0;
        for (k = 0; k < 20 + i % 7; k++) {
            ref[i] += k * i;
        }
        good &= rd32(&mc, OUT + 4 * i) == ref[i];
    }
    ok(b.st.status == SIMT_DONE && good,
       "with the points taken away the warp runs on to the right results");
    simt_code_destroy(&code);
    machine_free(&mc);
    free(w);
}

/* The predecode cache sees new code only after simt_code_invalidate. */
static void test_invalidate(void)
{
    Prog p = { .n = 0 };
    Machine mc;
    SimtCode code;
    SimtBlock b;
    SimtBlockDesc d = { .local_addr = T_LOCAL };
    SimtWarp w;
    uint8_t shared[4096];
    unsigned at;

    prologue(&p);
    at = emit(&p, ADDI(11, 0, 1));
    emit(&p, SW(11, 7, 0));
    emit(&p, RET);
    new_machine(&mc, 32, &p);
    simt_code_init(&code, mc.l.code_base, mc.l.code_size);
    simt_block_init(&b, &mc.l, &d, &code, &mc.m, &w, shared);
    simt_block_run(&b, 1000);
    wr32(&mc, T_CODE + 4 * at, ADDI(11, 0, 2));
    simt_block_init(&b, &mc.l, &d, &code, &mc.m, &w, shared);
    simt_block_run(&b, 1000);
    ok(b.st.status == SIMT_DONE && rd32(&mc, OUT) == 1,
       "decoded code is cached");
    simt_code_invalidate(&code);
    simt_block_init(&b, &mc.l, &d, &code, &mc.m, &w, shared);
    simt_block_run(&b, 1000);
    ok(b.st.status == SIMT_DONE && rd32(&mc, OUT) == 2,
       "simt_code_invalidate makes new code visible");
    simt_code_destroy(&code);
    machine_free(&mc);
}

static void test_launch_check(void)
{
    SimtLaunch l = {
        .block_dim = { 32, 32, 1 }, .grid_dim = { 1, 1, 1 },
        .local_size = 16,
    };

    ok(simt_launch_check(&l) == NULL, "1024 threads per block is fine");
    l.block_dim[2] = 2;
    ok(simt_launch_check(&l) != NULL, "2048 threads per block is not");
    l.block_dim[2] = 1;
    l.local_size = 20;
    ok(simt_launch_check(&l) != NULL, "local size must be 16-aligned");
    l.local_size = 16;
    l.grid_dim[1] = 0;
    ok(simt_launch_check(&l) != NULL, "zero grid dimension");
    l.grid_dim[1] = 1;
    l.shared_size = SIMT_SHARED_WINDOW + 1;
    ok(simt_launch_check(&l) != NULL, "shared memory beyond its window");
}

/*
 * The timing model: each warp instruction advances the cycle counter by
 * its class's cost, memory outside the shared window by more, per byte.
 */
static void test_timing(void)
{
    static const SimtTiming timing = {
        .cost = {
            [SIMT_IC_ALU] = 1, [SIMT_IC_BRANCH] = 2, [SIMT_IC_MUL] = 3,
            [SIMT_IC_DIV] = 5, [SIMT_IC_FPU] = 7, [SIMT_IC_FDIV] = 11,
            [SIMT_IC_MEM] = 13, [SIMT_IC_ATOMIC] = 17, [SIMT_IC_SYNC] = 19,
        },
        .global_cost = 100,
        .byte_cost_fx16 = 0x8000,   /* half a cycle per byte */
    };
    Prog p = { .n = 0 };
    Machine mc;
    SimtCode code;
    SimtBlock b;
    SimtBlockDesc desc = { .local_addr = T_LOCAL };
    SimtWarp warp;
    uint8_t shared[64];
    uint64_t n;

    emit(&p, CSRR(5, SIMT_CSR_TID_X));  /* sync 19 */
    emit(&p, MUL(6, 5, 5));             /* mul 3 */
    emit(&p, DIV(6, 6, 5));             /* div 5 */
    emit(&p, SLLI(6, 5, 2));            /* alu 1 */
    emit(&p, ADD(7, 10, 6));            /* alu 1 */
    emit(&p, SW(5, 7, 0));              /* mem 13 + 100 + 16 * 4 / 2 */
    emit_li(&p, 8, SIMT_SHARED_BASE);   /* alu 1 + 1 (lui, addi) */
    emit(&p, SW(5, 8, 0));              /* mem 13, shared: no extra */
    emit(&p, RET);                      /* branch 2 */
    new_machine(&mc, 16, &p);
    mc.l.shared_size = sizeof(shared);
    ok(simt_code_init(&code, mc.l.code_base, mc.l.code_size) == 0,
       "code cache");
    code.timing = &timing;
    simt_block_init(&b, &mc.l, &desc, &code, &mc.m, &warp, shared);
    n = simt_warp_run(&b, 0, 100);
    ok(n == 10 && b.st.status == SIMT_DONE &&
       b.st.cycle == 19 + 3 + 5 + 1 + 1 + 13 + 100 + 32 + 2 + 13 + 2,
       "cycles follow the class costs and global bytes (%" PRIu64 ")",
       b.st.cycle);

    simt_code_destroy(&code);
    simt_code_init(&code, mc.l.code_base, mc.l.code_size);
    simt_block_init(&b, &mc.l, &desc, &code, &mc.m, &warp, shared);
    simt_warp_run(&b, 0, 100);
    ok(b.st.cycle == 10, "without a timing table every instruction is 1");
    simt_code_destroy(&code);
    machine_free(&mc);
}

/* A block of @threads threads running @p under the latency model. */
typedef struct TimedBlock {
    Machine mc;
    SimtCode code;
    SimtBlock b;
    SimtWarp warps[2];
    SimtWarpTiming wt[2];
    uint64_t pipe;
    uint8_t shared[64];
} TimedBlock;

static void timed_block_start(TimedBlock *t, Prog *p, unsigned threads,
                              const SimtTiming *timing, uint64_t pipe)
{
    SimtBlockDesc desc = { .local_addr = T_LOCAL };

    new_machine(&t->mc, threads, p);
    t->mc.l.shared_size = sizeof(t->shared);
    simt_code_init(&t->code, t->mc.l.code_base, t->mc.l.code_size);
    t->code.timing = timing;
    simt_block_init(&t->b, &t->mc.l, &desc, &t->code, &t->mc.m, t->warps,
                    t->shared);
    memset(t->wt, 0, sizeof(t->wt));
    t->pipe = pipe;
    t->b.wtiming = t->wt;
    t->b.mem_pipe = &t->pipe;
}

static void timed_block_end(TimedBlock *t)
{
    simt_code_destroy(&t->code);
    machine_free(&t->mc);
}

/*
 * The latency model (SimtBlock.wtiming): an instruction issues once the
 * registers it reads are ready, its result is ready its class's latency
 * later, a global load's once the SM's memory pipe has moved its bytes
 * and the global latency has passed; the port is charged issue costs
 * only; the requests in flight are bounded; a barrier releases its warps
 * when the last one arrives.
 */
static void test_latency(void)
{
    static const SimtTiming timing = {
        .cost = {
            [SIMT_IC_ALU] = 1, [SIMT_IC_BRANCH] = 1, [SIMT_IC_MEM] = 2,
            [SIMT_IC_SYNC] = 1,
        },
        .latency = {
            [SIMT_IC_ALU] = 4, [SIMT_IC_SYNC] = 4, [SIMT_IC_MEM] = 20,
        },
        .global_latency = 100,
        .byte_cost_fx16 = 0x8000,   /* half a cycle per byte */
    };
    Prog p = { .n = 0 };
    TimedBlock t;

    emit(&p, CSRR(5, SIMT_CSR_TID_X));  /* issues 0, x5 at 4 */
    emit(&p, ADDI(6, 5, 1));            /* waits: issues 4, x6 at 8 */
    emit(&p, ADDI(7, 6, 1));            /* waits: issues 8 */
    emit(&p, ADDI(8, 0, 1));            /* reads x0: issues 9 */
    emit(&p, LW(9, 10, 0));             /* issues 10; pipe 10..42 */
    emit(&p, ADD(11, 9, 9));            /* waits for x9: 42 + 100 */
    emit(&p, RET);                      /* issues 143, ends 144 */
    timed_block_start(&t, &p, 16, &timing, 0);
    simt_warp_run(&t.b, 0, 100);
    ok(t.b.st.status == SIMT_DONE && t.b.st.cycle == 144 && t.pipe == 42,
       "dependent instructions wait for their operands, a load for the "
       "pipe and the global latency (cycle %" PRIu64 ", pipe %" PRIu64 ")",
       t.b.st.cycle, t.pipe);
    ok(t.b.issue_cycles == 8 && t.wt[0].reg[11] == 146 &&
       t.wt[0].reg[0] == 0,
       "the port is charged issue costs only (%" PRIu64 "), results are "
       "ready their latency after issue, x0 never waits",
       t.b.issue_cycles);
    timed_block_end(&t);

    /*
     * The SM's requests in flight are bounded: with the pipe taken up to
     * 500, a store issued at 0 waits until the pipe is no more than the
     * global latency (100) ahead, and so does the load after it.
     */
    p.n = 0;
    emit(&p, SW(0, 10, 0));             /* 0, cost 2, waits 400; 500..532 */
    emit(&p, LW(9, 10, 4));             /* 402, cost 2, waits 30; 532..564 */
    emit(&p, RET);                      /* issues 434 */
    timed_block_start(&t, &p, 16, &timing, 500);
    simt_warp_run(&t.b, 0, 100);
    ok(t.b.st.status == SIMT_DONE && t.b.st.cycle == 435 && t.pipe == 564 &&
       t.wt[0].reg[9] == 664,
       "a warp waits to issue while the memory pipe is taken more than "
       "the global latency ahead (cycle %" PRIu64 ", pipe %" PRIu64 ")",
       t.b.st.cycle, t.pipe);
    timed_block_end(&t);

    /* Two warps at a barrier: released at the last one's arrival. */
    p.n = 0;
    emit(&p, BARRIER);
    emit(&p, RET);
    timed_block_start(&t, &p, 64, &timing, 0);
    t.b.st.cycle = 5;
    simt_warp_run(&t.b, 0, 100);
    t.wt[0].ready = t.b.st.cycle;
    t.b.st.cycle = 50;
    simt_warp_run(&t.b, 1, 100);
    ok(t.wt[0].ready == 51 && t.wt[1].ready == 51 && !t.warps[0].waiting,
       "a barrier releases the first warp when the last arrives "
       "(ready at %" PRIu64 ")", t.wt[0].ready);
    timed_block_end(&t);
}

int main(void)
{
    test_context_csrs();
    test_divergence();
    test_divergence_cost();
    test_early_exit();
    test_barrier_exchange();
    test_barrier_loop_divergent();
    test_barrier_after_exit();
    test_vote_shuffle();
    test_warp_sync();
    test_contention();
    test_local();
    test_faults();
    test_callbacks();
    test_stepping();
    test_stop_pcs();
    test_invalidate();
    test_launch_check();
    test_timing();
    test_latency();
    return done_testing();
}
