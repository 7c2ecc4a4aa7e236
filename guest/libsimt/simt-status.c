// SPDX-License-Identifier: MIT
/*
 * libsimt: statuses and the calling thread's last-error message.
 *
 * Copyright the simt authors.  Licensed under the MIT licence, as
 * written out in libsimt.h.
 */
#include <stdarg.h>
#include <stdio.h>

#include "simt-status.h"

static _Thread_local char last_error[512];

const char *simt_last_error(void)
{
	return last_error;
}

simt_status simt_set_error(simt_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return st;
}

const char *simt_error_string(simt_status status)
{
	switch (status) {
	case SIMT_SUCCESS: return "success";
	case SIMT_ERROR_INVALID_VALUE: return "invalid value";
	case SIMT_ERROR_NO_DEVICE: return "no simt device";
	case SIMT_ERROR_PERMISSION: return "permission denied";
	case SIMT_ERROR_OUT_OF_MEMORY: return "out of memory";
	case SIMT_ERROR_OUT_OF_RESOURCES: return "no hardware context or queue left";
	case SIMT_ERROR_INVALID_IMAGE: return "invalid kernel image";
	case SIMT_ERROR_NOT_FOUND: return "kernel not found";
	case SIMT_ERROR_ADDRESS_IN_USE: return "device address range in use";
	case SIMT_ERROR_LAUNCH_REFUSED: return "launch refused by the driver";
	case SIMT_ERROR_FAULT: return "device memory fault";
	case SIMT_ERROR_DEVICE: return "device error";
	case SIMT_ERROR_CONTEXT_FAILED: return "context stopped on an earlier error";
	case SIMT_ERROR_TIMEOUT: return "timed out";
	case SIMT_ERROR_BUSY: return "queue full";
	case SIMT_ERROR_SYSTEM: return "system call failed";
	case SIMT_ERROR_CANCELED: return "canceled by a device reset";
	case SIMT_ERROR_TOO_LARGE: return "larger than the device can hold";
	}
	return "unknown status";
}
