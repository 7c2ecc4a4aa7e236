// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: contexts and their device address spaces.
 *
 * A context created by userspace owns, for its whole life, one hardware
 * context (an Sv32 address space: a root page table in VRAM and
 * second-level tables allocated as bindings need them) and one hardware
 * queue bound to it, whose ring and completion value are DMA-coherent
 * system memory (simt_sched.c writes them).  Owning a queue outright keeps
 * submission lock-free between contexts and lets the device's own
 * per-queue priority do the scheduling; the price is that the device's
 * queue count bounds the number of live contexts.
 *
 * Every object has a device address of its own (simt_vram.c), so a
 * binding needs no address allocator and the address is a property of
 * the object.  A VRAM object's pages map its VRAM, or its system pages
 * while it is evicted, and simt_vram.c rewrites them when it moves;
 * system memory objects' pages are mapped one by one by DMA address with
 * SIMT_PTE_SYS.  Isolation comes from the page tables: a context reaches
 * only what is bound to it.
 *
 * Lifetime: the file's xarray holds one reference, every ioctl working on
 * the context, every job and the watchdog's look hold another.
 * Destroying the context (the ioctl, or closing the file) closes it at
 * once: SUBMIT pushes no more, run_job writes nothing more to the ring
 * (both see @closed), its queue is stopped, its unfinished work
 * cancelled, its bindings and VRAM freed and its hardware slots given
 * back, perhaps to the next context at once.  Jobs still queued in its
 * entity are not killed there: drm_sched_entity_fini() may not run while
 * the scheduler can still pick the entity, so they go through run_job,
 * which ends each with -ECANCELED without touching the hardware.  When
 * the last job is freed the last reference goes, and the release work
 * destroys the entity, which no job uses any more, and frees the ring
 * (a work item, since the last reference may go on the scheduler's own
 * work queue).  The queue's scheduler belongs to the device
 * (simt_sched.c), as its fences may outlive the context.  Hardware is
 * touched only inside drm_dev_enter(), so a context that outlives an
 * unbind just frees its memory.
 *
 * Who may do what: any user who can open the node may create contexts of
 * LOW and NORMAL priority; HIGH and REALTIME can starve everyone else's
 * work and need CAP_SYS_NICE, as for sched_setscheduler() (the
 * unprivileged_high parameter opens HIGH to everyone, for classrooms).
 * Each context holds a hardware queue, and there are few (3 on the
 * default preset): a user without CAP_SYS_ADMIN holds at most
 * user_contexts of a device's, in all his open files together, so that
 * one user cannot take every queue by himself.  An open file holds at
 * most file_contexts contexts.  Everything of VRAM a
 * context can reach (objects, page tables, save area) is zeroed before
 * it is mapped.
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/dma-mapping.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "simt_ctx.h"
#include "simt_device.h"
#include "simt_fence.h"
#include "simt_gem.h"
#include "simt_hwq.h"
#include "simt_mmu.h"
#include "simt_preempt.h"
#include "simt_sched.h"
#include "simt_userq.h"
#include "simt_vram.h"
#include "uapi/drm/simt_accel.h"

static bool simt_unprivileged_high;
module_param_named(unprivileged_high, simt_unprivileged_high, bool, 0644);
MODULE_PARM_DESC(unprivileged_high,
		 "let users without CAP_SYS_NICE create HIGH priority contexts (default: no)");

unsigned int simt_file_contexts = 8;
module_param_named(file_contexts, simt_file_contexts, uint, 0644);
MODULE_PARM_DESC(file_contexts, "contexts one open file may hold at once");

static unsigned int simt_user_contexts;
module_param_named(user_contexts, simt_user_contexts, uint, 0644);
MODULE_PARM_DESC(user_contexts, "contexts one user without CAP_SYS_ADMIN may hold at once on a device, in all his files (0, the default: all but one of its queues)");

/*
 * Map system memory object @obj at device address @addr, each DMA segment
 * of its pinned pages in turn (simt_sys_bo_dma_check() has passed).
 */
static int simt_pt_map_sys(struct simt_ctx *ctx, u64 addr,
			   struct drm_gem_object *obj)
{
	struct sg_table *sgt = to_drm_gem_shmem_obj(obj)->sgt;
	struct scatterlist *sg;
	unsigned int i;
	u64 off = 0;
	int ret;

	for_each_sgtable_dma_sg(sgt, sg, i) {
		u64 len = min_t(u64, sg_dma_len(sg), obj->size - off);

		if (!len)
			break;
		ret = simt_pt_map(ctx, addr + off, sg_dma_address(sg), len,
				  SIMT_PTE_RWX | SIMT_PTE_SYS);
		if (ret) {
			simt_pt_unmap(ctx, addr, off);
			return ret;
		}
		off += len;
	}
	if (off < obj->size) {
		simt_dbg(obj->dev, VM, "VM_BIND: the object's DMA segments end before its size\n");
		simt_pt_unmap(ctx, addr, off);
		return -EINVAL;
	}
	return 0;
}

static void simt_hw_slots_put(struct simt_ctx *ctx)
{
	struct simt_device *sdev = ctx->sdev;

	mutex_lock(&sdev->hw_lock);
	__clear_bit(ctx->hw_ctx, &sdev->hw_ctx_used);
	__clear_bit(ctx->hw_queue, &sdev->hw_queue_used);
	mutex_unlock(&sdev->hw_lock);
}

/**
 * simt_user_context_limit() - The contexts one user without CAP_SYS_ADMIN
 * may hold on a device.
 * @sdev: the device.
 *
 * The user_contexts parameter, at most the contexts the device can hold
 * (one hardware context and queue each); if it is 0, all but one of
 * those, at least one.
 *
 * Return: the limit, counted over all of the user's open files.
 */
u32 simt_user_context_limit(struct simt_device *sdev)
{
	u32 contexts = min(sdev->hw_ctx_count, sdev->hw_queue_count);
	u32 limit = READ_ONCE(simt_user_contexts);

	return limit ? min(limit, contexts) : max(contexts - 1, 1u);
}

/* Queues that @uid holds against its limit; under hw_lock. */
static u32 simt_user_queues(struct simt_device *sdev, kuid_t uid)
{
	unsigned long held = sdev->hw_queue_used & sdev->hw_queue_charged;
	u32 q, n = 0;

	for_each_set_bit(q, &held, sdev->hw_queue_count)
		n += uid_eq(sdev->hw_queue_owner[q], uid);
	return n;
}

/* A hardware context and queue for @ctx, counted against its creator. */
static int simt_hw_slots_get(struct simt_ctx *ctx)
{
	struct simt_device *sdev = ctx->sdev;
	bool charged = !capable(CAP_SYS_ADMIN);
	kuid_t uid = current_euid();
	unsigned long c, q;
	u32 limit;

	mutex_lock(&sdev->hw_lock);
	limit = simt_user_context_limit(sdev);
	if (charged && simt_user_queues(sdev, uid) >= limit) {
		mutex_unlock(&sdev->hw_lock);
		simt_dbg(&sdev->drm, CTX, "user %u holds %u contexts, the limit\n",
			 from_kuid(&init_user_ns, uid), limit);
		return -EDQUOT;
	}
	c = find_first_zero_bit(&sdev->hw_ctx_used, sdev->hw_ctx_count);
	q = find_first_zero_bit(&sdev->hw_queue_used, sdev->hw_queue_count);
	if (c >= sdev->hw_ctx_count || q >= sdev->hw_queue_count) {
		mutex_unlock(&sdev->hw_lock);
		simt_dbg(&sdev->drm, CTX, "all %u hardware contexts or %u queues in use\n",
			 sdev->hw_ctx_count, sdev->hw_queue_count);
		return -ENOSPC;
	}
	__set_bit(c, &sdev->hw_ctx_used);
	__set_bit(q, &sdev->hw_queue_used);
	__assign_bit(q, &sdev->hw_queue_charged, charged);
	sdev->hw_queue_owner[q] = uid;
	mutex_unlock(&sdev->hw_lock);

	ctx->hw_ctx = c;
	ctx->hw_queue = q;
	return 0;
}

#define SIMT_RECORDS_BYTES	(SIMT_RECORD_SLOTS * sizeof(struct simt_completion))

/*
 * The ring and completion records; what is not there is NULL (unplug
 * frees them early, simt_ctx_unplug()).
 */
static void simt_ctx_free_mem(struct simt_ctx *ctx)
{
	struct simt_device *sdev = ctx->sdev;
	struct device *dev = &sdev->pdev->dev;

	mutex_lock(&sdev->dma_lock);
	list_del(&ctx->dma_link);
	mutex_unlock(&sdev->dma_lock);
	if (ctx->ring)
		dma_free_coherent(dev, ctx->ring_bytes, ctx->ring,
				  ctx->ring_dma);
	if (ctx->records)
		dma_free_coherent(dev, SIMT_RECORDS_BYTES, ctx->records,
				  ctx->records_dma);
}

static int simt_ctx_alloc_mem(struct simt_ctx *ctx)
{
	struct device *dev = &ctx->sdev->pdev->dev;

	/* The ring, then one more command's room holding the fence value. */
	ctx->ring_bytes = (SIMT_RING_ENTRIES + 1) * SIMT_CMD_SIZE;
	ctx->ring = dma_alloc_coherent(dev, ctx->ring_bytes, &ctx->ring_dma,
				       GFP_KERNEL);
	ctx->records = dma_alloc_coherent(dev, SIMT_RECORDS_BYTES,
					  &ctx->records_dma, GFP_KERNEL);
	ctx->results = kvcalloc(SIMT_RESULT_SLOTS, sizeof(*ctx->results),
				GFP_KERNEL);
	if (!ctx->ring || !ctx->records || !ctx->results)
		return -ENOMEM;
	ctx->fence = ctx->ring + SIMT_RING_ENTRIES * SIMT_CMD_SIZE;
	/* Created inside drm_dev_enter(): the device is still here. */
	mutex_lock(&ctx->sdev->dma_lock);
	list_add_tail(&ctx->dma_link, &ctx->sdev->dma_ctxs);
	mutex_unlock(&ctx->sdev->dma_lock);
	return 0;
}

/**
 * simt_ctx_unplug() - Free the rings and records of the contexts that
 * outlive their device.
 * @sdev: the device, unplugged and quiet, every fence it had pending
 *	signalled.
 *
 * Open files keep contexts, but nothing may stay mapped for a device that
 * has gone.  The fence word moves into the context (&simt_ctx.fence_gone),
 * where closing still reads it.
 *
 * Context: caller holds &simt_device.dma_lock; takes each context's
 * &simt_ctx.fence_lock.
 */
void simt_ctx_unplug(struct simt_device *sdev)
{
	struct device *dev = &sdev->pdev->dev;
	struct simt_completion *records;
	struct simt_ctx *ctx;
	unsigned long flags;
	void *ring;

	lockdep_assert_held(&sdev->dma_lock);
	list_for_each_entry(ctx, &sdev->dma_ctxs, dma_link) {
		spin_lock_irqsave(&ctx->fence_lock, flags);
		ctx->fence_gone = READ_ONCE(*ctx->fence);
		ctx->fence = &ctx->fence_gone;
		ring = ctx->ring;
		records = ctx->records;
		ctx->ring = NULL;
		ctx->records = NULL;
		spin_unlock_irqrestore(&ctx->fence_lock, flags);
		dma_free_coherent(dev, ctx->ring_bytes, ring, ctx->ring_dma);
		dma_free_coherent(dev, SIMT_RECORDS_BYTES, records,
				  ctx->records_dma);
	}
}

/* The last reference is gone: nothing uses the context any more. */
static void simt_ctx_release_work(struct work_struct *work)
{
	struct simt_ctx *ctx = container_of(work, struct simt_ctx,
					    release_work);
	struct simt_device *sdev = ctx->sdev;

	/* No job is left: the scheduler no longer picks the entity. */
	drm_sched_entity_destroy(&ctx->entity);
	dma_fence_put(ctx->last_job);
	simt_ctx_results_free(ctx);
	simt_ctx_free_mem(ctx);
	mutex_destroy(&ctx->doorbell_lock);
	mutex_destroy(&ctx->lock);
	kfree(ctx);
	drm_dev_put(&sdev->drm);
}

static void simt_ctx_release(struct kref *ref)
{
	struct simt_ctx *ctx = container_of(ref, struct simt_ctx, ref);

	/* Not on the scheduler's work queue, which the release waits for. */
	queue_work(simt_release_wq, &ctx->release_work);
}

/* Bindings, page tables and the save area; under ctx->lock. */
static void simt_ctx_unbind_all(struct simt_ctx *ctx)
{
	struct simt_bind *b, *tmp;

	lockdep_assert_held(&ctx->lock);
	list_for_each_entry_safe(b, tmp, &ctx->binds, link) {
		if (b->vram)
			simt_vram_unbind(ctx, b);
		list_del(&b->link);
		drm_gem_object_put(b->obj);
		kfree(b);
	}
	simt_pt_free(ctx);
	if (drm_mm_node_allocated(&ctx->save_area))
		simt_vram_free(ctx->sdev, &ctx->save_area);
	simt_va_free(ctx->sdev, &ctx->save_va);
}

/*
 * Destroy @ctx (its id is already gone): stop the queue, cancel what was
 * on it, and give back the hardware slots and VRAM; jobs not yet run end
 * in run_job.  What is left goes with the last reference.
 */
static void simt_ctx_close(struct simt_ctx *ctx)
{
	struct simt_device *sdev = ctx->sdev;
	unsigned long flags;
	int idx;

	/*
	 * From here no SUBMIT pushes and no run_job writes the ring: one
	 * that was writing it has rung the doorbell before the queue stops.
	 */
	mutex_lock(&ctx->lock);
	spin_lock(&ctx->ring_lock);
	ctx->closed = true;
	spin_unlock(&ctx->ring_lock);
	mutex_unlock(&ctx->lock);
	wake_up_all(&ctx->inflight_wq);
	simt_userq_close(ctx);

	/* A recovery in progress would restart the queue: wait for it. */
	down_read(&sdev->reset_sem);
	if (drm_dev_enter(&sdev->drm, &idx)) {
		simt_ctx_hw_fini(ctx);
		drm_dev_exit(idx);
	}
	spin_lock_irqsave(&sdev->ctx_lock, flags);
	sdev->queue_ctx[ctx->hw_queue] = NULL;
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);
	up_read(&sdev->reset_sem);

	/* The queue is stopped: nothing reads the ring or objects any more. */
	simt_ctx_signal(ctx, -ECANCELED);
	mutex_lock(&ctx->lock);
	simt_ctx_unbind_all(ctx);
	mutex_unlock(&ctx->lock);
	simt_hw_slots_put(ctx);
}

/**
 * simt_device_load() - How busy the device is.
 * @sdev: the device.
 * @contexts: set to the number of its contexts, of every process.
 * @busy: set to the number of those with submissions not yet finished
 *	and freed.
 *
 * For userspace that picks one of several devices
 * (DRM_SIMT_PARAM_CONTEXTS and _BUSY_CONTEXTS); a context counts while it
 * owns its queue.
 *
 * Context: takes &simt_device.ctx_lock.
 */
void simt_device_load(struct simt_device *sdev, u32 *contexts, u32 *busy)
{
	unsigned long flags;
	unsigned int q;

	*contexts = 0;
	*busy = 0;
	spin_lock_irqsave(&sdev->ctx_lock, flags);
	for (q = 0; q < sdev->hw_queue_count; q++) {
		struct simt_ctx *ctx = sdev->queue_ctx[q];

		if (!ctx)
			continue;
		(*contexts)++;
		if (atomic_read(&ctx->inflight))
			(*busy)++;
	}
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);
}

/*
 * The area the device saves the context's preempted blocks in: VRAM that
 * never moves, mapped like an object at device addresses of its own.
 * Without one (no VRAM to spare) the context still works: its blocks
 * drain instead of being switched.
 */
static void simt_ctx_save_area(struct simt_ctx *ctx)
{
	struct simt_device *sdev = ctx->sdev;
	u64 size = simt_preempt_save_area_size(sdev);
	int ret;

	lockdep_assert_held(&ctx->lock);
	if (!(sdev->caps & SIMT_CAP_PREEMPT) ||
	    simt_vram_alloc_zeroed(sdev, &ctx->save_area, size))
		goto none;
	mutex_lock(&sdev->vram_lock);
	ret = simt_va_alloc(sdev, &ctx->save_va, size, ctx->save_area.start);
	mutex_unlock(&sdev->vram_lock);
	if (!ret && !simt_pt_map(ctx, ctx->save_va.start, ctx->save_area.start,
				 size, SIMT_PTE_RWX))
		return;
	simt_va_free(sdev, &ctx->save_va);
	simt_vram_free(sdev, &ctx->save_area);
none:
	memset(&ctx->save_area, 0, sizeof(ctx->save_area));
	memset(&ctx->save_va, 0, sizeof(ctx->save_va));
	drm_info_once(&sdev->drm, "no VRAM for a save area of %llu bytes: preempted blocks drain\n",
		      size);
}

/**
 * simt_ctx_lookup() - Look up a context of a file by id.
 * @file: the file.
 * @id: the context's id.
 *
 * Context: takes the file's context xarray lock.
 * Return: the context, referenced (the caller puts it with
 * simt_ctx_put()), or NULL if the file has none of that id.
 */
struct simt_ctx *simt_ctx_lookup(struct drm_file *file, u32 id)
{
	struct simt_file *sfile = file->driver_priv;
	struct simt_ctx *ctx;

	xa_lock(&sfile->contexts);
	ctx = xa_load(&sfile->contexts, id);
	if (ctx)
		kref_get(&ctx->ref);
	xa_unlock(&sfile->contexts);
	if (!ctx)
		simt_dbg(file->minor->dev, CTX, "no context %u in this file\n", id);
	return ctx;
}

/* Close a context the file no longer names, and drop the file's reference. */
static void simt_ctx_close_put(struct simt_file *sfile, struct simt_ctx *ctx)
{
	simt_ctx_close(ctx);
	atomic_dec(&sfile->context_count);
	simt_ctx_put(ctx);
}

/**
 * simt_ctx_close_file() - Close every context of a file that is closing.
 * @sfile: the file's driver data (postclose).
 *
 * Each context is closed at once (see simt_ctx_close()) and loses the
 * file's reference; it is freed when its last job is.
 *
 * Context: process context; takes, one at a time, the locks closing
 * takes (&simt_ctx.lock, &simt_device.reset_sem, &simt_device.vram_lock
 * and others), and sleeps.
 */
void simt_ctx_close_file(struct simt_file *sfile)
{
	struct simt_ctx *ctx;
	unsigned long id;

	xa_for_each(&sfile->contexts, id, ctx) {
		xa_erase(&sfile->contexts, id);
		simt_ctx_close_put(sfile, ctx);
	}
	xa_destroy(&sfile->contexts);
}

/**
 * simt_ctx_usage_update_file() - Bring the engine time of a file's open
 * contexts up to date (fdinfo).
 * @sfile: the file's driver data.
 *
 * Context: takes &simt_device.reset_sem for reading, so that no device
 * reset comes between reading a counter and noting it, and under it the
 * file's context xarray lock and each context's &simt_ctx.usage_lock.
 */
void simt_ctx_usage_update_file(struct simt_file *sfile)
{
	struct simt_device *sdev = sfile->sdev;
	unsigned long id = 0;
	struct simt_ctx *ctx;

	/* No device reset between reading a counter and noting it. */
	down_read(&sdev->reset_sem);
	for (;;) {
		xa_lock(&sfile->contexts);
		ctx = xa_find(&sfile->contexts, &id, ULONG_MAX, XA_PRESENT);
		if (ctx)
			kref_get(&ctx->ref);
		xa_unlock(&sfile->contexts);
		if (!ctx)
			break;
		simt_ctx_usage_update(ctx);
		simt_ctx_put(ctx);
		id++;
	}
	up_read(&sdev->reset_sem);
}

static struct simt_ctx *simt_ctx_create(struct simt_device *sdev,
					struct simt_usage *usage, u32 priority,
					u32 preempt_mode)
{
	struct simt_ctx *ctx;
	unsigned long flags;
	int ret;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return ERR_PTR(-ENOMEM);
	kref_init(&ctx->ref);
	ctx->release = simt_ctx_release;
	mutex_init(&ctx->lock);
	mutex_init(&ctx->doorbell_lock);
	init_waitqueue_head(&ctx->userq_wq);
	spin_lock_init(&ctx->ring_lock);
	INIT_LIST_HEAD(&ctx->dma_link);
	INIT_WORK(&ctx->release_work, simt_ctx_release_work);
	init_waitqueue_head(&ctx->inflight_wq);
	INIT_LIST_HEAD(&ctx->binds);
	INIT_LIST_HEAD(&ctx->pending);
	spin_lock_init(&ctx->fence_lock);
	spin_lock_init(&ctx->usage_lock);
	ctx->usage = usage;
	ctx->hw_fence_context = dma_fence_context_alloc(1);
	ctx->out_fence_context = dma_fence_context_alloc(1);
	ctx->sdev = sdev;
	ctx->priority = priority;
	ctx->preempt_mode = preempt_mode;
	ctx->pid = task_tgid_nr(current);

	ret = simt_hw_slots_get(ctx);
	if (ret)
		goto err_free;

	ret = simt_ctx_alloc_mem(ctx);
	if (ret)
		goto err_mem;

	ret = simt_ctx_entity_init(ctx);
	if (ret)
		goto err_mem;

	mutex_lock(&ctx->lock);
	ret = simt_pt_alloc_zeroed(sdev, &ctx->pt_root);
	if (!ret)
		simt_ctx_save_area(ctx);
	mutex_unlock(&ctx->lock);
	if (ret)
		goto err_sched;

	/* Not while a recovery is reprogramming the queues. */
	down_read(&sdev->reset_sem);
	ret = simt_ctx_hw_init(ctx);
	if (!ret) {
		spin_lock_irqsave(&sdev->ctx_lock, flags);
		sdev->queue_ctx[ctx->hw_queue] = ctx;
		spin_unlock_irqrestore(&sdev->ctx_lock, flags);
	}
	up_read(&sdev->reset_sem);
	if (ret)
		goto err_pt;
	drm_dev_get(&sdev->drm);
	return ctx;

err_pt:
	mutex_lock(&ctx->lock);
	simt_ctx_unbind_all(ctx);
	mutex_unlock(&ctx->lock);
err_sched:
	drm_sched_entity_destroy(&ctx->entity);
err_mem:
	simt_ctx_results_free(ctx);
	simt_ctx_free_mem(ctx);
	simt_hw_slots_put(ctx);
err_free:
	mutex_destroy(&ctx->doorbell_lock);
	mutex_destroy(&ctx->lock);
	kfree(ctx);
	return ERR_PTR(ret);
}

/**
 * simt_context_create_ioctl() - DRM_IOCTL_SIMT_CONTEXT_CREATE: create a
 * context.
 * @drm: the DRM device.
 * @data: the &struct drm_simt_context_create; @data->ctx_id is filled in.
 * @file: the file the context goes to.
 *
 * The context gets a hardware context and queue, counted against the
 * caller unless CAP_SYS_ADMIN, its ring and records, a zeroed root page
 * table and, when the device preempts and VRAM allows, a save area.
 * HIGH priority needs CAP_SYS_NICE unless unprivileged_high is set,
 * REALTIME always does.
 *
 * Return: 0; -EINVAL for bad flags, mode or priority; -EACCES without
 * CAP_SYS_NICE; -EMFILE if the file holds file_contexts contexts;
 * -EDQUOT if the user holds user_contexts; -ENOSPC if every hardware
 * context or queue is in use; -ENOMEM; -EIO if the queue did not start;
 * -ENODEV if the device has gone; or another negative errno.
 */
int simt_context_create_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct simt_file *sfile = file->driver_priv;
	struct drm_simt_context_create *args = data;
	struct simt_ctx *ctx;
	int idx, ret;

	if (args->flags || args->preempt_mode > DRM_SIMT_PREEMPT_CHIMERA ||
	    args->priority > DRM_SIMT_PRIORITY_REALTIME) {
		simt_dbg(drm, CTX, "CONTEXT_CREATE: flags 0x%x, mode %u, priority %u\n",
			 args->flags, args->preempt_mode, args->priority);
		return -EINVAL;
	}
	/* Work above NORMAL can starve everyone else's: as for sched_setscheduler(). */
	if ((args->priority == DRM_SIMT_PRIORITY_REALTIME ||
	     (args->priority == DRM_SIMT_PRIORITY_HIGH &&
	      !READ_ONCE(simt_unprivileged_high))) &&
	    !capable(CAP_SYS_NICE)) {
		simt_dbg(drm, CTX, "CONTEXT_CREATE: priority %u needs CAP_SYS_NICE\n",
			 args->priority);
		return -EACCES;
	}
	if (atomic_inc_return(&sfile->context_count) >
	    READ_ONCE(simt_file_contexts)) {
		atomic_dec(&sfile->context_count);
		simt_dbg(drm, CTX, "CONTEXT_CREATE: this file holds %u contexts already\n",
			 READ_ONCE(simt_file_contexts));
		return -EMFILE;
	}

	if (!drm_dev_enter(drm, &idx)) {
		ret = -ENODEV;
		goto err_count;
	}
	ctx = simt_ctx_create(to_simt(drm), &sfile->usage, args->priority,
			      args->preempt_mode);
	drm_dev_exit(idx);
	if (IS_ERR(ctx)) {
		ret = PTR_ERR(ctx);
		goto err_count;
	}

	/* Ids come round again only after 2^32 contexts: a stale id fails. */
	ret = xa_alloc_cyclic(&sfile->contexts, &ctx->id, ctx, xa_limit_32b,
			      &sfile->next_ctx_id, GFP_KERNEL);
	if (ret < 0) {
		simt_ctx_close(ctx);
		simt_ctx_put(ctx);
		goto err_count;
	}
	args->ctx_id = ctx->id;
	return 0;

err_count:
	atomic_dec(&sfile->context_count);
	return ret;
}

/**
 * simt_context_destroy_ioctl() - DRM_IOCTL_SIMT_CONTEXT_DESTROY: destroy a
 * context.
 * @drm: the DRM device.
 * @data: the &struct drm_simt_context_destroy.
 * @file: the file that holds the context.
 *
 * The id goes at once, and the context is closed: its queue stops, its
 * unfinished work ends with -ECANCELED and its slots and VRAM are given
 * back.  It is freed when its last reference goes.
 *
 * Return: 0, -EINVAL if pad is not zero, or -ENOENT for an unknown id.
 */
int simt_context_destroy_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct simt_file *sfile = file->driver_priv;
	struct drm_simt_context_destroy *args = data;
	struct simt_ctx *ctx;

	if (args->pad) {
		simt_dbg(drm, CTX, "CONTEXT_DESTROY: pad not zero\n");
		return -EINVAL;
	}
	ctx = xa_erase(&sfile->contexts, args->ctx_id);
	if (!ctx) {
		simt_dbg(drm, CTX, "CONTEXT_DESTROY: no context %u\n", args->ctx_id);
		return -ENOENT;
	}
	simt_ctx_close_put(sfile, ctx);
	return 0;
}

/**
 * simt_bind_find() - An object's binding in a context.
 * @ctx: the context.
 * @obj: the object.
 *
 * Context: caller holds &simt_ctx.lock.
 * Return: the binding, or NULL if @obj is not bound in @ctx.
 */
struct simt_bind *simt_bind_find(struct simt_ctx *ctx,
				 struct drm_gem_object *obj)
{
	struct simt_bind *b;

	lockdep_assert_held(&ctx->lock);
	list_for_each_entry(b, &ctx->binds, link)
		if (b->obj == obj)
			return b;
	return NULL;
}

/* Does [addr, addr + size) overlap a binding of the context? */
static bool simt_bind_overlaps(struct simt_ctx *ctx, u64 addr, u64 size)
{
	struct simt_bind *b;

	lockdep_assert_held(&ctx->lock);
	list_for_each_entry(b, &ctx->binds, link)
		if (addr < b->addr + b->obj->size && b->addr < addr + size)
			return true;
	return false;
}

static int simt_vm_bind(struct drm_device *drm, struct drm_simt_vm_bind *args,
			struct drm_file *file)
{
	struct simt_device *sdev = to_simt(drm);
	bool fixed = args->flags & DRM_SIMT_VM_BIND_FIXED;
	struct drm_gem_object *obj;
	struct simt_bind *b;
	struct simt_ctx *ctx;
	u64 addr, end;
	int ret;

	ctx = simt_ctx_lookup(file, args->ctx_id);
	if (!ctx)
		return -ENOENT;
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj) {
		simt_dbg(drm, VM, "VM_BIND: no object %u\n", args->handle);
		ret = -ENOENT;
		goto out_ctx;
	}
	if (!simt_bo_is_vram(obj)) {
		ret = simt_sys_bo_dma_check(obj);
		if (ret)
			goto out_obj;
	}
	addr = fixed ? args->device_addr : simt_bo_device_addr(obj);
	if (!addr && !fixed) {
		simt_dbg(drm, VM, "VM_BIND: system object %u has no device address\n",
			 args->handle);
		ret = -ENOSPC;
		goto out_obj;
	}
	if (fixed && (!IS_ALIGNED(addr, SIMT_PAGE_SIZE) ||
		      check_add_overflow(addr, (u64)obj->size, &end) ||
		      end > sdev->vram_guard)) {
		simt_dbg(drm, VM, "VM_BIND: fixed address 0x%llx (+%zu) unaligned or beyond 0x%llx\n",
			 addr, obj->size, sdev->vram_guard);
		ret = -EINVAL;
		goto out_obj;
	}
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b) {
		ret = -ENOMEM;
		goto out_obj;
	}

	mutex_lock(&ctx->lock);
	if (ctx->closed) {
		simt_dbg(drm, VM, "VM_BIND: context %u is closing\n", args->ctx_id);
		ret = -ENOENT;
		goto out_unlock;
	}
	if (simt_bind_find(ctx, obj)) {
		simt_dbg(drm, VM, "VM_BIND: object %u already bound in context %u\n",
			 args->handle, args->ctx_id);
		ret = -EEXIST;
		goto out_unlock;
	}
	if (simt_bind_overlaps(ctx, addr, obj->size)) {
		simt_dbg(drm, VM, "VM_BIND: [0x%llx, +%zu) overlaps a binding\n",
			 addr, obj->size);
		ret = -EBUSY;
		goto out_unlock;
	}
	/* The binding keeps the lookup's reference. */
	b->obj = obj;
	b->addr = addr;
	b->fixed = fixed;
	b->vram = simt_bo_is_vram(obj);
	if (!b->vram) {
		ret = simt_pt_map_sys(ctx, addr, obj);
	} else {
		ret = simt_pt_prepare(ctx, addr, obj->size);
		if (!ret)
			simt_vram_bind(ctx, b);
	}
	/* Translations of unmapped pages are not cached, but be sure. */
	simt_tlb_inv_ctx(sdev, ctx->hw_ctx);
	if (ret)
		goto out_unlock;
	list_add_tail(&b->link, &ctx->binds);
	args->device_addr = addr;
	mutex_unlock(&ctx->lock);
	simt_ctx_put(ctx);
	return 0;

out_unlock:
	mutex_unlock(&ctx->lock);
	kfree(b);
out_obj:
	drm_gem_object_put(obj);
out_ctx:
	simt_ctx_put(ctx);
	return ret;
}

/**
 * simt_vm_bind_ioctl() - DRM_IOCTL_SIMT_VM_BIND: bind an object in a
 * context.
 * @drm: the DRM device.
 * @data: the &struct drm_simt_vm_bind; @data->device_addr is filled in.
 * @file: the file that holds the context and the object.
 *
 * At the object's own device address, or with DRM_SIMT_VM_BIND_FIXED at
 * the caller's, page-aligned and below the fixed bindings' end.  A VRAM
 * object's pages map where it is now and follow it when it moves; a
 * system object's are mapped by DMA address.  The binding holds a
 * reference to the object until it is unbound.
 *
 * Inside drm_dev_enter() from the first look at a system object's DMA
 * table to the last page table write: unplug unmaps the tables once no
 * VM_BIND is in here (simt_gem_unplug()).
 *
 * Context: takes &simt_ctx.lock, and under it &simt_device.vram_lock and
 * &simt_device.hw_lock.
 * Return: 0; -EINVAL for bad flags, pad, fixed address, or a system
 * object the device MMU cannot map; -ENOENT for an unknown or closing
 * context or an unknown object; -ENOSPC for a system object without a
 * device address; -EEXIST if the object is bound in the context already;
 * -EBUSY if the range overlaps a binding; -ENOMEM; -ENODEV if the device
 * has gone.
 */
int simt_vm_bind_ioctl(struct drm_device *drm, void *data,
		       struct drm_file *file)
{
	struct drm_simt_vm_bind *args = data;
	int idx, ret;

	if ((args->flags & ~DRM_SIMT_VM_BIND_FIXED) || args->pad) {
		simt_dbg(drm, VM, "VM_BIND: flags 0x%x, pad %u\n", args->flags,
			 args->pad);
		return -EINVAL;
	}
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = simt_vm_bind(drm, args, file);
	drm_dev_exit(idx);
	return ret;
}

/**
 * simt_vm_unbind_ioctl() - DRM_IOCTL_SIMT_VM_UNBIND: unbind an object from
 * a context.
 * @drm: the DRM device.
 * @data: the &struct drm_simt_vm_unbind.
 * @file: the file that holds the context and the object.
 *
 * The leaves are cleared and the TLB flushed before the object can move
 * or be freed (a kernel of the context may be running); if the device has
 * gone there is nothing to clear.  Then the binding drops its reference.
 *
 * Context: takes &simt_ctx.lock, and under it &simt_device.vram_lock and
 * &simt_device.hw_lock.
 * Return: 0, or -ENOENT for an unknown context or object, or an object
 * not bound in the context (or the context is closing).
 */
int simt_vm_unbind_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct drm_simt_vm_unbind *args = data;
	struct drm_gem_object *obj;
	struct simt_bind *b;
	struct simt_ctx *ctx;
	int idx, ret = 0;

	ctx = simt_ctx_lookup(file, args->ctx_id);
	if (!ctx)
		return -ENOENT;
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj) {
		simt_dbg(drm, VM, "VM_UNBIND: no object %u\n", args->handle);
		ret = -ENOENT;
		goto out_ctx;
	}

	mutex_lock(&ctx->lock);
	b = ctx->closed ? NULL : simt_bind_find(ctx, obj);
	if (!b) {
		simt_dbg(drm, VM, "VM_UNBIND: object %u not bound in context %u\n",
			 args->handle, args->ctx_id);
		ret = -ENOENT;
		goto out_unlock;
	}
	/*
	 * Clear the mappings and the TLB before the object can move, be
	 * freed, or its VRAM be handed to someone else: a kernel of the
	 * context may be running and translating through them.  If the
	 * device is gone there is nothing to clear.
	 */
	if (b->vram)
		simt_vram_unbind_begin(ctx, b);
	if (drm_dev_enter(drm, &idx)) {
		simt_pt_unmap(ctx, b->addr, obj->size);
		simt_tlb_inv_ctx(ctx->sdev, ctx->hw_ctx);
		drm_dev_exit(idx);
	}
	if (b->vram)
		simt_vram_unbind(ctx, b);
	list_del(&b->link);
	drm_gem_object_put(b->obj);
	kfree(b);

out_unlock:
	mutex_unlock(&ctx->lock);
	drm_gem_object_put(obj);
out_ctx:
	simt_ctx_put(ctx);
	return ret;
}
