// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: a context's hardware context and queue registers: programmed at
 * creation (simt_ctx.c) and again after a device reset
 * (simt_recover.c), stopped when the context closes or hangs.
 *
 * The queue's KERNEL_CYCLES and COPY_CYCLES are the context's engine
 * time (fdinfo).  They are 32 bits and wrap, so the driver adds what
 * they grew by since its last look to 64-bit totals: the watchdog looks
 * at least every SIMT_WATCHDOG_PERIOD_MS while the queue has work (the
 * counters stand still otherwise), fdinfo when it is read, and a last
 * look comes before anything sets them to 0 (RESET, a device reset).
 * Whoever looks holds reset_sem or runs on tdr_wq, so no device reset
 * comes between reading a counter and noting what it read.
 */

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "simt_device.h"
#include "simt_hwq.h"
#include "simt_mmu.h"
#include "simt_preempt.h"

/* Add what @ctx's queue counted since the last look to the file's usage. */
static void simt_usage_add(struct simt_ctx *ctx)
{
	struct simt_device *sdev = ctx->sdev;
	u32 q = ctx->hw_queue, kernel, copy;

	lockdep_assert_held(&ctx->usage_lock);
	if (ctx->usage_gone)
		return;
	kernel = simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_KERNEL_CYCLES));
	copy = simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_COPY_CYCLES));
	atomic64_add((u32)(kernel - ctx->kernel_seen),
		     &ctx->usage->kernel_cycles);
	atomic64_add((u32)(copy - ctx->copy_seen), &ctx->usage->copy_cycles);
	ctx->kernel_seen = kernel;
	ctx->copy_seen = copy;
}

/**
 * simt_ctx_usage_update() - Add what a context's queue counted since the
 * last look to its file's usage.
 * @ctx: the context.
 *
 * Nothing is read once the device has gone or the queue was given back.
 *
 * Context: caller holds &simt_device.reset_sem or runs on tdr_wq; takes
 * &simt_ctx.usage_lock.
 */
void simt_ctx_usage_update(struct simt_ctx *ctx)
{
	int idx;

	if (!drm_dev_enter(&ctx->sdev->drm, &idx))
		return;
	spin_lock(&ctx->usage_lock);
	simt_usage_add(ctx);
	spin_unlock(&ctx->usage_lock);
	drm_dev_exit(idx);
}

/**
 * simt_ctx_usage_restart() - Note a context's queue counters before they
 * are set to 0.
 * @ctx: the context, whose queue is stopped.
 *
 * As simt_ctx_usage_update(), before a queue RESET or a device reset sets
 * the counters to 0; the next look counts from 0.  The caller makes sure
 * the device is present.
 *
 * Context: caller holds &simt_device.reset_sem; takes
 * &simt_ctx.usage_lock (in recovery, under &simt_device.ctx_lock).
 */
void simt_ctx_usage_restart(struct simt_ctx *ctx)
{
	spin_lock(&ctx->usage_lock);
	simt_usage_add(ctx);
	ctx->kernel_seen = 0;
	ctx->copy_seen = 0;
	spin_unlock(&ctx->usage_lock);
}

/**
 * simt_ctx_stop_queue() - Stop a context's queue and empty it.
 * @ctx: the context.
 *
 * Clears ENABLE, notes the counters (simt_ctx_usage_restart()) and resets
 * the queue: HEAD and TAIL go back to 0, its error and counters are
 * cleared.
 *
 * Context: caller holds &simt_device.reset_sem, inside drm_dev_enter();
 * takes &simt_ctx.usage_lock.
 */
void simt_ctx_stop_queue(struct simt_ctx *ctx)
{
	struct simt_device *sdev = ctx->sdev;
	u32 q = ctx->hw_queue;

	/*
	 * Clearing ENABLE stops the queue at once, copies and kernels too,
	 * and so its counters, which RESET then sets to 0.
	 */
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_CONTROL), 0);
	simt_ctx_usage_restart(ctx);
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_CONTROL), SIMT_QCTL_RESET);
}

/**
 * simt_ctx_hw_fini() - A context closes: stop its queue and its hardware
 * context.
 * @ctx: the context, closed.
 *
 * The queue is stopped, with a last look at its counters, and is given
 * back (no more looks); the hardware context loses its page table and
 * its TLB entries, and a pending fault is cleared.
 *
 * Context: caller holds &simt_device.reset_sem for reading, inside
 * drm_dev_enter(); takes &simt_ctx.usage_lock and &simt_device.hw_lock.
 */
void simt_ctx_hw_fini(struct simt_ctx *ctx)
{
	struct simt_device *sdev = ctx->sdev;

	simt_ctx_stop_queue(ctx);
	spin_lock(&ctx->usage_lock);
	ctx->usage_gone = true;
	spin_unlock(&ctx->usage_lock);
	simt_wr32(sdev, SIMT_CTX_REG(ctx->hw_ctx, SIMT_CREG_PT), 0);
	simt_wr32(sdev, SIMT_CTX_REG(ctx->hw_ctx, SIMT_CREG_FAULT),
		  SIMT_CFAULT_VALID);
	simt_tlb_inv_ctx(sdev, ctx->hw_ctx);
}

/**
 * simt_ctx_hw_init() - Program a context's hardware context and queue.
 * @ctx: the context, with its root page table (and save area, if any).
 *
 * At creation, and again after a device reset (simt_recover.c): fault
 * state, priority, page table (and the TLB flushed), preemption mode and
 * save area when the device preempts; then the queue is started empty,
 * at ring entry 0 (simt_ctx_queue_start()).
 *
 * Context: caller holds &simt_device.reset_sem, inside drm_dev_enter();
 * takes &simt_device.hw_lock and &simt_ctx.usage_lock.
 * Return: 0, or -EIO if the queue did not start.
 */
int simt_ctx_hw_init(struct simt_ctx *ctx)
{
	struct simt_device *sdev = ctx->sdev;
	u32 c = ctx->hw_ctx;

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

	return simt_ctx_queue_start(ctx);
}

/**
 * simt_ctx_queue_start() - Start a context's queue, empty.
 * @ctx: the context, whose hardware context is programmed.
 *
 * The queue is reset, then started at ring entry 0 on the driver's ring,
 * or for a user queue (simt_userq.c) on the process's, at a device
 * address of the context, in user mode.  A queue that does not come up
 * idle is stopped again.
 *
 * Context: caller holds &simt_device.reset_sem, inside drm_dev_enter();
 * takes &simt_ctx.usage_lock.
 * Return: 0, or -EIO if the queue did not start.
 */
int simt_ctx_queue_start(struct simt_ctx *ctx)
{
	struct simt_device *sdev = ctx->sdev;
	u32 q = ctx->hw_queue, st;
	u64 base = ctx->userq ? ctx->userq_ring : ctx->ring_dma;

	simt_ctx_stop_queue(ctx);
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_BASE_LO), lower_32_bits(base));
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_BASE_HI), upper_32_bits(base));
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_SIZE),
		  ctx->userq ? ctx->userq_entries : SIMT_RING_ENTRIES);
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_PRIORITY), ctx->priority);
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_CONTEXT), ctx->hw_ctx);
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_CONTROL),
		  SIMT_QCTL_ENABLE | (ctx->userq ? SIMT_QCTL_USER : 0));

	st = simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_STATUS));
	if (SIMT_QSTATUS_STATE(st) != SIMT_QSTATE_IDLE) {
		drm_err(&sdev->drm, "queue %u did not start: status 0x%08x\n",
			q, st);
		simt_ctx_stop_queue(ctx);
		return -EIO;
	}
	return 0;
}
