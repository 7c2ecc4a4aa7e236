// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: jobs on the DRM GPU scheduler, and the ring.
 *
 * Each context owns a hardware queue, and its entity on that queue's
 * drm_gpu_scheduler feeds it (as panthor's group queues do, except that
 * the scheduler belongs to the queue and serves its owners in turn, so
 * that it outlives every fence it made): SUBMIT (simt_submit.c) makes a
 * job, adds its input fences as dependencies and pushes it; when they
 * have signalled, run_job writes the job's hardware commands into the
 * ring (a COPY per contiguous piece of a copy, a LAUNCH per launch),
 * closed by a SIGNAL that stores the job's sequence number in the
 * context's fence word (DMA-coherent memory) and raises the QUEUE
 * interrupt, and rings the doorbell; its hardware fence then waits for
 * the interrupt thread (simt_fence.c).  The ring is the scheduler's
 * credit limit: a job takes one credit per ring entry, so run_job always
 * finds room.  Priority and preemption stay in hardware: each queue has
 * its context's priority.  A closed context's jobs still come through
 * run_job, which ends them with -ECANCELED without touching the queue,
 * which may be another context's by then (simt_ctx.c says why).
 *
 * Jobs keep references on the objects their copies use until they are
 * freed (their finished fence has signalled), so that closing a handle
 * cannot free memory the device is still copying to or from.
 *
 * Fence signalling: run_job, the interrupt thread (simt_fence.c), the
 * watchdog's recovery (simt_recover.c) and SUBMIT between
 * drm_sched_job_arm() and drm_sched_entity_push_job() are annotated with
 * dma_fence_begin_signalling(), so lockdep checks that none of them
 * allocates memory or takes a lock held elsewhere around an allocation
 * or a fence wait.  What they need is allocated before.
 */

#include <linux/dma-fence.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <drm/gpu_scheduler.h>

#include "simt_device.h"
#include "simt_fair.h"
#include "simt_fence.h"
#include "simt_gem.h"
#include "simt_recover.h"
#include "simt_sched.h"
#include "uapi/drm/simt_accel.h"

/*
 * The schedulers of the queues, in one allocation that is freed only at
 * module exit: drm_sched's fences read their scheduler's name for as
 * long as they live (SYNC_IOC_FILE_INFO on a sync_file, for one), which
 * may be long after the contexts, and the device, that used them.
 */
/**
 * struct simt_queue_sched - The scheduler of one hardware queue.
 * @base: the drm_gpu_scheduler.
 * @name: its name, "<device>-queue<q>", which its fences report.
 */
struct simt_queue_sched {
	struct drm_gpu_scheduler base;
	char name[32];
};

/**
 * struct simt_scheds - The schedulers of a device's hardware queues.
 * @retired: entry in simt_retired_scheds once the DRM device has gone
 *	(simt_scheds_retire()), until module exit frees it.
 * @count: number of hardware queues, and of entries of @queue.
 * @queue: the scheduler of each hardware queue.
 */
struct simt_scheds {
	struct list_head retired;
	u32 count;
	struct simt_queue_sched queue[] __counted_by(count);
};

static LIST_HEAD(simt_retired_scheds);
/* Protects simt_retired_scheds. */
static DEFINE_MUTEX(simt_retired_lock);

static struct simt_job *to_simt_job(struct drm_sched_job *job)
{
	return container_of(job, struct simt_job, base);
}

/**
 * simt_queue_sched() - The scheduler that feeds a hardware queue.
 * @sdev: the device.
 * @q: the hardware queue, below sdev->hw_queue_count.
 *
 * Return: the drm_gpu_scheduler of hardware queue @q.
 */
struct drm_gpu_scheduler *simt_queue_sched(struct simt_device *sdev, u32 q)
{
	return &sdev->scheds->queue[q].base;
}

/**
 * simt_scheds_stop() - Stop or start the schedulers of every queue.
 * @sdev: the device.
 * @stop: true to stop the schedulers' work (drm_sched_wqueue_stop()),
 *	false to start it again (drm_sched_wqueue_start()).
 *
 * Recovery stops them while it resets the device and rewrites rings, so
 * that no run_job or free_job runs meanwhile.
 *
 * Context: process context; stopping may sleep (it waits for running
 * work).
 */
void simt_scheds_stop(struct simt_device *sdev, bool stop)
{
	u32 q;

	for (q = 0; q < sdev->hw_queue_count; q++) {
		if (stop)
			drm_sched_wqueue_stop(simt_queue_sched(sdev, q));
		else
			drm_sched_wqueue_start(simt_queue_sched(sdev, q));
	}
}

static void *simt_ring_next(struct simt_ctx *ctx)
{
	void *slot = ctx->ring + ctx->tail * SIMT_CMD_SIZE;

	/* Reserved words must be zero. */
	memset(slot, 0, SIMT_CMD_SIZE);
	ctx->tail = (ctx->tail + 1) & (SIMT_RING_ENTRIES - 1);
	return slot;
}

/**
 * simt_copy_emit() - Emit or count the hardware copies of a COPY command.
 * @ctx: the context whose ring they go into, or NULL to count only.
 * @cmd: the COPY command, already checked against its objects' sizes.
 * @src: the source object.
 * @dst: the destination object.
 * @n: the count of ring entries, increased by one per hardware copy.
 * @limit: counting stops once @n exceeds it.
 *
 * A COPY becomes one hardware copy per piece that is contiguous on both
 * sides.  SUBMIT counts them (@ctx NULL, @limit SIMT_RING_ENTRIES:
 * stopping early past the limit is enough to refuse the submission);
 * run_job writes them into @ctx's ring at its tail.
 *
 * Context: with @ctx, caller holds @ctx->ring_lock.
 * Return: 0, or -EINVAL if an offset lies outside its object's pages
 * (simt_bo_addr()).
 */
int simt_copy_emit(struct simt_ctx *ctx, const struct drm_simt_cmd_copy *cmd,
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

	/* The scheduler gets the first reference. */
	simt_fence_publish(ctx, fence, job->seqno);
	job->hw_fence = NULL;

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
	/* The watchdog (simt_recover.c) looks while work is on the device. */
	if (!IS_ERR(ret))
		queue_delayed_work(sdev->tdr_wq, &sdev->watchdog,
				   simt_watchdog_delay());
	dma_fence_end_signalling(cookie);
	drm_dev_exit(idx);
	return ret;
}

/**
 * simt_job_free() - Free a job.
 * @job: the job, armed or not.
 *
 * Undoes everything SUBMIT did for @job: cleans up the scheduler job if
 * it was initialised, drops the object references, frees the commands
 * and the hardware fence if run_job has not taken them, and the job.  If
 * it has a context, the submission no longer counts against the
 * context's in-flight limit (a SUBMIT waiting for room is woken) and the
 * context reference is dropped.  The scheduler's free_job, and SUBMIT's
 * error path.
 *
 * Context: process context.
 */
void simt_job_free(struct simt_job *job)
{
	struct drm_sched_job *sched_job = &job->base;
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

/* The context scheduling policy may hold the job back (simt_fair.c). */
static struct dma_fence *simt_prepare_job(struct drm_sched_job *sched_job,
					  struct drm_sched_entity *entity)
{
	return simt_fair_prepare_job(to_simt_job(sched_job)->ctx);
}

/*
 * No timedout_job: the scheduler's timeout is off (MAX_SCHEDULE_TIMEOUT),
 * the driver's watchdog does its work (simt_recover.c).
 */
static void simt_free_job(struct drm_sched_job *sched_job)
{
	simt_job_free(to_simt_job(sched_job));
}

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

/**
 * simt_sched_init() - Set up the schedulers of a device.
 * @sdev: the device, its hw_queue_count known.
 *
 * Allocates the work queue jobs run on and a scheduler per hardware
 * queue (credit limit: SIMT_RING_ENTRIES - 1 ring entries; no timeout,
 * the driver's watchdog does that work).  Contexts may outlive the PCI
 * device (open files), so both go with the DRM device (drmm actions);
 * the schedulers' memory then stays until module exit
 * (simt_sched_module_exit()), as their fences may.
 *
 * Context: process context (probe).
 * Return: 0 or a negative errno; what was set up is undone with the DRM
 * device.
 */
int simt_sched_init(struct simt_device *sdev)
{
	struct simt_scheds *scheds;
	struct simt_queue_sched *qs;
	int ret;
	u32 q;

	sdev->sched_wq = alloc_workqueue("simt-sched",
					 WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	ret = simt_drmm_workqueue(sdev, sdev->sched_wq);
	if (ret)
		return ret;

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
				     0, MAX_SCHEDULE_TIMEOUT, NULL, NULL,
				     qs->name, sdev->drm.dev);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * simt_ctx_entity_init() - Initialise a context's scheduler entity.
 * @ctx: the context, its hardware queue allocated.
 *
 * The entity feeds the scheduler of @ctx's hardware queue only, at
 * DRM_SCHED_PRIORITY_KERNEL (priority is the hardware's business).
 *
 * Return: 0 or a negative errno (drm_sched_entity_init()).
 */
int simt_ctx_entity_init(struct simt_ctx *ctx)
{
	struct drm_gpu_scheduler *sched = simt_queue_sched(ctx->sdev,
							   ctx->hw_queue);

	return drm_sched_entity_init(&ctx->entity, DRM_SCHED_PRIORITY_KERNEL,
				     &sched, 1, NULL);
}

/**
 * simt_sched_module_exit() - Free the schedulers of devices that have gone.
 *
 * The module goes, and the schedulers' memory with it: a fence kept
 * beyond this would outlive the code of its hardware fence too.
 *
 * Context: module exit; no device is left, so simt_retired_lock is not
 * taken.
 */
void simt_sched_module_exit(void)
{
	struct simt_scheds *scheds, *tmp;

	list_for_each_entry_safe(scheds, tmp, &simt_retired_scheds, retired)
		kfree(scheds);
}
