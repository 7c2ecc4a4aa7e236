// SPDX-License-Identifier: MIT
/*
 * libsimt's kernel splitting (seed 002's PKM), the same on both backends
 * (simt-backend.h): simt_launch_split in libsimt.h.  Licensed under the
 * MIT licence, as written out in libsimt.h.
 */
#include <stdint.h>
#include <string.h>

#include "libsimt.h"
#include "simt-backend.h"
#include "simt-status.h"

/*
 * S from a measured subkernel: the most blocks that take at most @target
 * cycles at the rate of @count blocks in @cycles, within [1, @total].
 */
static uint32_t split_blocks(uint64_t target, uint32_t count, uint64_t cycles,
			     uint64_t total)
{
	double s = (double)target * count / (cycles ? cycles : 1);

	if (s < 1)
		return 1;
	return s >= (double)total ? (uint32_t)total : (uint32_t)s;
}

simt_status simt_launch_split(simt_kernel *kernel, simt_dim3 grid, simt_dim3 block,
			      uint32_t dynamic_shared, const uint32_t *args,
			      unsigned int nargs, const struct simt_split *split,
			      struct simt_split_result *r)
{
	struct simt_split_result local;
	struct simt_kernel_attrs attrs;
	struct simt_result sub;
	uint64_t total, done = 0, seq, cycles;
	uint32_t size, count;
	simt_context *ctx;
	simt_status st;

	if (!r)
		r = &local;
	memset(r, 0, sizeof(*r));
	if (!kernel || !split)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_launch_split: no kernel or no split");
	simt_kernel_get_attrs(kernel, &attrs);
	if (!split->subkernel_blocks && !split->target_cycles)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "split launch of %s: neither a subkernel size nor a target time",
				 attrs.name);
	total = (uint64_t)grid.x * grid.y * grid.z;
	if (!total || total > UINT32_MAX)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "split launch of %s: grid %ux%ux%u: 1 to 2^32 - 1 blocks can be split",
				 attrs.name, grid.x, grid.y, grid.z);
	ctx = simt_backend_kernel_context(kernel);
	size = split->subkernel_blocks;
	if (!size)
		size = split->probe_blocks ? split->probe_blocks : simt_backend_wave_blocks(ctx);
	if (size < total) {
		st = simt_backend_check_subgrids(ctx, attrs.name);
		if (st)
			return st;
	}
	while (done < total) {
		count = total - done < size ? (uint32_t)(total - done) : size;
		/* A grid that fits in one subkernel is launched as it is. */
		st = simt_backend_launch_range(kernel, grid, block, dynamic_shared, args, nargs,
						(uint32_t)done, count == total ? 0 : count, &seq);
		if (!st)
			st = simt_wait(ctx, seq, -1, &sub);
		else
			memset(&sub, 0, sizeof(sub));
		if (!r->subkernels)
			r->result.start_cycle = sub.start_cycle;
		r->result.status = st;
		r->result.hw_error = sub.hw_error;
		r->result.fault_addr = sub.fault_addr;
		r->result.fault_pc = sub.fault_pc;
		r->result.end_cycle = sub.end_cycle;
		if (st)
			return st;
		cycles = sub.end_cycle - sub.start_cycle;
		r->busy_cycles += cycles;
		if (!r->subkernels++ && !split->subkernel_blocks)
			size = split_blocks(split->target_cycles, count, cycles, total);
		else if (cycles > r->longest_cycles)
			r->longest_cycles = cycles;
		done += count;
	}
	r->subkernel_blocks = size;
	return SIMT_SUCCESS;
}
