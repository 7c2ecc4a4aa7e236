// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: the watchdog and recovery.
 *
 * The watchdog is the driver's own delayed work (not the scheduler's
 * timeout, whose handler would have to edit the scheduler's lists), which
 * runs while a job is on the hardware (run_job queues it, simt_sched.c),
 * ten times per job_timeout_ms and at least every
 * SIMT_WATCHDOG_PERIOD_MS (simt_watchdog_delay()).  It looks at the
 * oldest unsignalled hardware fence of each queue and measures how long
 * that submission has actually run: the device counts, per queue, the
 * cycles in which the queue had blocks on the SMs or a copy moving
 * (ACTIVE_CYCLES); the share of the device's cycles that were active,
 * times the time that passed, is running time.  Time a job spends
 * preempted, waiting behind kernels of higher priority or waiting for a
 * copy engine does not count, so such a job is never blamed.  A job that has run for job_timeout_ms
 * is hung: recovery clears its queue's ENABLE bit, which takes exactly
 * that queue's blocks and copy off the device, and fails the context
 * with DRM_SIMT_ERROR_TIMEOUT.  Only if the queue does not stop is the
 * whole device reset: then every other context's unfinished commands are
 * replayed from the command that was interrupted, except a kernel launch
 * without DRM_SIMT_CMD_LAUNCH_IDEMPOTENT at the head of its queue, which
 * may have stored to memory already: that context is failed with
 * DRM_SIMT_ERROR_CANCELED instead.  VRAM, and so page tables and data,
 * survive the reset.
 *
 * Recovery holds reset_sem for writing, and first checks that the
 * context still owns its queue: closing one gives the queue back, maybe
 * to another tenant, under reset_sem for reading.
 */

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "simt_device.h"
#include "simt_fence.h"
#include "simt_hwq.h"
#include "simt_irq.h"
#include "simt_move.h"
#include "simt_preempt.h"
#include "simt_recover.h"
#include "simt_sched.h"
#include "uapi/drm/simt_accel.h"

static unsigned int simt_job_timeout_ms = 10000;
module_param_named(job_timeout_ms, simt_job_timeout_ms, uint, 0644);
MODULE_PARM_DESC(job_timeout_ms,
		 "stop a context whose submission has run this long (ms of running time, 0: never)");

/**
 * simt_watchdog_delay() - The time until the watchdog's next look.
 *
 * A tenth of the job timeout (module parameter job_timeout_ms), at least
 * a jiffy, so that a short timeout is resolved too (tests on the virtual
 * clock use tens of milliseconds): counting starts at the first look, so
 * a hang is declared at most two looks late.  At most
 * SIMT_WATCHDOG_PERIOD_MS (also when the timeout is off), which also
 * keeps the 32-bit usage counters sampled before they wrap.
 *
 * Return: the delay in jiffies, for queue_delayed_work().
 */
unsigned long simt_watchdog_delay(void)
{
	u32 timeout_ms = READ_ONCE(simt_job_timeout_ms);
	u32 ms = SIMT_WATCHDOG_PERIOD_MS;

	if (timeout_ms)
		ms = clamp(timeout_ms / 10, 1U, ms);
	return msecs_to_jiffies(ms);
}

/*
 * How long has submission @seqno of @ctx run?  Adds the time since the
 * watchdog's last look at @ctx, times the share of the device's cycles
 * in which the queue was active, or all of it if @waited (a user queue's
 * WAIT, which holds its queue and the engine's attention, not the SMs).
 * The first look at a submission starts its count.  On tdr_wq only.
 */
static bool simt_watchdog_hung(struct simt_ctx *ctx, u64 seqno, bool waited)
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
		/*
		 * ACTIVE_CYCLES grows by whole slices, so a queue active
		 * all along is up to a slice ahead of the cycle counter: it
		 * ran the whole time.  (A device reset restarts both
		 * counters; recovery then starts the count again.)
		 */
		if (waited)
			ctx->wd_run_ns += d_wall;
		else if (d_cycle)
			ctx->wd_run_ns += mul_u64_u32_div(d_wall,
							  min(d_active, d_cycle),
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
		simt_ctx_usage_restart(ctx);
		head[q] = simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_HEAD)) &
			  (SIMT_RING_ENTRIES - 1);
		n = (ctx->tail - head[q]) & (SIMT_RING_ENTRIES - 1);
		if (ctx == culprit) {
			simt_ctx_fail(ctx, DRM_SIMT_ERROR_TIMEOUT, 0);
		} else if (ctx->userq && !ctx->error) {
			/*
			 * The reset queue starts at entry 0, the process's
			 * tail does not: its ring cannot go on.
			 */
			simt_ctx_fail(ctx, DRM_SIMT_ERROR_CANCELED, 0);
			atomic64_inc(&sdev->stats.cancels);
			cancelled++;
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
	/* No move is in flight: moves hold reset_sem for reading. */
	simt_move_hw_init(sdev);

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
			simt_ctx_stop_queue(ctx);
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
			if (ctx->userq)
				wake_up_all(&ctx->userq_wq);
		}
	}
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);
	drm_warn(&sdev->drm, "device reset: %u contexts replayed, %u cancelled\n",
		 replayed, cancelled);
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
		simt_ctx_stop_queue(ctx);
		atomic64_inc(&sdev->stats.queue_stops);
		drm_warn(&sdev->drm,
			 "context %u (queue %u): %s %llu ran longer than %u ms; queue stopped\n",
			 ctx->id, ctx->hw_queue,
			 ctx->userq ? "user queue command" : "submission",
			 seqno, run_ms);
		simt_ctx_signal(ctx, 0);
		if (ctx->userq)
			wake_up_all(&ctx->userq_wq);
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
 * The user-queue context on queue @q, referenced, or NULL; with @key the
 * number of the command it runs (COMPLETED + 1, which changes as the
 * queue makes progress), 0 if the queue has nothing on the device.  The
 * kernel does not see what a process puts into its ring, so the watchdog
 * looks at every user queue while there is any.  What the queue runs is
 * the device's STATUS, not HEAD and TAIL: the process writes TAIL, and
 * may set it back to HEAD while the command at HEAD still runs.
 */
static struct simt_ctx *simt_queue_user(struct simt_device *sdev, u32 q,
					u64 *key, bool *waiting)
{
	struct simt_ctx *ctx;
	unsigned long flags;
	u32 state;

	*key = 0;
	*waiting = false;
	spin_lock_irqsave(&sdev->ctx_lock, flags);
	ctx = sdev->queue_ctx[q];
	if (ctx && READ_ONCE(ctx->userq) && !ctx->error) {
		kref_get(&ctx->ref);
		state = SIMT_QSTATUS_STATE(simt_rd32(sdev,
						     SIMT_QUEUE_REG(q, SIMT_QREG_STATUS)));
		if (state == SIMT_QSTATE_BUSY || state == SIMT_QSTATE_WAITING)
			*key = (u64)simt_rd32(sdev,
					      SIMT_QUEUE_REG(q, SIMT_QREG_COMPLETED)) + 1;
		*waiting = state == SIMT_QSTATE_WAITING;
	} else {
		ctx = NULL;
	}
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);
	return ctx;
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
	bool waited;
	u64 seqno;
	int idx;
	u32 q;

	if (!drm_dev_enter(&sdev->drm, &idx))
		return;
	cookie = dma_fence_begin_signalling();
	for (q = 0; q < sdev->hw_queue_count; q++) {
		waited = false;
		ctx = simt_queue_oldest(sdev, q, &seqno);
		if (!ctx)
			ctx = simt_queue_user(sdev, q, &seqno, &waited);
		if (!ctx)
			continue;
		busy = true;
		simt_ctx_usage_update(ctx);
		if (!seqno)
			ctx->wd_seqno = 0;	/* an idle user queue */
		else if (simt_watchdog_hung(ctx, seqno, waited))
			simt_ctx_recover(ctx, seqno,
					 READ_ONCE(simt_job_timeout_ms));
		simt_ctx_put(ctx);
	}
	dma_fence_end_signalling(cookie);
	if (busy)
		queue_delayed_work(sdev->tdr_wq, &sdev->watchdog,
				   simt_watchdog_delay());
	drm_dev_exit(idx);
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

/**
 * simt_device_reset_request() - Reset the whole device, as recovery does.
 * @sdev: the device.
 *
 * Queues the whole-device recovery (every live context brought back, its
 * unfinished commands replayed where that is safe) on tdr_wq, after any
 * watchdog look or recovery already there, and waits for it to finish.
 * Does nothing if the device has been unplugged meanwhile.  For the
 * debugfs file "reset".
 *
 * Context: process context, not on tdr_wq; sleeps.
 * Return: 0.
 */
int simt_device_reset_request(struct simt_device *sdev)
{
	queue_work(sdev->tdr_wq, &sdev->reset_work);
	flush_work(&sdev->reset_work);
	return 0;
}

static void simt_replay_buf_free(struct drm_device *drm, void *arg)
{
	kvfree(arg);
}

/**
 * simt_recover_init() - Set up the watchdog and recovery.
 * @sdev: the device, before it is used.
 *
 * Initialises reset_sem, the reset and watchdog work items, the replay
 * buffer (a ring's worth, allocated now since recovery may not allocate:
 * it holds back fences) and the ordered tdr_wq they run on.  The buffer
 * and the work queue go with the DRM device.
 *
 * Context: process context (probe).
 * Return: 0 or a negative errno.
 */
int simt_recover_init(struct simt_device *sdev)
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
	sdev->tdr_wq = alloc_ordered_workqueue("simt-tdr", WQ_MEM_RECLAIM);
	return simt_drmm_workqueue(sdev, sdev->tdr_wq);
}

/**
 * simt_recover_fini() - Stop the watchdog and recovery of a removed device.
 * @sdev: the device, gone (unplugged).
 *
 * Cancels the reset work and the watchdog, waiting for one that runs:
 * no more looks, no more resets.
 *
 * Context: process context (remove); sleeps.
 */
void simt_recover_fini(struct simt_device *sdev)
{
	cancel_work_sync(&sdev->reset_work);
	cancel_delayed_work_sync(&sdev->watchdog);
}
