/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt unit tests: TAP output, RV32 instruction encoders, and a harness
 * that runs hand-assembled programs on the warp interpreter over a flat
 * memory.
 */
#ifndef SIMT_UNIT_HARNESS_H
#define SIMT_UNIT_HARNESS_H

#include "qemu/osdep.h"
#include "hw/simt/simt-core.h"
#include "hw/simt/simt-fpu.h"
#include "../tap.h"
#include "../rv32-enc.h"

/* TAP (tests/tap.h) */
#define ok(...)             tap_check(__VA_ARGS__)
#define done_testing()      tap_done()

/*
 * With SIMT_NO_AVX2 set on an x86 host (make check runs test-fpu and
 * test-fast so once more), one test: the core and the fp32 unit take
 * their baseline builds.  Otherwise a diagnostic says which they take.
 * Inline: each test program counts its own tests (tests/tap.h).
 */
static inline void check_host_builds(void)
{
#ifdef HOST_X86_64
    const unsigned all = SIMT_HOST_AVX2 | SIMT_HOST_FMA | SIMT_HOST_BMI;
    const char *no = getenv("SIMT_NO_AVX2");
    unsigned host = simt_host_x86();

    if (no && *no && strcmp(no, "0")) {
        ok(host == 0, "SIMT_NO_AVX2=%s: the core and the fp32 unit take "
           "their baseline builds, as on a host without AVX2", no);
        return;
    }
    tap_diag("the core's loop: the %s build (host extensions 0x%x of 0x%x)",
             (host & all) == all ? "AVX2" : "baseline", host, all);
#else
    tap_diag("the core's loop: the baseline build (not an x86-64 host)");
#endif
}

/* xorshift64: the next pseudo-random 32 bits of *state (not 0) */
uint32_t xorshift(uint64_t *state);


/* A program under construction */
typedef struct Prog {
    uint32_t w[4096];
    unsigned n;
} Prog;

unsigned emit(Prog *p, uint32_t w);
void emit_li(Prog *p, unsigned rd, uint32_t v);
/* Byte offset from instruction @from to instruction @to */
static inline int32_t rel(unsigned from, unsigned to)
{
    return ((int32_t)to - (int32_t)from) * 4;
}

/* Flat test memory: code, data and local memory in one buffer at 0. */
#define T_MEM_SIZE      (4u << 20)
#define T_CODE          0x1000u
#define T_DATA          0x100000u
#define T_LOCAL         0x300000u

typedef struct Machine {
    uint8_t *mem;
    SimtMem m;
    SimtLaunch l;
    SimtGridResult r;
} Machine;

/* Fresh zeroed machine; launch is 1 block of @threads threads. */
void machine_init(Machine *mc, unsigned threads);
void machine_load(Machine *mc, const Prog *p);
int machine_run(Machine *mc);
void machine_free(Machine *mc);
uint32_t rd32(Machine *mc, uint32_t addr);
void wr32(Machine *mc, uint32_t addr, uint32_t v);

/*
 * Run one instruction for @n lanes (n <= 32): lane i has x6/f6 = a[i],
 * x7/f7 = b[i], f8 = c[i], frm = @frm; the instruction writes x10 or f10,
 * both start as 0xdeadbeef.  Returns the fault; fills out_x, out_f and
 * flags (fflags after the instruction) per lane.
 */
int run_op(uint32_t insn, unsigned n, const uint32_t *a, const uint32_t *b,
           const uint32_t *c, unsigned frm, uint32_t *out_x, uint32_t *out_f,
           uint32_t *flags);
/* run_body() memory holds pattern_byte(k) at T_PATTERN + k */
#define T_PATTERN       (T_DATA + 0x1000)
#define T_PATTERN_SIZE  256
static inline uint8_t pattern_byte(unsigned k)
{
    return k * 0x35 + 0x81;
}

/* The same with a sequence of @len instructions in place of one */
int run_body(const uint32_t *body, unsigned len, unsigned n,
             const uint32_t *a, const uint32_t *b, const uint32_t *c,
             unsigned frm, uint32_t *out_x, uint32_t *out_f, uint32_t *flags);

#endif /* SIMT_UNIT_HARNESS_H */
