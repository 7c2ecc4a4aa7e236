/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: buffer objects (simt_gem.c).
 */
#ifndef __SIMT_GEM_H__
#define __SIMT_GEM_H__

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct drm_gem_object;
struct drm_printer;
struct simt_device;

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
void simt_gem_unplug(struct simt_device *sdev);

#endif /* __SIMT_GEM_H__ */
