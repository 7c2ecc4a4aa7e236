/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt: the warp interpreter.
 *
 * A warp runs one instruction for a group of lanes: the runnable lanes
 * (neither exited nor waiting at a barrier or warp sync) whose PC is the
 * lowest.  While
 * the group's PC stays below every other runnable lane's PC, the group is
 * kept in locals and per-lane PCs are not touched, so a converged warp costs
 * no more than one scalar PC.  Divergence writes per-lane PCs and picks the
 * next group; lanes meet again when their PCs become equal (min-PC
 * reconvergence, as in Simty).
 *
 * Instructions are decoded once into a predecode cache over the code range,
 * which also counts the decoded entries in a row after each one, so that a
 * straight run goes from dispatch to dispatch (straight_ahead); runs of
 * integer operations and branches go to a tier of their own (tier_body)
 * whose variables stay in host registers.  Register
 * files are register-major, so an ALU instruction is a few host vector
 * operations (VALU) or a 32-wide loop the compiler vectorises, then a
 * masked commit.
 */

#include "qemu/osdep.h"
#include "hw/simt/simt-core.h"
#include "hw/simt/simt-le.h"
#include "hw/simt/simt-fpu.h"

/* Warp instructions a warp runs before simt_block_run moves on. */
#define SIMT_WARP_QUANTUM   256

/*
 * The lane loops' helpers go inline into each build of the instruction
 * loop, so that a build for a wider vector unit (warp_run_avx2) widens
 * them too.
 */
#define SIMT_LANES_INLINE   __attribute__((always_inline))

/*
 * A lane array the instruction writes before it reads it: not cleared on
 * every use by QEMU's -ftrivial-auto-var-init=zero.  Cleared, four of
 * them made every fp instruction five times slower in the device than in
 * the interpreter's own build.  SIMT_HAVE_UNINITIALIZED: the compiler
 * knows the attribute (both meson.build files try it).
 */
#ifdef SIMT_HAVE_UNINITIALIZED
#define SIMT_UNCLEARED      __attribute__((uninitialized))
#else
#define SIMT_UNCLEARED
#endif

enum {
    OP_UNDECODED = 0,   /* zero so that a fresh cache is all undecoded */
    OP_ILLEGAL,
    OP_BAD_CSR,
    OP_LUI, OP_AUIPC, OP_JAL, OP_JALR,
    OP_BEQ, OP_BNE, OP_BLT, OP_BGE, OP_BLTU, OP_BGEU,
    OP_LOAD, OP_STORE, OP_FLW, OP_FSW,
    OP_ADDI, OP_SLTI, OP_SLTIU, OP_XORI, OP_ORI, OP_ANDI,
    OP_SLLI, OP_SRLI, OP_SRAI,
    OP_ADD, OP_SUB, OP_SLL, OP_SLT, OP_SLTU, OP_XOR, OP_SRL, OP_SRA,
    OP_OR, OP_AND,
    OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU, OP_DIV, OP_DIVU, OP_REM, OP_REMU,
    OP_FENCE,
    OP_CSRRW, OP_CSRRS, OP_CSRRC,
    OP_LR, OP_SC, OP_AMO,
    OP_FMADD, OP_FMSUB, OP_FNMSUB, OP_FNMADD,
    OP_FADD, OP_FSUB, OP_FMUL, OP_FDIV, OP_FSQRT,
    OP_FSGNJ, OP_FSGNJN, OP_FSGNJX, OP_FMIN, OP_FMAX,
    OP_FCVT_W_S, OP_FCVT_WU_S, OP_FMV_X_W, OP_FCLASS,
    OP_FEQ, OP_FLT, OP_FLE,
    OP_FCVT_S_W, OP_FCVT_S_WU, OP_FMV_W_X,
    OP_BARRIER, OP_EXIT, OP_VOTE, OP_SHFL, OP_WSYNC,
};

/* AMO kinds: the instruction's funct5 */
enum {
    AMO_ADD = 0x00, AMO_SWAP = 0x01, AMO_XOR = 0x04, AMO_OR = 0x08,
    AMO_AND = 0x0c, AMO_MIN = 0x10, AMO_MAX = 0x14, AMO_MINU = 0x18,
    AMO_MAXU = 0x1c,
};

#define F5_LR   0x02
#define F5_SC   0x03

struct SimtInsn {
    uint8_t op;
    uint8_t rd, rs1, rs2, rs3;
    uint8_t rm;         /* rounding mode, vote/shuffle/AMO kind */
    uint8_t size;       /* memory access bytes */
    uint8_t sext;       /* load sign-extends */
    uint8_t cost;       /* cycles, from the code's timing */
    /* Registers read and written, as SimtWarpTiming.reg indexes. */
    uint8_t src[3], dst;
    uint16_t lat;       /* result latency, from the code's timing */
    /*
     * Decoded entries in a row from this one, itself included (at most
     * SIMT_RUN_MAX), or 0 if not counted yet: see straight_ahead().
     */
    uint8_t run;
    uint16_t csr;
    bool csr_imm;       /* rs1 field is the operand, not a register */
    bool csr_write;
    int32_t imm;
};

/* The later of two cycles (the core is plain C, without QEMU's MAX). */
static inline uint64_t later(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* Little-endian memory accesses of 1, 2 or 4 bytes */
static inline uint32_t ld_le(const uint8_t *p, unsigned size)
{
    return size == 1 ? p[0] : size == 2 ? simt_le16(p) : simt_le32(p);
}

static inline void st_le(uint8_t *p, unsigned size, uint32_t v)
{
    if (size == 1) {
        p[0] = v;
    } else if (size == 2) {
        simt_put_le16(p, v);
    } else {
        simt_put_le32(p, v);
    }
}

static int32_t imm_i(uint32_t w)
{
    return (int32_t)w >> 20;
}

static int32_t imm_s(uint32_t w)
{
    return ((int32_t)(w & 0xfe000000) >> 20) | ((w >> 7) & 0x1f);
}

static int32_t imm_b(uint32_t w)
{
    return ((int32_t)(w & 0x80000000) >> 19) | ((w >> 7 & 1) << 11) |
           ((w >> 25 & 0x3f) << 5) | ((w >> 8 & 0xf) << 1);
}

static int32_t imm_j(uint32_t w)
{
    return ((int32_t)(w & 0x80000000) >> 11) | (w & 0xff000) |
           ((w >> 20 & 1) << 11) |
           ((w >> 21 & 0x3ff) << 1);
}

/* Rounding modes 5 and 6 are reserved: illegal as static rm. */
static bool rm_ok(unsigned rm)
{
    return rm != 5 && rm != 6;
}

static bool csr_known(unsigned csr)
{
    switch (csr) {
    case 0x001: /* fflags */
    case 0x002: /* frm */
    case 0x003: /* fcsr */
    case 0xc00: /* cycle */
    case 0xc02: /* instret */
    case 0xc80: /* cycleh */
    case 0xc82: /* instreth */
        return true;
    default:
        return csr >= SIMT_CSR_TID_X && csr <= SIMT_CSR_NWARPS;
    }
}

static void decode_csr(uint32_t w, SimtInsn *in)
{
    static const uint8_t ops[4] = { 0, OP_CSRRW, OP_CSRRS, OP_CSRRC };
    unsigned f3 = (w >> 12) & 7;

    in->csr = w >> 20;
    in->csr_imm = f3 & 4;
    /* csrrs/csrrc with x0 (or uimm 0) read without writing. */
    in->csr_write = (f3 & 3) == 1 || in->rs1 != 0;
    if (!ops[f3 & 3]) {
        return;
    }
    if (!csr_known(in->csr) ||
        (in->csr_write && (in->csr >> 10) == 3)) {
        in->op = OP_BAD_CSR;
        return;
    }
    in->op = ops[f3 & 3];
}

static void decode_amo(uint32_t w, SimtInsn *in)
{
    unsigned f5 = w >> 27;

    if (((w >> 12) & 7) != 2) {
        return;
    }
    in->size = 4;
    switch (f5) {
    case F5_LR:
        if (!in->rs2) {
            in->op = OP_LR;
        }
        break;
    case F5_SC:
        in->op = OP_SC;
        break;
    case AMO_ADD: case AMO_SWAP: case AMO_XOR: case AMO_OR: case AMO_AND:
    case AMO_MIN: case AMO_MAX: case AMO_MINU: case AMO_MAXU:
        in->op = OP_AMO;
        in->rm = f5;
        break;
    }
}

static void decode_op_fp(uint32_t w, SimtInsn *in)
{
    unsigned f3 = (w >> 12) & 7, f7 = w >> 25, rs2 = in->rs2;
    bool rounds = rm_ok(f3);

    switch (f7) {
    case 0x00:
        in->op = rounds ? OP_FADD : OP_ILLEGAL;
        break;
    case 0x04:
        in->op = rounds ? OP_FSUB : OP_ILLEGAL;
        break;
    case 0x08:
        in->op = rounds ? OP_FMUL : OP_ILLEGAL;
        break;
    case 0x0c:
        in->op = rounds ? OP_FDIV : OP_ILLEGAL;
        break;
    case 0x2c:
        in->op = rounds && !rs2 ? OP_FSQRT : OP_ILLEGAL;
        break;
    case 0x10:
        in->op = f3 == 0 ? OP_FSGNJ : f3 == 1 ? OP_FSGNJN :
                 f3 == 2 ? OP_FSGNJX : OP_ILLEGAL;
        break;
    case 0x14:
        in->op = f3 == 0 ? OP_FMIN : f3 == 1 ? OP_FMAX : OP_ILLEGAL;
        break;
    case 0x60:
        in->op = !rounds || rs2 > 1 ? OP_ILLEGAL :
                 rs2 ? OP_FCVT_WU_S : OP_FCVT_W_S;
        break;
    case 0x68:
        in->op = !rounds || rs2 > 1 ? OP_ILLEGAL :
                 rs2 ? OP_FCVT_S_WU : OP_FCVT_S_W;
        break;
    case 0x70:
        in->op = rs2 ? OP_ILLEGAL : f3 == 0 ? OP_FMV_X_W :
                 f3 == 1 ? OP_FCLASS : OP_ILLEGAL;
        break;
    case 0x50:
        in->op = f3 == 2 ? OP_FEQ : f3 == 1 ? OP_FLT :
                 f3 == 0 ? OP_FLE : OP_ILLEGAL;
        break;
    case 0x78:
        in->op = !rs2 && !f3 ? OP_FMV_W_X : OP_ILLEGAL;
        break;
    }
}

static void decode_custom0(uint32_t w, SimtInsn *in)
{
    unsigned f3 = (w >> 12) & 7, f7 = w >> 25;

    switch (f3) {
    case SIMT_F3_BARRIER:
        in->op = w == SIMT_INSN_BARRIER ? OP_BARRIER : OP_ILLEGAL;
        break;
    case SIMT_F3_EXIT:
        in->op = w == SIMT_INSN_EXIT ? OP_EXIT : OP_ILLEGAL;
        break;
    case SIMT_F3_VOTE:
        if (f7 <= SIMT_VOTE_BALLOT && !in->rs2) {
            in->op = OP_VOTE;
            in->rm = f7;
        }
        break;
    case SIMT_F3_SHFL:
        if (f7 <= SIMT_SHFL_XOR) {
            in->op = OP_SHFL;
            in->rm = f7;
        }
        break;
    case SIMT_F3_WSYNC:
        if (w == SIMT_INSN_WSYNC(in->rs1)) {
            in->op = OP_WSYNC;
        }
        break;
    }
}

static void decode(uint32_t w, SimtInsn *in)
{
    static const uint8_t branch[8] = {
        OP_BEQ, OP_BNE, OP_ILLEGAL, OP_ILLEGAL,
        OP_BLT, OP_BGE, OP_BLTU, OP_BGEU,
    };
    static const uint8_t opimm[8] = {
        OP_ADDI, OP_SLLI, OP_SLTI, OP_SLTIU,
        OP_XORI, OP_SRLI, OP_ORI, OP_ANDI,
    };
    static const uint8_t op[8] = {
        OP_ADD, OP_SLL, OP_SLT, OP_SLTU, OP_XOR, OP_SRL, OP_OR, OP_AND,
    };
    static const uint8_t muldiv[8] = {
        OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU,
        OP_DIV, OP_DIVU, OP_REM, OP_REMU,
    };
    unsigned f3 = (w >> 12) & 7, f7 = w >> 25;

    memset(in, 0, sizeof(*in));
    in->op = OP_ILLEGAL;
    in->rd = (w >> 7) & 31;
    in->rs1 = (w >> 15) & 31;
    in->rs2 = (w >> 20) & 31;
    in->rs3 = w >> 27;
    in->rm = f3;

    switch (w & 0x7f) {
    case 0x37:
        in->op = OP_LUI;
        in->imm = w & 0xfffff000;
        break;
    case 0x17:
        in->op = OP_AUIPC;
        in->imm = w & 0xfffff000;
        break;
    case 0x6f:
        in->op = OP_JAL;
        in->imm = imm_j(w);
        break;
    case 0x67:
        if (!f3) {
            in->op = OP_JALR;
            in->imm = imm_i(w);
        }
        break;
    case 0x63:
        in->op = branch[f3];
        in->imm = imm_b(w);
        break;
    case 0x03:
        if (f3 != 3 && f3 < 6) {
            in->op = OP_LOAD;
            in->size = 1 << (f3 & 3);
            in->sext = f3 < 2;      /* lw needs none */
            in->imm = imm_i(w);
        }
        break;
    case 0x23:
        if (f3 < 3) {
            in->op = OP_STORE;
            in->size = 1 << f3;
            in->imm = imm_s(w);
        }
        break;
    case 0x07:
        if (f3 == 2) {
            in->op = OP_FLW;
            in->size = 4;
            in->imm = imm_i(w);
        }
        break;
    case 0x27:
        if (f3 == 2) {
            in->op = OP_FSW;
            in->size = 4;
            in->imm = imm_s(w);
        }
        break;
    case 0x13:
        in->imm = imm_i(w);
        if (f3 == 1) {
            in->op = f7 ? OP_ILLEGAL : OP_SLLI;
        } else if (f3 == 5) {
            in->op = f7 == 0 ? OP_SRLI : f7 == 0x20 ? OP_SRAI : OP_ILLEGAL;
        } else {
            in->op = opimm[f3];
        }
        in->imm &= f3 == 1 || f3 == 5 ? 31 : ~0;
        break;
    case 0x33:
        if (f7 == 0) {
            in->op = op[f3];
        } else if (f7 == 1) {
            in->op = muldiv[f3];
        } else if (f7 == 0x20 && (f3 == 0 || f3 == 5)) {
            in->op = f3 ? OP_SRA : OP_SUB;
        }
        break;
    case 0x0f:
        /* fence orders nothing here: every access is already in order. */
        if (!f3) {
            in->op = OP_FENCE;
        }
        break;
    case 0x73:
        decode_csr(w, in);
        break;
    case 0x2f:
        decode_amo(w, in);
        break;
    case 0x43:
    case 0x47:
    case 0x4b:
    case 0x4f:
        if ((f7 & 3) == 0 && rm_ok(f3)) {
            in->op = OP_FMADD + (((w & 0x7f) - 0x43) >> 2);
        }
        break;
    case 0x53:
        decode_op_fp(w, in);
        break;
    case SIMT_OPC_CUSTOM0:
        decode_custom0(w, in);
        break;
    }
}

const char *simt_fault_name(int fault)
{
    static const char *const names[SIMT_FAULT_NR] = {
        [SIMT_FAULT_NONE] = "none",
        [SIMT_FAULT_ILLEGAL_INSN] = "illegal instruction",
        [SIMT_FAULT_FETCH] = "instruction fetch outside code",
        [SIMT_FAULT_MISALIGNED] = "misaligned access",
        [SIMT_FAULT_ACCESS] = "access outside memory",
        [SIMT_FAULT_BAD_CSR] = "bad CSR access",
        [SIMT_FAULT_BARRIER] = "warp sync can never complete",
        [SIMT_FAULT_PAGE] = "page fault",
        [SIMT_FAULT_WATCHDOG] = "instruction budget exhausted",
        [SIMT_FAULT_SAVE_AREA] = "saved state unreadable or invalid",
    };

    if (fault < 0 || fault >= SIMT_FAULT_NR) {
        return "unknown";
    }
    return names[fault];
}

uint32_t simt_launch_threads(const SimtLaunch *l)
{
    return l->block_dim[0] * l->block_dim[1] * l->block_dim[2];
}

uint32_t simt_launch_warps(const SimtLaunch *l)
{
    return (simt_launch_threads(l) + SIMT_WARP_SIZE - 1) / SIMT_WARP_SIZE;
}

const char *simt_launch_check(const SimtLaunch *l)
{
    uint64_t threads = 1;
    int i;

    for (i = 0; i < 3; i++) {
        if (!l->block_dim[i] || !l->grid_dim[i]) {
            return "zero block or grid dimension";
        }
        threads *= l->block_dim[i];
        if (threads > SIMT_MAX_BLOCK_THREADS) {
            return "too many threads per block";
        }
    }
    if (l->shared_size > SIMT_SHARED_WINDOW) {
        return "shared memory larger than its window";
    }
    if (l->local_size > SIMT_LOCAL_WINDOW || l->local_size % 16) {
        return "local size too large or not 16-byte aligned";
    }
    if (l->code_base % 4 || l->code_size % 4 ||
        (uint64_t)l->code_base + l->code_size > UINT32_MAX) {
        return "code range misaligned or wraps";
    }
    return NULL;
}

int simt_code_init(SimtCode *code, uint32_t base, uint32_t size)
{
    code->base = base;
    code->size = size;
    code->insns = NULL;
    code->timing = NULL;
    code->reference = false;
    if (base % 4 || size % 4) {
        return -1;
    }
    code->insns = calloc(size / 4 + 1, sizeof(SimtInsn));
    return code->insns ? 0 : -1;
}

void simt_code_invalidate(SimtCode *code)
{
    memset(code->insns, 0, (code->size / 4 + 1) * sizeof(SimtInsn));
}

void simt_code_destroy(SimtCode *code)
{
    free(code->insns);
    code->insns = NULL;
}

void simt_block_init(SimtBlock *b, const SimtLaunch *l,
                     const SimtBlockDesc *desc, SimtCode *code,
                     const SimtMem *mem, SimtWarp *warps, uint8_t *shared)
{
    SimtBlockState *st = &b->st;
    unsigned wi, i, r;

    memset(st, 0, sizeof(*st));
    st->desc = *desc;
    st->nthreads = simt_launch_threads(l);
    st->nwarps = simt_launch_warps(l);
    st->status = SIMT_RUNNING;
    b->warps = warps;
    b->shared = shared;
    b->launch = l;
    b->code = code;
    b->mem = mem;
    b->wtiming = NULL;
    b->mem_pipe = NULL;
    b->issue_limit = UINT64_MAX;
    b->issue_cycles = 0;
    b->stop_pcs = NULL;
    b->stop_count = 0;
    b->stopped = false;
    b->check = NULL;
    b->check_opaque = NULL;
    b->loop_timing.head = NULL;
    if (l->shared_size) {
        memset(shared, 0, l->shared_size);
    }

    for (wi = 0; wi < st->nwarps; wi++) {
        SimtWarp *w = &warps[wi];

        memset(w, 0, sizeof(*w));
        w->warp_id = wi;
        for (i = 0; i < SIMT_WARP_SIZE; i++) {
            if (wi * SIMT_WARP_SIZE + i >= st->nthreads) {
                w->exited |= 1u << i;
            }
            w->pc[i] = l->entry;
            w->x[1][i] = SIMT_EXIT_RA;
            w->x[2][i] = SIMT_LOCAL_BASE + l->local_size;
            for (r = 0; r < SIMT_ARG_REGS; r++) {
                w->x[10 + r][i] = l->args[r];
            }
        }
    }
}

static void block_fault(SimtBlock *b, int fault, uint32_t pc, uint32_t addr,
                        unsigned warp, unsigned lane)
{
    SimtBlockState *st = &b->st;

    st->status = SIMT_FAULTED;
    st->fault = fault;
    st->fault_pc = pc;
    st->fault_addr = addr;
    st->fault_warp = warp;
    st->fault_lane = lane;
}

/*
 * Called whenever threads exit or arrive at a barrier.  A barrier completes
 * once every thread of the block that has not exited has arrived: exited
 * threads do not count, as on NVIDIA GPUs since Volta, so the common
 * `if (i >= n) return;` before __syncthreads() works.
 */
static void block_sync(SimtBlock *b)
{
    SimtBlockState *st = &b->st;
    unsigned wi;

    if (st->nexited + st->nwaiting < st->nthreads) {
        return;
    }
    if (!st->nwaiting) {
        st->status = SIMT_DONE;
        return;
    }
    for (wi = 0; wi < st->nwarps; wi++) {
        b->warps[wi].waiting = 0;
        /* Released when the last warp arrived, not before. */
        if (b->wtiming) {
            b->wtiming[wi].ready = later(b->wtiming[wi].ready, st->cycle);
        }
    }
    st->nwaiting = 0;
    st->barriers++;
}

/*
 * Host bytes for an access by thread @tid, or NULL: then either *fault is
 * set or *gaddr is the global address to hand to the callbacks.
 */
static inline uint8_t *lane_mem(SimtBlock *b, unsigned tid, uint32_t addr,
                                unsigned size, uint32_t *gaddr, int *fault)
{
    const SimtLaunch *l = b->launch;
    const SimtMem *m = b->mem;
    uint32_t off;

    if (addr & (size - 1)) {
        *fault = SIMT_FAULT_MISALIGNED;
        return NULL;
    }
    off = addr - SIMT_SHARED_BASE;
    if (off < SIMT_SHARED_WINDOW) {
        if ((uint64_t)off + size > l->shared_size) {
            *fault = SIMT_FAULT_ACCESS;
            return NULL;
        }
        return b->shared + off;
    }
    off = addr - SIMT_LOCAL_BASE;
    if (off < SIMT_LOCAL_WINDOW) {
        uint64_t g = b->st.desc.local_addr +
                     (uint64_t)tid * l->local_size + off;

        if ((uint64_t)off + size > l->local_size || g + size > UINT32_MAX) {
            *fault = SIMT_FAULT_ACCESS;
            return NULL;
        }
        addr = g;
    }
    off = addr - m->flat_base;
    if (m->flat && (uint64_t)off + size <= m->flat_size) {
        return m->flat + off;
    }
    *gaddr = addr;
    *fault = SIMT_FAULT_NONE;
    return NULL;
}

static int mem_load(SimtBlock *b, unsigned tid, uint32_t addr, unsigned size,
                    uint32_t *val)
{
    const SimtMem *m = b->mem;
    uint32_t g = 0;
    int fault = SIMT_FAULT_NONE;
    uint8_t *p = lane_mem(b, tid, addr, size, &g, &fault);

    if (p) {
        *val = ld_le(p, size);
        return SIMT_FAULT_NONE;
    }
    if (fault) {
        return fault;
    }
    if (!m->ops || !m->ops->load) {
        return SIMT_FAULT_ACCESS;
    }
    return m->ops->load(m->opaque, g, size, val);
}

static int mem_store(SimtBlock *b, unsigned tid, uint32_t addr, unsigned size,
                     uint32_t val)
{
    const SimtMem *m = b->mem;
    uint32_t g = 0;
    int fault = SIMT_FAULT_NONE;
    uint8_t *p = lane_mem(b, tid, addr, size, &g, &fault);

    if (p) {
        st_le(p, size, val);
        return SIMT_FAULT_NONE;
    }
    if (fault) {
        return fault;
    }
    if (!m->ops || !m->ops->store) {
        return SIMT_FAULT_ACCESS;
    }
    return m->ops->store(m->opaque, g, size, val);
}

static uint32_t amo_apply(unsigned kind, uint32_t old, uint32_t src)
{
    switch (kind) {
    case AMO_SWAP:
        return src;
    case AMO_XOR:
        return old ^ src;
    case AMO_OR:
        return old | src;
    case AMO_AND:
        return old & src;
    case AMO_MIN:
        return (int32_t)old < (int32_t)src ? old : src;
    case AMO_MAX:
        return (int32_t)old > (int32_t)src ? old : src;
    case AMO_MINU:
        return old < src ? old : src;
    case AMO_MAXU:
        return old > src ? old : src;
    default:
        return old + src;
    }
}

/*
 * Lane @lane's lr.w, sc.w or AMO on host memory @word as one host atomic
 * operation, since SMs may run on several host threads at once (the
 * device's threads property).  Returns what rd receives.
 */
static uint32_t atomic_host(uint32_t *word, const SimtInsn *in, SimtWarp *w,
                            unsigned lane, uint32_t addr, uint32_t src)
{
    uint32_t bit = 1u << lane, raw, want, old;

    raw = __atomic_load_n(word, __ATOMIC_SEQ_CST);
    if (in->op == OP_LR) {
        w->resv_mask |= bit;
        w->resv_addr[lane] = addr;
        w->resv_val[lane] = ld_le((const uint8_t *)&raw, 4);
        return w->resv_val[lane];
    }
    if (in->op == OP_SC) {
        /* It succeeds iff the reserved word still holds what lr.w read. */
        bool ok = (w->resv_mask & bit) && w->resv_addr[lane] == addr;

        w->resv_mask &= ~bit;
        if (ok) {
            st_le((uint8_t *)&raw, 4, w->resv_val[lane]);
            st_le((uint8_t *)&want, 4, src);
            ok = __atomic_compare_exchange_n(word, &raw, want, false,
                                             __ATOMIC_SEQ_CST,
                                             __ATOMIC_SEQ_CST);
        }
        return !ok;
    }
    do {
        old = ld_le((const uint8_t *)&raw, 4);
        st_le((uint8_t *)&want, 4, amo_apply(in->rm, old, src));
    } while (!__atomic_compare_exchange_n(word, &raw, want, false,
                                          __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    return old;
}

/* Fetch and decode the word at @pc into its cache entry. */
static SimtInsnClass insn_class(unsigned op)
{
    switch (op) {
    case OP_JAL: case OP_JALR:
    case OP_BEQ: case OP_BNE: case OP_BLT: case OP_BGE: case OP_BLTU:
    case OP_BGEU:
        return SIMT_IC_BRANCH;
    case OP_MUL: case OP_MULH: case OP_MULHSU: case OP_MULHU:
        return SIMT_IC_MUL;
    case OP_DIV: case OP_DIVU: case OP_REM: case OP_REMU:
        return SIMT_IC_DIV;
    case OP_FMADD: case OP_FMSUB: case OP_FNMSUB: case OP_FNMADD:
    case OP_FADD: case OP_FSUB: case OP_FMUL: case OP_FMIN: case OP_FMAX:
    case OP_FCVT_W_S: case OP_FCVT_WU_S: case OP_FCVT_S_W:
    case OP_FCVT_S_WU: case OP_FEQ: case OP_FLT: case OP_FLE:
    case OP_FCLASS:
        return SIMT_IC_FPU;
    case OP_FDIV: case OP_FSQRT:
        return SIMT_IC_FDIV;
    case OP_LOAD: case OP_STORE: case OP_FLW: case OP_FSW:
        return SIMT_IC_MEM;
    case OP_LR: case OP_SC: case OP_AMO:
        return SIMT_IC_ATOMIC;
    case OP_FENCE: case OP_CSRRW: case OP_CSRRS: case OP_CSRRC:
    case OP_BARRIER: case OP_EXIT: case OP_VOTE: case OP_SHFL:
    case OP_WSYNC:
        return SIMT_IC_SYNC;
    default:
        return SIMT_IC_ALU;
    }
}

enum { TR_NONE, TR_X, TR_F };    /* register kinds of timing_operands() */

/* Register @r of @kind as a SimtWarpTiming.reg index, or @none. */
static inline unsigned timing_reg(unsigned kind, unsigned r, unsigned none)
{
    return kind == TR_F ? 32 + r : kind == TR_X && r ? r : none;
}

/*
 * The registers @in reads and writes, as SimtWarpTiming.reg indexes: x
 * registers 0..31, f registers 32..63; an unused source reads x0, which
 * is never pending, and no destination (or x0) writes the sink.
 */
static void timing_operands(SimtInsn *in)
{
    unsigned s1 = TR_NONE, s2 = TR_NONE, s3 = TR_NONE, d = TR_NONE;

    switch (in->op) {
    case OP_LUI: case OP_AUIPC: case OP_JAL:
        d = TR_X;
        break;
    case OP_JALR: case OP_LOAD: case OP_LR: case OP_VOTE:
    case OP_ADDI: case OP_SLTI: case OP_SLTIU: case OP_XORI: case OP_ORI:
    case OP_ANDI: case OP_SLLI: case OP_SRLI: case OP_SRAI:
        s1 = TR_X;
        d = TR_X;
        break;
    case OP_CSRRW: case OP_CSRRS: case OP_CSRRC:
        s1 = in->csr_imm ? TR_NONE : TR_X;
        d = TR_X;
        break;
    case OP_BEQ: case OP_BNE: case OP_BLT: case OP_BGE: case OP_BLTU:
    case OP_BGEU: case OP_STORE:
        s1 = s2 = TR_X;
        break;
    case OP_WSYNC:
        s1 = TR_X;
        break;
    case OP_FLW:
        s1 = TR_X;
        d = TR_F;
        break;
    case OP_FSW:
        s1 = TR_X;
        s2 = TR_F;
        break;
    case OP_ADD: case OP_SUB: case OP_SLL: case OP_SLT: case OP_SLTU:
    case OP_XOR: case OP_SRL: case OP_SRA: case OP_OR: case OP_AND:
    case OP_MUL: case OP_MULH: case OP_MULHSU: case OP_MULHU: case OP_DIV:
    case OP_DIVU: case OP_REM: case OP_REMU: case OP_SC: case OP_AMO:
    case OP_SHFL:
        s1 = s2 = TR_X;
        d = TR_X;
        break;
    case OP_FMADD: case OP_FMSUB: case OP_FNMSUB: case OP_FNMADD:
        s1 = s2 = s3 = TR_F;
        d = TR_F;
        break;
    case OP_FADD: case OP_FSUB: case OP_FMUL: case OP_FDIV: case OP_FSGNJ:
    case OP_FSGNJN: case OP_FSGNJX: case OP_FMIN: case OP_FMAX:
        s1 = s2 = TR_F;
        d = TR_F;
        break;
    case OP_FSQRT:
        s1 = TR_F;
        d = TR_F;
        break;
    case OP_FCVT_W_S: case OP_FCVT_WU_S: case OP_FMV_X_W: case OP_FCLASS:
        s1 = TR_F;
        d = TR_X;
        break;
    case OP_FEQ: case OP_FLT: case OP_FLE:
        s1 = s2 = TR_F;
        d = TR_X;
        break;
    case OP_FCVT_S_W: case OP_FCVT_S_WU: case OP_FMV_W_X:
        s1 = TR_X;
        d = TR_F;
        break;
    default:
        break;
    }
    in->src[0] = timing_reg(s1, in->rs1, 0);
    in->src[1] = timing_reg(s2, in->rs2, 0);
    in->src[2] = timing_reg(s3, in->rs3, 0);
    in->dst = timing_reg(d, in->rd, SIMT_TIMING_REGS - 1);
}

/*
 * The time a memory instruction @in, issued at @issue, spends outside
 * shared memory (judged by its first active lane's address @addr), for
 * @lanes lanes of @size bytes (see SimtTiming): returns the warp's clock
 * after it, @cycle before.
 */
static inline uint64_t mem_timing(SimtBlock *b, SimtWarpTiming *wt,
                                  const SimtInsn *in, uint64_t issue,
                                  uint64_t cycle, uint32_t addr,
                                  unsigned size, unsigned lanes)
{
    const SimtTiming *t = b->code->timing;
    uint64_t bytes, start;

    if (!t || t->global_as_shared ||
        addr - SIMT_SHARED_BASE < SIMT_SHARED_WINDOW) {
        return cycle;
    }
    bytes = ((uint64_t)lanes * size * t->byte_cost_fx16 + 0xffff) >> 16;
    if (!wt) {
        return cycle + t->global_cost + bytes;
    }
    start = later(issue, *b->mem_pipe);
    if (start - issue > t->global_latency) {
        /* The SM's requests in flight are full: wait for room. */
        cycle += start - issue - t->global_latency;
    }
    *b->mem_pipe = start + bytes;
    wt->reg[in->dst] = *b->mem_pipe +
        (insn_class(in->op) == SIMT_IC_ATOMIC ? t->global_atomic_latency
                                               : t->global_latency);
    return cycle;
}

static int predecode(SimtBlock *b, uint32_t pc, SimtInsn *in)
{
    const SimtMem *m = b->mem;
    uint32_t off = pc - m->flat_base, word;
    int fault;

    if (m->flat && (uint64_t)off + 4 <= m->flat_size) {
        word = ld_le(m->flat + off, 4);
    } else if (m->ops && (m->ops->fetch || m->ops->load)) {
        fault = m->ops->fetch ? m->ops->fetch(m->opaque, pc, &word)
                              : m->ops->load(m->opaque, pc, 4, &word);
        if (fault) {
            return fault == SIMT_FAULT_PAGE ? fault : SIMT_FAULT_FETCH;
        }
    } else {
        return SIMT_FAULT_FETCH;
    }
    decode(word, in);
    timing_operands(in);
    if (b->code->timing) {
        SimtInsnClass c = insn_class(in->op);

        in->cost = b->code->timing->cost[c];
        in->lat = b->code->timing->latency[c];
    } else {
        in->cost = 1;
        in->lat = 0;
    }
    return SIMT_FAULT_NONE;
}

static uint32_t csr_read(SimtBlock *b, SimtWarp *w, unsigned lane,
                         unsigned csr)
{
    const SimtLaunch *l = b->launch;
    const SimtBlockState *st = &b->st;
    uint32_t t = w->warp_id * SIMT_WARP_SIZE + lane;

    switch (csr) {
    case 0x001:
        return w->fcsr[lane] & SIMT_FFLAGS_MASK;
    case 0x002:
        return (w->fcsr[lane] >> 5) & 7;
    case 0x003:
        return w->fcsr[lane] & 0xff;
    case 0xc00:
        return st->cycle;
    case 0xc80:
        return st->cycle >> 32;
    case 0xc02:
        return w->instret;
    case 0xc82:
        return w->instret >> 32;
    case SIMT_CSR_TID_X:
        return t % l->block_dim[0];
    case SIMT_CSR_TID_Y:
        return t / l->block_dim[0] % l->block_dim[1];
    case SIMT_CSR_TID_Z:
        return t / (l->block_dim[0] * l->block_dim[1]);
    case SIMT_CSR_CTAID_X:
    case SIMT_CSR_CTAID_Y:
    case SIMT_CSR_CTAID_Z:
        return st->desc.block_idx[csr - SIMT_CSR_CTAID_X];
    case SIMT_CSR_NTID_X:
    case SIMT_CSR_NTID_Y:
    case SIMT_CSR_NTID_Z:
        return l->block_dim[csr - SIMT_CSR_NTID_X];
    case SIMT_CSR_NCTAID_X:
    case SIMT_CSR_NCTAID_Y:
    case SIMT_CSR_NCTAID_Z:
        return l->grid_dim[csr - SIMT_CSR_NCTAID_X];
    case SIMT_CSR_LANEID:
        return lane;
    case SIMT_CSR_WARPID:
        return w->warp_id;
    case SIMT_CSR_SMID:
        return st->desc.smid;
    default: /* SIMT_CSR_NWARPS; decode let nothing else through */
        return st->nwarps;
    }
}

/* Only the fp CSRs are writable; decode rejected writes to the rest. */
static void csr_write(SimtWarp *w, unsigned lane, unsigned csr, uint32_t v)
{
    uint32_t *fcsr = &w->fcsr[lane];

    switch (csr) {
    case 0x001:
        *fcsr = (*fcsr & ~SIMT_FFLAGS_MASK) | (v & SIMT_FFLAGS_MASK);
        break;
    case 0x002:
        *fcsr = (*fcsr & SIMT_FFLAGS_MASK) | (v & 7) << 5;
        break;
    default:
        *fcsr = v & 0xff;
        break;
    }
}

/*
 * Write t[] to the lanes of @mask (lm[] = all-ones for those lanes).
 * Inlined always: a call per instruction costs more than the copy.
 */
static inline __attribute__((always_inline))
void commit(uint32_t *d, const uint32_t *t, uint32_t mask, const uint32_t *lm)
{
    int i;

    if (mask == SIMT_FULL_MASK) {
        memcpy(d, t, SIMT_WARP_SIZE * sizeof(*d));
        return;
    }
    for (i = 0; i < SIMT_WARP_SIZE; i++) {
        d[i] = (t[i] & lm[i]) | (d[i] & ~lm[i]);
    }
}

/* 1 << lane, as a table so that building a lane mask vectorises */
static const uint32_t lane_bit[SIMT_WARP_SIZE] = {
    1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7,
    1u << 8, 1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14,
    1u << 15, 1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21,
    1u << 22, 1u << 23, 1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28,
    1u << 29, 1u << 30, 1u << 31,
};

/*
 * Choose the next group: runnable lanes at the lowest PC.  *other is the
 * lowest PC of the remaining runnable lanes (UINT32_MAX if none): the group
 * may keep running alone while its PC stays below it.
 */
static inline SIMT_LANES_INLINE
bool select_group(SimtWarp *w, uint32_t *pc, uint32_t *mask,
                         uint32_t *count, uint32_t *other, uint32_t *lm)
{
    uint32_t live = ~(w->exited | w->waiting | w->wsync);
    uint32_t v[SIMT_WARP_SIZE] SIMT_UNCLEARED;
    uint32_t p = UINT32_MAX, o = UINT32_MAX, g = 0;
    int i;

    if (!live) {
        return false;
    }
    if (live == SIMT_FULL_MASK) {
        /* A converged warp, the common case: one pass. */
        uint32_t diff = 0;

        for (i = 0; i < SIMT_WARP_SIZE; i++) {
            diff |= w->pc[i] ^ w->pc[0];
        }
        if (!diff) {
            memset(lm, 0xff, SIMT_WARP_SIZE * sizeof(lm[0]));
            *pc = w->pc[0];
            *mask = SIMT_FULL_MASK;
            *count = SIMT_WARP_SIZE;
            *other = UINT32_MAX;
            return true;
        }
    }
    /*
     * Branch-free passes that vectorise.  PCs are even, so UINT32_MAX can
     * stand for "not runnable" (and for "in the group" when looking for
     * the other lanes' minimum).
     */
    for (i = 0; i < SIMT_WARP_SIZE; i++) {
        uint32_t sel = -(uint32_t)((live & lane_bit[i]) != 0);

        v[i] = (w->pc[i] & sel) | ~sel;
    }
    for (i = 0; i < SIMT_WARP_SIZE; i++) {
        p = v[i] < p ? v[i] : p;
    }
    for (i = 0; i < SIMT_WARP_SIZE; i++) {
        uint32_t in_group = -(uint32_t)(v[i] == p);
        uint32_t rest = v[i] | in_group;

        lm[i] = in_group;
        g |= in_group & lane_bit[i];
        o = rest < o ? rest : o;
    }
    *pc = p;
    *mask = g;
    *count = __builtin_popcount(g);
    *other = o;
    return true;
}

/*
 * Whether every lane of @lm accesses [flat_base, flat_base + flat_size)
 * naturally aligned at a[i] + imm, so that no window or callback applies.
 */
static inline SIMT_LANES_INLINE
bool all_flat(const SimtMem *m, const uint32_t *a, int32_t imm,
                            unsigned size, const uint32_t *lm)
{
    uint32_t bad = 0;
    int i;

    for (i = 0; i < SIMT_WARP_SIZE; i++) {
        uint32_t addr = a[i] + imm;

        bad |= ((addr & (size - 1)) |
                (addr - m->flat_base > m->flat_size - size)) & lm[i];
    }
    return !bad;
}

/*
 * Host memory for group @G's access when every lane (@lm) accesses,
 * naturally aligned, one page outside the shared and local windows, and
 * the callbacks map that page (SimtMemOps.page): one translation for the
 * whole warp, the page's address in *@page.  NULL: go lane by lane.
 */
static inline SIMT_LANES_INLINE
uint8_t *one_page(const SimtMem *m, const uint32_t *a, int32_t imm,
                         unsigned size, uint32_t G, const uint32_t *lm,
                         bool store, uint32_t *page)
{
    uint32_t addr0 = a[__builtin_ctz(G)] + imm;
    uint32_t bad = 0;
    int i;

    *page = addr0 & ~(SIMT_MEM_PAGE_SIZE - 1);
    if (!m->ops || !m->ops->page ||
        *page - SIMT_SHARED_BASE < SIMT_SHARED_WINDOW ||
        *page - SIMT_LOCAL_BASE < SIMT_LOCAL_WINDOW) {
        return NULL;
    }
    for (i = 0; i < SIMT_WARP_SIZE; i++) {
        uint32_t addr = a[i] + imm;

        bad |= ((addr & (size - 1)) |
                ((addr ^ addr0) & ~(SIMT_MEM_PAGE_SIZE - 1))) & lm[i];
    }
    return bad ? NULL : m->ops->page(m->opaque, *page, store,
                                     __builtin_popcount(G));
}

/* The flat region is usable directly if it avoids both windows. */
static bool flat_direct(const SimtMem *m)
{
    uint64_t end = (uint64_t)m->flat_base + m->flat_size;

    return m->flat && m->flat_size >= 4 &&
           (end <= SIMT_SHARED_BASE ||
            m->flat_base >= SIMT_LOCAL_BASE + SIMT_LOCAL_WINDOW);
}

static inline SIMT_LANES_INLINE
void set_pcs(SimtWarp *w, uint32_t mask, uint32_t pc)
{
    int i;

    for (i = 0; i < SIMT_WARP_SIZE; i++) {
        uint32_t sel = -(uint32_t)((mask & lane_bit[i]) != 0);

        w->pc[i] = (pc & sel) | (w->pc[i] & ~sel);
    }
}

#define LANES_FOR(m, i) \
    for (uint32_t m_ = (m), i; m_ && (i = __builtin_ctz(m_), 1); m_ &= m_ - 1)

/*
 * simt_le32() and simt_put_le32(), inline in the lane loops whatever the
 * instruction loop's size: the compiler merges the bytes into one access.
 */
static inline SIMT_LANES_INLINE
uint32_t lane_ld32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline SIMT_LANES_INLINE
void lane_st32(uint8_t *p, uint32_t v)
{
    p[0] = v;
    p[1] = v >> 8;
    p[2] = v >> 16;
    p[3] = v >> 24;
}

/*
 * Lanes @G load @size bytes each at host + (a[i] + off), sign-extended
 * if @sext, or store v[i] there: one loop per size, holding nothing else.
 */
static inline SIMT_LANES_INLINE
void lanes_load(uint32_t *t, const uint8_t *host, const uint32_t *a,
                uint32_t off, unsigned size, bool sext, uint32_t G)
{
    switch (size) {
    case 1:
        LANES_FOR(G, i) {
            uint8_t v = host[a[i] + off];

            t[i] = sext ? (uint32_t)(int8_t)v : v;
        }
        break;
    case 2:
        LANES_FOR(G, i) {
            uint16_t v = simt_le16(host + (a[i] + off));

            t[i] = sext ? (uint32_t)(int16_t)v : v;
        }
        break;
    default:
        LANES_FOR(G, i) {
            t[i] = lane_ld32(host + (a[i] + off));
        }
        break;
    }
}

static inline SIMT_LANES_INLINE
void lanes_store(uint8_t *host, const uint32_t *a, uint32_t off,
                 unsigned size, const uint32_t *v, uint32_t G)
{
    switch (size) {
    case 1:
        LANES_FOR(G, i) {
            host[a[i] + off] = v[i];
        }
        break;
    case 2:
        LANES_FOR(G, i) {
            simt_put_le16(host + (a[i] + off), v[i]);
        }
        break;
    default:
        LANES_FOR(G, i) {
            lane_st32(host + (a[i] + off), v[i]);
        }
        break;
    }
}

/* Whether a lane of @G accesses memory outside the shared and local windows. */
static inline bool any_global(const uint32_t *a, int32_t imm, uint32_t G)
{
    LANES_FOR(G, i) {
        uint32_t addr = a[i] + imm;

        if (addr - SIMT_SHARED_BASE >= SIMT_SHARED_WINDOW &&
            addr - SIMT_LOCAL_BASE >= SIMT_LOCAL_WINDOW) {
            return true;
        }
    }
    return false;
}

/* 32-lane ALU operation on a = x[rs1], c = x[rs2], imm; writes x[rd]. */
/*
 * A full warp writing a register it does not read computes straight into
 * it (the rows are distinct, hence restrict), unless the code runs on its
 * reference paths; otherwise into a temporary, then a masked copy.
 */
#define ALU(expr)                                                       \
    do {                                                                \
        const uint32_t imm = in->imm;                                   \
        (void)imm;                                                      \
        if (!in->rd) {                                                  \
            break;                                                      \
        }                                                               \
        if (fast && G == SIMT_FULL_MASK && in->rd != in->rs2 &&         \
            in->rd != in->rs1) {                                        \
            const uint32_t *restrict a = w->x[in->rs1];                 \
            const uint32_t *restrict c = w->x[in->rs2];                 \
            uint32_t *restrict d = w->x[in->rd];                        \
            (void)a; (void)c;                                           \
            for (int i = 0; i < SIMT_WARP_SIZE; i++) {                  \
                d[i] = (expr);                                          \
            }                                                           \
        } else if (fast && G == SIMT_FULL_MASK && in->rd != in->rs2) {  \
            /* rd = rs1 (a counter): lane i reads and writes i only */ \
            const uint32_t *restrict c = w->x[in->rs2];                 \
            uint32_t *restrict d = w->x[in->rd];                        \
            const uint32_t *a = d;                                      \
            (void)a; (void)c;                                           \
            for (int i = 0; i < SIMT_WARP_SIZE; i++) {                  \
                d[i] = (expr);                                          \
            }                                                           \
        } else {                                                        \
            const uint32_t *a = w->x[in->rs1];                          \
            const uint32_t *c = w->x[in->rs2];                          \
            uint32_t t[SIMT_WARP_SIZE] SIMT_UNCLEARED;                  \
            (void)a; (void)c;                                           \
            for (int i = 0; i < SIMT_WARP_SIZE; i++) {                  \
                t[i] = (expr);                                          \
            }                                                           \
            commit(w->x[in->rd], t, G, lm);                             \
        }                                                               \
    } while (0)

/*
 * Eight lanes as one host vector (GCC and clang vector types: 256 bits
 * in the AVX2 build, two 128-bit halves in the baseline one).
 */
typedef uint32_t LaneVec __attribute__((vector_size(32)));
typedef int32_t LaneVecS __attribute__((vector_size(32)));
#define LANE_VEC        8

/*
 * ALU(expr) on the fast paths as @vexpr, over LaneVecs va = x[rs1] and
 * vc = x[rs2] (signed: sa, sc) and the scalar imm: a straight run of
 * vector operations, with no lane loop left; a group of some lanes only
 * (lm) blends the result into rd.  Lane i reads and writes lane i only,
 * so rd may be a source.
 */
#define VALU_ROWS(vexpr)                                                \
    do {                                                                \
        const uint32_t imm = in->imm;                                   \
        const uint32_t *xa = w->x[in->rs1];                             \
        const uint32_t *xc = w->x[in->rs2];                             \
        uint32_t *xd = w->x[in->rd];                                    \
        (void)imm; (void)xa; (void)xc;                                  \
        _Pragma("GCC unroll 4")                                         \
        for (int q = 0; q < SIMT_WARP_SIZE; q += LANE_VEC) {            \
            LaneVec va, vc, vd;                                         \
            LaneVecS sa, sc;                                            \
            memcpy(&va, xa + q, sizeof(va));                            \
            memcpy(&vc, xc + q, sizeof(vc));                            \
            sa = (LaneVecS)va;                                          \
            sc = (LaneVecS)vc;                                          \
            (void)sa; (void)sc;                                         \
            vd = (vexpr);                                               \
            if (G != SIMT_FULL_MASK) {                                  \
                LaneVec vm, vo;                                         \
                memcpy(&vm, lm + q, sizeof(vm));                        \
                memcpy(&vo, xd + q, sizeof(vo));                        \
                vd = (vd & vm) | (vo & ~vm);                            \
            }                                                           \
            memcpy(xd + q, &vd, sizeof(vd));                            \
        }                                                               \
    } while (0)

/*
 * The fast path of the integer operations OP_ADDI to OP_MUL (a range of
 * the enum) on lanes @G of @w, rd not x0: the instruction loop's and the
 * straight-run tier's (tier_body).
 */
static inline SIMT_LANES_INLINE
void valu_rows(SimtWarp *w, const SimtInsn *in, uint32_t G,
               const uint32_t *lm)
{
    switch (in->op) {
    case OP_ADDI:
        VALU_ROWS(va + imm);
        break;
    case OP_SLTI:
        VALU_ROWS((LaneVec)(sa < (int32_t)imm) & 1);
        break;
    case OP_SLTIU:
        VALU_ROWS((LaneVec)(va < imm) & 1);
        break;
    case OP_XORI:
        VALU_ROWS(va ^ imm);
        break;
    case OP_ORI:
        VALU_ROWS(va | imm);
        break;
    case OP_ANDI:
        VALU_ROWS(va & imm);
        break;
    case OP_SLLI:
        VALU_ROWS(va << imm);
        break;
    case OP_SRLI:
        VALU_ROWS(va >> imm);
        break;
    case OP_SRAI:
        VALU_ROWS((LaneVec)(sa >> imm));
        break;
    case OP_ADD:
        VALU_ROWS(va + vc);
        break;
    case OP_SUB:
        VALU_ROWS(va - vc);
        break;
    case OP_SLL:
        VALU_ROWS(va << (vc & 31));
        break;
    case OP_SLT:
        VALU_ROWS((LaneVec)(sa < sc) & 1);
        break;
    case OP_SLTU:
        VALU_ROWS((LaneVec)(va < vc) & 1);
        break;
    case OP_XOR:
        VALU_ROWS(va ^ vc);
        break;
    case OP_SRL:
        VALU_ROWS(va >> (vc & 31));
        break;
    case OP_SRA:
        VALU_ROWS((LaneVec)(sa >> (sc & 31)));
        break;
    case OP_OR:
        VALU_ROWS(va | vc);
        break;
    case OP_AND:
        VALU_ROWS(va & vc);
        break;
    case OP_MUL:
        VALU_ROWS(va * vc);
        break;
    }
}

/*
 * ALU(expr) on the fast paths by valu_rows(): the integer operations
 * that have a vector form.
 */
#define VALU(expr)                                                      \
    do {                                                                \
        if (fast && in->rd) {                                           \
            valu_rows(w, in, G, lm);                                    \
        } else {                                                        \
            ALU(expr);                                                  \
        }                                                               \
    } while (0)

/* The lanes @G of @w for which @in's condition holds, @in a branch. */
#define BRANCH_LANES(cond)                                              \
    do {                                                                \
        for (int i = 0; i < SIMT_WARP_SIZE; i++) {                      \
            taken |= -(uint32_t)(cond) & lane_bit[i];                   \
        }                                                               \
    } while (0)

static inline SIMT_LANES_INLINE
uint32_t branch_lanes(const SimtWarp *w, const SimtInsn *in, uint32_t G)
{
    const uint32_t *a = w->x[in->rs1];
    const uint32_t *c = w->x[in->rs2];
    uint32_t taken = 0;

    switch (in->op) {
    case OP_BEQ:
        BRANCH_LANES(a[i] == c[i]);
        break;
    case OP_BNE:
        BRANCH_LANES(a[i] != c[i]);
        break;
    case OP_BLT:
        BRANCH_LANES((int32_t)a[i] < (int32_t)c[i]);
        break;
    case OP_BGE:
        BRANCH_LANES((int32_t)a[i] >= (int32_t)c[i]);
        break;
    case OP_BLTU:
        BRANCH_LANES(a[i] < c[i]);
        break;
    case OP_BGEU:
        BRANCH_LANES(a[i] >= c[i]);
        break;
    }
    return taken & G;
}

/* Conditional branch: the group follows, stays or splits. */
#define BRANCH()                                                        \
    do {                                                                \
        uint32_t taken = branch_lanes(w, in, G);                        \
        if (taken == G) {                                               \
            P += in->imm;                                               \
            goto jumped;                                                \
        }                                                               \
        if (taken) {                                                    \
            set_pcs(w, taken, P + in->imm);                             \
            set_pcs(w, G & ~taken, P + 4);                              \
            goto reselect;                                              \
        }                                                               \
    } while (0)

/* fp operation over lanes @M of the group; flags accrue per lane. */
#define FPU_M(M, dst, expr)                                             \
    do {                                                                \
        const uint32_t *fa = w->f[in->rs1];                             \
        const uint32_t *fb = w->f[in->rs2];                             \
        const uint32_t *fc = w->f[in->rs3];                             \
        const uint32_t *xa = w->x[in->rs1];                             \
        const unsigned srm = in->rm;                                    \
        uint32_t t[SIMT_WARP_SIZE] SIMT_UNCLEARED;                      \
        (void)fa; (void)fb; (void)fc; (void)xa;                         \
        LANES_FOR(M, i) {                                               \
            uint32_t *fl = &w->fcsr[i];                                 \
            unsigned rm = srm == SIMT_RM_DYN ? *fl >> 5 & 7 : srm;      \
            (void)rm;                                                   \
            t[i] = (expr);                                              \
        }                                                               \
        commit_lanes(dst, t, M);                                        \
    } while (0)

#define FPU(dst, expr)  FPU_M(G, dst, expr)
#define FPU_F(expr)     FPU(w->f[in->rd], expr)

/*
 * fadd, fsub, fmul and the fmadd family: the host's fast path first
 * (fp_fast), @expr, the exact operation, for the lanes it leaves.  The
 * fast path takes nothing unless every lane rounds to nearest even, so a
 * reserved dynamic rounding mode (an illegal instruction) is looked for
 * only when it took nothing.
 */
#define FPU_FAST(expr)                                                  \
    do {                                                                \
        uint32_t rest_ = fp_fast(b, w, in, G, lm);                      \
        if (rest_ == G && dyn_rm_bad(w, in, lm)) {                      \
            goto illegal;                                               \
        }                                                               \
        if (rest_) {                                                    \
            FPU_M(rest_, w->f[in->rd], expr);                           \
        }                                                               \
    } while (0)
#define FPU_X(expr)                                                     \
    do {                                                                \
        uint32_t scratch[SIMT_WARP_SIZE] SIMT_UNCLEARED;                \
        FPU(in->rd ? w->x[in->rd] : scratch, expr);                     \
    } while (0)

/* Write t[] to the lanes of @mask. */
static inline SIMT_LANES_INLINE
void commit_lanes(uint32_t *d, const uint32_t *t, uint32_t mask)
{
    int i;

    if (mask == SIMT_FULL_MASK) {
        memcpy(d, t, SIMT_WARP_SIZE * sizeof(*d));
        return;
    }
    for (i = 0; i < SIMT_WARP_SIZE; i++) {
        uint32_t sel = -(uint32_t)((mask & lane_bit[i]) != 0);

        d[i] = (t[i] & sel) | (d[i] & ~sel);
    }
}

static const uint32_t f32_one[SIMT_WARP_SIZE] = {
    [0 ... SIMT_WARP_SIZE - 1] = 0x3f800000u,
};
static const uint32_t f32_minus_zero[SIMT_WARP_SIZE] = {
    [0 ... SIMT_WARP_SIZE - 1] = 0x80000000u,
};

/* @n with every lane's sign flipped, in @buf. */
static inline SIMT_LANES_INLINE
const uint32_t *negated(const uint32_t *n, uint32_t *buf)
{
    int i;

    for (i = 0; i < SIMT_WARP_SIZE; i++) {
        buf[i] = n[i] ^ 0x80000000u;
    }
    return buf;
}

/*
 * fadd, fsub, fmul and the fmadd family as a * b + c, when every lane of
 * the group rounds to nearest even: simt_f32_fma_rne_warp does the lanes
 * it can do exactly, all at once.  Returns the lanes left to the exact
 * operation.
 */
static inline SIMT_LANES_INLINE
uint32_t fp_fast(const SimtBlock *b, SimtWarp *w, const SimtInsn *in,
                        uint32_t G, const uint32_t *lm)
{
    const uint32_t *fa = w->f[in->rs1], *fb = w->f[in->rs2];
    const uint32_t *fc = w->f[in->rs3];
    uint32_t na[SIMT_WARP_SIZE] SIMT_UNCLEARED;
    uint32_t nc[SIMT_WARP_SIZE] SIMT_UNCLEARED;
    uint32_t t[SIMT_WARP_SIZE] SIMT_UNCLEARED;
    uint32_t nx[SIMT_WARP_SIZE] SIMT_UNCLEARED;
    uint32_t *d = t;
    uint32_t frm = 0, sticky = ~0u, rest;
    int i;

    if (b->code->reference) {
        return G;
    }
    /* fflags are sticky: lanes whose NX is set need no new inexact flag. */
    for (i = 0; i < SIMT_WARP_SIZE; i++) {
        frm |= (w->fcsr[i] >> 5) & lm[i];
        sticky &= w->fcsr[i] | ~lm[i];
    }
    if ((in->rm == SIMT_RM_DYN ? frm : in->rm) != SIMT_RM_RNE) {
        return G;
    }
    switch (in->op) {
    case OP_FADD:
        fc = fb;
        fb = f32_one;
        break;
    case OP_FSUB:
        fc = negated(fb, nc);
        fb = f32_one;
        break;
    case OP_FMUL:
        fc = f32_minus_zero;
        break;
    case OP_FMSUB:
        fc = negated(fc, nc);
        break;
    case OP_FNMSUB:
        fa = negated(fa, na);
        break;
    case OP_FNMADD:
        fa = negated(fa, na);
        fc = negated(fc, nc);
        break;
    default:
        break;
    }
    /*
     * A full warp writes its destination directly unless that is a
     * source: lanes left to the exact path are rewritten by it, from
     * sources this did not touch.
     */
    if (G == SIMT_FULL_MASK && in->rd != in->rs1 && in->rd != in->rs2 &&
        in->rd != in->rs3) {
        d = w->f[in->rd];
    }
    rest = simt_f32_fma_rne_warp(d, sticky & SIMT_FFLAG_NX ? NULL : nx,
                                 NULL, fa, fb, fc) & G;
    if (!(sticky & SIMT_FFLAG_NX)) {
        /* nx is clear in the lanes left */
        for (i = 0; i < SIMT_WARP_SIZE; i++) {
            w->fcsr[i] |= nx[i] & lm[i];
        }
    }
    if (d == t) {
        commit_lanes(w->f[in->rd], t, G & ~rest);
    }
    return rest;
}

/* Dynamic rounding with a reserved frm is an illegal instruction. */
static inline SIMT_LANES_INLINE
bool dyn_rm_bad(const SimtWarp *w, const SimtInsn *in,
                       const uint32_t *lm)
{
    uint32_t bad = 0;
    int i;

    if (in->rm != SIMT_RM_DYN) {
        return false;
    }
    for (i = 0; i < SIMT_WARP_SIZE; i++) {
        bad |= -(uint32_t)((w->fcsr[i] >> 5 & 7) > SIMT_RM_RMM) & lm[i];
    }
    return bad;
}

static uint32_t mulh(uint32_t a, uint32_t c)
{
    return (uint64_t)((int64_t)(int32_t)a * (int32_t)c) >> 32;
}

static uint32_t mulhsu(uint32_t a, uint32_t c)
{
    return (uint64_t)((int64_t)(int32_t)a * (int64_t)c) >> 32;
}

static uint32_t mulhu(uint32_t a, uint32_t c)
{
    return ((uint64_t)a * c) >> 32;
}

static uint32_t div_s(uint32_t a, uint32_t c)
{
    if (!c) {
        return UINT32_MAX;
    }
    if (a == 0x80000000u && c == UINT32_MAX) {
        return a;
    }
    return (int32_t)a / (int32_t)c;
}

static uint32_t div_u(uint32_t a, uint32_t c)
{
    return c ? a / c : UINT32_MAX;
}

static uint32_t rem_s(uint32_t a, uint32_t c)
{
    if (!c) {
        return a;
    }
    if (a == 0x80000000u && c == UINT32_MAX) {
        return 0;
    }
    return (int32_t)a % (int32_t)c;
}

static uint32_t rem_u(uint32_t a, uint32_t c)
{
    return c ? a % c : a;
}

static uint32_t shfl_src(unsigned kind, unsigned lane, uint32_t v)
{
    uint64_t src;

    switch (kind) {
    case SIMT_SHFL_DOWN:
        src = (uint64_t)lane + v;
        break;
    case SIMT_SHFL_UP:
        src = (uint64_t)lane - v;
        break;
    case SIMT_SHFL_XOR:
        src = lane ^ v;
        break;
    default:
        src = v;
        break;
    }
    return src < SIMT_WARP_SIZE ? src : lane;
}

/* The lanes of @lanes whose pc is @pc */
static uint32_t lanes_at(const SimtWarp *w, uint32_t lanes, uint32_t pc)
{
    uint32_t at = 0;

    LANES_FOR(lanes, i) {
        at |= (uint32_t)(w->pc[i] == pc) << i;
    }
    return at;
}

/*
 * Whether lanes @at, together at a warp sync whose mask register is @rs1,
 * are all the lanes their masks name that have not exited.  A lane
 * always waits for itself, whatever its mask says.
 */
static bool wsync_complete(const SimtWarp *w, uint32_t at, unsigned rs1)
{
    uint32_t named = 0;

    LANES_FOR(at, i) {
        named |= w->x[rs1][i];
    }
    return !(named & ~(w->exited | at));
}

/*
 * After lanes exit, release the groups waiting at a warp sync that no
 * longer wait for anyone.  A waiting lane whose pc is not a warp sync can
 * only come from a corrupt save area: the block faults.
 */
static void wsync_release(SimtBlock *b, SimtWarp *w, unsigned warp)
{
    const SimtCode *code = b->code;
    uint32_t pending = w->wsync;

    while (pending) {
        unsigned lane = __builtin_ctz(pending);
        uint32_t pc = w->pc[lane], at = lanes_at(w, pending, pc);
        uint32_t off = pc - code->base;
        SimtInsn *in = &code->insns[off >> 2];

        pending &= ~at;
        if (off >= code->size || (pc & 3) ||
            (in->op == OP_UNDECODED && predecode(b, pc, in)) ||
            in->op != OP_WSYNC) {
            block_fault(b, SIMT_FAULT_SAVE_AREA, pc, 0, warp, lane);
            return;
        }
        if (wsync_complete(w, at, in->rs1)) {
            w->wsync &= ~at;
            set_pcs(w, at, pc + 4);
        }
    }
}

/*
 * No lane of warp @w can run.  If some wait at a warp sync, they wait
 * for lanes that are themselves waiting (at a block barrier, which needs
 * the warp sync's lanes too, or at a warp sync at another pc): a
 * deadlock, reported rather than left to the watchdog.
 */
static void wsync_deadlock(SimtBlock *b, SimtWarp *w, unsigned warp)
{
    if (b->st.status == SIMT_RUNNING && w->wsync) {
        unsigned lane = __builtin_ctz(w->wsync);

        block_fault(b, SIMT_FAULT_BARRIER, w->pc[lane], 0, warp, lane);
    }
}

/* The lanes of @mask leave warp @warp for good. */
static void retire(SimtBlock *b, SimtWarp *w, unsigned warp, uint32_t mask)
{
    w->exited |= mask;
    w->resv_mask &= ~mask;
    b->st.nexited += __builtin_popcount(mask);
    if (w->wsync) {
        wsync_release(b, w, warp);
    }
    block_sync(b);
}

#define SIMT_RUN_MAX    255

/*
 * How many instructions after @in (at byte @off of the code, the group's
 * pc @P, below @M, the other lanes' lowest pc) the group may go on to
 * without the instruction loop's look at the code range, the decode
 * cache and the other lanes: the next ones that are decoded and below
 * @M.  A straight run of the code is then one dispatch after another,
 * as in a translation of the basic block, built once with the decode
 * cache: an entry counts the decoded entries that follow it once, and
 * counts on only when the entry that ended its row has been decoded
 * since.  The cache's extra last entry is never decoded.
 */
static inline SIMT_LANES_INLINE
unsigned straight_ahead(SimtInsn *in, uint32_t off, uint32_t size,
                        uint32_t P, uint32_t M)
{
    unsigned run = in->run, below = (M - P - 1) / 4;

    if (!run || (run < SIMT_RUN_MAX && in[run].op != OP_UNDECODED)) {
        unsigned max = (size - off) / 4;

        max = max < SIMT_RUN_MAX ? max : SIMT_RUN_MAX;
        run = run ? run : 1;
        while (run < max && in[run].op != OP_UNDECODED) {
            run++;
        }
        in->run = run;
    }
    return run - 1 < below ? run - 1 : below;
}

void simt_code_decode_all(SimtCode *code, const SimtMem *mem)
{
    SimtBlock b = { .code = code, .mem = mem };

    for (uint32_t off = 0; off < code->size; off += 4) {
        SimtInsn *in = &code->insns[off >> 2];

        if (in->op == OP_UNDECODED) {
            /* A word that cannot be fetched stays undecoded: it faults. */
            predecode(&b, code->base + off, in);
        }
    }
    /*
     * And every entry's straight run, which the instruction loop would
     * otherwise count on first use (straight_ahead()): no thread then
     * writes the cache that the others read.  From the last entry back,
     * each counts one more than the next, or one if the next is not
     * decoded: one pass, not one walk of up to SIMT_RUN_MAX per entry.
     */
    for (uint32_t i = code->size / 4; i-- > 0;) {
        SimtInsn *in = &code->insns[i];
        unsigned next = in[1].op == OP_UNDECODED ? 0 : in[1].run;

        in->run = next < SIMT_RUN_MAX ? next + 1 : SIMT_RUN_MAX;
    }
}

/*
 * A loop of the timed tier's instructions, as tier_loop() follows it in
 * a burst: n instructions in a straight run from head, only the last a
 * branch or jump, back to head.  Its timing in a turn depends only on
 * the clock at head and on when the registers it reads before writing
 * them are ready (reads), relative to that clock (earlier counts as
 * then).  If those relative times are the same at the start of two turns
 * in a row, the loop is steady: every later turn that starts so takes
 * the same time, and leaves every register it writes ready at the same
 * time after its start (SimtLoopTiming).
 */
typedef struct SimtLoop {
    SimtInsn *head;             /* the loop followed, or NULL */
    const SimtInsn *skip;       /* a loop top found not to be one, or NULL */
    unsigned n;
    unsigned misses;            /* turns in a row that were not steady */
    uint32_t reads, writes;     /* x registers (bit r), besides the sink */
    bool recording;             /* a turn is under way from start, at k0 */
    uint64_t start, k0;
    uint64_t rel[32];           /* reads' readiness after start */
} SimtLoop;

/*
 * The straight-run tier of warp_run(): integer vector operations,
 * conditional branches and jumps that write no link register, in a loop
 * of their own that follows taken branches.  It is a function of its
 * own, called once per straight run or loop, so that its few variables
 * stay in host registers (in warp_run()'s instruction loop, too large for
 * that, the compiler keeps the group's pc and the warp's clock in
 * memory).  It ends before any other instruction or one past the
 * burst's issue limit (TIER_BEFORE: in and left say where), after the
 * budget, the straight run, or a jump to M or beyond or to code not
 * decoded yet (TIER_AFTER: P says where), or after a branch that splits
 * the group (TIER_SPLIT); warp_run() goes on from there as if it had run
 * them.
 */
typedef struct SimtTier {
    SimtWarp *w;
    const SimtCode *code;
    SimtWarpTiming *wt;         /* NULL: untimed */
    SimtLoop *loop;             /* timed: the loop it follows (tier_loop) */
    SimtLoopTiming *learnt;     /* timed: the block's steady loop */
    const uint32_t *lm;
    uint32_t G, M, P;
    SimtInsn *in;
    unsigned left;              /* instructions left in the straight run */
    unsigned loop_n;            /* tier_run_loop(): the loop's instructions */
    /* TIER_LOOP: the timed tier is at the top of a loop, in is its first */
    enum { TIER_BEFORE, TIER_AFTER, TIER_SPLIT, TIER_LOOP } end;
    uint32_t taken;             /* TIER_SPLIT: the lanes that branch */
    uint64_t n, budget, cycle, issue_limit, issued;
} SimtTier;

/* Is @op one of the tier's integer operations? */
static inline bool tier_alu(unsigned op)
{
    return op >= OP_ADDI && op <= OP_MUL;
}

/* Is @in one of the tier's branches (conditional, or a jump not linking)? */
static inline bool tier_branch(const SimtInsn *in)
{
    return (in->op >= OP_BEQ && in->op <= OP_BGEU) ||
           (in->op == OP_JAL && !in->rd);
}

static inline SIMT_LANES_INLINE
void tier_body(SimtTier *t, const bool timed, const bool loop)
{
    SimtWarp *const w = t->w;
    const SimtCode *const code = t->code;
    SimtWarpTiming *const wt = t->wt;
    const uint32_t *const lm = t->lm;
    const uint32_t G = t->G, M = t->M;
    const uint64_t budget = t->budget, issue_limit = t->issue_limit;
    SimtInsn *x = t->in;
    uint32_t p = t->P, taken = 0, o;
    uint64_t clk = t->cycle, iss = 0, k = t->n;
    unsigned left = t->left;
    bool back;

    t->end = TIER_BEFORE;

/*
 * x issues once what it reads is ready, unless past the burst's limit
 * (warp_run() then ends the burst, or issues x if it is the burst's
 * first).  The tier's instructions read two registers at most: src[2]
 * is x0, never pending.
 */
#define TIER_ISSUE()                                                    \
    do {                                                                \
        if (timed) {                                                    \
            uint64_t at = later(later(wt->reg[x->src[0]],               \
                                      wt->reg[x->src[1]]), clk);        \
            if (__builtin_expect(at >= issue_limit, 0)) {              \
                goto out;                                               \
            }                                                           \
            clk = at + x->cost;                                         \
            iss += x->cost;                                             \
            wt->reg[x->dst] = at + x->lat;                              \
        } else {                                                        \
            clk += x->cost;                                             \
        }                                                               \
        k++;                                                            \
    } while (0)
/* On to the next instruction of the straight run, if there is one. */
#define TIER_NEXT()                                                     \
    do {                                                                \
        p += 4;                                                         \
        x++;                                                            \
        if (--left) {                                                   \
            goto again;                                                 \
        }                                                               \
        t->end = TIER_AFTER;                                           \
        goto out;                                                       \
    } while (0)

    for (;;) {
    again:
        switch (x->op) {
        case OP_ADDI: case OP_SLTI: case OP_SLTIU: case OP_XORI:
        case OP_ORI: case OP_ANDI: case OP_SLLI: case OP_SRLI: case OP_SRAI:
        case OP_ADD: case OP_SUB: case OP_SLL: case OP_SLT: case OP_SLTU:
        case OP_XOR: case OP_SRL: case OP_SRA: case OP_OR: case OP_AND:
        case OP_MUL:
            TIER_ISSUE();
            if (x->rd) {
                valu_rows(w, x, G, lm);
            }
            TIER_NEXT();
            break;
        case OP_BEQ: case OP_BNE: case OP_BLT: case OP_BGE: case OP_BLTU:
        case OP_BGEU:
            taken = branch_lanes(w, x, G);
            TIER_ISSUE();
            if (!taken) {
                TIER_NEXT();
            }
            if (taken != G) {
                t->end = TIER_SPLIT;
                goto out;
            }
            break;
        case OP_JAL:
            if (x->rd) {
                goto out;
            }
            TIER_ISSUE();
            break;
        default:
            goto out;
        }
        /* Taken: on in the straight run at the target, if there is one. */
        back = x->imm <= 0;
        p += x->imm;
        o = p - code->base;
        if (p >= M || k >= budget || o >= code->size || (p & 3) ||
            code->insns[o >> 2].op == OP_UNDECODED) {
            t->end = TIER_AFTER;
            goto out;
        }
        x = &code->insns[o >> 2];
        /* A loop's replay (tier_loop()) runs whole turns of it only. */
        left = loop ? t->loop_n : straight_ahead(x, o, code->size, p, M) + 1;
        left = left < budget - k ? left : budget - k;
        /* Back at the top of what may be a loop: tier_loop() looks. */
        if (timed && back && tier_alu(x->op) && x != t->loop->skip) {
            t->end = TIER_LOOP;
            goto out;
        }
    }
#undef TIER_ISSUE
#undef TIER_NEXT
out:
    t->taken = taken;
    t->in = x;
    t->left = left;
    t->P = p;
    t->cycle = clk;
    t->issued = iss;
    t->n = k;
}

/* Turns that may differ before tier_loop() gives up on a loop. */
#define TIER_LOOP_MISSES        4

/* The register's readiness after @clock, or 0 if it is ready then. */
static inline uint64_t ready_after(const SimtWarpTiming *wt, unsigned r,
                                   uint64_t clock)
{
    return wt->reg[r] > clock ? wt->reg[r] - clock : 0;
}

/*
 * Does the code at @head (pc @pc) start such a loop, within the group's
 * bound @M?  If so, fills in @lp's shape.
 */
static bool loop_shape(const SimtCode *code, SimtInsn *head, uint32_t pc,
                       uint32_t M, SimtLoop *lp)
{
    unsigned run = straight_ahead(head, pc - code->base, code->size, pc, M) + 1;
    uint32_t reads = 0, writes = 0;

    for (unsigned i = 0; i < run; i++) {
        const SimtInsn *in = &head[i];
        bool branch = tier_branch(in);

        if (!branch && !tier_alu(in->op)) {
            return false;
        }
        /* x0 (index 0) is never pending */
        reads |= ((1u << in->src[0]) | (1u << in->src[1])) & ~writes & ~1u;
        if (branch) {
            if (in->imm != -4 * (int32_t)i) {
                return false;
            }
            lp->n = i + 1;
            lp->reads = reads;
            lp->writes = writes;
            return true;
        }
        if (in->dst < 32) {
            writes |= 1u << in->dst;
        }
    }
    return false;
}

/*
 * Does a turn that starts at @clock find the registers @reads ready when
 * @rel says, after its start?
 */
static bool loop_starts_so(uint32_t reads, const uint64_t *rel,
                           const SimtWarpTiming *wt, uint64_t clock)
{
    for (uint32_t r = reads; r; r &= r - 1) {
        unsigned i = __builtin_ctz(r);

        if (ready_after(wt, i, clock) != rel[i]) {
            return false;
        }
    }
    return true;
}

/*
 * Run the turns of the steady loop @lt from t->in, at t->cycle, that
 * issue before the burst's limit and fit in its budget: @replay (the
 * tier's loop variant, untimed) runs them at the speed of the untimed
 * tier, and their timing follows in one step.  Returns true for the
 * timed tier to go on from t (its last turn, which meets the limit or
 * the budget), false if t ended the tier (the loop ran out or split).
 */
static bool loop_replay(SimtTier *t, const SimtLoopTiming *lt,
                        void (*replay)(SimtTier *t), uint64_t *issued)
{
    SimtWarpTiming *wt = t->wt;
    SimtInsn *head = t->in;
    const uint32_t top = t->P;
    uint64_t clock = t->cycle, k = t->n, turns, q;
    SimtTier run = *t;

    /* A bound of the group inside the loop ends its straight run there. */
    if (top + 4 * (lt->n - 1) >= t->M || clock + lt->last >= t->issue_limit) {
        return true;
    }
    turns = (t->issue_limit - 1 - clock - lt->last) / lt->turn + 1;
    q = (t->budget - k) / lt->n;
    turns = turns < q ? turns : q;
    if (!turns) {
        return true;
    }
    run.left = run.loop_n = lt->n;
    run.budget = k + turns * lt->n;
    replay(&run);
    /* q >= 1 turns ran: no turn ends before its last instruction. */
    q = (run.n - k) / lt->n;
    for (uint32_t r = lt->writes; r; r &= r - 1) {
        unsigned i = __builtin_ctz(r);

        wt->reg[i] = clock + (q - 1) * lt->turn + lt->wrel[i];
    }
    wt->reg[SIMT_TIMING_REGS - 1] = clock + (q - 1) * lt->turn + lt->sink;
    *issued += q * lt->issued;
    t->cycle = clock + q * lt->turn;
    t->n = k = run.n;
    t->P = run.P;
    t->in = run.in;
    t->left = run.left;
    t->taken = run.taken;
    t->end = run.end;
    /* Unless the loop goes on in this burst, the tier ends here. */
    if (run.end != TIER_AFTER || run.P != top || k >= t->budget) {
        return false;
    }
    t->in = head;
    t->left = straight_ahead(head, top - t->code->base, t->code->size, top,
                             t->M) + 1;
    t->left = t->left < t->budget - k ? t->left : t->budget - k;
    t->end = TIER_BEFORE;
    return true;
}

/*
 * The timed tier is back at the top t->in of what may be a loop, at
 * clock t->cycle.  If the block knows the loop as steady and its turn
 * starts as learnt, replays the loop.  Otherwise learns the loop's
 * shape, then times a turn of it instruction by instruction from here
 * (recording); if the next turn starts as that one did, the block learns
 * the loop, and it replays.  Returns true for the timed tier to go on
 * from t, false if t ended the tier.
 */
static __attribute__((noinline))
bool tier_loop(SimtTier *t, void (*replay)(SimtTier *t), uint64_t *issued)
{
    SimtLoop *lp = t->loop;
    SimtLoopTiming *lt = t->learnt;
    SimtWarpTiming *wt = t->wt;
    SimtInsn *head = t->in;
    uint64_t clock = t->cycle, k = t->n;
    uint32_t r;

    lp->recording = lp->recording && lp->head == head;
    if (lt->head == head && loop_starts_so(lt->reads, lt->rel, wt, clock)) {
        lp->recording = false;
        return loop_replay(t, lt, replay, issued);
    }
    if (lp->head != head) {
        if (!loop_shape(t->code, head, t->P, t->M, lp)) {
            lp->skip = head;
            return true;
        }
        lp->head = head;
        lp->misses = 0;
    } else if (lp->recording && k - lp->k0 == lp->n) {
        /* A turn timed by the tier (and nothing else) since start. */
        if (loop_starts_so(lp->reads, lp->rel, wt, clock)) {
            lt->head = head;
            lt->n = lp->n;
            lt->reads = lp->reads;
            lt->writes = lp->writes;
            lt->turn = clock - lp->start;
            lt->issued = t->issued;
            lt->last = lt->turn - head[lp->n - 1].cost;
            memcpy(lt->rel, lp->rel, sizeof(lt->rel));
            for (r = lp->writes; r; r &= r - 1) {
                unsigned i = __builtin_ctz(r);

                lt->wrel[i] = wt->reg[i] - lp->start;
            }
            lt->sink = wt->reg[SIMT_TIMING_REGS - 1] - lp->start;
            lp->recording = false;
            return loop_replay(t, lt, replay, issued);
        }
        if (++lp->misses > TIER_LOOP_MISSES) {
            lp->skip = head;
            lp->head = NULL;
            return true;
        }
    }
    /* Time the turn from here. */
    lp->recording = true;
    lp->start = clock;
    lp->k0 = k;
    for (r = lp->reads; r; r &= r - 1) {
        unsigned i = __builtin_ctz(r);

        lp->rel[i] = ready_after(wt, i, clock);
    }
    return true;
}

static __attribute__((noinline)) void tier_run(SimtTier *t)
{
    tier_body(t, false, false);
}

static __attribute__((noinline)) void tier_run_loop(SimtTier *t)
{
    tier_body(t, false, true);
}

/* The timed tier, handing the tops of loops to tier_loop(). */
static inline __attribute__((always_inline))
void tier_timed(SimtTier *t, void (*replay)(SimtTier *t))
{
    uint64_t issued = 0;

    for (;;) {
        tier_body(t, true, false);
        issued += t->issued;
        if (t->end != TIER_LOOP || !tier_loop(t, replay, &issued)) {
            break;
        }
    }
    t->issued = issued;
}

static __attribute__((noinline)) void tier_run_timed(SimtTier *t)
{
    tier_timed(t, tier_run_loop);
}

/* Whether @pc is one of the @n ascending pcs of @pcs. */
static bool is_stop_pc(const uint32_t *pcs, uint32_t n, uint32_t pc)
{
    uint32_t lo = 0, hi = n;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;

        if (pcs[mid] == pc) {
            return true;
        }
        if (pcs[mid] < pc) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return false;
}

/*
 * simt_warp_run() with @timed constant, so that each of its two copies
 * has only its own timing model's code in the instruction loop, and
 * @fast_only true where the code is known not to be on its reference
 * paths.
 */
static inline __attribute__((always_inline))
uint64_t warp_run(SimtBlock *b, unsigned warp, uint64_t budget,
                  const bool timed, const bool fast_only,
                  void (*const tier)(SimtTier *t))
{
    SimtBlockState *st = &b->st;
    const SimtCode *code = b->code;
    const bool fast = fast_only || !code->reference;
    const SimtCheckOps *const check = b->check;
    const bool direct = flat_direct(b->mem) && !check;
    uint8_t *flat = b->mem->flat;
    const uint32_t flat_base = b->mem->flat_base;
    const uint32_t *const stops = b->stop_pcs;
    SimtWarp *w;
    SimtWarpTiming *wt;
    uint32_t P, G, nG, M;
    /* The group's lanes as all-ones words (select_group() writes them) */
    uint32_t lm[SIMT_WARP_SIZE] SIMT_UNCLEARED;
    /* Instructions the group runs on to before the loop's next look */
    unsigned ahead;
    /* The loop the timed tier follows in this burst (tier_loop()) */
    SimtLoop loop SIMT_UNCLEARED;
    uint64_t n = 0, issue = 0, cycle;
    /*
     * On the fast paths the burst's bound and what it issued stay in
     * registers (b follows on the way out), and a group's lanes are
     * counted once for the n - n_counted instructions it ran; the
     * reference paths read and count through b and per instruction.
     */
    const uint64_t issue_limit = b->issue_limit;
    uint64_t issued = 0, n_counted = 0;
    /* Counts not yet in st and w: see SYNC_COUNTERS */
    uint64_t n_synced = 0, thread_insns = 0;
    unsigned base_tid = warp * SIMT_WARP_SIZE;

    b->stopped = false;
    loop.head = NULL;
    loop.skip = NULL;
    if (st->status != SIMT_RUNNING || warp >= st->nwarps) {
        return 0;
    }
    w = &b->warps[warp];
    wt = timed ? &b->wtiming[warp] : NULL;
    if (!select_group(w, &P, &G, &nG, &M, lm)) {
        wsync_deadlock(b, w, warp);
        return 0;
    }
    /*
     * The warp's clock and instruction counts, in registers: st and w
     * follow them before anything reads them there (csr reads, barriers,
     * exits) and on the way out.
     */
    cycle = st->cycle;
#define COUNT_GROUP()                                                   \
    do {                                                                \
        thread_insns += (uint64_t)nG * (n - n_counted);                 \
        n_counted = n;                                                  \
    } while (0)
#define SYNC_COUNTERS()                                                 \
    do {                                                                \
        COUNT_GROUP();                                                  \
        st->cycle = cycle;                                              \
        w->instret += n - n_synced;                                     \
        st->warp_insns += n - n_synced;                                 \
        st->thread_insns += thread_insns;                               \
        n_synced = n;                                                   \
        thread_insns = 0;                                               \
    } while (0)

    while (n < budget) {
        uint32_t off = P - code->base;
        SimtInsn *in;
        int fault;

        if (stops && is_stop_pc(stops, b->stop_count, P)) {
            b->stopped = true;
            break;
        }
        if (off >= code->size || (P & 3)) {
            if (P == SIMT_EXIT_RA) {
                /* Returned from the kernel function */
                SYNC_COUNTERS();
                retire(b, w, warp, G);
                goto reselect;
            }
            block_fault(b, SIMT_FAULT_FETCH, P, P, warp, __builtin_ctz(G));
            goto stop;
        }
        in = &code->insns[off >> 2];
        if (in->op == OP_UNDECODED) {
            fault = predecode(b, P, in);
            if (fault) {
                block_fault(b, fault, P, P, warp, __builtin_ctz(G));
                goto stop;
            }
        }
        ahead = fast && !stops ? straight_ahead(in, off, code->size, P, M)
                               : 0;
        /* The run ends with the budget too (n < budget here). */
        ahead = ahead < budget - n - 1 ? ahead : budget - n - 1;
        /* The tier, where it has more than one instruction to run. */
        if (fast && !stops &&
            (ahead || tier_branch(in))) {
            SimtTier t = {
                .w = w, .code = code, .wt = wt, .loop = &loop,
                .learnt = &b->loop_timing, .lm = lm, .G = G, .M = M,
                .P = P, .in = in, .left = ahead + 1, .n = n,
                .budget = budget, .cycle = cycle, .issue_limit = issue_limit,
            };

            tier(&t);
            P = t.P;
            cycle = t.cycle;
            issued += t.issued;
            n = t.n;
            if (t.end == TIER_AFTER) {
                goto jumped;
            }
            if (t.end == TIER_SPLIT) {
                set_pcs(w, t.taken, P + t.in->imm);
                set_pcs(w, G & ~t.taken, P + 4);
                goto reselect;
            }
            in = t.in;
            ahead = t.left - 1;
        }
    issue:
        if (wt) {
            /* It issues once what it reads is ready. */
            issue = later(later(wt->reg[in->src[0]], wt->reg[in->src[1]]),
                          later(wt->reg[in->src[2]], cycle));
            if (issue >= (fast ? issue_limit : b->issue_limit) && n) {
                /* Not in this burst: the warp is ready again then. */
                cycle = issue;
                break;
            }
            cycle = issue + in->cost;
            if (fast) {
                issued += in->cost;
            } else {
                b->issue_cycles += in->cost;
            }
            wt->reg[in->dst] = issue + in->lat;
        } else {
            cycle += in->cost;
        }
        n++;
        if (!fast) {
            thread_insns += nG;
            n_counted = n;
        }

        switch (in->op) {
        case OP_LUI:
            ALU(imm);
            break;
        case OP_AUIPC:
            ALU(P + imm);
            break;
        case OP_ADDI:
            VALU(a[i] + imm);
            break;
        case OP_SLTI:
            VALU((int32_t)a[i] < (int32_t)imm);
            break;
        case OP_SLTIU:
            VALU(a[i] < imm);
            break;
        case OP_XORI:
            VALU(a[i] ^ imm);
            break;
        case OP_ORI:
            VALU(a[i] | imm);
            break;
        case OP_ANDI:
            VALU(a[i] & imm);
            break;
        case OP_SLLI:
            VALU(a[i] << imm);
            break;
        case OP_SRLI:
            VALU(a[i] >> imm);
            break;
        case OP_SRAI:
            VALU((int32_t)a[i] >> imm);
            break;
        case OP_ADD:
            VALU(a[i] + c[i]);
            break;
        case OP_SUB:
            VALU(a[i] - c[i]);
            break;
        case OP_SLL:
            VALU(a[i] << (c[i] & 31));
            break;
        case OP_SLT:
            VALU((int32_t)a[i] < (int32_t)c[i]);
            break;
        case OP_SLTU:
            VALU(a[i] < c[i]);
            break;
        case OP_XOR:
            VALU(a[i] ^ c[i]);
            break;
        case OP_SRL:
            VALU(a[i] >> (c[i] & 31));
            break;
        case OP_SRA:
            VALU((int32_t)a[i] >> (c[i] & 31));
            break;
        case OP_OR:
            VALU(a[i] | c[i]);
            break;
        case OP_AND:
            VALU(a[i] & c[i]);
            break;
        case OP_MUL:
            VALU(a[i] * c[i]);
            break;
        case OP_MULH:
            ALU(mulh(a[i], c[i]));
            break;
        case OP_MULHSU:
            ALU(mulhsu(a[i], c[i]));
            break;
        case OP_MULHU:
            ALU(mulhu(a[i], c[i]));
            break;
        case OP_DIV:
            ALU(div_s(a[i], c[i]));
            break;
        case OP_DIVU:
            ALU(div_u(a[i], c[i]));
            break;
        case OP_REM:
            ALU(rem_s(a[i], c[i]));
            break;
        case OP_REMU:
            ALU(rem_u(a[i], c[i]));
            break;
        case OP_FENCE:
            break;

        case OP_JAL:
            ALU(P + 4);
            P += in->imm;
            goto jumped;
        case OP_JALR: {
            const uint32_t *base = w->x[in->rs1];
            uint32_t first = (base[__builtin_ctz(G)] + in->imm) & ~1u;
            uint32_t split = 0;

            LANES_FOR(G, i) {
                split |= ((base[i] + in->imm) & ~1u) != first;
            }
            if (split) {
                LANES_FOR(G, i) {
                    w->pc[i] = (base[i] + in->imm) & ~1u;
                }
                ALU(P + 4);
                goto reselect;
            }
            ALU(P + 4);
            P = first;
            goto jumped;
        }
        case OP_BEQ:
        case OP_BNE:
        case OP_BLT:
        case OP_BGE:
        case OP_BLTU:
        case OP_BGEU:
            BRANCH();
            break;

        case OP_LOAD:
        case OP_FLW: {
            const uint32_t *a = w->x[in->rs1];
            uint32_t t[SIMT_WARP_SIZE] SIMT_UNCLEARED;
            unsigned sh = 32 - 8 * in->size;

            cycle = mem_timing(b, wt, in, issue, cycle,
                               a[__builtin_ctz(G)] + in->imm, in->size, nG);
            if (direct && all_flat(b->mem, a, in->imm, in->size, lm)) {
                lanes_load(t, flat, a, in->imm - flat_base, in->size, in->sext,
                           G);
            } else {
                uint32_t page;
                uint8_t *host = fast && !check ?
                                one_page(b->mem, a, in->imm, in->size, G, lm,
                                         false, &page) : NULL;

                if (host) {
                    lanes_load(t, host, a, in->imm - page, in->size, in->sext,
                               G);
                }
                LANES_FOR(host ? 0 : G, i) {
                    uint32_t addr = a[i] + in->imm;

                    fault = check ? check->access(b->check_opaque, b, warp, i,
                                                  P, addr, in->size,
                                                  SIMT_CHECK_LOAD, 0) : 0;
                    if (!fault) {
                        fault = mem_load(b, base_tid + i, addr, in->size,
                                         &t[i]);
                    }
                    if (fault) {
                        block_fault(b, fault, P, addr, warp, i);
                        goto stop;
                    }
                }
                if (!host && in->sext) {
                    LANES_FOR(G, i) {
                        t[i] = (int32_t)(t[i] << sh) >> sh;
                    }
                }
            }
            if (in->op == OP_FLW) {
                commit(w->f[in->rd], t, G, lm);
            } else if (in->rd) {
                commit(w->x[in->rd], t, G, lm);
            }
            break;
        }
        case OP_STORE:
        case OP_FSW: {
            const uint32_t *a = w->x[in->rs1];
            const uint32_t *v = in->op == OP_FSW ? w->f[in->rs2]
                                                 : w->x[in->rs2];
            uint8_t *host;
            uint32_t page;

            cycle = mem_timing(b, wt, in, issue, cycle,
                               a[__builtin_ctz(G)] + in->imm, in->size, nG);
            if (!st->wrote_global) {
                st->wrote_global = any_global(a, in->imm, G);
            }
            if (direct && all_flat(b->mem, a, in->imm, in->size, lm)) {
                lanes_store(flat, a, in->imm - flat_base, in->size, v, G);
                break;
            }
            host = fast && !check ? one_page(b->mem, a, in->imm, in->size,
                                             G, lm, true, &page) : NULL;
            if (host) {
                lanes_store(host, a, in->imm - page, in->size, v, G);
                break;
            }
            LANES_FOR(G, i) {
                uint32_t addr = a[i] + in->imm;

                fault = check ? check->access(b->check_opaque, b, warp, i, P,
                                              addr, in->size,
                                              SIMT_CHECK_STORE, v[i]) : 0;
                if (!fault) {
                    fault = mem_store(b, base_tid + i, addr, in->size, v[i]);
                }
                if (fault) {
                    block_fault(b, fault, P, addr, warp, i);
                    goto stop;
                }
            }
            break;
        }
        case OP_LR:
        case OP_SC:
        case OP_AMO: {
            const uint32_t *a = w->x[in->rs1];
            const uint32_t *src = w->x[in->rs2];
            uint32_t t[SIMT_WARP_SIZE] SIMT_UNCLEARED;

            cycle = mem_timing(b, wt, in, issue, cycle,
                               a[__builtin_ctz(G)], 4, nG);
            if (!st->wrote_global) {
                st->wrote_global = any_global(a, 0, G);
            }
            /* Lanes go one after another: each AMO is atomic. */
            LANES_FOR(G, i) {
                uint32_t addr = a[i], old, bit = 1u << i, g;
                uint8_t *host = NULL;

                fault = check ? check->access(b->check_opaque, b, warp, i, P,
                                              addr, 4, SIMT_CHECK_ATOMIC,
                                              src[i]) : 0;
                if (!fault) {
                    host = lane_mem(b, base_tid + i, addr, 4, &g, &fault);
                }
                if (host && !((uintptr_t)host & 3)) {
                    old = atomic_host((uint32_t *)host, in, w, i, addr,
                                      src[i]);
                } else if (!fault) {
                    fault = mem_load(b, base_tid + i, addr, 4, &old);
                    if (!fault && in->op == OP_AMO) {
                        fault = mem_store(b, base_tid + i, addr, 4,
                                          amo_apply(in->rm, old, src[i]));
                    } else if (!fault && in->op == OP_LR) {
                        w->resv_mask |= bit;
                        w->resv_addr[i] = addr;
                        w->resv_val[i] = old;
                    } else if (!fault) {
                        /* sc.w: succeeds iff the reserved word is unchanged */
                        bool ok = (w->resv_mask & bit) &&
                                  w->resv_addr[i] == addr &&
                                  w->resv_val[i] == old;

                        w->resv_mask &= ~bit;
                        if (ok) {
                            fault = mem_store(b, base_tid + i, addr, 4,
                                              src[i]);
                        }
                        old = !ok;
                    }
                }
                if (fault) {
                    block_fault(b, fault, P, addr, warp, i);
                    goto stop;
                }
                t[i] = old;
            }
            if (in->rd) {
                commit(w->x[in->rd], t, G, lm);
            }
            break;
        }

        case OP_CSRRW:
        case OP_CSRRS:
        case OP_CSRRC: {
            const uint32_t *a = w->x[in->rs1];
            uint32_t t[SIMT_WARP_SIZE] SIMT_UNCLEARED;

            SYNC_COUNTERS();

            LANES_FOR(G, i) {
                uint32_t src = in->csr_imm ? in->rs1 : a[i];
                uint32_t old = csr_read(b, w, i, in->csr);

                if (in->csr_write) {
                    csr_write(w, i, in->csr,
                              in->op == OP_CSRRW ? src :
                              in->op == OP_CSRRS ? old | src : old & ~src);
                }
                t[i] = old;
            }
            if (in->rd) {
                commit(w->x[in->rd], t, G, lm);
            }
            break;
        }

        case OP_FMADD:
        case OP_FMSUB:
        case OP_FNMSUB:
        case OP_FNMADD: {
            /* fmsub negates c, fnmsub the product, fnmadd both. */
            uint32_t na = in->op >= OP_FNMSUB ? 0x80000000u : 0;
            uint32_t nc = in->op == OP_FMSUB || in->op == OP_FNMADD ?
                          0x80000000u : 0;

            FPU_FAST(simt_f32_fma(fa[i] ^ na, fb[i], fc[i] ^ nc, rm, fl));
            break;
        }
        case OP_FADD:
            FPU_FAST(simt_f32_add(fa[i], fb[i], rm, fl));
            break;
        case OP_FSUB:
            FPU_FAST(simt_f32_sub(fa[i], fb[i], rm, fl));
            break;
        case OP_FMUL:
            FPU_FAST(simt_f32_mul(fa[i], fb[i], rm, fl));
            break;
        case OP_FDIV:
            if (dyn_rm_bad(w, in, lm)) {
                goto illegal;
            }
            FPU_F(simt_f32_div(fa[i], fb[i], rm, fl));
            break;
        case OP_FSQRT:
            if (dyn_rm_bad(w, in, lm)) {
                goto illegal;
            }
            FPU_F(simt_f32_sqrt(fa[i], rm, fl));
            break;
        case OP_FSGNJ:
            FPU_F((fa[i] & 0x7fffffffu) | (fb[i] & 0x80000000u));
            break;
        case OP_FSGNJN:
            FPU_F((fa[i] & 0x7fffffffu) | (~fb[i] & 0x80000000u));
            break;
        case OP_FSGNJX:
            FPU_F(fa[i] ^ (fb[i] & 0x80000000u));
            break;
        case OP_FMIN:
            FPU_F(simt_f32_min(fa[i], fb[i], fl));
            break;
        case OP_FMAX:
            FPU_F(simt_f32_max(fa[i], fb[i], fl));
            break;
        case OP_FCVT_W_S:
            if (dyn_rm_bad(w, in, lm)) {
                goto illegal;
            }
            FPU_X(simt_f32_to_i32(fa[i], rm, fl));
            break;
        case OP_FCVT_WU_S:
            if (dyn_rm_bad(w, in, lm)) {
                goto illegal;
            }
            FPU_X(simt_f32_to_u32(fa[i], rm, fl));
            break;
        case OP_FMV_X_W:
            FPU_X(fa[i]);
            break;
        case OP_FCLASS:
            FPU_X(simt_f32_class(fa[i]));
            break;
        case OP_FEQ:
            FPU_X(simt_f32_eq(fa[i], fb[i], fl));
            break;
        case OP_FLT:
            FPU_X(simt_f32_lt(fa[i], fb[i], fl));
            break;
        case OP_FLE:
            FPU_X(simt_f32_le(fa[i], fb[i], fl));
            break;
        case OP_FCVT_S_W:
            if (dyn_rm_bad(w, in, lm)) {
                goto illegal;
            }
            FPU_F(simt_i32_to_f32(xa[i], rm, fl));
            break;
        case OP_FCVT_S_WU:
            if (dyn_rm_bad(w, in, lm)) {
                goto illegal;
            }
            FPU_F(simt_u32_to_f32(xa[i], rm, fl));
            break;
        case OP_FMV_W_X:
            FPU_F(xa[i]);
            break;

        case OP_BARRIER:
            SYNC_COUNTERS();
            set_pcs(w, G, P + 4);
            w->waiting |= G;
            st->nwaiting += __builtin_popcount(G);
            block_sync(b);
            goto reselect;
        case OP_WSYNC: {
            uint32_t at = G | (w->wsync ? lanes_at(w, w->wsync, P) : 0);

            if (!wsync_complete(w, at, in->rs1)) {
                set_pcs(w, G, P);
                w->wsync |= G;
                goto reselect;
            }
            if (at != G) {
                /* The group completes lanes that were already waiting */
                w->wsync &= ~at;
                set_pcs(w, at, P + 4);
                goto reselect;
            }
            break;
        }
        case OP_EXIT:
            SYNC_COUNTERS();
            set_pcs(w, G, P);
            retire(b, w, warp, G);
            goto reselect;
        case OP_VOTE: {
            const uint32_t *pred = w->x[in->rs1];
            uint32_t ballot = 0, r;

            if (check) {
                check->warp_op(b->check_opaque, b, warp, P, G);
            }
            LANES_FOR(G, i) {
                ballot |= (uint32_t)(pred[i] != 0) << i;
            }
            r = in->rm == SIMT_VOTE_BALLOT ? ballot :
                in->rm == SIMT_VOTE_ANY ? ballot != 0 : ballot == G;
            ALU(r);
            break;
        }
        case OP_SHFL: {
            const uint32_t *a = w->x[in->rs1];
            const uint32_t *c = w->x[in->rs2];
            uint32_t t[SIMT_WARP_SIZE] SIMT_UNCLEARED;

            if (check) {
                check->warp_op(b->check_opaque, b, warp, P, G);
            }
            /* Reading an inactive lane yields the reader's own value. */
            LANES_FOR(G, i) {
                uint32_t s = shfl_src(in->rm, i, c[i]);

                t[i] = a[(G >> s & 1) ? s : i];
            }
            if (in->rd) {
                commit(w->x[in->rd], t, G, lm);
            }
            break;
        }

        case OP_BAD_CSR:
            block_fault(b, SIMT_FAULT_BAD_CSR, P, 0, warp, __builtin_ctz(G));
            goto stop;
        default:
            goto illegal;
        }
        P += 4;
        if (ahead) {
            ahead--;
            in++;
            goto issue;
        }
    jumped:
        if (P < M) {
            continue;
        }
        /* Lanes elsewhere are now at or below the group's PC. */
        set_pcs(w, G, P);
    reselect:
        COUNT_GROUP();
        if (st->status != SIMT_RUNNING) {
            goto out;
        }
        if (!select_group(w, &P, &G, &nG, &M, lm)) {
            wsync_deadlock(b, w, warp);
            goto out;
        }
        continue;
    illegal:
        block_fault(b, SIMT_FAULT_ILLEGAL_INSN, P, 0, warp, __builtin_ctz(G));
        goto stop;
    }
stop:
    set_pcs(w, G, P);
out:
    SYNC_COUNTERS();
    b->issue_cycles += issued;
#undef SYNC_COUNTERS
#undef COUNT_GROUP
    return n;
}

#ifdef HOST_X86_64
static __attribute__((target("avx2,fma,bmi,bmi2,popcnt,lzcnt"), noinline))
void tier_run_avx2(SimtTier *t)
{
    tier_body(t, false, false);
}

static __attribute__((target("avx2,fma,bmi,bmi2,popcnt,lzcnt"), noinline))
void tier_run_loop_avx2(SimtTier *t)
{
    tier_body(t, false, true);
}

static __attribute__((target("avx2,fma,bmi,bmi2,popcnt,lzcnt"), noinline))
void tier_run_timed_avx2(SimtTier *t)
{
    tier_timed(t, tier_run_loop_avx2);
}

/*
 * The instruction loop for hosts with AVX2: a warp's 32 lanes are four
 * 256-bit vectors instead of eight 128-bit ones.  simt-core.c does no
 * host floating point, so enabling FMA here contracts nothing; it lets
 * simt-fpu.h's warp fma inline.
 */
static __attribute__((target("avx2,fma,bmi,bmi2,popcnt,lzcnt")))
uint64_t warp_run_avx2(SimtBlock *b, unsigned warp, uint64_t budget)
{
    return b->wtiming ? warp_run(b, warp, budget, true, true,
                                 tier_run_timed_avx2)
                      : warp_run(b, warp, budget, false, true, tier_run_avx2);
}

static bool host_avx2(void)
{
    const unsigned all = SIMT_HOST_AVX2 | SIMT_HOST_FMA | SIMT_HOST_BMI;

    return (simt_host_x86() & all) == all;
}
#endif

uint64_t simt_warp_run(SimtBlock *b, unsigned warp, uint64_t budget)
{
#ifdef HOST_X86_64
    /*
     * The reference paths stay on the baseline build, so that the
     * differential tests compare the vector build's fast paths with it.
     */
    if (!b->code->reference && host_avx2()) {
        return warp_run_avx2(b, warp, budget);
    }
#endif
    return b->wtiming ? warp_run(b, warp, budget, true, false, tier_run_timed)
                      : warp_run(b, warp, budget, false, false, tier_run);
}

SimtStatus simt_block_run(SimtBlock *b, uint64_t budget)
{
    SimtBlockState *st = &b->st;
    unsigned idle = 0;

    while (st->status == SIMT_RUNNING && budget && idle <= st->nwarps) {
        unsigned wi = st->next_warp;
        uint64_t n;

        st->next_warp = (wi + 1) % st->nwarps;
        n = simt_warp_run(b, wi, budget < SIMT_WARP_QUANTUM ?
                                 budget : SIMT_WARP_QUANTUM);
        budget -= n;
        idle = n ? 0 : idle + 1;
    }
    return st->status;
}

/* Stop a block that used up its budget, blaming its next runnable lane. */
static void watchdog(SimtBlock *b)
{
    unsigned wi;

    for (wi = 0; wi < b->st.nwarps; wi++) {
        SimtWarp *w = &b->warps[wi];
        uint32_t live = ~(w->exited | w->waiting | w->wsync);

        if (live) {
            unsigned lane = __builtin_ctz(live);

            block_fault(b, SIMT_FAULT_WATCHDOG, w->pc[lane], 0, wi, lane);
            return;
        }
    }
    block_fault(b, SIMT_FAULT_WATCHDOG, 0, 0, 0, 0);
}

int simt_run_grid(const SimtLaunch *l, const SimtMem *mem,
                  uint32_t local_addr, uint64_t max_warp_insns,
                  SimtGridResult *res)
{
    SimtCode code;
    SimtBlock b;
    SimtBlockDesc desc = { .local_addr = local_addr };
    SimtWarp *warps;
    uint8_t *shared;
    uint32_t x, y, z;
    int ret = -1;

    memset(res, 0, sizeof(*res));
    if (simt_launch_check(l) ||
        simt_code_init(&code, l->code_base, l->code_size)) {
        return -1;
    }
    warps = calloc(simt_launch_warps(l), sizeof(*warps));
    shared = malloc(l->shared_size ? l->shared_size : 1);
    if (!warps || !shared) {
        goto out;
    }
    for (z = 0; z < l->grid_dim[2]; z++) {
        for (y = 0; y < l->grid_dim[1]; y++) {
            for (x = 0; x < l->grid_dim[0]; x++) {
                desc.block_idx[0] = x;
                desc.block_idx[1] = y;
                desc.block_idx[2] = z;
                simt_block_init(&b, l, &desc, &code, mem, warps, shared);
                simt_block_run(&b, max_warp_insns - res->warp_insns);
                res->warp_insns += b.st.warp_insns;
                res->thread_insns += b.st.thread_insns;
                if (b.st.status == SIMT_RUNNING) {
                    watchdog(&b);
                }
                if (b.st.status == SIMT_FAULTED) {
                    res->fault = b.st.fault;
                    res->fault_pc = b.st.fault_pc;
                    res->fault_addr = b.st.fault_addr;
                    res->fault_block[0] = x;
                    res->fault_block[1] = y;
                    res->fault_block[2] = z;
                    res->fault_warp = b.st.fault_warp;
                    res->fault_lane = b.st.fault_lane;
                    ret = res->fault;
                    goto out;
                }
            }
        }
    }
    ret = SIMT_FAULT_NONE;
out:
    free(shared);
    free(warps);
    simt_code_destroy(&code);
    return ret;
}
