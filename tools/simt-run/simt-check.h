/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host runner's checkers (simt-run --check), like compute-sanitizer's
 * tools: memcheck (accesses outside shared memory, local memory or any
 * buffer, and misaligned ones), racecheck (shared-memory hazards between
 * two barriers) and synccheck (plain shuffles and votes by part of a
 * warp).  One checker serves one launch; the interpreter backend
 * (simt-interp.c) attaches it to each block it starts, and it prints its
 * findings on stderr as it makes them.
 */
#ifndef SIMT_CHECK_H
#define SIMT_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "hw/simt/simt-core.h"

struct simt_checker;

/* What a checker needs to know of the launch and of device memory. */
struct simt_check_env {
	unsigned int checks;		/* SIMT_CHECK_* of libsimt.h */
	const SimtLaunch *launch;
	const char *kernel;		/* its name, for reports */
	/* Device memory at device address 0, to read instructions. */
	const uint8_t *mem;
	uint32_t mem_size;
	/*
	 * Whether [@addr, @addr + @size) lies in a buffer or a module image;
	 * if not, a sentence about the nearest buffer in @why.
	 */
	int (*global_ok)(void *opaque, uint32_t addr, unsigned int size,
			 char *why, size_t len);
	/* The source position of @pc ("file.c:12", or "pc 0x... (sym+0x4)"). */
	void (*where)(void *opaque, uint32_t pc, char *buf, size_t len);
	void *opaque;
};

/*
 * A checker for one launch, running at most @slots blocks at a time;
 * NULL when host memory runs out.  @env must outlive it.
 */
struct simt_checker *simt_checker_create(const struct simt_check_env *env,
					 unsigned int slots);

/* Check @b, just initialised, in slot @slot: its shadow state starts clean. */
void simt_checker_attach(struct simt_checker *c, SimtBlock *b, unsigned int slot);

/* Free the checker; returns the number of findings it printed. */
uint64_t simt_checker_destroy(struct simt_checker *c);

#endif /* SIMT_CHECK_H */
