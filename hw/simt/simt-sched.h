/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the block scheduler and the SMs' room (simt-sched.c).  The SMs'
 * own types are simt-sm.h's.
 */
#ifndef HW_SIMT_SIMT_SCHED_H
#define HW_SIMT_SIMT_SCHED_H

#include "migration/vmstate.h"
#include "hw/simt/simt-hw.h"
#include "hw/simt/simt-core.h"

/*
 * What is free on an SM for blocks to take, and whose blocks are on it.
 * The scheduler changes an SM's room; victim selection works on copies.
 */
typedef struct SimtRoom {
    uint32_t threads;
    uint32_t warps;
    uint32_t blocks;
    uint32_t regs;
    uint32_t shared;            /* bytes */
    uint32_t kernels;           /* distinct kernels with blocks on it */
    uint16_t blocks_of[SIMT_MAX_QUEUES];
} SimtRoom;

/* What one block of a kernel takes. */
typedef struct SimtNeed {
    uint32_t threads;
    uint32_t warps;
    uint32_t regs;
    uint32_t shared;
} SimtNeed;

typedef struct SimtSM SimtSM;
typedef struct SimtSlot SimtSlot;
typedef struct SimtState SimtState;
typedef struct SimtKernel SimtKernel;
typedef struct SimtSaved SimtSaved;

void simt_sched_init(SimtState *s);
void simt_sched_free(SimtState *s);
/* The SMs' clocks back to cycle 0 with the device's (all slots free). */
void simt_sched_reset(SimtState *s);
/* Place blocks of ready kernels on SMs, most room first. */
void simt_sched_dispatch(SimtState *s, uint64_t cycle);
/* Take every block of queue @q's kernel off the SMs. */
void simt_sched_evict_kernel(SimtState *s, unsigned q, uint64_t cycle);
void simt_sched_release(SimtState *s, SimtSM *sm, SimtSlot *slot,
                        uint64_t cycle);
/* The ready kernel that dispatches next, or -1. */
int simt_sched_head(SimtState *s);
/* Whether some SM has room for a block of queue @q's kernel now. */
bool simt_sched_has_room(SimtState *s, unsigned q);
/* Has @sm no room for a block of any kernel with blocks left to place? */
bool simt_sched_sm_takes_none(SimtState *s, const SimtSM *sm);
/* May queue @q's kernel be preempted for queue @hq's by priority? */
bool simt_sched_is_lower(SimtState *s, unsigned hq, unsigned q);
/*
 * May no kernel with blocks left to place preempt another kernel now
 * running for its priority, whatever blocks retire?
 */
bool simt_sched_none_lower(SimtState *s);
/* Whether blocks of kernels that may be preempted for @q's are on SMs. */
bool simt_sched_lower_resident(SimtState *s, unsigned q);
/* A resident kernel of @q's priority whose time slice is over, or -1. */
int simt_sched_slice_over(SimtState *s, unsigned q, uint64_t cycle);

/* Migration: an SM, its slots and their blocks; rebuild their pointers. */
extern const VMStateDescription vmstate_simt_sm;
bool simt_sched_post_load(SimtState *s);

/* An empty SM's room. */
void simt_room_empty_sm(SimtState *s, SimtRoom *r);
/* What a block of @k takes. */
SimtNeed simt_block_need(const SimtKernel *k);
/* How many blocks of queue @q, each taking @n, fit in @r (kernel slots too). */
uint32_t simt_room_fits(SimtState *s, const SimtRoom *r, unsigned q,
                        const SimtNeed *n);
/* A block of queue @q arrives in @r, or leaves it. */
void simt_room_take(SimtRoom *r, unsigned q, const SimtNeed *n);
void simt_room_give(SimtRoom *r, unsigned q, const SimtNeed *n);
/* No block is on @sm. */
bool simt_sched_sm_empty(SimtState *s, const SimtSM *sm);
/*
 * Saved block @sv of @k will not come back: the shared memory kept for it
 * on its SM (sv->shared) is freed.
 */
void simt_sched_drop_kept(SimtState *s, SimtSaved *sv, const SimtKernel *k);

#endif /* HW_SIMT_SIMT_SCHED_H */
