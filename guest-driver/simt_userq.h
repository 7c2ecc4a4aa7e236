/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: user queues (simt_userq.c).
 */
#ifndef __SIMT_USERQ_H__
#define __SIMT_USERQ_H__

struct drm_device;
struct drm_file;
struct file;
struct simt_ctx;
struct vm_area_struct;

/* The device node's mmap(): a queue's doorbell or an object. */
int simt_mmap(struct file *filp, struct vm_area_struct *vma);
/* @ctx is closing: take its doorbell out of every mapping. */
void simt_userq_close(struct simt_ctx *ctx);
int simt_userq_create_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *file);
int simt_userq_wait_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *file);

#endif /* __SIMT_USERQ_H__ */
