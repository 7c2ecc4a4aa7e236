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

/**
 * simt_drmm_workqueue() - Tie a work queue's life to the DRM device.
 * @sdev: the device.
 * @wq: a work queue just allocated, or NULL if its allocation failed.
 *
 * @wq is destroyed (which runs what is queued on it) when the last
 * reference to the DRM device goes; if that cannot be arranged it is
 * destroyed at once.
 *
 * Return: 0, or -ENOMEM if @wq is NULL or the action cannot be added.
 */
int simt_drmm_workqueue(struct simt_device *sdev, struct workqueue_struct *wq)
{
	if (!wq)
		return -ENOMEM;
	return drmm_add_action_or_reset(&sdev->drm, simt_wq_destroy, wq);
}

/**
 * simt_device_cycle() - Read the device's cycle counter.
 * @sdev: the device, which must be present (inside drm_dev_enter()).
 *
 * The high word is latched by the read of the low one, so the pair is
 * read under hw_lock.
 *
 * Context: process context; takes &simt_device.hw_lock.
 * Return: the 64-bit cycle count.
 */
u64 simt_device_cycle(struct simt_device *sdev)
{
	u64 lo, hi;

	mutex_lock(&sdev->hw_lock);
	lo = simt_rd32(sdev, SIMT_REG_CYCLE_LO);
	hi = simt_rd32(sdev, SIMT_REG_CYCLE_HI);
	mutex_unlock(&sdev->hw_lock);
	return hi << 32 | lo;
}

/**
 * simt_hw_reset() - Reset the device.
 * @sdev: the device.
 *
 * Resets queues, contexts and interrupts (every class masked); VRAM keeps
 * its contents.  The reset is posted before this returns.  The caller
 * makes sure nothing is using the device: at probe, at remove, or a
 * recovery under &simt_device.reset_sem held for writing.
 */
void simt_hw_reset(struct simt_device *sdev)
{
	simt_wr32(sdev, SIMT_REG_RESET, SIMT_RESET_MAGIC);
	/* Read back to make sure the reset has been posted. */
	simt_rd32(sdev, SIMT_REG_ID);
}
