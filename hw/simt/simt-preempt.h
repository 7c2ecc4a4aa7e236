/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the preemption engine (simt-preempt.c).
 */
#ifndef HW_SIMT_SIMT_PREEMPT_H
#define HW_SIMT_SIMT_PREEMPT_H

#include "migration/vmstate.h"
#include "exec/hwaddr.h"
#include "hw/simt/simt-hw.h"

/* A block saved in its context's save area, waiting to be restored. */
typedef struct SimtSaved {
    uint32_t block;             /* linear index in the grid */
    uint32_t offset;            /* of its record in the save area */
    uint32_t bytes;
    /*
     * Shared memory left in place (seed 004): it stays allocated on SM
     * @sm, and the block comes back there.  NULL: saved in the record.
     */
    uint8_t *shared;
    uint32_t shared_bytes;      /* allocated at @shared, 0: none */
    uint32_t sm;
    uint64_t ready;             /* cycle its record is complete */
} SimtSaved;

typedef struct SimtPreempt {
    uint32_t bound;             /* PREEMPT_BOUND, cycles */
    uint32_t timeslice;
    uint64_t log_base;          /* event log ring */
    uint32_t log_size;
    uint32_t log_count;
    uint64_t oracle_base;       /* ORACLE table, sorted */
    uint32_t oracle_count;      /* its entries, 0: off */
    uint32_t events;            /* started */
    uint32_t saved_total;
    uint32_t restored_total;
    uint32_t wasted_total;
    struct simt_preempt_event last;
    /* the event under way */
    bool active;
    uint32_t pending;           /* victim blocks still on their SMs */
    struct simt_preempt_event ev;
    /* PREEMPT requests not started yet, and their modes */
    uint64_t requested;
    uint8_t req_mode[SIMT_MAX_CONTEXTS];
    int slice_victim;           /* queue whose time slice ran out */
    uint32_t status;            /* PREEMPT_STATUS error */
    /* save area space in use per context: SimtSaved extents by offset */
    GArray *extents[SIMT_MAX_CONTEXTS];
} SimtPreempt;

typedef struct SimtState SimtState;
typedef struct SimtSM SimtSM;
typedef struct SimtSlot SimtSlot;

void simt_preempt_init(SimtState *s);
void simt_preempt_reset(SimtState *s);
bool simt_preempt_reg_read(SimtState *s, hwaddr addr, uint32_t *val);
bool simt_preempt_reg_write(SimtState *s, hwaddr addr, uint32_t val);
/* Start a preemption if one is due; before dispatch at @cycle. */
void simt_preempt_check(SimtState *s, uint64_t cycle);
/* Saved blocks leave their SMs; an event ends.  At every slice end. */
void simt_preempt_advance(SimtState *s, uint64_t cycle);
uint64_t simt_preempt_next_leave(SimtState *s, uint64_t cycle);
/* Blocks are leaving or being restored: run short slices. */
bool simt_preempt_busy(SimtState *s);
/* No preemption under way, requested, or due to time slices (off). */
bool simt_preempt_settled(SimtState *s);
/* May the kernel of queue @q dispatch (its context is not suspended)? */
bool simt_preempt_may_run(SimtState *s, unsigned q);
/* A block of queue @q was placed (@restored: from a save record). */
void simt_preempt_placed(SimtState *s, unsigned q, SimtSM *sm,
                         SimtSlot *slot, uint64_t cycle);
/* Bring a saved block back into @slot; false if its record is bad. */
bool simt_preempt_restore(SimtState *s, unsigned q, const SimtSaved *sv,
                          SimtSM *sm, SimtSlot *slot);
/* How a warp of a block running on to preemption points came back. */
enum simt_stop {
    SIMT_STOP_NOT,              /* ran, and may run again */
    SIMT_STOP_POINT,            /* stopped at a preemption point */
    SIMT_STOP_CUT,              /* out of time: stopped where it is */
};
/*
 * Warp @warp of @slot's block, which runs on to preemption points, came
 * back at @cycle; once none of its warps can run, the block is saved.
 */
void simt_preempt_warp_stopped(SimtState *s, SimtSM *sm, SimtSlot *slot,
                               unsigned warp, unsigned how, uint64_t cycle);
/* A slot is being freed (retired, evicted); counts leaving victims. */
void simt_preempt_slot_free(SimtState *s, SimtSlot *slot, uint64_t cycle);
/* Queue @q's kernel ended: forget its saved blocks. */
void simt_preempt_kernel_end(SimtState *s, unsigned q);
/*
 * Context @ctx's register @reg if the preemption engine decodes it
 * (PSTATE, SAVE_USED): false otherwise.
 */
bool simt_preempt_ctx_reg_read(SimtState *s, unsigned ctx, unsigned reg,
                               uint32_t *val);
/* Migration: its registers; the event under way and save areas in use. */
extern const VMStateDescription vmstate_simt_preempt;
extern const VMStateDescription vmstate_simt_preempt_work;
/* A subsection of "simt": the ORACLE registers and event fields of 0.9. */
extern const VMStateDescription vmstate_simt_preempt_oracle;
/* Saved blocks. */
extern const VMStateDescription vmstate_simt_saved;
/* A GArray of SimtSaved (field's vmsd: vmstate_simt_saved) or uint32_t. */
extern const VMStateInfo simt_vmstate_info_list;

#endif /* HW_SIMT_SIMT_PREEMPT_H */
