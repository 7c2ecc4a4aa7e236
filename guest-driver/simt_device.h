/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: DRM accel driver for the simt emulated SIMT accelerator.
 *
 * The driver's data model, which every part uses: the device, the open
 * file, contexts, bindings and buffer objects; the register accessors,
 * the limits and the debug categories (simt_device.c has the few
 * functions that go with them).  What each part does is in a header of
 * its own beside its .c (docs/driver.rst, "Files"), and the parts call
 * each other downward only, but for the few callbacks docs/driver.rst
 * lists.
 */
#ifndef __SIMT_DEVICE_H__
#define __SIMT_DEVICE_H__

#include <linux/atomic.h>
#include <linux/dma-fence.h>
#include <linux/io.h>
#include <linux/list.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/rwsem.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <drm/drm_device.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_mm.h>
#include <drm/drm_print.h>
#include <drm/gpu_scheduler.h>

#include "hw/simt/simt-hw.h"

struct simt_ctx;
struct simt_device;
struct simt_scheds;

/* One MSI-X vector, serving one interrupt class. */
struct simt_irq_vec {
	struct simt_device *sdev;
	unsigned int cls;
	int irq;		/* Linux IRQ number, 0 when not requested */
	atomic64_t count;	/* interrupts of this class handled */
	char name[32];
};

#define SIMT_DRIVER_NAME	"simt"
#define SIMT_DRIVER_DESC	"simt SIMT accelerator"

/*
 * Debug messages by category, as ivpu_dbg() has them: each goes through
 * drm_dbg() (the DRIVER bit of drm.debug) when its bit is set in the
 * module parameter debug_mask (every bit by default).
 */
#define SIMT_DBG_BO		BIT(0)	/* buffer objects */
#define SIMT_DBG_CTX		BIT(1)	/* contexts and hardware slots */
#define SIMT_DBG_VM		BIT(2)	/* bindings */
#define SIMT_DBG_JOB		BIT(3)	/* SUBMIT and WAIT */
#define SIMT_DBG_PARAM		BIT(4)	/* GET_PARAM */

extern unsigned int simt_debug_mask;

#define simt_dbg(drm, type, fmt, ...)					\
	do {								\
		if (READ_ONCE(simt_debug_mask) & SIMT_DBG_##type)	\
			drm_dbg(drm, "[" #type "] " fmt, ##__VA_ARGS__);\
	} while (0)

/* How long the driver waits for the test interrupt before giving up. */
#define SIMT_IRQ_TEST_TIMEOUT_MS	2000

/*
 * VRAM below sdev->vram_guard is never handed out: device address 0 (and
 * small offsets from it) never points into a buffer object, and the
 * device addresses below it are free for fixed bindings (kernel images
 * are linked at 64 KiB).  4 MiB when VRAM is large enough to spare it.
 */
#define SIMT_VRAM_GUARD_SMALL	SZ_64K
#define SIMT_VRAM_GUARD		SZ_4M

/*
 * Entries of a context's ring: 128 KiB of DMA-coherent memory.  The
 * context's scheduler hands the ring out as credits: one per entry.
 */
#define SIMT_RING_ENTRIES	1024
/* Commands one SUBMIT may carry (each may need several ring entries). */
#define SIMT_MAX_SUBMIT_CMDS	256
/*
 * Submissions of a context not yet finished, at most; SUBMIT waits for
 * one to finish, then gives up with EAGAIN after SIMT_SUBMIT_WAIT_MS.
 */
#define SIMT_MAX_INFLIGHT	1024
#define SIMT_SUBMIT_WAIT_MS	1000
/*
 * Completion record slots of a context, handed to its launches as they
 * are written to the ring.  The ring holds fewer than SIMT_RING_ENTRIES
 * commands, so with this many slots a slot comes round again only after
 * its submission has completed and its records have been read.
 */
#define SIMT_RECORD_SLOTS	(2 * SIMT_RING_ENTRIES)
/*
 * Fences and results of the last this many submissions are kept for
 * WAIT; older ones have finished (SIMT_MAX_INFLIGHT is smaller).
 */
#define SIMT_RESULT_SLOTS	(2 * SIMT_MAX_INFLIGHT)
/*
 * The watchdog's longest period: while any submission is on the
 * hardware, the driver looks at least this often at how long the oldest
 * one has really run (simt_watchdog_delay()).
 */
#define SIMT_WATCHDOG_PERIOD_MS	100
/*
 * The mmap(2) offset, in pages, of queue 0's doorbell (simt_userq.c);
 * queue q's is one page further per queue.  Below the DRM core's object
 * offsets (DRM_FILE_PAGE_OFFSET_START).
 */
#define SIMT_DOORBELL_PGOFF	0x10000UL
/* Entries of a user queue's ring, at most (the device's SIZE limit) */
#define SIMT_USERQ_MAX_ENTRIES	4096

struct simt_device;

/* Device-wide counters (debugfs stats). */
struct simt_stats {
	atomic64_t submissions;		/* SUBMITs accepted */
	atomic64_t completions;		/* submissions completed */
	atomic64_t errors;		/* contexts stopped by a device error */
	atomic64_t timeouts;		/* contexts stopped by the job timeout */
	atomic64_t queue_stops;		/* hung queues stopped on their own */
	atomic64_t resets;		/* device resets for recovery */
	atomic64_t cancels;		/* kernels a reset could not replay */
	atomic64_t bytes_copied;	/* by completed submissions */
	atomic64_t kernels;		/* launches of completed submissions */
	atomic64_t kernel_cycles;	/* their device cycles, end - start */
	atomic64_t fair_holds;		/* fair-share holds (simt_fair.c) */
	atomic64_t evictions;		/* VRAM objects moved to system memory */
	atomic64_t restores;		/* ... and back into VRAM */
	atomic64_t move_bytes;		/* their bytes, by the copy engines */
	atomic64_t move_copy_cycles;	/* the move queue's COPY_CYCLES */
	atomic64_t move_errors;		/* moves that failed */
};


struct simt_device {
	struct drm_device drm;
	struct pci_dev *pdev;
	void __iomem *regs;		/* BAR0 */

	/* Identification, read once at probe. */
	u32 version;
	u32 caps;
	u32 sm_count;
	u64 vram_size;			/* as reported by the device */
	resource_size_t vram_bar_size;	/* BAR2 length */

	/* Interrupts (simt_irq.c). */
	struct simt_irq_vec irq[SIMT_IRQ_NR];
	bool irq_enabled;
	wait_queue_head_t irq_test_wq;
	struct mutex irq_test_lock;	/* one test interrupt in flight */
	u64 irq_test_last_us;		/* latency of the last test */
	int irq_test_last_err;		/* 0 or -errno of the last test */

	/* Device memory (simt_gem.c). */
	resource_size_t vram_bar_start;
	void __iomem *vram;		/* BAR2, write-combined */
	u64 vram_guard;			/* see SIMT_VRAM_GUARD */
	u32 sm_blocks;
	u32 sm_warps;
	u32 sm_threads;
	u32 sm_shared;
	u32 sm_regs;
	u32 clock_mhz;
	u32 copy_bw;			/* bytes a copy engine moves a cycle */
	u32 preset;

	/* Preemption (simt_preempt.c): the device's rings, or NULL. */
	struct simt_preempt_event *pev;
	dma_addr_t pev_dma;
	struct simt_trace_record *trace;
	dma_addr_t trace_dma;
	/*
	 * VRAM, and device addresses of objects and save areas (from the
	 * fixed bindings' end to the shared and local windows), placement
	 * of VRAM objects (simt_vram.c).
	 */
	struct drm_mm vram_mm;
	struct drm_mm va_mm;
	u64 vram_mm_size;		/* bytes vram_mm hands out ... */
	u64 vram_used;			/* ... and has handed out */
	struct list_head vram_lru;	/* resident VRAM objects, LRU first */
	struct list_head vram_bos;	/* every VRAM object */
	u64 evicted_bytes;		/* of VRAM objects in system memory */
	struct mutex vram_lock;		/* all of the above, see simt_vram.c */

	/*
	 * What is mapped for the device's DMA and may outlive its driver,
	 * since open files keep objects and contexts: system objects'
	 * pages, contexts' rings and records (and evicted VRAM objects'
	 * pages, on vram_bos).  Unplug takes it all down (simt_drv.c), as
	 * nothing may stay mapped for a device that has gone.  Under
	 * dma_lock.
	 */
	struct mutex dma_lock;
	struct list_head sys_bos;	/* simt_sys_bo.link */
	struct list_head dma_ctxs;	/* simt_ctx.dma_link */

	/* Hardware contexts and queues (simt_ctx.c). */
	u32 hw_ctx_count;
	u32 hw_queue_count;
	struct mutex hw_lock;		/* slot allocation, TLB_INV pair */
	unsigned long hw_ctx_used;	/* bitmap of hardware contexts */
	unsigned long hw_queue_used;	/* bitmap of hardware queues */
	/* Queues held by a user, counted against user_contexts, and whose. */
	unsigned long hw_queue_charged;
	kuid_t hw_queue_owner[SIMT_MAX_QUEUES];
	spinlock_t ctx_lock;		/* queue_ctx[], read by the IRQ path */
	struct simt_ctx *queue_ctx[SIMT_MAX_QUEUES];

	/*
	 * The move queue (simt_move.c): the hardware queue and context
	 * after those counted above, kept for evictions and restores.  Its
	 * ring and counters under vram_lock.
	 */
	u32 move_queue;
	u32 move_ctx;
	void *move_ring;		/* commands, then the fence word */
	dma_addr_t move_ring_dma;
	u32 move_tail;
	u64 move_seqno;			/* of the last batch's SIGNAL */
	u32 move_cycles_seen;		/* COPY_CYCLES at the last look */
	wait_queue_head_t move_wq;	/* woken by the interrupt thread */

	/*
	 * Scheduling (simt_sched.c) and recovery (simt_recover.c).  Each hardware queue has a
	 * drm_gpu_scheduler, which serves the contexts that own the queue in
	 * turn and lives as long as its fences may (simt_scheds_retire());
	 * their jobs run on sched_wq.  The watchdog and every recovery run
	 * on the ordered tdr_wq, one at a time.  Context creation and
	 * closing, which program queue registers, hold reset_sem for
	 * reading; a recovery holds it for writing.
	 */
	struct simt_scheds *scheds;
	struct workqueue_struct *sched_wq;
	struct workqueue_struct *tdr_wq;
	struct delayed_work watchdog;
	struct work_struct reset_work;	/* asked for through debugfs */
	struct rw_semaphore reset_sem;
	void *replay_buf;		/* a ring's worth, for recovery */
	struct simt_stats stats;

	/*
	 * The context scheduling policy (simt_fair.c): while @hold is set,
	 * jobs of contexts above @hold_prio wait for it; all under fair_lock
	 * (also @hold's fence lock).
	 */
	struct delayed_work fair_work;
	spinlock_t fair_lock;
	u64 fair_context;
	u64 fair_seqno;
	struct dma_fence *hold;
	struct simt_ctx *hold_ctx;	/* the starved context, referenced */
	u32 hold_prio;
	u32 hold_active;		/* its ACTIVE_CYCLES when the hold began */
	u64 hold_done;			/* ... and its completed seqno */
	u64 hold_ns;
	/* User queues whose PRIORITY the hold lowered to @hold_prio. */
	unsigned long hold_lowered;
};

/*
 * Device cycles in which an engine worked for a file's contexts, open
 * and closed (fdinfo): their queues' KERNEL_CYCLES and COPY_CYCLES.
 */
struct simt_usage {
	atomic64_t kernel_cycles;
	atomic64_t copy_cycles;
};

/* Per open file. */
struct simt_file {
	struct simt_device *sdev;
	struct xarray contexts;		/* id -> struct simt_ctx */
	u32 next_ctx_id;		/* where xa_alloc_cyclic() goes on */
	atomic_t context_count;
	struct simt_usage usage;
};




/*
 * A buffer object of VRAM: its device addresses for life, and either its
 * VRAM (resident, on the LRU) or system pages holding its contents
 * (evicted: @pages set).  Placement and @binds under sdev->vram_lock.
 */
struct simt_vram_bo {
	struct drm_gem_object base;
	struct drm_mm_node va;
	struct drm_mm_node node;
	struct page **pages;
	dma_addr_t *dma;
	struct list_head lru;
	struct list_head all;		/* sdev->vram_bos */
	struct list_head binds;		/* simt_bind.obj_link */
	u64 evictions;			/* moves to system memory ... */
	u64 restores;			/* ... and back */
	/* The creator's memory cgroup, which @pages are charged to. */
	struct mem_cgroup *memcg;
};

/*
 * A buffer object in system memory: a drm_gem_shmem object (first, the
 * helper frees it with kfree()) and its range of device addresses in
 * sdev->sys_va_mm (not allocated if that space was full).  Its pinned
 * pages are charged to @mm's locked memory until it is freed.
 */
struct simt_sys_bo {
	struct drm_gem_shmem_object base;
	struct drm_mm_node va;
	struct mm_struct *mm;
	struct list_head link;		/* sdev->sys_bos, under dma_lock */
};

static inline struct simt_vram_bo *to_simt_vram_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct simt_vram_bo, base);
}

/*
 * A context: a hardware context (Sv32 page tables in VRAM) and a hardware
 * queue whose ring and completion value live in DMA-coherent memory, fed
 * through the context's drm_sched_entity by its queue's scheduler
 * (simt_sched.c).
 */
struct simt_ctx {
	struct kref ref;		/* the file, ioctls, every job, the watchdog */
	void (*release)(struct kref *ref);	/* simt_ctx_put()'s callback */
	struct simt_device *sdev;
	u32 id;				/* in the file's xarray */
	pid_t pid;			/* of the process that created it */
	u32 priority;
	u32 preempt_mode;		/* DRM_SIMT_PREEMPT_* */
	struct drm_mm_node save_area;	/* VRAM ... */
	struct drm_mm_node save_va;	/* ... mapped at these addresses */
	u32 hw_ctx;
	u32 hw_queue;

	struct drm_sched_entity entity;	/* destroyed with the context */
	struct work_struct release_work;

	/*
	 * Bindings, page tables, @closed, and the order in which SUBMIT
	 * arms and pushes jobs (so seqnos follow the entity's fences).
	 */
	struct mutex lock;
	/* Destroyed: no more work, no bindings; set under @lock and @ring_lock. */
	bool closed;
	u64 seqno;			/* last seqno handed out */
	u64 out_fence_context;		/* of SUBMIT's sync_file fences */
	atomic_t inflight;		/* submissions not yet freed */
	wait_queue_head_t inflight_wq;

	/*
	 * The ring, written by run_job on the scheduler's work queue under
	 * @ring_lock (which keeps it off a queue that closing gave back),
	 * and by recovery while the scheduler is stopped.
	 */
	spinlock_t ring_lock;
	void *ring;			/* SIMT_RING_ENTRIES commands ... */
	u64 *fence;			/* ... then the completed seqno */
	/* Where @fence points once unplug has freed the ring (fence_lock). */
	u64 fence_gone;
	struct list_head dma_link;	/* sdev->dma_ctxs, under dma_lock */
	dma_addr_t ring_dma;
	size_t ring_bytes;
	u32 tail;			/* next ring entry the driver writes */

	/* Completion records of launches, SIMT_RECORD_SLOTS of them. */
	struct simt_completion *records;
	dma_addr_t records_dma;
	u32 next_slot;			/* by run_job */

	/*
	 * Hardware fences of submissions in the ring and not yet signalled,
	 * in seqno order; the fences and results of the last
	 * SIMT_RESULT_SLOTS submissions for WAIT; all under fence_lock
	 * (taken by the interrupt thread).
	 */
	spinlock_t fence_lock;
	u64 hw_fence_context;
	struct list_head pending;
	struct simt_result *results;

	/*
	 * Engine time (simt_hwq.c): the queue's KERNEL_CYCLES and
	 * COPY_CYCLES at the last look, what they grew by since then having
	 * gone to @usage (the file's); no looks once @usage_gone (the queue
	 * was given back).  Under @usage_lock.
	 */
	spinlock_t usage_lock;
	struct simt_usage *usage;
	u32 kernel_seen;
	u32 copy_seen;
	bool usage_gone;

	/*
	 * simt_fair.c: ACTIVE_CYCLES, the completed seqno and whether it
	 * had submissions on the device at the last check, and since when
	 * the context has waited (under fence_lock; simt_fence_publish()
	 * starts the wait when the first reaches the device).
	 */
	u32 fair_active;
	u64 fair_done;
	bool fair_queued;
	u64 fair_since;

	/* The watchdog's view of the oldest unfinished submission. */
	u64 wd_seqno;
	u64 wd_run_ns;			/* time it has spent running */
	u64 wd_wall_ns;			/* at the last look, ... */
	u32 wd_active;			/* ... the queue's ACTIVE_CYCLES ... */
	u32 wd_cycle;			/* ... and the device's cycle counter */

	/*
	 * Finished fence of the last job pushed, under @fence_lock; @arming
	 * is set under sdev->vram_lock while SUBMIT arms and pushes the
	 * next one, so that the context is not seen idle meanwhile
	 * (simt_vram.c).
	 */
	struct dma_fence *last_job;
	bool arming;

	/*
	 * A user queue (simt_userq.c): set once, under @lock and
	 * sdev->vram_lock, by USERQ_CREATE; the ring is the process's
	 * object bound at @userq_ring (device address).  The doorbell's
	 * mappings are made under @doorbell_lock while @closed is not set.
	 * The watchdog counts its progress in @wd_seqno (simt_recover.c).
	 */
	bool userq;
	u64 userq_ring;
	u32 userq_entries;
	wait_queue_head_t userq_wq;	/* USERQ_WAIT, woken by interrupts */
	struct mutex doorbell_lock;

	struct drm_mm_node pt_root;
	struct drm_mm_node *pt_l2[1024]; /* second-level tables, or NULL */
	struct list_head binds;

	/* Set by the interrupt thread and recovery, under sdev->ctx_lock. */
	u32 error;			/* DRM_SIMT_ERROR_*: stopped if not 0 */
	u32 hw_error;			/* enum simt_queue_error, 0 = none */
	u64 failed_seqno;		/* the submission that failed */
	bool faulted;
	u32 fault_addr;
	u32 fault_pc;			/* of the failed launch, under fence_lock */
};

/* What WAIT reports about a submission: its fence, then its cycles. */
struct simt_result {
	u64 seqno;			/* 0: slot unused */
	struct dma_fence *finished;	/* the scheduler's finished fence */
	u64 start_cycle;
	u64 end_cycle;
};

struct simt_bind {
	struct list_head link;		/* in ctx->binds */
	struct simt_ctx *ctx;
	struct list_head obj_link;	/* a VRAM object's, see simt_vram.c */
	struct drm_gem_object *obj;
	u64 addr;			/* device address */
	bool fixed;			/* at the caller's address */
	bool vram;			/* of a VRAM object: on its list */
	/* Being unbound: its object stays put (simt_vram_unbind_begin()). */
	bool unbinding;
};

/*
 * Drop a reference to @ctx.  Jobs (simt_sched.c), the watchdog
 * (simt_recover.c) and the fair-share hold (simt_fair.c) hold references
 * too, below the context layer: the release is a callback the context
 * gets at creation (simt_ctx.c), not a call up into that layer.
 */
static inline void simt_ctx_put(struct simt_ctx *ctx)
{
	kref_put(&ctx->ref, ctx->release);
}

static inline struct simt_device *to_simt(struct drm_device *drm)
{
	return container_of(drm, struct simt_device, drm);
}

static inline u32 simt_rd32(struct simt_device *sdev, u32 reg)
{
	return readl(sdev->regs + reg);
}

static inline void simt_wr32(struct simt_device *sdev, u32 reg, u32 val)
{
	writel(val, sdev->regs + reg);
}

/* simt_device.c */
int simt_drmm_workqueue(struct simt_device *sdev, struct workqueue_struct *wq);
extern struct workqueue_struct *simt_release_wq;
void simt_hw_reset(struct simt_device *sdev);
u64 simt_device_cycle(struct simt_device *sdev);

#endif /* __SIMT_DEVICE_H__ */
