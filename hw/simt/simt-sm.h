/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the SMs running their blocks (simt-sm.c).
 */
#ifndef HW_SIMT_SIMT_SM_H
#define HW_SIMT_SIMT_SM_H

#include "hw/simt/simt-core.h"
#include "hw/simt/simt-config.h"    /* SIMT_BURST_INSNS, SIMT_BURST_CYCLES */
#include "simt-sched.h"
#include "simt-sm-threads.h"    /* SIMT_CACHE_LINE */

/* How a resident block is leaving its SM. */
enum simt_leave {
    SIMT_LEAVE_NONE = 0,
    SIMT_LEAVE_DRAIN,           /* runs to completion, then leaves */
    SIMT_LEAVE_SAVE,            /* stopped; its record is being written */
    SIMT_LEAVE_PARK,            /* runs on to preemption points, then saved */
};

/* A block slot of an SM. */
typedef struct SimtSlot {
    bool used;
    uint32_t queue;             /* whose kernel the block belongs to */
    uint32_t linear;            /* block index in the grid */
    uint32_t leave;             /* enum simt_leave */
    bool in_event;              /* a victim of the current preemption */
    uint64_t leave_cycle;       /* SIMT_LEAVE_SAVE: off the SM then */
    uint64_t drain_due;         /* drained on an estimate: done by then */
    uint64_t ready_cycle;       /* restored: issues from then on */
    /* SIMT_LEAVE_PARK: warps stopped (bit per warp), and until when */
    uint32_t parked;
    uint64_t park_limit;
    uint64_t dispatch_cycle;
    uint64_t dispatch_insns;    /* warp_insns then (a restored block's) */
    SimtBlock block;
    SimtWarp *warps;
    SimtWarpTiming *wtiming;    /* the warps' latency model state */
    uint8_t *shared;            /* NULL while a save keeps it in place */
    uint32_t shared_bytes;      /* allocated at @shared */
} SimtSlot;

/*
 * The memory of a slot's warps, kept for the next block placed there
 * (simt-sched.c): fresh memory costs a page fault per 4 KiB at its first
 * touch, tens of microseconds for a block's warps.
 */
typedef struct SimtSlotStore {
    SimtWarp *warps;
    SimtWarpTiming *wtiming;
    uint32_t nwarps;            /* room for so many warps; 0: none kept */
} SimtSlotStore;

typedef struct SimtSM {
    /* What the scheduler and the preemption engine keep */
    uint32_t id;
    SimtRoom room;
    SimtSlot *slots;            /* SM_BLOCKS entries */
    uint32_t nslots;
    SimtSlotStore *store;       /* per slot */
    uint32_t kept_warps;        /* in all of it: SM_WARPS at most */
    uint64_t *port_cycle;       /* per issue port: time issued up to */
    uint32_t nports;
    uint64_t save_busy;         /* saves and restores serialise up to here */
    uint64_t ev_saved;          /* bytes saved from here in this event */
    uint64_t ev_wait;           /* its first save's wait, from the request */
    /*
     * Chimera: queue + 1 of the preemptor this SM is handed to, until
     * the event ends (0: none); no other kernel is placed on it, and the
     * preemptor only once its victims have all left.
     */
    uint32_t handed_to;
    /* threads > 1: how far the phase under way runs the SM (simt-sm.c) */
    uint64_t phase_end;
    /*
     * What the SM's steps write, at every burst: with threads > 1, on
     * the core that runs the SM, a cache line away from the above, which
     * the main loop's thread reads between phases.
     */
    char pad_steps[SIMT_CACHE_LINE];
    uint64_t mem_pipe;          /* global memory: busy up to */
    uint32_t next_slot;         /* round-robin cursor */
    uint32_t next_warp;
    /*
     * After a step that found no warp ready, the warp that wakes the SM
     * (wake_warp of slot wake_slot, ready at wake_cycle), if nothing on
     * the SM changes before: what the next step's scan would find.
     */
    bool wake_known;
    uint32_t wake_slot, wake_warp;
    uint64_t wake_cycle;
    /*
     * threads > 1: the block that finished or faulted in a phase, and
     * when; and one past the cycle the SM's last step in a phase began
     * at (0: none), which for that block's step names the slice it
     * retires in: a later one's phases when the SM ran ahead.  Freeing
     * the slot before then (a queue stopped, a kernel aborted) drops it.
     */
    SimtSlot *phase_slot;
    uint64_t phase_retired;     /* UINT64_MAX: none */
    uint64_t phase_found;
    uint32_t phase_slot_index;  /* phase_slot, in a migration stream */
    /*
     * With threads > 1 two host cores write two SMs' state at every
     * burst: the next SM's begins a cache line further on.
     */
    char pad_end[SIMT_CACHE_LINE];
} SimtSM;

typedef struct SimtState SimtState;

/* The instruction costs of this machine (SimtState.timing). */
void simt_sm_timing_init(SimtState *s);
/*
 * Run every SM over device cycles [start, end); with threads > 1, those
 * no block can be placed on up to @ahead when that is later (simt-slice.c).
 */
void simt_sm_run_slice(SimtState *s, uint64_t start, uint64_t end,
                       uint64_t ahead);
/* An SM's finished block found ahead of its slice, and where it stands. */
extern const VMStateDescription vmstate_simt_sm_found;
/*
 * The cycle from which no SM has begun a step: past the slice engine's
 * start only while SMs run ahead (simt-slice.c).
 */
uint64_t simt_sm_reached(SimtState *s);

#endif /* HW_SIMT_SIMT_SM_H */
