// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: debugfs, in the DRM device's directory
 * (/sys/kernel/debug/accel/<pci address>/):
 *
 *   info      identification (copy bandwidth in bytes per cycle, the move
 *             queue and its context too), live interrupt registers,
 *             per-class counts
 *   contexts  one line per live context: its hardware context and queue,
 *             priority, sequence numbers submitted and completed, ring
 *             position, queue status and error, MMU fault; then fences
 *             not yet signalled, preemption mode (DRM_SIMT_PREEMPT_*),
 *             why the context stopped (DRM_SIMT_ERROR_*, 0 running), its
 *             save area, running time and whether its queue is a user
 *             queue (userq=1: the process feeds it, USERQ_CREATE)
 *   stats     device-wide counters since the driver was bound, one
 *             "name value" line each: submissions, completions, errors
 *             (contexts stopped by a device error), timeouts (contexts
 *             stopped by the job timeout), resets, bytes_copied, kernels
 *             and kernel_cycles (of completed submissions), evictions and
 *             restores of VRAM objects, the bytes the move queue's copies
 *             moved for them, its copy engine cycles and failed moves
 *             (move_bytes, move_copy_cycles, move_errors)
 *   irq_test  write anything: fire the test interrupt and wait for it
 *             (the write fails with ETIMEDOUT if it does not arrive);
 *             read: "<count> <last latency us> <last error>"
 *   reset     write 1 (or any true value): reset the whole device as
 *             recovery does, and wait for it
 *
 * and "preempt" and "timeline" (simt_preempt.c).  Those that read
 * registers check drm_dev_enter() so that a file kept open across an
 * unbind never touches a device that is gone.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "simt_ctx.h"
#include "simt_debugfs.h"
#include "simt_device.h"
#include "simt_irq.h"
#include "simt_preempt.h"
#include "simt_recover.h"

static int simt_info_show(struct seq_file *m, void *unused)
{
	struct simt_device *sdev = m->private;
	unsigned int i;
	int idx;

	seq_printf(m, "version:   %u.%u\n", SIMT_VERSION_GET_MAJOR(sdev->version),
		   SIMT_VERSION_GET_MINOR(sdev->version));
	seq_printf(m, "caps:      0x%08x\n", sdev->caps);
	seq_printf(m, "sm_count:  %u\n", sdev->sm_count);
	seq_printf(m, "copy_bw:   %u\n", sdev->copy_bw);
	seq_printf(m, "move_queue: %u (context %u)\n", sdev->move_queue,
		   sdev->move_ctx);
	seq_printf(m, "vram_size: %llu\n", sdev->vram_size);
	seq_printf(m, "vram_bar:  %llu\n", (unsigned long long)sdev->vram_bar_size);

	if (drm_dev_enter(&sdev->drm, &idx)) {
		seq_printf(m, "irq_status: 0x%08x\n",
			   simt_rd32(sdev, SIMT_REG_IRQ_STATUS));
		seq_printf(m, "irq_mask:   0x%08x\n",
			   simt_rd32(sdev, SIMT_REG_IRQ_MASK));
		seq_printf(m, "irq_count:  %u\n",
			   simt_rd32(sdev, SIMT_REG_IRQ_COUNT));
		drm_dev_exit(idx);
	} else {
		seq_puts(m, "device:    unplugged\n");
	}

	for (i = 0; i < SIMT_IRQ_NR; i++)
		seq_printf(m, "irq[%u] %-8s irq %d handled %llu\n", i,
			   simt_irq_class_name(i), sdev->irq[i].irq,
			   simt_irq_count(sdev, i));
	seq_printf(m, "irq_test_last_us:  %llu\n", sdev->irq_test_last_us);
	seq_printf(m, "irq_test_last_err: %d\n", sdev->irq_test_last_err);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(simt_info);

/* Fences of @ctx not yet signalled; under sdev->ctx_lock. */
static size_t simt_ctx_pending(struct simt_ctx *ctx)
{
	size_t n;

	lockdep_assert_held(&ctx->sdev->ctx_lock);
	spin_lock(&ctx->fence_lock);
	n = list_count_nodes(&ctx->pending);
	spin_unlock(&ctx->fence_lock);
	return n;
}

static int simt_contexts_show(struct seq_file *m, void *unused)
{
	struct simt_device *sdev = m->private;
	unsigned long flags;
	unsigned int q;
	int idx;

	if (!drm_dev_enter(&sdev->drm, &idx)) {
		seq_puts(m, "device unplugged\n");
		return 0;
	}
	seq_puts(m, "queue hw_ctx prio submitted completed  tail head status     error fault      pending preempt stopped     pid\n");
	/* The lock keeps each context alive while its line is printed. */
	spin_lock_irqsave(&sdev->ctx_lock, flags);
	for (q = 0; q < sdev->hw_queue_count; q++) {
		struct simt_ctx *ctx = sdev->queue_ctx[q];

		if (!ctx)
			continue;
		seq_printf(m, "%5u %6u %4u %9llu %9llu %5u %4u 0x%08x %5u",
			   q, ctx->hw_ctx, ctx->priority, READ_ONCE(ctx->seqno),
			   READ_ONCE(*ctx->fence), READ_ONCE(ctx->tail),
			   simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_HEAD)),
			   simt_rd32(sdev, SIMT_QUEUE_REG(q, SIMT_QREG_STATUS)),
			   ctx->hw_error);
		if (ctx->faulted)
			seq_printf(m, " 0x%08x", ctx->fault_addr);
		else
			seq_puts(m, " -         ");
		seq_printf(m, " %7zu %7u %7u %7d save=0x%08llx+0x%llx run_ms=%llu userq=%d\n",
			   simt_ctx_pending(ctx), ctx->preempt_mode,
			   READ_ONCE(ctx->error), ctx->pid,
			   ctx->save_va.start, ctx->save_va.size,
			   div_u64(READ_ONCE(ctx->wd_run_ns), NSEC_PER_MSEC),
			   READ_ONCE(ctx->userq));
	}
	spin_unlock_irqrestore(&sdev->ctx_lock, flags);
	drm_dev_exit(idx);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(simt_contexts);

static int simt_stats_show(struct seq_file *m, void *unused)
{
	struct simt_device *sdev = m->private;
	struct simt_stats *st = &sdev->stats;

	seq_printf(m, "submissions %lld\n", atomic64_read(&st->submissions));
	seq_printf(m, "completions %lld\n", atomic64_read(&st->completions));
	seq_printf(m, "errors %lld\n", atomic64_read(&st->errors));
	seq_printf(m, "timeouts %lld\n", atomic64_read(&st->timeouts));
	seq_printf(m, "queue_stops %lld\n", atomic64_read(&st->queue_stops));
	seq_printf(m, "resets %lld\n", atomic64_read(&st->resets));
	seq_printf(m, "cancels %lld\n", atomic64_read(&st->cancels));
	seq_printf(m, "bytes_copied %lld\n", atomic64_read(&st->bytes_copied));
	seq_printf(m, "kernels %lld\n", atomic64_read(&st->kernels));
	seq_printf(m, "kernel_cycles %lld\n", atomic64_read(&st->kernel_cycles));
	seq_printf(m, "fair_holds %lld\n", atomic64_read(&st->fair_holds));
	seq_printf(m, "evictions %lld\n", atomic64_read(&st->evictions));
	seq_printf(m, "restores %lld\n", atomic64_read(&st->restores));
	seq_printf(m, "move_bytes %lld\n", atomic64_read(&st->move_bytes));
	seq_printf(m, "move_copy_cycles %lld\n",
		   atomic64_read(&st->move_copy_cycles));
	seq_printf(m, "move_errors %lld\n", atomic64_read(&st->move_errors));
	mutex_lock(&sdev->vram_lock);
	seq_printf(m, "evicted_bytes %llu\n", sdev->evicted_bytes);
	mutex_unlock(&sdev->vram_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(simt_stats);

static int simt_irq_test_show(struct seq_file *m, void *unused)
{
	struct simt_device *sdev = m->private;

	seq_printf(m, "%llu %llu %d\n", simt_irq_count(sdev, SIMT_IRQ_TEST),
		   sdev->irq_test_last_us, sdev->irq_test_last_err);
	return 0;
}

static int simt_irq_test_open(struct inode *inode, struct file *file)
{
	return single_open(file, simt_irq_test_show, inode->i_private);
}

static ssize_t simt_irq_test_write(struct file *file, const char __user *buf,
				   size_t count, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	struct simt_device *sdev = m->private;
	int idx, ret;

	if (!drm_dev_enter(&sdev->drm, &idx))
		return -ENODEV;
	ret = simt_irq_test(sdev);
	drm_dev_exit(idx);

	return ret ? ret : count;
}

static const struct file_operations simt_irq_test_fops = {
	.owner		= THIS_MODULE,
	.open		= simt_irq_test_open,
	.read		= seq_read,
	.write		= simt_irq_test_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* Writing 1 resets the whole device as recovery does when a queue will not stop. */
static ssize_t simt_reset_write(struct file *file, const char __user *buf,
				size_t count, loff_t *ppos)
{
	struct simt_device *sdev = file_inode(file)->i_private;
	bool yes;
	int ret;

	ret = kstrtobool_from_user(buf, count, &yes);
	if (ret)
		return ret;
	if (!yes)
		return count;
	ret = simt_device_reset_request(sdev);
	return ret ? ret : count;
}

static const struct file_operations simt_reset_fops = {
	.owner		= THIS_MODULE,
	.write		= simt_reset_write,
	.llseek		= noop_llseek,
};

/**
 * simt_debugfs_init() - Create the device's debugfs files.
 * @sdev: the device, its DRM device allocated (which made its debugfs
 *	directory) and not yet registered.
 *
 * Creates the files listed at the top of this file, and the preemption
 * ones (simt_preempt_debugfs_init()), in the DRM device's directory.
 * Does nothing without debugfs.  The files go with the directory, when
 * the DRM device is released.
 *
 * Context: process context (probe).
 */
void simt_debugfs_init(struct simt_device *sdev)
{
	struct dentry *root = sdev->drm.debugfs_root;

	if (IS_ERR_OR_NULL(root))
		return;

	debugfs_create_file("info", 0444, root, sdev, &simt_info_fops);
	debugfs_create_file("contexts", 0444, root, sdev, &simt_contexts_fops);
	debugfs_create_file("stats", 0444, root, sdev, &simt_stats_fops);
	debugfs_create_file("reset", 0200, root, sdev, &simt_reset_fops);
	debugfs_create_file("irq_test", 0600, root, sdev, &simt_irq_test_fops);
	simt_preempt_debugfs_init(sdev, root);
}
