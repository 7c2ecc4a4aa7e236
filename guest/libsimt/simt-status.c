// SPDX-License-Identifier: MIT
/*
 * libsimt: statuses and the calling thread's last-error message.
 *
 * Copyright the simt authors.  Licensed under the MIT licence, as
 * written out in libsimt.h.
 */
#include <stdarg.h>
#include <stdio.h>

#include "hw/simt/simt-hw.h"
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
	case SIMT_ERROR_LAUNCH_REFUSED: return "launch refused";
	case SIMT_ERROR_FAULT: return "device memory fault";
	case SIMT_ERROR_DEVICE: return "device error";
	case SIMT_ERROR_CONTEXT_FAILED: return "context stopped on an earlier error";
	case SIMT_ERROR_TIMEOUT: return "timed out";
	case SIMT_ERROR_BUSY: return "queue full";
	case SIMT_ERROR_SYSTEM: return "system call failed";
	case SIMT_ERROR_CANCELED: return "canceled by a device reset";
	case SIMT_ERROR_TOO_LARGE: return "larger than the device can hold";
	case SIMT_ERROR_NOT_SUPPORTED: return "not supported by this backend";
	}
	return "unknown status";
}

simt_status simt_check_block_fits(const char *kernel, uint64_t threads, uint32_t regs,
				  uint32_t shared, uint32_t sm_threads, uint32_t sm_warps,
				  uint32_t sm_regs, uint32_t sm_shared, const char *whose)
{
	switch (simt_block_misfit(threads, regs, shared, sm_threads, sm_warps, sm_regs,
				  sm_shared)) {
	case SIMT_MISFIT_NONE:
		return SIMT_SUCCESS;
	case SIMT_MISFIT_THREADS:
		return simt_set_error(SIMT_ERROR_LAUNCH_REFUSED,
				      "launch of %s: a block of %llu threads exceeds %s %u threads per SM",
				      kernel, (unsigned long long)threads, whose, sm_threads);
	case SIMT_MISFIT_WARPS:
		return simt_set_error(SIMT_ERROR_LAUNCH_REFUSED,
				      "launch of %s: a block of %llu threads is %llu warps, over %s %u warps per SM",
				      kernel, (unsigned long long)threads,
				      (unsigned long long)(threads + 31) / 32, whose, sm_warps);
	case SIMT_MISFIT_REGS:
		return simt_set_error(SIMT_ERROR_LAUNCH_REFUSED,
				      "launch of %s: %u registers per thread x %llu threads = %llu registers, "
				      "over %s %u per SM",
				      kernel, regs, (unsigned long long)threads,
				      (unsigned long long)threads * regs, whose, sm_regs);
	case SIMT_MISFIT_SHARED:
		return simt_set_error(SIMT_ERROR_LAUNCH_REFUSED,
				      "launch of %s: shared memory per block (%u bytes) exceeds %s %u bytes "
				      "(%u KiB) per SM",
				      kernel, shared, whose, sm_shared, sm_shared / 1024);
	}
	return SIMT_SUCCESS;
}

const char *simt_hw_error_phrase(uint32_t hw_error)
{
	switch (hw_error) {
	case SIMT_QERR_NONE: return "no error";
	case SIMT_QERR_BAD_OPCODE: return "a command of unknown type";
	case SIMT_QERR_BAD_COMMAND: return "a command with reserved bits set or fields out of range";
	case SIMT_QERR_BAD_LAUNCH: return "a launch whose block fits on no SM";
	case SIMT_QERR_DMA: return "a ring, record or semaphore the device could not reach";
	case SIMT_QERR_FAULT: return "the kernel faulted";
	case SIMT_QERR_BAD_RING: return "a queue ring of invalid base or size";
	case SIMT_QERR_MMU: return "a copy to or from an unmapped device address";
	}
	return "an error this libsimt does not know";
}
