/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt-meta analysis on hand-assembled programs: live registers before
 * each instruction for straight-line code, if/else, loops, calls, tail
 * calls, early return and exit; stack bounds; idempotence hints; and the
 * code the analysis must refuse.
 */
#include <stdlib.h>
#include <string.h>

#include "../rv32-enc.h"
#include "simt-meta.h"
#include "../tap.h"

#define BASE    0x1000u
#define X(r)    RV_X_(r)
#define F(r)    ((uint64_t)1 << (32 + (r)))
#define RV_X_(r) ((uint64_t)1 << (r))

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static char err[512];

/* Analyse @insns laid out at BASE as the functions in @funcs. */
static int analyze(const uint32_t *insns, uint32_t n, struct sm_func *funcs,
                   uint32_t nfuncs, struct sm_result *res)
{
    struct sm_program p = {
        .file = "test", .base = BASE, .ninsns = n, .insns = insns,
        .nfuncs = nfuncs, .funcs = funcs,
    };

    return sm_analyze(&p, res, err, sizeof(err));
}

static void expect_live(const char *name, const struct sm_result *res,
                        const uint64_t *want, uint32_t n)
{
    uint32_t i;

    for (i = 0; i < n; i++) {
        if (res->live[i] != want[i]) {
            tap_check(false, "%s: live before insn %u is %#llx, want %#llx",
                      name, i, (unsigned long long)res->live[i],
                      (unsigned long long)want[i]);
            return;
        }
    }
    tap_check(true, "%s: live sets", name);
}

static void straight_line(void)
{
    const uint32_t code[] = {
        ADDI(A2, A0, 1),
        ADD(A3, A2, A1),
        SW(A3, A0, 0),
        RET,
    };
    const uint64_t want[] = {
        X(RA) | X(A0) | X(A1),
        X(RA) | X(A0) | X(A1) | X(A2),
        X(RA) | X(A0) | X(A3),
        X(RA),
    };
    struct sm_func f[] = { { "k", BASE, BASE + sizeof(code), true } };
    struct sm_result res;

    if (tap_check(analyze(code, COUNT(code), f, 1, &res) == 0,
                  "straight line: analysed %s", err)) {
        expect_live("straight line", &res, want, COUNT(code));
        tap_check(res.nkernels == 1 && res.kernels[0].m.local_bytes == 0 &&
                  res.kernels[0].m.int_regs_used ==
                  (X(RA) | X(A0) | X(A1) | X(A2) | X(A3)) &&
                  res.kernels[0].m.fp_regs_used == 0 &&
                  res.kernels[0].m.insn_count == 4,
                  "straight line: registers used, no stack");
        tap_check((res.kernels[0].m.flags & SIMT_META_F_IDEMPOTENT) &&
                  res.kernels[0].m.store_origins == 1 &&
                  res.kernels[0].m.load_origins == 0,
                  "straight line: a store-only kernel is idempotent");
        sm_result_free(&res);
    }
}

static void if_else(void)
{
    const uint32_t code[] = {
        BEQ(A0, ZERO, 12),      /* 0: to 3 */
        ADD(A3, A1, A1),        /* 1 */
        J(8),                   /* 2: to 4 */
        ADD(A3, A2, A2),        /* 3 */
        ADDI(A0, A3, 0),        /* 4: join */
        RET,
    };
    const uint64_t want[] = {
        X(RA) | X(A0) | X(A1) | X(A2),
        X(RA) | X(A1),
        X(RA) | X(A3),
        X(RA) | X(A2),
        X(RA) | X(A3),
        X(RA),                  /* a kernel's return value is dropped */
    };
    struct sm_func f[] = { { "k", BASE, BASE + sizeof(code), true } };
    struct sm_result res;

    if (tap_check(analyze(code, COUNT(code), f, 1, &res) == 0,
                  "if/else: analysed %s", err)) {
        expect_live("if/else", &res, want, COUNT(code));
        sm_result_free(&res);
    }
}

static void loop(void)
{
    const uint32_t code[] = {
        FMV_W_X(FT0, ZERO),     /* 0 */
        FLW(FT1, A0, 0),        /* 1: loop head */
        FADD(FT0, FT0, FT1, RM_DYN),    /* 2 */
        ADDI(A0, A0, 4),        /* 3 */
        BNE(A0, A1, -12),       /* 4: to 1 */
        FMV_X_W(A0, FT0),       /* 5 */
        RET,
    };
    const uint64_t loop_live = X(RA) | X(A0) | X(A1) | F(FT0);
    const uint64_t want[] = {
        X(RA) | X(A0) | X(A1),
        loop_live,
        loop_live | F(FT1),
        loop_live,
        loop_live,
        X(RA) | F(FT0),
        X(RA),
    };
    struct sm_func f[] = { { "k", BASE, BASE + sizeof(code), true } };
    struct sm_result res;

    if (tap_check(analyze(code, COUNT(code), f, 1, &res) == 0,
                  "loop: analysed %s", err)) {
        expect_live("loop", &res, want, COUNT(code));
        tap_check(res.kernels[0].m.fp_regs_used == 3 &&
                  (res.kernels[0].m.flags & SIMT_META_F_IDEMPOTENT),
                  "loop: fp registers used, load-only kernel idempotent");
        tap_check(res.npp == 1 && res.pp[0] == BASE + 4 &&
                  res.pp_interval == SM_PP_INTERVAL_DEFAULT,
                  "loop: one preemption point, the first with fewest live");
        sm_result_free(&res);
    }
}

/* A value kept in s0 across a call stays live inside the callee. */
static void call(void)
{
    const uint32_t code[] = {
        ADDI(SP, SP, -16),      /* 0  k */
        SW(RA, SP, 12),         /* 1 */
        ADDI(S0, A1, 0),        /* 2 */
        JAL(RA, 20),            /* 3: call g at 8 */
        ADD(A0, A0, S0),        /* 4 */
        LW(RA, SP, 12),         /* 5 */
        ADDI(SP, SP, 16),       /* 6 */
        RET,                    /* 7 */
        ADDI(T0, A0, 5),        /* 8  g */
        SLLI(A0, T0, 1),        /* 9 */
        RET,                    /* 10 */
    };
    const uint64_t after = X(SP) | X(A0) | X(S0);
    const uint64_t want[] = {
        X(RA) | X(SP) | X(A0) | X(A1),
        X(RA) | X(SP) | X(A0) | X(A1),
        X(SP) | X(A0) | X(A1),
        X(SP) | X(A0) | X(S0),
        after,
        X(SP),
        X(RA) | X(SP),
        X(RA),
        X(RA) | after,
        X(RA) | X(T0) | X(SP) | X(S0),
        X(RA) | after,
    };
    struct sm_func f[] = {
        { "k", BASE, BASE + 32, true },
        { "g", BASE + 32, BASE + 44, false },
    };
    struct sm_result res;

    if (tap_check(analyze(code, COUNT(code), f, 2, &res) == 0,
                  "call: analysed %s", err)) {
        expect_live("call", &res, want, COUNT(code));
        tap_check(res.nkernels == 1 && res.kernels[0].m.local_bytes == 16 &&
                  (res.kernels[0].m.flags & SIMT_META_F_CALLS) &&
                  res.kernels[0].m.code_end == BASE + 44,
                  "call: 16 bytes of stack, calls flag, callee in range");
        sm_result_free(&res);
    }
}

static void early_return_and_exit(void)
{
    const uint32_t code[] = {
        BNE(A0, ZERO, 8),       /* 0: to 2 */
        RET,                    /* 1 */
        SW(A1, A2, 0),          /* 2 */
        EXIT,                   /* 3 */
    };
    const uint64_t want[] = {
        X(RA) | X(A0) | X(A1) | X(A2),
        X(RA),
        X(A1) | X(A2),
        0,
    };
    struct sm_func f[] = { { "k", BASE, BASE + sizeof(code), true } };
    struct sm_result res;

    if (tap_check(analyze(code, COUNT(code), f, 1, &res) == 0,
                  "early return: analysed %s", err)) {
        expect_live("early return and exit", &res, want, COUNT(code));
        tap_check(res.kernels[0].m.int_regs_used ==
                  (X(RA) | X(A0) | X(A1) | X(A2)),
                  "early return: registers used");
        sm_result_free(&res);
    }
}

/* auipc+jalr tail call: the callee returns where the kernel would. */
static void tail_call(void)
{
    const uint32_t code[] = {
        ADDI(A0, A0, 1),        /* 0  k */
        AUIPC(T1, 0),           /* 1 */
        JALR(ZERO, T1, 8),      /* 2: to 3 = g */
        ADD(A0, A0, A1),        /* 3  g */
        SW(A0, A2, 0),          /* 4 */
        RET,                    /* 5 */
    };
    const uint64_t in_g = X(RA) | X(A0) | X(A1) | X(A2);
    const uint64_t want[] = {
        in_g, in_g, in_g | X(T1), in_g, X(RA) | X(A0) | X(A2), X(RA),
    };
    struct sm_func f[] = {
        { "k", BASE, BASE + 12, true },
        { "g", BASE + 12, BASE + 24, false },
    };
    struct sm_result res;

    if (tap_check(analyze(code, COUNT(code), f, 2, &res) == 0,
                  "tail call: analysed %s", err)) {
        expect_live("tail call", &res, want, COUNT(code));
        sm_result_free(&res);
    }
}

/*
 * Preemption points: the inner loop's barrier, nothing else in nested
 * loops, one per K = 2 instructions elsewhere.
 */
static void preemption_points(void)
{
    const uint32_t code[] = {
        ADDI(A2, ZERO, 0),      /* 0 */
        ADDI(A3, ZERO, 0),      /* 1: outer loop */
        ADDI(A3, A3, 1),        /* 2: inner loop */
        BARRIER,                /* 3 */
        BNE(A3, A1, -8),        /* 4: to 2 */
        ADDI(A2, A2, 1),        /* 5 */
        BNE(A2, A0, -20),       /* 6: to 1 */
        RET,                    /* 7 */
    };
    struct sm_func f[] = { { "k", BASE, BASE + sizeof(code), true } };
    struct sm_program p = {
        .file = "test", .base = BASE, .ninsns = COUNT(code), .insns = code,
        .nfuncs = 1, .funcs = f, .pp_interval = 2,
    };
    struct sm_result res;

    if (tap_check(sm_analyze(&p, &res, err, sizeof(err)) == 0,
                  "preemption points: analysed %s", err)) {
        tap_check(res.npp == 3 && res.pp_interval == 2 &&
                  res.pp[0] < BASE + 8 && res.pp[1] == BASE + 12 &&
                  res.pp[2] >= BASE + 20 && res.pp[2] < BASE + 28,
                  "preemption points: inner barrier and one per 2 others "
                  "(%u points)", res.npp);
        sm_result_free(&res);
    }
}

/* Frames add up along the deepest call chain; lui+sub frames count. */
static void stack_bound(void)
{
    const uint32_t code[] = {
        ADDI(SP, SP, -32),      /* 0  k */
        SW(RA, SP, 0),          /* 1 */
        JAL(RA, 24),            /* 2: g at 8 */
        JAL(RA, 48),            /* 3: h at 15 */
        LW(RA, SP, 0),          /* 4 */
        ADDI(SP, SP, 32),       /* 5 */
        RET,                    /* 6 */
        RET,                    /* 7  pad function */
        LUI(T0, 0x1000),             /* 8  g: 4096-byte frame */
        SUB(SP, SP, T0),        /* 9 */
        ADDI(SP, SP, -48),      /* 10 */
        ADDI(SP, SP, 48),       /* 11 */
        LUI(T0, 0x1000),             /* 12 */
        ADD(SP, SP, T0),        /* 13 */
        RET,                    /* 14 */
        ADDI(SP, SP, -16),      /* 15 h */
        ADDI(SP, SP, 16),       /* 16 */
        RET,                    /* 17 */
    };
    struct sm_func f[] = {
        { "k", BASE, BASE + 28, true },
        { "pad", BASE + 28, BASE + 32, false },
        { "g", BASE + 32, BASE + 60, false },
        { "h", BASE + 60, BASE + 72, false },
    };
    struct sm_result res;

    if (tap_check(analyze(code, COUNT(code), f, 4, &res) == 0,
                  "stack bound: analysed %s", err)) {
        tap_check(res.kernels[0].m.local_bytes == 32 + 4096 + 48,
                  "stack bound: %u bytes, want %u",
                  res.kernels[0].m.local_bytes, 32 + 4096 + 48);
        sm_result_free(&res);
    }
}

/* Two kernels sharing a helper: both ranges cover it. */
static void shared_helper(void)
{
    const uint32_t code[] = {
        AUIPC(T1, 0),           /* 0  k1: tail call helper */
        JALR(ZERO, T1, 16),     /* 1: to 4 */
        AUIPC(T1, 0),           /* 2  k2 */
        JALR(ZERO, T1, 8),      /* 3: to 4 */
        SW(A1, A0, 0),          /* 4  helper */
        RET,                    /* 5 */
    };
    struct sm_func f[] = {
        { "k1", BASE, BASE + 8, true },
        { "k2", BASE + 8, BASE + 16, true },
        { "helper", BASE + 16, BASE + 24, false },
    };
    struct sm_result res;

    if (tap_check(analyze(code, COUNT(code), f, 3, &res) == 0,
                  "shared helper: analysed %s", err)) {
        tap_check(res.nkernels == 2 &&
                  res.kernels[0].m.code_start == BASE &&
                  res.kernels[0].m.code_end == BASE + 24 &&
                  res.kernels[1].m.code_start == BASE + 8 &&
                  res.kernels[1].m.insn_count == 4 &&
                  res.live[5] == X(RA),
                  "shared helper: kernel ranges and return to exit");
        sm_result_free(&res);
    }
}

static void idempotence(void)
{
    const uint32_t loads_a0_stores_a1[] = {
        LW(A2, A0, 0), SLLI(A3, A2, 2), ADD(A3, A1, A3), SW(A2, A3, 0), RET,
    };
    const uint32_t stores_via_loaded_pointer[] = {
        LW(A2, A0, 0), SW(A1, A2, 0), RET,
    };
    const uint32_t atomic[] = {
        AMOADD(A2, A0, A1), RET,
    };
    const uint32_t shared_atomic[] = {
        LUI(A2, SIMT_SHARED_BASE), AMOADD(A3, A2, A1), SW(A3, A0, 0),
        RET,
    };
    const uint32_t spilled_pointer[] = {
        ADDI(SP, SP, -16), SW(A1, SP, 4), LW(A2, A0, 0), LW(A3, SP, 4),
        SW(A2, A3, 0), ADDI(SP, SP, 16), RET,
    };
    struct {
        const char *name;
        const uint32_t *code;
        uint32_t n;
        bool idempotent;
        uint32_t loads, stores;
    } cases[] = {
        { "load a0, store a1[loaded index]", loads_a0_stores_a1,
          COUNT(loads_a0_stores_a1), true, 1, 2 },
        { "store through a loaded pointer", stores_via_loaded_pointer,
          COUNT(stores_via_loaded_pointer), false, 1,
          SIMT_ORIGIN_UNKNOWN },
        { "global atomic", atomic, COUNT(atomic), false, 1, 1 },
        { "shared atomic, store a0", shared_atomic, COUNT(shared_atomic),
          true, 0, 1 },
        { "pointer spilled to the stack", spilled_pointer,
          COUNT(spilled_pointer), true, 1, 2 },
    };
    uint32_t i;

    for (i = 0; i < COUNT(cases); i++) {
        struct sm_func f[] = {
            { "k", BASE, BASE + 4 * cases[i].n, true },
        };
        struct sm_result res;
        const struct simt_meta_kernel *m;

        if (!tap_check(analyze(cases[i].code, cases[i].n, f, 1, &res) == 0,
                       "idempotence: %s: analysed %s", cases[i].name, err)) {
            continue;
        }
        m = &res.kernels[0].m;
        tap_check(!!(m->flags & SIMT_META_F_IDEMPOTENT) ==
                  cases[i].idempotent &&
                  m->load_origins == cases[i].loads &&
                  m->store_origins == cases[i].stores,
                  "idempotence: %s (flags %#x loads %#x stores %#x)",
                  cases[i].name, m->flags, m->load_origins,
                  m->store_origins);
        sm_result_free(&res);
    }
}

/* Only kernels that can make a shared address need the shared memory. */
static void shared_use(void)
{
    const uint32_t code[] = {
        LUI(A2, SIMT_SHARED_BASE),    /* 0  k1 */
        SW(A0, A2, 16),                     /* 1 */
        RET,                                /* 2 */
        SW(A0, A1, 0),                      /* 3  k2 */
        RET,                                /* 4 */
    };
    struct sm_func f[] = {
        { "k1", BASE, BASE + 12, true },
        { "k2", BASE + 12, BASE + 20, true },
    };
    struct sm_program p = {
        .file = "test", .base = BASE, .ninsns = COUNT(code), .insns = code,
        .nfuncs = 2, .funcs = f, .shared_bytes = 4096,
    };
    struct sm_result res;

    if (tap_check(sm_analyze(&p, &res, err, sizeof(err)) == 0,
                  "shared use: analysed %s", err)) {
        tap_check(res.kernels[0].m.shared_bytes == 4096 &&
                  res.kernels[1].m.shared_bytes == 0,
                  "shared use: %u and %u bytes, want 4096 and 0",
                  res.kernels[0].m.shared_bytes,
                  res.kernels[1].m.shared_bytes);
        sm_result_free(&res);
    }
    p.shared_pointers_in_data = true;
    if (tap_check(sm_analyze(&p, &res, err, sizeof(err)) == 0,
                  "shared pointers in data: analysed %s", err)) {
        tap_check(res.kernels[1].m.shared_bytes == 4096,
                  "shared pointers in data: every kernel gets it all");
        sm_result_free(&res);
    }
}

/* Code the analysis cannot describe soundly must be refused, clearly. */
static void refused(void)
{
    const uint32_t indirect[] = { JALR(ZERO, A5, 0), RET };
    const uint32_t indirect_call[] = { JALR(RA, A5, 0), RET };
    const uint32_t compressed[] = { 0x00004501, RET };
    const uint32_t alloca_like[] = { SUB(SP, SP, A0), RET };
    const uint32_t recursion[] = { ADDI(SP, SP, -16), JAL(RA, -4), RET };
    const uint32_t float_param[] = { FSW(FA0, A0, 0), RET };
    const uint32_t falls_off[] = { ADDI(A0, A0, 1) };
    const uint32_t ecall[] = { 0x00000073, RET };
    const uint32_t double_add[] = { enc_r(0x01, 1, 1, 7, 1, 0x53), RET };
    struct {
        const char *name;
        const uint32_t *code;
        uint32_t n;
        const char *why;
    } cases[] = {
        { "indirect jump", indirect, COUNT(indirect),
          "k+0x0 (pc 0x00001000): indirect jump through x15" },
        { "indirect call", indirect_call, COUNT(indirect_call),
          "indirect call through x15" },
        { "compressed", compressed, COUNT(compressed), "compressed (RVC)" },
        { "alloca", alloca_like, COUNT(alloca_like),
          "cannot bound the stack" },
        { "recursion", recursion, COUNT(recursion), "recursive" },
        { "float parameter", float_param, COUNT(float_param),
          "reads fa0 on entry" },
        { "falls off", falls_off, COUNT(falls_off), "falls off the end" },
        { "ecall", ecall, COUNT(ecall), "ecall" },
        { "double precision", double_add, COUNT(double_add),
          "single precision" },
    };
    uint32_t i;

    for (i = 0; i < COUNT(cases); i++) {
        struct sm_func f[] = {
            { "k", BASE, BASE + 4 * cases[i].n, true },
        };
        struct sm_result res;
        int r = analyze(cases[i].code, cases[i].n, f, 1, &res);

        tap_check(r < 0 && strstr(err, cases[i].why) &&
                  strncmp(err, "test: ", 6) == 0,
                  "refuses %s: \"%s\"", cases[i].name, r < 0 ? err : "");
        if (r == 0) {
            sm_result_free(&res);
        }
    }
}

int main(void)
{
    straight_line();
    if_else();
    loop();
    call();
    early_return_and_exit();
    tail_call();
    preemption_points();
    stack_bound();
    shared_helper();
    idempotence();
    shared_use();
    refused();
    return tap_done();
}
