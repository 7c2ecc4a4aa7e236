// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: buffer objects.
 *
 * Two kinds, told apart by their drm_gem_object_funcs:
 *
 *  - VRAM objects: a range of device memory handed out by a drm_mm
 *    allocator.  The CPU reaches them through BAR2 (mmap gives a
 *    write-combined mapping of the BAR); the device reaches them through a
 *    context's page tables once they are bound (simt_ctx.c).  Their
 *    device address is their VRAM offset: every context that binds an
 *    object sees it at the same address, so userspace can put it in
 *    kernel arguments without asking per context.
 *
 *  - System memory objects: drm_gem_shmem objects whose pages are pinned
 *    and DMA-mapped at creation.  Copies reach them by their DMA
 *    addresses, one command per contiguous piece (simt_job.c).  Kernels
 *    reach them once they are bound: each page is mapped by its DMA
 *    address with SIMT_PTE_SYS (simt_ctx.c).  Their device address, the
 *    same in every context as for VRAM objects, comes from a second
 *    drm_mm over the device addresses between VRAM and the shared and
 *    local windows (sys_va_mm), taken at creation and freed with the
 *    object.  Pinned pages are charged to the creating process's locked
 *    memory (RLIMIT_MEMLOCK, as for mlock() and RDMA memory regions)
 *    until the object is freed.
 *
 * Only system memory objects can be exported as dma-bufs: the helpers do
 * it for shmem objects; a VRAM object has no pages an importer could map.
 */

#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/scatterlist.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_vma_manager.h>

#include "simt_drv.h"
#include "uapi/drm/simt_accel.h"

static void simt_vram_mm_fini(struct drm_device *drm, void *arg)
{
	struct simt_device *sdev = arg;

	/*
	 * Runs when the last reference to the DRM device goes, after every
	 * file (and with it every object and context) is gone; a node left
	 * here would be a leak, and drm_mm_takedown() says so.
	 */
	drm_mm_takedown(&sdev->vram_mm);
	if (sdev->sys_va_size)
		drm_mm_takedown(&sdev->sys_va_mm);
}

int simt_vram_init(struct simt_device *sdev)
{
	struct pci_dev *pdev = sdev->pdev;
	u64 size = min_t(u64, sdev->vram_size, sdev->vram_bar_size);
	u64 start;
	int ret;

	sdev->vram_guard = size >= 16 * SIMT_VRAM_GUARD ? SIMT_VRAM_GUARD :
			   SIMT_VRAM_GUARD_SMALL;
	if (size <= sdev->vram_guard) {
		drm_err(&sdev->drm, "VRAM of %llu bytes is too small\n", size);
		return -ENODEV;
	}

	ret = pcim_request_region(pdev, SIMT_BAR_VRAM, SIMT_DRIVER_NAME);
	if (ret) {
		drm_err(&sdev->drm, "cannot claim VRAM BAR%d: %d\n",
			SIMT_BAR_VRAM, ret);
		return ret;
	}
	sdev->vram_bar_start = pci_resource_start(pdev, SIMT_BAR_VRAM);
	sdev->vram = devm_ioremap_wc(&pdev->dev, sdev->vram_bar_start, size);
	if (!sdev->vram) {
		drm_err(&sdev->drm, "cannot map VRAM BAR%d\n", SIMT_BAR_VRAM);
		return -ENOMEM;
	}

	ret = drmm_mutex_init(&sdev->drm, &sdev->vram_lock);
	if (ret)
		return ret;
	drm_mm_init(&sdev->vram_mm, sdev->vram_guard, size - sdev->vram_guard);
	start = round_up(sdev->vram_size, SIMT_SUPERPAGE_SIZE);
	if (start < SIMT_SHARED_BASE) {
		sdev->sys_va_size = SIMT_SHARED_BASE - start;
		drm_mm_init(&sdev->sys_va_mm, start, sdev->sys_va_size);
	}
	return drmm_add_action_or_reset(&sdev->drm, simt_vram_mm_fini, sdev);
}

int simt_vram_alloc(struct simt_device *sdev, struct drm_mm_node *node,
		    u64 size)
{
	int ret;

	mutex_lock(&sdev->vram_lock);
	ret = drm_mm_insert_node_generic(&sdev->vram_mm, node, size,
					 SIMT_PAGE_SIZE, 0, DRM_MM_INSERT_BEST);
	mutex_unlock(&sdev->vram_lock);
	return ret;
}

void simt_vram_free(struct simt_device *sdev, struct drm_mm_node *node)
{
	mutex_lock(&sdev->vram_lock);
	drm_mm_remove_node(node);
	mutex_unlock(&sdev->vram_lock);
}

static void simt_vram_bo_free(struct drm_gem_object *obj)
{
	struct simt_vram_bo *bo = to_simt_vram_bo(obj);

	simt_vram_free(to_simt(obj->dev), &bo->node);
	drm_gem_object_release(obj);
	kfree(bo);
}

static int simt_vram_bo_mmap(struct drm_gem_object *obj,
			     struct vm_area_struct *vma)
{
	struct simt_device *sdev = to_simt(obj->dev);
	struct simt_vram_bo *bo = to_simt_vram_bo(obj);
	unsigned long pfn;

	/*
	 * A private writable mapping of I/O memory would need copy-on-write
	 * pages that do not exist; only shared mappings make sense.
	 */
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;

	/* From the fake mmap offset to a page offset inside the object. */
	vma->vm_pgoff -= drm_vma_node_start(&obj->vma_node);
	vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_page_prot = pgprot_writecombine(vm_get_page_prot(vma->vm_flags));

	pfn = (sdev->vram_bar_start + bo->node.start) >> PAGE_SHIFT;
	return io_remap_pfn_range(vma, vma->vm_start, pfn + vma->vm_pgoff,
				  vma->vm_end - vma->vm_start,
				  vma->vm_page_prot);
}

/* The mapping holds a reference on the object, as drm_gem_mmap() expects. */
static const struct vm_operations_struct simt_vram_vm_ops = {
	.open	= drm_gem_vm_open,
	.close	= drm_gem_vm_close,
};

static struct dma_buf *simt_vram_bo_export(struct drm_gem_object *obj,
					   int flags)
{
	drm_dbg(obj->dev, "PRIME export of a VRAM object refused\n");
	return ERR_PTR(-EOPNOTSUPP);
}

static enum drm_gem_object_status simt_bo_status(struct drm_gem_object *obj)
{
	/* VRAM objects and pinned system pages are always there. */
	return DRM_GEM_OBJECT_RESIDENT;
}

static const struct drm_gem_object_funcs simt_vram_bo_funcs = {
	.free		= simt_vram_bo_free,
	.mmap		= simt_vram_bo_mmap,
	.export		= simt_vram_bo_export,
	.status		= simt_bo_status,
	.vm_ops		= &simt_vram_vm_ops,
};

bool simt_bo_is_vram(struct drm_gem_object *obj)
{
	return obj->funcs == &simt_vram_bo_funcs;
}

static struct simt_sys_bo *to_simt_sys_bo(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct simt_sys_bo,
			    base);
}

/* 0 for a system memory object that got no device address. */
u64 simt_bo_device_addr(struct drm_gem_object *obj)
{
	struct simt_sys_bo *bo;

	if (simt_bo_is_vram(obj))
		return to_simt_vram_bo(obj)->node.start;
	bo = to_simt_sys_bo(obj);
	return drm_mm_node_allocated(&bo->va) ? bo->va.start : 0;
}

/*
 * Can the device MMU map every page of system memory object @obj?  Sv32
 * leaves hold a 22-bit page number: DMA addresses must lie below 16 GiB
 * and be page-aligned.  0 or -EINVAL, said in the kernel log.
 */
int simt_sys_bo_dma_check(struct drm_gem_object *obj)
{
	struct sg_table *sgt = to_drm_gem_shmem_obj(obj)->sgt;
	struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_dma_sg(sgt, sg, i) {
		u64 dma = sg_dma_address(sg), len = sg_dma_len(sg);

		if (!IS_ALIGNED(dma, SIMT_PAGE_SIZE) ||
		    !IS_ALIGNED(len, SIMT_PAGE_SIZE) ||
		    dma + len > (1ull << (22 + SIMT_PAGE_SHIFT))) {
			dev_warn_ratelimited(obj->dev->dev,
					     "system memory object at DMA address %pad (+%llu bytes) cannot be bound: the device MMU maps page-aligned system memory below 16 GiB only\n",
					     &sg_dma_address(sg), len);
			return -EINVAL;
		}
	}
	return 0;
}

static void simt_sys_bo_free(struct drm_gem_object *obj)
{
	struct simt_device *sdev = to_simt(obj->dev);
	struct simt_sys_bo *bo = to_simt_sys_bo(obj);

	if (drm_mm_node_allocated(&bo->va)) {
		mutex_lock(&sdev->vram_lock);
		drm_mm_remove_node(&bo->va);
		mutex_unlock(&sdev->vram_lock);
	}
	if (bo->mm) {
		account_locked_vm(bo->mm, obj->size >> PAGE_SHIFT, false);
		mmdrop(bo->mm);
	}
	drm_gem_shmem_object_free(obj);
}

/* The shmem helper's own functions, but for free. */
static const struct drm_gem_object_funcs simt_sys_bo_funcs = {
	.free		= simt_sys_bo_free,
	.status		= simt_bo_status,
	.print_info	= drm_gem_shmem_object_print_info,
	.pin		= drm_gem_shmem_object_pin,
	.unpin		= drm_gem_shmem_object_unpin,
	.get_sg_table	= drm_gem_shmem_object_get_sg_table,
	.vmap		= drm_gem_shmem_object_vmap,
	.vunmap		= drm_gem_shmem_object_vunmap,
	.mmap		= drm_gem_shmem_object_mmap,
	.vm_ops		= &drm_gem_shmem_vm_ops,
};

/* drm_driver.gem_create_object: what drm_gem_shmem_create() allocates. */
struct drm_gem_object *simt_gem_create_object(struct drm_device *drm,
					      size_t size)
{
	struct simt_sys_bo *bo = kzalloc(sizeof(*bo), GFP_KERNEL);

	if (!bo)
		return ERR_PTR(-ENOMEM);
	bo->base.base.funcs = &simt_sys_bo_funcs;
	return &bo->base.base;
}

/*
 * The address of byte @offset of @obj as a copy command takes it, and
 * how many bytes from there are contiguous: a device address for VRAM
 * (@host false), a DMA address for system memory (@host true).
 */
int simt_bo_addr(struct drm_gem_object *obj, u64 offset, u64 *addr,
		 u64 *contig, bool *host)
{
	struct drm_gem_shmem_object *shmem;
	struct scatterlist *sg;
	unsigned int i;

	if (offset >= obj->size)
		return -EINVAL;

	if (simt_bo_is_vram(obj)) {
		*addr = to_simt_vram_bo(obj)->node.start + offset;
		*contig = obj->size - offset;
		*host = false;
		return 0;
	}

	shmem = to_drm_gem_shmem_obj(obj);
	for_each_sgtable_dma_sg(shmem->sgt, sg, i) {
		u64 len = sg_dma_len(sg);

		if (offset < len) {
			*addr = sg_dma_address(sg) + offset;
			*contig = len - offset;
			*host = true;
			return 0;
		}
		offset -= len;
	}
	return -EINVAL;
}

static struct drm_gem_object *simt_vram_bo_create(struct simt_device *sdev,
						  u64 size)
{
	struct simt_vram_bo *bo;
	int idx, ret;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	if (!bo)
		return ERR_PTR(-ENOMEM);

	ret = simt_vram_alloc(sdev, &bo->node, size);
	if (ret) {
		kfree(bo);
		return ERR_PTR(ret == -ENOSPC ? -ENOMEM : ret);
	}

	drm_gem_private_object_init(&sdev->drm, &bo->base, size);
	bo->base.funcs = &simt_vram_bo_funcs;

	/* The previous owner's data must not leak to the next one. */
	if (!drm_dev_enter(&sdev->drm, &idx)) {
		drm_gem_object_put(&bo->base);
		return ERR_PTR(-ENODEV);
	}
	memset_io(sdev->vram + bo->node.start, 0, size);
	drm_dev_exit(idx);

	return &bo->base;
}

static struct drm_gem_object *simt_sys_bo_create(struct simt_device *sdev,
						 u64 size)
{
	struct drm_gem_shmem_object *shmem;
	struct simt_sys_bo *bo;
	struct sg_table *sgt;
	int ret;

	shmem = drm_gem_shmem_create(&sdev->drm, size);
	if (IS_ERR(shmem))
		return ERR_CAST(shmem);

	/* Charge the pages before pinning them. */
	bo = to_simt_sys_bo(&shmem->base);
	if (current->mm) {
		ret = account_locked_vm(current->mm, size >> PAGE_SHIFT, true);
		if (ret) {
			drm_dbg(&sdev->drm, "%llu bytes more pinned memory exceed RLIMIT_MEMLOCK\n",
				size);
			drm_gem_object_put(&shmem->base);
			return ERR_PTR(ret);
		}
		bo->mm = current->mm;
		mmgrab(bo->mm);
	}

	/*
	 * Pin and map now: copies need the DMA addresses, and a failure is
	 * better reported here than at submission.  The helper keeps the
	 * table and undoes both when the object is freed.
	 */
	sgt = drm_gem_shmem_get_pages_sgt(shmem);
	if (IS_ERR(sgt)) {
		drm_gem_object_put(&shmem->base);
		return ERR_CAST(sgt);
	}

	/*
	 * A device address for VM_BIND.  Without one (the space is full)
	 * the object still serves copies; binding it is ENOSPC.
	 */
	if (sdev->sys_va_size) {
		mutex_lock(&sdev->vram_lock);
		ret = drm_mm_insert_node_generic(&sdev->sys_va_mm, &bo->va,
						 size, SIMT_PAGE_SIZE, 0,
						 DRM_MM_INSERT_BEST);
		mutex_unlock(&sdev->vram_lock);
		if (ret)
			drm_dbg(&sdev->drm, "no device address for a system object of %llu bytes\n",
				size);
	}
	return &shmem->base;
}

int simt_bo_create_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct simt_device *sdev = to_simt(drm);
	struct drm_simt_bo_create *args = data;
	struct drm_gem_object *obj;
	u64 size, limit;
	int ret;

	if ((args->flags != DRM_SIMT_BO_VRAM &&
	     args->flags != DRM_SIMT_BO_SYSTEM) || !args->size) {
		drm_dbg(drm, "BO_CREATE: flags 0x%x, size %llu\n", args->flags,
			args->size);
		return -EINVAL;
	}
	size = PAGE_ALIGN(args->size);
	if (size < args->size)
		return -E2BIG;

	if (args->flags == DRM_SIMT_BO_VRAM) {
		limit = min_t(u64, sdev->vram_size, sdev->vram_bar_size) -
			sdev->vram_guard;
		if (size > limit)
			return -E2BIG;
		obj = simt_vram_bo_create(sdev, size);
	} else {
		/* Pinned memory: never more than half of the RAM there is. */
		limit = (u64)totalram_pages() << PAGE_SHIFT;
		if (size > limit)
			return -E2BIG;
		if (size > limit / 2)
			return -ENOMEM;
		obj = simt_sys_bo_create(sdev, size);
	}
	if (IS_ERR(obj))
		return PTR_ERR(obj);

	ret = drm_gem_handle_create(file, obj, &args->handle);
	/* The handle holds the reference now (or the object dies here). */
	drm_gem_object_put(obj);
	return ret;
}

int simt_bo_mmap_offset_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct drm_simt_bo_mmap_offset *args = data;
	struct drm_gem_object *obj;
	int ret;

	if (args->pad) {
		drm_dbg(drm, "BO_MMAP_OFFSET: pad not zero\n");
		return -EINVAL;
	}
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	ret = drm_gem_create_mmap_offset(obj);
	if (!ret)
		args->offset = drm_vma_node_offset_addr(&obj->vma_node);
	drm_gem_object_put(obj);
	return ret;
}

int simt_bo_info_ioctl(struct drm_device *drm, void *data,
		       struct drm_file *file)
{
	struct drm_simt_bo_info *args = data;
	struct drm_gem_object *obj;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	args->flags = simt_bo_is_vram(obj) ? DRM_SIMT_BO_VRAM : DRM_SIMT_BO_SYSTEM;
	args->size = obj->size;
	args->device_addr = simt_bo_device_addr(obj);
	drm_gem_object_put(obj);
	return 0;
}

/* The file's objects by region, for fdinfo (drm-usage-stats). */
void simt_gem_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct drm_memory_stats vram = { }, sys = { };
	struct drm_memory_stats *st;
	struct drm_gem_object *obj;
	int id;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, id) {
		st = simt_bo_is_vram(obj) ? &vram : &sys;
		if (obj->handle_count > 1)
			st->shared += obj->size;
		else
			st->private += obj->size;
		st->resident += obj->size;
	}
	spin_unlock(&file->table_lock);
	drm_print_memory_stats(p, &vram, DRM_GEM_OBJECT_RESIDENT, "vram");
	drm_print_memory_stats(p, &sys, DRM_GEM_OBJECT_RESIDENT, "system");
}
