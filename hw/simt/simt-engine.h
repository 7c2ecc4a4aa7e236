/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the engine's clock and slices (simt-engine.c).
 */
#ifndef HW_SIMT_SIMT_ENGINE_H
#define HW_SIMT_SIMT_ENGINE_H

#include "qemu/timer.h"

/* Device cycles the engine advances per timer tick (bounded host work). */
#define SIMT_SLICE_CYCLES       1000
/* Host time one tick may spend catching up when the engine lags. */
#define SIMT_TICK_BUDGET_NS     (1000 * 1000)
/* Slice length while blocks are leaving or being restored: finer timing. */
#define SIMT_PREEMPT_SLICE_CYCLES 100

/* The engine's state in SimtState. */
typedef struct SimtSliceEngine {
    QEMUTimer *timer;           /* fires at the end of the next slice */
    int64_t time_base_ns;       /* virtual time of device cycle 0 */
    uint64_t start;             /* first cycle the next slice runs */
    bool ticking;
} SimtSliceEngine;

typedef struct SimtState SimtState;

/* The device cycle counter now, in virtual time. */
uint64_t simt_now_cycle(SimtState *s);
/* Make sure the engine's timer runs: there is work to do. */
void simt_kick(SimtState *s);
/*
 * Before a register access that may change what the engine does (or
 * reads its present), run it up to the current cycle.
 */
void simt_engine_catch_up(SimtState *s);
/* The CYCLE register: the cycle the engine has reached. */
uint64_t simt_engine_cycle(SimtState *s);
void simt_engine_init(SimtState *s);
void simt_engine_free(SimtState *s);
/* Stopped, at cycle 0 now. */
void simt_engine_reset(SimtState *s);

#endif /* HW_SIMT_SIMT_ENGINE_H */
