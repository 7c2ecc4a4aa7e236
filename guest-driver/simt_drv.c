// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: DRM accel driver for the simt emulated SIMT accelerator.
 *
 * The PCI front end: probe identifies the device from its BAR0 registers,
 * refuses anything whose identification or version it does not know, sets
 * up one MSI-X vector per interrupt class, proves that interrupts arrive
 * with the device's test interrupt, then registers the accel device node
 * (/dev/accel/accelN).  Remove undoes it in reverse order.
 */

#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "simt_ctx.h"
#include "simt_debugfs.h"
#include "simt_device.h"
#include "simt_fair.h"
#include "simt_fence.h"
#include "simt_gem.h"
#include "simt_ioctl.h"
#include "simt_irq.h"
#include "simt_move.h"
#include "simt_preempt.h"
#include "simt_recover.h"
#include "simt_sched.h"
#include "simt_submit.h"
#include "simt_sysfs.h"
#include "simt_userq.h"
#include "simt_vram.h"
#include "uapi/drm/simt_accel.h"

/* DRM_ACCEL_FOPS but for mmap, which maps doorbells too (simt_userq.c). */
static const struct file_operations simt_accel_fops = {
	.owner		= THIS_MODULE,
	.open		= accel_open,
	.release	= drm_release,
	.unlocked_ioctl	= drm_ioctl,
	.compat_ioctl	= drm_compat_ioctl,
	.poll		= drm_poll,
	.read		= drm_read,
	.llseek		= noop_llseek,
	.mmap		= simt_mmap,
	.fop_flags	= FOP_UNSIGNED_OFFSET,
	.show_fdinfo	= drm_show_fdinfo,
};

static const struct drm_ioctl_desc simt_drm_ioctls[] = {
	DRM_IOCTL_DEF_DRV(SIMT_GET_PARAM, simt_get_param_ioctl, 0),
	DRM_IOCTL_DEF_DRV(SIMT_BO_CREATE, simt_bo_create_ioctl, 0),
	DRM_IOCTL_DEF_DRV(SIMT_BO_MMAP_OFFSET, simt_bo_mmap_offset_ioctl, 0),
	DRM_IOCTL_DEF_DRV(SIMT_BO_INFO, simt_bo_info_ioctl, 0),
	DRM_IOCTL_DEF_DRV(SIMT_CONTEXT_CREATE, simt_context_create_ioctl, 0),
	DRM_IOCTL_DEF_DRV(SIMT_CONTEXT_DESTROY, simt_context_destroy_ioctl, 0),
	DRM_IOCTL_DEF_DRV(SIMT_VM_BIND, simt_vm_bind_ioctl, 0),
	DRM_IOCTL_DEF_DRV(SIMT_VM_UNBIND, simt_vm_unbind_ioctl, 0),
	DRM_IOCTL_DEF_DRV(SIMT_SUBMIT, simt_submit_ioctl, 0),
	DRM_IOCTL_DEF_DRV(SIMT_WAIT, simt_wait_ioctl, 0),
	DRM_IOCTL_DEF_DRV(SIMT_USERQ_CREATE, simt_userq_create_ioctl, 0),
	DRM_IOCTL_DEF_DRV(SIMT_USERQ_WAIT, simt_userq_wait_ioctl, 0),
};

static int simt_open(struct drm_device *drm, struct drm_file *file)
{
	struct simt_file *sfile;

	sfile = kzalloc(sizeof(*sfile), GFP_KERNEL);
	if (!sfile)
		return -ENOMEM;
	sfile->sdev = to_simt(drm);
	atomic_set(&sfile->context_count, 0);
	/* Context id 0 is never handed out, so a zeroed struct names none. */
	xa_init_flags(&sfile->contexts, XA_FLAGS_ALLOC1);
	file->driver_priv = sfile;
	return 0;
}

/*
 * The DRM core has already dropped the file's object handles; contexts
 * hold their own references on what they use, so they go last.
 */
static void simt_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct simt_file *sfile = file->driver_priv;

	simt_ctx_close_file(sfile);
	kfree(sfile);
}

/* Cycles of the device clock as ns. */
static u64 simt_cycles_ns(struct simt_device *sdev, u64 cycles)
{
	return sdev->clock_mhz ? div_u64(cycles * 1000, sdev->clock_mhz) : 0;
}

/*
 * Per-process usage in the kernel's drm-usage-stats format
 * (Documentation/gpu/drm-usage-stats.rst): the DRM core prints drm-driver,
 * drm-client-id and drm-pdev first.  An engine's time is the device time
 * in which it worked for the file's contexts, open and closed: compute,
 * the slices in which a kernel had blocks on SMs (not those it spent
 * preempted or queued behind others); copy, those in which a copy
 * engine moved one of its copies (simt_hwq.c).
 */
static void simt_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct simt_device *sdev = to_simt(file->minor->dev);
	struct simt_file *sfile = file->driver_priv;
	u64 kernel, copy;

	simt_ctx_usage_update_file(sfile);
	kernel = atomic64_read(&sfile->usage.kernel_cycles);
	copy = atomic64_read(&sfile->usage.copy_cycles);

	drm_printf(p, "drm-engine-compute:\t%llu ns\n",
		   simt_cycles_ns(sdev, kernel));
	drm_printf(p, "drm-cycles-compute:\t%llu\n", kernel);
	drm_printf(p, "drm-maxfreq-compute:\t%u MHz\n", sdev->clock_mhz);
	drm_printf(p, "drm-engine-copy:\t%llu ns\n", simt_cycles_ns(sdev, copy));
	drm_printf(p, "drm-cycles-copy:\t%llu\n", copy);
	drm_printf(p, "drm-maxfreq-copy:\t%u MHz\n", sdev->clock_mhz);
	simt_gem_show_fdinfo(p, file);
	drm_printf(p, "simt-contexts:\t%u\n",
		   atomic_read(&sfile->context_count));
}

static const struct drm_driver simt_drm_driver = {
	.driver_features	= DRIVER_COMPUTE_ACCEL | DRIVER_GEM |
				  DRIVER_SYNCOBJ | DRIVER_SYNCOBJ_TIMELINE,
	.open			= simt_open,
	.postclose		= simt_postclose,
	.show_fdinfo		= simt_show_fdinfo,
	.gem_create_object	= simt_gem_create_object,
	.fops			= &simt_accel_fops,
	.ioctls			= simt_drm_ioctls,
	.num_ioctls		= ARRAY_SIZE(simt_drm_ioctls),
	.name			= SIMT_DRIVER_NAME,
	.desc			= SIMT_DRIVER_DESC,
	/* Still in 6.12's drm_driver ("unused, to be removed"). */
	.date			= "20261122",
	.major			= DRM_SIMT_UAPI_MAJOR,
	.minor			= DRM_SIMT_UAPI_MINOR,
};

static int simt_identify(struct simt_device *sdev)
{
	struct device *dev = &sdev->pdev->dev;
	u32 id, major, minor;

	id = simt_rd32(sdev, SIMT_REG_ID);
	if (id != SIMT_ID_MAGIC) {
		dev_err(dev, "identification register is 0x%08x, expected 0x%08x: not a simt device, not binding\n",
			id, SIMT_ID_MAGIC);
		return -ENODEV;
	}

	sdev->version = simt_rd32(sdev, SIMT_REG_VERSION);
	major = SIMT_VERSION_GET_MAJOR(sdev->version);
	minor = SIMT_VERSION_GET_MINOR(sdev->version);
	/* Version 0.6 has the queues' KERNEL_CYCLES and COPY_CYCLES (fdinfo). */
	if (major != SIMT_VERSION_MAJOR || minor < SIMT_VERSION_MINOR) {
		dev_err(dev, "device version %u.%u is not supported (driver needs %u.%u or a later %u.x), not binding\n",
			major, minor, SIMT_VERSION_MAJOR, SIMT_VERSION_MINOR,
			SIMT_VERSION_MAJOR);
		return -ENODEV;
	}

	sdev->caps = simt_rd32(sdev, SIMT_REG_CAPS);
	sdev->sm_count = simt_rd32(sdev, SIMT_REG_SM_COUNT);
	sdev->vram_size = simt_rd32(sdev, SIMT_REG_VRAM_SIZE_LO) |
			  (u64)simt_rd32(sdev, SIMT_REG_VRAM_SIZE_HI) << 32;
	sdev->vram_bar_size = pci_resource_len(sdev->pdev, SIMT_BAR_VRAM);
	sdev->sm_blocks = simt_rd32(sdev, SIMT_REG_SM_BLOCKS);
	sdev->sm_warps = simt_rd32(sdev, SIMT_REG_SM_WARPS);
	sdev->sm_threads = simt_rd32(sdev, SIMT_REG_SM_THREADS);
	sdev->sm_shared = simt_rd32(sdev, SIMT_REG_SM_SHARED);
	sdev->sm_regs = simt_rd32(sdev, SIMT_REG_SM_REGS);
	sdev->clock_mhz = simt_rd32(sdev, SIMT_REG_CLOCK_MHZ);
	sdev->copy_bw = simt_rd32(sdev, SIMT_REG_COPY_BW);
	sdev->preset = simt_rd32(sdev, SIMT_REG_PRESET);
	/*
	 * The driver's bitmaps hold one word of slots.  The last context and
	 * queue are the move queue's (simt_move.c), not counted here.
	 */
	sdev->hw_ctx_count = min3(simt_rd32(sdev, SIMT_REG_CONTEXT_COUNT),
				  (u32)SIMT_MAX_CONTEXTS, (u32)BITS_PER_LONG);
	sdev->hw_queue_count = min_t(u32, simt_rd32(sdev, SIMT_REG_QUEUE_COUNT),
				     SIMT_MAX_QUEUES);

	if (!sdev->sm_count) {
		dev_err(dev, "device reports no SMs, not binding\n");
		return -ENODEV;
	}
	if (!(sdev->caps & SIMT_CAP_QUEUES) || !(sdev->caps & SIMT_CAP_MMU) ||
	    !(sdev->caps & SIMT_CAP_COPY) || sdev->hw_ctx_count < 2 ||
	    sdev->hw_queue_count < 2 || !sdev->copy_bw) {
		dev_err(dev, "device lacks queues, contexts or copy engines (caps 0x%08x, %u contexts, %u queues; the driver needs two of each), not binding\n",
			sdev->caps, sdev->hw_ctx_count, sdev->hw_queue_count);
		return -ENODEV;
	}
	sdev->hw_ctx_count--;
	sdev->hw_queue_count--;
	if (sdev->vram_bar_size < sdev->vram_size)
		dev_warn(dev, "VRAM BAR%d is %pa bytes, smaller than the %llu bytes of VRAM\n",
			 SIMT_BAR_VRAM, &sdev->vram_bar_size, sdev->vram_size);

	dev_info(dev, "simt device version %u.%u, %u SMs, %llu MiB VRAM, caps 0x%08x\n",
		 major, minor, sdev->sm_count, sdev->vram_size / SZ_1M, sdev->caps);
	return 0;
}

static int simt_probe(struct pci_dev *pdev, const struct pci_device_id *ent)
{
	struct device *dev = &pdev->dev;
	struct simt_device *sdev;
	int ret;

	sdev = devm_drm_dev_alloc(dev, &simt_drm_driver, struct simt_device, drm);
	if (IS_ERR(sdev))
		return PTR_ERR(sdev);

	sdev->pdev = pdev;
	pci_set_drvdata(pdev, sdev);
	init_waitqueue_head(&sdev->irq_test_wq);
	spin_lock_init(&sdev->ctx_lock);
	ret = simt_recover_init(sdev);
	if (ret)
		return ret;
	ret = drmm_mutex_init(&sdev->drm, &sdev->irq_test_lock);
	if (ret)
		return ret;
	ret = drmm_mutex_init(&sdev->drm, &sdev->hw_lock);
	if (ret)
		return ret;
	ret = drmm_mutex_init(&sdev->drm, &sdev->dma_lock);
	if (ret)
		return ret;
	INIT_LIST_HEAD(&sdev->sys_bos);
	INIT_LIST_HEAD(&sdev->dma_ctxs);

	ret = pcim_enable_device(pdev);
	if (ret) {
		dev_err(dev, "cannot enable the PCI device: %d\n", ret);
		return ret;
	}

	if (pci_resource_len(pdev, SIMT_BAR_REGS) < SIMT_REGS_SIZE) {
		dev_err(dev, "register BAR%d is too small (%llu bytes)\n",
			SIMT_BAR_REGS,
			(unsigned long long)pci_resource_len(pdev, SIMT_BAR_REGS));
		return -ENODEV;
	}
	sdev->regs = pcim_iomap_region(pdev, SIMT_BAR_REGS, SIMT_DRIVER_NAME);
	if (IS_ERR(sdev->regs)) {
		ret = PTR_ERR(sdev->regs);
		dev_err(dev, "cannot map register BAR%d: %d\n", SIMT_BAR_REGS, ret);
		return ret;
	}

	ret = simt_identify(sdev);
	if (ret)
		return ret;

	ret = simt_sched_init(sdev);
	if (ret)
		return ret;

	ret = simt_vram_init(sdev);
	if (ret)
		return ret;

	/* MSI-X messages are memory writes: the device must be a bus master. */
	pci_set_master(pdev);
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret) {
		dev_err(dev, "cannot set the DMA mask: %d\n", ret);
		return ret;
	}
	/*
	 * A segment of any length will do: copies are cut where a segment
	 * ends, and bindings map it page by page.  (The default, 64 KiB, is
	 * what DMA-API debugging holds shmem's larger segments against.)
	 */
	dma_set_max_seg_size(dev, UINT_MAX);

	simt_hw_reset(sdev);

	ret = simt_preempt_init(sdev);
	if (ret)
		return ret;

	ret = simt_irq_init(sdev);
	if (ret)
		return ret;

	ret = simt_irq_test(sdev);
	if (ret) {
		dev_err(dev, "test interrupt failed (%d): interrupts do not work, not binding\n",
			ret);
		goto err_irq;
	}
	dev_info(dev, "test interrupt received on MSI-X vector %d in %llu us\n",
		 SIMT_IRQ_TEST, sdev->irq_test_last_us);

	ret = simt_move_init(sdev);
	if (ret)
		goto err_irq;

	simt_debugfs_init(sdev);

	ret = drm_dev_register(&sdev->drm, 0);
	if (ret) {
		dev_err(dev, "cannot register the DRM device: %d\n", ret);
		goto err_irq;
	}
	simt_fair_init(sdev);
	return 0;

err_irq:
	simt_irq_fini(sdev);
	return ret;
}

/*
 * Nothing may stay mapped for a device that has gone (DMA-API debugging
 * says so at unbind), but open files keep objects and contexts: unmap
 * and free what they had mapped for it.  Every ioctl that maps or reads
 * those mappings runs inside drm_dev_enter(), so none does any more.
 */
static void simt_dma_unplug(struct simt_device *sdev)
{
	mutex_lock(&sdev->dma_lock);
	simt_gem_unplug(sdev);
	simt_vram_unplug(sdev);
	simt_ctx_unplug(sdev);
	mutex_unlock(&sdev->dma_lock);
}

static void simt_remove(struct pci_dev *pdev)
{
	struct simt_device *sdev = pci_get_drvdata(pdev);

	/*
	 * Close the door first: once unplugged, open files and debugfs
	 * entries that outlive us see the device as gone (drm_dev_enter()
	 * fails) and no longer touch the hardware, and drm_dev_unplug() has
	 * zapped every CPU mapping of an object, so that a VRAM object's
	 * next touch faults and gets SIGBUS, not BAR2.  Then quiet the device
	 * (no queue runs, no DMA, no interrupt) before any fence is
	 * signalled, so that memory freed by a waiter is not written to.
	 */
	drm_dev_unplug(&sdev->drm);
	simt_irq_fini(sdev);
	simt_hw_reset(sdev);
	simt_fair_fini(sdev);
	simt_recover_fini(sdev);
	simt_fence_device_gone(sdev);
	simt_dma_unplug(sdev);
}

static void simt_shutdown(struct pci_dev *pdev)
{
	struct simt_device *sdev = pci_get_drvdata(pdev);

	if (sdev)
		simt_wr32(sdev, SIMT_REG_IRQ_MASK, 0);
}

static const struct pci_device_id simt_pci_ids[] = {
	{ PCI_DEVICE(SIMT_PCI_VENDOR_ID, SIMT_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, simt_pci_ids);

static struct pci_driver simt_pci_driver = {
	.name		= SIMT_DRIVER_NAME,
	.id_table	= simt_pci_ids,
	.probe		= simt_probe,
	.remove		= simt_remove,
	.shutdown	= simt_shutdown,
	.dev_groups	= simt_dev_groups,
};

static int __init simt_init(void)
{
	int ret;

	simt_release_wq = alloc_workqueue("simt-release", WQ_UNBOUND, 0);
	if (!simt_release_wq)
		return -ENOMEM;
	ret = pci_register_driver(&simt_pci_driver);
	if (ret)
		destroy_workqueue(simt_release_wq);
	return ret;
}

static void __exit simt_exit(void)
{
	pci_unregister_driver(&simt_pci_driver);
	/* Runs what is queued: no release may outlive the module's code. */
	destroy_workqueue(simt_release_wq);
	simt_sched_module_exit();
}

module_init(simt_init);
module_exit(simt_exit);

MODULE_DESCRIPTION("DRM accel driver for the simt SIMT accelerator");
MODULE_LICENSE("GPL");
