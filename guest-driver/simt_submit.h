/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: the job ioctls, SUBMIT (simt_submit.c) and WAIT (simt_wait.c).
 */
#ifndef __SIMT_SUBMIT_H__
#define __SIMT_SUBMIT_H__

struct drm_device;
struct drm_file;

int simt_submit_ioctl(struct drm_device *drm, void *data,
		      struct drm_file *file);
int simt_wait_ioctl(struct drm_device *drm, void *data,
		    struct drm_file *file);

#endif /* __SIMT_SUBMIT_H__ */
