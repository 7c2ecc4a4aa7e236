/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: sysfs attributes of the PCI device (simt_sysfs.c).
 */
#ifndef __SIMT_SYSFS_H__
#define __SIMT_SYSFS_H__

struct attribute_group;

extern const struct attribute_group *simt_dev_groups[];

#endif /* __SIMT_SYSFS_H__ */
