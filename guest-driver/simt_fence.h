/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: hardware fences and completion (simt_fence.c).
 */
#ifndef __SIMT_FENCE_H__
#define __SIMT_FENCE_H__

#include <linux/dma-fence.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct simt_ctx;
struct simt_device;

/**
 * struct simt_fence - The hardware fence of a job.
 * @base: the dma_fence; signalled by simt_ctx_signal() once the job's
 *	SIGNAL command has stored its seqno in the context's fence word, or
 *	with an error when the context stopped or went.
 * @link: entry in ctx->pending, under ctx->fence_lock, from
 *	simt_fence_publish() until the fence is signalled.
 * @first_slot: completion record slot of the job's first launch; its
 *	@launches launches use the following slots, modulo
 *	SIMT_RECORD_SLOTS.
 * @launches: number of LAUNCH commands of the job.
 * @bytes: bytes copied by the job's COPY commands, added to the
 *	statistics when it completes.
 */
struct simt_fence {
	struct dma_fence base;
	/**
	 * @lock: the lock of @base, one per fence rather than the context's,
	 * because a syncobj may keep the fence after the context is gone.
	 */
	spinlock_t lock;
	struct list_head link;
	u32 first_slot;
	u32 launches;
	u64 bytes;
};

const char *simt_fence_driver_name(struct dma_fence *fence);
int simt_error_errno(u32 error);
void simt_fence_publish(struct simt_ctx *ctx, struct simt_fence *fence,
			u64 seqno);
void simt_ctx_signal(struct simt_ctx *ctx, int cancel);
void simt_ctx_results_free(struct simt_ctx *ctx);
void simt_ctx_fail(struct simt_ctx *ctx, u32 error, u32 hw_error);
void simt_ctx_collect_error(struct simt_device *sdev, struct simt_ctx *ctx);
void simt_fence_irq(struct simt_device *sdev, unsigned int cls);
void simt_fence_device_gone(struct simt_device *sdev);

#endif /* __SIMT_FENCE_H__ */
