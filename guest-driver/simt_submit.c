// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: SUBMIT.
 *
 * Everything is checked before anything is queued: the commands (types,
 * flags, reserved bytes, handles, ranges, overflow), the input fences,
 * the syncobj, room for one more submission.  Then, under the context's
 * lock, the job is armed and pushed to the context's entity
 * (simt_sched.c).  From drm_sched_job_arm() to
 * drm_sched_entity_push_job() nothing may fail or allocate (the armed
 * fence must signal, and reclaim may wait for it): the sync_file of
 * DRM_SIMT_SUBMIT_FENCE_FD is made before, around a fence of the
 * driver's own that follows the finished fence, the evicted objects are
 * restored before (simt_vram.c), and after the push nothing fails.
 */

#include <linux/dma-fence-chain.h>
#include <linux/file.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sync_file.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>

#include "simt_ctx.h"
#include "simt_device.h"
#include "simt_fence.h"
#include "simt_gem.h"
#include "simt_sched.h"
#include "simt_submit.h"
#include "simt_vram.h"
#include "uapi/drm/simt_accel.h"

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
		simt_dbg(drm, JOB, "command %u: no object %u\n", i,
			 src ? cmd->dst_handle : cmd->src_handle);
		return -ENOENT;
	}

	if (!simt_range_ok(src, cmd->src_offset, cmd->size) ||
	    !simt_range_ok(dst, cmd->dst_offset, cmd->size)) {
		simt_dbg(drm, JOB, "command %u: copy range outside its object\n", i);
		return -EINVAL;
	}
	if (src == dst && cmd->size &&
	    cmd->src_offset < cmd->dst_offset + cmd->size &&
	    cmd->dst_offset < cmd->src_offset + cmd->size) {
		simt_dbg(drm, JOB, "command %u: copy ranges overlap\n", i);
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
			simt_dbg(drm, JOB, "command %u: empty grid or block\n", i);
			return -EINVAL;
		}
		/* Three 32-bit sizes can wrap a 64-bit product to 0. */
		if (check_mul_overflow(blocks, (u64)l->grid[d], &blocks)) {
			simt_dbg(drm, JOB, "command %u: grid %u x %u x %u overflows\n",
				 i, l->grid[0], l->grid[1], l->grid[2]);
			return -EINVAL;
		}
	}
	/* The device runs at most 2^32 - 1 blocks, and only in the grid. */
	if (blocks > U32_MAX ||
	    (l->block_count ? (u64)l->first_block + l->block_count > blocks :
			      l->first_block)) {
		simt_dbg(drm, JOB, "command %u: subgrid %u+%u outside a grid of %llu blocks\n",
			 i, l->first_block, l->block_count, blocks);
		return -EINVAL;
	}
	if (!l->code_size || l->code_size > SIMT_MAX_CODE_SIZE ||
	    l->code_size % 4 || l->code_addr % 4 || l->entry % 4 ||
	    l->entry < l->code_addr || l->entry - l->code_addr >= l->code_size) {
		simt_dbg(drm, JOB, "command %u: bad code range or entry\n", i);
		return -EINVAL;
	}
	if (!l->regs || l->regs > SIMT_MAX_REGS || l->local_size % 16) {
		simt_dbg(drm, JOB, "command %u: bad regs or local size\n", i);
		return -EINVAL;
	}
	if (l->live_addr % 8) {
		simt_dbg(drm, JOB, "command %u: live table not 8-byte aligned\n", i);
		return -EINVAL;
	}
	return 0;
}

/*
 * A LAUNCH64 is the LAUNCH it stands for while contexts are Sv32: its
 * addresses must be below 4 GiB.  It is checked and run as that LAUNCH.
 */
static int simt_launch64_narrow(struct drm_device *drm, u32 i,
				struct drm_simt_cmd *cmd)
{
	const struct drm_simt_cmd_launch64 w = cmd->launch64;
	struct drm_simt_cmd_launch *l = &cmd->launch;

	if (!simt_cmd_tail_zero(cmd, sizeof(w))) {
		simt_dbg(drm, JOB, "command %u: launch reserved bytes not zero\n", i);
		return -EINVAL;
	}
	if (w.code_addr > U32_MAX || w.entry > U32_MAX ||
	    w.local_base > U32_MAX || w.live_addr > U32_MAX) {
		simt_dbg(drm, JOB, "command %u: an address at or beyond 4 GiB (Sv32)\n",
			 i);
		return -EINVAL;
	}
	memset(cmd->reserved, 0, sizeof(cmd->reserved));
	cmd->type = DRM_SIMT_CMD_LAUNCH;
	l->code_addr = w.code_addr;
	l->code_size = w.code_size;
	l->entry = w.entry;
	memcpy(l->grid, w.grid, sizeof(l->grid));
	memcpy(l->block, w.block, sizeof(l->block));
	l->shared_size = w.shared_size;
	l->local_size = w.local_size;
	l->regs = w.regs;
	l->local_base = w.local_base;
	memcpy(l->args, w.args, sizeof(l->args));
	l->live_addr = w.live_addr;
	l->int_regs = w.int_regs;
	l->fp_regs = w.fp_regs;
	l->first_block = w.first_block;
	l->block_count = w.block_count;
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
		struct drm_simt_cmd *cmd = &job->cmds[i];

		if (cmd->type == DRM_SIMT_CMD_LAUNCH64) {
			ret = simt_launch64_narrow(drm, i, cmd);
			if (ret)
				return ret;
		}
		switch (cmd->type) {
		case DRM_SIMT_CMD_COPY:
			if (cmd->flags) {
				simt_dbg(drm, JOB, "command %u: copy flags 0x%x\n",
					 i, cmd->flags);
				return -EINVAL;
			}
			if (!simt_cmd_tail_zero(cmd, sizeof(cmd->copy))) {
				simt_dbg(drm, JOB, "command %u: copy reserved bytes not zero\n", i);
				return -EINVAL;
			}
			ret = simt_copy_prepare(drm, file, job, i, &cmd->copy, &n);
			fence->bytes += cmd->copy.size;
			break;
		case DRM_SIMT_CMD_LAUNCH:
			if (cmd->flags & ~DRM_SIMT_CMD_LAUNCH_IDEMPOTENT) {
				simt_dbg(drm, JOB, "command %u: launch flags 0x%x\n",
					 i, cmd->flags);
				return -EINVAL;
			}
			if (!simt_cmd_tail_zero(cmd, sizeof(cmd->launch))) {
				simt_dbg(drm, JOB, "command %u: launch reserved bytes not zero\n",
					 i);
				return -EINVAL;
			}
			ret = simt_launch_check(drm, i, &cmd->launch);
			fence->launches++;
			n++;
			break;
		default:
			simt_dbg(drm, JOB, "command %u: unknown type %u\n", i, cmd->type);
			return -EINVAL;
		}
		if (ret)
			return ret;
		if (n >= SIMT_RING_ENTRIES) {
			simt_dbg(drm, JOB, "command %u: the job needs more than %u ring entries\n",
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
				simt_dbg(drm, JOB, "command %u: bytes beyond this driver's struct are not zero\n",
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
			simt_dbg(drm, JOB, "in_syncs[%u]: flags 0x%x\n", i,
				 syncs[i].flags);
			ret = -EINVAL;
			break;
		}
		ret = drm_syncobj_find_fence(file, syncs[i].handle,
					     syncs[i].point, 0, &fence);
		if (ret) {
			simt_dbg(drm, JOB, "in_syncs[%u]: syncobj %u point %llu: %d\n",
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
		simt_dbg(drm, JOB, "SUBMIT: flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	if (args->pad) {
		simt_dbg(drm, JOB, "SUBMIT: pad not zero\n");
		return -EINVAL;
	}
	if (args->cmd_size < 8 || args->cmd_size > 4096 || args->cmd_size % 8) {
		simt_dbg(drm, JOB, "SUBMIT: cmd_size %u\n", args->cmd_size);
		return -EINVAL;
	}
	if (args->cmd_count > SIMT_MAX_SUBMIT_CMDS ||
	    args->in_sync_count > SIMT_MAX_SUBMIT_CMDS) {
		simt_dbg(drm, JOB, "SUBMIT: %u commands, %u input fences\n",
			 args->cmd_count, args->in_sync_count);
		return -EINVAL;
	}
	if (args->syncobj_point && !args->syncobj) {
		simt_dbg(drm, JOB, "SUBMIT: a point without a syncobj\n");
		return -EINVAL;
	}
	if ((args->cmd_count && !args->cmds) ||
	    (args->in_sync_count && !args->in_syncs)) {
		simt_dbg(drm, JOB, "SUBMIT: a count with a NULL array\n");
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

/**
 * struct simt_out_fence - The fence of SUBMIT's sync_file.
 * @base: the dma_fence, on the context's out_fence_context with the
 *	submission's seqno.
 * @cb: the callback on the job's finished fence that signals @base; it
 *	holds a reference to @base until it has run.
 *
 * Made, and put in a file, before the job is armed, since nothing may
 * fail or allocate after that; it signals, with the same error, when the
 * job's finished fence does.
 */
struct simt_out_fence {
	struct dma_fence base;
	/** @lock: the lock of @base. */
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

static int simt_submit(struct drm_device *drm, struct drm_simt_submit *args,
		       struct drm_file *file)
{
	struct simt_device *sdev = to_simt(drm);
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
		simt_dbg(drm, JOB, "SUBMIT: %u ring entries and the SIGNAL exceed %u\n",
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
			simt_dbg(drm, JOB, "SUBMIT: no syncobj %u\n", args->syncobj);
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
	if (ctx->closed || READ_ONCE(ctx->error) || ctx->userq) {
		mutex_unlock(&ctx->lock);
		ret = ctx->closed ? -ENOENT : ctx->userq ? -EBUSY : -EIO;
		if (ret == -EBUSY)
			simt_dbg(drm, JOB, "SUBMIT: context %u is a user queue's\n",
				 args->ctx_id);
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
	simt_job_free(job);
	return ret;
}

/**
 * simt_submit_ioctl() - DRM_IOCTL_SIMT_SUBMIT: queue a job on a context.
 * @drm: the DRM device.
 * @data: the struct drm_simt_submit of the call.
 * @file: the caller's DRM file, which owns the context.
 *
 * Checks the arguments, the commands and the input fences, then arms
 * the job and pushes it to the context's entity, whose scheduler runs it
 * once its input fences have signalled.  The job's finished fence
 * replaces the fence of the syncobj, if one is given (or is added at
 * syncobj_point of a timeline syncobj); with DRM_SIMT_SUBMIT_FENCE_FD a
 * sync_file that follows it is returned in fence_fd (-1 otherwise).  The
 * submission's seqno, for WAIT, is returned in seqno.
 *
 * Inside drm_dev_enter() from the first look at an object's DMA table
 * (simt_bo_addr()) to the push: unplug unmaps the tables once no SUBMIT
 * is in here (simt_gem_unplug()).
 *
 * Context: process context; takes the context's lock, and may wait up to
 * SIMT_SUBMIT_WAIT_MS for one of its submissions in flight to finish.
 * Return: 0, or a negative errno, among which: -EINVAL or -EFAULT for
 * bad arguments, -ENOENT for an unknown context, object or syncobj (or a
 * closed context), -E2BIG for a job that does not fit in the ring, -EIO
 * when the context has stopped, -EBUSY for a user queue's context,
 * -EAGAIN when too many of its submissions stay in flight, -ENODEV once
 * the device is unplugged, -EMFILE, -ENOMEM, or -ERESTARTSYS when
 * interrupted.
 */
int simt_submit_ioctl(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	struct drm_simt_submit *args = data;
	int idx, ret;

	ret = simt_submit_check(drm, args);
	if (ret)
		return ret;
	args->fence_fd = -1;
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = simt_submit(drm, args, file);
	drm_dev_exit(idx);
	return ret;
}
