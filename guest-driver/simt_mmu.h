/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: a context's page tables and the device's TLB (simt_mmu.c).
 */
#ifndef __SIMT_MMU_H__
#define __SIMT_MMU_H__

#include <linux/types.h>

#include "hw/simt/simt-hw.h"

struct drm_mm_node;
struct simt_ctx;
struct simt_device;

#define SIMT_PTE_RWX	(SIMT_PTE_V | SIMT_PTE_R | SIMT_PTE_W | SIMT_PTE_X)

void simt_tlb_inv_ctx(struct simt_device *sdev, u32 hw_ctx);
int simt_pt_alloc_zeroed(struct simt_device *sdev, struct drm_mm_node *node);
int simt_pt_prepare(struct simt_ctx *ctx, u64 addr, u64 size);
void simt_pt_write(struct simt_ctx *ctx, u64 addr, u64 pa, u64 size,
		   u32 bits);
int simt_pt_map(struct simt_ctx *ctx, u64 addr, u64 pa, u64 size, u32 bits);
void simt_pt_unmap(struct simt_ctx *ctx, u64 addr, u64 size);
void simt_pt_free(struct simt_ctx *ctx);

#endif /* __SIMT_MMU_H__ */
