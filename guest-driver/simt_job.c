// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: job submission on the DRM GPU scheduler, completion, the
 * watchdog and recovery.
 *
 * Each context owns a hardware queue, and its entity on that queue's
 * drm_gpu_scheduler feeds it (as panthor's group queues do, except that
 * the scheduler belongs to the queue and serves its owners in turn, so
 * that it outlives every fence it made): SUBMIT makes a job,
 * adds its input fences as dependencies and pushes it; when they have
 * signalled, run_job writes the job's hardware commands into the ring (a
 * COPY per contiguous piece of a copy, a LAUNCH per launch), closed by a
 * SIGNAL that stores the job's sequence number in the context's fence
 * word (DMA-coherent memory) and raises the QUEUE interrupt, and rings
 * the doorbell.  The ring is the scheduler's credit limit: a job takes
 * one credit per ring entry, so run_job always finds room.  Priority and
 * preemption stay in hardware: each queue has its context's priority.
 *
 * run_job returns a hardware fence per job.  The interrupt thread reads
 * each context's fence word and signals the hardware fences it has
 * passed, in order; the scheduler then signals the job's finished fence,
 * which is what WAIT, syncobjs and sync_files wait for, so a completion
 * wakes only the waiters of its own fence.  Every LAUNCH carries the
 * address of a completion record slot; the device writes the kernel's
 * start and end cycles, and the pc of a fault, there, and the interrupt
 * thread reads them into the statistics and the results WAIT reports.
 *
 * A failing command stops the queue where it is.  The ERROR and MMU
 * interrupts record why in the context; the failed submission and every
 * later one end with that error, and the context accepts no more work.
 *
 * The watchdog is the driver's own delayed work (not the scheduler's
 * timeout, whose handler would have to edit the scheduler's lists), which
 * runs every SIMT_WATCHDOG_PERIOD_MS while a job is on the hardware.  It
 * looks at the oldest unsignalled hardware fence of each queue and measures
 * how long the oldest job has actually run: the device counts, per
 * queue, the cycles in which the queue had blocks on the SMs or a copy
 * moving (ACTIVE_CYCLES); the share of the device's cycles that were
 * active, times the time that passed, is running time.  Time a job
 * spends preempted, waiting behind kernels of higher priority or waiting
 * for a copy engine does not count, so such a job is never blamed.  A
 * job that has run for job_timeout_ms is hung: recovery clears its
 * queue's ENABLE bit, which takes exactly that queue's blocks and copy
 * off the device, and fails the context with DRM_SIMT_ERROR_TIMEOUT.
 * Only if the queue does not stop is the whole device reset: then every
 * other context's unfinished commands are replayed from the command that
 * was interrupted, except a kernel launch without
 * DRM_SIMT_CMD_LAUNCH_IDEMPOTENT at the head of its queue, which may have
 * stored to memory already: that context is failed with
 * DRM_SIMT_ERROR_CANCELED instead.  VRAM, and so page tables and data,
 * survive the reset.
 *
 * Jobs keep references on the objects their copies use until they are
 * freed (their finished fence has signalled), so that closing a handle
 * cannot free memory the device is still copying to or from.
 *
 * Fence signalling: run_job, the interrupt thread, the watchdog's
 * recovery and SUBMIT between drm_sched_job_arm() and
 * drm_sched_entity_push_job() are annotated with
 * dma_fence_begin_signalling(), so lockdep checks that none of them
 * allocates memory or takes a lock held elsewhere around an allocation
 * or a fence wait.  What they need is allocated before.
 */

#include <linux/file.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sync_file.h>
#include <linux/uaccess.h>


#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>

#include "simt_drv.h"
#include "uapi/drm/simt_accel.h"

static unsigned int simt_job_timeout_ms = 10000;
module_param_named(job_timeout_ms, simt_job_timeout_ms, uint, 0644);
MODULE_PARM_DESC(job_timeout_ms,
		 "stop a context whose submission has run this long (ms of running time, 0: never)");

/* The hardware fence of a job: signalled when its SIGNAL command ran. */
struct simt_fence {
	struct dma_fence base;
	spinlock_t lock;		/* a syncobj may outlive the context */
	struct list_head link;		/* ctx->pending */
	u32 first_slot;			/* its launches' record slots */
	u32 launches;
	u64 bytes;			/* copied by its commands */
};

struct simt_job {
	struct drm_sched_job base;
	struct simt_ctx *ctx;		/* holds a reference */
	u64 seqno;
	struct simt_fence *hw_fence;	/* until run_job hands it over */
	struct drm_simt_cmd *cmds;	/* until run_job has written them */
	u32 cmd_count;
	unsigned int bo_count;
	struct drm_gem_object *bos[] __counted_by(bo_count);
};

static struct simt_job *to_simt_job(struct drm_sched_job *job)
{
	return container_of(job, struct simt_job, base);
}

static const char *simt_fence_driver_name(struct dma_fence *fence)
{
	return SIMT_DRIVER_NAME;
}

static const char *simt_fence_timeline_name(struct dma_fence *fence)
{
	return "queue";
}

static const struct dma_fence_ops simt_fence_ops = {
	.get_driver_name = simt_fence_driver_name,
	.get_timeline_name = simt_fence_timeline_name,
};

static int simt_error_errno(u32 error)
{
	switch (error) {
	case DRM_SIMT_ERROR_FAULT:
		return -EFAULT;
	case DRM_SIMT_ERROR_TIMEOUT:
		return -ETIMEDOUT;
	case DRM_SIMT_ERROR_CANCELED:
		return -ECANCELED;
	default:
		return -EIO;
	}
}

/* Did the launch of this record run (complete or fault)? */
static bool simt_record_ran(const struct simt_completion *r)
{
	return READ_ONCE(r->status) || READ_ONCE(r->end_cycle);
}

/*
 * Read the completion records of @f's launches: the result WAIT reports
 * (the last launch that ran), the fault pc of a failed submission, and
 * for a completed one the statistics.
 */
static void simt_fence_collect(struct simt_ctx *ctx, struct simt_fence *f,
			       bool completed)
{
	struct simt_stats *st = &ctx->sdev->stats;
	const struct simt_completion *r, *last = NULL;
	struct simt_result *res;
	u64 cycles = 0;
	u32 i;

	lockdep_assert_held(&ctx->fence_lock);
	for (i = 0; i < f->launches; i++) {
		r = &ctx->records[(f->first_slot + i) % SIMT_RECORD_SLOTS];
		if (!simt_record_ran(r))
			continue;
		last = r;
		if (r->end_cycle >= r->start_cycle)
			cycles += r->end_cycle - r->start_cycle;
		if (!completed && r->status == SIMT_QERR_FAULT)
			ctx->fault_pc = r->fault_pc;
	}

	res = &ctx->results[f->base.seqno % SIMT_RESULT_SLOTS];
	if (res->seqno == f->base.seqno) {
		res->start_cycle = last ? last->start_cycle : 0;
		res->end_cycle = last ? last->end_cycle : 0;
	}

	if (completed) {
		atomic64_inc(&st->completions);
		atomic64_add(f->bytes, &st->bytes_copied);
		atomic64_add(f->launches, &st->kernels);
		atomic64_add(cycles, &st->kernel_cycles);
		atomic64_add(cycles, &ctx->cycles);
	}
}

/*
 * Signal the hardware fences of @ctx's jobs that are over: completed, or
 * ended by the context's error.  With @cancel (a -errno) the rest are
 * signalled with that error too (the context or the device is going).
 * Safe in any context, idempotent.
 */
void simt_ctx_signal(struct simt_ctx *ctx, int cancel)
{
	struct simt_fence *f, *tmp;
	unsigned long flags;
	u32 error;
	u64 done;

	/*
	 * The error first: once it is set the queue has stopped, so the
	 * fence word read after it is final and nothing that completed is
	 * failed by mistake.  Records are read after the fence word.
	 */
	error = smp_load_acquire(&ctx->error);
	done = READ_ONCE(*ctx->fence);
	dma_rmb();

	spin_lock_irqsave(&ctx->fence_lock, flags);
	list_for_each_entry_safe(f, tmp, &ctx->pending, link) {
		if (f->base.seqno <= done) {
			simt_fence_collect(ctx, f, true);
		} else if (error) {
			if (f->base.seqno == done + 1)
				simt_fence_collect(ctx, f, false);
			dma_fence_set_error(&f->base, simt_error_errno(error));
		} else if (cancel) {
			dma_fence_set_error(&f->base, cancel);
		} else {
			break;
		}
		list_del(&f->link);
		dma_fence_signal(&f->base);
		dma_fence_put(&f->base);
	}
	spin_unlock_irqrestore(&ctx->fence_lock, flags);
}

/* Drop the fences WAIT keeps (the context is going). */
void simt_ctx_results_free(struct simt_ctx *ctx)
{
	u32 i;

	if (!ctx->results)
		return;
	for (i = 0; i < SIMT_RESULT_SLOTS; i++)
		if (ctx->results[i].finished)
			dma_fence_put(ctx->results[i].finished);
	kvfree(ctx->results);
	ctx->results = NULL;
}

/* Stop @ctx with @error from its next submission on.  Under ctx_lock. */
static void simt_ctx_fail(struct simt_ctx *ctx, u32 error, u32 hw_error)
{
	lockdep_assert_held(&ctx->sdev->ctx_lock);
	if (ctx->error)
		return;
	ctx->hw_error = hw_error;
	ctx->failed_seqno = READ_ONCE(*ctx->fence) + 1;
	/* Readers of the error see the details written before it. */
	smp_store_release(&ctx->error, error);
}

/*
 * Record why a stopped queue stopped, and the context's MMU fault.
 * Under sdev->ctx_lock.
 */
static void simt_ctx_collect_error(struct simt_device *sdev,
				   struct simt_ctx *ctx)
{
	u32 st, f;

	lockdep_assert_held(&sdev->ctx_lock);
	f = simt_rd32(sdev, SIMT_CTX_REG(ctx->hw_ctx, SIMT_CREG_FAULT));
	if (f & SIMT_CFAULT_VALID) {
		if (!ctx->faulted) {
			ctx->faulted = true;
			ctx->fault_addr = simt_rd32(sdev,
				SIMT_CTX_REG(ctx->hw_ctx, SIMT_CREG_FAULT_ADDR));
		}
		simt_wr32(sdev, SIMT_CTX_REG(ctx->hw_ctx, SIMT_CREG_FAULT),
			  SIMT_CFAULT_VALID);
	}

	st = simt_rd32(sdev, SIMT_QUEUE_REG(ctx->hw_queue, SIMT_QREG_STATUS));
	if (SIMT_QSTATUS_STATE(st) == SIMT_QSTATE_ERROR && !ctx->error) {
		/* Error 0 in the error state would be a device bug; keep it visible. */
		simt_ctx_fail(ctx, ctx->faulted ? DRM_SIMT_ERROR_FAULT :
				   DRM_SIMT_ERROR_DEVICE,
			      SIMT_QSTATUS_ERROR(st) ?: U32_MAX);
		atomic64_inc(&sdev->stats.errors);
		dev_info_ratelimited(sdev->drm.dev,
				     "context %u (queue %u) stopped: error %u at command %u%s\n",
				     ctx->id, ctx->hw_queue,
				     SIMT_QSTATUS_ERROR(st),
				     simt_rd32(sdev, SIMT_QUEUE_REG(ctx->hw_queue,
							SIMT_QREG_ERROR_CMD)),
				     ctx->faulted ? ", device MMU fault" : "");
	}
}

/*
 * The interrupt thread of the queue, error and MMU classes: signal what
 * the device has finished.
 */
void simt_job_irq(struct simt_device *sdev, unsigned int cls)
{
	struct simt_ctx *ctx;
	unsigned long flags;
	unsigned int q;
	bool cookie;
	int idx;

	if (!drm_dev_enter(&sdev->drm, &idx))
		return;
	cookie = dma_fence_begin_signalling();
	spin_lock_irqsave(&sdev->ctx_lock, flags);
	for (q = 0; q < sdev->hw_queue_count; q++) {
		ctx = sdev->queue_ctx[q];
		if (!ctx)
			continue;
		if (cls == SIMT_IRQ_ERROR || cls == SIMT_IRQ_MMU)
			simt_ctx_collect_error(sdev, ctx);
		simt_ctx_signal(ctx, 0);
	}
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);
	dma_fence_end_signalling(cookie);
	drm_dev_exit(idx);
}

/* ---- Writing jobs into the ring ---- */

static void *simt_ring_next(struct simt_ctx *ctx)
{
	void *slot = ctx->ring + ctx->tail * SIMT_CMD_SIZE;

	/* Reserved words must be zero. */
	memset(slot, 0, SIMT_CMD_SIZE);
	ctx->tail = (ctx->tail + 1) & (SIMT_RING_ENTRIES - 1);
	return slot;
}

/*
 * Emit (or, with @ctx NULL, only count in @n) the hardware copies of one
 * COPY command: one per piece that is contiguous on both sides.  Counting
 * stops early past @limit, which is enough to refuse the submission.
 */
static int simt_copy_emit(struct simt_ctx *ctx,
			  const struct drm_simt_cmd_copy *cmd,
			  struct drm_gem_object *src, struct drm_gem_object *dst,
			  u32 *n, u32 limit)
{
	u64 soff = cmd->src_offset, doff = cmd->dst_offset, left = cmd->size;
	u64 sa, da, sc, dc, len;
	bool sh, dh;
	int ret;

	while (left) {
		ret = simt_bo_addr(src, soff, &sa, &sc, &sh);
		if (!ret)
			ret = simt_bo_addr(dst, doff, &da, &dc, &dh);
		if (ret)
			return ret;
		len = min3(left, sc, dc);
		if (ctx) {
			struct simt_cmd_copy *c = simt_ring_next(ctx);

			c->opcode = SIMT_CMD_COPY;
			c->flags = (sh ? SIMT_CMDF_SRC_HOST : 0) |
				   (dh ? SIMT_CMDF_DST_HOST : 0);
			c->src = sa;
			c->dst = da;
			c->size = len;
		}
		if (++*n > limit)
			return 0;
		soff += len;
		doff += len;
		left -= len;
	}
	return 0;
}

/* A launch, with the next completion record slot of the context. */
static void simt_launch_emit(struct simt_ctx *ctx, const struct drm_simt_cmd *cmd)
{
	const struct drm_simt_cmd_launch *l = &cmd->launch;
	struct simt_cmd_launch *c = simt_ring_next(ctx);
	u32 slot = ctx->next_slot++ % SIMT_RECORD_SLOTS;

	memset(&ctx->records[slot], 0, sizeof(ctx->records[slot]));
	c->opcode = SIMT_CMD_LAUNCH;
	if (cmd->flags & DRM_SIMT_CMD_LAUNCH_IDEMPOTENT)
		c->flags = SIMT_CMDF_IDEMPOTENT;
	c->record = ctx->records_dma + slot * sizeof(struct simt_completion);
	c->code_addr = l->code_addr;
	c->code_size = l->code_size;
	c->entry = l->entry;
	memcpy(c->grid, l->grid, sizeof(c->grid));
	memcpy(c->block, l->block, sizeof(c->block));
	c->shared_size = l->shared_size;
	c->local_size = l->local_size;
	c->regs = l->regs;
	c->local_base = l->local_base;
	BUILD_BUG_ON(sizeof(c->args) != sizeof(l->args));
	memcpy(c->args, l->args, sizeof(c->args));
	c->live_addr = l->live_addr;
	c->int_regs = l->int_regs;
	c->fp_regs = l->fp_regs;
	c->first_block = l->first_block;
	c->block_count = l->block_count;
}

/*
 * Write @job's commands and its SIGNAL into the ring and ring the
 * doorbell; its hardware fence goes on the pending list.  Under
 * ring_lock, inside drm_dev_enter().
 */
static struct dma_fence *simt_ring_write(struct simt_ctx *ctx,
					 struct simt_job *job)
{
	struct simt_fence *fence = job->hw_fence;
	struct simt_cmd_signal *sig;
	unsigned long flags;
	u32 i, n = 0;

	lockdep_assert_held(&ctx->ring_lock);
	fence->first_slot = ctx->next_slot % SIMT_RECORD_SLOTS;
	for (i = 0; i < job->cmd_count; i++) {
		const struct drm_simt_cmd *cmd = &job->cmds[i];

		if (cmd->type == DRM_SIMT_CMD_LAUNCH)
			simt_launch_emit(ctx, cmd);
		else
			simt_copy_emit(ctx, &cmd->copy, job->bos[2 * i],
				       job->bos[2 * i + 1], &n, U32_MAX);
	}
	kvfree(job->cmds);
	job->cmds = NULL;

	sig = simt_ring_next(ctx);
	sig->opcode = SIMT_CMD_SIGNAL;
	sig->flags = SIMT_CMDF_IRQ;
	sig->addr = ctx->ring_dma + SIMT_RING_ENTRIES * SIMT_CMD_SIZE;
	sig->value = job->seqno;

	dma_fence_init(&fence->base, &simt_fence_ops, &fence->lock,
		       ctx->hw_fence_context, job->seqno);
	job->hw_fence = NULL;
	/* The pending list's reference; the scheduler gets the first one. */
	dma_fence_get(&fence->base);
	spin_lock_irqsave(&ctx->fence_lock, flags);
	list_add_tail(&fence->link, &ctx->pending);
	spin_unlock_irqrestore(&ctx->fence_lock, flags);

	/* writel() orders the ring writes above before the doorbell. */
	simt_wr32(ctx->sdev, SIMT_QUEUE_REG(ctx->hw_queue, SIMT_QREG_TAIL),
		  ctx->tail);
	return &fence->base;
}

static struct dma_fence *simt_run_job(struct drm_sched_job *sched_job)
{
	struct simt_job *job = to_simt_job(sched_job);
	struct simt_ctx *ctx = job->ctx;
	struct simt_device *sdev = ctx->sdev;
	struct dma_fence *ret;
	bool cookie;
	u32 error;
	int idx;

	/* Killed, or behind a failure: nothing of it reaches the device. */
	if (sched_job->s_fence->finished.error)
		return ERR_PTR(sched_job->s_fence->finished.error);
	/* Pairs with simt_ctx_fail(). */
	error = smp_load_acquire(&ctx->error);
	if (error)
		return ERR_PTR(simt_error_errno(error));
	if (!drm_dev_enter(&sdev->drm, &idx))
		return ERR_PTR(-ENODEV);

	cookie = dma_fence_begin_signalling();
	/* Once closing has set @closed, the queue may be someone else's. */
	spin_lock(&ctx->ring_lock);
	if (ctx->closed)
		ret = ERR_PTR(-ECANCELED);
	else
		ret = simt_ring_write(ctx, job);
	spin_unlock(&ctx->ring_lock);
	if (!IS_ERR(ret))
		queue_delayed_work(sdev->tdr_wq, &sdev->watchdog,
				   msecs_to_jiffies(SIMT_WATCHDOG_PERIOD_MS));
	dma_fence_end_signalling(cookie);
	drm_dev_exit(idx);
	return ret;
}

static void simt_free_job(struct drm_sched_job *sched_job)
{
	struct simt_job *job = to_simt_job(sched_job);
	struct simt_ctx *ctx = job->ctx;
	unsigned int i;

	if (sched_job->s_fence)
		drm_sched_job_cleanup(sched_job);
	for (i = 0; i < job->bo_count; i++)
		if (job->bos[i])
			drm_gem_object_put(job->bos[i]);
	kvfree(job->cmds);
	kfree(job->hw_fence);
	kfree(job);
	if (ctx) {
		atomic_dec(&ctx->inflight);
		wake_up(&ctx->inflight_wq);
		simt_ctx_put(ctx);
	}
}

/* ---- The watchdog and recovery ---- */

/*
 * The schedulers of the queues, in one allocation that is freed only at
 * module exit: drm_sched's fences read their scheduler's name for as
 * long as they live (SYNC_IOC_FILE_INFO on a sync_file, for one), which
 * may be long after the contexts, and the device, that used them.
 */
struct simt_queue_sched {
	struct drm_gpu_scheduler base;
	char name[32];
};

struct simt_scheds {
	struct list_head retired;	/* on simt_retired_scheds */
	u32 count;
	struct simt_queue_sched queue[] __counted_by(count);
};

static LIST_HEAD(simt_retired_scheds);
static DEFINE_MUTEX(simt_retired_lock);


/*
 * How long has submission @seqno of @ctx run?  Adds the time since the
 * watchdog's last look at @ctx, times the share of the device's cycles
 * in which the queue was active.  The first look at a submission starts
 * its count.  On tdr_wq only.
 */
static bool simt_watchdog_hung(struct simt_ctx *ctx, u64 seqno)
{
	struct simt_device *sdev = ctx->sdev;
	u32 timeout_ms = READ_ONCE(simt_job_timeout_ms);
	u64 now = ktime_get_ns();
	u32 active, cycle, d_active, d_cycle;
	u64 d_wall;

	active = simt_rd32(sdev, SIMT_QUEUE_REG(ctx->hw_queue,
						SIMT_QREG_ACTIVE_CYCLES));
	cycle = lower_32_bits(simt_device_cycle(sdev));
	if (ctx->wd_seqno != seqno) {
		ctx->wd_seqno = seqno;
		ctx->wd_run_ns = 0;
	} else {
		d_wall = now - ctx->wd_wall_ns;
		d_active = active - ctx->wd_active;
		d_cycle = cycle - ctx->wd_cycle;
		/* A device reset restarts both counters: no share then. */
		if (d_cycle && d_active <= d_cycle)
			ctx->wd_run_ns += mul_u64_u32_div(d_wall, d_active,
							  d_cycle);
	}
	ctx->wd_wall_ns = now;
	ctx->wd_active = active;
	ctx->wd_cycle = cycle;
	return timeout_ms && ctx->wd_run_ns > (u64)timeout_ms * NSEC_PER_MSEC;
}

/* Clear queue @q's ENABLE bit: its blocks and copy leave the device. */
static bool simt_queue_halt(struct simt_device *sdev, u32 q)
{
	u32 st;

	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_CONTROL), 0);
	st = simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_STATUS));
	return SIMT_QSTATUS_STATE(st) == SIMT_QSTATE_DISABLED &&
	       !simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_RESIDENT));
}

/*
 * Would replaying the command at the head of a stopped ring be unsafe?
 * A launch there may have run blocks that stored to memory, unless the
 * kernel is idempotent.
 */
static bool simt_head_unsafe(struct simt_ctx *ctx, u32 head)
{
	const struct simt_cmd_launch *c = ctx->ring + head * SIMT_CMD_SIZE;

	return c->opcode == SIMT_CMD_LAUNCH &&
	       !(c->flags & SIMT_CMDF_IDEMPOTENT);
}

/*
 * Reset the whole device and bring every live context back: registers
 * (page tables, priorities, rings), and for contexts still running their
 * unfinished commands, moved to the start of the ring since a reset queue
 * starts there; the command each queue was running runs again from its
 * beginning, unless that is unsafe (simt_head_unsafe()): then the
 * context fails with DRM_SIMT_ERROR_CANCELED.  @culprit (or NULL) is
 * failed with DRM_SIMT_ERROR_TIMEOUT.  Under reset_sem for writing, on
 * tdr_wq, with every queue's scheduler stopped.
 */
static void simt_device_recover(struct simt_device *sdev,
				struct simt_ctx *culprit)
{
	u32 head[SIMT_MAX_QUEUES] = { };
	u32 q, n, first, replayed = 0, cancelled = 0;
	void *tmp = sdev->replay_buf;
	struct simt_ctx *ctx;
	unsigned long flags;

	lockdep_assert_held_write(&sdev->reset_sem);

	/* Note errors first (a reset clears them), then stop every queue. */
	spin_lock_irqsave(&sdev->ctx_lock, flags);
	for (q = 0; q < sdev->hw_queue_count; q++) {
		ctx = sdev->queue_ctx[q];
		if (!ctx)
			continue;
		simt_ctx_collect_error(sdev, ctx);
		simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_CONTROL), 0);
		head[q] = simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_HEAD)) &
			  (SIMT_RING_ENTRIES - 1);
		n = (ctx->tail - head[q]) & (SIMT_RING_ENTRIES - 1);
		if (ctx == culprit) {
			simt_ctx_fail(ctx, DRM_SIMT_ERROR_TIMEOUT, 0);
		} else if (!ctx->error && n && simt_head_unsafe(ctx, head[q])) {
			simt_ctx_fail(ctx, DRM_SIMT_ERROR_CANCELED, 0);
			atomic64_inc(&sdev->stats.cancels);
			cancelled++;
		} else if (!ctx->error && n) {
			replayed++;
		}
	}
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);

	simt_hw_reset(sdev);
	atomic64_inc(&sdev->stats.resets);
	simt_irq_restore(sdev);
	simt_preempt_hw_init(sdev);

	for (q = 0; q < sdev->hw_queue_count; q++) {
		ctx = sdev->queue_ctx[q];
		if (!ctx)
			continue;
		n = 0;
		if (!READ_ONCE(ctx->error)) {
			/* Commands [head, tail), maybe wrapping, go to [0, n). */
			first = head[q];
			n = (ctx->tail - first) & (SIMT_RING_ENTRIES - 1);
			if (first + n <= SIMT_RING_ENTRIES) {
				memmove(ctx->ring, ctx->ring + first * SIMT_CMD_SIZE,
					n * SIMT_CMD_SIZE);
			} else {
				u32 part = SIMT_RING_ENTRIES - first;

				memcpy(tmp, ctx->ring + first * SIMT_CMD_SIZE,
				       part * SIMT_CMD_SIZE);
				memcpy(tmp + part * SIMT_CMD_SIZE, ctx->ring,
				       (n - part) * SIMT_CMD_SIZE);
				memcpy(ctx->ring, tmp, n * SIMT_CMD_SIZE);
			}
		}
		ctx->tail = n;
		if (simt_ctx_hw_init(ctx)) {
			/* The queue did not start: fail the context. */
			spin_lock_irqsave(&sdev->ctx_lock, flags);
			if (!ctx->error)
				atomic64_inc(&sdev->stats.errors);
			simt_ctx_fail(ctx, DRM_SIMT_ERROR_DEVICE, U32_MAX);
			spin_unlock_irqrestore(&sdev->ctx_lock, flags);
			continue;
		}
		if (ctx->error)
			simt_ctx_stop_queue(sdev, q);
		else if (n)
			simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_TAIL), n);
	}

	spin_lock_irqsave(&sdev->ctx_lock, flags);
	for (q = 0; q < sdev->hw_queue_count; q++) {
		ctx = sdev->queue_ctx[q];
		if (ctx) {
			/* Watchdog counts start again with the counters. */
			ctx->wd_seqno = 0;
			simt_ctx_signal(ctx, 0);
		}
	}
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);
	drm_warn(&sdev->drm, "device reset: %u contexts replayed, %u cancelled\n",
		 replayed, cancelled);
}

static struct drm_gpu_scheduler *simt_queue_sched(struct simt_device *sdev,
						  u32 q)
{
	return &sdev->scheds->queue[q].base;
}

/* Stop or start the schedulers of every queue. */
static void simt_scheds_stop(struct simt_device *sdev, bool stop)
{
	u32 q;

	for (q = 0; q < sdev->hw_queue_count; q++) {
		if (stop)
			drm_sched_wqueue_stop(simt_queue_sched(sdev, q));
		else
			drm_sched_wqueue_start(simt_queue_sched(sdev, q));
	}
}

/* Does @ctx still own its queue, open and running?  Under ctx_lock. */
static bool simt_ctx_owns_queue(struct simt_ctx *ctx)
{
	lockdep_assert_held(&ctx->sdev->ctx_lock);
	return ctx->sdev->queue_ctx[ctx->hw_queue] == ctx &&
	       !READ_ONCE(ctx->closed) && !ctx->error;
}

/*
 * @ctx's submission @seqno has run too long: stop its queue and fail the
 * context; a whole-device reset if the queue does not stop.  Nothing is
 * done if, once recovery holds reset_sem, @ctx no longer owns its queue
 * (closing gave it back, perhaps to another tenant) or has stopped.  On
 * tdr_wq.
 */
static void simt_ctx_recover(struct simt_ctx *ctx, u64 seqno, u32 run_ms)
{
	struct simt_device *sdev = ctx->sdev;
	struct drm_gpu_scheduler *sched = simt_queue_sched(sdev, ctx->hw_queue);
	unsigned long flags;
	bool owns, halted;

	down_write(&sdev->reset_sem);
	spin_lock_irqsave(&sdev->ctx_lock, flags);
	owns = simt_ctx_owns_queue(ctx);
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);
	if (!owns) {
		up_write(&sdev->reset_sem);
		return;
	}
	drm_sched_wqueue_stop(sched);
	atomic64_inc(&sdev->stats.timeouts);
	halted = simt_queue_halt(sdev, ctx->hw_queue);
	if (halted) {
		spin_lock_irqsave(&sdev->ctx_lock, flags);
		simt_ctx_collect_error(sdev, ctx);
		simt_ctx_fail(ctx, DRM_SIMT_ERROR_TIMEOUT, 0);
		spin_unlock_irqrestore(&sdev->ctx_lock, flags);
		simt_ctx_stop_queue(sdev, ctx->hw_queue);
		atomic64_inc(&sdev->stats.queue_stops);
		drm_warn(&sdev->drm,
			 "context %u (queue %u): submission %llu ran longer than %u ms; queue stopped\n",
			 ctx->id, ctx->hw_queue, seqno, run_ms);
		simt_ctx_signal(ctx, 0);
		drm_sched_wqueue_start(sched);
	} else {
		drm_err(&sdev->drm,
			"context %u (queue %u): submission %llu ran longer than %u ms and its queue does not stop; resetting the device\n",
			ctx->id, ctx->hw_queue, seqno, run_ms);
		simt_scheds_stop(sdev, true);
		simt_device_recover(sdev, ctx);
		simt_scheds_stop(sdev, false);
	}
	up_write(&sdev->reset_sem);
}

/*
 * The context on queue @q, referenced, and the seqno of its oldest
 * hardware fence not yet signalled (0: none, and no context returned).
 */
static struct simt_ctx *simt_queue_oldest(struct simt_device *sdev, u32 q,
					  u64 *seqno)
{
	struct simt_fence *f;
	struct simt_ctx *ctx;
	unsigned long flags;

	*seqno = 0;
	spin_lock_irqsave(&sdev->ctx_lock, flags);
	ctx = sdev->queue_ctx[q];
	if (ctx && !ctx->error) {
		spin_lock(&ctx->fence_lock);
		f = list_first_entry_or_null(&ctx->pending, struct simt_fence,
					     link);
		if (f)
			*seqno = f->base.seqno;
		spin_unlock(&ctx->fence_lock);
	}
	if (*seqno)
		kref_get(&ctx->ref);
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);
	return *seqno ? ctx : NULL;
}

/*
 * The watchdog: for each queue with work on the device, how long its
 * oldest submission has really run; one that ran job_timeout_ms is
 * recovered.  Runs again while any queue has work.
 */
static void simt_watchdog_work(struct work_struct *work)
{
	struct simt_device *sdev = container_of(to_delayed_work(work),
						struct simt_device, watchdog);
	bool cookie, busy = false;
	struct simt_ctx *ctx;
	u64 seqno;
	int idx;
	u32 q;

	if (!drm_dev_enter(&sdev->drm, &idx))
		return;
	cookie = dma_fence_begin_signalling();
	for (q = 0; q < sdev->hw_queue_count; q++) {
		ctx = simt_queue_oldest(sdev, q, &seqno);
		if (!ctx)
			continue;
		busy = true;
		if (simt_watchdog_hung(ctx, seqno))
			simt_ctx_recover(ctx, seqno,
					 READ_ONCE(simt_job_timeout_ms));
		simt_ctx_put(ctx);
	}
	dma_fence_end_signalling(cookie);
	if (busy)
		queue_delayed_work(sdev->tdr_wq, &sdev->watchdog,
				   msecs_to_jiffies(SIMT_WATCHDOG_PERIOD_MS));
	drm_dev_exit(idx);
}

/* The context scheduling policy may hold the job back (simt_fair.c). */
static struct dma_fence *simt_prepare_job(struct drm_sched_job *sched_job,
					  struct drm_sched_entity *entity)
{
	return simt_fair_prepare_job(to_simt_job(sched_job)->ctx);
}

/*
 * No timedout_job: the scheduler's timeout is off (MAX_SCHEDULE_TIMEOUT),
 * the watchdog above does its work.
 */
static const struct drm_sched_backend_ops simt_sched_ops = {
	.prepare_job = simt_prepare_job,
	.run_job = simt_run_job,
	.free_job = simt_free_job,
};

/* The DRM device is going: no context, and so no job, is left. */
static void simt_scheds_retire(struct drm_device *drm, void *arg)
{
	struct simt_scheds *scheds = arg;
	u32 q;

	for (q = 0; q < scheds->count; q++)
		if (scheds->queue[q].base.ops)
			drm_sched_fini(&scheds->queue[q].base);
	mutex_lock(&simt_retired_lock);
	list_add_tail(&scheds->retired, &simt_retired_scheds);
	mutex_unlock(&simt_retired_lock);
}

/* A scheduler per hardware queue (hw_queue_count is known). */
int simt_scheds_init(struct simt_device *sdev)
{
	struct simt_scheds *scheds;
	struct simt_queue_sched *qs;
	int ret;
	u32 q;

	scheds = kzalloc(struct_size(scheds, queue, sdev->hw_queue_count),
			 GFP_KERNEL);
	if (!scheds)
		return -ENOMEM;
	scheds->count = sdev->hw_queue_count;
	sdev->scheds = scheds;
	ret = drmm_add_action(&sdev->drm, simt_scheds_retire, scheds);
	if (ret) {
		kfree(scheds);
		sdev->scheds = NULL;
		return ret;
	}
	for (q = 0; q < scheds->count; q++) {
		qs = &scheds->queue[q];
		snprintf(qs->name, sizeof(qs->name), "%s-queue%u",
			 dev_name(sdev->drm.dev), q);
		ret = drm_sched_init(&qs->base, &simt_sched_ops,
				     sdev->sched_wq, 1, SIMT_RING_ENTRIES - 1,
				     0, MAX_SCHEDULE_TIMEOUT, sdev->tdr_wq,
				     NULL, qs->name, sdev->drm.dev);
		if (ret)
			return ret;
	}
	return 0;
}

int simt_ctx_entity_init(struct simt_ctx *ctx)
{
	struct drm_gpu_scheduler *sched = simt_queue_sched(ctx->sdev,
							   ctx->hw_queue);

	return drm_sched_entity_init(&ctx->entity, DRM_SCHED_PRIORITY_KERNEL,
				     &sched, 1, NULL);
}

/* Whole-device recovery asked for through debugfs ("reset"). */
static void simt_reset_work(struct work_struct *work)
{
	struct simt_device *sdev = container_of(work, struct simt_device,
						reset_work);
	bool cookie;
	int idx;

	if (!drm_dev_enter(&sdev->drm, &idx))
		return;
	cookie = dma_fence_begin_signalling();
	down_write(&sdev->reset_sem);
	simt_scheds_stop(sdev, true);
	simt_device_recover(sdev, NULL);
	simt_scheds_stop(sdev, false);
	up_write(&sdev->reset_sem);
	dma_fence_end_signalling(cookie);
	drm_dev_exit(idx);
}

/* Reset the device as recovery does, on tdr_wq, and wait for it. */
int simt_device_reset_request(struct simt_device *sdev)
{
	queue_work(sdev->tdr_wq, &sdev->reset_work);
	flush_work(&sdev->reset_work);
	return 0;
}

static void simt_wq_destroy(struct drm_device *drm, void *arg)
{
	destroy_workqueue(arg);
}

static void simt_replay_buf_free(struct drm_device *drm, void *arg)
{
	kvfree(arg);
}

int simt_job_init(struct simt_device *sdev)
{
	int ret;

	init_rwsem(&sdev->reset_sem);
	INIT_WORK(&sdev->reset_work, simt_reset_work);
	INIT_DELAYED_WORK(&sdev->watchdog, simt_watchdog_work);
	/* Recovery may not allocate: it holds back fences. */
	sdev->replay_buf = kvmalloc(SIMT_RING_ENTRIES * SIMT_CMD_SIZE,
				    GFP_KERNEL);
	if (!sdev->replay_buf)
		return -ENOMEM;
	ret = drmm_add_action_or_reset(&sdev->drm, simt_replay_buf_free,
				       sdev->replay_buf);
	if (ret)
		return ret;
	/*
	 * Contexts may outlive the PCI device (open files), so the queues
	 * go with the DRM device.
	 */
	sdev->sched_wq = alloc_workqueue("simt-sched",
					 WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	if (!sdev->sched_wq)
		return -ENOMEM;
	ret = drmm_add_action_or_reset(&sdev->drm, simt_wq_destroy,
				       sdev->sched_wq);
	if (ret)
		return ret;
	sdev->tdr_wq = alloc_ordered_workqueue("simt-tdr", WQ_MEM_RECLAIM);
	if (!sdev->tdr_wq)
		return -ENOMEM;
	return drmm_add_action_or_reset(&sdev->drm, simt_wq_destroy,
					sdev->tdr_wq);
}

/*
 * The device is gone and quiet (simt_remove() has reset it): fail every
 * fence still pending, so that nobody waits for ever.
 */
void simt_job_fini(struct simt_device *sdev)
{
	unsigned long flags;
	unsigned int q;

	cancel_work_sync(&sdev->reset_work);
	cancel_delayed_work_sync(&sdev->watchdog);
	spin_lock_irqsave(&sdev->ctx_lock, flags);
	for (q = 0; q < sdev->hw_queue_count; q++)
		if (sdev->queue_ctx[q])
			simt_ctx_signal(sdev->queue_ctx[q], -ENODEV);
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);
}

/*
 * The module goes, and the schedulers' memory with it: a fence kept
 * beyond this would outlive the code of its hardware fence too.
 */
void simt_job_module_exit(void)
{
	struct simt_scheds *scheds, *tmp;

	list_for_each_entry_safe(scheds, tmp, &simt_retired_scheds, retired)
		kfree(scheds);
}

/* ---- SUBMIT ---- */

static bool simt_range_ok(struct drm_gem_object *obj, u64 offset, u64 size)
{
	u64 end;

	return !check_add_overflow(offset, size, &end) && end <= obj->size;
}

/* The union's bytes past the member @used must be zero. */
static bool simt_cmd_tail_zero(const struct drm_simt_cmd *cmd, size_t used)
{
	const u8 *p = (const u8 *)cmd->reserved;

	return !memchr_inv(p + used, 0, sizeof(cmd->reserved) - used);
}

static int simt_copy_prepare(struct drm_device *drm, struct drm_file *file,
			     struct simt_job *job, u32 i,
			     const struct drm_simt_cmd_copy *cmd, u32 *n)
{
	struct drm_gem_object *src, *dst;

	src = drm_gem_object_lookup(file, cmd->src_handle);
	job->bos[2 * i] = src;
	dst = drm_gem_object_lookup(file, cmd->dst_handle);
	job->bos[2 * i + 1] = dst;
	if (!src || !dst) {
		drm_dbg(drm, "command %u: no object %u\n", i,
			src ? cmd->dst_handle : cmd->src_handle);
		return -ENOENT;
	}

	if (!simt_range_ok(src, cmd->src_offset, cmd->size) ||
	    !simt_range_ok(dst, cmd->dst_offset, cmd->size)) {
		drm_dbg(drm, "command %u: copy range outside its object\n", i);
		return -EINVAL;
	}
	if (src == dst && cmd->size &&
	    cmd->src_offset < cmd->dst_offset + cmd->size &&
	    cmd->dst_offset < cmd->src_offset + cmd->size) {
		drm_dbg(drm, "command %u: copy ranges overlap\n", i);
		return -EINVAL;
	}

	return simt_copy_emit(NULL, cmd, src, dst, n, SIMT_RING_ENTRIES);
}

/*
 * What the device would refuse as a bad command anyway, refused here
 * with EINVAL instead of stopping the context.  Addresses are the
 * context's business: a bad one faults.  A launch holds no object
 * references: it reaches only bound objects, and their bindings hold
 * them (an unbind under a running kernel makes it fault, nothing worse).
 */
static int simt_launch_check(struct drm_device *drm, u32 i,
			     const struct drm_simt_cmd_launch *l)
{
	u64 blocks = 1;
	unsigned int d;

	for (d = 0; d < 3; d++) {
		if (!l->grid[d] || !l->block[d]) {
			drm_dbg(drm, "command %u: empty grid or block\n", i);
			return -EINVAL;
		}
		/* Three 32-bit sizes can wrap a 64-bit product to 0. */
		if (check_mul_overflow(blocks, (u64)l->grid[d], &blocks)) {
			drm_dbg(drm, "command %u: grid %u x %u x %u overflows\n",
				i, l->grid[0], l->grid[1], l->grid[2]);
			return -EINVAL;
		}
	}
	/* The device runs at most 2^32 - 1 blocks, and only in the grid. */
	if (blocks > U32_MAX ||
	    (l->block_count ? (u64)l->first_block + l->block_count > blocks :
			      l->first_block)) {
		drm_dbg(drm, "command %u: subgrid %u+%u outside a grid of %llu blocks\n",
			i, l->first_block, l->block_count, blocks);
		return -EINVAL;
	}
	if (!l->code_size || l->code_size > SIMT_MAX_CODE_SIZE ||
	    l->code_size % 4 || l->code_addr % 4 || l->entry % 4 ||
	    l->entry < l->code_addr || l->entry - l->code_addr >= l->code_size) {
		drm_dbg(drm, "command %u: bad code range or entry\n", i);
		return -EINVAL;
	}
	if (!l->regs || l->regs > SIMT_MAX_REGS || l->local_size % 16) {
		drm_dbg(drm, "command %u: bad regs or local size\n", i);
		return -EINVAL;
	}
	if (l->live_addr % 8) {
		drm_dbg(drm, "command %u: live table not 8-byte aligned\n", i);
		return -EINVAL;
	}
	return 0;
}

/*
 * Look the objects up and check the commands; count the ring entries,
 * and the launches and bytes for the fence.
 */
static int simt_job_prepare(struct drm_device *drm, struct drm_file *file,
			    struct simt_job *job, struct simt_fence *fence,
			    u32 *entries)
{
	u32 i, n = 0;
	int ret;

	for (i = 0; i < job->cmd_count; i++) {
		const struct drm_simt_cmd *cmd = &job->cmds[i];

		switch (cmd->type) {
		case DRM_SIMT_CMD_COPY:
			if (cmd->flags) {
				drm_dbg(drm, "command %u: copy flags 0x%x\n",
					i, cmd->flags);
				return -EINVAL;
			}
			if (!simt_cmd_tail_zero(cmd, sizeof(cmd->copy))) {
				drm_dbg(drm, "command %u: copy reserved bytes not zero\n", i);
				return -EINVAL;
			}
			ret = simt_copy_prepare(drm, file, job, i, &cmd->copy, &n);
			fence->bytes += cmd->copy.size;
			break;
		case DRM_SIMT_CMD_LAUNCH:
			if (cmd->flags & ~DRM_SIMT_CMD_LAUNCH_IDEMPOTENT) {
				drm_dbg(drm, "command %u: launch flags 0x%x\n",
					i, cmd->flags);
				return -EINVAL;
			}
			if (!simt_cmd_tail_zero(cmd, sizeof(cmd->launch))) {
				drm_dbg(drm, "command %u: launch reserved bytes not zero\n", i);
				return -EINVAL;
			}
			ret = simt_launch_check(drm, i, &cmd->launch);
			fence->launches++;
			n++;
			break;
		default:
			drm_dbg(drm, "command %u: unknown type %u\n", i, cmd->type);
			return -EINVAL;
		}
		if (ret)
			return ret;
		if (n >= SIMT_RING_ENTRIES) {
			drm_dbg(drm, "command %u: the job needs more than %u ring entries\n",
				i, SIMT_RING_ENTRIES);
			return -E2BIG;
		}
	}
	*entries = n;
	return 0;
}

/*
 * Copy the commands in, whatever the caller's struct size: a smaller
 * (older) one reads as zero-filled, a larger (newer) one must have zero
 * bytes beyond ours.
 */
static struct drm_simt_cmd *simt_cmds_copy(struct drm_device *drm,
					   const struct drm_simt_submit *args)
{
	void __user *from = u64_to_user_ptr(args->cmds);
	struct drm_simt_cmd *cmds;
	u32 i;
	int ret;

	if (args->cmd_size == sizeof(*cmds))
		return memdup_array_user(from, args->cmd_count, sizeof(*cmds));
	cmds = kvcalloc(args->cmd_count, sizeof(*cmds), GFP_KERNEL);
	if (!cmds)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < args->cmd_count; i++) {
		ret = copy_struct_from_user(&cmds[i], sizeof(*cmds),
					    from + (size_t)i * args->cmd_size,
					    args->cmd_size);
		if (ret) {
			if (ret == -E2BIG)
				drm_dbg(drm, "command %u: bytes beyond this driver's struct are not zero\n",
					i);
			kvfree(cmds);
			return ERR_PTR(ret);
		}
	}
	return cmds;
}

/* The input fences become the job's dependencies. */
static int simt_job_add_deps(struct drm_device *drm, struct drm_file *file,
			     struct simt_job *job,
			     const struct drm_simt_submit *args)
{
	struct drm_simt_sync *syncs;
	struct dma_fence *fence;
	u32 i;
	int ret = 0;

	if (!args->in_sync_count)
		return 0;
	syncs = memdup_array_user(u64_to_user_ptr(args->in_syncs),
				  args->in_sync_count, sizeof(*syncs));
	if (IS_ERR(syncs))
		return PTR_ERR(syncs);
	for (i = 0; i < args->in_sync_count && !ret; i++) {
		if (syncs[i].flags) {
			drm_dbg(drm, "in_syncs[%u]: flags 0x%x\n", i,
				syncs[i].flags);
			ret = -EINVAL;
			break;
		}
		ret = drm_syncobj_find_fence(file, syncs[i].handle,
					     syncs[i].point, 0, &fence);
		if (ret) {
			drm_dbg(drm, "in_syncs[%u]: syncobj %u point %llu: %d\n",
				i, syncs[i].handle, syncs[i].point, ret);
			break;
		}
		ret = drm_sched_job_add_dependency(&job->base, fence);
	}
	kfree(syncs);
	return ret;
}

static int simt_submit_check(struct drm_device *drm,
			     const struct drm_simt_submit *args)
{
	if (args->flags & ~DRM_SIMT_SUBMIT_FENCE_FD) {
		drm_dbg(drm, "SUBMIT: flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	if (args->pad) {
		drm_dbg(drm, "SUBMIT: pad not zero\n");
		return -EINVAL;
	}
	if (args->cmd_size < 8 || args->cmd_size > 4096 || args->cmd_size % 8) {
		drm_dbg(drm, "SUBMIT: cmd_size %u\n", args->cmd_size);
		return -EINVAL;
	}
	if (args->cmd_count > SIMT_MAX_SUBMIT_CMDS ||
	    args->in_sync_count > SIMT_MAX_SUBMIT_CMDS) {
		drm_dbg(drm, "SUBMIT: %u commands, %u input fences\n",
			args->cmd_count, args->in_sync_count);
		return -EINVAL;
	}
	if (args->syncobj_point && !args->syncobj) {
		drm_dbg(drm, "SUBMIT: a point without a syncobj\n");
		return -EINVAL;
	}
	if ((args->cmd_count && !args->cmds) ||
	    (args->in_sync_count && !args->in_syncs)) {
		drm_dbg(drm, "SUBMIT: a count with a NULL array\n");
		return -EFAULT;
	}
	return 0;
}

/* Does @job launch a kernel? */
static bool simt_job_launches(const struct simt_job *job)
{
	u32 i;

	for (i = 0; i < job->cmd_count; i++)
		if (job->cmds[i].type == DRM_SIMT_CMD_LAUNCH)
			return true;
	return false;
}

/* Room for one more submission of @ctx, waiting up to a second for it. */
static int simt_inflight_reserve(struct simt_ctx *ctx)
{
	long left;

	left = wait_event_interruptible_timeout(ctx->inflight_wq,
			atomic_read(&ctx->inflight) < SIMT_MAX_INFLIGHT ||
			READ_ONCE(ctx->error) || READ_ONCE(ctx->closed),
			msecs_to_jiffies(SIMT_SUBMIT_WAIT_MS));
	if (left < 0)
		return left;
	if (atomic_read(&ctx->inflight) >= SIMT_MAX_INFLIGHT &&
	    !READ_ONCE(ctx->error) && !READ_ONCE(ctx->closed))
		return -EAGAIN;
	return 0;
}

/*
 * The fence of SUBMIT's sync_file: made, and put in a file, before the
 * job is armed, since nothing may fail or allocate after that; it
 * signals, with the same error, when the job's finished fence does.
 */
struct simt_out_fence {
	struct dma_fence base;
	spinlock_t lock;
	struct dma_fence_cb cb;
};

static const char *simt_out_fence_timeline_name(struct dma_fence *fence)
{
	return "submission";
}

static const struct dma_fence_ops simt_out_fence_ops = {
	.get_driver_name = simt_fence_driver_name,
	.get_timeline_name = simt_out_fence_timeline_name,
};

static void simt_out_fence_signal(struct dma_fence *finished,
				  struct dma_fence_cb *cb)
{
	struct simt_out_fence *out = container_of(cb, struct simt_out_fence,
						  cb);

	if (finished->error)
		dma_fence_set_error(&out->base, finished->error);
	dma_fence_signal(&out->base);
	/* The callback's reference. */
	dma_fence_put(&out->base);
}

/* Follow @finished with @out; takes over the reference for the callback. */
static void simt_out_fence_follow(struct simt_out_fence *out,
				  struct dma_fence *finished)
{
	if (dma_fence_add_callback(finished, &out->cb, simt_out_fence_signal))
		simt_out_fence_signal(finished, &out->cb);
}

int simt_submit_ioctl(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	struct simt_device *sdev = to_simt(drm);
	struct drm_simt_submit *args = data;
	struct dma_fence_chain *chain = NULL;
	struct drm_syncobj *syncobj = NULL;
	struct sync_file *sync_file = NULL;
	struct simt_out_fence *out = NULL;
	struct simt_fence *fence = NULL;
	struct dma_fence *finished, *last;
	struct simt_result *res;
	struct simt_job *job;
	struct simt_ctx *ctx;
	unsigned long flags;
	int ret, out_fd = -1;
	bool cookie;
	u64 seqno;
	u32 n = 0;

	ret = simt_submit_check(drm, args);
	if (ret)
		return ret;
	args->fence_fd = -1;

	ctx = simt_ctx_lookup(file, args->ctx_id);
	if (!ctx)
		return -ENOENT;

	job = kzalloc(struct_size(job, bos, 2 * args->cmd_count), GFP_KERNEL);
	fence = kzalloc(sizeof(*fence), GFP_KERNEL);
	if (!job || !fence) {
		kfree(job);
		kfree(fence);
		simt_ctx_put(ctx);
		return -ENOMEM;
	}
	job->bo_count = 2 * args->cmd_count;
	job->cmd_count = args->cmd_count;
	job->hw_fence = fence;
	spin_lock_init(&fence->lock);
	/* From here on simt_free_job() undoes everything, ctx reference too. */
	job->ctx = ctx;
	atomic_inc(&ctx->inflight);

	ret = drm_sched_job_init(&job->base, &ctx->entity, 1, file->driver_priv);
	if (ret) {
		job->base.s_fence = NULL;
		goto out_free;
	}

	if (args->cmd_count) {
		job->cmds = simt_cmds_copy(drm, args);
		if (IS_ERR(job->cmds)) {
			ret = PTR_ERR(job->cmds);
			job->cmds = NULL;
			goto out_free;
		}
	}
	ret = simt_job_prepare(drm, file, job, fence, &n);
	if (ret)
		goto out_free;
	/* And the SIGNAL. */
	if (n + 1 > SIMT_RING_ENTRIES - 1) {
		drm_dbg(drm, "SUBMIT: %u ring entries and the SIGNAL exceed %u\n",
			n, SIMT_RING_ENTRIES - 1);
		ret = -E2BIG;
		goto out_free;
	}
	job->base.credits = n + 1;

	ret = simt_job_add_deps(drm, file, job, args);
	if (ret)
		goto out_free;

	if (args->syncobj) {
		syncobj = drm_syncobj_find(file, args->syncobj);
		if (!syncobj) {
			drm_dbg(drm, "SUBMIT: no syncobj %u\n", args->syncobj);
			ret = -ENOENT;
			goto out_free;
		}
		if (args->syncobj_point) {
			chain = dma_fence_chain_alloc();
			if (!chain) {
				ret = -ENOMEM;
				goto out_free;
			}
		}
	}
	if (args->flags & DRM_SIMT_SUBMIT_FENCE_FD) {
		out_fd = get_unused_fd_flags(O_CLOEXEC);
		if (out_fd < 0) {
			ret = out_fd;
			goto out_free;
		}
		out = kzalloc(sizeof(*out), GFP_KERNEL);
		if (!out) {
			ret = -ENOMEM;
			goto out_free;
		}
		spin_lock_init(&out->lock);
	}

	ret = simt_inflight_reserve(ctx);
	if (ret)
		goto out_free;

	mutex_lock(&ctx->lock);
	if (ctx->closed || READ_ONCE(ctx->error)) {
		mutex_unlock(&ctx->lock);
		ret = ctx->closed ? -ENOENT : -EIO;
		goto out_free;
	}
	seqno = ctx->seqno + 1;
	if (out) {
		dma_fence_init(&out->base, &simt_out_fence_ops, &out->lock,
			       ctx->out_fence_context, seqno);
		sync_file = sync_file_create(&out->base);
		if (!sync_file) {
			mutex_unlock(&ctx->lock);
			ret = -ENOMEM;
			goto out_free;
		}
	}
	/* Seed 003: the context's evicted objects come back for a kernel. */
	simt_vram_ctx_prepare(ctx, simt_job_launches(job));

	/* The point of no return: nothing fails or allocates until pushed. */
	cookie = dma_fence_begin_signalling();
	drm_sched_job_arm(&job->base);
	job->seqno = seqno;
	ctx->seqno = seqno;
	finished = &job->base.s_fence->finished;
	WARN_ON_ONCE(finished->seqno != seqno);
	spin_lock_irqsave(&ctx->fence_lock, flags);
	res = &ctx->results[seqno % SIMT_RESULT_SLOTS];
	last = res->finished;
	res->seqno = seqno;
	res->finished = dma_fence_get(finished);
	res->start_cycle = 0;
	res->end_cycle = 0;
	spin_unlock_irqrestore(&ctx->fence_lock, flags);
	dma_fence_put(last);
	atomic64_inc(&sdev->stats.submissions);
	if (syncobj) {
		if (chain)
			drm_syncobj_add_point(syncobj, chain, finished,
					      args->syncobj_point);
		else
			drm_syncobj_replace_fence(syncobj, finished);
		chain = NULL;
	}
	if (out) {
		simt_out_fence_follow(out, finished);
		out = NULL;
	}
	last = simt_vram_ctx_armed(ctx, finished);
	/* The job may be run and freed from here on. */
	drm_sched_entity_push_job(&job->base);
	dma_fence_end_signalling(cookie);
	mutex_unlock(&ctx->lock);
	dma_fence_put(last);

	args->seqno = seqno;
	if (syncobj)
		drm_syncobj_put(syncobj);
	if (sync_file) {
		fd_install(out_fd, sync_file->file);
		args->fence_fd = out_fd;
	}
	return 0;

out_free:
	if (sync_file)
		fput(sync_file->file);
	if (out && out->base.ops)
		dma_fence_put(&out->base);
	else
		kfree(out);
	if (out_fd >= 0)
		put_unused_fd(out_fd);
	dma_fence_chain_free(chain);
	if (syncobj)
		drm_syncobj_put(syncobj);
	simt_free_job(&job->base);
	return ret;
}

/* ---- WAIT ---- */

/*
 * The error WAIT reports for submission @seqno of a stopped context:
 * the context's reason for the one that failed and later ones.
 */
static void simt_wait_error(struct simt_ctx *ctx, struct drm_simt_wait *args)
{
	struct simt_device *sdev = ctx->sdev;
	unsigned long flags;

	spin_lock_irqsave(&sdev->ctx_lock, flags);
	if (ctx->error && args->seqno >= ctx->failed_seqno) {
		args->error = ctx->error;
		if (ctx->error == DRM_SIMT_ERROR_FAULT ||
		    ctx->error == DRM_SIMT_ERROR_DEVICE) {
			args->hw_error = ctx->hw_error;
			args->fault_addr = ctx->fault_addr;
		}
	}
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);
}

int simt_wait_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_simt_wait *args = data;
	struct dma_fence *fence = NULL;
	struct simt_result *res;
	struct simt_ctx *ctx;
	unsigned long flags;
	u64 now, deadline;
	long left;
	int ret = 0;

	if ((args->flags & ~DRM_SIMT_WAIT_ABSOLUTE) || args->pad ||
	    args->timeout_ns < 0) {
		drm_dbg(drm, "WAIT: flags 0x%x, pad %u, timeout %lld\n",
			args->flags, args->pad, args->timeout_ns);
		return -EINVAL;
	}
	ctx = simt_ctx_lookup(file, args->ctx_id);
	if (!ctx)
		return -ENOENT;
	if (!args->seqno || args->seqno > READ_ONCE(ctx->seqno)) {
		drm_dbg(drm, "WAIT: seqno %llu not handed out\n", args->seqno);
		ret = -EINVAL;
		goto out;
	}

	/* A slot taken by a newer submission: this one finished long ago. */
	spin_lock_irqsave(&ctx->fence_lock, flags);
	res = &ctx->results[args->seqno % SIMT_RESULT_SLOTS];
	if (res->seqno == args->seqno && res->finished)
		fence = dma_fence_get(res->finished);
	spin_unlock_irqrestore(&ctx->fence_lock, flags);

	now = ktime_get_ns();
	if (args->flags & DRM_SIMT_WAIT_ABSOLUTE)
		deadline = args->timeout_ns;
	else if (check_add_overflow(now, (u64)args->timeout_ns, &deadline))
		deadline = U64_MAX;

	if (fence) {
		left = deadline > now ?
		       (long)min_t(u64, nsecs_to_jiffies64(deadline - now) + 1,
				   MAX_SCHEDULE_TIMEOUT - 1) : 0;
		left = dma_fence_wait_timeout(fence, true, left);
		if (left == -ERESTARTSYS && !(args->flags & DRM_SIMT_WAIT_ABSOLUTE)) {
			/* A restarted call waits only for what is left. */
			now = ktime_get_ns();
			args->timeout_ns = deadline > now ?
					   min_t(u64, deadline - now, S64_MAX) : 0;
		}
		if (left < 0) {
			ret = left;
			goto out;
		}
		if (!left && !dma_fence_is_signaled(fence)) {
			ret = -ETIME;
			goto out;
		}
	}

	args->error = DRM_SIMT_ERROR_NONE;
	args->hw_error = 0;
	args->fault_addr = 0;
	args->fault_pc = 0;
	args->start_cycle = 0;
	args->end_cycle = 0;
	if (fence && fence->error == -ENODEV) {
		ret = -ENODEV;
		goto out;
	}
	if (!fence || fence->error)
		simt_wait_error(ctx, args);
	if (fence && fence->error && !args->error) {
		/* Ended without reaching the device (the context closed). */
		args->error = DRM_SIMT_ERROR_CANCELED;
	}

	spin_lock_irqsave(&ctx->fence_lock, flags);
	res = &ctx->results[args->seqno % SIMT_RESULT_SLOTS];
	if (res->seqno == args->seqno) {
		args->start_cycle = res->start_cycle;
		args->end_cycle = res->end_cycle;
	}
	if (args->error && args->seqno == ctx->failed_seqno)
		args->fault_pc = ctx->fault_pc;
	spin_unlock_irqrestore(&ctx->fence_lock, flags);
out:
	if (fence)
		dma_fence_put(fence);
	simt_ctx_put(ctx);
	return ret;
}
