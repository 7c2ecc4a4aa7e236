// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: device queries (include/uapi/drm/simt_accel.h).  The other
 * ioctls live with what they work on (simt_gem.c, simt_ctx.c,
 * simt_job.c); the table that dispatches to them all is in simt_drv.c,
 * next to the drm_driver.
 */

#include <linux/errno.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>

#include "simt_drv.h"
#include "uapi/drm/simt_accel.h"

int simt_get_param_ioctl(struct drm_device *drm, void *data,
				struct drm_file *file)
{
	struct simt_device *sdev = to_simt(drm);
	struct drm_simt_get_param *args = data;

	if (args->reserved)
		return -EINVAL;

	switch (args->param) {
	case DRM_SIMT_PARAM_DEVICE_VERSION:
		args->value = sdev->version;
		break;
	case DRM_SIMT_PARAM_CAPS:
		args->value = sdev->caps;
		break;
	case DRM_SIMT_PARAM_SM_COUNT:
		args->value = sdev->sm_count;
		break;
	case DRM_SIMT_PARAM_VRAM_SIZE:
		args->value = sdev->vram_size;
		break;
	case DRM_SIMT_PARAM_IRQ_TEST_COUNT:
		args->value = simt_irq_count(sdev, SIMT_IRQ_TEST);
		break;
	case DRM_SIMT_PARAM_MAX_CONTEXTS:
		/* Each context owns a hardware context and a queue. */
		args->value = min(sdev->hw_ctx_count, sdev->hw_queue_count);
		break;
	case DRM_SIMT_PARAM_MAX_SUBMIT_CMDS:
		args->value = SIMT_MAX_SUBMIT_CMDS;
		break;
	case DRM_SIMT_PARAM_SM_BLOCKS:
		args->value = sdev->sm_blocks;
		break;
	case DRM_SIMT_PARAM_FIXED_VA_END:
		args->value = sdev->vram_guard;
		break;
	case DRM_SIMT_PARAM_CLOCK_MHZ:
		args->value = sdev->clock_mhz;
		break;
	case DRM_SIMT_PARAM_PRESET:
		args->value = sdev->preset;
		break;
	case DRM_SIMT_PARAM_CYCLE:
		args->value = simt_device_cycle(sdev);
		break;
	default:
		return -EINVAL;
	}

	return 0;
}
