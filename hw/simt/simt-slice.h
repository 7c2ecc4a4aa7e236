/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the slice engine's clock and slices (simt-slice.c).
 */
#ifndef HW_SIMT_SIMT_SLICE_H
#define HW_SIMT_SIMT_SLICE_H

#include "qemu/timer.h"

/* Device cycles the slice engine advances per tick (bounded host work). */
#define SIMT_SLICE_CYCLES       1000
/* Host time one tick may spend catching up when the slice engine lags. */
#define SIMT_TICK_BUDGET_NS     (1000 * 1000)
/* Slice length while blocks are leaving or being restored: finer timing. */
#define SIMT_PREEMPT_SLICE_CYCLES 100
/*
 * With threads > 1 and run-ahead, how far the SMs may run ahead of the
 * slice engine at most (simt-slice.c).
 */
#define SIMT_AHEAD_CYCLES       (32 * SIMT_SLICE_CYCLES)

/* The slice engine's state in SimtState. */
typedef struct SimtSliceEngine {
    QEMUTimer *timer;           /* fires at the end of the next slice */
    int64_t time_base_ns;       /* virtual time of device cycle 0 */
    uint64_t start;             /* first cycle the next slice runs */
    bool ticking;
} SimtSliceEngine;

typedef struct SimtState SimtState;

/* The device cycle counter now, in virtual time. */
uint64_t simt_now_cycle(SimtState *s);
/*
 * Act on the events the blocks posted (simt-event.h), in the order
 * posted: work that arrived wakes the slice engine; a finished copy or
 * a kernel the scheduler could not go on with goes to its queue.
 */
void simt_slice_take_events(SimtState *s);
/*
 * Before a register access that may change what the slice engine does
 * (or reads its present), run it up to the current cycle.
 */
void simt_slice_catch_up(SimtState *s);
/* The CYCLE register: the cycle the slice engine has reached. */
uint64_t simt_slice_cycle(SimtState *s);
void simt_slice_init(SimtState *s);
void simt_slice_free(SimtState *s);
/* Stopped, at cycle 0 now. */
void simt_slice_reset(SimtState *s);

#endif /* HW_SIMT_SIMT_SLICE_H */
