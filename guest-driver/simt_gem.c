// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: buffer objects.
 *
 * Two kinds, told apart by their drm_gem_object_funcs:
 *
 *  - VRAM objects: device memory, or system pages while evicted
 *    (simt_vram.c).  The CPU reaches them through BAR2 (mmap gives a
 *    write-combined mapping of the BAR, filled in on faults so that it
 *    can follow the object when it moves); the device reaches them
 *    through a context's page tables once they are bound (simt_ctx.c).
 *    Their device address is theirs for life: every context that binds
 *    an object sees it at the same address, so userspace can put it in
 *    kernel arguments without asking per context.
 *
 *  - System memory objects: drm_gem_shmem objects whose pages are pinned
 *    and DMA-mapped at creation.  Copies reach them by their DMA
 *    addresses, one command per contiguous piece (simt_sched.c).
 *    Kernels reach them once they are bound: each page is mapped by its
 *    DMA address with SIMT_PTE_SYS (simt_ctx.c).  Their device address,
 *    the same in every context as for VRAM objects, comes from the same
 *    allocator (va_mm), taken at creation and freed with the object.
 *    Pinned pages are charged to the creating process's locked memory
 *    (RLIMIT_MEMLOCK, as for mlock() and RDMA memory regions) until the
 *    object is freed.
 *
 * Only system memory objects can be exported as dma-bufs: the helpers do
 * it for shmem objects; a VRAM object has no pages an importer could map.
 */

#include <linux/capability.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/scatterlist.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_vma_manager.h>

#include "simt_device.h"
#include "simt_gem.h"
#include "simt_vram.h"
#include "uapi/drm/simt_accel.h"

static void simt_vram_bo_free(struct drm_gem_object *obj)
{
	struct simt_vram_bo *bo = to_simt_vram_bo(obj);

	simt_vram_bo_release(to_simt(obj->dev), bo);
	mem_cgroup_put(bo->memcg);
	drm_gem_object_release(obj);
	kfree(bo);
}

static int simt_vram_bo_mmap(struct drm_gem_object *obj,
			     struct vm_area_struct *vma)
{
	/*
	 * A private writable mapping of I/O memory would need copy-on-write
	 * pages that do not exist; only shared mappings make sense.
	 */
	if (!(vma->vm_flags & VM_SHARED)) {
		simt_dbg(obj->dev, BO, "mmap of a VRAM object must be MAP_SHARED\n");
		return -EINVAL;
	}

	/* Pages come in on faults: the object may move (simt_vram.c). */
	vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_page_prot = pgprot_writecombine(vm_get_page_prot(vma->vm_flags));
	return 0;
}

/* Pages mapped per fault, as TTM prefaults: a fault per page is slow. */
#define SIMT_FAULT_AROUND	256

/*
 * Map the faulting page, and those after it in the mapping, where the
 * object is now: BAR2 write-combined, or its system pages (cached, as PAT
 * keeps RAM) while it is evicted.  A move zaps them again.
 */
static vm_fault_t simt_vram_bo_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct drm_gem_object *obj = vma->vm_private_data;
	struct simt_device *sdev = to_simt(obj->dev);
	struct simt_vram_bo *bo = to_simt_vram_bo(obj);
	pgoff_t first = vmf->pgoff - drm_vma_node_start(&obj->vma_node);
	pgoff_t npages = obj->size >> PAGE_SHIFT, i;
	unsigned long addr = vmf->address, pfn;
	vm_fault_t ret = VM_FAULT_NOPAGE;
	pgprot_t prot;
	bool sys;
	int idx;

	if (first >= npages)
		return VM_FAULT_SIGBUS;
	if (!drm_dev_enter(obj->dev, &idx))
		return VM_FAULT_SIGBUS;
	mutex_lock(&sdev->vram_lock);
	for (i = first; i < npages && i < first + SIMT_FAULT_AROUND &&
	     addr < vma->vm_end; i++, addr += PAGE_SIZE) {
		pfn = simt_vram_bo_pfn(sdev, bo, i, &sys);
		prot = sys ? vm_get_page_prot(vma->vm_flags) : vma->vm_page_prot;
		ret = vmf_insert_pfn_prot(vma, addr, pfn, prot);
		/* Only the faulting page must succeed; the others may be there. */
		if (i > first)
			ret = VM_FAULT_NOPAGE;
		else if (ret != VM_FAULT_NOPAGE)
			break;
	}
	mutex_unlock(&sdev->vram_lock);
	drm_dev_exit(idx);
	return ret;
}

/* The mapping holds a reference on the object, as drm_gem_mmap() expects. */
static const struct vm_operations_struct simt_vram_vm_ops = {
	.fault	= simt_vram_bo_fault,
	.open	= drm_gem_vm_open,
	.close	= drm_gem_vm_close,
};

static struct dma_buf *simt_vram_bo_export(struct drm_gem_object *obj,
					   int flags)
{
	simt_dbg(obj->dev, BO, "PRIME export of a VRAM object refused\n");
	return ERR_PTR(-EOPNOTSUPP);
}

static enum drm_gem_object_status simt_bo_status(struct drm_gem_object *obj)
{
	/* Pinned system pages are always there, VRAM objects unless evicted. */
	if (simt_bo_is_vram(obj) && READ_ONCE(to_simt_vram_bo(obj)->pages))
		return 0;
	return DRM_GEM_OBJECT_RESIDENT;
}

static const struct drm_gem_object_funcs simt_vram_bo_funcs = {
	.free		= simt_vram_bo_free,
	.mmap		= simt_vram_bo_mmap,
	.export		= simt_vram_bo_export,
	.status		= simt_bo_status,
	.vm_ops		= &simt_vram_vm_ops,
};

/**
 * simt_bo_is_vram() - Is a GEM object one of the driver's VRAM objects?
 * @obj: a GEM object of this device.
 *
 * Return: true for a VRAM object, false for a system memory object.
 */
bool simt_bo_is_vram(struct drm_gem_object *obj)
{
	return obj->funcs == &simt_vram_bo_funcs;
}

static struct simt_sys_bo *to_simt_sys_bo(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct simt_sys_bo,
			    base);
}

/**
 * simt_bo_device_addr() - An object's own device address.
 * @obj: a GEM object of this device.
 *
 * The address is the same in every context that binds the object without
 * DRM_SIMT_VM_BIND_FIXED, and is the object's for life.
 *
 * Return: the device address, or 0 for a system memory object that got
 * none (the device address space was full).
 */
u64 simt_bo_device_addr(struct drm_gem_object *obj)
{
	struct simt_sys_bo *bo;

	if (simt_bo_is_vram(obj))
		return to_simt_vram_bo(obj)->va.start;
	bo = to_simt_sys_bo(obj);
	return drm_mm_node_allocated(&bo->va) ? bo->va.start : 0;
}

/**
 * simt_sys_bo_dma_check() - Can the device MMU map a system memory object?
 * @obj: a system memory object, whose pages are pinned and mapped.
 *
 * Sv32 leaves hold a 22-bit page number: every DMA segment must lie below
 * 16 GiB and be page-aligned.  A segment that is not is reported in the
 * kernel log (rate limited).
 *
 * Return: 0 if every page can be mapped, else -EINVAL.
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

/*
 * A system object's pages count as the creating process's pinned memory
 * (mm->pinned_vm, against RLIMIT_MEMLOCK unless CAP_IPC_LOCK, as RDMA
 * does), which needs no mmap lock: the last reference to an object may
 * go in munmap(), under that process's mmap lock (account_locked_vm()
 * there deadlocked the process; the driver fuzzer found it).
 */
static int simt_pinned_charge(struct mm_struct *mm, unsigned long pages)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;

	if ((unsigned long)atomic64_add_return(pages, &mm->pinned_vm) > limit &&
	    !capable(CAP_IPC_LOCK)) {
		atomic64_sub(pages, &mm->pinned_vm);
		return -ENOMEM;
	}
	return 0;
}

static void simt_sys_bo_free(struct drm_gem_object *obj)
{
	struct simt_device *sdev = to_simt(obj->dev);
	struct simt_sys_bo *bo = to_simt_sys_bo(obj);

	mutex_lock(&sdev->dma_lock);
	list_del(&bo->link);
	mutex_unlock(&sdev->dma_lock);
	simt_va_free(sdev, &bo->va);
	if (bo->mm) {
		atomic64_sub(obj->size >> PAGE_SHIFT, &bo->mm->pinned_vm);
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

/**
 * simt_gem_create_object() - &drm_driver.gem_create_object: allocate what
 * drm_gem_shmem_create() initializes.
 * @drm: the DRM device.
 * @size: the object's size (the helper initializes it).
 *
 * Allocates a &struct simt_sys_bo, whose functions free its device
 * addresses and pinned memory charge with it.
 *
 * Return: the embedded GEM object, or ERR_PTR(-ENOMEM).
 */
struct drm_gem_object *simt_gem_create_object(struct drm_device *drm,
					      size_t size)
{
	struct simt_sys_bo *bo = kzalloc(sizeof(*bo), GFP_KERNEL);

	if (!bo)
		return ERR_PTR(-ENOMEM);
	bo->base.base.funcs = &simt_sys_bo_funcs;
	INIT_LIST_HEAD(&bo->link);
	return &bo->base.base;
}

/**
 * simt_bo_addr() - The address of a byte of an object, as a copy command
 * takes it.
 * @obj: a GEM object of this device.
 * @offset: the byte's offset in @obj.
 * @addr: set to its address: a device address for VRAM objects (where the
 *	object is does not matter), a DMA address for system memory.
 * @contig: set to how many bytes from there are contiguous.
 * @host: set to false for a device address, true for a DMA address.
 *
 * For system memory the DMA table is read, so the caller is inside
 * drm_dev_enter() (simt_gem_unplug() frees it).
 *
 * Return: 0, or -EINVAL if @offset is beyond the object or its DMA table.
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
		*addr = to_simt_vram_bo(obj)->va.start + offset;
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
	int ret;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	if (!bo)
		return ERR_PTR(-ENOMEM);
	drm_gem_private_object_init(&sdev->drm, &bo->base, size);
	bo->base.funcs = &simt_vram_bo_funcs;
	/* Its evicted pages are charged to its creator (simt_vram.c). */
	bo->memcg = get_mem_cgroup_from_mm(current->mm);
	ret = simt_vram_bo_place(sdev, bo);
	if (ret) {
		drm_gem_object_put(&bo->base);
		return ERR_PTR(ret);
	}
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
		ret = simt_pinned_charge(current->mm, size >> PAGE_SHIFT);
		if (ret) {
			simt_dbg(&sdev->drm, BO, "%llu bytes more pinned memory exceed RLIMIT_MEMLOCK\n",
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
	/* BO_CREATE runs inside drm_dev_enter(): the device is still here. */
	mutex_lock(&sdev->dma_lock);
	list_add_tail(&bo->link, &sdev->sys_bos);
	mutex_unlock(&sdev->dma_lock);

	/*
	 * A device address for VM_BIND.  Without one (the space is full)
	 * the object still serves copies; binding it is ENOSPC.
	 */
	mutex_lock(&sdev->vram_lock);
	ret = simt_va_alloc(sdev, &bo->va, size, 0);
	mutex_unlock(&sdev->vram_lock);
	if (ret)
		simt_dbg(&sdev->drm, BO, "no device address for a system object of %llu bytes\n",
			 size);
	return &shmem->base;
}

/**
 * simt_bo_create_ioctl() - DRM_IOCTL_SIMT_BO_CREATE: create a buffer
 * object and a handle to it.
 * @drm: the DRM device.
 * @data: the &struct drm_simt_bo_create; @data->handle is filled in.
 * @file: the file the handle goes to.
 *
 * The size is rounded up to whole pages.  A VRAM object goes into VRAM,
 * evicting others if need be, or starts evicted in system pages
 * (simt_vram_bo_place()).  A system memory object is pinned and
 * DMA-mapped now, charged to the caller's RLIMIT_MEMLOCK, and gets a
 * device address if there is room.  Objects are created inside
 * drm_dev_enter().
 *
 * Context: takes &simt_device.vram_lock and &simt_device.dma_lock (not
 * nested).
 * Return: 0; -EINVAL for bad flags or a zero size; -E2BIG for a size that
 * wraps or exceeds VRAM or RAM; -ENOMEM when out of memory, pinned memory
 * or half of RAM (system objects); -ENOSPC when out of device addresses
 * (VRAM objects); -ENODEV if the device has gone; or another negative
 * errno.
 */
int simt_bo_create_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct simt_device *sdev = to_simt(drm);
	struct drm_simt_bo_create *args = data;
	struct drm_gem_object *obj;
	u64 size, limit;
	int idx, ret;

	if ((args->flags != DRM_SIMT_BO_VRAM &&
	     args->flags != DRM_SIMT_BO_SYSTEM) || !args->size) {
		simt_dbg(drm, BO, "BO_CREATE: flags 0x%x, size %llu\n", args->flags,
			 args->size);
		return -EINVAL;
	}
	size = PAGE_ALIGN(args->size);
	if (size < args->size) {
		simt_dbg(drm, BO, "BO_CREATE: size %llu wraps\n", args->size);
		return -E2BIG;
	}

	if (args->flags == DRM_SIMT_BO_VRAM) {
		limit = min_t(u64, sdev->vram_size, sdev->vram_bar_size) -
			sdev->vram_guard;
		if (size > limit) {
			simt_dbg(drm, BO, "BO_CREATE: %llu bytes, more than the %llu of VRAM\n",
				 size, limit);
			return -E2BIG;
		}
	} else {
		/* Pinned memory: never more than half of the RAM there is. */
		limit = (u64)totalram_pages() << PAGE_SHIFT;
		if (size > limit / 2) {
			simt_dbg(drm, BO, "BO_CREATE: %llu bytes, more than half of the %llu of RAM\n",
				 size, limit);
			return size > limit ? -E2BIG : -ENOMEM;
		}
	}
	/* Nothing is mapped for a device that is going (simt_gem_unplug()). */
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	if (args->flags == DRM_SIMT_BO_VRAM)
		obj = simt_vram_bo_create(sdev, size);
	else
		obj = simt_sys_bo_create(sdev, size);
	drm_dev_exit(idx);
	if (IS_ERR(obj))
		return PTR_ERR(obj);

	ret = drm_gem_handle_create(file, obj, &args->handle);
	/* The handle holds the reference now (or the object dies here). */
	drm_gem_object_put(obj);
	return ret;
}

/**
 * simt_bo_mmap_offset_ioctl() - DRM_IOCTL_SIMT_BO_MMAP_OFFSET: the offset
 * at which to mmap(2) an object.
 * @drm: the DRM device.
 * @data: the &struct drm_simt_bo_mmap_offset; @data->offset is filled in.
 * @file: the file that holds the handle.
 *
 * Return: 0, -EINVAL if pad is not zero, -ENOENT for an unknown handle, or
 * a negative errno from drm_gem_create_mmap_offset().
 */
int simt_bo_mmap_offset_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct drm_simt_bo_mmap_offset *args = data;
	struct drm_gem_object *obj;
	int ret;

	if (args->pad) {
		simt_dbg(drm, BO, "BO_MMAP_OFFSET: pad not zero\n");
		return -EINVAL;
	}
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj) {
		simt_dbg(drm, BO, "BO_MMAP_OFFSET: no object %u\n", args->handle);
		return -ENOENT;
	}

	ret = drm_gem_create_mmap_offset(obj);
	if (!ret)
		args->offset = drm_vma_node_offset_addr(&obj->vma_node);
	drm_gem_object_put(obj);
	return ret;
}

/**
 * simt_bo_info_ioctl() - DRM_IOCTL_SIMT_BO_INFO: what an object is.
 * @drm: the DRM device.
 * @data: the &struct drm_simt_bo_info; filled in: its kind (and
 *	DRM_SIMT_BO_EVICTED for a VRAM object now in system memory), its
 *	size and its device address (0 if it has none).
 * @file: the file that holds the handle.
 *
 * The placement is a snapshot: the object may move at any time.
 *
 * Return: 0, or -ENOENT for an unknown handle.
 */
int simt_bo_info_ioctl(struct drm_device *drm, void *data,
		       struct drm_file *file)
{
	struct drm_simt_bo_info *args = data;
	struct drm_gem_object *obj;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj) {
		simt_dbg(drm, BO, "BO_INFO: no object %u\n", args->handle);
		return -ENOENT;
	}

	args->flags = simt_bo_is_vram(obj) ? DRM_SIMT_BO_VRAM : DRM_SIMT_BO_SYSTEM;
	if (!(simt_bo_status(obj) & DRM_GEM_OBJECT_RESIDENT))
		args->flags |= DRM_SIMT_BO_EVICTED;
	args->size = obj->size;
	args->device_addr = simt_bo_device_addr(obj);
	drm_gem_object_put(obj);
	return 0;
}

/**
 * simt_gem_show_fdinfo() - Print a file's objects for fdinfo.
 * @p: the printer fdinfo goes to.
 * @file: the file whose object handles are counted.
 *
 * The file's objects by region, in drm-usage-stats form: VRAM objects
 * count as resident only while in VRAM; how much of them is in system
 * memory and how often they moved follow as simt- keys.  The placement
 * counts are read without vram_lock, a snapshot.
 *
 * Context: takes the file's &drm_file.table_lock.
 */
void simt_gem_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct drm_memory_stats vram = { }, sys = { };
	u64 evicted = 0, evictions = 0, restores = 0;
	struct drm_memory_stats *st;
	struct drm_gem_object *obj;
	struct simt_vram_bo *bo;
	int id;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, id) {
		st = simt_bo_is_vram(obj) ? &vram : &sys;
		if (obj->handle_count > 1)
			st->shared += obj->size;
		else
			st->private += obj->size;
		if (simt_bo_status(obj) & DRM_GEM_OBJECT_RESIDENT)
			st->resident += obj->size;
		if (st == &vram) {
			bo = to_simt_vram_bo(obj);
			if (READ_ONCE(bo->pages))
				evicted += obj->size;
			evictions += READ_ONCE(bo->evictions);
			restores += READ_ONCE(bo->restores);
		}
	}
	spin_unlock(&file->table_lock);
	drm_print_memory_stats(p, &vram, DRM_GEM_OBJECT_RESIDENT, "vram");
	drm_print_memory_stats(p, &sys, DRM_GEM_OBJECT_RESIDENT, "system");
	drm_printf(p, "simt-evicted-vram:\t%llu KiB\n", evicted >> 10);
	drm_printf(p, "simt-evictions:\t%llu\n", evictions);
	drm_printf(p, "simt-restores:\t%llu\n", restores);
}

/**
 * simt_gem_unplug() - Unmap every system object's pages for a device
 * that has gone.
 * @sdev: the device, unplugged and quiet.
 *
 * The objects live on with their open files (their pages stay, for mmap),
 * but nothing binds or copies them any more: every ioctl that reads the
 * DMA table runs inside drm_dev_enter().  Each object's table is freed
 * under its reservation lock.
 *
 * Context: caller holds &simt_device.dma_lock; takes each object's
 * dma_resv lock.
 */
void simt_gem_unplug(struct simt_device *sdev)
{
	struct drm_gem_shmem_object *shmem;
	struct simt_sys_bo *bo;

	lockdep_assert_held(&sdev->dma_lock);
	list_for_each_entry(bo, &sdev->sys_bos, link) {
		shmem = &bo->base;
		dma_resv_lock(shmem->base.resv, NULL);
		if (shmem->sgt) {
			dma_unmap_sgtable(sdev->drm.dev, shmem->sgt,
					  DMA_BIDIRECTIONAL, 0);
			sg_free_table(shmem->sgt);
			kfree(shmem->sgt);
			shmem->sgt = NULL;
		}
		dma_resv_unlock(shmem->base.resv);
	}
}
