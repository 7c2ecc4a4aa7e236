/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: the preemption policy and its rings (simt_preempt.c).
 */
#ifndef __SIMT_PREEMPT_H__
#define __SIMT_PREEMPT_H__

#include <linux/types.h>

struct dentry;
struct simt_device;

/* Local memory per thread a save area has room for. */
#define SIMT_SAVE_LOCAL_PER_THREAD	256
int simt_preempt_init(struct simt_device *sdev);
void simt_preempt_hw_init(struct simt_device *sdev);
void simt_preempt_hw_params(struct simt_device *sdev);
u32 simt_preempt_hw_mode(u32 mode);
u64 simt_preempt_save_area_size(struct simt_device *sdev);
void simt_preempt_debugfs_init(struct simt_device *sdev, struct dentry *root);

#endif /* __SIMT_PREEMPT_H__ */
