/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: the driver's own copies, on its move queue (simt_move.c).
 */
#ifndef __SIMT_MOVE_H__
#define __SIMT_MOVE_H__

#include <linux/types.h>

struct simt_device;

/**
 * enum simt_move_dir - Which way a move goes between an object's VRAM and
 * its system pages.
 * @SIMT_MOVE_TO_SYSTEM: from VRAM to the system pages (an eviction).
 * @SIMT_MOVE_TO_VRAM: from the system pages to VRAM (a restore).
 */
enum simt_move_dir {
	SIMT_MOVE_TO_SYSTEM,
	SIMT_MOVE_TO_VRAM,
};

int simt_move_init(struct simt_device *sdev);
int simt_move_hw_init(struct simt_device *sdev);
int simt_move_pages(struct simt_device *sdev, u64 vram, const dma_addr_t *dma,
		    u64 pages, enum simt_move_dir dir);
void simt_move_irq(struct simt_device *sdev);

#endif /* __SIMT_MOVE_H__ */
