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

/**
 * struct simt_job - A SUBMIT's job on its context's scheduler entity.
 * @base: the drm_sched job.
 * @ctx: the context; the job holds a reference, dropped by
 *	simt_job_free().
 * @seqno: the submission's sequence number in @ctx, set when the job is
 *	armed; the value its SIGNAL stores in the fence word.
 * @hw_fence: the hardware fence, allocated by SUBMIT and owned by the job
 *	until run_job hands it over to the scheduler (then NULL).
 * @cmds: the commands copied from SUBMIT, until run_job has written them
 *	into the ring and freed them (then NULL).
 * @cmd_count: number of commands in @cmds.
 * @bo_count: number of entries of @bos, twice @cmd_count.
 * @bos: for command i, the source and destination objects of a copy at
 *	2 * i and 2 * i + 1 (NULL for a launch), referenced until the job is
 *	freed, so that the device never copies to or from freed memory.
 */
struct simt_job {
	struct drm_sched_job base;
	struct simt_ctx *ctx;
	u64 seqno;
	struct simt_fence *hw_fence;
	struct drm_simt_cmd *cmds;
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
