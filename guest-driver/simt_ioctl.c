// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: the driver's ioctl handlers (uapi/simt_accel.h).  The table that
 * dispatches to them is in simt_drv.c, next to the drm_driver.
 */

#include <linux/errno.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>

#include "simt_drv.h"
#include "uapi/simt_accel.h"

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
	default:
		return -EINVAL;
	}

	return 0;
}
