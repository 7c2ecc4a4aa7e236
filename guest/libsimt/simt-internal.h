/* SPDX-License-Identifier: MIT */
/*
 * libsimt internals that its tests (tests/guest/lib/) look at: what
 * simt_launch() puts into the LAUNCH command, and where a module's live
 * table is.  Not part of the API: no program but the tests should use
 * them.  Licensed under the MIT licence, as written out in libsimt.h.
 */
#ifndef SIMT_INTERNAL_H
#define SIMT_INTERNAL_H

#include <drm/simt_accel.h>

#include "libsimt.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The LAUNCH command simt_launch() would submit for these arguments, in
 * the form of interface 0.3 (on an older driver simt_launch() sends its
 * first 120 bytes, with the metadata fields and the flag cleared).  It
 * does what simt_launch() does before the SUBMIT (local memory may be
 * grown), checks the arguments the same way, and submits nothing.
 */
simt_status simt_internal_launch_cmd(simt_kernel *kernel, simt_dim3 grid,
				     simt_dim3 block, uint32_t dynamic_shared,
				     const uint32_t *args, unsigned int nargs,
				     struct drm_simt_cmd *cmd);

/*
 * Whether a launch of @kernel with these arguments may carry
 * DRM_SIMT_CMD_LAUNCH_IDEMPOTENT (1) or not (0), by the rule of
 * simt_launch() in libsimt.h.
 */
int simt_internal_launch_idempotent(const simt_kernel *kernel,
				    const uint32_t *args, unsigned int nargs);

/*
 * The device memory holding @mod's live table (one 64-bit mask per
 * instruction of the image's code, as the device reads it), or NULL.
 */
simt_buffer *simt_internal_module_live(simt_module *mod);

#ifdef __cplusplus
}
#endif

#endif /* SIMT_INTERNAL_H */
