/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: jobs on the DRM GPU scheduler, and the ring (simt_sched.c).
 */
#ifndef __SIMT_SCHED_H__
#define __SIMT_SCHED_H__

#include <linux/types.h>

#include <drm/gpu_scheduler.h>

struct drm_gem_object;
struct drm_simt_cmd;
struct drm_simt_cmd_copy;
struct simt_ctx;
struct simt_device;
struct simt_fence;

struct simt_job {
	struct drm_sched_job base;
	struct simt_ctx *ctx;		/* holds a reference */
	u64 seqno;
	struct simt_fence *hw_fence;	/* until run_job hands it over */
	struct drm_simt_cmd *cmds;	/* until run_job has written them */
	u32 cmd_count;
	unsigned int bo_count;
	struct drm_gem_object *bos[] __counted_by(bo_count);
};

int simt_sched_init(struct simt_device *sdev);
void simt_sched_module_exit(void);
struct drm_gpu_scheduler *simt_queue_sched(struct simt_device *sdev, u32 q);
void simt_scheds_stop(struct simt_device *sdev, bool stop);
int simt_ctx_entity_init(struct simt_ctx *ctx);
int simt_copy_emit(struct simt_ctx *ctx, const struct drm_simt_cmd_copy *cmd,
		   struct drm_gem_object *src, struct drm_gem_object *dst,
		   u32 *n, u32 limit);
void simt_job_free(struct simt_job *job);

#endif /* __SIMT_SCHED_H__ */
