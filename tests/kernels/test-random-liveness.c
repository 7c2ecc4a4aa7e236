/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Liveness on random programs: a generator writes kernels with random
 * integer and fp arithmetic, nested if/else, counted loops, calls to
 * helpers, early exits, stack spills and warp shuffles, on values that
 * differ per lane so that warps diverge.  Each kernel stores a random
 * subset of its registers at the end.  It runs on the warp interpreter
 * once straight and once with every register the live table calls dead
 * overwritten after each instruction: the stored results must agree.
 */
#include <stdlib.h>
#include <string.h>

#include "../rv32-enc.h"
#include "scramble.h"
#include "simt-meta.h"
#include "../tap.h"

#define BASE        0x10000u
#define MEM_SIZE    (1u << 20)
#define OUT_ADDR    0x40000u
#define LOCAL_ADDR  0x80000u
#define THREADS     64
#define BLOCKS      2
#define OUT_STRIDE  128         /* bytes per thread */
#define FRAME       64          /* kernel stack frame; ra at 60(sp) */
#define MAX_INSNS   2048
#define PROGRAMS    300

static const unsigned data_x[] = {
    T0, T1, 7 /* t2 */, S0, S1, A1, A2, A3, A4, A5, 16 /* a6 */,
    17 /* a7 */,
};
static const unsigned data_f[] = { FT0, FT1, 2, 3, 8 /* fs0 */, FA0 };
#define NX (sizeof(data_x) / sizeof(data_x[0]))
#define NF (sizeof(data_f) / sizeof(data_f[0]))

/* Loop counters by nesting level: kernel s2, s3; helpers s4, s5. */
static const unsigned counters[2][2] = { { 18, 19 }, { 20, 21 } };

struct gen {
    uint32_t code[MAX_INSNS];
    uint32_t n;
    uint32_t seed;
    uint32_t exits[64];         /* early exits to patch */
    uint32_t nexits;
    uint32_t calls[64];         /* calls to patch: insn index */
    uint32_t call_to[64];       /* ... and which helper */
    uint32_t ncalls;
    bool overflow;
};

static uint32_t rnd(struct gen *g, uint32_t n)
{
    g->seed = g->seed * 1664525u + 1013904223u;
    return (g->seed >> 8) % n;
}

static void emit(struct gen *g, uint32_t insn)
{
    if (g->n < MAX_INSNS) {
        g->code[g->n++] = insn;
    } else {
        g->overflow = true;
    }
}

static unsigned rx(struct gen *g)
{
    return data_x[rnd(g, NX)];
}

static unsigned rf(struct gen *g)
{
    return data_f[rnd(g, NF)];
}

/* Patch the branch at @at to jump to @to (instruction indices). */
static void patch_branch(struct gen *g, uint32_t at, uint32_t to)
{
    uint32_t x = g->code[at];

    g->code[at] = enc_b(4 * ((int32_t)to - (int32_t)at), (x >> 20) & 31,
                       (x >> 15) & 31, (x >> 12) & 7);
}

static void alu(struct gen *g)
{
    static const uint32_t r_ops[][2] = {    /* funct7, funct3 */
        { 0, 0 }, { 0x20, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 },
        { 0, 5 }, { 0x20, 5 }, { 0, 6 }, { 0, 7 }, { 1, 0 }, { 1, 1 },
        { 1, 4 }, { 1, 5 }, { 1, 6 }, { 1, 7 },
    };
    unsigned rd = rx(g), a = rx(g), b = rx(g);

    if (rnd(g, 2)) {
        const uint32_t *op = r_ops[rnd(g, 16)];

        emit(g, enc_r(op[0], b, a, op[1], rd, 0x33));
    } else {
        uint32_t f3 = rnd(g, 8);
        int32_t imm = (int32_t)rnd(g, 4096) - 2048;

        if (f3 == 1 || f3 == 5) {
            imm = (int32_t)rnd(g, 32) | (f3 == 5 && rnd(g, 2) ? 0x400 : 0);
        }
        emit(g, enc_i(imm, a, f3, rd, 0x13));
    }
}

static void fp(struct gen *g)
{
    switch (rnd(g, 6)) {
    case 0: case 1: case 2:     /* fadd/fsub/fmul, dynamic rounding */
        emit(g, enc_r(rnd(g, 3) << 2, rf(g), rf(g), 7, rf(g), 0x53));
        break;
    case 3:                     /* fcvt.s.w */
        emit(g, enc_r(0x68, 0, rx(g), 7, rf(g), 0x53));
        break;
    case 4:                     /* fcvt.w.s, round towards zero */
        emit(g, enc_r(0x60, 0, rf(g), 1, rx(g), 0x53));
        break;
    default:                    /* fmv.x.w or fmv.w.x */
        emit(g, rnd(g, 2) ? FMV_X_W(rx(g), rf(g)) : FMV_W_X(rf(g), rx(g)));
        break;
    }
}

static void block(struct gen *g, unsigned depth, unsigned len, bool helper);

static void statement(struct gen *g, unsigned depth, bool helper)
{
    unsigned k = rnd(g, 100);

    if (k < 40) {
        alu(g);
    } else if (k < 52) {
        fp(g);
    } else if (k < 60) {
        int32_t slot = 4 * (int32_t)rnd(g, 12);

        emit(g, rnd(g, 2) ? SW(rx(g), SP, slot) : LW(rx(g), SP, slot));
    } else if (k < 64) {
        /* warp shuffle (xor) or ballot */
        emit(g, rnd(g, 2) ?
             enc_r(SIMT_SHFL_XOR, rx(g), rx(g), SIMT_F3_SHFL, rx(g),
                  SIMT_OPC_CUSTOM0) :
             enc_r(SIMT_VOTE_BALLOT, 0, rx(g), SIMT_F3_VOTE, rx(g),
                  SIMT_OPC_CUSTOM0));
    } else if (k < 76 && depth < 3) {
        uint32_t br = g->n, jump;

        emit(g, enc_b(0, rx(g), rx(g), rnd(g, 2) ? 4 : 0));  /* blt/beq */
        block(g, depth + 1, 1 + rnd(g, 4), helper);
        if (rnd(g, 2)) {
            jump = g->n;
            emit(g, J(0));
            patch_branch(g, br, g->n);
            block(g, depth + 1, 1 + rnd(g, 4), helper);
            g->code[jump] = J(4 * (int32_t)(g->n - jump));
        } else {
            patch_branch(g, br, g->n);
        }
    } else if (k < 86 && depth < 2) {
        unsigned c = counters[helper][depth];
        uint32_t head;

        emit(g, ADDI(c, ZERO, 1 + rnd(g, 3)));
        head = g->n;
        block(g, depth + 1, 1 + rnd(g, 5), helper);
        emit(g, ADDI(c, c, -1));
        emit(g, BNE(c, ZERO, 4 * ((int32_t)head - (int32_t)g->n)));
    } else if (k < 94 && !helper && g->ncalls < 64) {
        g->calls[g->ncalls] = g->n;
        g->call_to[g->ncalls++] = rnd(g, 2);
        emit(g, JAL(RA, 0));
    } else if (k < 97 && !helper && g->nexits < 64) {
        g->exits[g->nexits++] = g->n;
        emit(g, enc_b(0, rx(g), rx(g), 1));                   /* bne */
    } else {
        alu(g);
    }
}

static void block(struct gen *g, unsigned depth, unsigned len, bool helper)
{
    while (len--) {
        statement(g, depth, helper);
    }
}

/*
 * Generate kernel k and helpers h0, h1 into @g; fill @funcs.  The kernel
 * ends by storing a random subset of its registers to its thread's
 * output slots.
 */
static void generate(struct gen *g, struct sm_func *funcs)
{
    uint32_t helper_start[2], stored_x, stored_f, i, epilogue;
    int32_t slot;

    g->n = g->nexits = g->ncalls = 0;
    g->overflow = false;

    /* prologue: frame, output pointer, per-lane values, clean stack */
    emit(g, ADDI(SP, SP, -FRAME));
    emit(g, SW(RA, SP, FRAME - 4));
    for (slot = 0; slot < FRAME - 4; slot += 4) {
        emit(g, SW(ZERO, SP, slot));
    }
    emit(g, CSRR(T0, SIMT_CSR_TID_X));             /* t0 = global index */
    emit(g, CSRR(T1, SIMT_CSR_CTAID_X));
    emit(g, ADDI(7, ZERO, THREADS));
    emit(g, MUL(T1, T1, 7));
    emit(g, ADD(T0, T0, T1));
    emit(g, SLLI(T1, T0, 7));                      /* * OUT_STRIDE */
    emit(g, ADD(A0, A0, T1));
    /* different slopes, so that comparisons differ between lanes */
    for (i = 1; i < NX; i++) {
        emit(g, ADDI(data_x[i], ZERO, (int32_t)rnd(g, 2048) - 1024));
        emit(g, MUL(data_x[i], data_x[i], T0));
        emit(g, enc_i((int32_t)rnd(g, 2048) - 1024, data_x[i], 4,
                     data_x[i], 0x13));                 /* xori */
    }
    for (i = 0; i < NF; i++) {
        emit(g, enc_r(0x68, 0, rx(g), 7, data_f[i], 0x53));
    }

    block(g, 0, 6 + rnd(g, 14), false);

    /* epilogue: store a random subset, return */
    epilogue = g->n;
    stored_x = 1 + rnd(g, (1u << NX) - 1);
    stored_f = rnd(g, 1u << NF);
    for (i = 0; i < NX; i++) {
        if (stored_x & (1u << i)) {
            emit(g, SW(data_x[i], A0, 4 * i));
        }
    }
    for (i = 0; i < NF; i++) {
        if (stored_f & (1u << i)) {
            emit(g, FSW(data_f[i], A0, 64 + 4 * i));
        }
    }
    emit(g, LW(RA, SP, FRAME - 4));
    emit(g, ADDI(SP, SP, FRAME));
    emit(g, RET);
    funcs[0] = (struct sm_func){ "k", BASE, BASE + 4 * g->n, true };

    for (i = 0; i < 2; i++) {
        helper_start[i] = g->n;
        block(g, 0, 2 + rnd(g, 8), true);
        emit(g, RET);
        funcs[1 + i] = (struct sm_func){ i ? "h1" : "h0",
                                         BASE + 4 * helper_start[i],
                                         BASE + 4 * g->n, false };
    }
    for (i = 0; i < g->nexits; i++) {
        patch_branch(g, g->exits[i], epilogue);
    }
    for (i = 0; i < g->ncalls; i++) {
        g->code[g->calls[i]] =
            JAL(RA, 4 * ((int32_t)helper_start[g->call_to[i]] -
                         (int32_t)g->calls[i]));
    }
}

struct table {
    const struct sm_result *res;
    uint32_t ninsns;
};

static uint64_t table_live_at(const void *opaque, uint32_t pc)
{
    const struct table *t = opaque;

    /* e.g. SIMT_EXIT_RA, once returned: keep everything */
    if (pc < BASE || (pc - BASE) / 4 >= t->ninsns) {
        return ~(uint64_t)0;
    }
    return t->res->live[(pc - BASE) / 4];
}

int main(void)
{
    static struct gen g;
    static uint8_t mem[2][MEM_SIZE];
    uint32_t prog, failures = 0, analysed = 0, diverged = 0;
    uint64_t thread_insns = 0;
    char err[512];

    g.seed = 2024;
    for (prog = 0; prog < PROGRAMS; prog++) {
        struct sm_func funcs[3];
        struct sm_program p;
        struct sm_result res;
        SimtLaunch l = { 0 };
        SimtGridResult r[2];
        SimtMem m[2];
        struct table table = { &res, 0 };
        int run;

        generate(&g, funcs);
        p = (struct sm_program){
            .file = "random", .base = BASE, .ninsns = g.n, .insns = g.code,
            .nfuncs = 3, .funcs = funcs,
        };
        if (g.overflow || sm_analyze(&p, &res, err, sizeof(err)) < 0) {
            tap_diag("program %u: %s", prog, g.overflow ? "too long" : err);
            failures++;
            continue;
        }
        analysed++;
        table.ninsns = g.n;
        l.entry = BASE;
        l.code_base = BASE;
        l.code_size = 4 * g.n;
        l.block_dim[0] = THREADS;
        l.block_dim[1] = l.block_dim[2] = 1;
        l.grid_dim[0] = BLOCKS;
        l.grid_dim[1] = l.grid_dim[2] = 1;
        l.local_size = res.kernels[0].m.local_bytes;
        l.args[0] = OUT_ADDR;
        for (run = 0; run < 2; run++) {
            memset(mem[run], 0, MEM_SIZE);
            memcpy(mem[run] + BASE, g.code, 4 * g.n);
            m[run] = (SimtMem){ .flat = mem[run], .flat_size = MEM_SIZE };
        }
        if (l.local_size != FRAME ||
            simt_run_grid(&l, &m[0], LOCAL_ADDR, 10000000, &r[0]) != 0 ||
            run_scrambled(&l, &m[1], LOCAL_ADDR, 10000000, table_live_at,
                          &table, &r[1]) != 0 ||
            memcmp(mem[0] + OUT_ADDR, mem[1] + OUT_ADDR,
                   THREADS * BLOCKS * OUT_STRIDE) != 0) {
            tap_diag("program %u: local %u, faults %s / %s at 0x%x / 0x%x, "
                     "or different results", prog, l.local_size,
                     simt_fault_name(r[0].fault), simt_fault_name(r[1].fault),
                     r[0].fault_pc, r[1].fault_pc);
            failures++;
        }
        thread_insns += r[0].thread_insns;
        diverged += r[0].thread_insns < r[0].warp_insns * SIMT_WARP_SIZE;
        sm_result_free(&res);
    }
    tap_check(analysed == PROGRAMS, "%u random programs analysed",
              analysed);
    tap_check(failures == 0, "%u programs, %llu thread instructions: same "
              "results with dead registers scrambled (%u failures)",
              PROGRAMS, (unsigned long long)thread_insns, failures);
    tap_check(diverged > PROGRAMS / 2, "%u programs ran diverged warps",
              diverged);
    return tap_done();
}
