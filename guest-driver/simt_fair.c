// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: the context scheduling policy (module parameter sched_policy).
 *
 * Every context has a hardware queue of its own priority, and the device
 * always runs the highest-priority work first: a steady stream of
 * high-priority kernels starves every lower context for as long as it
 * lasts.  The policy decides whether the driver lets that happen:
 *
 *  - "priority" (the default): jobs go to the device as soon as their
 *    dependencies allow; the device's priorities are the whole story.
 *  - "fair-share": a check every SIMT_FAIR_PERIOD_MS finds a context
 *    whose oldest submission on the device has waited starve_ms (none
 *    of its submissions finished meanwhile) while a context of higher
 *    priority had work on the device: it gets crumbs at best, the
 *    blocks the others' kernels leave free at their ends.  A submission
 *    still waiting for its own dependencies is not starved, so the wait
 *    counts from when the first reaches the device.  Then the jobs of
 *    every context of higher priority than the starving one are held
 *    back before they reach the device (drm_sched's prepare_job waits
 *    on a fence), until a submission of the starving context
 *    finishes, or its queue has run for share_ms of device time, or
 *    10 * share_ms have passed.  Work already on the device finishes,
 *    after which the device is the starving context's.  User queues, whose work the driver does not
 *    see, count as busy by their STATUS; during a hold the PRIORITY of
 *    those above the starving context is its priority, so that their
 *    next kernels dispatch after its older one (the device breaks ties
 *    by age), and is theirs again when the hold ends.
 *
 * This file is where a scheduling lab adds a policy (docs/labs/
 * driver-sched.rst): simt_fair_check() decides when to hold, and
 * simt_fair_prepare_job() which jobs wait.
 */

#include <linux/dma-fence.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>

#include "simt_device.h"
#include "simt_fair.h"

#define SIMT_FAIR_PERIOD_MS	10

enum simt_sched_policy {
	SIMT_SCHED_PRIORITY,
	SIMT_SCHED_FAIR_SHARE,
};

static const char *const simt_sched_policies[] = {
	[SIMT_SCHED_PRIORITY] = "priority",
	[SIMT_SCHED_FAIR_SHARE] = "fair-share",
};

static int simt_sched_policy = SIMT_SCHED_PRIORITY;

static int simt_sched_policy_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(simt_sched_policies, val);

	if (i < 0)
		return -EINVAL;
	WRITE_ONCE(simt_sched_policy, i);
	return 0;
}

static int simt_sched_policy_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n",
			  simt_sched_policies[READ_ONCE(simt_sched_policy)]);
}

static const struct kernel_param_ops simt_sched_policy_ops = {
	.set = simt_sched_policy_set,
	.get = simt_sched_policy_get,
};
module_param_cb(sched_policy, &simt_sched_policy_ops, NULL, 0644);
MODULE_PARM_DESC(sched_policy,
		 "context scheduling: priority (default) or fair-share");

static unsigned int simt_starve_ms = 100;
module_param_named(starve_ms, simt_starve_ms, uint, 0644);
MODULE_PARM_DESC(starve_ms,
		 "fair-share: how long a context may wait behind higher priorities");

static unsigned int simt_share_ms = 20;
module_param_named(share_ms, simt_share_ms, uint, 0644);
MODULE_PARM_DESC(share_ms,
		 "fair-share: device time a starved context gets before the others go on");

static const char *simt_hold_driver_name(struct dma_fence *f)
{
	return SIMT_DRIVER_NAME;
}

static const char *simt_hold_timeline_name(struct dma_fence *f)
{
	return "fair-share";
}

static const struct dma_fence_ops simt_hold_ops = {
	.get_driver_name = simt_hold_driver_name,
	.get_timeline_name = simt_hold_timeline_name,
};

/*
 * Has @ctx submissions on the device (in its ring, not yet done)?  If
 * none, or one ended since the last check, its wait starts anew: @now,
 * or when simt_fence_publish() puts the next on the device.
 */
static bool simt_fair_on_device(struct simt_ctx *ctx, bool restart, u64 now)
{
	bool on;

	spin_lock(&ctx->fence_lock);
	on = !list_empty(&ctx->pending);
	if (!on || restart)
		ctx->fair_since = now;
	spin_unlock(&ctx->fence_lock);
	return on;
}

/* Is user-queue context @ctx on queue @q running or waiting? */
static bool simt_fair_userq_busy(struct simt_device *sdev, u32 q,
				 struct simt_ctx *ctx)
{
	u32 state;

	if (!READ_ONCE(ctx->userq))
		return false;
	state = SIMT_QSTATUS_STATE(simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_STATUS)));
	return state == SIMT_QSTATE_BUSY || state == SIMT_QSTATE_WAITING;
}

/*
 * The hold's priority for the user queues above it, or (@lower false)
 * their own again; under ctx_lock and fair_lock, on the device.
 */
static void simt_fair_userq_priority(struct simt_device *sdev, bool lower)
{
	struct simt_ctx *ctx;
	u32 q;

	for (q = 0; q < sdev->hw_queue_count; q++) {
		ctx = sdev->queue_ctx[q];
		if (lower && ctx && READ_ONCE(ctx->userq) &&
		    ctx->priority > sdev->hold_prio) {
			simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_PRIORITY),
				  sdev->hold_prio);
			__set_bit(q, &sdev->hold_lowered);
		} else if (!lower && test_bit(q, &sdev->hold_lowered)) {
			if (ctx)
				simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_PRIORITY),
					  ctx->priority);
			__clear_bit(q, &sdev->hold_lowered);
		}
	}
}

/*
 * End the hold, if one is on: its waiting jobs go on, and (@on_device)
 * the user queues it lowered get their priority back.  Under fair_lock.
 */
static void simt_fair_release(struct simt_device *sdev, bool on_device)
{
	lockdep_assert_held(&sdev->fair_lock);
	if (!sdev->hold)
		return;
	if (on_device)
		simt_fair_userq_priority(sdev, false);
	sdev->hold_lowered = 0;
	dma_fence_signal_locked(sdev->hold);
	dma_fence_put(sdev->hold);
	sdev->hold = NULL;
	simt_ctx_put(sdev->hold_ctx);
	sdev->hold_ctx = NULL;
}

/*
 * The check: note which contexts ran, end a hold that has done its job,
 * and start one for the context that has waited longest past starve_ms
 * behind a busy context of higher priority.
 */
static void simt_fair_check(struct simt_device *sdev)
{
	struct simt_ctx *ctx, *starved = NULL;
	u64 now = ktime_get_ns(), share;
	u32 busy_max = 0, q;
	bool any_busy = false;
	u64 done;
	unsigned long flags;

	share = (u64)READ_ONCE(simt_share_ms) * sdev->clock_mhz * 1000;
	spin_lock_irqsave(&sdev->ctx_lock, flags);
	for (q = 0; q < sdev->hw_queue_count; q++) {
		u32 active;

		ctx = sdev->queue_ctx[q];
		if (!ctx)
			continue;
		active = simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_ACTIVE_CYCLES));
		done = READ_ONCE(*ctx->fence);
		ctx->fair_queued = simt_fair_on_device(ctx, done != ctx->fair_done,
						       now);
		ctx->fair_done = done;
		ctx->fair_active = active;
		if (ctx->fair_queued || simt_fair_userq_busy(sdev, q, ctx)) {
			busy_max = any_busy ? max(busy_max, ctx->priority) :
					      ctx->priority;
			any_busy = true;
		}
	}
	spin_lock(&sdev->fair_lock);
	if (sdev->hold) {
		ctx = sdev->hold_ctx;
		if (!ctx->fair_queued || READ_ONCE(ctx->closed) ||
		    ctx->fair_done != sdev->hold_done ||
		    (u32)(ctx->fair_active - sdev->hold_active) >= share ||
		    now - sdev->hold_ns >
		    10ull * READ_ONCE(simt_share_ms) * NSEC_PER_MSEC)
			simt_fair_release(sdev, true);
		goto out;
	}
	if (READ_ONCE(simt_sched_policy) != SIMT_SCHED_FAIR_SHARE)
		goto out;
	for (q = 0; q < sdev->hw_queue_count; q++) {
		ctx = sdev->queue_ctx[q];
		if (!ctx || !ctx->fair_queued || ctx->priority >= busy_max ||
		    now - ctx->fair_since <
		    (u64)READ_ONCE(simt_starve_ms) * NSEC_PER_MSEC)
			continue;
		if (!starved || ctx->fair_since < starved->fair_since)
			starved = ctx;
	}
	if (starved) {
		struct dma_fence *f = kzalloc(sizeof(*f), GFP_ATOMIC);

		if (f) {
			dma_fence_init(f, &simt_hold_ops, &sdev->fair_lock,
				       sdev->fair_context, ++sdev->fair_seqno);
			kref_get(&starved->ref);
			sdev->hold = f;
			sdev->hold_ctx = starved;
			sdev->hold_prio = starved->priority;
			sdev->hold_active = starved->fair_active;
			sdev->hold_done = starved->fair_done;
			sdev->hold_ns = now;
			simt_fair_userq_priority(sdev, true);
			atomic64_inc(&sdev->stats.fair_holds);
		}
	}
out:
	spin_unlock(&sdev->fair_lock);
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);
}

static void simt_fair_work(struct work_struct *work)
{
	struct simt_device *sdev = container_of(to_delayed_work(work),
						struct simt_device, fair_work);
	int idx;

	if (!drm_dev_enter(&sdev->drm, &idx))
		return;
	simt_fair_check(sdev);
	drm_dev_exit(idx);
	queue_delayed_work(system_wq, &sdev->fair_work,
			   msecs_to_jiffies(SIMT_FAIR_PERIOD_MS));
}

/**
 * simt_fair_prepare_job() - Whether a context's next job waits for a hold.
 * @ctx: the context of the job.
 *
 * drm_sched's prepare_job: while a fair-share hold is on, a job of a
 * context of higher priority than the held-for one waits for the hold to
 * end.  A closed context's jobs never wait: run_job only cancels them.
 *
 * Context: the scheduler's work item; takes sdev->fair_lock (irqsave).
 * Return: a reference to the hold's fence, for the scheduler to wait on,
 * or NULL to let the job run.
 */
struct dma_fence *simt_fair_prepare_job(struct simt_ctx *ctx)
{
	struct simt_device *sdev = ctx->sdev;
	struct dma_fence *f = NULL;
	unsigned long flags;

	spin_lock_irqsave(&sdev->fair_lock, flags);
	if (sdev->hold && ctx->priority > sdev->hold_prio &&
	    !READ_ONCE(ctx->closed))
		f = dma_fence_get(sdev->hold);
	spin_unlock_irqrestore(&sdev->fair_lock, flags);
	return f;
}

/**
 * simt_fair_init() - Start the context scheduling policy of a device.
 * @sdev: the device.
 *
 * Initialises fair_lock and the hold fences' context, and starts the
 * check, which runs every SIMT_FAIR_PERIOD_MS on system_wq until
 * simt_fair_fini(), whatever the policy: a hold begun under "fair-share"
 * still ends by its own rules after a switch to "priority".
 *
 * Context: process context (probe).
 */
void simt_fair_init(struct simt_device *sdev)
{
	spin_lock_init(&sdev->fair_lock);
	sdev->fair_context = dma_fence_context_alloc(1);
	INIT_DELAYED_WORK(&sdev->fair_work, simt_fair_work);
	queue_delayed_work(system_wq, &sdev->fair_work,
			   msecs_to_jiffies(SIMT_FAIR_PERIOD_MS));
}

/**
 * simt_fair_fini() - Stop the context scheduling policy of a device.
 * @sdev: the device, going (unplugged and reset).
 *
 * No more checks, and nothing stays held: a hold still on ends, and the
 * jobs it held go on; the device is not touched (the user queues' priority
 * is not restored).
 *
 * Context: process context (remove); waits for a check that runs; takes
 * sdev->fair_lock.
 */
void simt_fair_fini(struct simt_device *sdev)
{
	unsigned long flags;

	cancel_delayed_work_sync(&sdev->fair_work);
	spin_lock_irqsave(&sdev->fair_lock, flags);
	simt_fair_release(sdev, false);
	spin_unlock_irqrestore(&sdev->fair_lock, flags);
}
