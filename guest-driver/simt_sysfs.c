// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: sysfs attributes of the PCI device, in a "simt" group
 * (/sys/bus/pci/devices/<address>/simt/), one value per file:
 *
 *   version         device version, "major.minor"
 *   caps            capability bits, hex
 *   sm_count        number of SMs
 *   vram_size       VRAM bytes
 *   irq_test_count  test interrupts handled by the driver
 *   resets          device resets the driver made to recover from hangs
 *   queue_stops     hung queues stopped on their own, without a reset
 *   timeouts        submissions declared hung (job_timeout_ms)
 *
 * (debugfs "stats" has these and the other counters, for root only.)
 *
 * The driver core creates them after probe succeeds and removes them
 * before remove runs, so they never see a half-initialised device.
 */

#include <linux/device.h>
#include <linux/pci.h>
#include <linux/sysfs.h>

#include "simt_device.h"
#include "simt_irq.h"
#include "simt_sysfs.h"

static struct simt_device *dev_to_simt(struct device *dev)
{
	return pci_get_drvdata(to_pci_dev(dev));
}

static ssize_t version_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct simt_device *sdev = dev_to_simt(dev);

	return sysfs_emit(buf, "%u.%u\n", SIMT_VERSION_GET_MAJOR(sdev->version),
			  SIMT_VERSION_GET_MINOR(sdev->version));
}
static DEVICE_ATTR_RO(version);

static ssize_t caps_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "0x%08x\n", dev_to_simt(dev)->caps);
}
static DEVICE_ATTR_RO(caps);

static ssize_t sm_count_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_simt(dev)->sm_count);
}
static DEVICE_ATTR_RO(sm_count);

static ssize_t vram_size_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "%llu\n", dev_to_simt(dev)->vram_size);
}
static DEVICE_ATTR_RO(vram_size);

static ssize_t irq_test_count_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  simt_irq_count(dev_to_simt(dev), SIMT_IRQ_TEST));
}
static DEVICE_ATTR_RO(irq_test_count);

static ssize_t resets_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&dev_to_simt(dev)->stats.resets));
}
static DEVICE_ATTR_RO(resets);

static ssize_t queue_stops_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&dev_to_simt(dev)->stats.queue_stops));
}
static DEVICE_ATTR_RO(queue_stops);

static ssize_t timeouts_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&dev_to_simt(dev)->stats.timeouts));
}
static DEVICE_ATTR_RO(timeouts);

static struct attribute *simt_attrs[] = {
	&dev_attr_version.attr,
	&dev_attr_caps.attr,
	&dev_attr_sm_count.attr,
	&dev_attr_vram_size.attr,
	&dev_attr_irq_test_count.attr,
	&dev_attr_resets.attr,
	&dev_attr_queue_stops.attr,
	&dev_attr_timeouts.attr,
	NULL
};

static const struct attribute_group simt_attr_group = {
	.name	= "simt",
	.attrs	= simt_attrs,
};

/* The PCI driver's dev_groups: the "simt" group above. */
const struct attribute_group *simt_dev_groups[] = {
	&simt_attr_group,
	NULL
};
