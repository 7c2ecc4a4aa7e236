/* SPDX-License-Identifier: MIT */
/*
 * Stand-in for the kernel's <drm/drm.h> where it is not installed (the
 * host build, which compiles libsimt's host backend against
 * include/uapi/drm/simt_accel.h): the types and ioctl numbering that
 * header takes from it.
 */
#ifndef SIMT_STANDALONE_DRM_H
#define SIMT_STANDALONE_DRM_H

#include <linux/types.h>
#include <asm/ioctl.h>

#ifndef __user
#define __user
#endif

#define DRM_IOCTL_BASE          'd'
#define DRM_IOW(nr, type)       _IOW(DRM_IOCTL_BASE, nr, type)
#define DRM_IOWR(nr, type)      _IOWR(DRM_IOCTL_BASE, nr, type)
#define DRM_COMMAND_BASE        0x40

#endif /* SIMT_STANDALONE_DRM_H */
