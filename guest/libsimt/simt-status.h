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

#endif /* SIMT_STATUS_H */
