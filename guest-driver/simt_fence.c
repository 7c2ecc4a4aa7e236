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

/**
 * simt_fence_driver_name() - The driver name of the driver's dma_fences.
 * @fence: the fence (unused).
 *
 * The &dma_fence_ops.get_driver_name of the hardware fences and of
 * SUBMIT's sync_file fences (simt_submit.c).
 *
 * Return: SIMT_DRIVER_NAME.
 */
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

/**
 * simt_error_errno() - The errno a context error ends fences with.
 * @error: a DRM_SIMT_ERROR_* value, not 0.
 *
 * Return: -EFAULT for a fault, -ETIMEDOUT for the job timeout, -ECANCELED
 * for a cancellation and -EIO for any other error (a device error).
 */
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

/**
 * simt_ctx_signal() - Signal the hardware fences of a context's jobs that are over.
 * @ctx: the context.
 * @cancel: 0, or a negative errno to end every other pending fence with.
 *
 * Signals, in seqno order, the fences on @ctx->pending that the fence word
 * has passed (completed: their completion records go into the statistics
 * and WAIT's results) and, once the context has an error, the rest with
 * that error (the first of them, the one that failed, has its records
 * read for the fault pc and WAIT's result).  With @cancel, the fences
 * still pending after that are signalled with @cancel too (the context or
 * the device is going).  Each signalled fence leaves the list and drops
 * the list's reference.  Idempotent.
 *
 * Context: any context; takes @ctx->fence_lock (irqsave).  Callers that
 * find @ctx through sdev->queue_ctx[] hold sdev->ctx_lock.
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
	 * failed by mistake.  Records are read after the fence word.  All
	 * under fence_lock, which unplug takes to move the fence word.
	 */
	spin_lock_irqsave(&ctx->fence_lock, flags);
	/* Pairs with the smp_store_release() of simt_ctx_fail(). */
	error = smp_load_acquire(&ctx->error);
	done = READ_ONCE(*ctx->fence);
	/*
	 * Read the fence word before the completion records: the device
	 * writes a job's records before its SIGNAL stores the fence word.
	 */
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

/**
 * simt_ctx_results_free() - Free the results WAIT keeps for a context.
 * @ctx: the context, going (its release, or its creation failing).
 *
 * Drops the finished fences held in @ctx->results and frees the array.
 * Does nothing if there is none.
 *
 * Context: process context; nothing else may use @ctx any more, so no
 * lock is taken.
 */
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

/**
 * simt_ctx_fail() - Stop a context with an error.
 * @ctx: the context.
 * @error: the DRM_SIMT_ERROR_* value it stops with, not 0.
 * @hw_error: the queue's enum simt_queue_error, 0 for none, or U32_MAX
 *	when the device gave none.
 *
 * From its next submission not yet completed (recorded as
 * @ctx->failed_seqno) on, every submission of @ctx ends with @error, and
 * run_job puts no more on the device.  Only the first error counts: a
 * context that has one already is left as it is.  @ctx->error is stored
 * last, with release semantics, so readers that load it with acquire
 * (simt_ctx_signal(), run_job) see the details written before it.
 *
 * Context: caller holds sdev->ctx_lock.
 */
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

/**
 * simt_ctx_collect_error() - Record why a context's queue stopped.
 * @sdev: the device.
 * @ctx: a context that owns a hardware queue.
 *
 * Reads the hardware context's MMU fault record: the first fault's
 * address is kept in @ctx->fault_addr, and the record is cleared.  If
 * the queue is in the error state and @ctx has no error yet, fails @ctx
 * with simt_ctx_fail(): DRM_SIMT_ERROR_FAULT after an MMU fault, else
 * DRM_SIMT_ERROR_DEVICE, with the queue's error code (U32_MAX if the
 * device reports none); counts it in the statistics and logs it
 * (ratelimited).
 *
 * Context: caller holds sdev->ctx_lock, inside drm_dev_enter().
 */
void simt_ctx_collect_error(struct simt_device *sdev, struct simt_ctx *ctx)
{
	u32 st, f;

	lockdep_assert_held(&sdev->ctx_lock);
	f = simt_rd32(sdev, SIMT_CTX_REG(ctx->hw_ctx, SIMT_CREG_FAULT));
	if (f & SIMT_CFAULT_VALID) {
		if (!ctx->faulted) {
			ctx->faulted = true;
			ctx->fault_addr =
				simt_rd32(sdev, SIMT_CTX_REG(ctx->hw_ctx, SIMT_CREG_FAULT_ADDR));
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

/**
 * simt_fence_irq() - Signal what the device has finished.
 * @sdev: the device.
 * @cls: the interrupt class, SIMT_IRQ_QUEUE, SIMT_IRQ_ERROR or SIMT_IRQ_MMU.
 *
 * The threaded handler of the queue, error and MMU interrupts.  For every
 * hardware queue that has a context: after an ERROR or MMU interrupt,
 * records why the queue stopped (simt_ctx_collect_error()); signals the
 * fences that are over (simt_ctx_signal()); and wakes USERQ_WAIT on a
 * user queue.  Then lets the move queue see its completions
 * (simt_move_irq()).  Does nothing once the device is unplugged.
 *
 * Context: process context (the interrupt thread), a fence-signalling
 * path; takes sdev->ctx_lock and each context's fence_lock.
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

/**
 * simt_fence_publish() - Make a fence the hardware fence of a submission.
 * @ctx: the context.
 * @fence: the job's hardware fence, not yet initialised.
 * @seqno: the job's sequence number, which its SIGNAL stores.
 *
 * Initialises @fence on @ctx's hardware fence context and puts it on
 * @ctx->pending, where it waits until the interrupt thread sees the fence
 * word pass @seqno.  The pending list holds a reference of its own; the
 * caller keeps the first one.  When the list was empty, the context's
 * wait for the device starts now (@ctx->fair_since, simt_fair.c).
 *
 * Context: run_job, under @ctx->ring_lock; takes @ctx->fence_lock
 * (irqsave).
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

/**
 * simt_fence_device_gone() - Fail every pending fence of a removed device.
 * @sdev: the device, gone and quiet (simt_remove() has reset it).
 *
 * Signals every hardware fence still pending on a context that owns a
 * queue with -ENODEV, so that nobody waits for ever.
 *
 * Context: process context; takes sdev->ctx_lock and each context's
 * fence_lock.
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
