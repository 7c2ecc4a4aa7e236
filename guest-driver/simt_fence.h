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

/* The hardware fence of a job: signalled when its SIGNAL command ran. */
struct simt_fence {
	struct dma_fence base;
	spinlock_t lock;		/* a syncobj may outlive the context */
	struct list_head link;		/* ctx->pending */
	u32 first_slot;			/* its launches' record slots */
	u32 launches;
	u64 bytes;			/* copied by its commands */
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
