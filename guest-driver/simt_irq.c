// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: interrupts.
 *
 * The device has one MSI-X vector per interrupt class: vector N signals
 * class N (simt-hw.h).  A class stays pending in SIMT_REG_IRQ_STATUS until
 * the driver writes its bit back (write one to clear), and the device sends
 * a new message only when a bit goes from clear to set, so each handler
 * acknowledges its own bit before doing anything else.  Vectors are not
 * shared, so every class has its own handler: queue completion, MMU
 * fault and queue error go to the fence code (simt_fence.c) in the vector's
 * interrupt thread, where signalling fences may wake their waiters and
 * run their callbacks; the test class wakes its waiter; DMA and
 * preemption have no consumer yet.
 */

#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/pci.h>

#include <drm/drm_print.h>

#include "simt_device.h"
#include "simt_fence.h"
#include "simt_irq.h"

static const char * const simt_irq_names[SIMT_IRQ_NR] = {
	[SIMT_IRQ_QUEUE]	= "queue",
	[SIMT_IRQ_DMA]		= "dma",
	[SIMT_IRQ_PREEMPT]	= "preempt",
	[SIMT_IRQ_MMU]		= "mmu",
	[SIMT_IRQ_ERROR]	= "error",
	[SIMT_IRQ_TEST]		= "test",
};

/**
 * simt_irq_class_name() - Name an interrupt class.
 * @cls: an interrupt class (SIMT_IRQ_*), or anything.
 *
 * Return: the class's name ("queue", "dma", ...), or "unknown".
 */
const char *simt_irq_class_name(unsigned int cls)
{
	if (cls >= SIMT_IRQ_NR || !simt_irq_names[cls])
		return "unknown";
	return simt_irq_names[cls];
}

/**
 * simt_irq_count() - Interrupts of one class handled so far.
 * @sdev: the device.
 * @cls: the interrupt class (SIMT_IRQ_*).
 *
 * Return: how many interrupts of @cls the hard handler acknowledged since
 * simt_irq_init(), 0 for a class that does not exist.
 */
u64 simt_irq_count(struct simt_device *sdev, unsigned int cls)
{
	if (cls >= SIMT_IRQ_NR)
		return 0;
	return atomic64_read(&sdev->irq[cls].count);
}

static irqreturn_t simt_irq_handler(int irq, void *arg)
{
	struct simt_irq_vec *vec = arg;
	struct simt_device *sdev = vec->sdev;
	u32 bit = SIMT_IRQ_BIT(vec->cls);
	u32 status;

	status = simt_rd32(sdev, SIMT_REG_IRQ_STATUS);
	if (status == U32_MAX || !(status & bit))
		return IRQ_NONE;	/* device gone, or not ours */

	simt_wr32(sdev, SIMT_REG_IRQ_STATUS, bit);
	atomic64_inc(&vec->count);

	switch (vec->cls) {
	case SIMT_IRQ_TEST:
		wake_up_all(&sdev->irq_test_wq);
		break;
	case SIMT_IRQ_QUEUE:
	case SIMT_IRQ_MMU:
	case SIMT_IRQ_ERROR:
		/*
		 * The bit is clear again, so a completion from now on sends
		 * a new message, and the thread runs once more for it.
		 */
		return IRQ_WAKE_THREAD;
	default:
		/* DMA and preemption events have no consumer yet. */
		break;
	}

	return IRQ_HANDLED;
}

static irqreturn_t simt_irq_thread(int irq, void *arg)
{
	struct simt_irq_vec *vec = arg;

	simt_fence_irq(vec->sdev, vec->cls);
	return IRQ_HANDLED;
}

static void simt_irq_release(struct simt_device *sdev)
{
	unsigned int i;

	for (i = 0; i < SIMT_IRQ_NR; i++) {
		if (sdev->irq[i].irq) {
			free_irq(sdev->irq[i].irq, &sdev->irq[i]);
			sdev->irq[i].irq = 0;
		}
	}
	pci_free_irq_vectors(sdev->pdev);
}

/**
 * simt_irq_init() - Set up the device's interrupts.
 * @sdev: the device, identified (its caps are read).
 *
 * Masks and clears every class, enables SIMT_IRQ_NR MSI-X vectors and
 * requests a threaded IRQ for each (the hard handler acknowledges, the
 * thread signals fences, simt_fence_irq()), then unmasks every class.
 * On failure what was requested is released again.
 *
 * Return: 0, -ENODEV if the device has no MSI-X, or another negative
 * errno from the PCI or IRQ core.
 */
int simt_irq_init(struct simt_device *sdev)
{
	struct pci_dev *pdev = sdev->pdev;
	unsigned int i;
	int nvec, irq, ret;

	if (!(sdev->caps & SIMT_CAP_MSIX)) {
		drm_err(&sdev->drm, "device does not report MSI-X (caps 0x%08x)\n",
			sdev->caps);
		return -ENODEV;
	}

	/* Start quiet: every class masked, nothing pending. */
	simt_wr32(sdev, SIMT_REG_IRQ_MASK, 0);
	simt_wr32(sdev, SIMT_REG_IRQ_STATUS, SIMT_IRQ_ALL);

	nvec = pci_alloc_irq_vectors(pdev, SIMT_IRQ_NR, SIMT_IRQ_NR, PCI_IRQ_MSIX);
	if (nvec < 0) {
		drm_err(&sdev->drm, "cannot enable %d MSI-X vectors: %d\n",
			SIMT_IRQ_NR, nvec);
		return nvec;
	}

	for (i = 0; i < SIMT_IRQ_NR; i++) {
		struct simt_irq_vec *vec = &sdev->irq[i];

		vec->sdev = sdev;
		vec->cls = i;
		atomic64_set(&vec->count, 0);
		snprintf(vec->name, sizeof(vec->name), "simt-%s@%s",
			 simt_irq_class_name(i), pci_name(pdev));

		irq = pci_irq_vector(pdev, i);
		if (irq < 0) {
			ret = irq;
			goto err_release;
		}
		ret = request_threaded_irq(irq, simt_irq_handler,
					   simt_irq_thread, 0, vec->name, vec);
		if (ret) {
			drm_err(&sdev->drm, "cannot request IRQ %d for %s: %d\n",
				irq, vec->name, ret);
			goto err_release;
		}
		vec->irq = irq;
	}

	sdev->irq_enabled = true;
	simt_wr32(sdev, SIMT_REG_IRQ_MASK, SIMT_IRQ_ALL);
	return 0;

err_release:
	simt_irq_release(sdev);
	return ret;
}

/**
 * simt_irq_restore() - Enable interrupts again after a device reset.
 * @sdev: the device.
 *
 * A device reset masks every class: clear what is pending and unmask
 * them all, unless interrupts are not (or no longer) set up.
 */
void simt_irq_restore(struct simt_device *sdev)
{
	if (!sdev->irq_enabled)
		return;
	simt_wr32(sdev, SIMT_REG_IRQ_STATUS, SIMT_IRQ_ALL);
	simt_wr32(sdev, SIMT_REG_IRQ_MASK, SIMT_IRQ_ALL);
}

/**
 * simt_irq_fini() - Tear down the device's interrupts.
 * @sdev: the device.
 *
 * Masks and clears every class, then frees the IRQs, which waits for
 * handlers and threads still running, and the vectors.  Does nothing if
 * interrupts are not set up, so it may be called twice.
 */
void simt_irq_fini(struct simt_device *sdev)
{
	if (!sdev->irq_enabled)
		return;

	simt_wr32(sdev, SIMT_REG_IRQ_MASK, 0);
	simt_wr32(sdev, SIMT_REG_IRQ_STATUS, SIMT_IRQ_ALL);
	sdev->irq_enabled = false;
	/* free_irq() waits for handlers still running on other CPUs. */
	simt_irq_release(sdev);
}

/**
 * simt_irq_test() - Ask the device for a test interrupt and wait for it.
 * @sdev: the device.
 *
 * Raises the test class and waits up to SIMT_IRQ_TEST_TIMEOUT_MS for its
 * handler to run; the latency (on success) and the result are kept in
 * @sdev for debugfs.  A bit still pending after a timeout is cleared, so
 * that it does not block the next test.
 *
 * Context: process context; takes &simt_device.irq_test_lock, one test at
 * a time, and sleeps.
 * Return: 0 on arrival, -ETIMEDOUT if none came in time, -ENODEV if
 * interrupts are not set up.
 */
int simt_irq_test(struct simt_device *sdev)
{
	struct simt_irq_vec *vec = &sdev->irq[SIMT_IRQ_TEST];
	u32 bit = SIMT_IRQ_BIT(SIMT_IRQ_TEST);
	ktime_t start;
	u64 before;
	long left;
	int ret = 0;

	if (!sdev->irq_enabled)
		return -ENODEV;

	mutex_lock(&sdev->irq_test_lock);
	before = atomic64_read(&vec->count);
	start = ktime_get();
	simt_wr32(sdev, SIMT_REG_IRQ_RAISE, bit);

	left = wait_event_timeout(sdev->irq_test_wq,
				  atomic64_read(&vec->count) != before,
				  msecs_to_jiffies(SIMT_IRQ_TEST_TIMEOUT_MS));
	if (!left) {
		drm_err(&sdev->drm,
			"test interrupt not received within %d ms (status 0x%08x, mask 0x%08x, device count %u)\n",
			SIMT_IRQ_TEST_TIMEOUT_MS,
			simt_rd32(sdev, SIMT_REG_IRQ_STATUS),
			simt_rd32(sdev, SIMT_REG_IRQ_MASK),
			simt_rd32(sdev, SIMT_REG_IRQ_COUNT));
		/* Do not let a late or stuck bit block the next test. */
		simt_wr32(sdev, SIMT_REG_IRQ_STATUS, bit);
		ret = -ETIMEDOUT;
	} else {
		sdev->irq_test_last_us = ktime_us_delta(ktime_get(), start);
	}
	sdev->irq_test_last_err = ret;
	mutex_unlock(&sdev->irq_test_lock);

	return ret;
}
