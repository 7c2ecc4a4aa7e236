// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host runner's checkers: see simt-check.h and docs/toolchain.rst,
 * "Checkers".  The interpreter calls the hooks below before each lane's
 * access and each vote or shuffle (SimtCheckOps of hw/simt/simt-core.h).
 *
 * racecheck keeps, for every byte of a block's shared memory, the last
 * thread that wrote it and the last that read it in the current barrier
 * interval (the block's count of completed barriers); an access by a
 * thread of another warp in the same interval is a hazard.  Threads of
 * one warp are not compared: the warp runs its lanes in a fixed order
 * (min-pc scheduling), as warp-synchronous code before Volta assumed.
 * A write of the value a byte already holds is no hazard, and atomics
 * are not compared at all.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libsimt.h"
#include "simt-check.h"
#include "hw/simt/simt-isa.h"

#define REPORT          "========= "
#define MANY_READERS    0xffffu         /* readers in more than one warp */
#define MAX_REPORTS     100             /* distinct findings printed */

/* One shared byte's last write and read in interval @epoch - 1. */
struct shadow {
	uint32_t wepoch, repoch;	/* 0: none in any interval yet */
	uint32_t wpc, rpc;
	uint16_t wtid, rtid;
};

struct slot {
	struct simt_checker *c;
	struct shadow *shadow;		/* launch->shared_size entries */
};

/* A finding already printed: its kind and the one or two pcs. */
struct seen {
	unsigned int kind;
	uint32_t pc_a, pc_b;
};

struct simt_checker {
	const struct simt_check_env *env;
	unsigned int nslots;
	struct slot *slots;
	struct seen seen[MAX_REPORTS];
	unsigned int nseen;
	uint64_t findings;
	uint64_t unprinted;
};

enum finding {
	FIND_MEM,
	FIND_RAW,
	FIND_WAR,
	FIND_WAW,
	FIND_SYNC,
};

/*
 * Count a finding; true if it should be printed (the first of its kind
 * and pcs, while there is room to remember it).
 */
static bool first_sighting(struct simt_checker *c, unsigned int kind, uint32_t pc_a,
			   uint32_t pc_b)
{
	unsigned int i;

	for (i = 0; i < c->nseen; i++) {
		if (c->seen[i].kind == kind && c->seen[i].pc_a == pc_a && c->seen[i].pc_b == pc_b)
			return false;
	}
	c->findings++;
	if (c->nseen == MAX_REPORTS) {
		c->unprinted++;
		return false;
	}
	c->seen[c->nseen++] = (struct seen){ kind, pc_a, pc_b };
	return true;
}

/* "(x,y,z)" of thread @tid of @b. */
static void thread_coords(const SimtBlock *b, unsigned int tid, char *buf, size_t len)
{
	const uint32_t *d = b->launch->block_dim;

	snprintf(buf, len, "(%u,%u,%u)", tid % d[0], tid / d[0] % d[1], tid / d[0] / d[1]);
}

static void block_coords(const SimtBlock *b, char *buf, size_t len)
{
	const uint32_t *i = b->st.desc.block_idx;

	snprintf(buf, len, "(%u,%u,%u)", i[0], i[1], i[2]);
}

static const char *access_name(SimtCheckAccess kind)
{
	return kind == SIMT_CHECK_LOAD ? "read" : kind == SIMT_CHECK_STORE ? "write" : "atomic";
}

/* ---- memcheck ---- */

static int report_access(struct simt_checker *c, const SimtBlock *b, unsigned int tid,
			 uint32_t pc, uint32_t addr, unsigned int size, SimtCheckAccess kind,
			 const char *space, const char *why, int fault)
{
	const struct simt_check_env *env = c->env;
	char where[256], thread[40], block[40];

	if (!first_sighting(c, FIND_MEM, pc, 0))
		return fault;
	env->where(env->opaque, pc, where, sizeof(where));
	thread_coords(b, tid, thread, sizeof(thread));
	block_coords(b, block, sizeof(block));
	fprintf(stderr,
		REPORT "memcheck: invalid %s %s of %u bytes at 0x%08x\n"
		REPORT "    at %s in kernel %s\n"
		REPORT "    by thread %s of block %s\n"
		REPORT "    %s\n",
		space, access_name(kind), size, addr, where, env->kernel, thread, block, why);
	return fault;
}

/* SIMT_FAULT_NONE, or the fault that stops the block instead of the access. */
static int memcheck(struct simt_checker *c, const SimtBlock *b, unsigned int tid, uint32_t pc,
		    uint32_t addr, unsigned int size, SimtCheckAccess kind)
{
	const struct simt_check_env *env = c->env;
	const SimtLaunch *l = b->launch;
	uint32_t shared_off = addr - SIMT_SHARED_BASE, local_off = addr - SIMT_LOCAL_BASE;
	const char *space = shared_off < SIMT_SHARED_WINDOW ? "__shared__" :
			    local_off < SIMT_LOCAL_WINDOW ? "__local__" : "__global__";
	char why[160];

	if (addr & (size - 1)) {
		snprintf(why, sizeof(why), "0x%08x is not a multiple of %u", addr, size);
		return report_access(c, b, tid, pc, addr, size, kind, space, why,
				     SIMT_FAULT_MISALIGNED);
	}
	if (shared_off < SIMT_SHARED_WINDOW) {
		if ((uint64_t)shared_off + size <= l->shared_size)
			return SIMT_FAULT_NONE;
		snprintf(why, sizeof(why),
			 "shared offset %u is past the block's %u bytes of shared memory",
			 shared_off, l->shared_size);
	} else if (local_off < SIMT_LOCAL_WINDOW) {
		if ((uint64_t)local_off + size <= l->local_size)
			return SIMT_FAULT_NONE;
		snprintf(why, sizeof(why),
			 "local offset %u is past the thread's %u bytes of local memory (its stack)",
			 local_off, l->local_size);
	} else if (env->global_ok(env->opaque, addr, size, why, sizeof(why))) {
		return SIMT_FAULT_NONE;
	}
	return report_access(c, b, tid, pc, addr, size, kind, space, why, SIMT_FAULT_ACCESS);
}

/* ---- racecheck ---- */

static void report_hazard(struct simt_checker *c, const SimtBlock *b, enum finding kind,
			  uint32_t addr, unsigned int first_tid, uint32_t first_pc,
			  unsigned int tid, uint32_t pc)
{
	static const char *const names[] = {
		[FIND_RAW] = "read-after-write",
		[FIND_WAR] = "write-after-read",
		[FIND_WAW] = "write-after-write",
	};
	const struct simt_check_env *env = c->env;
	char first_at[256], at[256], first_thread[64], thread[40], block[40];

	if (!first_sighting(c, kind, first_pc, pc))
		return;
	env->where(env->opaque, first_pc, first_at, sizeof(first_at));
	env->where(env->opaque, pc, at, sizeof(at));
	thread_coords(b, first_tid, thread, sizeof(thread));
	snprintf(first_thread, sizeof(first_thread), "%s%s",
		 first_tid == MANY_READERS ? "threads of several warps" : "thread ",
		 first_tid == MANY_READERS ? "" : thread);
	thread_coords(b, tid, thread, sizeof(thread));
	block_coords(b, block, sizeof(block));
	fprintf(stderr,
		REPORT "racecheck: %s hazard on __shared__ 0x%08x in block %s of kernel %s\n"
		REPORT "    %s by %s at %s\n"
		REPORT "    %s by thread %s at %s\n"
		REPORT "    with no barrier between them (after barrier %u)\n",
		names[kind], addr, block, env->kernel,
		kind == FIND_RAW || kind == FIND_WAW ? "write" : "read", first_thread, first_at,
		kind == FIND_RAW ? "read" : "write", thread, at, b->st.barriers);
}

static void racecheck(struct slot *s, const SimtBlock *b, unsigned int tid, uint32_t pc,
		      uint32_t addr, unsigned int size, SimtCheckAccess kind, uint32_t val)
{
	uint32_t off = addr - SIMT_SHARED_BASE, epoch = b->st.barriers + 1;
	unsigned int warp = tid / SIMT_WARP_SIZE, i;

	if (off >= SIMT_SHARED_WINDOW || (uint64_t)off + size > b->launch->shared_size ||
	    kind == SIMT_CHECK_ATOMIC)
		return;
	for (i = 0; i < size; i++) {
		struct shadow *sh = &s->shadow[off + i];
		bool other_writer = sh->wepoch == epoch && sh->wtid / SIMT_WARP_SIZE != warp;
		bool other_reader = sh->repoch == epoch &&
				    (sh->rtid == MANY_READERS || sh->rtid / SIMT_WARP_SIZE != warp);

		if (kind == SIMT_CHECK_LOAD) {
			if (other_writer) {
				report_hazard(s->c, b, FIND_RAW, addr, sh->wtid, sh->wpc, tid, pc);
				return;
			}
			if (other_reader)
				sh->rtid = MANY_READERS;
			else if (sh->repoch != epoch || sh->rtid != MANY_READERS)
				sh->rtid = tid;
			sh->repoch = epoch;
			sh->rpc = pc;
			continue;
		}
		if (b->shared[off + i] == (uint8_t)(val >> 8 * i))
			continue;
		if (other_writer) {
			report_hazard(s->c, b, FIND_WAW, addr, sh->wtid, sh->wpc, tid, pc);
			return;
		}
		if (other_reader) {
			report_hazard(s->c, b, FIND_WAR, addr, sh->rtid, sh->rpc, tid, pc);
			return;
		}
		sh->wepoch = epoch;
		sh->wtid = tid;
		sh->wpc = pc;
	}
}

static int check_access(void *opaque, const SimtBlock *b, unsigned int warp, unsigned int lane,
			uint32_t pc, uint32_t addr, unsigned int size, SimtCheckAccess kind,
			uint32_t val)
{
	struct slot *s = opaque;
	unsigned int checks = s->c->env->checks, tid = warp * SIMT_WARP_SIZE + lane;
	int fault = SIMT_FAULT_NONE;

	if (checks & SIMT_CHECK_MEMCHECK)
		fault = memcheck(s->c, b, tid, pc, addr, size, kind);
	if (!fault && (checks & SIMT_CHECK_RACECHECK))
		racecheck(s, b, tid, pc, addr, size, kind, val);
	return fault;
}

/* ---- synccheck ---- */

static bool read_insn(const struct simt_check_env *env, uint32_t pc, uint32_t *insn)
{
	if (pc & 3 || pc > env->mem_size - 4)
		return false;
	memcpy(insn, env->mem + pc, 4);
	return true;
}

static bool is_warp_sync(uint32_t insn)
{
	return (insn & 0x7f) == SIMT_OPC_CUSTOM0 && (insn >> 12 & 7) == SIMT_F3_WSYNC;
}

/*
 * A vote or shuffle run by fewer lanes than the warp has live, unless it
 * is the second half of a *_sync call (a warp sync just before gathered
 * the mask's lanes) or __activemask() (a ballot every lane votes true
 * in, which asks which lanes run).
 */
static void check_warp_op(void *opaque, const SimtBlock *b, unsigned int warp, uint32_t pc,
			  uint32_t group)
{
	static const char *const shuffles[] = {
		[SIMT_SHFL_IDX] = "__shfl", [SIMT_SHFL_DOWN] = "__shfl_down",
		[SIMT_SHFL_UP] = "__shfl_up", [SIMT_SHFL_XOR] = "__shfl_xor",
	};
	static const char *const votes[] = {
		[SIMT_VOTE_ANY] = "__any", [SIMT_VOTE_ALL] = "__all", [SIMT_VOTE_BALLOT] = "__ballot",
	};
	struct slot *s = opaque;
	const struct simt_check_env *env = s->c->env;
	const SimtWarp *w = &b->warps[warp];
	uint32_t live = ~w->exited, insn, before, kind, ballot_true = 0, lane;
	char where[256], block[40];
	const char *what;
	bool vote;

	if (!(env->checks & SIMT_CHECK_SYNCCHECK) || group == live || !read_insn(env, pc, &insn))
		return;
	if (read_insn(env, pc - 4, &before) && is_warp_sync(before))
		return;
	vote = (insn >> 12 & 7) == SIMT_F3_VOTE;
	kind = insn >> 25;
	if (vote && kind == SIMT_VOTE_BALLOT) {
		for (lane = 0; lane < SIMT_WARP_SIZE; lane++)
			ballot_true |= (uint32_t)(w->x[insn >> 15 & 31][lane] != 0) << lane;
		if ((ballot_true & group) == group)
			return;
	}
	if (!first_sighting(s->c, FIND_SYNC, pc, 0))
		return;
	what = vote ? (kind < 3 ? votes[kind] : "vote") : (kind < 4 ? shuffles[kind] : "shuffle");
	env->where(env->opaque, pc, where, sizeof(where));
	block_coords(b, block, sizeof(block));
	fprintf(stderr,
		REPORT "synccheck: %s without _sync run by %d of the warp's %d live lanes "
		"(lanes 0x%08x of 0x%08x)\n"
		REPORT "    at %s in kernel %s, warp %u of block %s\n"
		REPORT "    it %s only the lanes that run it; %s_sync(mask, ...) waits for the lanes of mask\n",
		what, __builtin_popcount(group), __builtin_popcount(live), group, live, where,
		env->kernel, warp, block, vote ? "counts" : "reads", what);
}

static const SimtCheckOps check_ops = {
	.access = check_access,
	.warp_op = check_warp_op,
};

/* ---- one launch ---- */

struct simt_checker *simt_checker_create(const struct simt_check_env *env, unsigned int slots)
{
	struct simt_checker *c = calloc(1, sizeof(*c));
	size_t shared = env->launch->shared_size;
	unsigned int i;

	if (!c)
		return NULL;
	c->env = env;
	c->nslots = slots;
	c->slots = calloc(slots, sizeof(*c->slots));
	if (!c->slots)
		goto fail;
	for (i = 0; i < slots; i++) {
		c->slots[i].c = c;
		if (!(env->checks & SIMT_CHECK_RACECHECK) || !shared)
			continue;
		c->slots[i].shadow = calloc(shared, sizeof(struct shadow));
		if (!c->slots[i].shadow)
			goto fail;
	}
	return c;
fail:
	simt_checker_destroy(c);
	return NULL;
}

void simt_checker_attach(struct simt_checker *c, SimtBlock *b, unsigned int slot)
{
	struct slot *s = &c->slots[slot];

	if (s->shadow)
		memset(s->shadow, 0, c->env->launch->shared_size * sizeof(*s->shadow));
	b->check = &check_ops;
	b->check_opaque = s;
}

uint64_t simt_checker_destroy(struct simt_checker *c)
{
	uint64_t findings;
	unsigned int i;

	if (!c)
		return 0;
	if (c->unprinted)
		fprintf(stderr, REPORT "%llu more findings not shown (only the first %u are)\n",
			(unsigned long long)c->unprinted, MAX_REPORTS);
	for (i = 0; c->slots && i < c->nslots; i++)
		free(c->slots[i].shadow);
	free(c->slots);
	findings = c->findings;
	free(c);
	return findings;
}
