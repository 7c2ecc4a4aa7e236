/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: one way to report what a guest got wrong, as QEMU's NVMe device
 * does: an error trace event of its own (simt_err_*, hw/simt/trace-events)
 * and the same words under -d guest_errors.
 */
#ifndef HW_SIMT_SIMT_ERR_H
#define HW_SIMT_SIMT_ERR_H

#include "qemu/log.h"

#define SIMT_GUEST_ERR(trace, fmt, ...)                                    \
    do {                                                                   \
        (trace_##trace)(__VA_ARGS__);                                      \
        qemu_log_mask(LOG_GUEST_ERROR, "simt: " fmt "\n", ## __VA_ARGS__); \
    } while (0)

#endif /* HW_SIMT_SIMT_ERR_H */
