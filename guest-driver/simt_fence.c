// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: hardware fences and completion.
 *
 * run_job returns a hardware fence per job (simt_sched.c).  The interrupt
 * thread reads each context's fence word and signals the hardware fences
 * it has passed, in order; the scheduler then signals the job's finished
 * fence, which is what WAIT, syncobjs and sync_files wait for, so a
 * completion wakes only the waiters of its own fence.  Every LAUNCH
 * carries the address of a completion record slot; the device writes the
 * kernel's start and end cycles, and the pc of a fault, there, and the
 * interrupt thread reads them into the statistics and the results WAIT
 * reports.
 *
 * A failing command stops the queue where it is.  The ERROR and MMU
 * interrupts record why in the context; the failed submission and every
 * later one end with that error, and the context accepts no more work.
 *
 * The interrupt thread is a fence-signalling path, annotated with
 * dma_fence_begin_signalling() (simt_sched.c says why).
 */

#include <linux/dma-fence.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>

#include <drm/drm_drv.h>

#include "simt_device.h"
#include "simt_fence.h"
#include "simt_move.h"
#include "uapi/drm/simt_accel.h"

const char *simt_fence_driver_name(struct dma_fence *fence)
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

int simt_error_errno(u32 error)
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
	/* Unplug has freed the records: every fence has signalled. */
	if (!ctx->records)
		return;
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
	 * failed by mistake.  Records are read after the fence word.  Both
	 * under fence_lock, which unplug takes to move the fence word.
	 */
	spin_lock_irqsave(&ctx->fence_lock, flags);
	error = smp_load_acquire(&ctx->error);
	done = READ_ONCE(*ctx->fence);
	dma_rmb();

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
void simt_ctx_fail(struct simt_ctx *ctx, u32 error, u32 hw_error)
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
void simt_ctx_collect_error(struct simt_device *sdev,
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
void simt_fence_irq(struct simt_device *sdev, unsigned int cls)
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
		/* A user queue's SIGNAL or error: wake USERQ_WAIT. */
		if (READ_ONCE(ctx->userq))
			wake_up_all(&ctx->userq_wq);
	}
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);
	simt_move_irq(sdev);
	dma_fence_end_signalling(cookie);
	drm_dev_exit(idx);
}

/*
 * Make @fence the hardware fence of submission @seqno of @ctx, pending
 * until the interrupt thread sees the fence word pass it.  The pending
 * list holds a reference; the caller keeps the first one.
 */
void simt_fence_publish(struct simt_ctx *ctx, struct simt_fence *fence,
			u64 seqno)
{
	unsigned long flags;

	dma_fence_init(&fence->base, &simt_fence_ops, &fence->lock,
		       ctx->hw_fence_context, seqno);
	dma_fence_get(&fence->base);
	spin_lock_irqsave(&ctx->fence_lock, flags);
	/* The context's wait for the device starts (simt_fair.c). */
	if (list_empty(&ctx->pending))
		ctx->fair_since = ktime_get_ns();
	list_add_tail(&fence->link, &ctx->pending);
	spin_unlock_irqrestore(&ctx->fence_lock, flags);
}

/*
 * The device is gone and quiet (simt_remove() has reset it): fail every
 * fence still pending, so that nobody waits for ever.
 */
void simt_fence_device_gone(struct simt_device *sdev)
{
	unsigned long flags;
	unsigned int q;

	spin_lock_irqsave(&sdev->ctx_lock, flags);
	for (q = 0; q < sdev->hw_queue_count; q++)
		if (sdev->queue_ctx[q])
			simt_ctx_signal(sdev->queue_ctx[q], -ENODEV);
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);
}
