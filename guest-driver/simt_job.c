// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: job submission, completion, and recovery from hangs.
 *
 * A SUBMIT becomes a run of hardware commands in its context's ring
 * (a COPY per contiguous piece of a copy, a LAUNCH per launch),
 * closed by a SIGNAL that stores the submission's sequence number in the
 * context's fence word (DMA-coherent memory) and raises the QUEUE
 * interrupt.  Sequence numbers of a context increase by one per
 * submission and the queue runs its commands in order, so "seqno n is
 * done" is simply "fence >= n".  WAIT sleeps on a wait queue that the
 * interrupts wake.
 *
 * Each submission also gets a dma_fence, so that the rest of the kernel
 * (drm_syncobj, and through it userspace and other drivers) can wait for
 * it.  Fences not yet signalled sit on the context's pending list; the
 * interrupt handler signals them as the fence word passes them, or with
 * an error when the context stops.
 *
 * Every LAUNCH carries the address of a completion record slot in the
 * context's record buffer; the device writes the kernel's start and end
 * cycles, and the pc of a fault, there.  When a submission is signalled
 * the driver reads its records into the statistics and keeps the last
 * launch's cycles for WAIT.
 *
 * A failing command stops the queue where it is.  The ERROR and MMU
 * interrupts record why in the context; waits for the failed submission
 * and later ones return that error, and the context accepts no more work.
 *
 * A submission that stays at the head of its queue for longer than
 * job_timeout_ms is declared hung: a watchdog, running while work is
 * queued, resets the whole device (the only way the hardware has to take
 * a kernel off the SMs for good), fails the hung context with
 * DRM_SIMT_ERROR_TIMEOUT and puts every other context's unfinished
 * commands back on its queue, so that they run again from the command
 * that was interrupted.  VRAM, and so page tables and data, survive the
 * reset.
 *
 * Jobs keep references on the objects their copies use until they are
 * retired (their seqno reached, or the queue stopped), so that closing a
 * handle cannot free memory the device is still copying to or from.
 * Retiring is lazy: on the next submit or wait of the context, and when
 * the context goes.
 */

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>

#include "simt_drv.h"
#include "uapi/drm/simt_accel.h"

static unsigned int simt_job_timeout_ms = 10000;
module_param_named(job_timeout_ms, simt_job_timeout_ms, uint, 0644);
MODULE_PARM_DESC(job_timeout_ms,
		 "reset the device when a submission runs longer than this (ms, 0: never)");

struct simt_job {
	struct list_head link;
	u64 seqno;
	unsigned int bo_count;
	struct drm_gem_object *bos[] __counted_by(bo_count);
};

/*
 * A submission's fence.  Each has its own lock: a syncobj may keep the
 * fence long after the context that signalled it is gone.
 */
struct simt_fence {
	struct dma_fence base;
	spinlock_t lock;
	struct list_head link;		/* ctx->pending */
	u32 first_slot;			/* its launches' record slots */
	u32 launches;
	u64 bytes;			/* copied by its commands */
};

static const char *simt_fence_driver_name(struct dma_fence *fence)
{
	return SIMT_DRIVER_NAME;
}

static const char *simt_fence_timeline_name(struct dma_fence *fence)
{
	return "context";
}

static const struct dma_fence_ops simt_fence_ops = {
	.get_driver_name = simt_fence_driver_name,
	.get_timeline_name = simt_fence_timeline_name,
};

static void simt_job_free(struct simt_job *job)
{
	unsigned int i;

	for (i = 0; i < job->bo_count; i++)
		if (job->bos[i])
			drm_gem_object_put(job->bos[i]);
	kfree(job);
}

/* Drop the jobs that are done, or all of them (the queue is stopped). */
void simt_job_retire(struct simt_ctx *ctx, bool all)
{
	u64 done = READ_ONCE(*ctx->fence);
	struct simt_job *job, *tmp;

	list_for_each_entry_safe(job, tmp, &ctx->jobs, link) {
		if (!all && job->seqno > done)
			break;
		list_del(&job->link);
		simt_job_free(job);
	}
}

static int simt_error_errno(u32 error)
{
	switch (error) {
	case DRM_SIMT_ERROR_FAULT:
		return -EFAULT;
	case DRM_SIMT_ERROR_TIMEOUT:
		return -ETIMEDOUT;
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
 * for a completed one the statistics.  Under ctx->fence_lock.
 */
static void simt_fence_collect(struct simt_ctx *ctx, struct simt_fence *f,
			       bool completed)
{
	struct simt_stats *st = &ctx->sdev->stats;
	const struct simt_completion *r, *last = NULL;
	struct simt_result *res;
	u64 cycles = 0;
	u32 i;

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
	res->seqno = f->base.seqno;
	res->start_cycle = last ? last->start_cycle : 0;
	res->end_cycle = last ? last->end_cycle : 0;

	if (completed) {
		atomic64_inc(&st->completions);
		atomic64_add(f->bytes, &st->bytes_copied);
		atomic64_add(f->launches, &st->kernels);
		atomic64_add(cycles, &st->kernel_cycles);
	}
}

/*
 * Signal the fences of @ctx's submissions that are over: completed, or
 * ended by the context's error.  With @cancel (a -errno) the rest are
 * signalled with that error too (the context or the device is going).
 * Safe in any context, idempotent.
 */
void simt_ctx_signal(struct simt_ctx *ctx, int cancel)
{
	struct simt_fence *f, *tmp;
	unsigned long flags;
	bool moved = false;
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
		moved = true;
	}
	/* The next submission, if any, has the queue from now on. */
	if (moved)
		ctx->head_start = ktime_get_ns();
	spin_unlock_irqrestore(&ctx->fence_lock, flags);
}

/*
 * Record why a stopped queue stopped, and the context's MMU fault.
 * Under sdev->ctx_lock.
 */
static void simt_ctx_collect_error(struct simt_device *sdev,
				   struct simt_ctx *ctx)
{
	u32 st, f;

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
		ctx->hw_error = SIMT_QSTATUS_ERROR(st) ?: U32_MAX;
		smp_store_release(&ctx->error, ctx->faulted ?
				  DRM_SIMT_ERROR_FAULT : DRM_SIMT_ERROR_DEVICE);
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

/* Called by the interrupt handlers of the queue, error and MMU classes. */
void simt_job_irq(struct simt_device *sdev, unsigned int cls)
{
	struct simt_ctx *ctx;
	unsigned int q;

	spin_lock(&sdev->ctx_lock);
	for (q = 0; q < sdev->hw_queue_count; q++) {
		ctx = sdev->queue_ctx[q];
		if (!ctx)
			continue;
		if (cls == SIMT_IRQ_ERROR || cls == SIMT_IRQ_MMU)
			simt_ctx_collect_error(sdev, ctx);
		simt_ctx_signal(ctx, 0);
	}
	spin_unlock(&sdev->ctx_lock);
	wake_up_all(&sdev->job_wq);
}

/*
 * ---- Recovery ----
 *
 * Reset the device and bring every live context back: registers
 * (page tables, priorities, rings), and for contexts still running, their
 * unfinished commands, moved to the start of the ring since a reset
 * queue starts there.  The command each queue was running when it was
 * stopped runs again from its beginning.  @culprit is failed with
 * DRM_SIMT_ERROR_TIMEOUT if it is still stuck on submission @seqno.
 */
static void simt_recover(struct simt_device *sdev, struct simt_ctx *culprit,
			 u64 seqno, u32 timeout_ms)
{
	u32 head[SIMT_MAX_QUEUES] = { };
	struct simt_ctx *ctx;
	unsigned long flags;
	bool hung = false;
	u32 q, n, first;
	void *tmp;
	int idx;

	tmp = kvmalloc(SIMT_RING_ENTRIES * SIMT_CMD_SIZE, GFP_KERNEL);
	if (!tmp)
		return;		/* the watchdog tries again */

	down_write(&sdev->reset_sem);
	if (!drm_dev_enter(&sdev->drm, &idx))
		goto out;

	/*
	 * Note errors first (a reset clears them), then stop every queue
	 * where it is.  Creation and release of contexts wait on reset_sem,
	 * so queue_ctx[] holds still; the lock is for the interrupt handler.
	 */
	spin_lock_irqsave(&sdev->ctx_lock, flags);
	for (q = 0; q < sdev->hw_queue_count; q++) {
		ctx = sdev->queue_ctx[q];
		if (!ctx)
			continue;
		simt_ctx_collect_error(sdev, ctx);
		simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_CONTROL), 0);
		head[q] = simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_HEAD)) &
			  (SIMT_RING_ENTRIES - 1);
	}
	if (!culprit->error && READ_ONCE(*culprit->fence) < seqno) {
		hung = true;
		culprit->hw_error = 0;
		smp_store_release(&culprit->error, DRM_SIMT_ERROR_TIMEOUT);
	}
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);

	simt_hw_reset(sdev);
	atomic64_inc(&sdev->stats.resets);
	if (hung)
		atomic64_inc(&sdev->stats.timeouts);
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
		WRITE_ONCE(ctx->tail, n);
		if (simt_ctx_hw_init(ctx)) {
			/* The queue did not start: fail the context. */
			spin_lock_irqsave(&sdev->ctx_lock, flags);
			if (!ctx->error) {
				ctx->hw_error = U32_MAX;
				smp_store_release(&ctx->error,
						  DRM_SIMT_ERROR_DEVICE);
				atomic64_inc(&sdev->stats.errors);
			}
			spin_unlock_irqrestore(&sdev->ctx_lock, flags);
			continue;
		}
		if (n)
			simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_TAIL), n);
	}

	/* Everyone still running starts a new timeout now. */
	spin_lock_irqsave(&sdev->ctx_lock, flags);
	for (q = 0; q < sdev->hw_queue_count; q++) {
		ctx = sdev->queue_ctx[q];
		if (!ctx)
			continue;
		spin_lock(&ctx->fence_lock);
		ctx->head_start = ktime_get_ns();
		spin_unlock(&ctx->fence_lock);
		simt_ctx_signal(ctx, 0);
	}
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);

	if (hung)
		drm_warn(&sdev->drm,
			 "context %u (queue %u): submission %llu ran longer than %u ms; device reset, other contexts' work resubmitted\n",
			 culprit->id, culprit->hw_queue, seqno, timeout_ms);
	else
		drm_info(&sdev->drm, "device reset; every context's work resubmitted\n");
	drm_dev_exit(idx);
out:
	up_write(&sdev->reset_sem);
	kvfree(tmp);
	wake_up_all(&sdev->job_wq);
}

/*
 * The watchdog: while any context has work queued, look every
 * SIMT_WATCHDOG_PERIOD_MS at the submission at the head of each queue.
 * One that has been there longer than the timeout may be hung, or may
 * only be waiting for SMs that a hung kernel holds.  The device places
 * blocks of higher priority first, so a late submission of low priority
 * can be starved by work of higher priority, but not the other way
 * round: of the submissions over the timeout, the one of the highest
 * priority, and of those the oldest, is declared hung.  Only that one
 * context is failed per reset; the others' work is resubmitted and gets
 * a new timeout.
 */
static void simt_watchdog(struct work_struct *work)
{
	struct simt_device *sdev = container_of(to_delayed_work(work),
						struct simt_device, watchdog);
	u32 timeout_ms = READ_ONCE(simt_job_timeout_ms);
	u64 timeout_ns = (u64)timeout_ms * NSEC_PER_MSEC;
	struct simt_ctx *ctx, *culprit = NULL;
	u64 now = ktime_get_ns(), oldest = 0, seqno = 0;
	struct simt_fence *f;
	unsigned long flags;
	bool busy = false;
	unsigned int q;
	int idx;

	if (!drm_dev_enter(&sdev->drm, &idx))
		return;

	spin_lock_irqsave(&sdev->ctx_lock, flags);
	for (q = 0; q < sdev->hw_queue_count; q++) {
		ctx = sdev->queue_ctx[q];
		if (!ctx || READ_ONCE(ctx->error))
			continue;
		spin_lock(&ctx->fence_lock);
		f = list_first_entry_or_null(&ctx->pending, struct simt_fence,
					     link);
		if (f) {
			busy = true;
			/*
			 * A submission made since @now was read has a later
			 * head_start: not overdue (the difference would wrap).
			 */
			if (timeout_ns && ctx->head_start < now &&
			    now - ctx->head_start > timeout_ns &&
			    (!culprit || ctx->priority > culprit->priority ||
			     (ctx->priority == culprit->priority &&
			      ctx->head_start < oldest))) {
				culprit = ctx;
				oldest = ctx->head_start;
				seqno = f->base.seqno;
			}
		}
		spin_unlock(&ctx->fence_lock);
	}
	/* A context being released is still in queue_ctx[]: skip it. */
	if (culprit && !kref_get_unless_zero(&culprit->ref))
		culprit = NULL;
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);

	if (culprit) {
		/* The timeout that caught it, whatever the parameter is now. */
		simt_recover(sdev, culprit, seqno, timeout_ms);
		simt_ctx_put(culprit);
	}
	if (busy)
		queue_delayed_work(system_wq, &sdev->watchdog,
				   msecs_to_jiffies(SIMT_WATCHDOG_PERIOD_MS));
	drm_dev_exit(idx);
}

void simt_job_init(struct simt_device *sdev)
{
	init_rwsem(&sdev->reset_sem);
	INIT_DELAYED_WORK(&sdev->watchdog, simt_watchdog);
}

/*
 * The device is gone (drm_dev_unplug() has returned): stop the watchdog
 * and fail every fence still pending, so that nobody waits for ever.
 */
void simt_job_fini(struct simt_device *sdev)
{
	unsigned long flags;
	unsigned int q;

	cancel_delayed_work_sync(&sdev->watchdog);
	spin_lock_irqsave(&sdev->ctx_lock, flags);
	for (q = 0; q < sdev->hw_queue_count; q++)
		if (sdev->queue_ctx[q])
			simt_ctx_signal(sdev->queue_ctx[q], -ENODEV);
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);
}

static u32 simt_ring_free(struct simt_ctx *ctx)
{
	u32 head = simt_rd32(ctx->sdev, SIMT_QUEUE_REG(ctx->hw_queue,
							SIMT_QREG_HEAD));

	return SIMT_RING_ENTRIES - 1 -
	       ((ctx->tail - head) & (SIMT_RING_ENTRIES - 1));
}

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

static int simt_copy_prepare(struct drm_file *file, struct simt_job *job,
			     u32 i, const struct drm_simt_cmd_copy *cmd,
			     u32 *n)
{
	struct drm_gem_object *src, *dst;

	src = drm_gem_object_lookup(file, cmd->src_handle);
	job->bos[2 * i] = src;
	dst = drm_gem_object_lookup(file, cmd->dst_handle);
	job->bos[2 * i + 1] = dst;
	if (!src || !dst)
		return -ENOENT;

	if (!simt_range_ok(src, cmd->src_offset, cmd->size) ||
	    !simt_range_ok(dst, cmd->dst_offset, cmd->size))
		return -EINVAL;
	if (src == dst && cmd->size &&
	    cmd->src_offset < cmd->dst_offset + cmd->size &&
	    cmd->dst_offset < cmd->src_offset + cmd->size)
		return -EINVAL;

	return simt_copy_emit(NULL, cmd, src, dst, n, SIMT_RING_ENTRIES);
}

/*
 * What the device would refuse as a bad command anyway, refused here
 * with EINVAL instead of stopping the context.  Addresses are the
 * context's business: a bad one faults.  A launch holds no object
 * references: it reaches only bound objects, and their bindings hold
 * them (an unbind under a running kernel makes it fault, nothing worse).
 */
static int simt_launch_check(const struct drm_simt_cmd_launch *l)
{
	unsigned int i;

	if (l->pad)
		return -EINVAL;
	for (i = 0; i < 3; i++)
		if (!l->grid[i] || !l->block[i])
			return -EINVAL;
	if (!l->code_size || l->code_size > SIMT_MAX_CODE_SIZE ||
	    l->code_size % 4 || l->code_addr % 4 || l->entry % 4 ||
	    l->entry < l->code_addr || l->entry - l->code_addr >= l->code_size)
		return -EINVAL;
	if (!l->regs || l->regs > 64 || l->local_size % 16)
		return -EINVAL;
	return 0;
}

/* A launch, with the next completion record slot of the context. */
static void simt_launch_emit(struct simt_ctx *ctx,
			     const struct drm_simt_cmd_launch *l)
{
	struct simt_cmd_launch *c = simt_ring_next(ctx);
	u32 slot = ctx->next_slot++ % SIMT_RECORD_SLOTS;

	memset(&ctx->records[slot], 0, sizeof(ctx->records[slot]));
	c->opcode = SIMT_CMD_LAUNCH;
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
}

/*
 * Look the objects up and check the commands; count the ring entries,
 * and the launches and bytes for the fence.
 */
static int simt_job_prepare(struct drm_file *file, struct simt_job *job,
			    struct simt_fence *fence,
			    const struct drm_simt_cmd *cmds, u32 count,
			    u32 *entries)
{
	u32 i, n = 0;
	int ret;

	for (i = 0; i < count; i++) {
		const struct drm_simt_cmd *cmd = &cmds[i];

		if (cmd->flags)
			return -EINVAL;
		switch (cmd->type) {
		case DRM_SIMT_CMD_COPY:
			if (!simt_cmd_tail_zero(cmd, sizeof(cmd->copy)))
				return -EINVAL;
			ret = simt_copy_prepare(file, job, i, &cmd->copy, &n);
			fence->bytes += cmd->copy.size;
			break;
		case DRM_SIMT_CMD_LAUNCH:
			if (!simt_cmd_tail_zero(cmd, sizeof(cmd->launch)))
				return -EINVAL;
			ret = simt_launch_check(&cmd->launch);
			fence->launches++;
			n++;
			break;
		default:
			return -EINVAL;
		}
		if (ret)
			return ret;
		if (n >= SIMT_RING_ENTRIES)
			return -E2BIG;
	}
	*entries = n;
	return 0;
}

/*
 * Wait until the ring has room for @need entries.  Returns 0 holding
 * reset_sem for reading (no reset can move the ring under the caller),
 * or -errno.  Under ctx->lock.
 */
static int simt_ring_reserve(struct simt_ctx *ctx, u32 need)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(SIMT_RING_WAIT_MS);
	struct simt_device *sdev = ctx->sdev;
	long left;

	for (;;) {
		left = wait_event_interruptible_timeout(sdev->job_wq,
				READ_ONCE(ctx->error) ||
				simt_ring_free(ctx) >= need,
				max_t(long, (long)(deadline - jiffies), 1));
		if (left < 0)
			return left;
		down_read(&sdev->reset_sem);
		if (READ_ONCE(ctx->error)) {
			up_read(&sdev->reset_sem);
			return -EIO;
		}
		if (simt_ring_free(ctx) >= need)
			return 0;
		up_read(&sdev->reset_sem);
		if (!time_before(jiffies, deadline))
			return -EAGAIN;
	}
}

int simt_submit_ioctl(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	struct simt_device *sdev = to_simt(drm);
	struct drm_simt_submit *args = data;
	struct drm_syncobj *syncobj = NULL;
	struct drm_simt_cmd *cmds = NULL;
	struct simt_fence *fence = NULL;
	struct simt_cmd_signal *sig;
	struct simt_job *job;
	struct simt_ctx *ctx;
	unsigned long flags;
	u32 i, n = 0, need;
	int idx, ret;

	if (args->flags || args->pad ||
	    args->cmd_size != sizeof(struct drm_simt_cmd) ||
	    args->cmd_count > SIMT_MAX_SUBMIT_CMDS)
		return -EINVAL;
	if (args->cmd_count && !args->cmds)
		return -EFAULT;

	ctx = simt_ctx_lookup(file, args->ctx_id);
	if (!ctx)
		return -ENOENT;

	job = kzalloc(struct_size(job, bos, 2 * args->cmd_count), GFP_KERNEL);
	fence = kzalloc(sizeof(*fence), GFP_KERNEL);
	if (!job || !fence) {
		ret = -ENOMEM;
		goto out_job;
	}
	job->bo_count = 2 * args->cmd_count;

	if (args->syncobj) {
		syncobj = drm_syncobj_find(file, args->syncobj);
		if (!syncobj) {
			ret = -ENOENT;
			goto out_job;
		}
	}

	if (args->cmd_count) {
		cmds = memdup_array_user(u64_to_user_ptr(args->cmds),
					 args->cmd_count, sizeof(*cmds));
		if (IS_ERR(cmds)) {
			ret = PTR_ERR(cmds);
			cmds = NULL;
			goto out_job;
		}
	}
	ret = simt_job_prepare(file, job, fence, cmds, args->cmd_count, &n);
	if (ret)
		goto out_job;
	need = n + 1;	/* and the SIGNAL */
	if (need > SIMT_RING_ENTRIES - 1) {
		ret = -E2BIG;
		goto out_job;
	}

	mutex_lock(&ctx->lock);
	if (!drm_dev_enter(drm, &idx)) {
		ret = -ENODEV;
		goto out_unlock;
	}
	ret = simt_ring_reserve(ctx, need);
	if (ret)
		goto out_exit;

	/* Read the records of finished submissions before slots are reused. */
	simt_ctx_signal(ctx, 0);
	fence->first_slot = ctx->next_slot % SIMT_RECORD_SLOTS;
	n = 0;
	for (i = 0; i < args->cmd_count; i++) {
		if (cmds[i].type == DRM_SIMT_CMD_LAUNCH)
			simt_launch_emit(ctx, &cmds[i].launch);
		else
			simt_copy_emit(ctx, &cmds[i].copy, job->bos[2 * i],
				       job->bos[2 * i + 1], &n, U32_MAX);
	}

	job->seqno = ++ctx->seqno;
	sig = simt_ring_next(ctx);
	sig->opcode = SIMT_CMD_SIGNAL;
	sig->flags = SIMT_CMDF_IRQ;
	sig->addr = ctx->ring_dma + SIMT_RING_ENTRIES * SIMT_CMD_SIZE;
	sig->value = job->seqno;

	spin_lock_init(&fence->lock);
	dma_fence_init(&fence->base, &simt_fence_ops, &fence->lock,
		       ctx->fence_context, job->seqno);
	spin_lock_irqsave(&ctx->fence_lock, flags);
	if (list_empty(&ctx->pending))
		ctx->head_start = ktime_get_ns();
	/*
	 * The pending list holds the reference dma_fence_init() made; this
	 * function one more, as the fence may be signalled at once.
	 */
	dma_fence_get(&fence->base);
	list_add_tail(&fence->link, &ctx->pending);
	spin_unlock_irqrestore(&ctx->fence_lock, flags);

	atomic64_inc(&sdev->stats.submissions);
	/* writel() orders the ring writes above before the doorbell. */
	simt_wr32(sdev, SIMT_QUEUE_REG(ctx->hw_queue, SIMT_QREG_TAIL), ctx->tail);
	up_read(&sdev->reset_sem);
	queue_delayed_work(system_wq, &sdev->watchdog,
			   msecs_to_jiffies(SIMT_WATCHDOG_PERIOD_MS));
	drm_dev_exit(idx);

	if (syncobj)
		drm_syncobj_replace_fence(syncobj, &fence->base);
	dma_fence_put(&fence->base);
	fence = NULL;
	list_add_tail(&job->link, &ctx->jobs);
	job = NULL;
	args->seqno = ctx->seqno;
	simt_job_retire(ctx, false);
	mutex_unlock(&ctx->lock);
	goto out_cmds;

out_exit:
	drm_dev_exit(idx);
out_unlock:
	mutex_unlock(&ctx->lock);
out_job:
	if (job)
		simt_job_free(job);
	kfree(fence);
out_cmds:
	if (syncobj)
		drm_syncobj_put(syncobj);
	kvfree(cmds);
	simt_ctx_put(ctx);
	return ret;
}

static bool simt_wait_done(struct simt_ctx *ctx, u64 seqno)
{
	return READ_ONCE(*ctx->fence) >= seqno || READ_ONCE(ctx->error) ||
	       drm_dev_is_unplugged(&ctx->sdev->drm);
}

int simt_wait_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct simt_device *sdev = to_simt(drm);
	struct drm_simt_wait *args = data;
	struct simt_result *res;
	struct simt_ctx *ctx;
	unsigned long flags;
	u64 timeout;
	u32 error;
	long left;
	int ret = 0;

	if (args->flags || args->pad || args->timeout_ns < 0)
		return -EINVAL;
	ctx = simt_ctx_lookup(file, args->ctx_id);
	if (!ctx)
		return -ENOENT;

	mutex_lock(&ctx->lock);
	if (!args->seqno || args->seqno > ctx->seqno)
		ret = -EINVAL;
	mutex_unlock(&ctx->lock);
	if (ret)
		goto out;

	timeout = nsecs_to_jiffies64(args->timeout_ns);
	if (timeout >= MAX_SCHEDULE_TIMEOUT)
		timeout = MAX_SCHEDULE_TIMEOUT - 1;
	left = wait_event_interruptible_timeout(sdev->job_wq,
						simt_wait_done(ctx, args->seqno),
						(long)timeout);
	if (left < 0) {
		ret = left;
		goto out;
	}

	/* Make sure the records of what is over have been read. */
	simt_ctx_signal(ctx, 0);

	args->error = DRM_SIMT_ERROR_NONE;
	args->hw_error = 0;
	args->fault_addr = 0;
	args->fault_pc = 0;
	args->start_cycle = 0;
	args->end_cycle = 0;
	error = smp_load_acquire(&ctx->error);
	if (READ_ONCE(*ctx->fence) >= args->seqno) {
		/* completed */
	} else if (error) {
		spin_lock_irqsave(&sdev->ctx_lock, flags);
		if (error == DRM_SIMT_ERROR_TIMEOUT) {
			args->error = DRM_SIMT_ERROR_TIMEOUT;
		} else {
			args->hw_error = ctx->hw_error;
			args->error = ctx->faulted ? DRM_SIMT_ERROR_FAULT :
						     DRM_SIMT_ERROR_DEVICE;
			args->fault_addr = ctx->fault_addr;
		}
		spin_unlock_irqrestore(&sdev->ctx_lock, flags);
	} else if (drm_dev_is_unplugged(drm)) {
		ret = -ENODEV;
	} else {
		ret = -ETIME;
	}

	if (!ret) {
		spin_lock_irqsave(&ctx->fence_lock, flags);
		res = &ctx->results[args->seqno % SIMT_RESULT_SLOTS];
		if (res->seqno == args->seqno) {
			args->start_cycle = res->start_cycle;
			args->end_cycle = res->end_cycle;
		}
		if (args->error)
			args->fault_pc = ctx->fault_pc;
		spin_unlock_irqrestore(&ctx->fence_lock, flags);
	}

	mutex_lock(&ctx->lock);
	simt_job_retire(ctx, READ_ONCE(ctx->error));
	mutex_unlock(&ctx->lock);
out:
	simt_ctx_put(ctx);
	return ret;
}
