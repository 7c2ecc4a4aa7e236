/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt-meta analysis: control flow, liveness, stack bound, idempotence.
 *
 * The program is one interprocedural control-flow graph whose nodes are
 * instructions.  A call (jal/jalr with rd = ra) has a single edge, to the
 * callee's entry; a return (jalr x0, 0(ra)) has edges to every return site
 * its function can go back to: the instruction after each call of it, the
 * return sites of functions that tail-call it, and thread exit for a
 * kernel.  Every real execution is a path in this graph, so registers
 * live on the graph include every register a real execution can read:
 * the table may be larger than needed, never smaller.
 */
#include "simt-meta.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rv-decode.h"

enum cf {
    CF_FALL,            /* to the next instruction */
    CF_BRANCH,          /* next or target */
    CF_JUMP,            /* target, same function */
    CF_CALL,            /* callee entry; comes back after the call */
    CF_TAILCALL,        /* callee entry; callee returns for us */
    CF_RET,             /* return sites of the function */
    CF_EXIT,            /* none */
};

/*
 * Pointer provenance bits: SIMT_ORIGIN_* plus two that never reach the
 * note, for addresses in the thread's stack and in shared memory.
 */
#define ORIGIN_LOCAL    (1u << 10)
#define ORIGIN_SHARED   (1u << 11)
#define ORIGIN_EXPORTED (SIMT_ORIGIN_ARGS | SIMT_ORIGIN_IMAGE | \
                         SIMT_ORIGIN_UNKNOWN)

enum sp_state {
    SP_UNSEEN,                  /* not reached from the function entry */
    SP_KNOWN,
    SP_VARIES,                  /* paths disagree: no slot tracking */
};

struct node {
    struct rv_insn d;
    int32_t func;               /* function index, -1 for padding */
    uint8_t cf;                 /* enum cf */
    bool leader;                /* starts a basic block */
    bool rs1_known;             /* rs1's value is a known constant */
    bool rs2_known;
    uint32_t rs1_val;
    uint32_t rs2_val;
    uint32_t target;            /* insn index of branch/jump/call target */
    uint8_t sp_state;           /* enum sp_state, before this insn */
    int32_t sp_off;             /* sp - sp at function entry, if known */
    /* idempotence facts, filled after the provenance fixpoint */
    uint16_t global_load;       /* origins of a global load address */
    uint16_t global_store;      /* origins of a global store address */
    bool global_amo;
};

struct u32vec {
    uint32_t *v;
    uint32_t n;
    uint32_t cap;
};

struct ctx {
    const struct sm_program *p;
    struct node *n;
    struct u32vec *ret_sites;   /* per function: insn indices */
    bool *ret_exit;             /* per function: may return to exit */
    struct u32vec *callees;     /* per function: called/tail-called funcs */
    uint32_t *frame;            /* per function: stack bytes */
    char *err;
    size_t errlen;
};

static int vec_add(struct u32vec *v, uint32_t x)
{
    uint32_t i;

    for (i = 0; i < v->n; i++) {
        if (v->v[i] == x) {
            return 0;
        }
    }
    if (v->n == v->cap) {
        uint32_t cap = v->cap ? v->cap * 2 : 8;
        uint32_t *grown = realloc(v->v, cap * sizeof(*grown));

        if (!grown) {
            return -1;
        }
        v->v = grown;
        v->cap = cap;
    }
    v->v[v->n++] = x;
    return 1;
}

static uint32_t pc_of(const struct ctx *c, uint32_t i)
{
    return c->p->base + 4 * i;
}

static int fail_at(struct ctx *c, uint32_t i, const char *fmt, ...)
{
    const struct sm_func *f = c->n[i].func >= 0 ?
                              &c->p->funcs[c->n[i].func] : NULL;
    char why[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    if (f) {
        snprintf(c->err, c->errlen, "%s: %s+0x%x (pc 0x%08x): %s",
                 c->p->file, f->name, pc_of(c, i) - f->start, pc_of(c, i),
                 why);
    } else {
        snprintf(c->err, c->errlen, "%s: pc 0x%08x: %s", c->p->file,
                 pc_of(c, i), why);
    }
    return -1;
}

static int fail_oom(struct ctx *c)
{
    snprintf(c->err, c->errlen, "%s: out of memory", c->p->file);
    return -1;
}

/* Index of the instruction at @addr, or -1 if it is not in the code. */
static int64_t index_of(const struct ctx *c, uint32_t addr)
{
    const struct sm_program *p = c->p;

    if (addr < p->base || (addr - p->base) / 4 >= p->ninsns ||
        (addr & 3)) {
        return -1;
    }
    return (addr - p->base) / 4;
}

static int check_functions(struct ctx *c)
{
    const struct sm_program *p = c->p;
    uint32_t f, i;

    for (i = 0; i < p->ninsns; i++) {
        c->n[i].func = -1;
    }
    for (f = 0; f < p->nfuncs; f++) {
        const struct sm_func *fn = &p->funcs[f];

        if (fn->start >= fn->end || (fn->start & 3) || (fn->end & 3) ||
            fn->start < p->base ||
            (fn->end - p->base) / 4 > p->ninsns ||
            (f > 0 && fn->start < p->funcs[f - 1].end)) {
            snprintf(c->err, c->errlen,
                     "%s: function %s [0x%08x, 0x%08x) is misaligned, "
                     "outside the code or overlaps another", p->file,
                     fn->name, fn->start, fn->end);
            return -1;
        }
        for (i = (fn->start - p->base) / 4; i < (fn->end - p->base) / 4;
             i++) {
            c->n[i].func = f;
        }
    }
    return 0;
}

static int decode_all(struct ctx *c)
{
    uint32_t i;

    for (i = 0; i < c->p->ninsns; i++) {
        const char *why;

        if (c->n[i].func < 0) {
            continue;
        }
        why = rv_decode(c->p->insns[i], &c->n[i].d);
        if (why) {
            return fail_at(c, i, "cannot decode 0x%08x: %s",
                           c->p->insns[i], why);
        }
    }
    return 0;
}

static void mark_leader(struct ctx *c, uint32_t addr, bool *changed)
{
    int64_t t = index_of(c, addr);

    if (t >= 0 && !c->n[t].leader) {
        c->n[t].leader = true;
        *changed = true;
    }
}

/*
 * Local constant propagation over each basic block: which registers hold
 * a known value (lui/auipc/addi/add/sub chains).  It resolves the
 * auipc+jalr pairs of calls and tail calls and the constants of large
 * stack adjustments.  A resolved indirect jump may reveal a new block
 * start, so it runs until the set of block starts is stable.
 */
static void propagate_constants(struct ctx *c)
{
    const struct sm_program *p = c->p;
    bool changed = true;
    uint32_t i, f;

    for (f = 0; f < p->nfuncs; f++) {
        c->n[(p->funcs[f].start - p->base) / 4].leader = true;
    }
    for (i = 0; i < p->ninsns; i++) {
        const struct node *n = &c->n[i];
        bool dummy;

        if (n->func < 0) {
            continue;
        }
        if (n->d.kind == RV_K_BRANCH || n->d.kind == RV_K_JAL) {
            mark_leader(c, pc_of(c, i) + n->d.imm, &dummy);
        }
        if (n->d.kind != RV_K_PLAIN && i + 1 < p->ninsns) {
            c->n[i + 1].leader = true;
        }
    }

    while (changed) {
        uint32_t val[32] = { 0 };
        uint32_t known = 0;

        changed = false;
        for (i = 0; i < p->ninsns; i++) {
            struct node *n = &c->n[i];
            const struct rv_insn *d = &n->d;
            uint32_t v = 0;
            bool k = false;

            if (n->func < 0) {
                continue;
            }
            if (n->leader) {
                known = 0;
            }
            known |= 1;
            val[0] = 0;
            n->rs1_known = known & (1u << d->rs1);
            n->rs1_val = val[d->rs1];
            n->rs2_known = known & (1u << d->rs2);
            n->rs2_val = val[d->rs2];
            switch (d->op) {
            case RV_OP_LUI:
                v = d->imm;
                k = true;
                break;
            case RV_OP_AUIPC:
                v = pc_of(c, i) + d->imm;
                k = true;
                break;
            case RV_OP_ADDI:
                v = n->rs1_val + d->imm;
                k = n->rs1_known;
                break;
            case RV_OP_ADD:
            case RV_OP_SUB:
                v = d->op == RV_OP_ADD ? n->rs1_val + n->rs2_val :
                                         n->rs1_val - n->rs2_val;
                k = n->rs1_known && n->rs2_known;
                break;
            }
            if (d->rd) {
                val[d->rd] = v;
                known = k ? known | (1u << d->rd) : known & ~(1u << d->rd);
            }
            if (d->kind == RV_K_JALR && n->rs1_known) {
                mark_leader(c, (n->rs1_val + d->imm) & ~1u, &changed);
            }
        }
    }
}

/* The function starting at @addr, or -1. */
static int32_t func_starting_at(const struct ctx *c, uint32_t addr)
{
    int64_t t = index_of(c, addr);

    if (t < 0 || c->n[t].func < 0 ||
        c->p->funcs[c->n[t].func].start != addr) {
        return -1;
    }
    return c->n[t].func;
}

/* Classify a jump or call to @addr with link register @rd. */
static int classify_transfer(struct ctx *c, uint32_t i, uint32_t addr,
                             unsigned rd)
{
    struct node *n = &c->n[i];
    int64_t t = index_of(c, addr);
    int32_t g;

    if (t < 0 || c->n[t].func < 0) {
        return fail_at(c, i, "jump to 0x%08x, which is not code of a "
                       "function", addr);
    }
    n->target = t;
    g = func_starting_at(c, addr);
    if (rd == RV_REG_ZERO) {
        if (c->n[t].func == n->func) {
            n->cf = CF_JUMP;
            return 0;
        }
        if (g < 0) {
            return fail_at(c, i, "jump into the middle of %s",
                           c->p->funcs[c->n[t].func].name);
        }
        n->cf = CF_TAILCALL;
    } else if (rd == RV_REG_RA) {
        if (g < 0) {
            return fail_at(c, i, "call to 0x%08x, which is not the start "
                           "of a function", addr);
        }
        if (i + 1 >= c->p->ninsns || c->n[i + 1].func != n->func) {
            return fail_at(c, i, "call at the end of the function has no "
                           "return site");
        }
        n->cf = CF_CALL;
        if (vec_add(&c->ret_sites[g], i + 1) < 0) {
            return fail_oom(c);
        }
    } else {
        return fail_at(c, i, "link register x%u is not supported (only ra)",
                       rd);
    }
    if (vec_add(&c->callees[n->func], g) < 0) {
        return fail_oom(c);
    }
    return 0;
}

static int build_cfg(struct ctx *c)
{
    const struct sm_program *p = c->p;
    uint32_t i;

    for (i = 0; i < p->ninsns; i++) {
        struct node *n = &c->n[i];
        const struct rv_insn *d = &n->d;
        bool falls = false;

        if (n->func < 0) {
            continue;
        }
        switch (d->kind) {
        case RV_K_PLAIN:
            n->cf = CF_FALL;
            falls = true;
            break;
        case RV_K_EXIT:
            n->cf = CF_EXIT;
            break;
        case RV_K_BRANCH: {
            int64_t t = index_of(c, pc_of(c, i) + d->imm);

            if (t < 0 || c->n[t].func != n->func) {
                return fail_at(c, i, "branch to 0x%08x leaves the function",
                               pc_of(c, i) + d->imm);
            }
            n->cf = CF_BRANCH;
            n->target = t;
            falls = true;
            break;
        }
        case RV_K_JAL:
            if (classify_transfer(c, i, pc_of(c, i) + d->imm, d->rd) < 0) {
                return -1;
            }
            break;
        case RV_K_JALR:
            if (n->rs1_known) {
                if (classify_transfer(c, i, (n->rs1_val + d->imm) & ~1u,
                                      d->rd) < 0) {
                    return -1;
                }
            } else if (d->rd == RV_REG_ZERO && d->rs1 == RV_REG_RA &&
                       d->imm == 0) {
                n->cf = CF_RET;
            } else {
                return fail_at(c, i, "indirect %s through x%u cannot be "
                               "resolved (function pointers and jump tables "
                               "are not supported)",
                               d->rd ? "call" : "jump", d->rs1);
            }
            break;
        }
        if (falls && (i + 1 >= p->ninsns || c->n[i + 1].func != n->func)) {
            return fail_at(c, i, "execution falls off the end of the "
                           "function");
        }
    }
    return 0;
}

/*
 * Where returns of each function go: after its calls, wherever functions
 * that tail-call it return, and to thread exit if it is a kernel.
 */
static int compute_return_sites(struct ctx *c)
{
    const struct sm_program *p = c->p;
    bool changed = true;
    uint32_t f, i, k;

    for (f = 0; f < p->nfuncs; f++) {
        c->ret_exit[f] = p->funcs[f].kernel;
    }
    while (changed) {
        changed = false;
        for (i = 0; i < p->ninsns; i++) {
            const struct node *n = &c->n[i];
            int32_t g;

            if (n->func < 0 || n->cf != CF_TAILCALL) {
                continue;
            }
            f = n->func;
            g = c->n[n->target].func;
            if (c->ret_exit[f] && !c->ret_exit[g]) {
                c->ret_exit[g] = true;
                changed = true;
            }
            for (k = 0; k < c->ret_sites[f].n; k++) {
                int r = vec_add(&c->ret_sites[g], c->ret_sites[f].v[k]);

                if (r < 0) {
                    return fail_oom(c);
                }
                changed |= r > 0;
            }
        }
    }
    return 0;
}

static void compute_liveness(struct ctx *c, uint64_t *live)
{
    const struct sm_program *p = c->p;
    bool changed = true;
    uint32_t i, k;

    for (i = 0; i < p->ninsns; i++) {
        /* Padding never runs; "all live" is the safe answer there. */
        live[i] = c->n[i].func < 0 ? ~RV_X(0) : 0;
    }
    while (changed) {
        changed = false;
        for (i = p->ninsns; i-- > 0;) {
            const struct node *n = &c->n[i];
            uint64_t out = 0, in;

            if (n->func < 0) {
                continue;
            }
            switch (n->cf) {
            case CF_FALL:
                out = live[i + 1];
                break;
            case CF_BRANCH:
                out = live[i + 1] | live[n->target];
                break;
            case CF_JUMP:
            case CF_CALL:
            case CF_TAILCALL:
                out = live[n->target];
                break;
            case CF_RET:
                for (k = 0; k < c->ret_sites[n->func].n; k++) {
                    out |= live[c->ret_sites[n->func].v[k]];
                }
                break;
            case CF_EXIT:
                break;
            }
            in = (n->d.use | (out & ~n->d.def)) & ~RV_X(0);
            if (in != live[i]) {
                live[i] = in;
                changed = true;
            }
        }
    }
}

/*
 * The instruction of [lo, hi], not in @skip (if given), to stop at: a
 * barrier if there is one, else the one with the fewest live registers.
 */
static uint32_t cheapest(const struct ctx *c, const uint64_t *live,
                         uint32_t lo, uint32_t hi, const bool *skip)
{
    uint32_t i, best = lo;
    int best_score = INT32_MAX;

    for (i = lo; i <= hi; i++) {
        int score = __builtin_popcountll(live[i]) +
                    (c->n[i].d.op == RV_OP_BARRIER ? 0 : 64);

        if (c->n[i].func >= 0 && !(skip && skip[i]) && score < best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

/*
 * Preemption points by seed 004's rules: each innermost loop gets one,
 * its barrier if it has any (stopping elsewhere in a loop with a barrier
 * could leave warps waiting for each other), else its instruction with
 * the fewest live registers; code outside innermost loops gets one per K
 * instructions, chosen the same way.  A loop is the address range from
 * the target of a backward branch or jump to the furthest branch back to
 * it; innermost loops contain no other.
 */
static int place_preemption_points(struct ctx *c, const uint64_t *live,
                                   struct sm_result *res)
{
    const struct sm_program *p = c->p;
    uint32_t n = p->ninsns ? p->ninsns : 1;
    uint32_t *loop_end = calloc(n, sizeof(*loop_end));
    bool *in_loop = calloc(n, sizeof(*in_loop));
    bool *is_pp = calloc(n, sizeof(*is_pp));
    uint32_t i, j, f;
    int ret = -1;

    res->pp_interval = p->pp_interval ? p->pp_interval :
                                        SM_PP_INTERVAL_DEFAULT;
    if (!loop_end || !in_loop || !is_pp) {
        fail_oom(c);
        goto out;
    }
    /* loop_end[h] = 1 + last instruction branching back to h, 0 if none */
    for (i = 0; i < p->ninsns; i++) {
        const struct node *nd = &c->n[i];

        if ((nd->cf == CF_BRANCH || nd->cf == CF_JUMP) && nd->target <= i &&
            loop_end[nd->target] < i + 1) {
            loop_end[nd->target] = i + 1;
        }
    }
    for (i = 0; i < p->ninsns; i++) {
        bool innermost = loop_end[i] != 0;

        for (j = i; innermost && j < loop_end[i]; j++) {
            innermost = j == i || !loop_end[j] || loop_end[j] > loop_end[i];
        }
        if (innermost) {
            is_pp[cheapest(c, live, i, loop_end[i] - 1, NULL)] = true;
            for (j = i; j < loop_end[i]; j++) {
                in_loop[j] = true;
            }
        }
    }
    for (f = 0; f < p->nfuncs; f++) {
        uint32_t start = (p->funcs[f].start - p->base) / 4;
        uint32_t end = (p->funcs[f].end - p->base) / 4;
        uint32_t count = 0, first = start;

        for (i = start; i < end; i++) {
            if (in_loop[i]) {
                continue;
            }
            if (count++ == 0) {
                first = i;
            }
            if (count == res->pp_interval) {
                is_pp[cheapest(c, live, first, i, in_loop)] = true;
                count = 0;
            }
        }
    }
    for (i = 0; i < p->ninsns; i++) {
        res->npp += is_pp[i];
    }
    res->pp = calloc(res->npp ? res->npp : 1, sizeof(*res->pp));
    if (!res->pp) {
        fail_oom(c);
        goto out;
    }
    for (i = 0, j = 0; i < p->ninsns; i++) {
        if (is_pp[i]) {
            res->pp[j++] = pc_of(c, i);
        }
    }
    ret = 0;
out:
    free(loop_end);
    free(in_loop);
    free(is_pp);
    return ret;
}

/*
 * The launch sets only a0..a7: a kernel reading fa0..fa7 first was
 * declared with float parameters, which would be garbage.
 */
static int check_kernel_entries(struct ctx *c, const uint64_t *live)
{
    const struct sm_program *p = c->p;
    uint32_t f;

    for (f = 0; f < p->nfuncs; f++) {
        uint32_t i = (p->funcs[f].start - p->base) / 4;
        uint64_t fargs = (live[i] >> (32 + 10)) & 0xff;

        if (p->funcs[f].kernel && fargs) {
            return fail_at(c, i, "kernel %s reads fa%u on entry: kernel "
                           "parameters are the integer registers a0..a7; "
                           "pass a float as its bits (argFloat in simt.h)",
                           p->funcs[f].name, __builtin_ctzll(fargs));
        }
    }
    return 0;
}

static uint16_t origin_of_address(uint32_t v)
{
    if (v >= SIMT_SHARED_BASE && v - SIMT_SHARED_BASE < SIMT_SHARED_WINDOW) {
        return ORIGIN_SHARED;
    }
    if (v >= SIMT_LOCAL_BASE && v - SIMT_LOCAL_BASE < SIMT_LOCAL_WINDOW) {
        return ORIGIN_LOCAL;
    }
    return SIMT_ORIGIN_IMAGE;
}

/* Origins of the address of memory instruction @n given its rs1 origins. */
static uint16_t address_origins(const struct node *n, uint16_t rs1)
{
    if (n->rs1_known) {
        return origin_of_address(n->rs1_val + n->d.imm);
    }
    return rs1 ? rs1 : SIMT_ORIGIN_UNKNOWN;
}

/* Where an address may point outside the stack and shared memory. */
static uint16_t global_part(uint16_t origins)
{
    return origins & ~(ORIGIN_LOCAL | ORIGIN_SHARED);
}

/* Union of the origins of the registers in @mask. */
static uint16_t origins_of(const uint16_t *regs, uint64_t mask)
{
    uint16_t o = 0;

    while (mask) {
        o |= regs[__builtin_ctzll(mask)];
        mask &= mask - 1;
    }
    return o;
}

/* sp's value at @s, reached from instruction @i whose sp leaves as @off. */
static void merge_sp(struct node *s, enum sp_state state, int32_t off,
                     bool *changed)
{
    if (s->sp_state == SP_VARIES ||
        (s->sp_state == SP_KNOWN && state == SP_KNOWN && s->sp_off == off)) {
        return;
    }
    s->sp_state = s->sp_state == SP_UNSEEN ? state : SP_VARIES;
    s->sp_off = off;
    *changed = true;
}

/*
 * sp relative to the function's entry before each instruction, following
 * the constant adjustments compute_frames() accepted; a call returns with
 * sp unchanged.  A kernel has no caller frame and no stack arguments, so
 * an access at or above its entry sp is refused.
 */
static int compute_sp_offsets(struct ctx *c)
{
    const struct sm_program *p = c->p;
    bool changed = true;
    uint32_t i, f;

    for (f = 0; f < p->nfuncs; f++) {
        struct node *entry = &c->n[(p->funcs[f].start - p->base) / 4];

        entry->sp_state = SP_KNOWN;
        entry->sp_off = 0;
    }
    while (changed) {
        changed = false;
        for (i = 0; i < p->ninsns; i++) {
            struct node *n = &c->n[i];
            const struct rv_insn *d = &n->d;
            enum sp_state state = n->sp_state;
            int32_t off = n->sp_off;

            if (n->func < 0 || state == SP_UNSEEN) {
                continue;
            }
            if (d->def & RV_X(RV_REG_SP)) {
                off += d->op == RV_OP_ADDI ? d->imm :
                       d->op == RV_OP_ADD ? (int32_t)n->rs2_val :
                                            -(int32_t)n->rs2_val;
            }
            switch (n->cf) {
            case CF_FALL:
            case CF_CALL:
                merge_sp(&c->n[i + 1], state, off, &changed);
                break;
            case CF_BRANCH:
                merge_sp(&c->n[i + 1], state, off, &changed);
                merge_sp(&c->n[n->target], state, off, &changed);
                break;
            case CF_JUMP:
                merge_sp(&c->n[n->target], state, off, &changed);
                break;
            default:
                break;
            }
        }
    }
    for (i = 0; i < p->ninsns; i++) {
        const struct node *n = &c->n[i];

        if (n->func >= 0 && p->funcs[n->func].kernel &&
            n->d.mem != RV_MEM_NONE && n->d.rs1 == RV_REG_SP &&
            n->sp_state == SP_KNOWN && n->sp_off + n->d.imm >= 0) {
            return fail_at(c, i, "kernel %s accesses the stack above its "
                           "entry sp: kernels take at most %u argument "
                           "words, in a0..a7", p->funcs[n->func].name,
                           SIMT_ARG_REGS);
        }
    }
    return 0;
}

/*
 * The words of the function's own frame that stack access @n touches, as
 * [*lo, *hi] counted up from the frame's lowest possible word; false if
 * it is not an sp-relative access within the frame.
 */
static bool frame_words(const struct ctx *c, const struct node *n,
                        uint32_t *lo, uint32_t *hi)
{
    int64_t frame = c->frame[n->func];
    int64_t at = (int64_t)n->sp_off + n->d.imm;

    if (n->d.rs1 != RV_REG_SP || n->sp_state != SP_KNOWN ||
        at < -frame || at + n->d.size > 0) {
        return false;
    }
    *lo = (uint32_t)((at + frame) / 4);
    *hi = (uint32_t)((at + frame + n->d.size - 1) / 4);
    return true;
}

static void merge_origin(uint16_t *dst, uint16_t o, bool *changed)
{
    if ((*dst | o) != *dst) {
        *dst |= o;
        *changed = true;
    }
}

/*
 * Forward pointer provenance: which kernel arguments, constants or
 * unknown values the pointer in each register (integer or fp, since bits
 * can move between them) may be based on.  As in C, a pointer flows
 * through copies, addition and subtraction of offsets and bit masking;
 * products, shifts, divisions and comparisons are offsets, not pointers.
 * So an index computed from an integer argument does not make that
 * argument look like a buffer.  An address based on nothing at all
 * counts as unknown.
 *
 * A value loaded from global memory is unknown.  The thread's stack only
 * holds what the thread stored there: a load from a word of a function's
 * own frame at a known sp offset sees what that function stored to that
 * word plus everything stored to the stack some other way ("escaped");
 * any other stack load sees everything ever stored to the stack.
 */
static int compute_provenance(struct ctx *c)
{
    const struct sm_program *p = c->p;
    uint16_t (*in)[64];
    uint16_t **slots;
    bool *reached;
    uint16_t stack = 0, escaped = 0;
    bool changed = true;
    uint32_t i, k, f;
    int ret = -1;

    in = calloc(p->ninsns ? p->ninsns : 1, sizeof(*in));
    reached = calloc(p->ninsns ? p->ninsns : 1, sizeof(*reached));
    slots = calloc(p->nfuncs ? p->nfuncs : 1, sizeof(*slots));
    if (!in || !reached || !slots) {
        goto out;
    }
    for (f = 0; f < p->nfuncs; f++) {
        slots[f] = calloc(c->frame[f] / 4 + 1, sizeof(**slots));
        if (!slots[f]) {
            goto out;
        }
        if (p->funcs[f].kernel) {
            i = (p->funcs[f].start - p->base) / 4;
            for (k = 0; k < SIMT_ARG_REGS; k++) {
                in[i][10 + k] = 1u << k;
            }
            in[i][RV_REG_SP] = ORIGIN_LOCAL;
            reached[i] = true;
        }
    }

    while (changed) {
        changed = false;
        for (i = 0; i < p->ninsns; i++) {
            struct node *n = &c->n[i];
            const struct rv_insn *d = &n->d;
            uint16_t out[64], o = 0, addr = 0;
            uint32_t succ[2], nsucc = 0, lo = 0, hi = 0, w;
            const uint32_t *sites = succ;
            bool to_stack, in_frame;
            unsigned r;

            if (n->func < 0 || !reached[i]) {
                continue;
            }
            memcpy(out, in[i], sizeof(out));
            if (d->mem != RV_MEM_NONE) {
                addr = address_origins(n, in[i][d->rs1]);
            }
            to_stack = !global_part(addr) && (addr & ORIGIN_LOCAL);
            in_frame = to_stack && frame_words(c, n, &lo, &hi);
            if (d->mem != RV_MEM_NONE && d->mem != RV_MEM_LOAD && to_stack) {
                /* the stored value: rs2 for sw/amo, an fp reg for fsw */
                uint64_t value = d->use & ~RV_X(d->rs1);
                uint16_t v;

                if (d->rs2 == d->rs1) {
                    value |= RV_X(d->rs2);
                }
                v = origins_of(in[i], value);
                merge_origin(&stack, v, &changed);
                if (in_frame && d->mem == RV_MEM_STORE) {
                    for (w = lo; w <= hi; w++) {
                        merge_origin(&slots[n->func][w], v, &changed);
                    }
                } else {
                    merge_origin(&escaped, v, &changed);
                }
            }
            if (d->op == RV_OP_LUI) {
                o = origin_of_address(d->imm);
            } else if (d->op == RV_OP_AUIPC) {
                o = origin_of_address(pc_of(c, i) + d->imm);
            } else if (d->mem == RV_MEM_LOAD && in_frame) {
                o = escaped;
                for (w = lo; w <= hi; w++) {
                    o |= slots[n->func][w];
                }
            } else if (d->mem == RV_MEM_LOAD) {
                o = to_stack ? stack : SIMT_ORIGIN_UNKNOWN;
            } else if (d->mem == RV_MEM_AMO) {
                o = SIMT_ORIGIN_UNKNOWN;
            } else if (d->op == RV_OP_ADD || d->op == RV_OP_SUB ||
                       d->op == RV_OP_ADDI || d->op == RV_OP_BITS ||
                       d->op == RV_OP_SHFL) {
                o = origins_of(in[i], d->use);
            }
            for (r = 1; r < 64; r++) {
                if (d->def & ((uint64_t)1 << r)) {
                    out[r] = o;
                }
            }

            switch (n->cf) {
            case CF_FALL:
                succ[nsucc++] = i + 1;
                break;
            case CF_BRANCH:
                succ[nsucc++] = i + 1;
                succ[nsucc++] = n->target;
                break;
            case CF_JUMP:
            case CF_CALL:
            case CF_TAILCALL:
                succ[nsucc++] = n->target;
                break;
            case CF_RET:
                sites = c->ret_sites[n->func].v;
                nsucc = c->ret_sites[n->func].n;
                break;
            case CF_EXIT:
                break;
            }
            for (k = 0; k < nsucc; k++) {
                uint32_t s = sites[k];

                if (!reached[s]) {
                    reached[s] = true;
                    changed = true;
                }
                for (r = 0; r < 64; r++) {
                    merge_origin(&in[s][r], out[r], &changed);
                }
            }
        }
    }

    for (i = 0; i < p->ninsns; i++) {
        struct node *n = &c->n[i];
        uint16_t g;

        if (n->func < 0 || n->d.mem == RV_MEM_NONE) {
            continue;
        }
        /* Unreached code gets the worst case, for kernels that call it. */
        g = reached[i] ? global_part(address_origins(n, in[i][n->d.rs1])) :
                         SIMT_ORIGIN_UNKNOWN;
        switch (n->d.mem) {
        case RV_MEM_LOAD:
            n->global_load = g;
            break;
        case RV_MEM_STORE:
            n->global_store = g;
            break;
        case RV_MEM_AMO:
            n->global_load = g;
            n->global_store = g;
            n->global_amo = g != 0;
            break;
        }
    }
    ret = 0;
out:
    for (f = 0; slots && f < p->nfuncs; f++) {
        free(slots[f]);
    }
    free(slots);
    free(in);
    free(reached);
    return ret < 0 ? fail_oom(c) : 0;
}

/*
 * Stack bytes of each function: the sum of every decrement of sp in it,
 * which bounds its frame whatever path it takes.  sp may only change by
 * a constant (addi, or add/sub of a known constant for large frames);
 * anything else (alloca, variable-length arrays) cannot be bounded.
 */
static int compute_frames(struct ctx *c)
{
    const struct sm_program *p = c->p;
    uint32_t i;

    for (i = 0; i < p->ninsns; i++) {
        const struct node *n = &c->n[i];
        const struct rv_insn *d = &n->d;
        int64_t delta;

        if (n->func < 0 || !(d->def & RV_X(RV_REG_SP))) {
            continue;
        }
        if (d->op == RV_OP_ADDI && d->rs1 == RV_REG_SP) {
            delta = d->imm;
        } else if ((d->op == RV_OP_ADD || d->op == RV_OP_SUB) &&
                   d->rs1 == RV_REG_SP && n->rs2_known) {
            delta = d->op == RV_OP_ADD ? (int32_t)n->rs2_val :
                                         -(int64_t)(int32_t)n->rs2_val;
        } else {
            return fail_at(c, i, "sp changed by a non-constant amount "
                           "(alloca or variable-length array?): cannot "
                           "bound the stack");
        }
        if (delta < 0) {
            uint64_t sum = c->frame[n->func] + (uint64_t)-delta;

            if (sum > SIMT_LOCAL_WINDOW) {
                return fail_at(c, i, "stack frame larger than the local "
                               "window");
            }
            c->frame[n->func] = sum;
        }
    }
    return 0;
}

/* Deepest stack use from function @f: its frame plus its deepest callee. */
static int stack_depth(struct ctx *c, uint32_t f, uint8_t *state,
                       uint64_t *depth)
{
    uint64_t deepest = 0;
    uint32_t k;

    if (state[f] == 2) {
        return 0;
    }
    if (state[f] == 1) {
        snprintf(c->err, c->errlen, "%s: %s: recursive call chain: cannot "
                 "bound the stack", c->p->file, c->p->funcs[f].name);
        return -1;
    }
    state[f] = 1;
    for (k = 0; k < c->callees[f].n; k++) {
        uint32_t g = c->callees[f].v[k];

        if (stack_depth(c, g, state, depth) < 0) {
            return -1;
        }
        deepest = depth[g] > deepest ? depth[g] : deepest;
    }
    depth[f] = c->frame[f] + deepest;
    state[f] = 2;
    if (depth[f] > SIMT_LOCAL_WINDOW) {
        snprintf(c->err, c->errlen, "%s: %s: stack use larger than the "
                 "local window", c->p->file, c->p->funcs[f].name);
        return -1;
    }
    return 0;
}

/* Mark in @seen every function reachable from @f through calls. */
static void reach(const struct ctx *c, uint32_t f, bool *seen)
{
    uint32_t k;

    if (seen[f]) {
        return;
    }
    seen[f] = true;
    for (k = 0; k < c->callees[f].n; k++) {
        reach(c, c->callees[f].v[k], seen);
    }
}

/*
 * Can instruction @n make a shared memory address?  Every one starts as
 * a lui or auipc constant (or is loaded from data, checked separately).
 * An auipc may land up to 2 KiB below the object its addi then reaches.
 */
static bool makes_shared_address(const struct ctx *c, uint32_t i)
{
    const struct rv_insn *d = &c->n[i].d;
    uint32_t v;

    if (d->op != RV_OP_LUI && d->op != RV_OP_AUIPC) {
        return false;
    }
    v = d->op == RV_OP_LUI ? (uint32_t)d->imm : pc_of(c, i) + d->imm;
    return v >= SIMT_SHARED_BASE - 0x800 &&
           v - (SIMT_SHARED_BASE - 0x800) < SIMT_SHARED_WINDOW + 0x800;
}

static void describe_kernel(struct ctx *c, uint32_t kf, const bool *seen,
                            uint64_t depth, struct sm_kernel *k)
{
    const struct sm_program *p = c->p;
    struct simt_meta_kernel *m = &k->m;
    uint64_t used = 0;
    bool global_amo = false, shared = p->shared_pointers_in_data;
    uint32_t f, i;

    memset(k, 0, sizeof(*k));
    k->name = p->funcs[kf].name;
    m->entry = p->funcs[kf].start;
    m->code_start = UINT32_MAX;
    m->local_bytes = (uint32_t)((depth + 15) & ~(uint64_t)15);
    for (f = 0; f < p->nfuncs; f++) {
        if (!seen[f]) {
            continue;
        }
        if (p->funcs[f].start < m->code_start) {
            m->code_start = p->funcs[f].start;
        }
        if (p->funcs[f].end > m->code_end) {
            m->code_end = p->funcs[f].end;
        }
        for (i = (p->funcs[f].start - p->base) / 4;
             i < (p->funcs[f].end - p->base) / 4; i++) {
            const struct node *n = &c->n[i];

            m->insn_count++;
            used |= n->d.use | n->d.def;
            shared |= makes_shared_address(c, i);
            m->load_origins |= n->global_load & ORIGIN_EXPORTED;
            m->store_origins |= n->global_store & ORIGIN_EXPORTED;
            global_amo |= n->global_amo;
            if (n->d.mem == RV_MEM_AMO) {
                m->flags |= SIMT_META_F_ATOMICS;
            }
            if (n->global_store) {
                m->flags |= SIMT_META_F_GLOBAL_STORES;
            }
            if (n->d.op == RV_OP_BARRIER) {
                m->flags |= SIMT_META_F_BARRIER;
            }
            if (n->d.op == RV_OP_VOTE || n->d.op == RV_OP_SHFL ||
                n->d.op == RV_OP_WSYNC) {
                m->flags |= SIMT_META_F_WARP_OPS;
            }
            if (n->cf == CF_CALL || n->cf == CF_TAILCALL) {
                m->flags |= SIMT_META_F_CALLS;
            }
        }
    }
    /* Addresses are absolute, so a kernel that uses any needs it all. */
    m->shared_bytes = shared ? p->shared_bytes : 0;
    used &= ~RV_X(0);
    m->int_regs_used = (uint32_t)used;
    m->fp_regs_used = (uint32_t)(used >> 32);
    if (!global_amo &&
        (!m->store_origins ||
         (!((m->store_origins | m->load_origins) & SIMT_ORIGIN_UNKNOWN) &&
          !(m->store_origins & m->load_origins)))) {
        m->flags |= SIMT_META_F_IDEMPOTENT;
    }
}

static int describe_kernels(struct ctx *c, struct sm_result *res)
{
    const struct sm_program *p = c->p;
    uint32_t nf = p->nfuncs ? p->nfuncs : 1;
    uint8_t *state = calloc(nf, 1);
    uint64_t *depth = calloc(nf, sizeof(*depth));
    bool *seen = calloc(nf, sizeof(*seen));
    uint32_t f;
    int ret = -1;

    res->kernels = calloc(nf, sizeof(*res->kernels));
    if (!state || !depth || !seen || !res->kernels) {
        fail_oom(c);
        goto out;
    }
    for (f = 0; f < p->nfuncs; f++) {
        if (!p->funcs[f].kernel) {
            continue;
        }
        if (stack_depth(c, f, state, depth) < 0) {
            goto out;
        }
        memset(seen, 0, p->nfuncs * sizeof(*seen));
        reach(c, f, seen);
        describe_kernel(c, f, seen, depth[f], &res->kernels[res->nkernels++]);
    }
    ret = 0;
out:
    free(state);
    free(depth);
    free(seen);
    return ret;
}

int sm_analyze(const struct sm_program *prog, struct sm_result *res,
               char *err, size_t errlen)
{
    struct ctx c = { .p = prog, .err = err, .errlen = errlen };
    uint32_t nf = prog->nfuncs ? prog->nfuncs : 1;
    uint32_t f;
    int ret = -1;

    memset(res, 0, sizeof(*res));
    c.n = calloc(prog->ninsns ? prog->ninsns : 1, sizeof(*c.n));
    c.ret_sites = calloc(nf, sizeof(*c.ret_sites));
    c.ret_exit = calloc(nf, sizeof(*c.ret_exit));
    c.callees = calloc(nf, sizeof(*c.callees));
    c.frame = calloc(nf, sizeof(*c.frame));
    res->live = calloc(prog->ninsns ? prog->ninsns : 1, sizeof(uint64_t));
    if (!c.n || !c.ret_sites || !c.ret_exit || !c.callees || !c.frame ||
        !res->live) {
        fail_oom(&c);
        goto out;
    }
    if (check_functions(&c) < 0 || decode_all(&c) < 0) {
        goto out;
    }
    propagate_constants(&c);
    if (build_cfg(&c) < 0 || compute_return_sites(&c) < 0) {
        goto out;
    }
    compute_liveness(&c, res->live);
    if (check_kernel_entries(&c, res->live) < 0 ||
        place_preemption_points(&c, res->live, res) < 0 ||
        compute_frames(&c) < 0 ||
        compute_sp_offsets(&c) < 0 || compute_provenance(&c) < 0 ||
        describe_kernels(&c, res) < 0) {
        goto out;
    }
    ret = 0;
out:
    for (f = 0; c.ret_sites && c.callees && f < prog->nfuncs; f++) {
        free(c.ret_sites[f].v);
        free(c.callees[f].v);
    }
    free(c.n);
    free(c.ret_sites);
    free(c.ret_exit);
    free(c.callees);
    free(c.frame);
    if (ret < 0) {
        sm_result_free(res);
    }
    return ret;
}

void sm_result_free(struct sm_result *res)
{
    free(res->live);
    free(res->kernels);
    free(res->pp);
    memset(res, 0, sizeof(*res));
}
