/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt: emulation speed of the warp interpreter on one host core, in
 * thread-instructions per second, for an ALU-bound, a memory-bound (also
 * through a page table, as in a translated context), a divergent and an
 * fp32 kernel (hand-assembled, so nothing but the core is needed).
 * Time is this process's CPU time, so that other load on a shared machine
 * does not count against the interpreter.
 *
 * Run with `make bench`, or without make:
 *   meson setup build/host && ninja -C build/host \
 *       && build/host/bench/simt-core-bench [core_alu|core_mem|...]
 */

#include "qemu/osdep.h"
#include <time.h>
#include "hw/simt/simt-core.h"
#include "simt-xlate.h"
#include "rv32-enc.h"

#define MEM_SIZE    (16u << 20)
#define CODE        0x1000u
#define DATA        0x100000u
#define LOCAL       0xe00000u

typedef struct Prog {
    uint32_t w[256];
    unsigned n;
} Prog;

static unsigned emit(Prog *p, uint32_t w)
{
    p->w[p->n] = w;
    return p->n++;
}


/*
 * Set for --riscv-linux: the kernels as plain riscv32 code, their thread
 * index from x27, where the program that calls them keeps it.
 */
static bool linux_user;

/* x5 = global thread index */
static void thread_index(Prog *p)
{
    if (linux_user) {
        /* as many instructions as the device's prologue */
        emit(p, ADDI(5, 27, 0));
        for (int i = 0; i < 4; i++) {
            emit(p, ADDI(0, 0, 0));
        }
        return;
    }
    emit(p, CSRR(5, SIMT_CSR_TID_X));
    emit(p, CSRR(6, SIMT_CSR_CTAID_X));
    emit(p, CSRR(7, SIMT_CSR_NTID_X));
    emit(p, MUL(6, 6, 7));
    emit(p, ADD(5, 5, 6));
}

/* 16 dependent-chain ALU operations per iteration, 1000 iterations */
static void kernel_alu(Prog *p)
{
    unsigned top;

    thread_index(p);
    emit(p, ADDI(8, 0, 1000));
    emit(p, ADDI(9, 5, 7));
    top = emit(p, ADD(22, 9, 5));
    emit(p, XOR(11, 22, 9));
    emit(p, SLLI(12, 11, 3));
    emit(p, SUB(13, 12, 22));
    emit(p, OR(14, 13, 5));
    emit(p, AND(15, 14, 11));
    emit(p, SRLI(16, 15, 2));
    emit(p, ADD(9, 16, 12));
    emit(p, ADDI(17, 9, 13));
    emit(p, XOR(18, 17, 14));
    emit(p, SLTU(19, 18, 9));
    emit(p, ADD(9, 9, 19));
    emit(p, SUB(20, 9, 18));
    emit(p, ANDI(21, 20, 0x7f));
    emit(p, ADD(9, 9, 21));
    emit(p, ADDI(8, 8, -1));
    emit(p, BNE(8, 0, ((int)top - (int)p->n) * 4));
    emit(p, SLLI(5, 5, 2));
    emit(p, ADD(5, 5, 10));
    emit(p, SW(9, 5, 0));
    emit(p, RET);
}

/* out[i] = in[i] + in[i + n]... : 4 loads, 1 store per 10 instructions */
static void kernel_mem(Prog *p)
{
    unsigned top;

    thread_index(p);
    emit(p, SLLI(5, 5, 2));
    emit(p, ADD(6, 5, 10));             /* in + 4 * i */
    emit(p, ADD(7, 5, 11));             /* out + 4 * i */
    emit(p, ADDI(8, 0, 100));           /* 100 rounds */
    top = emit(p, LW(12, 6, 0));
    emit(p, LW(13, 6, 4));
    emit(p, LW(14, 6, 8));
    emit(p, LW(15, 7, 0));
    emit(p, ADD(12, 12, 13));
    emit(p, ADD(14, 14, 15));
    emit(p, ADD(12, 12, 14));
    emit(p, SW(12, 7, 0));
    emit(p, ADDI(8, 8, -1));
    emit(p, BNE(8, 0, ((int)top - (int)p->n) * 4));
    emit(p, RET);
}

/*
 * fp32: 8 fused multiply-adds, an add and a multiply per iteration, on
 * values that stay normal (no overflow, NaN or subnormal shortcuts).
 */
static void kernel_fp(Prog *p)
{
    unsigned top, k;

    thread_index(p);
    emit(p, ADDI(5, 5, 1));
    emit(p, FCVT_S_W(1, 5, RM_DYN));
    emit(p, ADDI(6, 0, 3));
    emit(p, FCVT_S_W(2, 6, RM_DYN));
    emit(p, FDIV(2, 1, 2, RM_DYN));
    emit(p, FDIV(2, 2, 1, RM_DYN));             /* 1/3, rounded */
    emit(p, FMUL(3, 1, 2, RM_DYN));
    emit(p, ADDI(8, 0, 500));
    top = emit(p, FMADD(4, 1, 2, 3, RM_DYN));
    for (k = 0; k < 7; k++) {
        emit(p, FMADD(5 + k, 4 + k, 2, 1, RM_DYN));
    }
    emit(p, FADD(3, 11, 3, RM_DYN));
    emit(p, FMUL(12, 3, 2, RM_DYN));
    emit(p, ADDI(8, 8, -1));
    emit(p, BNE(8, 0, ((int)top - (int)p->n) * 4));
    emit(p, SLLI(5, 5, 2));
    emit(p, ADD(5, 5, 10));
    emit(p, FSW(3, 5, 0));
    emit(p, RET);
}

/*
 * Per-lane trip counts (100 + lane * 8) and an if/else on a data bit in
 * the loop body: the warp runs diverged most of the time.
 */
static void kernel_divergent(Prog *p)
{
    unsigned top, br, jmp, join;

    thread_index(p);
    emit(p, CSRR(6, SIMT_CSR_LANEID));
    emit(p, SLLI(8, 6, 3));
    emit(p, ADDI(8, 8, 100));
    emit(p, ADDI(9, 5, 1));
    top = emit(p, ANDI(12, 9, 4));
    br = emit(p, 0);
    emit(p, ADD(9, 9, 6));
    emit(p, XOR(9, 9, 8));
    emit(p, SLLI(13, 9, 1));
    emit(p, ADD(9, 9, 13));
    jmp = emit(p, 0);
    emit(p, SUB(9, 9, 6));              /* else branch */
    emit(p, SRLI(13, 9, 1));
    emit(p, XOR(9, 9, 13));
    emit(p, ADDI(9, 9, 3));
    join = emit(p, ADDI(8, 8, -1));
    emit(p, BNE(8, 0, ((int)top - (int)p->n) * 4));
    p->w[br] = BEQ(12, 0, ((int)jmp + 1 - (int)br) * 4);
    p->w[jmp] = J(((int)join - (int)jmp) * 4);
    emit(p, SLLI(5, 5, 2));
    emit(p, ADD(5, 5, 10));
    emit(p, SW(9, 5, 0));
    emit(p, RET);
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * Run the kernel until at least 0.5 s have passed; thread-insn/s, and
 * the instructions one thread runs in *per_thread.
 */
static double measure(void (*kernel)(Prog *), uint8_t *mem, unsigned blocks,
                      bool translated, uint64_t *per_thread)
{
    static Prog p;
    static Xlate x;
    SimtMem m = { .flat = mem, .flat_size = MEM_SIZE };

    if (translated) {
        /* as in a translated context: a lookup on every access */
        xlate_identity(&x, mem, MEM_SIZE);
        m = xlate_mem(&x);
    }
    SimtLaunch l = {
        .entry = CODE, .code_base = CODE,
        .block_dim = { 256, 1, 1 }, .grid_dim = { blocks, 1, 1 },
        .local_size = 64,
        .args = { DATA, DATA + 0x400000 },
    };
    SimtGridResult r;
    uint64_t insns = 0;
    double t0 = now(), t;

    p.n = 0;
    kernel(&p);
    memcpy(mem + CODE, p.w, p.n * 4);
    l.code_size = p.n * 4;
    do {
        if (simt_run_grid(&l, &m, LOCAL, UINT64_MAX, &r)) {
            fprintf(stderr, "bench: kernel fault %s at 0x%x\n",
                    simt_fault_name(r.fault), r.fault_pc);
            exit(1);
        }
        insns += r.thread_insns;
        t = now() - t0;
    } while (t < 0.5);
    *per_thread = r.thread_insns / (blocks * l.block_dim[0]);
    return insns / t;
}

/*
 * The kernel as a static riscv32 Linux program (GNU assembler source) that
 * runs it for @threads threads one after another, for qemu-riscv32: the
 * same instruction stream as on the device, one thread at a time.
 */
static void print_linux_program(void (*kernel)(Prog *), uint64_t per_thread,
                                unsigned threads)
{
    static Prog p;

    linux_user = true;
    p.n = 0;
    kernel(&p);
    printf("# insns_per_thread %" PRIu64 "\n", per_thread);
    printf("# threads %u\n", threads);
    printf("\t.text\n\t.globl _start\n_start:\n"
           "\tlla x10, buf\n\tli x11, 0x400000\n\tadd x11, x11, x10\n"
           "\tli x27, 0\n\tli x26, %u\n"
           "1:\tcall kernel\n\taddi x27, x27, 1\n\tbne x27, x26, 1b\n"
           "\tli x10, 0\n\tli x17, 93\n\tecall\n"
           "\t.balign 4\nkernel:\n", threads);
    for (unsigned i = 0; i < p.n; i++) {
        printf("\t.word 0x%08x\n", p.w[i]);
    }
    /* outputs of every thread, and the memory kernel's input words */
    printf("\t.bss\n\t.balign 16\nbuf:\t.space %u\n",
           0x400000 + 4 * threads + 64);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*kernel)(Prog *);
        unsigned blocks;
        bool translated;
    } benches[] = {
        { "core_alu", kernel_alu, 16, false },
        { "core_mem", kernel_mem, 64, false },
        { "core_mem_mmu", kernel_mem, 64, true },
        { "core_divergent", kernel_divergent, 16, false },
        { "core_fp", kernel_fp, 16, false },
    };
    double mem_bare = 0;
    uint8_t *mem = calloc(1, MEM_SIZE);
    bool program = argc == 4 && !strcmp(argv[1], "--riscv-linux");
    const char *pick = program ? argv[2] : argc > 1 ? argv[1] : NULL;
    unsigned i, found = 0;
    uint64_t per_thread;

    if (!mem) {
        return 1;
    }
    if ((argc > 2 && !program) || (program && atoi(argv[3]) < 1)) {
        fprintf(stderr, "usage: simt-core-bench [NAME]\n"
                "       simt-core-bench --riscv-linux NAME THREADS\n");
        return 2;
    }
    /* An argument picks one benchmark, e.g. for perf. */
    for (i = 0; i < sizeof(benches) / sizeof(benches[0]); i++) {
        double rate;

        if (pick && strcmp(pick, benches[i].name)) {
            continue;
        }
        found++;
        rate = measure(benches[i].kernel, mem, benches[i].blocks,
                       benches[i].translated, &per_thread);
        if (program) {
            print_linux_program(benches[i].kernel, per_thread,
                                atoi(argv[3]));
            continue;
        }
        printf("bench %s: %.3e thread-insn/s\n", benches[i].name, rate);
        if (!strcmp(benches[i].name, "core_mem")) {
            mem_bare = rate;
        } else if (benches[i].translated && mem_bare) {
            /* the same kernel bare over translated, from this run */
            printf("bench core_mem_mmu_slowdown: %.2f ratio\n",
                   mem_bare / rate);
        }
    }
    free(mem);
    if (!found) {
        fprintf(stderr, "simt-core-bench: no benchmark '%s'\n", pick);
        return 2;
    }
    return 0;
}
