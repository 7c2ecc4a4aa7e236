// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: user queues (interface 0.8, docs/driver.rst "User queues").
 *
 * USERQ_CREATE turns a fresh context's hardware queue into a user queue
 * (SIMT_QCTL_USER): its ring is a system memory object of the process,
 * bound in the context, and the process rings its doorbell through a
 * mapping of the queue's one page of the doorbell BAR.  Nothing of the
 * kernel is then on the launch path.  What keeps that safe is the
 * device's contract for a user queue: every address a command names is
 * a device address of the queue's context, so whatever the process
 * writes into its ring reaches only what is bound to the context, as
 * its kernels do; a COPY that names guest memory stops the queue; the
 * doorbell page holds only TAIL and HEAD.  Priority, preemption mode,
 * the context's page tables and stopping the queue stay with the
 * kernel.
 *
 * The doorbell mapping: queue q's page has the mmap offset
 * SIMT_DOORBELL_PGOFF + q, which only the file owning the queue's
 * user-queue context may map, exactly one page, uncached, not
 * executable, not expandable.  The page goes in at the first access
 * (simt_doorbell_fault()), once the mapping is in the file's mapping
 * tree, and only while the file still has a user-queue context on the
 * queue; closing the context removes it from every mapping before the
 * queue can be given to anyone else, and a later access gets SIGBUS.
 * So no mapping keeps a doorbell that closing could miss (with the page
 * put in by mmap(), a close between it and the mapping's linking into
 * the tree could).
 *
 * Completions are the process's own SIGNALs to its objects, not
 * dma_fences (a process could keep them from ever signalling), so a user
 * queue takes no SUBMIT, input fence or syncobj.  USERQ_WAIT sleeps until
 * a fence word in the process's memory reaches a value, woken by the
 * queue interrupt (simt_fence.c), or until the context stops.
 */

#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "simt_ctx.h"
#include "simt_device.h"
#include "simt_fence.h"
#include "simt_gem.h"
#include "simt_hwq.h"
#include "simt_recover.h"
#include "simt_userq.h"
#include "uapi/drm/simt_accel.h"

static loff_t simt_doorbell_offset(struct simt_ctx *ctx)
{
	return (loff_t)(SIMT_DOORBELL_PGOFF + ctx->hw_queue) << PAGE_SHIFT;
}

/* Can the doorbell of every queue be mapped, one page each? */
static bool simt_doorbell_usable(struct simt_device *sdev)
{
	if (PAGE_SIZE != SIMT_DOORBELL_STRIDE)
		return false;
	return (sdev->caps & SIMT_CAP_USER_QUEUES) &&
	       pci_resource_len(sdev->pdev, SIMT_BAR_DOORBELL) >=
	       (u64)sdev->hw_queue_count * SIMT_DOORBELL_STRIDE;
}

/**
 * simt_userq_close() - Take a closing context's doorbell out of every mapping.
 * @ctx: the context, closing (@ctx->closed is set).
 *
 * For a user queue: waits for a doorbell fault in flight (which has then
 * put its page in, or fails as @ctx is closed), removes the doorbell page
 * from every process's mappings, so that nobody rings the queue once it
 * is given back, and wakes USERQ_WAIT.  Does nothing for other contexts.
 *
 * Context: process context; takes @ctx->doorbell_lock.
 */
void simt_userq_close(struct simt_ctx *ctx)
{
	if (!READ_ONCE(ctx->userq))
		return;
	/* A doorbell fault in flight has put its page in, or fails. */
	mutex_lock(&ctx->doorbell_lock);
	mutex_unlock(&ctx->doorbell_lock);
	unmap_mapping_range(ctx->sdev->drm.anon_inode->i_mapping,
			    simt_doorbell_offset(ctx), PAGE_SIZE, 1);
	wake_up_all(&ctx->userq_wq);
}

/* The user-queue context of @file on queue @q, referenced, or NULL. */
static struct simt_ctx *simt_userq_find(struct drm_file *file, u32 q)
{
	struct simt_file *sfile = file->driver_priv;
	struct simt_ctx *ctx, *found = NULL;
	unsigned long id;

	xa_lock(&sfile->contexts);
	xa_for_each(&sfile->contexts, id, ctx) {
		if (READ_ONCE(ctx->userq) && ctx->hw_queue == q) {
			kref_get(&ctx->ref);
			found = ctx;
			break;
		}
	}
	xa_unlock(&sfile->contexts);
	return found;
}

/*
 * A doorbell's first access: its page, if the file still has a live
 * user-queue context on the queue.  Under doorbell_lock, which closing
 * takes before it removes the page from the mappings.
 */
static vm_fault_t simt_doorbell_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct drm_file *file = vma->vm_file->private_data;
	struct simt_device *sdev = to_simt(file->minor->dev);
	unsigned long q = vma->vm_pgoff - SIMT_DOORBELL_PGOFF;
	vm_fault_t ret = VM_FAULT_SIGBUS;
	struct simt_ctx *ctx;
	phys_addr_t phys;
	int idx;

	ctx = simt_userq_find(file, q);
	if (!ctx)
		return VM_FAULT_SIGBUS;
	if (drm_dev_enter(&sdev->drm, &idx)) {
		mutex_lock(&ctx->doorbell_lock);
		if (!READ_ONCE(ctx->closed)) {
			phys = pci_resource_start(sdev->pdev, SIMT_BAR_DOORBELL) +
			       (phys_addr_t)q * SIMT_DOORBELL_STRIDE;
			ret = vmf_insert_pfn_prot(vma, vma->vm_start,
						  phys >> PAGE_SHIFT,
						  vma->vm_page_prot);
		}
		mutex_unlock(&ctx->doorbell_lock);
		drm_dev_exit(idx);
	}
	simt_ctx_put(ctx);
	return ret;
}

static const struct vm_operations_struct simt_doorbell_vm_ops = {
	.fault = simt_doorbell_fault,
};

static int simt_doorbell_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct drm_file *file = filp->private_data;
	struct simt_device *sdev = to_simt(file->minor->dev);
	unsigned long q = vma->vm_pgoff - SIMT_DOORBELL_PGOFF;
	struct simt_ctx *ctx;
	int idx, ret = 0;

	if (q >= sdev->hw_queue_count || vma->vm_end - vma->vm_start != PAGE_SIZE ||
	    !(vma->vm_flags & VM_SHARED) || (vma->vm_flags & VM_EXEC)) {
		simt_dbg(&sdev->drm, CTX, "doorbell mmap: queue %lu, %lu bytes, flags 0x%lx\n",
			 q, vma->vm_end - vma->vm_start, vma->vm_flags);
		return -EINVAL;
	}
	ctx = simt_userq_find(file, q);
	if (!ctx) {
		simt_dbg(&sdev->drm, CTX, "doorbell mmap: queue %lu is no user queue of this file\n",
			 q);
		return -EACCES;
	}
	if (!drm_dev_enter(&sdev->drm, &idx)) {
		simt_ctx_put(ctx);
		return -ENODEV;
	}
	mutex_lock(&ctx->doorbell_lock);
	if (READ_ONCE(ctx->closed)) {
		ret = -ENOENT;
		goto out;
	}
	vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vm_flags_clear(vma, VM_MAYEXEC);
	/* MMIO, as io_remap_pfn_range() would map it. */
	vma->vm_page_prot = pgprot_decrypted(pgprot_noncached(vm_get_page_prot(vma->vm_flags)));
	vma->vm_ops = &simt_doorbell_vm_ops;
out:
	mutex_unlock(&ctx->doorbell_lock);
	drm_dev_exit(idx);
	simt_ctx_put(ctx);
	return ret;
}

/**
 * simt_mmap() - The device node's mmap(): a queue's doorbell or an object.
 * @filp: the DRM file.
 * @vma: the new mapping.
 *
 * Offsets from SIMT_DOORBELL_PGOFF on (one page per possible queue) map
 * a user queue's doorbell, which only the file owning the queue's
 * user-queue context may map, exactly one page, shared, not executable;
 * the page goes in at the first access.  Any other offset is an object's
 * (drm_gem_mmap()).
 *
 * Context: process context (mmap(2)).
 * Return: 0, or a negative errno: for a doorbell -EINVAL for a bad
 * queue, size or flags, -EACCES if the queue is no user queue of this
 * file, -ENOENT if its context is closing, -ENODEV once the device is
 * unplugged.
 */
int simt_mmap(struct file *filp, struct vm_area_struct *vma)
{
	if (vma->vm_pgoff >= SIMT_DOORBELL_PGOFF &&
	    vma->vm_pgoff < SIMT_DOORBELL_PGOFF + SIMT_MAX_QUEUES)
		return simt_doorbell_mmap(filp, vma);
	return drm_gem_mmap(filp, vma);
}

/* Check @args against @ctx (under ctx->lock); 0 or -errno. */
static int simt_userq_check(struct simt_ctx *ctx, struct drm_gem_object *obj,
			    const struct drm_simt_userq_create *args)
{
	struct drm_device *drm = &ctx->sdev->drm;
	struct simt_bind *b;

	lockdep_assert_held(&ctx->lock);
	if (ctx->closed)
		return -ENOENT;
	if (ctx->userq) {
		simt_dbg(drm, CTX, "USERQ_CREATE: context %u is a user queue already\n",
			 ctx->id);
		return -EEXIST;
	}
	if (ctx->error) {
		simt_dbg(drm, CTX, "USERQ_CREATE: context %u has stopped\n", ctx->id);
		return -EIO;
	}
	/*
	 * Earlier submissions (loading a module, copies) must be over and
	 * freed, so that nothing writes the driver's ring any more; SUBMIT
	 * waits for @lock, so no new one comes.
	 */
	if (!wait_event_timeout(ctx->inflight_wq, !atomic_read(&ctx->inflight),
				msecs_to_jiffies(SIMT_SUBMIT_WAIT_MS))) {
		simt_dbg(drm, CTX, "USERQ_CREATE: context %u has unfinished submissions\n",
			 ctx->id);
		return -EBUSY;
	}
	b = simt_bind_find(ctx, obj);
	if (!b || b->addr != args->ring_addr) {
		simt_dbg(drm, CTX, "USERQ_CREATE: object %u is not bound at 0x%llx in context %u\n",
			 args->ring_handle, args->ring_addr, ctx->id);
		return -EINVAL;
	}
	if (obj->size < (u64)args->ring_entries * SIMT_CMD_SIZE) {
		simt_dbg(drm, CTX, "USERQ_CREATE: object %u (%zu bytes) cannot hold %u commands\n",
			 args->ring_handle, obj->size, args->ring_entries);
		return -EINVAL;
	}
	return 0;
}

/**
 * simt_userq_create_ioctl() - DRM_IOCTL_SIMT_USERQ_CREATE: make a context a user queue.
 * @drm: the DRM device.
 * @data: the struct drm_simt_userq_create of the call.
 * @file: the caller's DRM file, which owns the context and the object.
 *
 * Turns the context's hardware queue into a user queue whose ring is the
 * system memory object bound at ring_addr in the context, once the
 * context's submissions have all finished (waiting up to
 * SIMT_SUBMIT_WAIT_MS); from then on the context's objects never move,
 * and it takes no SUBMIT.  Returns the mmap offset of the queue's
 * doorbell in doorbell_offset, and makes the watchdog look at the queue.
 * If the queue does not start, the context fails with
 * DRM_SIMT_ERROR_DEVICE.
 *
 * Context: process context; takes the context's lock, sdev->vram_lock,
 * sdev->reset_sem for reading and sdev->ctx_lock.
 * Return: 0, or a negative errno: -EOPNOTSUPP without user queues,
 * -EINVAL for bad flags, entries or ring object, -ENOENT for an unknown
 * context or object (or a closed context), -EEXIST if the context is a
 * user queue already, -EIO if it has stopped, -EBUSY if a submission is
 * still unfinished, -ENODEV once the device is unplugged, or the error
 * of starting the queue.
 */
int simt_userq_create_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct simt_device *sdev = to_simt(drm);
	struct drm_simt_userq_create *args = data;
	struct drm_gem_object *obj;
	struct simt_ctx *ctx;
	u32 n = args->ring_entries;
	int idx, ret;

	if (!simt_doorbell_usable(sdev)) {
		simt_dbg(drm, CTX, "USERQ_CREATE: the device has no user queues (caps 0x%08x)\n",
			 sdev->caps);
		return -EOPNOTSUPP;
	}
	if (args->flags || n < 2 || n > SIMT_USERQ_MAX_ENTRIES || (n & (n - 1))) {
		simt_dbg(drm, CTX, "USERQ_CREATE: flags 0x%x, %u entries\n",
			 args->flags, n);
		return -EINVAL;
	}
	ctx = simt_ctx_lookup(file, args->ctx_id);
	if (!ctx)
		return -ENOENT;
	obj = drm_gem_object_lookup(file, args->ring_handle);
	if (!obj) {
		simt_dbg(drm, CTX, "USERQ_CREATE: no object %u\n", args->ring_handle);
		ret = -ENOENT;
		goto out_ctx;
	}
	if (simt_bo_is_vram(obj)) {
		simt_dbg(drm, CTX, "USERQ_CREATE: object %u is VRAM, not system memory\n",
			 args->ring_handle);
		ret = -EINVAL;
		goto out_obj;
	}
	if (!drm_dev_enter(drm, &idx)) {
		ret = -ENODEV;
		goto out_obj;
	}

	mutex_lock(&ctx->lock);
	ret = simt_userq_check(ctx, obj, args);
	if (ret)
		goto out_unlock;
	/* From here its objects never move (simt_vram.c). */
	mutex_lock(&sdev->vram_lock);
	ctx->userq_ring = args->ring_addr;
	ctx->userq_entries = n;
	WRITE_ONCE(ctx->userq, true);
	mutex_unlock(&sdev->vram_lock);

	/* Not while a recovery is reprogramming the queues. */
	down_read(&sdev->reset_sem);
	ret = simt_ctx_queue_start(ctx);
	up_read(&sdev->reset_sem);
	if (ret) {
		/* The kernel's ring is off too: the context is done for. */
		spin_lock_irq(&sdev->ctx_lock);
		simt_ctx_fail(ctx, DRM_SIMT_ERROR_DEVICE, U32_MAX);
		spin_unlock_irq(&sdev->ctx_lock);
		goto out_unlock;
	}
	args->doorbell_offset = simt_doorbell_offset(ctx);
	/* The watchdog looks at user queues while there are any. */
	queue_delayed_work(sdev->tdr_wq, &sdev->watchdog, simt_watchdog_delay());

out_unlock:
	mutex_unlock(&ctx->lock);
	drm_dev_exit(idx);
out_obj:
	drm_gem_object_put(obj);
out_ctx:
	simt_ctx_put(ctx);
	return ret;
}

/* Has @ctx stopped (error or closed)?  Its error, or CANCELED if closed. */
static u32 simt_userq_stopped(struct simt_ctx *ctx)
{
	/* Pairs with the smp_store_release() of simt_ctx_fail(). */
	u32 error = smp_load_acquire(&ctx->error);

	if (!error && READ_ONCE(ctx->closed))
		error = DRM_SIMT_ERROR_CANCELED;
	return error;
}

/**
 * simt_userq_wait_ioctl() - DRM_IOCTL_SIMT_USERQ_WAIT: wait for a user queue's fence word.
 * @drm: the DRM device.
 * @data: the struct drm_simt_userq_wait of the call.
 * @file: the caller's DRM file, which owns the context.
 *
 * Sleeps until the 64-bit word at addr in the caller's memory is at
 * least value, the context stops (error or closed), timeout_ns passes or
 * a signal comes; the queue's interrupts, recovery and closing wake it.
 * Reports in error why the context stopped (DRM_SIMT_ERROR_CANCELED if
 * it was closed), with hw_error and, for a fault, fault_addr; a word
 * that reached the value reports no error, as WAIT does for work that
 * completed.
 *
 * Context: process context; sleeps interruptibly.
 * Return: 0 when the word has reached the value or the context has
 * stopped, -ETIME at the timeout, -EINTR on a signal, -EFAULT if the word
 * cannot be read, -EINVAL for bad arguments or a context that is no user
 * queue, -ENOENT for an unknown context.
 */
int simt_userq_wait_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *file)
{
	struct drm_simt_userq_wait *args = data;
	u64 __user *word = u64_to_user_ptr(args->addr);
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct simt_ctx *ctx;
	long left;
	u32 error;
	u64 value;
	int ret;

	if (args->flags || args->timeout_ns < 0 || !IS_ALIGNED(args->addr, 8)) {
		simt_dbg(drm, JOB, "USERQ_WAIT: flags 0x%x, timeout %lld, address 0x%llx\n",
			 args->flags, args->timeout_ns, args->addr);
		return -EINVAL;
	}
	ctx = simt_ctx_lookup(file, args->ctx_id);
	if (!ctx)
		return -ENOENT;
	if (!READ_ONCE(ctx->userq)) {
		simt_dbg(drm, JOB, "USERQ_WAIT: context %u is no user queue\n",
			 args->ctx_id);
		simt_ctx_put(ctx);
		return -EINVAL;
	}

	left = nsecs_to_jiffies(args->timeout_ns);
	if (args->timeout_ns && !left)
		left = 1;
	/* A wake-up between the look and the sleep is not lost. */
	add_wait_queue(&ctx->userq_wq, &wait);
	for (;;) {
		if (get_user(value, word)) {
			ret = -EFAULT;
			break;
		}
		error = simt_userq_stopped(ctx);
		if (value >= args->value || error) {
			ret = 0;
			break;
		}
		if (!left) {
			ret = -ETIME;
			break;
		}
		if (signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		left = wait_woken(&wait, TASK_INTERRUPTIBLE, left);
	}
	remove_wait_queue(&ctx->userq_wq, &wait);

	/* As for WAIT: work that completed reports success. */
	args->error = ret || value >= args->value ? 0 : error;
	args->hw_error = args->error ? READ_ONCE(ctx->hw_error) : 0;
	args->fault_addr = args->error == DRM_SIMT_ERROR_FAULT ?
			   READ_ONCE(ctx->fault_addr) : 0;
	simt_ctx_put(ctx);
	return ret;
}
