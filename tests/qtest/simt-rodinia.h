/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The inputs and host references of kernels/rodinia.c's kernels, for the
 * preemption measurements: each workload puts its generated inputs in
 * VRAM, sets the launch and says which VRAM ranges hold its results and
 * what they must be.
 */
#ifndef SIMT_RODINIA_H
#define SIMT_RODINIA_H

#include "simt-qtest.h"

#define RODINIA_OUTS    4

typedef struct RodiniaRun {
    Launch launch;              /* kernel, grid, block and arguments */
    uint32_t out_addr[RODINIA_OUTS], out_bytes[RODINIA_OUTS];
    unsigned outs;
    uint8_t *want;              /* the outputs' reference, concatenated */
    size_t want_bytes;
} RodiniaRun;

/* Whether @kernel is one of kernels/rodinia.c's. */
bool rodinia_kernel(const char *kernel);

/*
 * Whether @kernel is one of kernels/rodinia.c's; if so, set @r up for
 * @blocks blocks of @threads threads (the launch's shape is the
 * workload's: 1-D, or 16 x 16), @work its size parameter, and return
 * true.  The caller frees r->want.
 */
bool rodinia_setup(Dev *d, const char *kernel, uint32_t blocks,
                   uint32_t threads, uint32_t work, RodiniaRun *r);

#endif
