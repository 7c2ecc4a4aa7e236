/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: buffer objects (simt_gem.c).
 */
#ifndef __SIMT_GEM_H__
#define __SIMT_GEM_H__

#include <linux/list.h>
#include <linux/types.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_mm.h>

struct drm_device;
struct drm_file;
struct drm_printer;
struct mem_cgroup;
struct mm_struct;
struct page;

/*
 * A buffer object of VRAM: its device addresses for life, and either its
 * VRAM (resident, on the LRU) or system pages holding its contents
 * (evicted: @pages set).  Placement and @binds under sdev->vram_lock.
 */
struct simt_vram_bo {
	struct drm_gem_object base;
	struct drm_mm_node va;
	struct drm_mm_node node;
	struct page **pages;
	dma_addr_t *dma;
	struct list_head lru;
	struct list_head binds;		/* simt_bind.obj_link */
	u64 evictions;			/* moves to system memory ... */
	u64 restores;			/* ... and back */
	/* The creator's memory cgroup, which @pages are charged to. */
	struct mem_cgroup *memcg;
};

/*
 * A buffer object in system memory: a drm_gem_shmem object (first, the
 * helper frees it with kfree()) and its range of device addresses in
 * sdev->sys_va_mm (not allocated if that space was full).  Its pinned
 * pages are charged to @mm's locked memory until it is freed.
 */
struct simt_sys_bo {
	struct drm_gem_shmem_object base;
	struct drm_mm_node va;
	struct mm_struct *mm;
};

static inline struct simt_vram_bo *to_simt_vram_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct simt_vram_bo, base);
}

void simt_gem_show_fdinfo(struct drm_printer *p, struct drm_file *file);
bool simt_bo_is_vram(struct drm_gem_object *obj);
u64 simt_bo_device_addr(struct drm_gem_object *obj);
int simt_sys_bo_dma_check(struct drm_gem_object *obj);
struct drm_gem_object *simt_gem_create_object(struct drm_device *drm,
					      size_t size);
int simt_bo_addr(struct drm_gem_object *obj, u64 offset, u64 *addr,
		 u64 *contig, bool *host);
int simt_bo_create_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file);
int simt_bo_mmap_offset_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *file);
int simt_bo_info_ioctl(struct drm_device *drm, void *data,
		       struct drm_file *file);

#endif /* __SIMT_GEM_H__ */
