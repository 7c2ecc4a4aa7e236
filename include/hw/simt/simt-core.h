/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt: the warp interpreter (RV32IMAF + Zicsr lanes, SIMT extension).
 *
 * Plain C with no QEMU types, so that the same files run inside the device
 * and in the standalone unit tests and benchmark.  The architectural state
 * of a block (SimtBlockState, SimtWarp, shared memory bytes) holds no host
 * pointers: a preempting device may copy it out and back in verbatim.  The
 * host-side bindings (memory interface, predecode cache) live beside it in
 * SimtBlock and are re-attached on restore.
 */
#ifndef HW_SIMT_CORE_H
#define HW_SIMT_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/simt/simt-isa.h"

#define SIMT_MAX_BLOCK_THREADS      1024
#define SIMT_MAX_BLOCK_WARPS        (SIMT_MAX_BLOCK_THREADS / SIMT_WARP_SIZE)
#define SIMT_FULL_MASK              0xffffffffu

/*
 * Global memory as the lanes see it.  Local memory (SIMT_LOCAL_BASE
 * window) is relocated into global memory and uses the same interface;
 * shared memory is the block's own buffer and never comes here.
 *
 * An access of @size bytes (1, 2 or 4, naturally aligned) at @addr is
 * served from @flat when it lies inside [flat_base, flat_base + flat_size),
 * else by @ops, else it faults with SIMT_FAULT_ACCESS.  Callbacks return
 * SIMT_FAULT_NONE, or the fault to record (SIMT_FAULT_ACCESS,
 * SIMT_FAULT_PAGE).  Values are little-endian, zero-extended to 32 bits.
 * Instructions are fetched through the same interface (4-byte loads) when
 * first decoded.
 */
typedef struct SimtMemOps {
    int (*load)(void *opaque, uint32_t addr, unsigned size, uint32_t *val);
    int (*store)(void *opaque, uint32_t addr, unsigned size, uint32_t val);
    /* Instruction fetch (4 bytes); NULL: fetch with @load. */
    int (*fetch)(void *opaque, uint32_t addr, uint32_t *val);
    /*
     * Optional: host memory for the whole SIMT_MEM_PAGE_SIZE page at
     * @addr (aligned), for @lanes loads (or stores) that would each
     * succeed through @load (@store) without any other effect than
     * @lanes translations, which it counts; else NULL and no effect, and
     * each lane goes through @load or @store.
     */
    uint8_t *(*page)(void *opaque, uint32_t addr, bool store,
                     unsigned lanes);
} SimtMemOps;

#define SIMT_MEM_PAGE_SIZE          4096u

typedef struct SimtMem {
    uint8_t *flat;
    uint32_t flat_base;
    uint32_t flat_size;
    const SimtMemOps *ops;
    void *opaque;
} SimtMem;

/* One kernel launch: constant for all its blocks. */
typedef struct SimtLaunch {
    uint32_t entry;                 /* first instruction of every thread */
    uint32_t code_base;             /* fetchable code: [base, base + size) */
    uint32_t code_size;
    uint32_t block_dim[3];
    uint32_t grid_dim[3];
    uint32_t shared_size;           /* shared bytes per block */
    uint32_t local_size;            /* local bytes per thread, 16-aligned */
    uint32_t args[SIMT_ARG_REGS];   /* a0..a7 at entry */
} SimtLaunch;

/* Where one block runs. */
typedef struct SimtBlockDesc {
    uint32_t block_idx[3];
    uint32_t smid;
    /*
     * Global address of this block's local memory: thread t (linear index
     * in the block) owns [local_addr + t * local_size, + local_size), seen
     * by the thread at SIMT_LOCAL_BASE.
     */
    uint32_t local_addr;
} SimtBlockDesc;

/*
 * One warp's architectural state.  Registers are stored register-major
 * (x[reg][lane]) so that one instruction is a contiguous per-lane loop.
 * Lanes beyond the block's thread count start (and stay) in @exited.
 */
typedef struct SimtWarp {
    uint32_t x[32][SIMT_WARP_SIZE];
    uint32_t f[32][SIMT_WARP_SIZE];     /* fp32 bit patterns */
    uint32_t pc[SIMT_WARP_SIZE];
    uint32_t fcsr[SIMT_WARP_SIZE];      /* frm << 5 | fflags */
    uint32_t resv_addr[SIMT_WARP_SIZE]; /* lr.w reservation: address */
    uint32_t resv_val[SIMT_WARP_SIZE];  /* ... and the value loaded */
    uint32_t resv_mask;                 /* lanes holding a reservation */
    uint32_t exited;                    /* lanes that have finished */
    uint32_t waiting;                   /* lanes waiting at a barrier */
    /*
     * Lanes waiting at a warp sync (SIMT_F3_WSYNC).  Their pc is the
     * instruction's own and their rs1 still holds their mask, so the
     * state needs nothing else to be saved and restored.
     */
    uint32_t wsync;
    uint32_t warp_id;
    uint64_t instret;                   /* warp instructions issued */
} SimtWarp;

typedef enum SimtStatus {
    SIMT_RUNNING = 0,   /* budget used up, or waiting: call again */
    SIMT_DONE,          /* every thread exited */
    SIMT_FAULTED,       /* stopped: see fault fields */
} SimtStatus;

/* Per-block architectural state besides warps and shared memory. */
typedef struct SimtBlockState {
    SimtBlockDesc desc;
    uint32_t nthreads;
    uint32_t nwarps;
    uint32_t nexited;           /* threads exited */
    uint32_t nwaiting;          /* threads waiting at the barrier */
    uint32_t next_warp;         /* round-robin cursor of simt_block_run */
    uint32_t status;            /* SimtStatus */
    uint32_t fault;             /* enum simt_fault */
    uint32_t fault_pc;
    uint32_t fault_addr;        /* data address, for memory faults */
    uint32_t fault_warp;
    uint32_t fault_lane;        /* lowest faulting lane */
    uint32_t barriers;          /* barriers completed */
    /*
     * Set by the first store or atomic outside shared and local memory:
     * from then on re-running the block from its start (a flush) could
     * change results.
     */
    uint32_t wrote_global;
    uint64_t cycle;             /* cycle CSR: + the cost of each warp insn */
    uint64_t warp_insns;        /* warp instructions executed */
    uint64_t thread_insns;      /* sum over them of active lanes */
} SimtBlockState;

/* Predecoded instruction; internal layout, see simt-core.c. */
typedef struct SimtInsn SimtInsn;

/* Instruction classes of the timing model. */
typedef enum SimtInsnClass {
    SIMT_IC_ALU,        /* integer ALU, lui/auipc, fp moves and sign ops */
    SIMT_IC_BRANCH,     /* branches and jumps */
    SIMT_IC_MUL,        /* mul, mulh* */
    SIMT_IC_DIV,        /* div*, rem* */
    SIMT_IC_FPU,        /* fp add, mul, fma, compare, convert, min/max */
    SIMT_IC_FDIV,       /* fdiv.s, fsqrt.s */
    SIMT_IC_MEM,        /* loads and stores */
    SIMT_IC_ATOMIC,     /* lr, sc, amo* */
    SIMT_IC_SYNC,       /* barrier, exit, vote, shuffle, csr, fence */
    SIMT_IC_NR,
} SimtInsnClass;

/*
 * What instructions cost, in cycles of the issuing SM.
 *
 * Without per-warp timing state (SimtBlock.wtiming NULL: the unit tests
 * and host tools) a warp instruction costs cost[class], and a load, store
 * or atomic outside shared memory (judged by its first active lane's
 * address) global_cost more, plus byte_cost_fx16 / 65536 cycles per byte
 * its lanes move, all added to the block's clock.
 *
 * With it (the device: docs/specs/simt.rst, "Timing model") cost[class]
 * is what the instruction takes of its issue port, and its result is
 * ready latency[class] cycles after it issued (for memory classes: in
 * shared memory); a warp's instruction issues once the results it reads
 * are ready.  An access outside shared memory also takes its bytes from
 * the SM's memory pipe at byte_cost_fx16 / 65536 cycles per byte, and its
 * result is ready global_latency (atomics: global_atomic_latency) cycles
 * after the pipe has moved them; while the pipe is taken more than
 * global_latency cycles ahead, the warp waits that much longer to issue
 * (the SM holds only so many requests in flight, so that a store, whose
 * result nobody waits for, cannot run ahead of the bandwidth).  With
 * @global_as_shared every access costs what one in shared memory does.
 */
typedef struct SimtTiming {
    uint8_t cost[SIMT_IC_NR];
    uint16_t latency[SIMT_IC_NR];
    uint32_t global_cost;
    uint32_t byte_cost_fx16;
    uint32_t global_latency;
    uint32_t global_atomic_latency;
    bool global_as_shared;
} SimtTiming;

/* x0..x31, f0..f31, and a sink for instructions that write nothing. */
#define SIMT_TIMING_REGS        65

/*
 * The timing state of one warp, in device cycles: when it may issue
 * again (the end of its last burst, or the barrier that released it),
 * and when each register's pending result is ready.  Not architectural:
 * a saved block's results have all arrived by the time it is saved, so
 * a restored one starts with this zeroed.
 */
typedef struct SimtWarpTiming {
    uint64_t ready;
    uint64_t reg[SIMT_TIMING_REGS];
} SimtWarpTiming;

/*
 * What the interpreter learnt of the timing of a steady loop in a block's
 * code (simt-core.c, tier_loop()), to run its turns without timing each
 * instruction: a function of the code alone, kept with the block and not
 * part of its state.  simt_block_init() empties it; so must whoever
 * points a block at other code.
 */
typedef struct SimtLoopTiming {
    const SimtInsn *head;       /* the loop's first instruction, or NULL */
    uint32_t n;                 /* its instructions, the last branching back */
    uint32_t reads, writes;     /* x registers: read before written, written */
    uint64_t turn;              /* cycles a turn takes */
    uint64_t issued;            /* of them, its issue costs */
    uint64_t last;              /* when its last instruction issues */
    uint64_t rel[32];           /* reads' readiness, after a turn starts */
    uint64_t wrel[32];          /* writes' readiness, after it starts */
    uint64_t sink;              /* the sink's */
} SimtLoopTiming;

/*
 * Predecode cache over a launch's code range.  Entries are decoded on first
 * execution; call simt_code_invalidate() whenever code memory changes.
 */
typedef struct SimtCode {
    uint32_t base;
    uint32_t size;
    SimtInsn *insns;
    /* NULL: every instruction costs one cycle.  Set before running. */
    const SimtTiming *timing;
    /*
     * Every instruction on its reference path, none on a fast path: the
     * differential tests compare the two.  False after simt_code_init.
     */
    bool reference;
} SimtCode;

/* A lane's data access, as a checking runner sees it. */
typedef enum SimtCheckAccess {
    SIMT_CHECK_LOAD,
    SIMT_CHECK_STORE,
    SIMT_CHECK_ATOMIC,          /* lr.w, sc.w, amo*.w */
} SimtCheckAccess;

struct SimtBlock;

/*
 * Hooks of a checking runner (the host runner's --check), or NULL: the
 * device has none.  With them every lane's access takes the per-lane
 * path, in lane order, so each is seen before it is made.
 */
typedef struct SimtCheckOps {
    /*
     * Before lane @lane of warp @warp accesses @size bytes at @addr (the
     * address the thread computed: shared, local or global) for the
     * instruction at @pc; @val is what a store writes.  Returns
     * SIMT_FAULT_NONE, or the fault that stops the block instead.
     */
    int (*access)(void *opaque, const struct SimtBlock *b, unsigned warp,
                  unsigned lane, uint32_t pc, uint32_t addr, unsigned size,
                  SimtCheckAccess kind, uint32_t val);
    /* Lanes @group of warp @warp run the vote or shuffle at @pc. */
    void (*warp_op)(void *opaque, const struct SimtBlock *b, unsigned warp,
                    uint32_t pc, uint32_t group);
} SimtCheckOps;

typedef struct SimtBlock {
    SimtBlockState st;
    SimtWarp *warps;            /* st.nwarps entries, owned by the caller */
    uint8_t *shared;            /* launch->shared_size bytes, caller's */
    const SimtLaunch *launch;
    SimtCode *code;
    const SimtMem *mem;
    /*
     * The latency model (see SimtTiming), or NULL: st.nwarps entries and
     * the SM's memory pipe (the cycle it is busy until), the caller's.
     * simt_warp_run() stops before an instruction (not its first) that
     * would issue at issue_limit or later, leaving st.cycle at that
     * cycle, and adds the issue costs of what it ran to issue_cycles.
     */
    SimtWarpTiming *wtiming;
    uint64_t *mem_pipe;
    uint64_t issue_limit;
    uint64_t issue_cycles;
    /*
     * Preemption points (seed 004's selective preemption), or NULL:
     * @stop_count ascending pcs.  simt_warp_run() then stops before the
     * warp would issue an instruction at one of them (before its first,
     * too) and sets @stopped; it clears @stopped otherwise.
     */
    const uint32_t *stop_pcs;
    uint32_t stop_count;
    bool stopped;
    /* Set after simt_block_init() to check the block's accesses. */
    const SimtCheckOps *check;
    void *check_opaque;
    SimtLoopTiming loop_timing;
} SimtBlock;

typedef struct SimtGridResult {
    uint32_t fault;             /* enum simt_fault, SIMT_FAULT_NONE = ok */
    uint32_t fault_pc;
    uint32_t fault_addr;
    uint32_t fault_block[3];
    uint32_t fault_warp;
    uint32_t fault_lane;
    uint64_t warp_insns;
    uint64_t thread_insns;
} SimtGridResult;

/* NULL if @l is runnable, else why not. */
const char *simt_launch_check(const SimtLaunch *l);
uint32_t simt_launch_threads(const SimtLaunch *l);  /* per block */
uint32_t simt_launch_warps(const SimtLaunch *l);    /* per block */

/* 0 on success, -1 if @size is not a multiple of 4 or out of memory. */
int simt_code_init(SimtCode *code, uint32_t base, uint32_t size);
void simt_code_invalidate(SimtCode *code);
/*
 * Decode every instruction of @code's range now, fetched through @mem, so
 * that blocks running on several host threads only read the cache.
 */
void simt_code_decode_all(SimtCode *code, const SimtMem *mem);
void simt_code_destroy(SimtCode *code);

/*
 * Start a block: every thread at l->entry with the entry convention of
 * simt-isa.h.  @warps holds simt_launch_warps(l) entries and @shared
 * l->shared_size bytes (zeroed here).  @l must pass simt_launch_check();
 * @l, @code, @mem, @warps and @shared must outlive the block.
 */
void simt_block_init(SimtBlock *b, const SimtLaunch *l,
                     const SimtBlockDesc *desc, SimtCode *code,
                     const SimtMem *mem, SimtWarp *warps, uint8_t *shared);

/*
 * Run warp @warp of @b for at most @budget warp instructions, until it
 * exits, waits at a barrier, or the block faults.  Returns the number of
 * warp instructions executed.  Barrier release is handled here, so warps
 * may be driven in any order.
 */
uint64_t simt_warp_run(SimtBlock *b, unsigned warp, uint64_t budget);

/*
 * Run @b's warps round robin (each for a short quantum) for at most
 * @budget warp instructions in total.  Returns b->st.status.
 */
SimtStatus simt_block_run(SimtBlock *b, uint64_t budget);

/*
 * Convenience for tests and benchmarks: run every block of @l in order,
 * each to completion, on @mem.  Local memory of the running block is placed
 * at @local_addr (simt_launch_threads(l) * l->local_size bytes).  More than
 * @max_warp_insns warp instructions in total is SIMT_FAULT_WATCHDOG.
 * Returns res->fault, or -1 if @l fails simt_launch_check() or memory
 * runs out.
 */
int simt_run_grid(const SimtLaunch *l, const SimtMem *mem,
                  uint32_t local_addr, uint64_t max_warp_insns,
                  SimtGridResult *res);

const char *simt_fault_name(int fault);

#endif /* HW_SIMT_CORE_H */
