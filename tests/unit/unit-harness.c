/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt unit tests: the shared program harness.
 */

#include "unit-harness.h"

unsigned emit(Prog *p, uint32_t w)
{
    assert(p->n < sizeof(p->w) / sizeof(p->w[0]));
    p->w[p->n] = w;
    return p->n++;
}

void emit_li(Prog *p, unsigned rd, uint32_t v)
{
    uint32_t lo = v & 0xfff;
    uint32_t hi = v - (lo >= 0x800 ? lo - 0x1000 : lo);

    emit(p, LUI(rd, hi));
    emit(p, ADDI(rd, rd, (int32_t)(lo << 20) >> 20));
}

void machine_init(Machine *mc, unsigned threads)
{
    memset(mc, 0, sizeof(*mc));
    mc->mem = calloc(1, T_MEM_SIZE);
    assert(mc->mem);
    mc->m.flat = mc->mem;
    mc->m.flat_size = T_MEM_SIZE;
    mc->l.entry = T_CODE;
    mc->l.code_base = T_CODE;
    mc->l.block_dim[0] = threads;
    mc->l.block_dim[1] = mc->l.block_dim[2] = 1;
    mc->l.grid_dim[0] = mc->l.grid_dim[1] = mc->l.grid_dim[2] = 1;
    mc->l.local_size = 256;
    mc->l.shared_size = 4096;
}

void machine_load(Machine *mc, const Prog *p)
{
    memcpy(mc->mem + T_CODE, p->w, p->n * 4);
    mc->l.code_size = p->n * 4;
}

int machine_run(Machine *mc)
{
    return simt_run_grid(&mc->l, &mc->m, T_LOCAL, 10000000, &mc->r);
}

void machine_free(Machine *mc)
{
    free(mc->mem);
    mc->mem = NULL;
}

uint32_t rd32(Machine *mc, uint32_t addr)
{
    uint32_t v;

    memcpy(&v, mc->mem + addr, 4);
    return v;
}

void wr32(Machine *mc, uint32_t addr, uint32_t v)
{
    memcpy(mc->mem + addr, &v, 4);
}

#define OP_A    (T_DATA + 0x000)
#define OP_B    (T_DATA + 0x100)
#define OP_C    (T_DATA + 0x200)
#define OP_X    (T_DATA + 0x300)
#define OP_F    (T_DATA + 0x400)
#define OP_FL   (T_DATA + 0x500)

static void lane_slot(Prog *p, uint32_t base)
{
    emit_li(p, 9, base);
    emit(p, ADD(9, 9, 5));
}

int run_op(uint32_t insn, unsigned n, const uint32_t *a, const uint32_t *b,
           const uint32_t *c, unsigned frm, uint32_t *out_x, uint32_t *out_f,
           uint32_t *flags)
{
    return run_body(&insn, 1, n, a, b, c, frm, out_x, out_f, flags);
}

int run_body(const uint32_t *body, unsigned len, unsigned n,
             const uint32_t *a, const uint32_t *b, const uint32_t *c,
             unsigned frm, uint32_t *out_x, uint32_t *out_f, uint32_t *flags)
{
    static Prog p;
    Machine mc;
    unsigned i;
    int fault;

    p.n = 0;
    emit(&p, CSRR(5, SIMT_CSR_TID_X));
    emit(&p, SLLI(5, 5, 2));
    lane_slot(&p, OP_A);
    emit(&p, LW(6, 9, 0));
    emit(&p, FLW(6, 9, 0));
    lane_slot(&p, OP_B);
    emit(&p, LW(7, 9, 0));
    emit(&p, FLW(7, 9, 0));
    lane_slot(&p, OP_C);
    emit(&p, FLW(8, 9, 0));
    emit_li(&p, 11, 0xdeadbeef);
    emit(&p, ADD(10, 11, 0));
    emit(&p, FMV_W_X(10, 11));
    emit_li(&p, 11, frm);
    emit(&p, CSRRW(0, 0x002, 11));
    for (i = 0; i < len; i++) {
        emit(&p, body[i]);
    }
    emit(&p, CSRR(12, 0x001));
    lane_slot(&p, OP_X);
    emit(&p, SW(10, 9, 0));
    lane_slot(&p, OP_F);
    emit(&p, FSW(10, 9, 0));
    lane_slot(&p, OP_FL);
    emit(&p, SW(12, 9, 0));
    emit(&p, RET);

    machine_init(&mc, n);
    machine_load(&mc, &p);
    for (i = 0; i < n; i++) {
        wr32(&mc, OP_A + 4 * i, a ? a[i] : 0);
        wr32(&mc, OP_B + 4 * i, b ? b[i] : 0);
        wr32(&mc, OP_C + 4 * i, c ? c[i] : 0);
    }
    for (i = 0; i < T_PATTERN_SIZE; i++) {
        mc.mem[T_PATTERN + i] = pattern_byte(i);
    }
    fault = machine_run(&mc);
    for (i = 0; i < n; i++) {
        if (out_x) {
            out_x[i] = rd32(&mc, OP_X + 4 * i);
        }
        if (out_f) {
            out_f[i] = rd32(&mc, OP_F + 4 * i);
        }
        if (flags) {
            flags[i] = rd32(&mc, OP_FL + 4 * i);
        }
    }
    machine_free(&mc);
    return fault;
}

uint32_t xorshift(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state >> 16;
}
