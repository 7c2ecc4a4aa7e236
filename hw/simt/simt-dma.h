/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: copy engines.  Copies move in chunks; at every chunk boundary an
 * engine takes the highest-priority pending copy (seed 002).
 */
#ifndef HW_SIMT_DMA_H
#define HW_SIMT_DMA_H

#include "migration/vmstate.h"
#include "hw/simt/simt-hw.h"

/* Bytes moved per host step; pieces never cross a device page. */
#define SIMT_DMA_BOUNCE         (64 * 1024)

/* A queue's COPY command in flight. */
typedef struct SimtCopy {
    bool active;
    int engine;                 /* serving engine, or -1 while pending */
    uint32_t flags;
    uint32_t ctx;
    uint32_t priority;
    uint64_t seq;               /* submission order, breaks ties */
    uint64_t src;
    uint64_t dst;
    uint64_t size;
    uint64_t done;              /* bytes moved */
    bool finished;              /* last chunk moved, its cycles running */
    uint32_t error;             /* ... and how the copy ended */
} SimtCopy;

typedef struct SimtCopyEngine {
    int queue;                  /* copy being served, or -1 */
    uint64_t cycle;             /* the engine's clock */
    uint64_t bytes;
    uint32_t chunks;
    uint32_t switches;
} SimtCopyEngine;

/* The copy engines' state in SimtState. */
typedef struct SimtDma {
    SimtCopyEngine engines[SIMT_MAX_COPY_ENGINES];
    uint32_t chunk;             /* the DMA_CHUNK register */
    uint64_t seq;               /* copies submitted */
    uint8_t *bounce;            /* SIMT_DMA_BOUNCE bytes */
} SimtDma;

typedef struct SimtState SimtState;

void simt_dma_reset(SimtState *s);
/* Check and start queue @q's COPY; a queue error code, or 0. */
uint32_t simt_dma_submit(SimtState *s, unsigned q,
                         const struct simt_cmd_copy *c, uint64_t cycle);
/* Drop queue @q's copy (the queue stopped). */
void simt_dma_cancel(SimtState *s, unsigned q);
/* Run every engine over device cycles [start, end). */
void simt_dma_run_slice(SimtState *s, uint64_t start, uint64_t end);
/* Copy engine @e's register @reg: false if it is not decoded here. */
bool simt_copy_engine_reg_read(SimtState *s, unsigned e, unsigned reg,
                               uint32_t *val);
extern const VMStateDescription vmstate_simt_copy;
extern const VMStateDescription vmstate_simt_copy_engine;

#endif /* HW_SIMT_DMA_H */
