/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: VRAM placement, oversubscribed (simt_vram.c).
 */
#ifndef __SIMT_VRAM_H__
#define __SIMT_VRAM_H__

#include <linux/mm_types.h>
#include <linux/types.h>

struct dma_fence;
struct drm_mm_node;
struct simt_bind;
struct simt_ctx;
struct simt_device;
struct simt_vram_bo;

int simt_vram_init(struct simt_device *sdev);
int simt_vram_alloc(struct simt_device *sdev, struct drm_mm_node *node,
		    u64 size);
void simt_vram_free(struct simt_device *sdev, struct drm_mm_node *node);
int simt_vram_alloc_zeroed(struct simt_device *sdev, struct drm_mm_node *node,
			   u64 size);
int simt_va_alloc(struct simt_device *sdev, struct drm_mm_node *va, u64 size,
		  u64 want);
void simt_va_free(struct simt_device *sdev, struct drm_mm_node *va);
int simt_vram_bo_place(struct simt_device *sdev, struct simt_vram_bo *bo);
void simt_vram_bo_release(struct simt_device *sdev, struct simt_vram_bo *bo);
unsigned long simt_vram_bo_pfn(struct simt_device *sdev,
			       struct simt_vram_bo *bo, pgoff_t pgoff,
			       bool *sys);
void simt_vram_ctx_prepare(struct simt_ctx *ctx, bool launches);
struct dma_fence *simt_vram_ctx_armed(struct simt_ctx *ctx,
				      struct dma_fence *finished);
void simt_vram_bind(struct simt_ctx *ctx, struct simt_bind *b);
void simt_vram_unbind_begin(struct simt_ctx *ctx, struct simt_bind *b);
void simt_vram_unbind(struct simt_ctx *ctx, struct simt_bind *b);
void simt_vram_unplug(struct simt_device *sdev);

#endif /* __SIMT_VRAM_H__ */
