/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: what a block tells the blocks above it.  Calls run down the
 * tree; news runs up as an event the block posts here and the slice
 * engine takes (simt_slice_take_events): after each step of a slice
 * that can post one, and after each register write.  Between slices
 * and register writes the list is empty, so it is never migrated.
 */
#ifndef HW_SIMT_SIMT_EVENT_H
#define HW_SIMT_SIMT_EVENT_H

#include "hw/simt/simt-hw.h"

typedef enum SimtEventKind {
    SIMT_EVENT_WORK,            /* a doorbell, ENABLE or a preemption request */
    SIMT_EVENT_COPY_DONE,       /* a copy engine finished a queue's COPY */
    SIMT_EVENT_KERNEL_ABORT,    /* the scheduler could not go on with one */
} SimtEventKind;

typedef struct SimtEvent {
    SimtEventKind kind;
    unsigned queue;             /* COPY_DONE, KERNEL_ABORT */
    uint32_t error;             /* COPY_DONE: the queue error, or 0 */
    uint64_t cycle;             /* KERNEL_ABORT: the cycle it ends at */
} SimtEvent;

/*
 * Between two takes a queue posts at most one event (its one COPY
 * finishes, or its one kernel is aborted, which stops its placing), and
 * a register write one WORK.
 */
#define SIMT_MAX_EVENTS         (SIMT_MAX_QUEUES + 1)

typedef struct SimtEvents {
    SimtEvent list[SIMT_MAX_EVENTS];
    unsigned count;
} SimtEvents;

static inline void simt_event_post(SimtEvents *ev, SimtEvent e)
{
    g_assert(ev->count < SIMT_MAX_EVENTS);
    ev->list[ev->count++] = e;
}

#endif /* HW_SIMT_SIMT_EVENT_H */
