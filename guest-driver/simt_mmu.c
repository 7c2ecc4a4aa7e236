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

/**
 * simt_tlb_inv_ctx() - Forget the device's cached translations of one
 * hardware context.
 * @sdev: the device, present (inside drm_dev_enter()).
 * @hw_ctx: the hardware context.
 *
 * Context: takes &simt_device.hw_lock, which keeps the register pair
 * together.
 */
void simt_tlb_inv_ctx(struct simt_device *sdev, u32 hw_ctx)
{
	mutex_lock(&sdev->hw_lock);
	simt_wr32(sdev, SIMT_REG_TLB_INV_CTX, hw_ctx);
	simt_wr32(sdev, SIMT_REG_TLB_INV, SIMT_TLB_INV_CTX);
	mutex_unlock(&sdev->hw_lock);
}

/**
 * simt_pt_alloc_zeroed() - Allocate a zeroed page table in VRAM.
 * @sdev: the device.
 * @node: the node to allocate, zeroed.
 *
 * Context: takes &simt_device.vram_lock (simt_vram_alloc_zeroed()), and
 * may sleep for moves.
 * Return: 0, -ENOMEM if no VRAM can be had, or -ENODEV if the device has
 * gone.
 */
int simt_pt_alloc_zeroed(struct simt_device *sdev,
			 struct drm_mm_node *node)
{
	return simt_vram_alloc_zeroed(sdev, node, SIMT_PAGE_SIZE);
}

/**
 * simt_pt_unmap() - Clear the leaves of a range of device addresses.
 * @ctx: the context.
 * @addr: the range's start, page-aligned.
 * @size: its length in bytes.
 *
 * The leaves of [@addr, @addr + @size) where a second-level table is
 * there; the tables stay for later bindings.  The caller flushes the TLB.
 *
 * Context: caller holds &simt_ctx.lock.
 */
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

/**
 * simt_pt_prepare() - Make the second-level tables of a range.
 * @ctx: the context.
 * @addr: the range's start.
 * @size: its length in bytes.
 *
 * The second-level tables for [@addr, @addr + @size), allocated (zeroed)
 * and entered in the root where missing.  Tables stay until the context
 * goes; on failure those already made stay too.
 *
 * Context: caller holds &simt_ctx.lock; takes &simt_device.vram_lock, and
 * may sleep.
 * Return: 0, -ENOMEM, or -ENODEV if the device has gone.
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

/**
 * simt_pt_write() - Write the leaves of a mapping.
 * @ctx: the context.
 * @addr: the device address, page-aligned.
 * @pa: what it maps: a VRAM offset, or with SIMT_PTE_SYS a DMA address.
 * @size: bytes to map, whole pages.
 * @bits: the PTE bits (SIMT_PTE_*).
 *
 * The tables are there (simt_pt_prepare()).  The caller flushes the TLB
 * if the range was mapped before.
 *
 * Context: caller holds &simt_ctx.lock, or for a bound VRAM object's range
 * &simt_device.vram_lock (simt_vram.c).
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

/**
 * simt_pt_map() - Map a range: prepare its tables, then write its leaves.
 * @ctx: the context.
 * @addr: the device address, page-aligned.
 * @pa: what it maps: a VRAM offset, or with SIMT_PTE_SYS a DMA address.
 * @size: bytes to map, whole pages.
 * @bits: the PTE bits (SIMT_PTE_*).
 *
 * Context: caller holds &simt_ctx.lock; takes &simt_device.vram_lock, and
 * may sleep.
 * Return: 0, or a negative errno of simt_pt_prepare(); then nothing is
 * mapped.
 */
int simt_pt_map(struct simt_ctx *ctx, u64 addr, u64 pa, u64 size,
		u32 bits)
{
	int ret = simt_pt_prepare(ctx, addr, size);

	if (!ret)
		simt_pt_write(ctx, addr, pa, size, bits);
	return ret;
}

/**
 * simt_pt_free() - Free a context's page tables, the root too.
 * @ctx: the context, which is going (or failed to be created).
 *
 * Context: caller holds &simt_ctx.lock; takes &simt_device.vram_lock.
 */
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
