/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the command queues and their kernels (simt-queue.c).
 */
#ifndef HW_SIMT_SIMT_QUEUE_H
#define HW_SIMT_SIMT_QUEUE_H

#include "migration/vmstate.h"
#include "hw/simt/simt-hw.h"
#include "hw/simt/simt-core.h"
#include "simt-dma.h"
#include "simt-mmu.h"

/* One launched grid; a queue runs at most one at a time. */
typedef struct SimtKernel {
    bool active;
    uint32_t priority;
    uint64_t seq;               /* arrival order, breaks priority ties */
    SimtLaunch launch;
    SimtCode code;
    uint64_t record;            /* completion record address, 0: none */
    SimtMem mem;                /* global memory through the context */
    SimtMmuView view;
    uint32_t flags;
    uint32_t threads;           /* per block */
    uint32_t warps;             /* per block */
    uint32_t regs;              /* per block */
    uint32_t local_base;
    uint32_t local_block_bytes;
    uint32_t total_blocks;      /* blocks it runs (its subgrid's) */
    uint32_t next_block;        /* linear index of the next to dispatch */
    uint32_t end_block;         /* ... and one past the subgrid's last */
    uint32_t resident;
    uint32_t retired;
    bool started;
    uint64_t start_cycle;
    uint64_t end_cycle;
    uint64_t thread_insns;
    uint64_t warp_insns;
    SimtGridResult fault;       /* fault.fault != 0: the kernel faulted */

    /* preemption */
    uint32_t ctx;
    uint32_t int_regs;          /* registers the kernel uses */
    uint32_t fp_regs;
    uint64_t *live;             /* live table of [code_base, +code_size) */
    uint32_t live_count;
    uint32_t *pp;               /* its preemption points, ascending */
    uint32_t pp_count;
    GArray *redo;               /* uint32_t: flushed blocks to run again */
    GArray *saved;              /* SimtSaved: switched-out blocks */
    uint64_t run_since;         /* cycle it last got the SMs (time slice) */
    /* finished blocks, for the drain-time estimate of the auto mode */
    uint32_t stat_blocks;
    uint64_t stat_insns;
    double stat_cpi_sum;
    double stat_cpi_sq;
    /* of those placed from their start: Chimera's drain-time estimate */
    uint32_t stat_time_blocks;
    uint64_t stat_time_sum;
} SimtKernel;

typedef struct SimtQueue {
    uint64_t base;
    uint32_t size;
    uint32_t head;
    uint32_t tail;
    uint32_t priority;
    uint32_t control;
    uint32_t state;             /* enum simt_queue_state */
    uint32_t error;             /* enum simt_queue_error */
    uint32_t error_cmd;
    uint32_t completed;
    uint32_t ctx;               /* context the queue's work runs in */
    uint32_t active_cycles;     /* ACTIVE_CYCLES */
    uint32_t kernel_cycles;     /* KERNEL_CYCLES */
    uint32_t copy_cycles;       /* COPY_CYCLES */
    bool kernel_ran;            /* its blocks are on SMs this slice */
    bool copy_ran;              /* a copy engine moves its copy this slice */
    SimtKernel kernel;
    SimtCopy copy;
} SimtQueue;

typedef struct SimtState SimtState;

/*
 * Queue @q's register @reg (an offset in SIMT_QUEUE_REGS, which the
 * caller checked): false if the queue does not decode it.
 */
bool simt_queue_reg_read(SimtState *s, unsigned q, unsigned reg,
                         uint32_t *val);
bool simt_queue_reg_write(SimtState *s, unsigned q, unsigned reg,
                          uint32_t val);
/*
 * A TAIL written to queue @q's doorbell page: the TAIL register's write
 * if the queue is enabled with SIMT_QCTL_USER; false (nothing done)
 * otherwise.
 */
bool simt_queue_doorbell(SimtState *s, unsigned q, uint32_t tail);
/* Fetch and run commands of every ready queue; true if a queue waits. */
bool simt_queues_process(SimtState *s, uint64_t cycle);
/*
 * Will no queue fetch a command, nor any copy move, until one of the
 * kernels running now ends; and do those run in the device's own view
 * (no TLB) with no saved block to restore?  Then only blocks retiring
 * change the queues (simt-slice.c's run ahead).
 */
bool simt_queues_settled(SimtState *s);
/* A kernel's last block retired (or it was aborted): write its record. */
void simt_kernel_finish(SimtState *s, unsigned q);
/*
 * The one way a kernel ends before its blocks do (a fault, a save record
 * that cannot be restored): at @cycle its blocks leave the SMs and its
 * completion record says why.
 */
void simt_kernel_abort(SimtState *s, unsigned q, uint64_t cycle);
/* Queue @q's copy ended, with a queue error or 0. */
void simt_queue_copy_done(SimtState *s, unsigned q, uint32_t error);
void simt_queues_reset(SimtState *s);
/* A slice starts, its blocks placed: note the queues with blocks on SMs. */
void simt_queues_slice_begin(SimtState *s);
/* The slice of @cycles ends: add them to the queues whose work ran. */
void simt_queues_slice_end(SimtState *s, uint64_t cycles);
bool simt_queues_busy(SimtState *s);
/* Migration: a queue's registers. */
extern const VMStateDescription vmstate_simt_queue;
/* Migration: queues' kernels and copies; rebuild what is not migrated. */
extern const VMStateDescription vmstate_simt_queue_work;
bool simt_queues_post_load(SimtState *s);

#endif /* HW_SIMT_SIMT_QUEUE_H */
