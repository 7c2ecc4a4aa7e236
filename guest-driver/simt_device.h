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

/**
 * struct simt_irq_vec - One MSI-X vector, serving one interrupt class.
 * @sdev: the device, for the handlers.
 * @cls: the interrupt class (SIMT_IRQ_*), which is also the vector's index.
 * @irq: Linux IRQ number, 0 when not requested.
 * @count: interrupts of this class handled (counted by the hard handler).
 * @name: what the IRQ is requested as: "simt-<class>@<PCI name>".
 */
struct simt_irq_vec {
	struct simt_device *sdev;
	unsigned int cls;
	int irq;
	atomic64_t count;
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

/**
 * struct simt_stats - Device-wide counters (debugfs "stats").
 * @submissions: SUBMITs accepted (counted when the job is armed).
 * @completions: submissions completed.
 * @errors: contexts stopped by a device error, or whose queue did not
 *	start again after a device reset.
 * @timeouts: recoveries of a submission that ran past job_timeout_ms.
 * @queue_stops: hung queues stopped on their own, without a device reset.
 * @resets: device resets for recovery.
 * @cancels: contexts a device reset cancelled: a kernel at the head of
 *	their queue that could not be replayed, or a user queue.
 * @bytes_copied: bytes copied by completed submissions.
 * @kernels: launches of completed submissions.
 * @kernel_cycles: their device cycles, end - start.
 * @fair_holds: fair-share holds started (simt_fair.c).
 * @evictions: VRAM objects moved to system memory.
 * @restores: ... and back into VRAM.
 * @move_bytes: their bytes, moved by the copy engines.
 * @move_copy_cycles: the move queue's COPY_CYCLES, summed up.
 * @move_errors: moves that failed.
 */
struct simt_stats {
	atomic64_t submissions;
	atomic64_t completions;
	atomic64_t errors;
	atomic64_t timeouts;
	atomic64_t queue_stops;
	atomic64_t resets;
	atomic64_t cancels;
	atomic64_t bytes_copied;
	atomic64_t kernels;
	atomic64_t kernel_cycles;
	atomic64_t fair_holds;
	atomic64_t evictions;
	atomic64_t restores;
	atomic64_t move_bytes;
	atomic64_t move_copy_cycles;
	atomic64_t move_errors;
};

/**
 * DOC: Locking
 *
 * The driver's locks, outermost first.  Wherever the code holds one of them
 * while it takes another, the one held comes first in this list:
 *
 * 1. &simt_ctx.lock (mutex, per context)
 * 2. &simt_device.dma_lock (mutex)
 * 3. &simt_device.vram_lock (mutex)
 * 4. &simt_device.reset_sem (rw_semaphore)
 * 5. &simt_device.hw_lock (mutex)
 * 6. &simt_device.ctx_lock (spinlock)
 * 7. &simt_ctx.ring_lock (spinlock, per context)
 * 8. &simt_device.fair_lock (spinlock; also the fair-share hold's fence lock)
 * 9. &simt_ctx.usage_lock (spinlock, per context)
 * 10. &simt_ctx.fence_lock (spinlock, per context)
 * 11. fence locks: &simt_fence.lock, then, through the fences' callbacks,
 *     the scheduler's finished fences' locks and &simt_out_fence.lock
 *
 * No sleeping lock (1-5) is taken under a spinlock (6-11), and a per
 * context lock (&simt_ctx.lock, ring_lock, usage_lock, fence_lock) is
 * never held for two contexts at once.  Where each lock nests, as the code
 * takes it:
 *
 * &simt_ctx.lock: the context's bindings, page tables, closed, seqno, and
 * the order in which SUBMIT arms and pushes jobs.  Held around allocations
 * and waits (USERQ_CREATE waits for the context's submissions to finish).
 * Taken under no other driver lock.  Under it: ring_lock (closing),
 * fence_lock (SUBMIT, simt_vram_ctx_armed()), vram_lock (simt_vram.c calls,
 * VRAM for page tables and the save area), dma_lock (simt_ctx_unbind_all()
 * putting the last reference to a system object: simt_sys_bo_free()),
 * reset_sem for reading and ctx_lock (USERQ_CREATE), hw_lock
 * (simt_tlb_inv_ctx() in VM_BIND and VM_UNBIND).
 *
 * &simt_device.dma_lock: the lists of what is mapped for the device's DMA
 * (sys_bos, dma_ctxs), against unplug.  Only unplug (simt_dma_unplug())
 * takes other locks under it: vram_lock (simt_vram_unplug()), each
 * context's fence_lock (simt_ctx_unplug()) and each system object's
 * dma_resv lock (simt_gem_unplug()).
 *
 * &simt_device.vram_lock: both address allocators, every VRAM object's
 * placement and list of bindings, the LRU and the move queue (simt_vram.c,
 * simt_move.c); &simt_ctx.arming and &simt_ctx.userq are set under it.
 * Held around page allocations and moves, which sleep until the copy
 * engines are done.  Under it: reset_sem for reading (simt_move_pages()),
 * hw_lock (simt_vram_bo_remap()), any context's fence_lock
 * (simt_ctx_idle()) and the mapping's i_mmap lock (simt_vram_bo_zap()).
 * A CPU fault on a VRAM object takes it (simt_vram_bo_fault()).
 *
 * &simt_device.reset_sem: held for reading by what programs or reads queue
 * registers and must not see a device reset in between: context creation
 * and closing, USERQ_CREATE, moves, fdinfo's usage update.  Held for
 * writing by recovery, on tdr_wq, under no other driver lock; recovery
 * keeps it while drm_sched_wqueue_stop() waits for the schedulers' work.
 * Under it: ctx_lock, hw_lock (simt_ctx_hw_init(), simt_ctx_hw_fini()),
 * usage_lock (simt_ctx_stop_queue(), simt_ctx_usage_update()), a file's
 * context xarray lock (simt_ctx_usage_update_file()) and, in recovery,
 * fence_lock.
 *
 * &simt_device.hw_lock: hardware slot allocation and the register pairs
 * that go together (TLB_INV_CTX and TLB_INV, CYCLE_LO and CYCLE_HI).
 * Nothing is taken under it.
 *
 * &simt_device.ctx_lock: the queue to context table and every context's
 * error state.  Taken alone, or under reset_sem (context creation,
 * closing, recovery) or &simt_ctx.lock (USERQ_CREATE).  Under it:
 * fence_lock (simt_ctx_signal(), and the looks of the watchdog, the
 * fair-share check and debugfs), usage_lock (recovery) and fair_lock
 * (simt_fair_check()).
 *
 * &simt_ctx.ring_lock: the ring, tail and record slots that run_job
 * writes, against closing, which sets closed under it.  Taken by run_job
 * under no other driver lock, and by closing under &simt_ctx.lock.  Under
 * it: fence_lock (simt_fence_publish()).
 *
 * &simt_device.fair_lock: the fair-share hold.  Taken by the check under
 * ctx_lock, elsewhere alone.  No driver lock is taken under it.
 *
 * &simt_ctx.usage_lock: what the context's queue counters read at the last
 * look (simt_hwq.c).  Taken under reset_sem or ctx_lock, or alone by the
 * watchdog.  Nothing is taken under it.
 *
 * &simt_ctx.fence_lock: the context's pending hardware fences, results,
 * last job and fence word.  Under it dma_fence_signal() takes the fence
 * locks of level 11; no other driver lock is taken under it.
 *
 * Never nested with any other driver lock: &simt_device.irq_test_lock
 * (one test interrupt at a time), &simt_ctx.doorbell_lock (a doorbell's
 * mapping against closing; taken in mmap and in the doorbell's fault) and
 * simt_retired_lock (the retired schedulers, simt_sched.c).  Never nested
 * with each other, among the locks above: ring_lock with ctx_lock,
 * fair_lock or usage_lock; fence_lock with fair_lock or usage_lock;
 * vram_lock with ctx_lock, ring_lock or usage_lock; dma_lock with
 * reset_sem, hw_lock or ctx_lock.
 *
 * Interrupt context: the hard interrupt handler (simt_irq_handler()) takes
 * no driver lock; it acknowledges, counts and wakes.  Completions are
 * handled by the interrupt thread (simt_fence_irq(), process context),
 * which takes ctx_lock, then fence_lock and the fence locks.  ctx_lock,
 * fence_lock and fair_lock are always taken with interrupts disabled
 * (spin_lock_irqsave() or spin_lock_irq(), or spin_lock() inside one of
 * those), as the dma_fence core takes a fence's lock; ring_lock and
 * usage_lock are taken with spin_lock(), never in interrupt context.  The
 * mutexes and reset_sem are taken in process context only.
 *
 * Fence signalling: run_job, the interrupt thread, the watchdog and
 * recovery, and SUBMIT from arming to pushing run inside
 * dma_fence_begin_signalling() (simt_sched.c).  The locks they take there
 * (ring_lock, ctx_lock, fence_lock, usage_lock, hw_lock, reset_sem for
 * writing) are never held around an allocation that may sleep or a fence
 * wait.  vram_lock, which is, is never taken there; &simt_ctx.lock is held
 * across SUBMIT's section, having been taken before it.
 */

/**
 * struct simt_device - One simt device: the PCI function and its DRM
 * accel device.
 *
 * Allocated with the DRM device (devm_drm_dev_alloc()), it lives until the
 * last reference to that goes, which open files keep after the PCI device
 * has been unbound; what needs the hardware is reached only inside
 * drm_dev_enter().
 */
struct simt_device {
	/** @drm: the DRM device, embedded (to_simt()). */
	struct drm_device drm;
	/** @pdev: the PCI device. */
	struct pci_dev *pdev;
	/** @regs: BAR0, the registers. */
	void __iomem *regs;

	/* Identification, read once at probe. */
	/** @version: SIMT_REG_VERSION, major and minor. */
	u32 version;
	/** @caps: SIMT_REG_CAPS, SIMT_CAP_* bits. */
	u32 caps;
	/** @sm_count: SMs of the device. */
	u32 sm_count;
	/** @vram_size: bytes of VRAM, as reported by the device. */
	u64 vram_size;
	/** @vram_bar_size: BAR2 length; only VRAM within it is used. */
	resource_size_t vram_bar_size;

	/* Interrupts (simt_irq.c). */
	/** @irq: the MSI-X vectors, one per interrupt class. */
	struct simt_irq_vec irq[SIMT_IRQ_NR];
	/** @irq_enabled: the vectors are requested and the classes unmasked. */
	bool irq_enabled;
	/** @irq_test_wq: woken by the test interrupt's handler. */
	wait_queue_head_t irq_test_wq;
	/**
	 * @irq_test_lock: one test interrupt in flight (simt_irq_test()); the
	 * results below are written under it.
	 */
	struct mutex irq_test_lock;
	/** @irq_test_last_us: latency of the last test, in microseconds. */
	u64 irq_test_last_us;
	/** @irq_test_last_err: 0 or -errno of the last test. */
	int irq_test_last_err;

	/* Device memory (simt_gem.c). */
	/** @vram_bar_start: BAR2's bus address, for CPU mappings of VRAM. */
	resource_size_t vram_bar_start;
	/** @vram: BAR2, mapped write-combined for the driver's own writes. */
	void __iomem *vram;
	/** @vram_guard: VRAM below it is never handed out, see SIMT_VRAM_GUARD. */
	u64 vram_guard;
	/** @sm_blocks: blocks an SM holds at most (SIMT_REG_SM_BLOCKS). */
	u32 sm_blocks;
	/** @sm_warps: warps an SM holds at most (SIMT_REG_SM_WARPS). */
	u32 sm_warps;
	/** @sm_threads: threads an SM holds at most (SIMT_REG_SM_THREADS). */
	u32 sm_threads;
	/** @sm_shared: shared memory bytes of an SM (SIMT_REG_SM_SHARED). */
	u32 sm_shared;
	/** @sm_regs: registers of an SM (SIMT_REG_SM_REGS). */
	u32 sm_regs;
	/** @clock_mhz: the device clock, for cycles as time (fdinfo). */
	u32 clock_mhz;
	/** @copy_bw: bytes a copy engine moves a cycle. */
	u32 copy_bw;
	/** @preset: the device's preset (SIMT_REG_PRESET). */
	u32 preset;

	/* Preemption (simt_preempt.c): the device's rings, or NULL. */
	/** @pev: the preemption event ring. */
	struct simt_preempt_event *pev;
	/** @pev_dma: its DMA address. */
	dma_addr_t pev_dma;
	/** @trace: the trace record ring. */
	struct simt_trace_record *trace;
	/** @trace_dma: its DMA address. */
	dma_addr_t trace_dma;
	/*
	 * VRAM, and device addresses of objects and save areas (from the
	 * fixed bindings' end to the shared and local windows), placement
	 * of VRAM objects (simt_vram.c).
	 */
	/** @vram_mm: the VRAM allocator, from @vram_guard on. */
	struct drm_mm vram_mm;
	/** @va_mm: the device address allocator, from @vram_guard on. */
	struct drm_mm va_mm;
	/** @vram_mm_size: bytes @vram_mm hands out ... */
	u64 vram_mm_size;
	/** @vram_used: ... and has handed out. */
	u64 vram_used;
	/** @vram_lru: resident VRAM objects, least recently submitted first. */
	struct list_head vram_lru;
	/** @vram_bos: every VRAM object (&simt_vram_bo.all). */
	struct list_head vram_bos;
	/** @evicted_bytes: bytes of VRAM objects in system memory. */
	u64 evicted_bytes;
	/**
	 * @vram_lock: all of the above from @vram_mm, every VRAM object's
	 * placement and bindings, and the move queue (see DOC: Locking and
	 * simt_vram.c).
	 */
	struct mutex vram_lock;

	/**
	 * @dma_lock: what is mapped for the device's DMA and may outlive its
	 * driver, since open files keep objects and contexts: system objects'
	 * pages, contexts' rings and records (and evicted VRAM objects'
	 * pages, on @vram_bos).  Unplug takes it all down (simt_drv.c), as
	 * nothing may stay mapped for a device that has gone.  Protects
	 * @sys_bos and @dma_ctxs.
	 */
	struct mutex dma_lock;
	/** @sys_bos: system memory objects (&simt_sys_bo.link). */
	struct list_head sys_bos;
	/** @dma_ctxs: contexts with a ring and records (&simt_ctx.dma_link). */
	struct list_head dma_ctxs;

	/* Hardware contexts and queues (simt_ctx.c). */
	/** @hw_ctx_count: hardware contexts for contexts (not the move one). */
	u32 hw_ctx_count;
	/** @hw_queue_count: hardware queues for contexts (not the move one). */
	u32 hw_queue_count;
	/**
	 * @hw_lock: slot allocation (the four members below it) and the
	 * register pairs written or read together: TLB_INV_CTX and TLB_INV,
	 * CYCLE_LO and CYCLE_HI.
	 */
	struct mutex hw_lock;
	/** @hw_ctx_used: bitmap of hardware contexts in use. */
	unsigned long hw_ctx_used;
	/** @hw_queue_used: bitmap of hardware queues in use. */
	unsigned long hw_queue_used;
	/**
	 * @hw_queue_charged: queues held by a user without CAP_SYS_ADMIN,
	 * counted against user_contexts ...
	 */
	unsigned long hw_queue_charged;
	/** @hw_queue_owner: ... and whose (the creator's effective uid). */
	kuid_t hw_queue_owner[SIMT_MAX_QUEUES];
	/**
	 * @ctx_lock: @queue_ctx[] and every context's error state, read and
	 * written by the interrupt thread.
	 */
	spinlock_t ctx_lock;
	/** @queue_ctx: the context that owns each hardware queue, or NULL. */
	struct simt_ctx *queue_ctx[SIMT_MAX_QUEUES];

	/*
	 * The move queue (simt_move.c): the hardware queue and context
	 * after those counted above, kept for evictions and restores.  Its
	 * ring and counters under vram_lock.
	 */
	/** @move_queue: the move queue's hardware queue. */
	u32 move_queue;
	/** @move_ctx: its hardware context, bare (no page table). */
	u32 move_ctx;
	/** @move_ring: commands, then the fence word (DMA-coherent). */
	void *move_ring;
	/** @move_ring_dma: its DMA address. */
	dma_addr_t move_ring_dma;
	/** @move_tail: the next ring entry the driver writes. */
	u32 move_tail;
	/** @move_seqno: that of the last batch's SIGNAL. */
	u64 move_seqno;
	/** @move_cycles_seen: the queue's COPY_CYCLES at the last look. */
	u32 move_cycles_seen;
	/** @move_wq: a move waits here, woken by the interrupt thread. */
	wait_queue_head_t move_wq;

	/*
	 * Scheduling (simt_sched.c) and recovery (simt_recover.c).  Each
	 * hardware queue has a drm_gpu_scheduler, which serves the contexts
	 * that own the queue in turn and lives as long as its fences may
	 * (simt_scheds_retire()); their jobs run on sched_wq.  The watchdog
	 * and every recovery run on the ordered tdr_wq, one at a time.
	 */
	/** @scheds: the queues' schedulers. */
	struct simt_scheds *scheds;
	/** @sched_wq: the work queue the schedulers run jobs on. */
	struct workqueue_struct *sched_wq;
	/** @tdr_wq: ordered: the watchdog and every recovery. */
	struct workqueue_struct *tdr_wq;
	/** @watchdog: looks at running submissions (simt_recover.c). */
	struct delayed_work watchdog;
	/** @reset_work: a device reset asked for through debugfs. */
	struct work_struct reset_work;
	/**
	 * @reset_sem: context creation and closing, which program queue
	 * registers, moves and usage updates hold it for reading; a recovery
	 * holds it for writing.
	 */
	struct rw_semaphore reset_sem;
	/** @replay_buf: a ring's worth, for recovery (which may not allocate). */
	void *replay_buf;
	/** @stats: the device-wide counters. */
	struct simt_stats stats;

	/*
	 * The context scheduling policy (simt_fair.c): while @hold is set,
	 * jobs of contexts above @hold_prio wait for it.
	 */
	/** @fair_work: the periodic fair-share check. */
	struct delayed_work fair_work;
	/**
	 * @fair_lock: the hold, all members below it (also @hold's fence
	 * lock).
	 */
	spinlock_t fair_lock;
	/** @fair_context: the fence context of the holds' fences. */
	u64 fair_context;
	/** @fair_seqno: the last hold's fence seqno. */
	u64 fair_seqno;
	/** @hold: the fence held-back jobs wait for, or NULL: no hold. */
	struct dma_fence *hold;
	/** @hold_ctx: the starved context, referenced. */
	struct simt_ctx *hold_ctx;
	/** @hold_prio: its priority: jobs of contexts above it wait. */
	u32 hold_prio;
	/** @hold_active: its ACTIVE_CYCLES when the hold began ... */
	u32 hold_active;
	/** @hold_done: ... its completed seqno ... */
	u64 hold_done;
	/** @hold_ns: ... and the time (ktime_get_ns()). */
	u64 hold_ns;
	/** @hold_lowered: user queues whose PRIORITY the hold lowered. */
	unsigned long hold_lowered;
};

/**
 * struct simt_usage - Device cycles in which an engine worked for a file's
 * contexts, open and closed (fdinfo): their queues' KERNEL_CYCLES and
 * COPY_CYCLES, added up by simt_hwq.c.
 * @kernel_cycles: cycles in which a kernel of the file's had blocks on SMs.
 * @copy_cycles: cycles in which a copy engine moved one of its copies.
 */
struct simt_usage {
	atomic64_t kernel_cycles;
	atomic64_t copy_cycles;
};

/**
 * struct simt_file - What the driver keeps per open file
 * (&drm_file.driver_priv).
 * @sdev: the device.
 * @contexts: the file's contexts by id (ids from 1), which holds one
 *	reference to each; its lock is taken for lookups.
 * @next_ctx_id: where xa_alloc_cyclic() goes on.
 * @context_count: contexts the file holds, against file_contexts.
 * @usage: engine time of the file's contexts, open and closed.
 */
struct simt_file {
	struct simt_device *sdev;
	struct xarray contexts;
	u32 next_ctx_id;
	atomic_t context_count;
	struct simt_usage usage;
};

/**
 * struct simt_vram_bo - A buffer object of VRAM.
 * @base: the GEM object.
 * @va: its device addresses, for life.
 * @node: its VRAM while it is resident, not allocated while evicted.
 * @pages: system pages holding its contents while it is evicted, else NULL.
 * @dma: their DMA addresses (0 for a page that unplug has unmapped).
 * @lru: on sdev->vram_lru while resident.
 * @all: on sdev->vram_bos, from placement until it is freed.
 * @binds: its bindings (&simt_bind.obj_link).
 * @evictions: its moves to system memory ...
 * @restores: ... and back.
 * @memcg: the creator's memory cgroup, which @pages are charged to.
 *
 * Either VRAM (resident, on the LRU) or system pages (evicted: @pages
 * set) hold its contents; its device addresses do not change when it
 * moves.  Placement, @lru and @binds under sdev->vram_lock.
 */
struct simt_vram_bo {
	struct drm_gem_object base;
	struct drm_mm_node va;
	struct drm_mm_node node;
	struct page **pages;
	dma_addr_t *dma;
	struct list_head lru;
	struct list_head all;
	struct list_head binds;
	u64 evictions;
	u64 restores;
	struct mem_cgroup *memcg;
};

/**
 * struct simt_sys_bo - A buffer object in system memory.
 * @base: the drm_gem_shmem object; first, as the helper frees the object
 *	with kfree().
 * @va: its range of device addresses in sdev->va_mm, not allocated if
 *	that space was full.
 * @mm: the creating process's mm, whose pinned memory counts the pinned
 *	pages until the object is freed; NULL if there was none.
 * @link: on sdev->sys_bos, under sdev->dma_lock.
 */
struct simt_sys_bo {
	struct drm_gem_shmem_object base;
	struct drm_mm_node va;
	struct mm_struct *mm;
	struct list_head link;
};

/**
 * to_simt_vram_bo() - The VRAM object of a GEM object.
 * @obj: a GEM object of VRAM (simt_bo_is_vram()).
 *
 * Return: the &struct simt_vram_bo that embeds @obj.
 */
static inline struct simt_vram_bo *to_simt_vram_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct simt_vram_bo, base);
}

/**
 * struct simt_ctx - A context: a hardware context and a hardware queue.
 *
 * The hardware context is an address space (Sv32 page tables in VRAM);
 * the queue's ring and completion value live in DMA-coherent memory, fed
 * through the context's drm_sched_entity by its queue's scheduler
 * (simt_sched.c), or by the process itself for a user queue.
 */
struct simt_ctx {
	/** @ref: held by the file, ioctls, every job, the watchdog. */
	struct kref ref;
	/** @release: simt_ctx_put()'s callback (simt_ctx.c). */
	void (*release)(struct kref *ref);
	/** @sdev: the device. */
	struct simt_device *sdev;
	/** @id: the context's id in the file's xarray. */
	u32 id;
	/** @pid: thread group id of the process that created it. */
	pid_t pid;
	/** @priority: DRM_SIMT_PRIORITY_*, of its hardware context and queue. */
	u32 priority;
	/** @preempt_mode: DRM_SIMT_PREEMPT_*. */
	u32 preempt_mode;
	/** @save_area: VRAM the device saves preempted blocks in ... */
	struct drm_mm_node save_area;
	/** @save_va: ... mapped at these device addresses. */
	struct drm_mm_node save_va;
	/** @hw_ctx: its hardware context. */
	u32 hw_ctx;
	/** @hw_queue: its hardware queue. */
	u32 hw_queue;

	/** @entity: its scheduler entity, destroyed with the context. */
	struct drm_sched_entity entity;
	/** @release_work: the release, on simt_release_wq. */
	struct work_struct release_work;

	/**
	 * @lock: bindings, page tables, @closed, @seqno, and the order in
	 * which SUBMIT arms and pushes jobs (so seqnos follow the entity's
	 * fences).
	 */
	struct mutex lock;
	/**
	 * @closed: destroyed: no more work, no bindings; set under @lock and
	 * @ring_lock.
	 */
	bool closed;
	/** @seqno: the last seqno handed out. */
	u64 seqno;
	/** @out_fence_context: the fence context of SUBMIT's sync_file fences. */
	u64 out_fence_context;
	/** @inflight: submissions not yet freed. */
	atomic_t inflight;
	/** @inflight_wq: woken when one is freed, and when the context closes. */
	wait_queue_head_t inflight_wq;

	/**
	 * @ring_lock: the ring, written by run_job on the scheduler's work
	 * queue under it (which keeps it off a queue that closing gave back),
	 * and by recovery while the scheduler is stopped.
	 */
	spinlock_t ring_lock;
	/** @ring: SIMT_RING_ENTRIES commands ... */
	void *ring;
	/** @fence: ... then the completed seqno (the fence word). */
	u64 *fence;
	/**
	 * @fence_gone: where @fence points once unplug has freed the ring
	 * (under @fence_lock).
	 */
	u64 fence_gone;
	/** @dma_link: on sdev->dma_ctxs, under sdev->dma_lock. */
	struct list_head dma_link;
	/** @ring_dma: the ring's DMA address. */
	dma_addr_t ring_dma;
	/** @ring_bytes: the ring's size, fence word included. */
	size_t ring_bytes;
	/** @tail: the next ring entry the driver writes. */
	u32 tail;

	/** @records: completion records of launches, SIMT_RECORD_SLOTS of them. */
	struct simt_completion *records;
	/** @records_dma: their DMA address. */
	dma_addr_t records_dma;
	/** @next_slot: the next record slot, handed out by run_job. */
	u32 next_slot;

	/**
	 * @fence_lock: hardware fences of submissions in the ring and not yet
	 * signalled, in seqno order; the fences and results of the last
	 * SIMT_RESULT_SLOTS submissions for WAIT; taken by the interrupt
	 * thread.
	 */
	spinlock_t fence_lock;
	/** @hw_fence_context: the fence context of its hardware fences. */
	u64 hw_fence_context;
	/** @pending: those hardware fences (&simt_fence.link). */
	struct list_head pending;
	/** @results: those results, by seqno % SIMT_RESULT_SLOTS. */
	struct simt_result *results;

	/**
	 * @usage_lock: engine time (simt_hwq.c): the queue's KERNEL_CYCLES and
	 * COPY_CYCLES at the last look, what they grew by since then having
	 * gone to @usage (the file's); no looks once @usage_gone (the queue
	 * was given back).
	 */
	spinlock_t usage_lock;
	/** @usage: the file's engine time. */
	struct simt_usage *usage;
	/** @kernel_seen: KERNEL_CYCLES at the last look. */
	u32 kernel_seen;
	/** @copy_seen: COPY_CYCLES at the last look. */
	u32 copy_seen;
	/** @usage_gone: the queue was given back: no more looks. */
	bool usage_gone;

	/*
	 * simt_fair.c's view at its last check, under sdev->ctx_lock, and
	 * since when the context has waited, under @fence_lock.
	 */
	/** @fair_active: the queue's ACTIVE_CYCLES. */
	u32 fair_active;
	/** @fair_done: the completed seqno. */
	u64 fair_done;
	/** @fair_queued: whether it had submissions on the device. */
	bool fair_queued;
	/**
	 * @fair_since: since when it has waited (simt_fence_publish() starts
	 * the wait when the first submission reaches the device).
	 */
	u64 fair_since;

	/* The watchdog's view of the oldest unfinished submission. */
	/** @wd_seqno: its seqno, for a user queue its command's (0: none). */
	u64 wd_seqno;
	/** @wd_run_ns: the time it has spent running. */
	u64 wd_run_ns;
	/** @wd_wall_ns: at the last look, the time ... */
	u64 wd_wall_ns;
	/** @wd_active: ... the queue's ACTIVE_CYCLES ... */
	u32 wd_active;
	/** @wd_cycle: ... and the device's cycle counter. */
	u32 wd_cycle;

	/** @last_job: finished fence of the last job pushed, under @fence_lock. */
	struct dma_fence *last_job;
	/**
	 * @arming: set under sdev->vram_lock while SUBMIT arms and pushes the
	 * next job, so that the context is not seen idle meanwhile
	 * (simt_vram.c).
	 */
	bool arming;

	/*
	 * A user queue (simt_userq.c): set once, under @lock and
	 * sdev->vram_lock, by USERQ_CREATE.  The watchdog counts its progress
	 * in @wd_seqno (simt_recover.c).
	 */
	/** @userq: the queue is a user queue. */
	bool userq;
	/** @userq_ring: the device address of the process's ring object. */
	u64 userq_ring;
	/** @userq_entries: the ring's entries. */
	u32 userq_entries;
	/** @userq_wq: USERQ_WAIT waits here, woken by interrupts. */
	wait_queue_head_t userq_wq;
	/**
	 * @doorbell_lock: the doorbell's mappings are made under it while
	 * @closed is not set.
	 */
	struct mutex doorbell_lock;

	/** @pt_root: the root page table, in VRAM. */
	struct drm_mm_node pt_root;
	/** @pt_l2: second-level tables, or NULL; under @lock. */
	struct drm_mm_node *pt_l2[1024];
	/** @binds: the context's bindings (&simt_bind.link), under @lock. */
	struct list_head binds;

	/* Set by the interrupt thread and recovery, under sdev->ctx_lock. */
	/** @error: DRM_SIMT_ERROR_*: the context has stopped if not 0. */
	u32 error;
	/** @hw_error: enum simt_queue_error, 0 = none. */
	u32 hw_error;
	/** @failed_seqno: the submission that failed. */
	u64 failed_seqno;
	/** @faulted: the device MMU faulted on an access of the context's. */
	bool faulted;
	/** @fault_addr: the faulting device address. */
	u32 fault_addr;
	/** @fault_pc: pc of the failed launch, under @fence_lock. */
	u32 fault_pc;
};

/**
 * struct simt_result - What WAIT reports about a submission: its fence,
 * then its cycles.
 * @seqno: the submission's seqno; 0: slot unused.
 * @finished: the scheduler's finished fence, referenced.
 * @start_cycle: start cycle of the submission's last launch that ran ...
 * @end_cycle: ... and its end cycle.
 */
struct simt_result {
	u64 seqno;
	struct dma_fence *finished;
	u64 start_cycle;
	u64 end_cycle;
};

/**
 * struct simt_bind - An object bound in a context.
 * @link: in ctx->binds.
 * @ctx: the context, for a VRAM object's binding (set by
 *	simt_vram_bind()); NULL for a system object's.
 * @obj_link: on a VRAM object's &simt_vram_bo.binds, see simt_vram.c.
 * @obj: the object, referenced.
 * @addr: the device address it is bound at.
 * @fixed: at the caller's address, not the object's own.
 * @vram: of a VRAM object: on its list.
 * @unbinding: being unbound: its object stays put
 *	(simt_vram_unbind_begin()).
 */
struct simt_bind {
	struct list_head link;
	struct simt_ctx *ctx;
	struct list_head obj_link;
	struct drm_gem_object *obj;
	u64 addr;
	bool fixed;
	bool vram;
	bool unbinding;
};

/**
 * simt_ctx_put() - Drop a reference to a context.
 * @ctx: the context.
 *
 * Jobs (simt_sched.c), the watchdog (simt_recover.c) and the fair-share
 * hold (simt_fair.c) hold references too, below the context layer: the
 * release is a callback the context gets at creation (simt_ctx.c), not a
 * call up into that layer.  The last reference queues the release work,
 * so this may be called under spinlocks.
 */
static inline void simt_ctx_put(struct simt_ctx *ctx)
{
	kref_put(&ctx->ref, ctx->release);
}

/**
 * to_simt() - The simt device of a DRM device.
 * @drm: a DRM device of this driver.
 *
 * Return: the &struct simt_device that embeds @drm.
 */
static inline struct simt_device *to_simt(struct drm_device *drm)
{
	return container_of(drm, struct simt_device, drm);
}

/**
 * simt_rd32() - Read a device register.
 * @sdev: the device.
 * @reg: the register's offset in BAR0.
 *
 * Return: its value (all ones if the device has gone).
 */
static inline u32 simt_rd32(struct simt_device *sdev, u32 reg)
{
	return readl(sdev->regs + reg);
}

/**
 * simt_wr32() - Write a device register.
 * @sdev: the device.
 * @reg: the register's offset in BAR0.
 * @val: the value.
 *
 * writel() orders the CPU's earlier writes to memory before it, which the
 * doorbells rely on.
 */
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
