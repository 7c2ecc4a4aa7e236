/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Encoders for the RV32IMAF instructions the hand-made test programs use.
 * Register numbers follow the ABI names below.
 */
#ifndef SIMT_TESTS_RV_ASM_H
#define SIMT_TESTS_RV_ASM_H

#include <stdint.h>

#include "hw/simt/simt-isa.h"

enum {
    ZERO = 0, RA = 1, SP = 2, T0 = 5, T1 = 6, S0 = 8, S1 = 9,
    A0 = 10, A1 = 11, A2 = 12, A3 = 13, A4 = 14, A5 = 15,
};
enum { FT0 = 0, FT1 = 1, FA0 = 10, FA1 = 11 };

static inline uint32_t rv_r(uint32_t f7, unsigned rs2, unsigned rs1,
                            uint32_t f3, unsigned rd, uint32_t opc)
{
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}

static inline uint32_t rv_i(int32_t imm, unsigned rs1, uint32_t f3,
                            unsigned rd, uint32_t opc)
{
    return (uint32_t)imm << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}

static inline uint32_t rv_s(int32_t imm, unsigned rs2, unsigned rs1,
                            uint32_t f3, uint32_t opc)
{
    return ((uint32_t)imm >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 |
           f3 << 12 | ((uint32_t)imm & 0x1f) << 7 | opc;
}

static inline uint32_t rv_b(int32_t off, unsigned rs2, unsigned rs1,
                            uint32_t f3)
{
    uint32_t o = (uint32_t)off;

    return (o >> 12 & 1) << 31 | (o >> 5 & 0x3f) << 25 | rs2 << 20 |
           rs1 << 15 | f3 << 12 | (o >> 1 & 0xf) << 8 |
           (o >> 11 & 1) << 7 | 0x63;
}

static inline uint32_t rv_jal(unsigned rd, int32_t off)
{
    uint32_t o = (uint32_t)off;

    return (o >> 20 & 1) << 31 | (o >> 1 & 0x3ff) << 21 |
           (o >> 11 & 1) << 20 | (o >> 12 & 0xff) << 12 | rd << 7 | 0x6f;
}

#define ADDI(rd, rs1, imm)  rv_i(imm, rs1, 0, rd, 0x13)
#define SLLI(rd, rs1, sh)   rv_i(sh, rs1, 1, rd, 0x13)
#define ADD(rd, rs1, rs2)   rv_r(0, rs2, rs1, 0, rd, 0x33)
#define SUB(rd, rs1, rs2)   rv_r(0x20, rs2, rs1, 0, rd, 0x33)
#define MUL(rd, rs1, rs2)   rv_r(1, rs2, rs1, 0, rd, 0x33)
#define LUI(rd, imm20)      ((uint32_t)(imm20) << 12 | (rd) << 7 | 0x37)
#define AUIPC(rd, imm20)    ((uint32_t)(imm20) << 12 | (rd) << 7 | 0x17)
#define LW(rd, rs1, imm)    rv_i(imm, rs1, 2, rd, 0x03)
#define SW(rs2, rs1, imm)   rv_s(imm, rs2, rs1, 2, 0x23)
#define FLW(rd, rs1, imm)   rv_i(imm, rs1, 2, rd, 0x07)
#define FSW(rs2, rs1, imm)  rv_s(imm, rs2, rs1, 2, 0x27)
#define FADD(rd, rs1, rs2)  rv_r(0x00, rs2, rs1, 7, rd, 0x53)
#define FMV_W_X(rd, rs1)    rv_r(0x78, 0, rs1, 0, rd, 0x53)
#define FMV_X_W(rd, rs1)    rv_r(0x70, 0, rs1, 0, rd, 0x53)
#define AMOADD(rd, rs2, rs1) rv_r(0x00 << 2, rs2, rs1, 2, rd, 0x2f)
#define BEQ(rs1, rs2, off)  rv_b(off, rs2, rs1, 0)
#define BNE(rs1, rs2, off)  rv_b(off, rs2, rs1, 1)
#define JAL(rd, off)        rv_jal(rd, off)
#define J(off)              rv_jal(ZERO, off)
#define JALR(rd, rs1, imm)  rv_i(imm, rs1, 0, rd, 0x67)
#define RET                 JALR(ZERO, RA, 0)
#define CSRR(rd, csr)       rv_i(csr, ZERO, 2, rd, 0x73)
#define BARRIER             SIMT_INSN_BARRIER
#define EXIT                SIMT_INSN_EXIT

#endif /* SIMT_TESTS_RV_ASM_H */
