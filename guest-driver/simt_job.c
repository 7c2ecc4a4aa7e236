// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: job submission and completion.
 *
 * A SUBMIT becomes a run of hardware commands in its context's ring
 * (a COPY per contiguous piece of a copy, a LAUNCH per launch),
 * closed by a SIGNAL that stores the submission's sequence number in the
 * context's fence word (DMA-coherent memory) and raises the QUEUE
 * interrupt.  Sequence numbers of a context increase by one per
 * submission and the queue runs its commands in order, so "seqno n is
 * done" is simply "fence >= n"; a wait queue woken by the interrupt is
 * all the waiting there is.  (A dma_fence per job would let other drivers
 * and syncobjs wait too; nothing needs that yet.)
 *
 * A failing command stops the queue where it is.  The ERROR and MMU
 * interrupts record why in the context; waits for the failed submission
 * and later ones return that error, and the context accepts no more work.
 *
 * Jobs keep references on the objects their copies use until they are
 * retired (their seqno reached, or the queue stopped), so that closing a
 * handle cannot free memory the device is still copying to or from.
 * Retiring is lazy: on the next submit or wait of the context, and when
 * the context goes.
 */

#include <linux/jiffies.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "simt_drv.h"
#include "uapi/drm/simt_accel.h"

struct simt_job {
	struct list_head link;
	u64 seqno;
	unsigned int bo_count;
	struct drm_gem_object *bos[] __counted_by(bo_count);
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

/* Record why a stopped queue stopped, and the context's MMU fault. */
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
	if (SIMT_QSTATUS_STATE(st) == SIMT_QSTATE_ERROR && !ctx->hw_error) {
		/* Error 0 in the error state would be a device bug; keep it visible. */
		WRITE_ONCE(ctx->hw_error, SIMT_QSTATUS_ERROR(st) ?: U32_MAX);
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
	unsigned int q;

	if (cls == SIMT_IRQ_ERROR || cls == SIMT_IRQ_MMU) {
		spin_lock(&sdev->ctx_lock);
		for (q = 0; q < sdev->hw_queue_count; q++)
			if (sdev->queue_ctx[q])
				simt_ctx_collect_error(sdev, sdev->queue_ctx[q]);
		spin_unlock(&sdev->ctx_lock);
	}
	wake_up_all(&sdev->job_wq);
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

static void simt_launch_emit(struct simt_ctx *ctx,
			     const struct drm_simt_cmd_launch *l)
{
	struct simt_cmd_launch *c = simt_ring_next(ctx);

	c->opcode = SIMT_CMD_LAUNCH;
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

/* Look the objects up and check the commands; count the ring entries. */
static int simt_job_prepare(struct drm_file *file, struct simt_job *job,
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
			break;
		case DRM_SIMT_CMD_LAUNCH:
			if (!simt_cmd_tail_zero(cmd, sizeof(cmd->launch)))
				return -EINVAL;
			ret = simt_launch_check(&cmd->launch);
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

int simt_submit_ioctl(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	struct simt_device *sdev = to_simt(drm);
	struct drm_simt_submit *args = data;
	struct drm_simt_cmd *cmds = NULL;
	struct simt_cmd_signal *sig;
	struct simt_job *job;
	struct simt_ctx *ctx;
	u32 i, n = 0, need;
	long left;
	int idx, ret;

	if (args->flags || args->cmd_size != sizeof(struct drm_simt_cmd) ||
	    args->cmd_count > SIMT_MAX_SUBMIT_CMDS)
		return -EINVAL;
	if (args->cmd_count && !args->cmds)
		return -EFAULT;

	ctx = simt_ctx_lookup(file, args->ctx_id);
	if (!ctx)
		return -ENOENT;

	job = kzalloc(struct_size(job, bos, 2 * args->cmd_count), GFP_KERNEL);
	if (!job) {
		ret = -ENOMEM;
		goto out_ctx;
	}
	job->bo_count = 2 * args->cmd_count;

	if (args->cmd_count) {
		cmds = memdup_array_user(u64_to_user_ptr(args->cmds),
					 args->cmd_count, sizeof(*cmds));
		if (IS_ERR(cmds)) {
			ret = PTR_ERR(cmds);
			cmds = NULL;
			goto out_job;
		}
	}
	ret = simt_job_prepare(file, job, cmds, args->cmd_count, &n);
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
	left = wait_event_interruptible_timeout(sdev->job_wq,
			READ_ONCE(ctx->hw_error) || simt_ring_free(ctx) >= need,
			msecs_to_jiffies(SIMT_RING_WAIT_MS));
	if (READ_ONCE(ctx->hw_error))
		ret = -EIO;
	else if (left == 0)
		ret = -EAGAIN;
	else if (left < 0)
		ret = left;
	if (ret)
		goto out_exit;

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

	/* writel() orders the ring writes above before the doorbell. */
	simt_wr32(sdev, SIMT_QUEUE_REG(ctx->hw_queue, SIMT_QREG_TAIL), ctx->tail);
	drm_dev_exit(idx);

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
out_cmds:
	kvfree(cmds);
out_ctx:
	simt_ctx_put(ctx);
	return ret;
}

static bool simt_wait_done(struct simt_ctx *ctx, u64 seqno)
{
	return READ_ONCE(*ctx->fence) >= seqno || READ_ONCE(ctx->hw_error) ||
	       drm_dev_is_unplugged(&ctx->sdev->drm);
}

int simt_wait_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct simt_device *sdev = to_simt(drm);
	struct drm_simt_wait *args = data;
	struct simt_ctx *ctx;
	unsigned long flags;
	u64 timeout;
	long left;
	int ret = 0;

	if (args->flags || args->timeout_ns < 0)
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

	args->error = DRM_SIMT_ERROR_NONE;
	args->hw_error = 0;
	args->fault_addr = 0;
	if (READ_ONCE(*ctx->fence) >= args->seqno) {
		/* completed */
	} else if (READ_ONCE(ctx->hw_error)) {
		spin_lock_irqsave(&sdev->ctx_lock, flags);
		args->hw_error = ctx->hw_error;
		args->error = ctx->faulted ? DRM_SIMT_ERROR_FAULT :
					     DRM_SIMT_ERROR_DEVICE;
		args->fault_addr = ctx->fault_addr;
		spin_unlock_irqrestore(&sdev->ctx_lock, flags);
	} else if (drm_dev_is_unplugged(drm)) {
		ret = -ENODEV;
	} else {
		ret = -ETIME;
	}

	mutex_lock(&ctx->lock);
	simt_job_retire(ctx, READ_ONCE(ctx->hw_error));
	mutex_unlock(&ctx->lock);
out:
	simt_ctx_put(ctx);
	return ret;
}
