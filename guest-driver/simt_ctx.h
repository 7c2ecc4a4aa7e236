/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: contexts and their device address spaces (simt_ctx.c).
 */
#ifndef __SIMT_CTX_H__
#define __SIMT_CTX_H__

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <drm/drm_mm.h>
#include <drm/gpu_scheduler.h>
#include "hw/simt/simt-hw.h"

struct dma_fence;
struct drm_device;
struct drm_file;
struct drm_gem_object;
struct simt_completion;
struct simt_device;
struct simt_file;

/*
 * A context: a hardware context (Sv32 page tables in VRAM) and a hardware
 * queue whose ring and completion value live in DMA-coherent memory, fed
 * through the context's drm_sched_entity by its queue's scheduler
 * (simt_sched.c).
 */
struct simt_ctx {
	struct kref ref;		/* the file, ioctls, every job, the watchdog */
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
	atomic64_t cycles;		/* of completed kernels (fdinfo) */

	/*
	 * simt_fair.c: ACTIVE_CYCLES and the completed seqno at the last
	 * check, and since when the context has waited.
	 */
	u32 fair_active;
	u64 fair_done;
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
};

extern unsigned int simt_file_contexts;
struct simt_ctx *simt_ctx_lookup(struct drm_file *file, u32 id);
void simt_ctx_put(struct simt_ctx *ctx);
void simt_ctx_close_file(struct simt_file *sfile);
void simt_ctx_stop_queue(struct simt_device *sdev, u32 q);
void simt_device_load(struct simt_device *sdev, u32 *contexts, u32 *busy);
void simt_tlb_inv_ctx(struct simt_device *sdev, u32 hw_ctx);
void simt_pt_write(struct simt_ctx *ctx, u64 addr, u64 pa, u64 size,
		   u32 bits);
int simt_ctx_hw_init(struct simt_ctx *ctx);
int simt_context_create_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *file);
int simt_context_destroy_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *file);
int simt_vm_bind_ioctl(struct drm_device *drm, void *data,
		       struct drm_file *file);
int simt_vm_unbind_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file);

#endif /* __SIMT_CTX_H__ */
