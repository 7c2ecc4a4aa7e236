/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: debugfs (simt_debugfs.c).
 */
#ifndef __SIMT_DEBUGFS_H__
#define __SIMT_DEBUGFS_H__

struct simt_device;

void simt_debugfs_init(struct simt_device *sdev);

#endif /* __SIMT_DEBUGFS_H__ */
