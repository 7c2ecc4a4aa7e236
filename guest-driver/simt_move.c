// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: the move queue, the driver's own copies (seed 003's swaps).
 *
 * Evictions and restores of VRAM objects (simt_vram.c) move the bytes
 * with the device's copy engines, as a GPU driver's migration engine
 * does, so that a move takes the modelled time of a copy at the device's
 * copy bandwidth (PCIe-like) rather than the CPU's time through BAR2.
 * The driver keeps the last hardware queue and the last hardware context
 * for this: the context is bare (no page table, device address = VRAM
 * offset), so the queue reaches any object's VRAM and, as host
 * addresses, its system pages, and no tenant's address space is touched.
 * The queue runs at the highest priority: at every chunk boundary its
 * copies go before the tenants'.
 *
 * A move writes COPY commands (one per run of system pages contiguous in
 * DMA space) into the ring, at most a ring's worth at a time, each batch
 * closed by a SIGNAL that stores the batch's sequence number in the fence
 * word after the ring and raises the QUEUE interrupt, and waits for it.
 * Moves are synchronous and one at a time: the caller holds vram_lock,
 * which also keeps anything else from using the object meanwhile.  A
 * move holds reset_sem for reading, so no device reset comes in between;
 * recovery programs the queue again afterwards (simt_recover.c).  A
 * move whose queue stops with an error, or makes no progress for
 * SIMT_MOVE_STALL_MS, fails with -EIO and leaves the queue empty and
 * running again; the caller keeps the object where it was.
 */

#include <linux/dma-mapping.h>
#include <linux/wait.h>

#include <drm/drm_print.h>

#include "simt_device.h"
#include "simt_move.h"

#define SIMT_MOVE_RING_ENTRIES	256
#define SIMT_MOVE_STALL_MS	2000

/* The fence word, after the ring's commands. */
static u64 *simt_move_fence(struct simt_device *sdev)
{
	return sdev->move_ring + SIMT_MOVE_RING_ENTRIES * SIMT_CMD_SIZE;
}

static void *simt_move_next(struct simt_device *sdev)
{
	void *slot = sdev->move_ring + sdev->move_tail * SIMT_CMD_SIZE;

	/* Reserved words must be zero. */
	memset(slot, 0, SIMT_CMD_SIZE);
	sdev->move_tail = (sdev->move_tail + 1) & (SIMT_MOVE_RING_ENTRIES - 1);
	return slot;
}

/* Add what the queue's COPY_CYCLES grew by since the last look. */
static void simt_move_count_cycles(struct simt_device *sdev)
{
	u32 c = simt_rd32(sdev, SIMT_QUEUE_REG(sdev->move_queue,
					       SIMT_QREG_COPY_CYCLES));

	atomic64_add((u32)(c - sdev->move_cycles_seen),
		     &sdev->stats.move_copy_cycles);
	sdev->move_cycles_seen = c;
}

/**
 * simt_move_hw_init() - Program the move queue and its bare context.
 * @sdev: the device.
 *
 * At probe, after every device reset (recovery, under
 * &simt_device.reset_sem held for writing), and to restart the queue
 * after a failed move.  The context has no page table and the highest
 * priority; the ring starts empty, at entry 0, and the queue's counters
 * at 0.
 *
 * Return: 0, or -EIO if the queue did not start.
 */
int simt_move_hw_init(struct simt_device *sdev)
{
	u32 q = sdev->move_queue, c = sdev->move_ctx, st;

	simt_wr32(sdev, SIMT_CTX_REG(c, SIMT_CREG_PT), 0);
	simt_wr32(sdev, SIMT_CTX_REG(c, SIMT_CREG_PRIORITY), SIMT_MAX_PRIORITY);
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_CONTROL), 0);
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_CONTROL), SIMT_QCTL_RESET);
	sdev->move_tail = 0;
	sdev->move_cycles_seen = 0;
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_BASE_LO),
		  lower_32_bits(sdev->move_ring_dma));
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_BASE_HI),
		  upper_32_bits(sdev->move_ring_dma));
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_SIZE),
		  SIMT_MOVE_RING_ENTRIES);
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_PRIORITY), SIMT_MAX_PRIORITY);
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_CONTEXT), c);
	simt_wr32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_CONTROL), SIMT_QCTL_ENABLE);

	st = simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_STATUS));
	if (SIMT_QSTATUS_STATE(st) != SIMT_QSTATE_IDLE) {
		drm_err(&sdev->drm, "move queue %u did not start: status 0x%08x\n",
			q, st);
		return -EIO;
	}
	return 0;
}

/**
 * simt_move_init() - Set up the move queue.
 * @sdev: the device, identified, with interrupts working.
 *
 * Keeps the hardware queue and context after those counted for contexts
 * (identify has checked there are two of each) for moves, gives the queue
 * its ring (DMA-coherent, freed when the driver unbinds) and programs it.
 *
 * Return: 0, -ENOMEM, or -EIO if the queue did not start.
 */
int simt_move_init(struct simt_device *sdev)
{
	sdev->move_queue = sdev->hw_queue_count;
	sdev->move_ctx = sdev->hw_ctx_count;
	init_waitqueue_head(&sdev->move_wq);
	sdev->move_ring = dmam_alloc_coherent(sdev->drm.dev,
					      SIMT_MOVE_RING_ENTRIES * SIMT_CMD_SIZE +
					      sizeof(u64), &sdev->move_ring_dma,
					      GFP_KERNEL);
	if (!sdev->move_ring)
		return -ENOMEM;
	return simt_move_hw_init(sdev);
}

/**
 * simt_move_irq() - Wake a move waiting for its batch.
 * @sdev: the device.
 *
 * The interrupt thread saw a queue finish or stop: a move may be done.
 *
 * Context: the interrupt thread (simt_fence_irq()); takes no driver lock.
 */
void simt_move_irq(struct simt_device *sdev)
{
	wake_up(&sdev->move_wq);
}

static bool simt_move_stopped(struct simt_device *sdev)
{
	u32 st = simt_rd32(sdev, SIMT_QUEUE_REG(sdev->move_queue,
						SIMT_QREG_STATUS));

	return SIMT_QSTATUS_STATE(st) == SIMT_QSTATE_ERROR ||
	       SIMT_QSTATUS_STATE(st) == SIMT_QSTATE_DISABLED;
}

/* The move queue's HEAD and COPY_CYCLES: they stand still only when it does. */
static u64 simt_move_progress(struct simt_device *sdev)
{
	u32 q = sdev->move_queue;

	return (u64)simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_HEAD)) << 32 |
	       simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_COPY_CYCLES));
}

/*
 * Ring the doorbell for what was written since the last batch, closed by
 * a SIGNAL, and wait for it, for as long as the queue makes progress:
 * the copy engines serve its copies first, but a batch's time depends on
 * the copy bandwidth and, on host time, on the emulator's speed.  A queue
 * that has moved nothing for SIMT_MOVE_STALL_MS is stuck.
 */
static int simt_move_batch(struct simt_device *sdev)
{
	struct simt_cmd_signal *sig;
	u64 seqno = ++sdev->move_seqno, seen, now;
	u32 st;

	sig = simt_move_next(sdev);
	sig->opcode = SIMT_CMD_SIGNAL;
	sig->flags = SIMT_CMDF_IRQ;
	sig->addr = sdev->move_ring_dma + SIMT_MOVE_RING_ENTRIES * SIMT_CMD_SIZE;
	sig->value = seqno;
	/* writel() orders the ring writes above before the doorbell. */
	simt_wr32(sdev, SIMT_QUEUE_REG(sdev->move_queue, SIMT_QREG_TAIL),
		  sdev->move_tail);

	seen = simt_move_progress(sdev);
	while (!wait_event_timeout(sdev->move_wq,
				   READ_ONCE(*simt_move_fence(sdev)) >= seqno ||
				   simt_move_stopped(sdev),
				   msecs_to_jiffies(SIMT_MOVE_STALL_MS))) {
		now = simt_move_progress(sdev);
		if (now == seen)
			break;
		seen = now;
	}
	simt_move_count_cycles(sdev);
	if (READ_ONCE(*simt_move_fence(sdev)) >= seqno)
		return 0;

	st = simt_rd32(sdev, SIMT_QUEUE_REG(sdev->move_queue, SIMT_QREG_STATUS));
	drm_err(&sdev->drm, "move queue %u: %s (status 0x%08x, error at command %u, head %u, tail %u, fence %llu of %llu); restarting it\n",
		sdev->move_queue, simt_move_stopped(sdev) ? "stopped" : "stuck",
		st, simt_rd32(sdev, SIMT_QUEUE_REG(sdev->move_queue,
						   SIMT_QREG_ERROR_CMD)),
		simt_rd32(sdev, SIMT_QUEUE_REG(sdev->move_queue, SIMT_QREG_HEAD)),
		sdev->move_tail, READ_ONCE(*simt_move_fence(sdev)), seqno);
	atomic64_inc(&sdev->stats.move_errors);
	simt_move_hw_init(sdev);
	return -EIO;
}

/**
 * simt_move_pages() - Copy pages between VRAM and system pages with the
 * copy engines.
 * @sdev: the device.
 * @vram: the VRAM offset of the first page.
 * @dma: the DMA addresses of the @pages system pages.
 * @pages: how many pages.
 * @dir: which way.
 *
 * One COPY per run of system pages contiguous in DMA space, in batches
 * of at most a ring's worth, each waited for (simt_move_batch()).  A
 * batch that fails restarts the queue and ends the move.
 *
 * Context: inside drm_dev_enter(); caller holds &simt_device.vram_lock;
 * takes &simt_device.reset_sem for reading, and sleeps.
 * Return: 0, or -EIO if the queue stopped with an error or made no
 * progress for SIMT_MOVE_STALL_MS; the bytes may then be partly copied.
 */
int simt_move_pages(struct simt_device *sdev, u64 vram, const dma_addr_t *dma,
		    u64 pages, enum simt_move_dir dir)
{
	u64 i = 0, n, batch_bytes = 0;
	u32 cmds = 0;
	int ret = 0;

	lockdep_assert_held(&sdev->vram_lock);
	down_read(&sdev->reset_sem);
	while (i < pages) {
		struct simt_cmd_copy *c;

		/* A run of pages contiguous in DMA space is one copy. */
		for (n = 1; i + n < pages &&
		     dma[i + n] == dma[i] + n * SIMT_PAGE_SIZE; n++)
			;
		c = simt_move_next(sdev);
		c->opcode = SIMT_CMD_COPY;
		if (dir == SIMT_MOVE_TO_SYSTEM) {
			c->flags = SIMT_CMDF_DST_HOST;
			c->src = vram + i * SIMT_PAGE_SIZE;
			c->dst = dma[i];
		} else {
			c->flags = SIMT_CMDF_SRC_HOST;
			c->src = dma[i];
			c->dst = vram + i * SIMT_PAGE_SIZE;
		}
		c->size = n * SIMT_PAGE_SIZE;
		batch_bytes += c->size;
		i += n;
		/*
		 * The ring is empty between batches and holds one command
		 * less than its entries (HEAD == TAIL is empty): room for
		 * the SIGNAL.
		 */
		if (++cmds == SIMT_MOVE_RING_ENTRIES - 2 || i == pages) {
			ret = simt_move_batch(sdev);
			if (ret)
				break;
			atomic64_add(batch_bytes, &sdev->stats.move_bytes);
			cmds = 0;
			batch_bytes = 0;
		}
	}
	up_read(&sdev->reset_sem);
	return ret;
}
