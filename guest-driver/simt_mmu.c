// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: a context's Sv32 page tables in VRAM, and the device's TLB.
 *
 * A context's root table is allocated with it; second-level tables as
 * bindings need them, and they stay until the context goes.  Leaves are
 * written under the context's lock, or for a bound VRAM object's range
 * under vram_lock, when simt_vram.c moves the object: page tables take
 * VRAM (which may evict an object), and a move rewrites page tables, so
 * this file and simt_vram.c call each other, the one loop of calls
 * between the driver's parts besides the callbacks docs/driver.rst lists.
 */

#include <linux/io.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "simt_device.h"
#include "simt_mmu.h"
#include "simt_vram.h"

static u32 simt_pte(u64 vram_addr, u32 bits)
{
	return (u32)(vram_addr >> SIMT_PAGE_SHIFT) << SIMT_PTE_PPN_SHIFT | bits;
}

/* Forget the device's cached translations of one context. */
void simt_tlb_inv_ctx(struct simt_device *sdev, u32 hw_ctx)
{
	mutex_lock(&sdev->hw_lock);
	simt_wr32(sdev, SIMT_REG_TLB_INV_CTX, hw_ctx);
	simt_wr32(sdev, SIMT_REG_TLB_INV, SIMT_TLB_INV_CTX);
	mutex_unlock(&sdev->hw_lock);
}

int simt_pt_alloc_zeroed(struct simt_device *sdev,
				struct drm_mm_node *node)
{
	return simt_vram_alloc_zeroed(sdev, node, SIMT_PAGE_SIZE);
}

/* Clear the leaves of [addr, addr + size); tables stay for later bindings. */
void simt_pt_unmap(struct simt_ctx *ctx, u64 addr, u64 size)
{
	struct simt_device *sdev = ctx->sdev;
	u64 a;

	lockdep_assert_held(&ctx->lock);
	for (a = addr; a < addr + size; a += SIMT_PAGE_SIZE) {
		struct drm_mm_node *l2 = ctx->pt_l2[SIMT_VPN1(a)];

		if (l2)
			writel(0, sdev->vram + l2->start +
			       SIMT_VPN0(a) * 4);
	}
}

/*
 * Second-level tables for [addr, addr + size), allocated (zeroed) where
 * missing.  Tables stay until the context goes.
 */
int simt_pt_prepare(struct simt_ctx *ctx, u64 addr, u64 size)
{
	struct simt_device *sdev = ctx->sdev;
	struct drm_mm_node *l2;
	u64 a;
	int ret;

	lockdep_assert_held(&ctx->lock);
	for (a = addr & ~(u64)(SZ_4M - 1); a < addr + size; a += SZ_4M) {
		unsigned int l1 = SIMT_VPN1(a);

		if (ctx->pt_l2[l1])
			continue;
		l2 = kzalloc(sizeof(*l2), GFP_KERNEL);
		if (!l2)
			return -ENOMEM;
		ret = simt_pt_alloc_zeroed(sdev, l2);
		if (ret) {
			kfree(l2);
			return ret;
		}
		ctx->pt_l2[l1] = l2;
		writel(simt_pte(l2->start, SIMT_PTE_V),
		       sdev->vram + ctx->pt_root.start + l1 * 4);
	}
	return 0;
}

/*
 * Write the leaves mapping @size bytes at @pa to device address @addr
 * with PTE @bits: VRAM, or with SIMT_PTE_SYS system memory at DMA address
 * @pa.  The tables are there (simt_pt_prepare()).  Under ctx->lock, or
 * for a bound VRAM object's range under vram_lock (simt_vram.c).
 */
void simt_pt_write(struct simt_ctx *ctx, u64 addr, u64 pa, u64 size,
		   u32 bits)
{
	struct simt_device *sdev = ctx->sdev;
	u64 a;

	lockdep_assert(lockdep_is_held(&ctx->lock) ||
		       lockdep_is_held(&sdev->vram_lock));
	for (a = addr; a < addr + size; a += SIMT_PAGE_SIZE)
		writel(simt_pte(pa + (a - addr), bits),
		       sdev->vram + ctx->pt_l2[SIMT_VPN1(a)]->start +
		       SIMT_VPN0(a) * 4);
}

/* Map @size bytes at @pa to device address @addr with PTE @bits. */
int simt_pt_map(struct simt_ctx *ctx, u64 addr, u64 pa, u64 size,
		       u32 bits)
{
	int ret = simt_pt_prepare(ctx, addr, size);

	if (!ret)
		simt_pt_write(ctx, addr, pa, size, bits);
	return ret;
}

/* A context's tables, root too: the context is going. */
void simt_pt_free(struct simt_ctx *ctx)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ctx->pt_l2); i++) {
		if (ctx->pt_l2[i]) {
			simt_vram_free(ctx->sdev, ctx->pt_l2[i]);
			kfree(ctx->pt_l2[i]);
			ctx->pt_l2[i] = NULL;
		}
	}
	if (drm_mm_node_allocated(&ctx->pt_root))
		simt_vram_free(ctx->sdev, &ctx->pt_root);
}
