// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: the preemption policy.
 *
 * The device preempts by itself (docs/specs/simt.rst, "Preemption"): a
 * queue of higher priority whose kernel finds no room takes blocks from
 * lower-priority kernels, each context saying how its blocks leave.  The
 * driver's part is the policy: a context's priority is its queue's
 * priority, its mode (DRM_SIMT_PREEMPT_*, DEFAULT meaning the
 * preempt_mode parameter) goes to the device, it gets a save area in its
 * own address space, and kernels of equal priority share the SMs in time
 * slices of timeslice_ms.  The device's event log and timeline rings are
 * kept in DMA memory and shown in debugfs ("preempt", "timeline").
 */

#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "simt_device.h"
#include "simt_preempt.h"
#include "uapi/drm/simt_accel.h"

static unsigned int preempt_mode = DRM_SIMT_PREEMPT_AUTO;
module_param(preempt_mode, uint, 0644);
MODULE_PARM_DESC(preempt_mode,
		 "mode of contexts created with DRM_SIMT_PREEMPT_DEFAULT (1 none, 2 drain, 3 flush, 4 switch, 5 light, 6 auto, 7 chimera)");

static unsigned int preempt_bound_ns = 2000;
module_param(preempt_bound_ns, uint, 0644);
MODULE_PARM_DESC(preempt_bound_ns,
		 "latency bound of the auto and chimera modes (ns of device time; seed 000 uses 2000 to 5000)");

static unsigned int timeslice_ms;
module_param(timeslice_ms, uint, 0644);
MODULE_PARM_DESC(timeslice_ms,
		 "time slice between kernels of equal priority (ms of device time, 0: none)");

/* The rings the device writes: events and the timeline. */
#define SIMT_PEV_ENTRIES	256
#define SIMT_TRACE_RECORDS	65536

/**
 * simt_preempt_hw_mode() - The device's mode for a context's preemption mode.
 * @mode: the context's DRM_SIMT_PREEMPT_* value (checked at creation).
 *
 * DRM_SIMT_PREEMPT_DEFAULT stands for the module parameter preempt_mode,
 * clamped to DRM_SIMT_PREEMPT_NONE..DRM_SIMT_PREEMPT_CHIMERA.
 *
 * Return: the enum simt_preempt_mode value for SIMT_CREG_PREEMPT_MODE.
 */
u32 simt_preempt_hw_mode(u32 mode)
{
	if (mode == DRM_SIMT_PREEMPT_DEFAULT)
		mode = clamp_t(u32, preempt_mode, DRM_SIMT_PREEMPT_NONE,
			       DRM_SIMT_PREEMPT_CHIMERA);
	/* DRM_SIMT_PREEMPT_NONE..CHIMERA are SIMT_PMODE_NONE..CHIMERA, plus one. */
	return mode - 1;
}

/**
 * simt_preempt_save_area_size() - The size of a context's save area.
 * @sdev: the device, its SM resources known.
 *
 * The largest save area a context can need: every warp, block and shared
 * byte of every SM holding its blocks, fully saved, with
 * SIMT_SAVE_LOCAL_PER_THREAD bytes of local memory per thread.  Smaller
 * areas work too: a block that finds no room drains.
 *
 * Return: the size in bytes, a multiple of SIMT_PAGE_SIZE.
 */
u64 simt_preempt_save_area_size(struct simt_device *sdev)
{
	u64 warp = sizeof(struct simt_save_warp) +
		   SIMT_SAVE_ENTRIES * SIMT_WARP_SIZE * 4 +
		   2 * SIMT_WARP_SIZE * 4;
	u64 sm = sdev->sm_warps * warp + sdev->sm_shared +
		 sdev->sm_blocks * sizeof(struct simt_save_block) +
		 sdev->sm_threads * SIMT_SAVE_LOCAL_PER_THREAD;

	return round_up(sdev->sm_count * sm, SIMT_PAGE_SIZE);
}

/**
 * simt_preempt_hw_params() - Program the preemption policy parameters.
 * @sdev: the device.
 *
 * Writes the module parameters as they are now, converted to device
 * cycles: preempt_bound_ns to SIMT_REG_PREEMPT_BOUND and timeslice_ms to
 * SIMT_REG_TIMESLICE (at most U32_MAX).  Called at probe, after a reset
 * and whenever a context's hardware context is programmed, so that a
 * change of the parameters takes effect with the next context.  Does
 * nothing if the device cannot preempt.
 *
 * Context: inside drm_dev_enter(), or probe.
 */
void simt_preempt_hw_params(struct simt_device *sdev)
{
	if (!sdev->pev)
		return;
	simt_wr32(sdev, SIMT_REG_PREEMPT_BOUND,
		  div_u64((u64)preempt_bound_ns * sdev->clock_mhz, 1000));
	simt_wr32(sdev, SIMT_REG_TIMESLICE,
		  min_t(u64, (u64)timeslice_ms * 1000 * sdev->clock_mhz,
			U32_MAX));
}

/**
 * simt_preempt_hw_init() - Program the device-wide preemption registers.
 * @sdev: the device.
 *
 * The addresses and sizes of the event log and timeline rings, and the
 * policy parameters (simt_preempt_hw_params()): at probe, and again after
 * every reset, which clears them.  Does nothing if the device cannot
 * preempt.
 *
 * Context: probe, or recovery (reset_sem held for writing).
 */
void simt_preempt_hw_init(struct simt_device *sdev)
{
	if (!sdev->pev)
		return;
	simt_wr32(sdev, SIMT_REG_PEV_LOG_LO, lower_32_bits(sdev->pev_dma));
	simt_wr32(sdev, SIMT_REG_PEV_LOG_HI, upper_32_bits(sdev->pev_dma));
	simt_wr32(sdev, SIMT_REG_PEV_LOG_SIZE, SIMT_PEV_ENTRIES);
	simt_wr32(sdev, SIMT_REG_TRACE_LO, lower_32_bits(sdev->trace_dma));
	simt_wr32(sdev, SIMT_REG_TRACE_HI, upper_32_bits(sdev->trace_dma));
	simt_wr32(sdev, SIMT_REG_TRACE_SIZE, SIMT_TRACE_RECORDS);
	simt_preempt_hw_params(sdev);
}

/**
 * simt_preempt_init() - Set up preemption at probe.
 * @sdev: the device, its capabilities known.
 *
 * On a device that can preempt (SIMT_CAP_PREEMPT), allocates the event
 * log and timeline rings in DMA-coherent memory and programs the
 * device-wide registers; on any other, does nothing (sdev->pev stays
 * NULL).
 *
 * Context: process context (probe).
 * Return: 0 or -ENOMEM.
 */
int simt_preempt_init(struct simt_device *sdev)
{
	struct device *dev = &sdev->pdev->dev;

	if (!(sdev->caps & SIMT_CAP_PREEMPT))
		return 0;
	/* Managed: freed after remove(), whose reset stops the device. */
	sdev->pev = dmam_alloc_coherent(dev, SIMT_PEV_ENTRIES *
					sizeof(struct simt_preempt_event),
					&sdev->pev_dma, GFP_KERNEL);
	sdev->trace = dmam_alloc_coherent(dev, SIMT_TRACE_RECORDS *
					  sizeof(struct simt_trace_record),
					  &sdev->trace_dma, GFP_KERNEL);
	if (!sdev->pev || !sdev->trace)
		return -ENOMEM;
	simt_preempt_hw_init(sdev);
	return 0;
}

static const char *const simt_trigger_names[] = {
	[SIMT_PTRIG_PRIORITY] = "priority",
	[SIMT_PTRIG_REQUEST] = "request",
	[SIMT_PTRIG_TIMESLICE] = "timeslice",
};

static int simt_preempt_show(struct seq_file *m, void *unused)
{
	struct simt_device *sdev = m->private;
	u32 n, i, first;
	int idx;

	if (!drm_dev_enter(&sdev->drm, &idx)) {
		seq_puts(m, "device unplugged\n");
		return 0;
	}
	if (!sdev->pev) {
		seq_puts(m, "the device cannot preempt\n");
		goto out;
	}
	n = simt_rd32(sdev, SIMT_REG_PEV_COUNT);
	seq_printf(m, "events %u\n", n);
	seq_printf(m, "saved_bytes %u\n", simt_rd32(sdev, SIMT_REG_PREEMPT_SAVED));
	seq_printf(m, "restored_bytes %u\n",
		   simt_rd32(sdev, SIMT_REG_PREEMPT_RESTORED));
	seq_printf(m, "wasted_insns %u\n", simt_rd32(sdev, SIMT_REG_PREEMPT_WASTED));
	seq_printf(m, "bound_cycles %u\n", simt_rd32(sdev, SIMT_REG_PREEMPT_BOUND));
	seq_printf(m, "timeslice_cycles %u\n", simt_rd32(sdev, SIMT_REG_TIMESLICE));
	seq_puts(m, "  seq trigger   status preemptor victims drained flushed switched light saved_bytes wasted  dispatch_cyc done_cyc\n");
	/* The log holds the last SIMT_PEV_ENTRIES events, oldest first. */
	first = n > SIMT_PEV_ENTRIES ? n - SIMT_PEV_ENTRIES : 0;
	/*
	 * Its records, and the timeline's, are little-endian like the rest
	 * of the device's memory, read natively: the driver is little-endian
	 * only (Kconfig).
	 */
	for (i = first; i < n; i++) {
		const struct simt_preempt_event *e =
			&sdev->pev[i % SIMT_PEV_ENTRIES];
		u64 req = e->req_cycle;
		u64 disp = e->dispatch_cycle;
		u64 done = e->done_cycle;

		seq_printf(m, "%5u %-9s %6u %9d 0x%05x %7u %7u %8u %5u %11u %6u %13lld %8llu\n",
			   e->seq,
			   e->trigger < ARRAY_SIZE(simt_trigger_names) &&
			   simt_trigger_names[e->trigger] ?
			   simt_trigger_names[e->trigger] : "?",
			   e->status, e->preemptor == SIMT_NO_PREEMPTOR ? -1 : e->preemptor,
			   e->victims, e->drained, e->flushed, e->switched,
			   e->light, e->saved_bytes, e->wasted_insns,
			   disp ? (long long)(disp - req) : -1LL, done - req);
	}
out:
	drm_dev_exit(idx);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(simt_preempt);

/*
 * The timeline, oldest record first, one per line: cycle, type (enum
 * simt_trace_type), queue, SM, block.  Writing anything empties it.
 */
static int simt_timeline_show(struct seq_file *m, void *unused)
{
	struct simt_device *sdev = m->private;
	u32 n, i, first;
	int idx;

	if (!drm_dev_enter(&sdev->drm, &idx))
		return 0;
	if (sdev->trace) {
		n = simt_rd32(sdev, SIMT_REG_TRACE_COUNT);
		first = n > SIMT_TRACE_RECORDS ? n - SIMT_TRACE_RECORDS : 0;
		for (i = first; i < n; i++) {
			const struct simt_trace_record *r =
				&sdev->trace[i % SIMT_TRACE_RECORDS];

			seq_printf(m, "%llu %u %u %u %u\n",
				   r->cycle, r->type, r->queue, r->sm, r->block);
		}
	}
	drm_dev_exit(idx);
	return 0;
}

static int simt_timeline_open(struct inode *inode, struct file *file)
{
	struct simt_device *sdev = inode->i_private;

	/* Up to 40 bytes a record. */
	return single_open_size(file, simt_timeline_show, sdev,
				SIMT_TRACE_RECORDS * 40);
}

static ssize_t simt_timeline_write(struct file *file, const char __user *buf,
				   size_t len, loff_t *ppos)
{
	struct simt_device *sdev = file_inode(file)->i_private;
	int idx;

	if (!drm_dev_enter(&sdev->drm, &idx))
		return -ENODEV;
	/* Writing the size starts the ring again, empty. */
	if (sdev->trace)
		simt_wr32(sdev, SIMT_REG_TRACE_SIZE, SIMT_TRACE_RECORDS);
	drm_dev_exit(idx);
	return len;
}

static const struct file_operations simt_timeline_fops = {
	.owner = THIS_MODULE,
	.open = simt_timeline_open,
	.read = seq_read,
	.write = simt_timeline_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * simt_preempt_debugfs_init() - Create the preemption debugfs files.
 * @sdev: the device.
 * @root: the DRM device's debugfs directory.
 *
 * "preempt" shows the preemption counters, the policy registers and the
 * event log; "timeline" shows the timeline ring, oldest record first,
 * and writing anything to it empties the ring.
 */
void simt_preempt_debugfs_init(struct simt_device *sdev, struct dentry *root)
{
	debugfs_create_file("preempt", 0444, root, sdev, &simt_preempt_fops);
	debugfs_create_file("timeline", 0644, root, sdev, &simt_timeline_fops);
}
