/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * simt: the instruction-set contract of the SIMT lanes.
 *
 * Each thread runs RV32IMAF + Zicsr.  This file defines the SIMT extension
 * (custom CSRs, custom-0 instructions), the per-thread address map, the
 * kernel entry convention and the fault causes.  Plain C, shared by the
 * interpreter, the device, the kernel toolchain, tests and the driver.
 * Dual-licensed, as simt-hw.h, so that GPL code and MIT userspace (libsimt,
 * the tools) may both include it; __KERNEL__ picks the guest driver's
 * integer types, which has no <stdint.h>.
 */
#ifndef SIMT_ISA_H
#define SIMT_ISA_H

#ifdef __KERNEL__
#include <linux/types.h>    /* the guest driver: no <stdint.h> there */
#else
#include <stdint.h>
#endif

#define SIMT_WARP_SIZE              32

/*
 * Read-only custom CSRs (user read-only custom range 0xcc0..0xcff).
 * The standard cycle/cycleh (0xc00/0xc80) and instret/instreth
 * (0xc02/0xc82) counters are also readable.
 */
#define SIMT_CSR_TID_X              0xcc0   /* thread index in block */
#define SIMT_CSR_TID_Y              0xcc1
#define SIMT_CSR_TID_Z              0xcc2
#define SIMT_CSR_CTAID_X            0xcc3   /* block index in grid */
#define SIMT_CSR_CTAID_Y            0xcc4
#define SIMT_CSR_CTAID_Z            0xcc5
#define SIMT_CSR_NTID_X             0xcc6   /* block dimensions */
#define SIMT_CSR_NTID_Y             0xcc7
#define SIMT_CSR_NTID_Z             0xcc8
#define SIMT_CSR_NCTAID_X           0xcc9   /* grid dimensions */
#define SIMT_CSR_NCTAID_Y           0xcca
#define SIMT_CSR_NCTAID_Z           0xccb
#define SIMT_CSR_LANEID             0xccc   /* lane within the warp */
#define SIMT_CSR_WARPID             0xccd   /* warp within the block */
#define SIMT_CSR_SMID               0xcce   /* SM running the block */
#define SIMT_CSR_NWARPS             0xccf   /* warps in the block */

/*
 * custom-0 (major opcode 0x0b) instructions, R-type layout:
 *   funct7 | rs2 | rs1 | funct3 | rd | 0001011
 */
#define SIMT_OPC_CUSTOM0            0x0b
#define SIMT_F3_BARRIER             0   /* block barrier (all fields 0) */
#define SIMT_F3_EXIT                1   /* end this thread (fields 0) */
#define SIMT_F3_VOTE                2   /* rd = vote(rs1), funct7 = kind */
#define SIMT_F3_SHFL                3   /* rd = rs1 of lane rs2, kind in f7 */
#define SIMT_F3_WSYNC               4   /* warp sync on lane mask rs1 */

#define SIMT_VOTE_ANY               0   /* rd = 1 if rs1 != 0 in any lane */
#define SIMT_VOTE_ALL               1   /* rd = 1 if rs1 != 0 in all lanes */
#define SIMT_VOTE_BALLOT            2   /* rd = mask of lanes with rs1 != 0 */

#define SIMT_SHFL_IDX               0   /* source lane = rs2 */
#define SIMT_SHFL_DOWN              1   /* source lane = lane + rs2 */
#define SIMT_SHFL_UP                2   /* source lane = lane - rs2 */
#define SIMT_SHFL_XOR               3   /* source lane = lane ^ rs2 */

#define SIMT_INSN_BARRIER \
    ((uint32_t)((SIMT_F3_BARRIER << 12) | SIMT_OPC_CUSTOM0))
#define SIMT_INSN_EXIT \
    ((uint32_t)((SIMT_F3_EXIT << 12) | SIMT_OPC_CUSTOM0))
/* rd, rs2 and funct7 of a warp sync are zero */
#define SIMT_INSN_WSYNC(rs1) \
    ((uint32_t)(((rs1) << 15) | (SIMT_F3_WSYNC << 12) | SIMT_OPC_CUSTOM0))

/*
 * Per-thread address map.  Global addresses are the context's virtual
 * address space; the two windows below are carved out of it.
 */
#define SIMT_SHARED_BASE            0xc0000000u  /* block shared memory */
#define SIMT_SHARED_WINDOW          0x01000000u
#define SIMT_LOCAL_BASE             0xd0000000u  /* this thread's local */
#define SIMT_LOCAL_WINDOW           0x10000000u

/*
 * Kernel entry: pc = entry, a0..a7 = the launch's first eight argument
 * words, sp = SIMT_LOCAL_BASE + local bytes per thread (stack grows down
 * in the thread's private local window), ra = SIMT_EXIT_RA so that
 * returning from the kernel function exits the thread.  Other registers
 * are zero, fcsr is zero (round to nearest even, no flags).
 */
#define SIMT_EXIT_RA                0xfffffff0u
#define SIMT_ARG_REGS               8

/* Why a block stopped early (recorded with the faulting PC). */
enum simt_fault {
    SIMT_FAULT_NONE = 0,
    SIMT_FAULT_ILLEGAL_INSN,    /* undecodable or unsupported instruction */
    SIMT_FAULT_FETCH,           /* instruction fetch outside code */
    SIMT_FAULT_MISALIGNED,      /* misaligned load, store or AMO */
    SIMT_FAULT_ACCESS,          /* load/store/AMO outside any window */
    SIMT_FAULT_BAD_CSR,         /* unknown CSR or write to read-only CSR */
    SIMT_FAULT_BARRIER,         /* a warp sync can never complete */
    SIMT_FAULT_PAGE,            /* device MMU translation fault */
    SIMT_FAULT_WATCHDOG,        /* instruction budget exhausted */
    SIMT_FAULT_SAVE_AREA,       /* a saved block could not be restored */
    SIMT_FAULT_NR,
};

/*
 * Kernel metadata, carried in a kernel ELF as one SHT_NOTE section
 * SIMT_NOTE_SECTION holding one note: name SIMT_NOTE_NAME, type
 * SIMT_NOTE_TYPE_META, written by tools/simt-meta.  All fields are
 * little-endian; the descriptor is only 4-byte aligned in the file, so
 * readers copy it out (or use tools/simt-meta/simt-elf.h) before reading
 * the 64-bit masks.  Offsets are from the start of the descriptor.
 *
 * The descriptor is a struct simt_meta_header, then nkernels records of
 * kernel_size bytes (struct simt_meta_kernel, possibly grown by later
 * versions), then the live table, then a string table of NUL-terminated
 * kernel names.  The live table has one mask per 4-byte instruction of
 * [code_start, code_end): bit n (n < 32) set means xn may be read before
 * it is next written when the thread's pc is that instruction's address,
 * bit 32 + n the same for fn.  x0 is never set.  A thread parked at pc
 * needs only those registers saved (plus pc and fcsr); for a diverged
 * warp, the union over its lanes' pcs.
 */
#define SIMT_NOTE_SECTION           ".note.simt"
#define SIMT_NOTE_NAME              "SIMT"
#define SIMT_NOTE_TYPE_META         1
#define SIMT_META_VERSION           1

struct simt_meta_header {
    uint32_t version;           /* SIMT_META_VERSION */
    uint32_t header_size;       /* sizeof(struct simt_meta_header) */
    uint32_t nkernels;
    uint32_t kernel_offset;     /* first struct simt_meta_kernel */
    uint32_t kernel_size;       /* bytes per kernel record */
    uint32_t code_start;        /* address of live[0] */
    uint32_t code_end;          /* (code_end - code_start) / 4 masks */
    uint32_t live_offset;       /* uint64_t live[], 4-byte aligned */
    uint32_t strtab_offset;
    uint32_t strtab_size;
    uint32_t pp_offset;         /* uint32_t pp[], ascending pcs */
    uint32_t pp_count;
    uint32_t pp_interval;       /* K of the placement rule below */
};

/*
 * Preemption points (seed 004's selective preemption): pcs where a warp
 * may be stopped when only those are allowed.  One per innermost loop
 * (its barrier if it has one, else its instruction with the fewest live
 * registers) and one per pp_interval instructions of code outside such
 * loops.  The live table allows stopping at any instruction; this list
 * is for the bounded drain of selective preemption (the LAUNCH's pp_addr,
 * the context's PP_DRAIN in simt-hw.h).
 */

/* struct simt_meta_kernel.flags */
#define SIMT_META_F_IDEMPOTENT      (1u << 0) /* see idempotence below */
#define SIMT_META_F_ATOMICS         (1u << 1) /* may execute lr/sc/amo */
#define SIMT_META_F_GLOBAL_STORES   (1u << 2) /* may store outside windows */
#define SIMT_META_F_BARRIER         (1u << 3) /* may execute a barrier */
#define SIMT_META_F_CALLS           (1u << 4) /* calls other functions */
#define SIMT_META_F_WARP_OPS        (1u << 5) /* vote, shuffle, warp sync */

/*
 * Pointer provenance masks (load_origins, store_origins): which values
 * global load and store addresses may derive from.  Bit n < 8 is the
 * kernel argument in an; the others are below.
 */
#define SIMT_ORIGIN_ARGS            0xffu
#define SIMT_ORIGIN_IMAGE           (1u << 8) /* constant addresses */
#define SIMT_ORIGIN_UNKNOWN         (1u << 9) /* loaded or computed values */

/*
 * Idempotence: SIMT_META_F_IDEMPOTENT is set when no atomic is reachable,
 * no global store address has an unknown origin, and no origin is both
 * stored through and loaded through.  Re-running a block from its start
 * then gives the same result provided the buffers passed in the
 * store_origins arguments do not overlap those in load_origins, which
 * the launcher knows and must check.  When unsure the flag is clear.
 */
struct simt_meta_kernel {
    uint32_t name;              /* offset in the string table */
    uint32_t entry;             /* address of the kernel function */
    uint32_t code_start;        /* range of the code it can reach */
    uint32_t code_end;
    uint32_t int_regs_used;     /* bit n: xn read or written */
    uint32_t fp_regs_used;      /* bit n: fn read or written */
    /* static shared memory per block: all of the image's, 0 if unused */
    uint32_t shared_bytes;
    uint32_t local_bytes;       /* stack per thread, multiple of 16 */
    uint32_t flags;             /* SIMT_META_F_* */
    uint32_t load_origins;      /* SIMT_ORIGIN_* of global loads */
    uint32_t store_origins;     /* SIMT_ORIGIN_* of global stores */
    uint32_t insn_count;        /* instructions in the reachable code */
};

#endif /* SIMT_ISA_H */
