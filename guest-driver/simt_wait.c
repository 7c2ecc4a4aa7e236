// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: WAIT.
 *
 * A syncobj wait on a submission's finished fence would do for waiting;
 * WAIT takes the sequence number SUBMIT returned instead of a syncobj,
 * and reports what a fence cannot carry: the context's error, the
 * device's error code, the fault address and pc, and the start and end
 * cycles of the submission's last launch (docs/driver.rst).
 */

#include <linux/dma-fence.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/overflow.h>

#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "simt_ctx.h"
#include "simt_device.h"
#include "simt_submit.h"
#include "uapi/drm/simt_accel.h"

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

/**
 * simt_wait_ioctl() - DRM_IOCTL_SIMT_WAIT: wait for a submission and report on it.
 * @drm: the DRM device.
 * @data: the struct drm_simt_wait of the call.
 * @file: the caller's DRM file, which owns the context.
 *
 * Waits, interruptibly, on the finished fence of submission seqno of the
 * context until it signals or the timeout (relative, or absolute
 * CLOCK_MONOTONIC with DRM_SIMT_WAIT_ABSOLUTE) passes; a submission
 * whose result slot a newer one has taken finished long ago and is not
 * waited for.  Then reports the context's error for the submission that
 * failed and later ones (DRM_SIMT_ERROR_CANCELED for one that ended
 * without reaching the device), the device's error code, the fault
 * address and pc, and the cycles of its last launch that ran.  A
 * relative wait interrupted by a signal writes back the time it has
 * left into timeout_ns, for the restarted call.
 *
 * Context: process context; takes the context's fence_lock and
 * sdev->ctx_lock.
 * Return: 0 when the submission is over (completed or ended by an error,
 * see the error field), -ETIME if it is still running at the timeout,
 * -ERESTARTSYS on a signal, -EINVAL for bad arguments or a seqno not
 * handed out, -ENOENT for an unknown context, -ENODEV if the device went
 * before the submission finished.
 */
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
		simt_dbg(drm, JOB, "WAIT: flags 0x%x, pad %u, timeout %lld\n",
			 args->flags, args->pad, args->timeout_ns);
		return -EINVAL;
	}
	ctx = simt_ctx_lookup(file, args->ctx_id);
	if (!ctx)
		return -ENOENT;
	if (!args->seqno || args->seqno > READ_ONCE(ctx->seqno)) {
		simt_dbg(drm, JOB, "WAIT: seqno %llu not handed out\n", args->seqno);
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
