/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt: one test (at least) per RV32IMAF + Zicsr instruction, run through
 * the interpreter on 32 lanes with different operands per lane.  Expected
 * values come from reference code written here, independently of the
 * interpreter, or are spelled out.
 */

#include "unit-harness.h"

#define N 32

static uint32_t A[N], B[N];

/* Operand pairs: corner values first, then pseudo-random ones. */
static void init_operands(void)
{
    static const uint32_t corner[][2] = {
        { 0, 0 }, { 1, 1 }, { 0xffffffff, 1 }, { 0x80000000, 0xffffffff },
        { 0x7fffffff, 0xffffffff }, { 5, 0 }, { 0xfffffffb, 0 },
        { 0x80000000, 0 }, { 0x80000000, 1 }, { 7, 3 }, { 0xfffffff9, 3 },
        { 7, 0xfffffffd }, { 0xfffffff9, 0xfffffffd }, { 0x12345678, 31 },
        { 0x87654321, 32 }, { 0x87654321, 33 }, { 0xf0000000, 4 },
        { 0xffffffff, 0xffffffff }, { 0x80000000, 0x80000000 },
        { 0x7fffffff, 0x7fffffff }, { 0x00010000, 0x00010000 },
    };
    uint32_t x = 12345;
    unsigned i;

    for (i = 0; i < N; i++) {
        if (i < sizeof(corner) / sizeof(corner[0])) {
            A[i] = corner[i][0];
            B[i] = corner[i][1];
        } else {
            x = x * 1103515245 + 12345;
            A[i] = x ^ (x << 7);
            x = x * 1103515245 + 12345;
            B[i] = x >> (i % 7);
        }
    }
}

/* Reference semantics */
static uint32_t r_sra(uint32_t a, uint32_t s)
{
    s &= 31;
    return (a >> s) | ((a & 0x80000000u) && s ? ~(0xffffffffu >> s) : 0);
}

static uint32_t r_mulh(uint32_t a, uint32_t b)
{
    __int128 p = (__int128)(int32_t)a * (int32_t)b;

    return (uint32_t)(p >> 32);
}

static uint32_t r_mulhsu(uint32_t a, uint32_t b)
{
    __int128 p = (__int128)(int32_t)a * (__int128)b;

    return (uint32_t)(p >> 32);
}

static uint32_t r_mulhu(uint32_t a, uint32_t b)
{
    unsigned __int128 p = (unsigned __int128)a * b;

    return (uint32_t)(p >> 32);
}

static uint32_t r_div(uint32_t a, uint32_t b)
{
    if (b == 0) {
        return 0xffffffff;
    }
    if (a == 0x80000000u && b == 0xffffffffu) {
        return 0x80000000u;
    }
    return (uint32_t)((int64_t)(int32_t)a / (int32_t)b);
}

static uint32_t r_rem(uint32_t a, uint32_t b)
{
    if (b == 0) {
        return a;
    }
    return (uint32_t)((int64_t)(int32_t)a % (int32_t)b);
}

typedef struct RR {
    const char *name;
    uint32_t insn;
    int kind;
} RR;

enum { K_ADD, K_SUB, K_SLL, K_SLT, K_SLTU, K_XOR, K_SRL, K_SRA, K_OR, K_AND,
       K_MUL, K_MULH, K_MULHSU, K_MULHU, K_DIV, K_DIVU, K_REM, K_REMU };

static uint32_t ref_rr(int kind, uint32_t a, uint32_t b)
{
    switch (kind) {
    case K_ADD: return a + b;
    case K_SUB: return a - b;
    case K_SLL: return a << (b & 31);
    case K_SLT: return (int64_t)(int32_t)a < (int64_t)(int32_t)b;
    case K_SLTU: return (uint64_t)a < (uint64_t)b;
    case K_XOR: return a ^ b;
    case K_SRL: return a >> (b & 31);
    case K_SRA: return r_sra(a, b);
    case K_OR: return a | b;
    case K_AND: return a & b;
    case K_MUL: return (uint32_t)((uint64_t)a * b);
    case K_MULH: return r_mulh(a, b);
    case K_MULHSU: return r_mulhsu(a, b);
    case K_MULHU: return r_mulhu(a, b);
    case K_DIV: return r_div(a, b);
    case K_DIVU: return b ? a / b : 0xffffffff;
    case K_REM: return r_rem(a, b);
    default: return b ? a % b : a;
    }
}

static void test_rr(void)
{
    const RR ops[] = {
        { "add", ADD(10, 6, 7), K_ADD }, { "sub", SUB(10, 6, 7), K_SUB },
        { "sll", SLL(10, 6, 7), K_SLL }, { "slt", SLT(10, 6, 7), K_SLT },
        { "sltu", SLTU(10, 6, 7), K_SLTU }, { "xor", XOR(10, 6, 7), K_XOR },
        { "srl", SRL(10, 6, 7), K_SRL }, { "sra", SRA(10, 6, 7), K_SRA },
        { "or", OR(10, 6, 7), K_OR }, { "and", AND(10, 6, 7), K_AND },
        { "mul", MUL(10, 6, 7), K_MUL }, { "mulh", MULH(10, 6, 7), K_MULH },
        { "mulhsu", MULHSU(10, 6, 7), K_MULHSU },
        { "mulhu", MULHU(10, 6, 7), K_MULHU },
        { "div", DIV(10, 6, 7), K_DIV }, { "divu", DIVU(10, 6, 7), K_DIVU },
        { "rem", REM(10, 6, 7), K_REM }, { "remu", REMU(10, 6, 7), K_REMU },
    };
    unsigned k, i, pass;
    uint32_t x[N];

    for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
        /* both operand orders, so that (b, a) corner pairs run too */
        for (pass = 0; pass < 2; pass++) {
            const uint32_t *a = pass ? B : A, *b = pass ? A : B;
            unsigned bad = N;
            int f = run_op(ops[k].insn, N, a, b, NULL, 0, x, NULL, NULL);

            for (i = 0; i < N && bad == N; i++) {
                if (x[i] != ref_rr(ops[k].kind, a[i], b[i])) {
                    bad = i;
                }
            }
            if (!ok(!f && bad == N, "%s (operand order %u)", ops[k].name,
                    pass) && bad < N) {
                printf("# lane %u: %08x op %08x = %08x, want %08x\n", bad,
                       a[bad], b[bad], x[bad],
                       ref_rr(ops[k].kind, a[bad], b[bad]));
            }
        }
    }
}

typedef struct RI {
    const char *name;
    unsigned f3;
    int kind;
} RI;

static void test_ri(void)
{
    static const RI ops[] = {
        { "addi", 0, K_ADD }, { "slti", 2, K_SLT }, { "sltiu", 3, K_SLTU },
        { "xori", 4, K_XOR }, { "ori", 6, K_OR }, { "andi", 7, K_AND },
    };
    static const int32_t imms[] = { 0, 1, -1, 2047, -2048, 0x555, -3 };
    static const unsigned shamts[] = { 0, 1, 5, 31 };
    unsigned k, j, i;
    uint32_t x[N];

    for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
        bool good = true;

        for (j = 0; j < sizeof(imms) / sizeof(imms[0]); j++) {
            int f = run_op(enc_i(imms[j], 6, ops[k].f3, 10, 0x13), N, A, B,
                           NULL, 0, x, NULL, NULL);

            for (i = 0; i < N; i++) {
                good &= !f && x[i] == ref_rr(ops[k].kind, A[i], imms[j]);
            }
        }
        ok(good, "%s with immediates of both signs", ops[k].name);
    }
    for (k = 0; k < 3; k++) {
        static const char *const names[] = { "slli", "srli", "srai" };
        bool good = true;

        for (j = 0; j < sizeof(shamts) / sizeof(shamts[0]); j++) {
            unsigned s = shamts[j];
            uint32_t insn = k == 0 ? SLLI(10, 6, s) :
                            k == 1 ? SRLI(10, 6, s) : SRAI(10, 6, s);
            int f = run_op(insn, N, A, B, NULL, 0, x, NULL, NULL);

            for (i = 0; i < N; i++) {
                good &= !f && x[i] == ref_rr(k == 0 ? K_SLL :
                                             k == 1 ? K_SRL : K_SRA, A[i], s);
            }
        }
        ok(good, "%s", names[k]);
    }
}

static bool all_eq(const uint32_t *x, uint32_t v, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        if (x[i] != v) {
            return false;
        }
    }
    return true;
}

static void test_upper_and_jumps(void)
{
    uint32_t x[N];
    unsigned i;
    bool good;
    int f;

    f = run_op(LUI(10, 0x12345000), N, A, B, NULL, 0, x, NULL, NULL);
    ok(!f && all_eq(x, 0x12345000, N), "lui");
    {
        uint32_t body[] = { AUIPC(10, 0xfffff000), AUIPC(11, 0),
                            SUB(10, 10, 11) };

        f = run_body(body, 3, N, A, B, NULL, 0, x, NULL, NULL);
        ok(!f && all_eq(x, 0xfffff000u - 4, N), "auipc");
    }
    {
        /* jal skips one instruction and links the next pc */
        uint32_t body[] = { AUIPC(11, 0), JAL(10, 8), ADDI(10, 0, 5),
                            SUB(10, 10, 11) };

        f = run_body(body, 4, N, A, B, NULL, 0, x, NULL, NULL);
        ok(!f && all_eq(x, 8, N), "jal");
    }
    {
        uint32_t body[] = { AUIPC(11, 0), ADDI(12, 11, 21), JALR(13, 12, -4),
                            ADDI(10, 0, 5), ADDI(10, 0, 6), SUB(10, 13, 11) };

        f = run_body(body, 6, N, A, B, NULL, 0, x, NULL, NULL);
        ok(!f && all_eq(x, 12, N), "jalr: link and target bit 0 cleared");
    }
    {
        /* rd == rs1: the target is read before the link is written */
        uint32_t body[] = { AUIPC(12, 0), AUIPC(11, 0), ADDI(11, 11, 16),
                            JALR(11, 11, 0), ADDI(10, 0, 5),
                            SUB(10, 11, 12) };

        f = run_body(body, 6, N, A, B, NULL, 0, x, NULL, NULL);
        ok(!f && all_eq(x, 16, N), "jalr with rd == rs1");
    }
    {
        /* per-lane targets: lanes with A odd skip two instructions */
        uint32_t body[] = { ANDI(12, 6, 1), SLLI(12, 12, 3), AUIPC(11, 0),
                            ADD(11, 11, 12), JALR(0, 11, 12),
                            ADDI(10, 0, 7), JAL(0, 8), ADDI(10, 0, 8) };

        f = run_body(body, 8, N, A, B, NULL, 0, x, NULL, NULL);
        good = !f;
        for (i = 0; i < N; i++) {
            good &= x[i] == (A[i] & 1 ? 8 : 7);
        }
        ok(good, "jalr with divergent targets reconverges");
    }
}

static void test_branches(void)
{
    static const struct {
        const char *name;
        unsigned f3;
        int kind;
    } br[] = {
        { "beq", 0, 0 }, { "bne", 1, 1 }, { "blt", 4, 2 },
        { "bge", 5, 3 }, { "bltu", 6, 4 }, { "bgeu", 7, 5 },
    };
    uint32_t x[N];
    unsigned k, i, pass;

    for (k = 0; k < 6; k++) {
        for (pass = 0; pass < 2; pass++) {
            const uint32_t *a = pass ? B : A, *b = pass ? A : B;
            /* x10 = 1 if not taken, 2 if taken; both paths rejoin */
            uint32_t body[] = { ADDI(10, 0, 2), enc_b(8, 7, 6, br[k].f3),
                                ADDI(10, 0, 1) };
            bool good;
            int f = run_body(body, 3, N, a, b, NULL, 0, x, NULL, NULL);

            good = !f;
            for (i = 0; i < N; i++) {
                bool t;

                switch (br[k].kind) {
                case 0: t = a[i] == b[i]; break;
                case 1: t = a[i] != b[i]; break;
                case 2: t = (int32_t)a[i] < (int32_t)b[i]; break;
                case 3: t = (int32_t)a[i] >= (int32_t)b[i]; break;
                case 4: t = a[i] < b[i]; break;
                default: t = a[i] >= b[i]; break;
                }
                good &= x[i] == (t ? 2u : 1u);
            }
            ok(good, "%s per lane (operand order %u)", br[k].name, pass);
        }
    }
    {
        /* a backward branch: loop A[i] & 15 times */
        uint32_t body[] = { ANDI(12, 6, 15), ADDI(10, 0, 0),
                            BEQ(12, 0, 16), ADDI(10, 10, 3),
                            ADDI(12, 12, -1), JAL(0, -12) };
        bool good;
        int f = run_body(body, 6, N, A, B, NULL, 0, x, NULL, NULL);

        good = !f;
        for (i = 0; i < N; i++) {
            good &= x[i] == 3 * (A[i] & 15);
        }
        ok(good, "loop with per-lane trip counts");
    }
}

static void test_loads_stores(void)
{
    uint32_t a[N], x[N], f[N];
    unsigned i;
    bool good;
    int fl;

    for (i = 0; i < N; i++) {
        a[i] = T_PATTERN + 16 + i;
    }
    fl = run_op(LB(10, 6, -16), N, a, B, NULL, 0, x, NULL, NULL);
    good = !fl;
    for (i = 0; i < N; i++) {
        good &= x[i] == (uint32_t)(int32_t)(int8_t)pattern_byte(i);
    }
    ok(good, "lb sign-extends, negative offset");
    fl = run_op(LBU(10, 6, 3), N, a, B, NULL, 0, x, NULL, NULL);
    good = !fl;
    for (i = 0; i < N; i++) {
        good &= x[i] == pattern_byte(i + 19);
    }
    ok(good, "lbu zero-extends");
    for (i = 0; i < N; i++) {
        a[i] = T_PATTERN + 2 * i;
    }
    fl = run_op(LH(10, 6, 0), N, a, B, NULL, 0, x, NULL, NULL);
    good = !fl;
    for (i = 0; i < N; i++) {
        good &= x[i] == (uint32_t)(int32_t)(int16_t)(pattern_byte(2 * i) |
                                                     pattern_byte(2 * i + 1)
                                                     << 8);
    }
    ok(good, "lh sign-extends, little-endian");
    fl = run_op(LHU(10, 6, 2), N, a, B, NULL, 0, x, NULL, NULL);
    good = !fl;
    for (i = 0; i < N; i++) {
        good &= x[i] == (uint32_t)(pattern_byte(2 * i + 2) |
                                   pattern_byte(2 * i + 3) << 8);
    }
    ok(good, "lhu zero-extends");
    for (i = 0; i < N; i++) {
        a[i] = T_PATTERN + 4 * i;
    }
    fl = run_op(LW(10, 6, 4), N, a, B, NULL, 0, x, NULL, NULL);
    good = !fl;
    for (i = 0; i < N; i++) {
        uint32_t k = 4 * i + 4;

        good &= x[i] == (pattern_byte(k) | pattern_byte(k + 1) << 8 |
                         pattern_byte(k + 2) << 16 |
                         (uint32_t)pattern_byte(k + 3) << 24);
    }
    ok(good, "lw");
    fl = run_op(FLW(10, 6, 4), N, a, B, NULL, 0, NULL, f, NULL);
    ok(!fl && !memcmp(f, x, sizeof(x)), "flw");

    for (i = 0; i < N; i++) {
        a[i] = T_DATA + 0x2000 + 4 * i;
    }
    {
        uint32_t body[] = { ADDI(12, 0, -1), SW(12, 6, 0), SB(7, 6, 1),
                            LW(10, 6, 0) };

        fl = run_body(body, 4, N, a, B, NULL, 0, x, NULL, NULL);
        good = !fl;
        for (i = 0; i < N; i++) {
            good &= x[i] == (0xffff00ffu | (B[i] & 0xff) << 8);
        }
        ok(good, "sb writes one byte");
    }
    {
        uint32_t body[] = { ADDI(12, 0, -1), SW(12, 6, 0), SH(7, 6, 2),
                            LW(10, 6, 0) };

        fl = run_body(body, 4, N, a, B, NULL, 0, x, NULL, NULL);
        good = !fl;
        for (i = 0; i < N; i++) {
            good &= x[i] == (0xffffu | (B[i] & 0xffff) << 16);
        }
        ok(good, "sh writes two bytes");
    }
    {
        uint32_t body[] = { SW(7, 6, 8), LW(10, 6, 8), FSW(6, 6, -4),
                            LW(11, 6, -4), FMV_W_X(10, 11) };

        fl = run_body(body, 5, N, a, B, NULL, 0, x, f, NULL);
        good = !fl;
        for (i = 0; i < N; i++) {
            good &= x[i] == B[i] && f[i] == a[i];
        }
        ok(good, "sw and fsw");
    }
    {
        uint32_t body[] = { ADD(0, 6, 7), ADDI(0, 0, 5), LW(0, 6, 0),
                            ADD(10, 0, 0) };

        fl = run_body(body, 4, N, a, B, NULL, 0, x, NULL, NULL);
        ok(!fl && all_eq(x, 0, N), "x0 stays zero");
    }
    fl = run_op(FENCE, N, A, B, NULL, 0, x, NULL, NULL);
    ok(!fl && all_eq(x, 0xdeadbeef, N), "fence does nothing");
}

static void test_csr(void)
{
    uint32_t x[N], fl[N], a[N];
    unsigned i;
    bool good;
    int f;

    for (i = 0; i < N; i++) {
        a[i] = i * 7;
    }
    f = run_op(CSRRW(10, 0x001, 6), N, a, B, NULL, 0, x, NULL, fl);
    good = !f;
    for (i = 0; i < N; i++) {
        good &= x[i] == 0 && fl[i] == (a[i] & 0x1f);
    }
    ok(good, "csrrw fflags, per lane");
    {
        uint32_t body[] = { CSRRWI(0, 0x001, 0x15), CSRRS(10, 0x001, 6) };

        f = run_body(body, 2, N, a, B, NULL, 0, x, NULL, fl);
        good = !f;
        for (i = 0; i < N; i++) {
            good &= x[i] == 0x15 && fl[i] == ((a[i] | 0x15) & 0x1f);
        }
        ok(good, "csrrs");
    }
    {
        uint32_t body[] = { CSRRWI(0, 0x001, 0x15), CSRRC(10, 0x001, 6) };

        f = run_body(body, 2, N, a, B, NULL, 0, x, NULL, fl);
        good = !f;
        for (i = 0; i < N; i++) {
            good &= x[i] == 0x15 && fl[i] == (0x15 & ~a[i] & 0x1f);
        }
        ok(good, "csrrc");
    }
    {
        uint32_t body[] = { CSRRWI(0, 0x001, 0x0a), CSRRSI(10, 0x001, 0x11),
                            CSRRCI(0, 0x001, 0x02) };

        f = run_body(body, 3, N, a, B, NULL, 0, x, NULL, fl);
        ok(!f && all_eq(x, 0x0a, N) && all_eq(fl, 0x19, N),
           "csrrwi, csrrsi, csrrci");
    }
    {
        uint32_t body[] = { CSRRWI(0, 0x002, 3), CSRRWI(0, 0x001, 5),
                            CSRR(10, 0x003) };

        f = run_body(body, 3, N, a, B, NULL, 0, x, NULL, NULL);
        ok(!f && all_eq(x, 0x65, N), "fcsr is frm << 5 | fflags");
    }
    {
        uint32_t body[] = { ADDI(12, 0, -1), CSRRW(0, 0x003, 12),
                            CSRR(10, 0x002), CSRR(13, 0x003), ADD(10, 10, 13) };

        f = run_body(body, 5, N, a, B, NULL, 0, x, NULL, fl);
        ok(!f && all_eq(x, 7 + 0xff, N) && all_eq(fl, 0x1f, N),
           "fcsr keeps 8 bits; frm reads 3");
    }
    f = run_op(CSRRS(10, 0x002, 0), N, a, B, NULL, 4, x, NULL, NULL);
    ok(!f && all_eq(x, 4, N), "frm reads back");
    {
        uint32_t body[] = { CSRR(10, 0xc00), CSRR(11, 0xc00),
                            SUB(10, 11, 10), CSRR(12, 0xc80),
                            CSRR(13, 0xc82), OR(12, 12, 13),
                            ADD(10, 10, 12) };

        f = run_body(body, 7, N, a, B, NULL, 0, x, NULL, NULL);
        ok(!f && all_eq(x, 1, N), "cycle counts warp instructions");
    }
    {
        uint32_t body[] = { CSRR(10, 0xc02), ADDI(0, 0, 0), ADDI(0, 0, 0),
                            CSRR(11, 0xc02), SUB(10, 11, 10) };

        f = run_body(body, 5, N, a, B, NULL, 0, x, NULL, NULL);
        ok(!f && all_eq(x, 3, N), "instret counts the warp's instructions");
    }
    f = run_op(CSRRS(10, 0xc00, 0), N, a, B, NULL, 0, x, NULL, NULL);
    ok(!f, "csrrs x0 on a read-only CSR reads");
    f = run_op(CSRRW(10, 0xc00, 0), N, a, B, NULL, 0, x, NULL, NULL);
    ok(f == SIMT_FAULT_BAD_CSR, "csrrw to a read-only CSR faults");
    f = run_op(CSRRSI(10, SIMT_CSR_TID_X, 1), N, a, B, NULL, 0, x, NULL,
               NULL);
    ok(f == SIMT_FAULT_BAD_CSR, "csrrsi with uimm != 0 on a read-only CSR");
    f = run_op(CSRR(10, 0x300), N, a, B, NULL, 0, x, NULL, NULL);
    ok(f == SIMT_FAULT_BAD_CSR, "unknown CSR faults");
    f = run_op(ECALL, N, a, B, NULL, 0, x, NULL, NULL);
    ok(f == SIMT_FAULT_ILLEGAL_INSN, "ecall has no environment: illegal");
    f = run_op(EBREAK, N, a, B, NULL, 0, x, NULL, NULL);
    ok(f == SIMT_FAULT_ILLEGAL_INSN, "ebreak: illegal");
}

static uint32_t ref_amo(unsigned f5, uint32_t old, uint32_t src)
{
    switch (f5) {
    case 0x00: return old + src;
    case 0x01: return src;
    case 0x04: return old ^ src;
    case 0x08: return old | src;
    case 0x0c: return old & src;
    case 0x10: return (int32_t)old <= (int32_t)src ? old : src;
    case 0x14: return (int32_t)old >= (int32_t)src ? old : src;
    case 0x18: return old <= src ? old : src;
    default: return old >= src ? old : src;
    }
}

static void test_atomics(void)
{
    static const struct {
        const char *name;
        unsigned f5;
    } amo[] = {
        { "amoadd.w", 0x00 }, { "amoswap.w", 0x01 }, { "amoxor.w", 0x04 },
        { "amoor.w", 0x08 }, { "amoand.w", 0x0c }, { "amomin.w", 0x10 },
        { "amomax.w", 0x14 }, { "amominu.w", 0x18 }, { "amomaxu.w", 0x1c },
    };
    uint32_t a[N], x[N], f[N];
    unsigned k, i;
    bool good;
    int fl;

    for (i = 0; i < N; i++) {
        a[i] = T_DATA + 0x3000 + 4 * i;
    }
    for (k = 0; k < sizeof(amo) / sizeof(amo[0]); k++) {
        /* mem = c; x10 = amo(mem, b); f10 = mem afterwards */
        uint32_t body[] = { FMV_X_W(12, 8), SW(12, 6, 0),
                            AMO(amo[k].f5, 10, 6, 7), LW(14, 6, 0),
                            FMV_W_X(10, 14) };
        unsigned pass;

        good = true;
        for (pass = 0; pass < 2; pass++) {
            const uint32_t *src = pass ? A : B, *old = pass ? B : A;

            fl = run_body(body, 5, N, a, src, old, 0, x, f, NULL);
            good &= !fl;
            for (i = 0; i < N; i++) {
                good &= x[i] == old[i] &&
                        f[i] == ref_amo(amo[k].f5, old[i], src[i]);
            }
        }
        ok(good, "%s returns the old value and stores", amo[k].name);
    }
    {
        uint32_t body[] = { SW(7, 6, 0), LR_W(16, 6), ADDI(13, 16, 1),
                            SC_W(14, 6, 13), LW(10, 6, 0), FMV_W_X(10, 14) };

        fl = run_body(body, 6, N, a, B, NULL, 0, x, f, NULL);
        good = !fl;
        for (i = 0; i < N; i++) {
            good &= x[i] == B[i] + 1 && f[i] == 0;
        }
        ok(good, "lr.w then sc.w succeeds");
    }
    {
        uint32_t body[] = { SW(7, 6, 0), ADDI(13, 0, 9), SC_W(14, 6, 13),
                            LW(10, 6, 0), FMV_W_X(10, 14) };

        fl = run_body(body, 5, N, a, B, NULL, 0, x, f, NULL);
        good = !fl;
        for (i = 0; i < N; i++) {
            good &= x[i] == B[i] && f[i] == 1;
        }
        ok(good, "sc.w without reservation fails and does not store");
    }
    {
        uint32_t body[] = { SW(7, 6, 0), LR_W(16, 6), ADDI(17, 16, 1),
                            SW(17, 6, 0), ADDI(13, 0, 9), SC_W(14, 6, 13),
                            LW(10, 6, 0), FMV_W_X(10, 14) };

        fl = run_body(body, 8, N, a, B, NULL, 0, x, f, NULL);
        good = !fl;
        for (i = 0; i < N; i++) {
            good &= x[i] == B[i] + 1 && f[i] == 1;
        }
        ok(good, "sc.w fails after the word changed");
    }
    {
        uint32_t body[] = { LR_W(16, 6), ADDI(13, 0, 9), SC_W(14, 6, 13),
                            SC_W(14, 6, 13), LW(10, 6, 0), FMV_W_X(10, 14) };

        fl = run_body(body, 6, N, a, B, NULL, 0, x, f, NULL);
        ok(!fl && all_eq(x, 9, N) && all_eq(f, 1, N),
           "a reservation serves one sc.w only");
    }
    {
        uint32_t body[] = { LR_W(16, 6), ADDI(13, 0, 9), ADDI(15, 6, 4),
                            SC_W(14, 15, 13), LW(10, 15, 0),
                            FMV_W_X(10, 14) };

        for (i = 0; i < N; i++) {
            a[i] = T_DATA + 0x3000 + 8 * i;
        }
        fl = run_body(body, 6, N, a, B, NULL, 0, x, f, NULL);
        ok(!fl && all_eq(x, 0, N) && all_eq(f, 1, N),
           "sc.w to another address fails");
    }
    {
        /* all lanes on one word: lane order serialises them */
        uint32_t body[] = { LUI(15, T_DATA + 0x4000), ADDI(13, 0, 1),
                            AMOADD(10, 15, 13), LW(14, 15, 0),
                            FMV_W_X(10, 14) };

        fl = run_body(body, 5, N, a, B, NULL, 0, x, f, NULL);
        good = !fl;
        for (i = 0; i < N; i++) {
            good &= x[i] == i && f[i] == N;
        }
        ok(good, "amoadd.w by 32 lanes on one word");
    }
    {
        /* the LR/SC increment loop, all lanes on one word */
        uint32_t body[] = { LUI(15, T_DATA + 0x4000), LR_W(16, 15),
                            ADDI(16, 16, 1), SC_W(17, 15, 16),
                            BNE(17, 0, -12), LW(10, 15, 0) };

        fl = run_body(body, 6, N, a, B, NULL, 0, x, NULL, NULL);
        ok(!fl && all_eq(x, N, N), "lr/sc retry loop counts every lane");
    }
    {
        uint32_t body[] = { ADDI(15, 6, 2), AMOADD(10, 15, 13) };

        fl = run_body(body, 2, N, a, B, NULL, 0, x, NULL, NULL);
        ok(fl == SIMT_FAULT_MISALIGNED, "misaligned amo faults");
    }
}

/* fp operands: corner values, then ordinary numbers */
static const uint32_t FA[N] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001,
    0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0x3f800000, 0xbf800000,
    0x40490fdb, 0xc0490fdb, 0x4f000000, 0xcf000000, 0x4f800000, 0x3f000000,
    0x3fc00000, 0xbfc00000, 0x40200000, 0x3eaaaaab, 0x7fc00000, 0x80000000,
    0x00000000, 0x3f800001, 0x4b7fffff, 0xcb800001, 0x5f000000, 0x3f7fffff,
    0xff7fffff, 0x34000000,
};
static const uint32_t FB[N] = {
    0x80000000, 0x00000000, 0xff800000, 0x3f800000, 0x3f800000, 0x3f800000,
    0x00000001, 0x007fffff, 0x80800000, 0x7f7fffff, 0xbf800000, 0xbf800000,
    0x3f800000, 0x7fc00000, 0xff800001, 0x40000000, 0x00000000, 0x3f000000,
    0xbfc00000, 0x3fc00000, 0x40200000, 0x40400000, 0x7f800001, 0x7fc00000,
    0x00000000, 0xbf800000, 0x3f000000, 0x3f000000, 0x5f000000, 0x3f800001,
    0x7f7fffff, 0x3f800000,
};

typedef uint32_t (*Fn2)(uint32_t, uint32_t, int, uint32_t *);

static bool check_fp2(const char *name, uint32_t insn, Fn2 fn, int rm,
                      unsigned frm)
{
    uint32_t f[N], fl[N];
    unsigned i, bad = N;
    int err = run_op(insn, N, FA, FB, NULL, frm, NULL, f, fl);

    for (i = 0; i < N && bad == N; i++) {
        uint32_t e, efl = 0;

        e = fn(FA[i], FB[i], rm, &efl);
        if (f[i] != e || fl[i] != efl) {
            bad = i;
        }
    }
    if (!ok(!err && bad == N, "%s rm=%d%s", name, rm,
            frm != 0 ? " (dynamic)" : "") && bad < N) {
        printf("# lane %u: %08x, %08x -> %08x flags %x\n", bad, FA[bad],
               FB[bad], f[bad], fl[bad]);
    }
    return bad == N;
}

static uint32_t w_sqrt(uint32_t a, uint32_t b, int rm, uint32_t *fl)
{
    return simt_f32_sqrt(a, rm, fl);
}

static uint32_t w_fmadd(uint32_t a, uint32_t b, int rm, uint32_t *fl)
{
    return simt_f32_fma(a, b, a ^ b, rm, fl);
}

static uint32_t w_fmsub(uint32_t a, uint32_t b, int rm, uint32_t *fl)
{
    return simt_f32_fma(a, b, a ^ b ^ 0x80000000u, rm, fl);
}

static uint32_t w_fnmsub(uint32_t a, uint32_t b, int rm, uint32_t *fl)
{
    return simt_f32_fma(a ^ 0x80000000u, b, a ^ b, rm, fl);
}

static uint32_t w_fnmadd(uint32_t a, uint32_t b, int rm, uint32_t *fl)
{
    return simt_f32_fma(a ^ 0x80000000u, b, a ^ b ^ 0x80000000u, rm, fl);
}

static void test_fp_arith(void)
{
    int rm;

    for (rm = 0; rm <= 4; rm++) {
        check_fp2("fadd.s", FADD(10, 6, 7, rm), simt_f32_add, rm, 0);
        check_fp2("fsub.s", FSUB(10, 6, 7, rm), simt_f32_sub, rm, 0);
        check_fp2("fmul.s", FMUL(10, 6, 7, rm), simt_f32_mul, rm, 0);
        check_fp2("fdiv.s", FDIV(10, 6, 7, rm), simt_f32_div, rm, 0);
        check_fp2("fsqrt.s", FSQRT(10, 6, rm), w_sqrt, rm, 0);
    }
    /* dynamic rounding from frm */
    check_fp2("fadd.s", FADD(10, 6, 7, 7), simt_f32_add, SIMT_RM_RUP,
              SIMT_RM_RUP);
    check_fp2("fmul.s", FMUL(10, 6, 7, 7), simt_f32_mul, SIMT_RM_RMM,
              SIMT_RM_RMM);
    check_fp2("fdiv.s", FDIV(10, 6, 7, 7), simt_f32_div, SIMT_RM_RTZ,
              SIMT_RM_RTZ);
}

static void test_fp_fma(void)
{
    static const struct {
        const char *name;
        unsigned opc;
        Fn2 fn;
    } ops[] = {
        { "fmadd.s", 0x43, w_fmadd }, { "fmsub.s", 0x47, w_fmsub },
        { "fnmsub.s", 0x4b, w_fnmsub }, { "fnmadd.s", 0x4f, w_fnmadd },
    };
    unsigned k, i;
    int rm;

    for (k = 0; k < 4; k++) {
        for (rm = 0; rm <= 4; rm += 2) {
            /* c = a ^ b (bit pattern), computed into f8 first */
            uint32_t body[] = { FMV_X_W(12, 6), FMV_X_W(13, 7),
                                XOR(12, 12, 13), FMV_W_X(8, 12),
                                CSRRWI(0, 0x001, 0),
                                enc_r4(8, 7, 6, rm, 10, ops[k].opc) };
            uint32_t f[N], fl[N];
            bool good;
            int err = run_body(body, 6, N, FA, FB, NULL, 0, NULL, f, fl);

            good = !err;
            for (i = 0; i < N; i++) {
                uint32_t efl = 0, e = ops[k].fn(FA[i], FB[i], rm, &efl);

                good &= f[i] == e && fl[i] == efl;
            }
            ok(good, "%s rm=%d", ops[k].name, rm);
        }
    }
    {
        /* single rounding: (1 + 2^-23)^2 - (1 + 2^-22) = 2^-46 exactly */
        uint32_t a[N], c[N], f[N];
        uint32_t body[] = { FMSUB(10, 6, 6, 8, 0) };
        int err;

        for (i = 0; i < N; i++) {
            a[i] = 0x3f800001;
            c[i] = 0x3f800002;
        }
        err = run_body(body, 1, N, a, a, c, 0, NULL, f, NULL);
        ok(!err && all_eq(f, 0x28800000, N), "fmsub.s rounds once");
    }
}

static void test_fp_misc(void)
{
    uint32_t x[N], f[N], fl[N];
    unsigned i;
    bool good;
    int err;

    err = run_op(FSGNJ(10, 6, 7), N, FA, FB, NULL, 0, NULL, f, fl);
    good = !err;
    for (i = 0; i < N; i++) {
        good &= f[i] == ((FA[i] & 0x7fffffff) | (FB[i] & 0x80000000)) &&
                fl[i] == 0;
    }
    ok(good, "fsgnj.s");
    err = run_op(FSGNJN(10, 6, 7), N, FA, FB, NULL, 0, NULL, f, fl);
    good = !err;
    for (i = 0; i < N; i++) {
        good &= f[i] == ((FA[i] & 0x7fffffff) | (~FB[i] & 0x80000000));
    }
    ok(good, "fsgnjn.s");
    err = run_op(FSGNJX(10, 6, 7), N, FA, FB, NULL, 0, NULL, f, fl);
    good = !err;
    for (i = 0; i < N; i++) {
        good &= f[i] == (FA[i] ^ (FB[i] & 0x80000000));
    }
    ok(good, "fsgnjx.s (NaNs pass through unchanged)");
    err = run_op(FMV_X_W(10, 6), N, FA, FB, NULL, 0, x, NULL, fl);
    ok(!err && !memcmp(x, FA, sizeof(x)) && all_eq(fl, 0, N), "fmv.x.w");
    err = run_op(FMV_W_X(10, 7), N, FA, FB, NULL, 0, NULL, f, fl);
    ok(!err && !memcmp(f, FB, sizeof(f)), "fmv.w.x keeps NaN bits");

    /* fmin/fmax: spelled out for the interesting pairs */
    {
        static const uint32_t a[] = {
            0x00000000, 0x80000000, 0x7fc00000, 0x3f800000, 0x7fc00000,
            0x7f800001, 0xbf800000, 0x7f800000, 0xff800000, 0x3f800000,
        };
        static const uint32_t b[] = {
            0x80000000, 0x00000000, 0x3f800000, 0x7fc00000, 0x7fc00000,
            0x3f800000, 0x3f800000, 0x40000000, 0x40000000, 0x40000000,
        };
        static const uint32_t mn[] = {
            0x80000000, 0x80000000, 0x3f800000, 0x3f800000, 0x7fc00000,
            0x3f800000, 0xbf800000, 0x40000000, 0xff800000, 0x3f800000,
        };
        static const uint32_t mx[] = {
            0x00000000, 0x00000000, 0x3f800000, 0x3f800000, 0x7fc00000,
            0x3f800000, 0x3f800000, 0x7f800000, 0x40000000, 0x40000000,
        };
        static const uint32_t nv[] = { 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0 };
        unsigned n = sizeof(a) / sizeof(a[0]);
        uint32_t fl2[N];

        err = run_op(FMIN(10, 6, 7), n, a, b, NULL, 0, NULL, f, fl);
        good = !err && !memcmp(f, mn, sizeof(mn)) &&
               !memcmp(fl, nv, sizeof(nv));
        ok(good, "fmin.s: -0 < +0, NaN operand ignored, sNaN signals");
        err = run_op(FMAX(10, 6, 7), n, a, b, NULL, 0, NULL, f, fl2);
        good = !err && !memcmp(f, mx, sizeof(mx)) &&
               !memcmp(fl2, nv, sizeof(nv));
        ok(good, "fmax.s: likewise");
    }
    /* comparisons */
    {
        static const uint32_t a[] = {
            0x00000000, 0x3f800000, 0x40000000, 0x7fc00000, 0x7f800001,
            0xbf800000, 0x3f800000,
        };
        static const uint32_t b[] = {
            0x80000000, 0x40000000, 0x3f800000, 0x3f800000, 0x3f800000,
            0xbf800000, 0x7fc00000,
        };
        static const uint32_t eq[] = { 1, 0, 0, 0, 0, 1, 0 };
        static const uint32_t lt[] = { 0, 1, 0, 0, 0, 0, 0 };
        static const uint32_t le[] = { 1, 1, 0, 0, 0, 1, 0 };
        static const uint32_t eqf[] = { 0, 0, 0, 0, 0x10, 0, 0 };
        static const uint32_t ltf[] = { 0, 0, 0, 0x10, 0x10, 0, 0x10 };
        unsigned n = sizeof(a) / sizeof(a[0]);

        err = run_op(FEQ(10, 6, 7), n, a, b, NULL, 0, x, NULL, fl);
        ok(!err && !memcmp(x, eq, sizeof(eq)) && !memcmp(fl, eqf, sizeof(eqf)),
           "feq.s: quiet, -0 == +0");
        err = run_op(FLT(10, 6, 7), n, a, b, NULL, 0, x, NULL, fl);
        ok(!err && !memcmp(x, lt, sizeof(lt)) && !memcmp(fl, ltf, sizeof(ltf)),
           "flt.s: signalling on any NaN");
        err = run_op(FLE(10, 6, 7), n, a, b, NULL, 0, x, NULL, fl);
        ok(!err && !memcmp(x, le, sizeof(le)) && !memcmp(fl, ltf, sizeof(ltf)),
           "fle.s: signalling on any NaN");
        err = run_op(FEQ(0, 6, 7), n, a, b, NULL, 0, x, NULL, fl);
        ok(!err && all_eq(x, 0xdeadbeef, n) && !memcmp(fl, eqf, sizeof(eqf)),
           "feq.s to x0 still raises flags");
    }
    {
        static const uint32_t a[] = {
            0xff800000, 0xbf800000, 0x807fffff, 0x80000000, 0x00000000,
            0x00000001, 0x3f800000, 0x7f800000, 0x7f800001, 0x7fc00000,
        };

        err = run_op(FCLASS(10, 6), 10, a, a, NULL, 0, x, NULL, fl);
        good = !err;
        for (i = 0; i < 10; i++) {
            good &= x[i] == 1u << i && fl[i] == 0;
        }
        ok(good, "fclass.s: all ten classes");
    }
}

static void test_fp_convert(void)
{
    int rm;
    unsigned i;

    for (rm = 0; rm <= 4; rm++) {
        uint32_t x[N], fl[N];
        bool good;
        int err;

        err = run_op(FCVT_W_S(10, 6, rm), N, FA, FB, NULL, 0, x, NULL, fl);
        good = !err;
        for (i = 0; i < N; i++) {
            uint32_t efl = 0;

            good &= x[i] == simt_f32_to_i32(FA[i], rm, &efl) && fl[i] == efl;
        }
        ok(good, "fcvt.w.s rm=%d", rm);
        err = run_op(FCVT_WU_S(10, 6, rm), N, FA, FB, NULL, 0, x, NULL, fl);
        good = !err;
        for (i = 0; i < N; i++) {
            uint32_t efl = 0;

            good &= x[i] == simt_f32_to_u32(FA[i], rm, &efl) && fl[i] == efl;
        }
        ok(good, "fcvt.wu.s rm=%d", rm);
        err = run_op(FCVT_S_W(10, 6, rm), N, A, B, NULL, 0, NULL, x, fl);
        good = !err;
        for (i = 0; i < N; i++) {
            uint32_t efl = 0;

            good &= x[i] == simt_i32_to_f32(A[i], rm, &efl) && fl[i] == efl;
        }
        ok(good, "fcvt.s.w rm=%d", rm);
        err = run_op(FCVT_S_WU(10, 6, rm), N, A, B, NULL, 0, NULL, x, fl);
        good = !err;
        for (i = 0; i < N; i++) {
            uint32_t efl = 0;

            good &= x[i] == simt_u32_to_f32(A[i], rm, &efl) && fl[i] == efl;
        }
        ok(good, "fcvt.s.wu rm=%d", rm);
    }
    {
        /* spelled-out saturation */
        static const uint32_t a[] = {
            0x4f000000, 0xcf000001, 0x7fc00000, 0xff800000, 0x3fc00000,
            0xbfc00000, 0x4f800000, 0xbf000000,
        };
        static const uint32_t w[] = {
            0x7fffffff, 0x80000000, 0x7fffffff, 0x80000000, 2, 0xfffffffe,
            0x7fffffff, 0,
        };
        static const uint32_t wu[] = {
            0x80000000, 0, 0xffffffff, 0, 2, 0, 0xffffffff, 0,
        };
        static const uint32_t wfl[] = {
            0x10, 0x10, 0x10, 0x10, 1, 1, 0x10, 1,
        };
        static const uint32_t wufl[] = {
            0, 0x10, 0x10, 0x10, 1, 0x10, 0x10, 1,
        };
        uint32_t x[8], fl[8];
        int err;

        err = run_op(FCVT_W_S(10, 6, 0), 8, a, a, NULL, 0, x, NULL, fl);
        ok(!err && !memcmp(x, w, sizeof(w)) && !memcmp(fl, wfl, sizeof(wfl)),
           "fcvt.w.s saturates, NaN -> INT_MAX");
        err = run_op(FCVT_WU_S(10, 6, 0), 8, a, a, NULL, 0, x, NULL, fl);
        ok(!err && !memcmp(x, wu, sizeof(wu)) &&
           !memcmp(fl, wufl, sizeof(wufl)),
           "fcvt.wu.s saturates, negatives -> 0");
    }
}

static void test_fp_lanes(void)
{
    uint32_t f[N], fl[N], rm[N], ones[N], third[N];
    unsigned i;
    bool good;
    int err;

    for (i = 0; i < N; i++) {
        rm[i] = i % 5;
        ones[i] = 0x3f800000;           /* 1.0 */
        third[i] = 0x3eaaaaab;          /* 1/3 rounded to nearest */
    }
    {
        /* each lane's own frm: x6 = rm, f7 = 1/3, f8 = 1 */
        uint32_t body[] = { CSRRW(0, 0x002, 6), FADD(10, 7, 8, 7) };

        err = run_body(body, 2, N, rm, third, ones, 0, NULL, f, fl);
        good = !err;
        for (i = 0; i < N; i++) {
            uint32_t efl = 0;

            good &= f[i] == simt_f32_add(third[i], ones[i], i % 5, &efl) &&
                    fl[i] == efl;
        }
        ok(good && f[2] != f[3], "dynamic rounding uses each lane's frm");
    }
    {
        /* flags accrue: NV set before, NX added by an inexact add */
        uint32_t body[] = { CSRRWI(0, 0x001, SIMT_FFLAG_NV),
                            FADD(10, 7, 8, 0) };

        err = run_body(body, 2, N, rm, third, ones, 0, NULL, f, fl);
        ok(!err && all_eq(fl, SIMT_FFLAG_NV | SIMT_FFLAG_NX, N),
           "fflags accrue");
    }
}

static void test_rm_illegal(void)
{
    uint32_t f[N];
    int err;

    err = run_op(FADD(10, 6, 7, 5), N, FA, FB, NULL, 0, NULL, f, NULL);
    ok(err == SIMT_FAULT_ILLEGAL_INSN, "static rm 5 is illegal");
    err = run_op(FCVT_W_S(10, 6, 6), N, FA, FB, NULL, 0, NULL, f, NULL);
    ok(err == SIMT_FAULT_ILLEGAL_INSN, "static rm 6 is illegal");
    err = run_op(FMUL(10, 6, 7, 7), N, FA, FB, NULL, 5, NULL, f, NULL);
    ok(err == SIMT_FAULT_ILLEGAL_INSN, "dynamic rm with frm = 5 is illegal");
    err = run_op(FMADD(10, 6, 7, 8, 7), N, FA, FB, NULL, 7, NULL, f, NULL);
    ok(err == SIMT_FAULT_ILLEGAL_INSN, "dynamic rm with frm = 7 is illegal");
    err = run_op(FSGNJ(10, 6, 7), N, FA, FB, NULL, 7, NULL, f, NULL);
    ok(!err, "fsgnj does not round: frm = 7 is fine");
    err = run_op(0xffffffff, N, FA, FB, NULL, 0, NULL, f, NULL);
    ok(err == SIMT_FAULT_ILLEGAL_INSN, "all-ones word is illegal");
    err = run_op(0, N, FA, FB, NULL, 0, NULL, f, NULL);
    ok(err == SIMT_FAULT_ILLEGAL_INSN, "all-zeros word is illegal");
    err = run_op(SLLI(10, 6, 0) | 1u << 25, N, FA, FB, NULL, 0, NULL, f, NULL);
    ok(err == SIMT_FAULT_ILLEGAL_INSN, "slli with shamt[5] is illegal");
    err = run_op(enc_i(0, 9, 3, 10, 0x07), N, FA, FB, NULL, 0, NULL, f, NULL);
    ok(err == SIMT_FAULT_ILLEGAL_INSN, "fld (no D extension) is illegal");
}

int main(void)
{
    init_operands();
    test_rr();
    test_ri();
    test_upper_and_jumps();
    test_branches();
    test_loads_stores();
    test_csr();
    test_atomics();
    test_fp_arith();
    test_fp_fma();
    test_fp_misc();
    test_fp_convert();
    test_fp_lanes();
    test_rm_illegal();
    return done_testing();
}
