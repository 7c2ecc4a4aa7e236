// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: device queries (include/uapi/drm/simt_accel.h).  The other
 * ioctls live with what they work on (simt_gem.c, simt_ctx.c,
 * simt_submit.c, simt_wait.c); the table that dispatches to them all is
 * in simt_drv.c, next to the drm_driver.
 */

#include <linux/capability.h>
#include <linux/errno.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_print.h>

#include "simt_ctx.h"
#include "simt_device.h"
#include "simt_ioctl.h"
#include "simt_irq.h"
#include "simt_preempt.h"
#include "uapi/drm/simt_accel.h"

/* The UAPI spells the device's numbers itself; they must agree. */
static_assert(DRM_SIMT_CAP_MSIX == SIMT_CAP_MSIX);
static_assert(DRM_SIMT_CAP_QUEUES == SIMT_CAP_QUEUES);
static_assert(DRM_SIMT_CAP_MMU == SIMT_CAP_MMU);
static_assert(DRM_SIMT_CAP_COPY == SIMT_CAP_COPY);
static_assert(DRM_SIMT_CAP_PREEMPT == SIMT_CAP_PREEMPT);
static_assert(DRM_SIMT_CAP_USER_QUEUES == SIMT_CAP_USER_QUEUES);
static_assert(DRM_SIMT_PRESET_DEFAULT == SIMT_PRESET_DEFAULT);
static_assert(DRM_SIMT_PRESET_GTX480 == SIMT_PRESET_GTX480);
static_assert(DRM_SIMT_PRESET_PASCAL5 == SIMT_PRESET_PASCAL5);
static_assert(DRM_SIMT_PRESET_VOLTA80 == SIMT_PRESET_VOLTA80);
static_assert(DRM_SIMT_PRESET_TURING68 == SIMT_PRESET_TURING68);
static_assert(DRM_SIMT_PRESET_AMPERE82 == SIMT_PRESET_AMPERE82);
static_assert(DRM_SIMT_PRESET_COUNT == SIMT_PRESET_NR);

/**
 * simt_get_param_ioctl() - DRM_IOCTL_SIMT_GET_PARAM: read one device or
 * driver parameter.
 * @drm: the DRM device.
 * @data: the &struct drm_simt_get_param; @data->value is filled in.
 * @file: the caller's file (unused).
 *
 * Most values were read from the device at probe.  DRM_SIMT_PARAM_CYCLE
 * reads the cycle counter now (simt_device_cycle(), so it takes
 * &simt_device.hw_lock); DRM_SIMT_PARAM_CONTEXTS and _BUSY_CONTEXTS count
 * every process's contexts (simt_device_load(), under
 * &simt_device.ctx_lock); DRM_SIMT_PARAM_USER_CONTEXTS is the caller's own
 * limit, all contexts for CAP_SYS_ADMIN.
 *
 * Return: 0, -EINVAL for a reserved field not zero or an unknown
 * parameter, or -ENODEV if the device has gone (for the cycle counter).
 */
int simt_get_param_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct simt_device *sdev = to_simt(drm);
	struct drm_simt_get_param *args = data;
	int idx;

	if (args->reserved) {
		simt_dbg(drm, PARAM, "GET_PARAM: reserved not zero\n");
		return -EINVAL;
	}

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
	case DRM_SIMT_PARAM_SM_THREADS:
		args->value = sdev->sm_threads;
		break;
	case DRM_SIMT_PARAM_SM_WARPS:
		args->value = sdev->sm_warps;
		break;
	case DRM_SIMT_PARAM_SM_REGS:
		args->value = sdev->sm_regs;
		break;
	case DRM_SIMT_PARAM_SM_SHARED:
		args->value = sdev->sm_shared;
		break;
	case DRM_SIMT_PARAM_CYCLE:
		if (!drm_dev_enter(drm, &idx))
			return -ENODEV;
		args->value = simt_device_cycle(sdev);
		drm_dev_exit(idx);
		break;
	case DRM_SIMT_PARAM_FILE_CONTEXTS:
		args->value = READ_ONCE(simt_file_contexts);
		break;
	case DRM_SIMT_PARAM_USER_CONTEXTS:
		args->value = capable(CAP_SYS_ADMIN) ?
			min(sdev->hw_ctx_count, sdev->hw_queue_count) :
			simt_user_context_limit(sdev);
		break;
	case DRM_SIMT_PARAM_CONTEXTS:
	case DRM_SIMT_PARAM_BUSY_CONTEXTS: {
		u32 contexts, busy;

		simt_device_load(sdev, &contexts, &busy);
		args->value = args->param == DRM_SIMT_PARAM_CONTEXTS ?
			      contexts : busy;
		break;
	}
	default:
		simt_dbg(drm, PARAM, "GET_PARAM: unknown parameter %u\n", args->param);
		return -EINVAL;
	}

	return 0;
}
