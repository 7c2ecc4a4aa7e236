// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: what goes with the data model of simt_device.h: the device's
 * cycle counter, its reset, the debug categories' mask and the work
 * queue of context releases.
 */

#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>

#include <drm/drm_managed.h>

#include "simt_device.h"

unsigned int simt_debug_mask = ~0u;
module_param_named(debug_mask, simt_debug_mask, uint, 0644);
MODULE_PARM_DESC(debug_mask,
		 "debug message categories: 1 objects, 2 contexts, 4 bindings, 8 SUBMIT/WAIT, 16 GET_PARAM (default: all; drm.debug=0x2 prints them)");

/* Context releases, which may run after the last file has gone (simt_ctx.c). */
struct workqueue_struct *simt_release_wq;

static void simt_wq_destroy(struct drm_device *drm, void *arg)
{
	destroy_workqueue(arg);
}

/* @wq (or NULL: -ENOMEM) goes with the DRM device. */
int simt_drmm_workqueue(struct simt_device *sdev, struct workqueue_struct *wq)
{
	if (!wq)
		return -ENOMEM;
	return drmm_add_action_or_reset(&sdev->drm, simt_wq_destroy, wq);
}

/* The device's cycle counter (the high word is latched by the low read). */
u64 simt_device_cycle(struct simt_device *sdev)
{
	u64 lo, hi;

	mutex_lock(&sdev->hw_lock);
	lo = simt_rd32(sdev, SIMT_REG_CYCLE_LO);
	hi = simt_rd32(sdev, SIMT_REG_CYCLE_HI);
	mutex_unlock(&sdev->hw_lock);
	return hi << 32 | lo;
}

/* Reset the device: queues, contexts, interrupts; VRAM keeps its contents. */
void simt_hw_reset(struct simt_device *sdev)
{
	simt_wr32(sdev, SIMT_REG_RESET, SIMT_RESET_MAGIC);
	/* Read back to make sure the reset has been posted. */
	simt_rd32(sdev, SIMT_REG_ID);
}
