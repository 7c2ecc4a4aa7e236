/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rv-decode: what the metadata tool needs to know about one RV32IMAF +
 * Zicsr + SIMT custom-0 instruction: registers read and written, control
 * flow, memory access.
 */
#ifndef SIMT_RV_DECODE_H
#define SIMT_RV_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Register masks: bit n = xn, bit 32 + n = fn (the live-table layout). */
#define RV_X(n)         ((uint64_t)1 << (n))
#define RV_F(n)         ((uint64_t)1 << (32 + (n)))
#define RV_REG_ZERO     0
#define RV_REG_RA       1
#define RV_REG_SP       2

enum rv_kind {
    RV_K_PLAIN,         /* falls through to pc + 4 */
    RV_K_BRANCH,        /* conditional: pc + 4 or pc + imm */
    RV_K_JAL,           /* pc + imm, link in rd */
    RV_K_JALR,          /* rs1 + imm, link in rd */
    RV_K_EXIT,          /* SIMT thread exit: no successor */
};

enum rv_mem {
    RV_MEM_NONE,
    RV_MEM_LOAD,        /* integer or fp load */
    RV_MEM_STORE,       /* integer or fp store */
    RV_MEM_AMO,         /* lr, sc, amo*: reads and writes memory */
};

enum rv_op {
    RV_OP_OTHER,
    RV_OP_LUI,
    RV_OP_AUIPC,
    RV_OP_ADDI,
    RV_OP_ADD,
    RV_OP_SUB,
    RV_OP_BITS,         /* and/or/xor, fp moves: may carry a pointer */
    RV_OP_BARRIER,
    RV_OP_VOTE,
    RV_OP_SHFL,
    RV_OP_WSYNC,
};

struct rv_insn {
    uint8_t kind;       /* enum rv_kind */
    uint8_t mem;        /* enum rv_mem */
    uint8_t op;         /* enum rv_op */
    uint8_t rd;         /* integer destination, or 0 */
    uint8_t rs1;        /* integer source (0 if none) */
    uint8_t rs2;
    uint8_t size;       /* bytes accessed by a load, store or AMO */
    int32_t imm;        /* sign-extended immediate (branch/jump offset) */
    uint64_t use;       /* registers read */
    uint64_t def;       /* registers written (never x0) */
};

/*
 * Decode @insn.  Returns NULL on success, or a reason the instruction is
 * not valid RV32IMAF + Zicsr + SIMT (compressed, reserved, unsupported).
 */
const char *rv_decode(uint32_t insn, struct rv_insn *d);

/* Assembly text of @insn at @pc (".word" if it does not decode). */
void rv_disasm(uint32_t insn, uint32_t pc, char *buf, size_t len);

/* ABI name of register @r: 0..31 integer, 32..63 fp. */
const char *rv_reg_name(unsigned r);

#endif /* SIMT_RV_DECODE_H */
