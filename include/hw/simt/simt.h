/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the device state shared by the device's hardware blocks.
 */
#ifndef HW_SIMT_SIMT_H
#define HW_SIMT_SIMT_H

#include "hw/pci/pci_device.h"
#include "qom/object.h"
#include "migration/vmstate.h"
#include "hw/simt/simt-hw.h"
#include "hw/simt/simt-config.h"
#include "hw/simt/simt-core.h"
#include "hw/simt/simt-dma.h"
#include "hw/simt/simt-mmu.h"

#define TYPE_SIMT "simt"
OBJECT_DECLARE_SIMPLE_TYPE(SimtState, SIMT)

/* Limits on the properties, checked at realize. */
#define SIMT_MIN_VRAM_SIZE      (1 * MiB)
#define SIMT_MAX_VRAM_SIZE      (4 * GiB)

/* Device cycles the engine advances per timer tick (bounded host work). */
#define SIMT_SLICE_CYCLES       1000
/* Host time one tick may spend catching up when the engine lags. */
#define SIMT_TICK_BUDGET_NS     (1000 * 1000)
/* Warp instructions one warp runs before the SM moves to the next warp. */
#define SIMT_BURST_INSNS        64
/* Slice length while blocks are leaving or being restored: finer timing. */
#define SIMT_PREEMPT_SLICE_CYCLES 100

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

/* How a resident block is leaving its SM. */
enum simt_leave {
    SIMT_LEAVE_NONE = 0,
    SIMT_LEAVE_DRAIN,           /* runs to completion, then leaves */
    SIMT_LEAVE_SAVE,            /* stopped; its record is being written */
};

/* A block slot of an SM. */
typedef struct SimtSlot {
    bool used;
    uint32_t queue;             /* whose kernel the block belongs to */
    uint32_t linear;            /* block index in the grid */
    uint32_t leave;             /* enum simt_leave */
    bool in_event;              /* a victim of the current preemption */
    uint64_t leave_cycle;       /* SIMT_LEAVE_SAVE: off the SM then */
    uint64_t ready_cycle;       /* restored: issues from then on */
    uint64_t dispatch_cycle;
    uint64_t dispatch_insns;    /* warp_insns then (a restored block's) */
    SimtBlock block;
    SimtWarp *warps;
    uint8_t *shared;            /* NULL while a save keeps it in place */
    uint32_t shared_bytes;      /* allocated at @shared */
} SimtSlot;

typedef struct SimtSM {
    uint32_t id;
    uint32_t free_threads;
    uint32_t free_warps;
    uint32_t free_blocks;
    uint32_t free_regs;
    uint32_t free_shared;
    uint32_t kernels;           /* distinct kernels resident */
    uint16_t blocks_of[SIMT_MAX_QUEUES];
    SimtSlot *slots;            /* SM_BLOCKS entries */
    uint32_t nslots;
    uint64_t *port_cycle;       /* per issue port: time issued up to */
    uint32_t nports;
    uint32_t next_slot;         /* round-robin cursor */
    uint32_t next_warp;
    uint64_t save_busy;         /* saves and restores serialise up to here */
    uint64_t ev_saved;          /* bytes saved from here in this event */
    uint64_t ev_wait;           /* its first save's wait, from the request */
    /*
     * Chimera: queue + 1 of the preemptor this SM is handed to, until
     * the event ends (0: none); no other kernel is placed on it, and the
     * preemptor only once its victims have all left.
     */
    uint32_t handed_to;
} SimtSM;

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
    bool ran;                   /* its work is on the device this slice */
    SimtKernel kernel;
    SimtCopy copy;
} SimtQueue;

/* The preemption engine (simt-preempt.c). */
typedef struct SimtPreempt {
    uint32_t bound;             /* PREEMPT_BOUND, cycles */
    uint32_t timeslice;
    uint64_t log_base;          /* event log ring */
    uint32_t log_size;
    uint32_t log_count;
    uint64_t trace_base;        /* timeline ring */
    uint32_t trace_size;
    uint32_t trace_count;
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

struct SimtState {
    PCIDevice parent_obj;

    MemoryRegion regs;
    MemoryRegion vram;
    QEMUTimer *tick;
    VMChangeStateEntry *vm_state;

    /* properties */
    char *preset_name;
    char *placement_name;
    uint32_t cfg_override[SIMT_CFG_NR];
    uint32_t cfg_overridden;    /* bit per SimtConfigField */
    uint64_t vram_size;

    /* configuration, fixed at realize */
    int preset;
    SimtConfig cfg;
    uint32_t *sm_order;         /* tie-break order */
    const struct SimtPlacement *placement;  /* where blocks go */
    uint32_t place_next;        /* the placement policy's own state */
    uint32_t *place_room;       /* per SM, blocks that fit (scheduler) */
    uint32_t policy_errors;     /* POLICY_ERRORS */
    char *preempt_choice_name;
    char *copy_policy_name;
    const struct SimtCopyPolicy *copy_policy;       /* copies' order */
    const struct SimtPreemptChoice *preempt_choice;  /* auto's choice */
    SimtMem mem;                /* what kernels' global accesses reach */
    SimtTiming timing;          /* instruction costs on this machine */

    /* registers */
    uint32_t scratch;
    uint32_t irq_status;
    uint32_t irq_mask;
    uint32_t irq_count;
    uint32_t cycle_hi_latch;

    /* the engine */
    int64_t time_base_ns;       /* virtual time of device cycle 0 */
    uint64_t slice_start;       /* first cycle the next tick runs */
    bool ticking;
    uint64_t launch_seq;
    uint64_t blocks_done;
    SimtQueue queues[SIMT_MAX_QUEUES];
    SimtSM *sms;

    /* contexts and the MMU */
    SimtContext contexts[SIMT_MAX_CONTEXTS];
    SimtTlbEntry tlb[SIMT_TLB_ENTRIES];
    uint32_t tlb_inv_ctx;
    uint32_t tlb_inv_addr;
    uint64_t tlb_hits;
    uint64_t tlb_misses;
    uint32_t mmu_faults;

    /* copy engines */
    SimtEngine engines[SIMT_MAX_COPY_ENGINES];
    uint32_t dma_chunk;
    uint64_t copy_seq;
    uint8_t *bounce;            /* SIMT_DMA_BOUNCE bytes */

    SimtPreempt pre;
};

static inline uint32_t simt_cfg(const SimtState *s, SimtConfigField f)
{
    return s->cfg.field[f];
}

/* simt-queue.c: registers, command processor, kernel completion */
uint32_t simt_queue_reg_read(SimtState *s, unsigned q, unsigned reg);
void simt_queue_reg_write(SimtState *s, unsigned q, unsigned reg,
                          uint32_t val);
/* Fetch and run commands of every ready queue; true if a queue waits. */
bool simt_queues_process(SimtState *s, uint64_t cycle);
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
/* Migration: queues' kernels and copies; rebuild what is not migrated. */
extern const VMStateDescription vmstate_simt_queue_work;
bool simt_queues_post_load(SimtState *s);

/* simt-sched.c: the block scheduler */
void simt_sched_init(SimtState *s);
void simt_sched_free(SimtState *s);
/* The SMs' clocks back to cycle 0 with the device's (all slots free). */
void simt_sched_reset(SimtState *s);
/* Place blocks of ready kernels on SMs, most room first. */
void simt_sched_dispatch(SimtState *s, uint64_t cycle);
/* Blocks of one kernel an empty SM can hold (0: the kernel cannot run). */
uint32_t simt_sched_fits_empty(SimtState *s, const SimtKernel *k);
/* Take every block of queue @q's kernel off the SMs. */
void simt_sched_evict_kernel(SimtState *s, unsigned q, uint64_t cycle);
void simt_sched_release(SimtState *s, SimtSM *sm, SimtSlot *slot,
                        uint64_t cycle);
/* The ready kernel that dispatches next, or -1. */
int simt_sched_head(SimtState *s);
/* Whether some SM has room for a block of queue @q's kernel now. */
bool simt_sched_has_room(SimtState *s, unsigned q);
/* May queue @q's kernel be preempted for queue @hq's by priority? */
bool simt_sched_is_lower(SimtState *s, unsigned hq, unsigned q);
/* Whether blocks of kernels that may be preempted for @q's are on SMs. */
bool simt_sched_lower_resident(SimtState *s, unsigned q);
/* A resident kernel of @q's priority whose time slice is over, or -1. */
int simt_sched_slice_over(SimtState *s, unsigned q, uint64_t cycle);

/* Migration: an SM, its slots and their blocks; rebuild their pointers. */
extern const VMStateDescription vmstate_simt_sm;
bool simt_sched_post_load(SimtState *s);

/* simt-sm.c: running resident blocks under the timing model */
/* The instruction costs of this machine (SimtState.timing). */
void simt_sm_timing_init(SimtState *s);
/* Run every SM over device cycles [start, end). */
void simt_sm_run_slice(SimtState *s, uint64_t start, uint64_t end);
bool simt_sm_any_resident(SimtState *s);

/* simt-preempt.c: the preemption engine */
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
/* May the kernel of queue @q dispatch (its context is not suspended)? */
bool simt_preempt_may_run(SimtState *s, unsigned q);
/* A block of queue @q was placed (@restored: from a save record). */
void simt_preempt_placed(SimtState *s, unsigned q, SimtSM *sm,
                         SimtSlot *slot, uint64_t cycle);
/* Bring a saved block back into @slot; false if its record is bad. */
bool simt_preempt_restore(SimtState *s, unsigned q, const SimtSaved *sv,
                          SimtSM *sm, SimtSlot *slot);
/* A slot is being freed (retired, evicted); counts leaving victims. */
void simt_preempt_slot_free(SimtState *s, SimtSlot *slot, uint64_t cycle);
/* Queue @q's kernel ended: forget its saved blocks. */
void simt_preempt_kernel_end(SimtState *s, unsigned q);
/* Read a kernel's live table at launch; false if it is unreachable. */
bool simt_preempt_load_live(SimtState *s, unsigned q, uint32_t addr);
/* Append a record to the timeline ring. */
void simt_trace_event(SimtState *s, unsigned type, unsigned q, unsigned sm,
                      uint32_t block, uint64_t cycle);
/* PSTATE and SAVE_USED of context @ctx. */
uint32_t simt_preempt_ctx_state(SimtState *s, unsigned ctx);
uint32_t simt_preempt_save_used(SimtState *s, unsigned ctx);
/* Migration: the event under way and save areas in use; saved blocks. */
extern const VMStateDescription vmstate_simt_preempt_work;
extern const VMStateDescription vmstate_simt_saved;
/* A GArray of SimtSaved (field's vmsd: vmstate_simt_saved) or uint32_t. */
extern const VMStateInfo simt_vmstate_info_list;

#endif /* HW_SIMT_SIMT_H */
