/* SPDX-License-Identifier: (GPL-2.0-only WITH Linux-syscall-note) OR MIT */
/*
 * simt: the driver's userspace interface (ioctls on /dev/accel/accelN).
 *
 * Only queries exist so far; buffer objects, contexts and job submission
 * are added here as they arrive.  Every structure is padded to 64-bit
 * alignment and every reserved field must be zero.
 */
#ifndef __SIMT_ACCEL_H__
#define __SIMT_ACCEL_H__

#include <drm/drm.h>

#if defined(__cplusplus)
extern "C" {
#endif

#define DRM_SIMT_GET_PARAM		0x00

/* Parameters for DRM_IOCTL_SIMT_GET_PARAM */
#define DRM_SIMT_PARAM_DEVICE_VERSION	0	/* major << 16 | minor */
#define DRM_SIMT_PARAM_CAPS		1	/* SIMT_CAP_* of simt-hw.h */
#define DRM_SIMT_PARAM_SM_COUNT		2
#define DRM_SIMT_PARAM_VRAM_SIZE	3	/* bytes */
#define DRM_SIMT_PARAM_IRQ_TEST_COUNT	4	/* test interrupts handled */

/**
 * struct drm_simt_get_param - query a device parameter
 * @param: in, one of DRM_SIMT_PARAM_*
 * @reserved: must be zero
 * @value: out, the parameter's value
 */
struct drm_simt_get_param {
	__u32 param;
	__u32 reserved;
	__u64 value;
};

#define DRM_IOCTL_SIMT_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SIMT_GET_PARAM, struct drm_simt_get_param)

#if defined(__cplusplus)
}
#endif

#endif /* __SIMT_ACCEL_H__ */
