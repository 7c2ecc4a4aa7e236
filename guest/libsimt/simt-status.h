/* SPDX-License-Identifier: MIT */
/*
 * libsimt's statuses and last-error message, shared by its two backends:
 * the device (simt.c) and the host's warp interpreter
 * (tools/simt-run/simt-interp.c).  Not part of the API.
 *
 * Copyright the simt authors.  Licensed under the MIT licence, as
 * written out in libsimt.h.
 */
#ifndef SIMT_STATUS_H
#define SIMT_STATUS_H

#include "libsimt.h"

/* Make @fmt the calling thread's simt_last_error(); returns @st. */
simt_status simt_set_error(simt_status st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * SIMT_SUCCESS if one block of a launch of @kernel (@threads threads,
 * @regs registers each, @shared bytes of shared memory) fits on an SM
 * with these limits (simt_block_misfit of simt-hw.h, the device's rule),
 * else SIMT_ERROR_LAUNCH_REFUSED naming the limit, whose are @whose
 * ("the device's", "the gtx480 preset's").
 */
simt_status simt_check_block_fits(const char *kernel, uint64_t threads, uint32_t regs,
				  uint32_t shared, uint32_t sm_threads, uint32_t sm_warps,
				  uint32_t sm_regs, uint32_t sm_shared, const char *whose);

/* What the device's error code (enum simt_queue_error) means, a phrase. */
const char *simt_hw_error_phrase(uint32_t hw_error);

#endif /* SIMT_STATUS_H */
