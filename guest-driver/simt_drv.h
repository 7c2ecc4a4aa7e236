/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: DRM accel driver for the simt emulated SIMT accelerator.
 *
 * Device-wide state shared by the driver's parts.  Later parts (GEM objects,
 * contexts, job submission, the scheduler) add their state here and their
 * init/fini calls to simt_probe()/simt_remove().
 */
#ifndef __SIMT_DRV_H__
#define __SIMT_DRV_H__

#include <linux/atomic.h>
#include <linux/io.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/types.h>
#include <linux/wait.h>

#include <drm/drm_device.h>

#include "hw/simt/simt-hw.h"

#define SIMT_DRIVER_NAME	"simt"
#define SIMT_DRIVER_DESC	"simt SIMT accelerator"
#define SIMT_DRIVER_MAJOR	0
#define SIMT_DRIVER_MINOR	1

/* How long the driver waits for the test interrupt before giving up. */
#define SIMT_IRQ_TEST_TIMEOUT_MS	2000

struct simt_device;

/* One MSI-X vector, serving one interrupt class. */
struct simt_irq_vec {
	struct simt_device *sdev;
	unsigned int cls;
	int irq;		/* Linux IRQ number, 0 when not requested */
	atomic64_t count;	/* interrupts of this class handled */
	char name[32];
};

struct simt_device {
	struct drm_device drm;
	struct pci_dev *pdev;
	void __iomem *regs;		/* BAR0 */

	/* Identification, read once at probe. */
	u32 version;
	u32 caps;
	u32 sm_count;
	u64 vram_size;			/* as reported by the device */
	resource_size_t vram_bar_size;	/* BAR2 length */

	/* Interrupts (simt_irq.c). */
	struct simt_irq_vec irq[SIMT_IRQ_NR];
	bool irq_enabled;
	wait_queue_head_t irq_test_wq;
	struct mutex irq_test_lock;	/* one test interrupt in flight */
	u64 irq_test_last_us;		/* latency of the last test */
	int irq_test_last_err;		/* 0 or -errno of the last test */
};

static inline struct simt_device *to_simt(struct drm_device *drm)
{
	return container_of(drm, struct simt_device, drm);
}

static inline u32 simt_rd32(struct simt_device *sdev, u32 reg)
{
	return readl(sdev->regs + reg);
}

static inline void simt_wr32(struct simt_device *sdev, u32 reg, u32 val)
{
	writel(val, sdev->regs + reg);
}

/* simt_irq.c */
int simt_irq_init(struct simt_device *sdev);
void simt_irq_fini(struct simt_device *sdev);
int simt_irq_test(struct simt_device *sdev);
u64 simt_irq_count(struct simt_device *sdev, unsigned int cls);
const char *simt_irq_class_name(unsigned int cls);

/* simt_ioctl.c */
struct drm_file;
int simt_get_param_ioctl(struct drm_device *drm, void *data,
			 struct drm_file *file);

/* simt_debugfs.c */
void simt_debugfs_init(struct simt_device *sdev);

/* simt_sysfs.c */
extern const struct attribute_group *simt_dev_groups[];

#endif /* __SIMT_DRV_H__ */
