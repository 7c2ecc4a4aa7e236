/* SPDX-License-Identifier: MIT */
/*
 * libsimt has two backends behind one API (libsimt.h): the device's
 * (guest/libsimt/simt.c, through the driver) and the warp interpreter's
 * (tools/simt-run/simt-interp.c, on the host with no VM).  This is what
 * the code they share (simt-split.c) asks of either.  Not part of the
 * API.  Licensed under the MIT licence, as written out in libsimt.h.
 */
#ifndef SIMT_BACKEND_H
#define SIMT_BACKEND_H

#include "libsimt.h"

/*
 * Queue a launch of blocks [@first, @first + @count) of @grid, in the
 * order of their linear indices; @count 0 is the whole grid (arguments
 * and errors otherwise as simt_launch's).
 */
simt_status simt_backend_launch_range(simt_kernel *kernel, simt_dim3 grid, simt_dim3 block,
				      uint32_t dynamic_shared, const uint32_t *args,
				      unsigned int nargs, uint32_t first, uint32_t count,
				      uint64_t *seq);

/* The context @kernel's module was loaded into. */
simt_context *simt_backend_kernel_context(const simt_kernel *kernel);

/* Blocks in one wave: SM count x blocks per SM. */
uint32_t simt_backend_wave_blocks(simt_context *ctx);

/*
 * SIMT_SUCCESS if launches of part of a grid can be queued on @ctx, else
 * SIMT_ERROR_LAUNCH_REFUSED with the reason (@name: the kernel's).
 */
simt_status simt_backend_check_subgrids(simt_context *ctx, const char *name);

#endif /* SIMT_BACKEND_H */
