// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: a context's hardware context and queue registers: programmed at
 * creation (simt_ctx.c) and again after a device reset
 * (simt_recover.c), stopped when the context closes or hangs.
 */

#include <drm/drm_print.h>

#include "simt_device.h"
#include "simt_hwq.h"
#include "simt_mmu.h"
#include "simt_preempt.h"

void simt_ctx_stop_queue(struct simt_device *sdev, u32 q)
{
	/* Clearing ENABLE stops the queue at once, copies and kernels too. */
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_CONTROL), 0);
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_CONTROL), SIMT_QCTL_RESET);
}

/*
 * Program the hardware context and queue of @ctx: at creation, and again
 * after a device reset (simt_recover.c).  The queue starts empty, at ring
 * entry 0.
 */
int simt_ctx_hw_init(struct simt_ctx *ctx)
{
	struct simt_device *sdev = ctx->sdev;
	u32 c = ctx->hw_ctx, q = ctx->hw_queue, st;

	simt_wr32(sdev, SIMT_CTX_REG(c, SIMT_CREG_FAULT), SIMT_CFAULT_VALID);
	simt_wr32(sdev, SIMT_CTX_REG(c, SIMT_CREG_PRIORITY), ctx->priority);
	simt_wr32(sdev, SIMT_CTX_REG(c, SIMT_CREG_PT),
		  SIMT_PT_SV32 | (u32)(ctx->pt_root.start >> SIMT_PAGE_SHIFT));
	simt_tlb_inv_ctx(sdev, c);
	if (sdev->caps & SIMT_CAP_PREEMPT) {
		simt_preempt_hw_params(sdev);
		simt_wr32(sdev, SIMT_CTX_REG(c, SIMT_CREG_PREEMPT_MODE),
			  simt_preempt_hw_mode(ctx->preempt_mode));
		simt_wr32(sdev, SIMT_CTX_REG(c, SIMT_CREG_SAVE_BASE),
			  ctx->save_va.start);
		simt_wr32(sdev, SIMT_CTX_REG(c, SIMT_CREG_SAVE_SIZE),
			  ctx->save_va.size);
	}

	simt_ctx_stop_queue(sdev, q);
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_BASE_LO),
		  lower_32_bits(ctx->ring_dma));
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_BASE_HI),
		  upper_32_bits(ctx->ring_dma));
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_SIZE), SIMT_RING_ENTRIES);
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_PRIORITY), ctx->priority);
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_CONTEXT), c);
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_CONTROL), SIMT_QCTL_ENABLE);

	st = simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_STATUS));
	if (SIMT_QSTATUS_STATE(st) != SIMT_QSTATE_IDLE) {
		drm_err(&sdev->drm, "queue %u did not start: status 0x%08x\n",
			q, st);
		simt_ctx_stop_queue(sdev, q);
		return -EIO;
	}
	return 0;
}
