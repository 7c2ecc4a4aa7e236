/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the SMs running their blocks (simt-sm.c).
 */
#ifndef HW_SIMT_SIMT_SM_H
#define HW_SIMT_SIMT_SM_H

/*
 * A burst, the instructions one warp runs before its port moves on: at
 * most this many, issued less than SIMT_BURST_CYCLES after it began, so
 * that warps' clocks stay near their ports' and take the memory pipe
 * in about the order of time.
 */
#define SIMT_BURST_INSNS        128
#define SIMT_BURST_CYCLES       256

typedef struct SimtState SimtState;

/* The instruction costs of this machine (SimtState.timing). */
void simt_sm_timing_init(SimtState *s);
/* Run every SM over device cycles [start, end). */
void simt_sm_run_slice(SimtState *s, uint64_t start, uint64_t end);

#endif /* HW_SIMT_SIMT_SM_H */
