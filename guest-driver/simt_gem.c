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
 *    and DMA-mapped at creation.  The device MMU maps only VRAM, so these
 *    have no device address; copies reach them by their DMA addresses,
 *    one command per contiguous piece (simt_job.c).
 */

#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/mm.h>
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
}

int simt_vram_init(struct simt_device *sdev)
{
	struct pci_dev *pdev = sdev->pdev;
	u64 size = min_t(u64, sdev->vram_size, sdev->vram_bar_size);
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

static const struct drm_gem_object_funcs simt_vram_bo_funcs = {
	.free		= simt_vram_bo_free,
	.mmap		= simt_vram_bo_mmap,
	.vm_ops		= &simt_vram_vm_ops,
};

bool simt_bo_is_vram(struct drm_gem_object *obj)
{
	return obj->funcs == &simt_vram_bo_funcs;
}

u64 simt_bo_device_addr(struct drm_gem_object *obj)
{
	return simt_bo_is_vram(obj) ? to_simt_vram_bo(obj)->node.start : 0;
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
	struct sg_table *sgt;

	shmem = drm_gem_shmem_create(&sdev->drm, size);
	if (IS_ERR(shmem))
		return ERR_CAST(shmem);

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

	if (args->flags != DRM_SIMT_BO_VRAM && args->flags != DRM_SIMT_BO_SYSTEM)
		return -EINVAL;
	if (!args->size)
		return -EINVAL;
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

	if (args->pad)
		return -EINVAL;
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
