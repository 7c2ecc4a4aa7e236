/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RV32IMAF (and simt's custom) instruction encoders for the tests and
 * benchmarks that hand-assemble programs: one set for the unit tests,
 * the kernel toolchain's tests and simt-core-bench.
 */
#ifndef SIMT_TESTS_RV32_ENC_H
#define SIMT_TESTS_RV32_ENC_H

#include <stdint.h>

#include "hw/simt/simt-isa.h"

/* ABI register names */
enum {
    ZERO = 0, RA = 1, SP = 2, T0 = 5, T1 = 6, S0 = 8, S1 = 9,
    A0 = 10, A1 = 11, A2 = 12, A3 = 13, A4 = 14, A5 = 15,
};
enum { FT0 = 0, FT1 = 1, FA0 = 10, FA1 = 11 };

/* Dynamic rounding (frm) in an fp instruction's rm field */
#define RM_DYN              7

static inline uint32_t enc_r(unsigned f7, unsigned rs2, unsigned rs1,
                             unsigned f3, unsigned rd, unsigned opc)
{
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}

static inline uint32_t enc_i(int32_t imm, unsigned rs1, unsigned f3,
                             unsigned rd, unsigned opc)
{
    return (uint32_t)imm << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}

static inline uint32_t enc_s(int32_t imm, unsigned rs2, unsigned rs1,
                             unsigned f3, unsigned opc)
{
    return ((uint32_t)imm >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 |
           f3 << 12 | ((uint32_t)imm & 0x1f) << 7 | opc;
}

static inline uint32_t enc_b(int32_t imm, unsigned rs2, unsigned rs1,
                             unsigned f3)
{
    uint32_t u = imm;

    return (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | rs2 << 20 |
           rs1 << 15 | f3 << 12 | (u >> 1 & 0xf) << 8 | (u >> 11 & 1) << 7 |
           0x63;
}

static inline uint32_t enc_j(int32_t imm, unsigned rd)
{
    uint32_t u = imm;

    return (u >> 20 & 1) << 31 | (u >> 1 & 0x3ff) << 21 |
           (u >> 11 & 1) << 20 | (u >> 12 & 0xff) << 12 | rd << 7 | 0x6f;
}

static inline uint32_t enc_r4(unsigned rs3, unsigned rs2, unsigned rs1,
                              unsigned rm, unsigned rd, unsigned opc)
{
    return rs3 << 27 | rs2 << 20 | rs1 << 15 | rm << 12 | rd << 7 | opc;
}

#define LUI(rd, v)          (((uint32_t)(v) & 0xfffff000u) | (rd) << 7 | 0x37)
#define AUIPC(rd, v)        (((uint32_t)(v) & 0xfffff000u) | (rd) << 7 | 0x17)
#define JAL(rd, off)        enc_j(off, rd)
#define JALR(rd, rs, off)   enc_i(off, rs, 0, rd, 0x67)
#define BEQ(a, b, off)      enc_b(off, b, a, 0)
#define BNE(a, b, off)      enc_b(off, b, a, 1)
#define BLT(a, b, off)      enc_b(off, b, a, 4)
#define BGE(a, b, off)      enc_b(off, b, a, 5)
#define BLTU(a, b, off)     enc_b(off, b, a, 6)
#define BGEU(a, b, off)     enc_b(off, b, a, 7)
#define LB(rd, rs, off)     enc_i(off, rs, 0, rd, 0x03)
#define LH(rd, rs, off)     enc_i(off, rs, 1, rd, 0x03)
#define LW(rd, rs, off)     enc_i(off, rs, 2, rd, 0x03)
#define LBU(rd, rs, off)    enc_i(off, rs, 4, rd, 0x03)
#define LHU(rd, rs, off)    enc_i(off, rs, 5, rd, 0x03)
#define SB(rs2, rs, off)    enc_s(off, rs2, rs, 0, 0x23)
#define SH(rs2, rs, off)    enc_s(off, rs2, rs, 1, 0x23)
#define SW(rs2, rs, off)    enc_s(off, rs2, rs, 2, 0x23)
#define FLW(rd, rs, off)    enc_i(off, rs, 2, rd, 0x07)
#define FSW(rs2, rs, off)   enc_s(off, rs2, rs, 2, 0x27)
#define ADDI(rd, rs, v)     enc_i(v, rs, 0, rd, 0x13)
#define SLTI(rd, rs, v)     enc_i(v, rs, 2, rd, 0x13)
#define SLTIU(rd, rs, v)    enc_i(v, rs, 3, rd, 0x13)
#define XORI(rd, rs, v)     enc_i(v, rs, 4, rd, 0x13)
#define ORI(rd, rs, v)      enc_i(v, rs, 6, rd, 0x13)
#define ANDI(rd, rs, v)     enc_i(v, rs, 7, rd, 0x13)
#define SLLI(rd, rs, v)     enc_i(v, rs, 1, rd, 0x13)
#define SRLI(rd, rs, v)     enc_i(v, rs, 5, rd, 0x13)
#define SRAI(rd, rs, v)     enc_i(0x400 | (v), rs, 5, rd, 0x13)
#define OP(f7, f3, rd, a, b) enc_r(f7, b, a, f3, rd, 0x33)
#define ADD(rd, a, b)       OP(0, 0, rd, a, b)
#define SUB(rd, a, b)       OP(0x20, 0, rd, a, b)
#define SLL(rd, a, b)       OP(0, 1, rd, a, b)
#define SLT(rd, a, b)       OP(0, 2, rd, a, b)
#define SLTU(rd, a, b)      OP(0, 3, rd, a, b)
#define XOR(rd, a, b)       OP(0, 4, rd, a, b)
#define SRL(rd, a, b)       OP(0, 5, rd, a, b)
#define SRA(rd, a, b)       OP(0x20, 5, rd, a, b)
#define OR(rd, a, b)        OP(0, 6, rd, a, b)
#define AND(rd, a, b)       OP(0, 7, rd, a, b)
#define MUL(rd, a, b)       OP(1, 0, rd, a, b)
#define MULH(rd, a, b)      OP(1, 1, rd, a, b)
#define MULHSU(rd, a, b)    OP(1, 2, rd, a, b)
#define MULHU(rd, a, b)     OP(1, 3, rd, a, b)
#define DIV(rd, a, b)       OP(1, 4, rd, a, b)
#define DIVU(rd, a, b)      OP(1, 5, rd, a, b)
#define REM(rd, a, b)       OP(1, 6, rd, a, b)
#define REMU(rd, a, b)      OP(1, 7, rd, a, b)
#define FENCE               0x0ff0000fu
#define ECALL               0x00000073u
#define EBREAK              0x00100073u
#define CSRRW(rd, csr, rs)  enc_i(csr, rs, 1, rd, 0x73)
#define CSRRS(rd, csr, rs)  enc_i(csr, rs, 2, rd, 0x73)
#define CSRRC(rd, csr, rs)  enc_i(csr, rs, 3, rd, 0x73)
#define CSRRWI(rd, csr, u)  enc_i(csr, u, 5, rd, 0x73)
#define CSRRSI(rd, csr, u)  enc_i(csr, u, 6, rd, 0x73)
#define CSRRCI(rd, csr, u)  enc_i(csr, u, 7, rd, 0x73)
#define CSRR(rd, csr)       CSRRS(rd, csr, 0)
#define AMO(f5, rd, addr, src) enc_r((f5) << 2, src, addr, 2, rd, 0x2f)
#define LR_W(rd, addr)      AMO(0x02, rd, addr, 0)
#define SC_W(rd, addr, src) AMO(0x03, rd, addr, src)
#define AMOSWAP(rd, a, s)   AMO(0x01, rd, a, s)
#define AMOADD(rd, a, s)    AMO(0x00, rd, a, s)
#define AMOXOR(rd, a, s)    AMO(0x04, rd, a, s)
#define AMOAND(rd, a, s)    AMO(0x0c, rd, a, s)
#define AMOOR(rd, a, s)     AMO(0x08, rd, a, s)
#define AMOMIN(rd, a, s)    AMO(0x10, rd, a, s)
#define AMOMAX(rd, a, s)    AMO(0x14, rd, a, s)
#define AMOMINU(rd, a, s)   AMO(0x18, rd, a, s)
#define AMOMAXU(rd, a, s)   AMO(0x1c, rd, a, s)
#define FOP(f7, rm, rd, a, b) enc_r(f7, b, a, rm, rd, 0x53)
#define FADD(rd, a, b, rm)  FOP(0x00, rm, rd, a, b)
#define FSUB(rd, a, b, rm)  FOP(0x04, rm, rd, a, b)
#define FMUL(rd, a, b, rm)  FOP(0x08, rm, rd, a, b)
#define FDIV(rd, a, b, rm)  FOP(0x0c, rm, rd, a, b)
#define FSQRT(rd, a, rm)    FOP(0x2c, rm, rd, a, 0)
#define FSGNJ(rd, a, b)     FOP(0x10, 0, rd, a, b)
#define FSGNJN(rd, a, b)    FOP(0x10, 1, rd, a, b)
#define FSGNJX(rd, a, b)    FOP(0x10, 2, rd, a, b)
#define FMIN(rd, a, b)      FOP(0x14, 0, rd, a, b)
#define FMAX(rd, a, b)      FOP(0x14, 1, rd, a, b)
#define FCVT_W_S(rd, a, rm) FOP(0x60, rm, rd, a, 0)
#define FCVT_WU_S(rd, a, rm) FOP(0x60, rm, rd, a, 1)
#define FMV_X_W(rd, a)      FOP(0x70, 0, rd, a, 0)
#define FCLASS(rd, a)       FOP(0x70, 1, rd, a, 0)
#define FEQ(rd, a, b)       FOP(0x50, 2, rd, a, b)
#define FLT(rd, a, b)       FOP(0x50, 1, rd, a, b)
#define FLE(rd, a, b)       FOP(0x50, 0, rd, a, b)
#define FCVT_S_W(rd, a, rm) FOP(0x68, rm, rd, a, 0)
#define FCVT_S_WU(rd, a, rm) FOP(0x68, rm, rd, a, 1)
#define FMV_W_X(rd, a)      FOP(0x78, 0, rd, a, 0)
#define FMADD(rd, a, b, c, rm)  enc_r4(c, b, a, rm, rd, 0x43)
#define FMSUB(rd, a, b, c, rm)  enc_r4(c, b, a, rm, rd, 0x47)
#define FNMSUB(rd, a, b, c, rm) enc_r4(c, b, a, rm, rd, 0x4b)
#define FNMADD(rd, a, b, c, rm) enc_r4(c, b, a, rm, rd, 0x4f)
#define BARRIER             SIMT_INSN_BARRIER
#define EXIT                SIMT_INSN_EXIT
#define VOTE(kind, rd, rs)  enc_r(kind, 0, rs, SIMT_F3_VOTE, rd, 0x0b)
#define SHFL(kind, rd, rs, lane) enc_r(kind, lane, rs, SIMT_F3_SHFL, rd, 0x0b)
#define WSYNC(rs)           SIMT_INSN_WSYNC(rs)
#define RET                 JALR(0, 1, 0)
#define J(off)              JAL(0, off)

#endif /* SIMT_TESTS_RV32_ENC_H */
