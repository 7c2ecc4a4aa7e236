/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: contexts and their device address spaces (simt_ctx.c).
 */
#ifndef __SIMT_CTX_H__
#define __SIMT_CTX_H__

#include <linux/types.h>

struct drm_device;
struct drm_gem_object;
struct drm_file;
struct simt_device;
struct simt_file;

extern unsigned int simt_file_contexts;
u32 simt_user_context_limit(struct simt_device *sdev);
struct simt_ctx *simt_ctx_lookup(struct drm_file *file, u32 id);
struct simt_bind *simt_bind_find(struct simt_ctx *ctx,
				 struct drm_gem_object *obj);
void simt_ctx_close_file(struct simt_file *sfile);
void simt_ctx_usage_update_file(struct simt_file *sfile);
void simt_ctx_unplug(struct simt_device *sdev);
void simt_device_load(struct simt_device *sdev, u32 *contexts, u32 *busy);
int simt_context_create_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *file);
int simt_context_destroy_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *file);
int simt_vm_bind_ioctl(struct drm_device *drm, void *data,
		       struct drm_file *file);
int simt_vm_unbind_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file);

#endif /* __SIMT_CTX_H__ */
