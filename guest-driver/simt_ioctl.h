/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: GET_PARAM (simt_ioctl.c).
 */
#ifndef __SIMT_IOCTL_H__
#define __SIMT_IOCTL_H__

struct drm_device;
struct drm_file;

int simt_get_param_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file);

#endif /* __SIMT_IOCTL_H__ */
