/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rv-decode: register, control-flow and memory effects of RV32IMAF +
 * Zicsr + SIMT custom-0 instructions.  Anything the lanes would fault on
 * as illegal is rejected here too, so the tool never describes code the
 * hardware would not run.
 */
#include "rv-decode.h"

#include <stdio.h>
#include <string.h>

#include "hw/simt/simt-isa.h"

#define OPC_LOAD        0x03
#define OPC_LOAD_FP     0x07
#define OPC_MISC_MEM    0x0f
#define OPC_OP_IMM      0x13
#define OPC_AUIPC       0x17
#define OPC_STORE       0x23
#define OPC_STORE_FP    0x27
#define OPC_AMO         0x2f
#define OPC_OP          0x33
#define OPC_LUI         0x37
#define OPC_FMADD       0x43
#define OPC_FMSUB       0x47
#define OPC_FNMSUB      0x4b
#define OPC_FNMADD      0x4f
#define OPC_OP_FP       0x53
#define OPC_BRANCH      0x63
#define OPC_JALR        0x67
#define OPC_JAL         0x6f
#define OPC_SYSTEM      0x73

static int32_t imm_i(uint32_t x)
{
    return (int32_t)x >> 20;
}

static int32_t imm_s(uint32_t x)
{
    return ((int32_t)(x & 0xfe000000) >> 20) | ((x >> 7) & 0x1f);
}

static int32_t imm_b(uint32_t x)
{
    return ((int32_t)(x & 0x80000000) >> 19) | ((x & 0x80) << 4) |
           ((x >> 20) & 0x7e0) | ((x >> 7) & 0x1e);
}

static int32_t imm_j(uint32_t x)
{
    return ((int32_t)(x & 0x80000000) >> 11) | (x & 0xff000) |
           ((x >> 9) & 0x800) | ((x >> 20) & 0x7fe);
}

/* Static rounding modes 5 and 6 are reserved; 7 means "use frm". */
static bool valid_rm(uint32_t rm)
{
    return rm != 5 && rm != 6;
}

static uint64_t xbit(unsigned r)
{
    return r ? RV_X(r) : 0;
}

/* Integer operands: rd from rs1, and rs2 too unless @rs2 is 0 (x0). */
static void int_operands(struct rv_insn *d, unsigned rd, unsigned rs1,
                         unsigned rs2)
{
    d->rd = rd;
    d->rs1 = rs1;
    d->rs2 = rs2;
    d->use = xbit(rs1) | xbit(rs2);
    d->def = xbit(rd);
}

static const char *decode_op_fp(struct rv_insn *d, unsigned rd,
                                unsigned rs1, unsigned rs2,
                                unsigned f3, unsigned f7)
{
    switch (f7) {
    case 0x00: case 0x04: case 0x08: case 0x0c:     /* fadd..fdiv */
        if (!valid_rm(f3)) {
            return "reserved rounding mode";
        }
        d->use = RV_F(rs1) | RV_F(rs2);
        d->def = RV_F(rd);
        return NULL;
    case 0x2c:                                      /* fsqrt */
        if (rs2 != 0 || !valid_rm(f3)) {
            return "bad fsqrt encoding";
        }
        d->use = RV_F(rs1);
        d->def = RV_F(rd);
        return NULL;
    case 0x10:                                      /* fsgnj{,n,x} */
        if (f3 > 2) {
            return "bad fsgnj encoding";
        }
        d->op = RV_OP_BITS;
        d->use = RV_F(rs1) | RV_F(rs2);
        d->def = RV_F(rd);
        return NULL;
    case 0x14:                                      /* fmin, fmax */
        if (f3 > 1) {
            return "bad fmin/fmax encoding";
        }
        d->use = RV_F(rs1) | RV_F(rs2);
        d->def = RV_F(rd);
        return NULL;
    case 0x60:                                      /* fcvt.w{,u}.s */
        if (rs2 > 1 || !valid_rm(f3)) {
            return "bad fcvt.w.s encoding";
        }
        d->rd = rd;
        d->use = RV_F(rs1);
        d->def = xbit(rd);
        return NULL;
    case 0x70:                                      /* fmv.x.w, fclass */
        if (rs2 != 0 || f3 > 1) {
            return "bad fmv.x.w/fclass encoding";
        }
        d->op = f3 == 0 ? RV_OP_BITS : RV_OP_OTHER;
        d->rd = rd;
        d->use = RV_F(rs1);
        d->def = xbit(rd);
        return NULL;
    case 0x50:                                      /* fle, flt, feq */
        if (f3 > 2) {
            return "bad fp compare encoding";
        }
        d->rd = rd;
        d->use = RV_F(rs1) | RV_F(rs2);
        d->def = xbit(rd);
        return NULL;
    case 0x68:                                      /* fcvt.s.w{,u} */
        if (rs2 > 1 || !valid_rm(f3)) {
            return "bad fcvt.s.w encoding";
        }
        d->rs1 = rs1;
        d->use = xbit(rs1);
        d->def = RV_F(rd);
        return NULL;
    case 0x78:                                      /* fmv.w.x */
        if (rs2 != 0 || f3 != 0) {
            return "bad fmv.w.x encoding";
        }
        d->op = RV_OP_BITS;
        d->rs1 = rs1;
        d->use = xbit(rs1);
        d->def = RV_F(rd);
        return NULL;
    }
    return "unsupported fp instruction (only single precision exists)";
}

static const char *decode_amo(uint32_t x, struct rv_insn *d, unsigned rd,
                              unsigned rs1, unsigned rs2, unsigned f3)
{
    unsigned f5 = x >> 27;

    if (f3 != 2) {
        return "only 32-bit atomics exist";
    }
    switch (f5) {
    case 0x02:                                      /* lr.w */
        if (rs2 != 0) {
            return "bad lr.w encoding";
        }
        break;
    case 0x03: case 0x01: case 0x00: case 0x04: case 0x0c: case 0x08:
    case 0x10: case 0x14: case 0x18: case 0x1c:
        break;
    default:
        return "unknown atomic operation";
    }
    d->mem = RV_MEM_AMO;
    d->size = 4;
    d->rd = rd;
    d->rs1 = rs1;
    d->rs2 = f5 == 0x02 ? 0 : rs2;
    d->use = xbit(rs1) | xbit(d->rs2);
    d->def = xbit(rd);
    return NULL;
}

static const char *decode_custom0(struct rv_insn *d, unsigned rd,
                                  unsigned rs1, unsigned rs2, unsigned f3,
                                  unsigned f7)
{
    switch (f3) {
    case SIMT_F3_BARRIER:
    case SIMT_F3_EXIT:
        if (rd || rs1 || rs2 || f7) {
            return "bad SIMT barrier/exit encoding (fields must be zero)";
        }
        if (f3 == SIMT_F3_EXIT) {
            d->kind = RV_K_EXIT;
        } else {
            d->op = RV_OP_BARRIER;
        }
        return NULL;
    case SIMT_F3_VOTE:
        if (f7 > SIMT_VOTE_BALLOT || rs2) {
            return "bad SIMT vote encoding";
        }
        d->op = RV_OP_VOTE;
        int_operands(d, rd, rs1, 0);
        return NULL;
    case SIMT_F3_SHFL:
        if (f7 > SIMT_SHFL_XOR) {
            return "bad SIMT shuffle encoding";
        }
        d->op = RV_OP_SHFL;
        int_operands(d, rd, rs1, rs2);
        return NULL;
    case SIMT_F3_WSYNC:
        if (rd || rs2 || f7) {
            return "bad SIMT warp sync encoding (rd, rs2, funct7 must be zero)";
        }
        /* The mask is live while lanes wait, as the pc stays here */
        d->op = RV_OP_WSYNC;
        d->rs1 = rs1;
        d->use = xbit(rs1);
        return NULL;
    }
    return "unknown SIMT custom-0 instruction";
}

const char *rv_decode(uint32_t x, struct rv_insn *d)
{
    unsigned opc = x & 0x7f;
    unsigned rd = (x >> 7) & 0x1f;
    unsigned f3 = (x >> 12) & 7;
    unsigned rs1 = (x >> 15) & 0x1f;
    unsigned rs2 = (x >> 20) & 0x1f;
    unsigned f7 = x >> 25;

    memset(d, 0, sizeof(*d));
    if ((x & 3) != 3) {
        return "compressed (RVC) instruction; build with -march=rv32imaf";
    }
    switch (opc) {
    case OPC_LUI:
    case OPC_AUIPC:
        d->op = opc == OPC_LUI ? RV_OP_LUI : RV_OP_AUIPC;
        d->rd = rd;
        d->imm = (int32_t)(x & 0xfffff000);
        d->def = xbit(rd);
        return NULL;
    case OPC_JAL:
        d->kind = RV_K_JAL;
        d->rd = rd;
        d->imm = imm_j(x);
        d->def = xbit(rd);
        return NULL;
    case OPC_JALR:
        if (f3 != 0) {
            return "bad jalr encoding";
        }
        d->kind = RV_K_JALR;
        int_operands(d, rd, rs1, 0);
        d->imm = imm_i(x);
        return NULL;
    case OPC_BRANCH:
        if (f3 == 2 || f3 == 3) {
            return "bad branch encoding";
        }
        d->kind = RV_K_BRANCH;
        int_operands(d, 0, rs1, rs2);
        d->imm = imm_b(x);
        return NULL;
    case OPC_LOAD:
        if (f3 == 3 || f3 > 5) {
            return "bad load encoding";
        }
        d->mem = RV_MEM_LOAD;
        d->size = 1u << (f3 & 3);
        int_operands(d, rd, rs1, 0);
        d->imm = imm_i(x);
        return NULL;
    case OPC_STORE:
        if (f3 > 2) {
            return "bad store encoding";
        }
        d->mem = RV_MEM_STORE;
        d->size = 1u << f3;
        int_operands(d, 0, rs1, rs2);
        d->imm = imm_s(x);
        return NULL;
    case OPC_OP_IMM:
        if ((f3 == 1 && f7 != 0) ||
            (f3 == 5 && f7 != 0 && f7 != 0x20)) {
            return "bad shift encoding";
        }
        d->op = f3 == 0 ? RV_OP_ADDI :
                f3 == 4 || f3 >= 6 ? RV_OP_BITS : RV_OP_OTHER;
        int_operands(d, rd, rs1, 0);
        d->imm = imm_i(x);
        return NULL;
    case OPC_OP:
        if (f7 != 0 && f7 != 1 &&
            !(f7 == 0x20 && (f3 == 0 || f3 == 5))) {
            return "bad register-register encoding";
        }
        if (f7 == 0 && f3 == 0) {
            d->op = RV_OP_ADD;
        } else if (f7 == 0x20 && f3 == 0) {
            d->op = RV_OP_SUB;
        } else if (f7 == 0 && (f3 == 4 || f3 >= 6)) {
            d->op = RV_OP_BITS;
        }
        int_operands(d, rd, rs1, rs2);
        return NULL;
    case OPC_MISC_MEM:
        if (f3 != 0) {
            return "only fence exists in MISC-MEM (no fence.i)";
        }
        return NULL;
    case OPC_SYSTEM:
        if (f3 == 0) {
            return "ecall/ebreak/xret are not supported on SIMT lanes";
        }
        if (f3 == 4) {
            return "bad SYSTEM encoding";
        }
        d->rd = rd;
        d->rs1 = f3 & 4 ? 0 : rs1;
        d->use = xbit(d->rs1);
        d->def = xbit(rd);
        return NULL;
    case OPC_AMO:
        return decode_amo(x, d, rd, rs1, rs2, f3);
    case OPC_LOAD_FP:
        if (f3 != 2) {
            return "only flw exists (single precision)";
        }
        d->mem = RV_MEM_LOAD;
        d->size = 4;
        d->rs1 = rs1;
        d->imm = imm_i(x);
        d->use = xbit(rs1);
        d->def = RV_F(rd);
        return NULL;
    case OPC_STORE_FP:
        if (f3 != 2) {
            return "only fsw exists (single precision)";
        }
        d->mem = RV_MEM_STORE;
        d->size = 4;
        d->rs1 = rs1;
        d->imm = imm_s(x);
        d->use = xbit(rs1) | RV_F(rs2);
        return NULL;
    case OPC_FMADD: case OPC_FMSUB: case OPC_FNMSUB: case OPC_FNMADD:
        if ((f7 & 3) != 0 || !valid_rm(f3)) {
            return "bad fused multiply-add encoding";
        }
        d->use = RV_F(rs1) | RV_F(rs2) | RV_F(x >> 27);
        d->def = RV_F(rd);
        return NULL;
    case OPC_OP_FP:
        return decode_op_fp(d, rd, rs1, rs2, f3, f7);
    case SIMT_OPC_CUSTOM0:
        return decode_custom0(d, rd, rs1, rs2, f3, f7);
    }
    return "unknown opcode";
}

static const char *const xnames[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
    "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
    "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
    "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char *const fnames[32] = {
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7",
    "fs0", "fs1", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5",
    "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7",
    "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
};

const char *rv_reg_name(unsigned r)
{
    return r < 32 ? xnames[r] : fnames[(r - 32) & 31];
}

/* ", rtz" for a static rounding mode, nothing for dynamic */
static const char *rm_suffix(unsigned rm)
{
    static const char *const names[8] = {
        ", rne", ", rtz", ", rdn", ", rup", ", rmm", ", ?", ", ?", "",
    };

    return names[rm & 7];
}

static void disasm_op_fp(uint32_t x, char *buf, size_t len)
{
    static const char *const arith[4] = { "fadd", "fsub", "fmul", "fdiv" };
    static const char *const sgnj[3] = { "fsgnj", "fsgnjn", "fsgnjx" };
    static const char *const cmp[3] = { "fle", "flt", "feq" };
    unsigned rd = (x >> 7) & 0x1f, f3 = (x >> 12) & 7;
    unsigned rs1 = (x >> 15) & 0x1f, rs2 = (x >> 20) & 0x1f, f7 = x >> 25;
    const char *u = rs2 ? "u" : "";

    switch (f7) {
    case 0x00: case 0x04: case 0x08: case 0x0c:
        snprintf(buf, len, "%s.s %s, %s, %s%s", arith[f7 >> 2], fnames[rd],
                 fnames[rs1], fnames[rs2], rm_suffix(f3));
        break;
    case 0x2c:
        snprintf(buf, len, "fsqrt.s %s, %s%s", fnames[rd], fnames[rs1],
                 rm_suffix(f3));
        break;
    case 0x10:
        snprintf(buf, len, "%s.s %s, %s, %s", sgnj[f3], fnames[rd],
                 fnames[rs1], fnames[rs2]);
        break;
    case 0x14:
        snprintf(buf, len, "%s.s %s, %s, %s", f3 ? "fmax" : "fmin",
                 fnames[rd], fnames[rs1], fnames[rs2]);
        break;
    case 0x60:
        snprintf(buf, len, "fcvt.w%s.s %s, %s%s", u, xnames[rd], fnames[rs1],
                 rm_suffix(f3));
        break;
    case 0x70:
        snprintf(buf, len, "%s %s, %s", f3 ? "fclass.s" : "fmv.x.w",
                 xnames[rd], fnames[rs1]);
        break;
    case 0x50:
        snprintf(buf, len, "%s.s %s, %s, %s", cmp[f3], xnames[rd],
                 fnames[rs1], fnames[rs2]);
        break;
    case 0x68:
        snprintf(buf, len, "fcvt.s.w%s %s, %s%s", u, fnames[rd], xnames[rs1],
                 rm_suffix(f3));
        break;
    default:                                        /* 0x78 */
        snprintf(buf, len, "fmv.w.x %s, %s", fnames[rd], xnames[rs1]);
        break;
    }
}

void rv_disasm(uint32_t x, uint32_t pc, char *buf, size_t len)
{
    static const char *const op[2][8] = {
        { "add", "sll", "slt", "sltu", "xor", "srl", "or", "and" },
        { "mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu" },
    };
    static const char *const opi[8] = {
        "addi", "slli", "slti", "sltiu", "xori", "srli", "ori", "andi",
    };
    static const char *const ld[8] = {
        "lb", "lh", "lw", "", "lbu", "lhu", "", "",
    };
    static const char *const st[3] = { "sb", "sh", "sw" };
    static const char *const br[8] = {
        "beq", "bne", "", "", "blt", "bge", "bltu", "bgeu",
    };
    static const char *const csr[8] = {
        "", "csrrw", "csrrs", "csrrc", "", "csrrwi", "csrrsi", "csrrci",
    };
    static const char *const fma[4] = {
        "fmadd", "fmsub", "fnmsub", "fnmadd",
    };
    static const char *const kinds[2][4] = {
        { "any", "all", "ballot", "" }, { "idx", "down", "up", "xor" },
    };
    struct rv_insn d;
    unsigned rd = (x >> 7) & 0x1f, f3 = (x >> 12) & 7;
    unsigned rs1 = (x >> 15) & 0x1f, rs2 = (x >> 20) & 0x1f, f7 = x >> 25;
    const char *why = rv_decode(x, &d);

    if (why) {
        snprintf(buf, len, ".word 0x%08x", x);
        return;
    }
    switch (x & 0x7f) {
    case OPC_LUI:
    case OPC_AUIPC:
        snprintf(buf, len, "%s %s, 0x%x", (x & 0x7f) == OPC_LUI ? "lui" :
                 "auipc", xnames[rd], x >> 12);
        break;
    case OPC_JAL:
        snprintf(buf, len, "jal %s, 0x%x", xnames[rd], pc + d.imm);
        break;
    case OPC_JALR:
        snprintf(buf, len, "jalr %s, %d(%s)", xnames[rd], d.imm,
                 xnames[rs1]);
        break;
    case OPC_BRANCH:
        snprintf(buf, len, "%s %s, %s, 0x%x", br[f3], xnames[rs1],
                 xnames[rs2], pc + d.imm);
        break;
    case OPC_LOAD:
        snprintf(buf, len, "%s %s, %d(%s)", ld[f3], xnames[rd], d.imm,
                 xnames[rs1]);
        break;
    case OPC_STORE:
        snprintf(buf, len, "%s %s, %d(%s)", st[f3], xnames[rs2], d.imm,
                 xnames[rs1]);
        break;
    case OPC_OP_IMM:
        snprintf(buf, len, "%s %s, %s, %d", f3 == 5 && f7 ? "srai" : opi[f3],
                 xnames[rd], xnames[rs1], f3 == 1 || f3 == 5 ?
                 (int)rs2 : d.imm);
        break;
    case OPC_OP:
        snprintf(buf, len, "%s %s, %s, %s",
                 f7 == 0x20 ? (f3 ? "sra" : "sub") : op[f7][f3],
                 xnames[rd], xnames[rs1], xnames[rs2]);
        break;
    case OPC_MISC_MEM:
        snprintf(buf, len, "fence");
        break;
    case OPC_SYSTEM:
        if (f3 == 2 && rs1 == 0) {
            snprintf(buf, len, "csrr %s, 0x%03x", xnames[rd], x >> 20);
        } else if (f3 & 4) {
            snprintf(buf, len, "%s %s, 0x%03x, %u", csr[f3], xnames[rd],
                     x >> 20, rs1);
        } else {
            snprintf(buf, len, "%s %s, 0x%03x, %s", csr[f3], xnames[rd],
                     x >> 20, xnames[rs1]);
        }
        break;
    case OPC_AMO: {
        static const char *const amo[32] = {
            [0x00] = "amoadd", [0x01] = "amoswap", [0x02] = "lr",
            [0x03] = "sc", [0x04] = "amoxor", [0x08] = "amoor",
            [0x0c] = "amoand", [0x10] = "amomin", [0x14] = "amomax",
            [0x18] = "amominu", [0x1c] = "amomaxu",
        };

        if ((x >> 27) == 0x02) {
            snprintf(buf, len, "lr.w %s, (%s)", xnames[rd], xnames[rs1]);
        } else {
            snprintf(buf, len, "%s.w %s, %s, (%s)", amo[x >> 27], xnames[rd],
                     xnames[rs2], xnames[rs1]);
        }
        break;
    }
    case OPC_LOAD_FP:
        snprintf(buf, len, "flw %s, %d(%s)", fnames[rd], d.imm, xnames[rs1]);
        break;
    case OPC_STORE_FP:
        snprintf(buf, len, "fsw %s, %d(%s)", fnames[rs2], d.imm,
                 xnames[rs1]);
        break;
    case OPC_FMADD: case OPC_FMSUB: case OPC_FNMSUB: case OPC_FNMADD:
        snprintf(buf, len, "%s.s %s, %s, %s, %s%s", fma[(x >> 2) & 3],
                 fnames[rd], fnames[rs1], fnames[rs2], fnames[x >> 27],
                 rm_suffix(f3));
        break;
    case OPC_OP_FP:
        disasm_op_fp(x, buf, len);
        break;
    default:                                        /* custom-0 */
        if (f3 == SIMT_F3_BARRIER) {
            snprintf(buf, len, "simt.barrier");
        } else if (f3 == SIMT_F3_EXIT) {
            snprintf(buf, len, "simt.exit");
        } else if (f3 == SIMT_F3_VOTE) {
            snprintf(buf, len, "simt.vote.%s %s, %s", kinds[0][f7],
                     xnames[rd], xnames[rs1]);
        } else if (f3 == SIMT_F3_WSYNC) {
            snprintf(buf, len, "simt.wsync %s", xnames[rs1]);
        } else {
            snprintf(buf, len, "simt.shfl.%s %s, %s, %s", kinds[1][f7],
                     xnames[rd], xnames[rs1], xnames[rs2]);
        }
        break;
    }
}
