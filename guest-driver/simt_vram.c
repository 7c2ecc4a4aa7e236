// SPDX-License-Identifier: GPL-2.0-only
/*
 * simt: VRAM placement, oversubscribed (seed 003).
 *
 * Device addresses and VRAM are two allocators: every object (VRAM or
 * system memory) and every save area has a range of device addresses
 * (va_mm) for its whole life, and a VRAM object has VRAM (vram_mm) only
 * while it is *resident*.  Contexts map a VRAM object's device addresses
 * to its VRAM, or, while it is *evicted*, to system pages holding its
 * contents (SIMT_PTE_SYS leaves): kernels and copies reach it either way,
 * and nothing the user was given changes when it moves.  A resident
 * object gets the device address equal to its VRAM offset when that
 * range is free, which keeps addresses readable in dumps.
 *
 * When VRAM is full, objects are evicted in least-recently-submitted
 * order, but only *movable* ones: every context that binds them is idle
 * (the last job it armed has finished, its "CPU phase" in seed 003's
 * words), so the device cannot be reading or writing them.  A SUBMIT
 * that launches a kernel brings its context's evicted objects back if
 * the context was idle, the objects can move and room can be made
 * without evicting the context's own objects; otherwise they stay in
 * system memory, where kernels reach them at the cost of VRAM (PCIe is
 * not modelled).  A new object that finds no room starts evicted, so an
 * allocation fails only when system memory does.  Evicted pages are
 * charged to the memory cgroup of the object's creator, whoever's
 * allocation evicts it (as shmem pages of system objects are), so that
 * a cgroup's memory.max bounds what its tasks keep in system memory
 * through VRAM objects: an object whose cgroup is full is not evicted,
 * and a new one that would start evicted fails with ENOMEM.  Besides, at
 * most half the RAM is spent on evicted objects.  (Not RLIMIT_MEMLOCK:
 * oversubscribing VRAM is what unprivileged tenants do in seed 003, and
 * an 8 MiB limit would forbid it.)  The bytes move by the device's copy
 * engines, on the driver's move queue (simt_move.c), in the modelled time
 * of a copy at the device's copy bandwidth; CPU mappings are zapped
 * before a move and fault in again at the new place (simt_gem.c).  A
 * move is synchronous, under vram_lock, which keeps every other user of
 * the object (a submission, a binding, a CPU fault) out until it is
 * done; a move that fails leaves the object where it was.
 *
 * Locking: sdev->vram_lock covers both allocators, every object's
 * placement, its list of bindings and the LRU.  It nests inside a
 * context's lock and never takes one, so an eviction may rewrite the
 * leaves of any context whose bindings it finds on an object's list:
 * bindings leave that list (under vram_lock) before their page tables
 * are cleared or freed.  A SUBMIT marks its context busy (@arming) under
 * vram_lock before arming its job, and records the job's finished fence
 * as the context's last job before clearing the mark, so a context seen
 * idle under vram_lock cannot run anything until the lock is released.
 * Nothing here is done between arming and pushing a job: that section
 * signals fences, and vram_lock is held around page allocations.
 */

#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_vma_manager.h>

#include "simt_device.h"
#include "simt_mmu.h"
#include "simt_move.h"
#include "simt_vram.h"

static void simt_vram_mm_fini(struct drm_device *drm, void *arg)
{
	struct simt_device *sdev = arg;

	/*
	 * Runs when the last reference to the DRM device goes, after every
	 * file (and with it every object and context) is gone; a node left
	 * here would be a leak, and drm_mm_takedown() says so.
	 */
	drm_mm_takedown(&sdev->vram_mm);
	drm_mm_takedown(&sdev->va_mm);
}

/**
 * simt_vram_init() - Set up VRAM: claim and map BAR2, and the allocators.
 * @sdev: the device, identified.
 *
 * Uses the VRAM that BAR2 reaches, less the guard (SIMT_VRAM_GUARD, or
 * SIMT_VRAM_GUARD_SMALL for small VRAM); device addresses run from the
 * guard to SIMT_SHARED_BASE.  The allocators are taken down with the DRM
 * device.
 *
 * Return: 0, -ENODEV if VRAM is not larger than the guard, -ENOMEM if
 * BAR2 cannot be mapped, or another negative errno.
 */
int simt_vram_init(struct simt_device *sdev)
{
	struct pci_dev *pdev = sdev->pdev;
	u64 size = min_t(u64, sdev->vram_size, sdev->vram_bar_size);
	int ret;

	sdev->vram_guard = size >= 16 * SIMT_VRAM_GUARD ? SIMT_VRAM_GUARD :
			   SIMT_VRAM_GUARD_SMALL;
	if (size <= sdev->vram_guard) {
		drm_err(&sdev->drm, "VRAM of %llu bytes is too small\n", size);
		return -ENODEV;
	}

	ret = pcim_request_region(pdev, SIMT_BAR_VRAM, SIMT_DRIVER_NAME);
	if (ret) {
		drm_err(&sdev->drm, "cannot claim VRAM BAR%d: %d\n",
			SIMT_BAR_VRAM, ret);
		return ret;
	}
	sdev->vram_bar_start = pci_resource_start(pdev, SIMT_BAR_VRAM);
	sdev->vram = devm_ioremap_wc(&pdev->dev, sdev->vram_bar_start, size);
	if (!sdev->vram) {
		drm_err(&sdev->drm, "cannot map VRAM BAR%d\n", SIMT_BAR_VRAM);
		return -ENOMEM;
	}

	ret = drmm_mutex_init(&sdev->drm, &sdev->vram_lock);
	if (ret)
		return ret;
	INIT_LIST_HEAD(&sdev->vram_lru);
	INIT_LIST_HEAD(&sdev->vram_bos);
	sdev->vram_mm_size = size - sdev->vram_guard;
	drm_mm_init(&sdev->vram_mm, sdev->vram_guard, sdev->vram_mm_size);
	/* Below the guard: fixed bindings; from 3 GiB: the windows. */
	drm_mm_init(&sdev->va_mm, sdev->vram_guard,
		    SIMT_SHARED_BASE - sdev->vram_guard);
	return drmm_add_action_or_reset(&sdev->drm, simt_vram_mm_fini, sdev);
}

/**
 * simt_va_alloc() - Allocate device addresses.
 * @sdev: the device.
 * @va: the node to allocate, zeroed.
 * @size: bytes of device addresses.
 * @want: the address wanted, or 0 for no wish.
 *
 * At @want if that range is free, else the highest free range, away from
 * the VRAM offsets later objects may want.
 *
 * Context: caller holds &simt_device.vram_lock.
 * Return: 0, or -ENOSPC if no range of @size is free.
 */
int simt_va_alloc(struct simt_device *sdev, struct drm_mm_node *va, u64 size,
		  u64 want)
{
	lockdep_assert_held(&sdev->vram_lock);
	if (want) {
		va->start = want;
		va->size = size;
		if (!drm_mm_reserve_node(&sdev->va_mm, va))
			return 0;
		memset(va, 0, sizeof(*va));
	}
	return drm_mm_insert_node_generic(&sdev->va_mm, va, size,
					  SIMT_PAGE_SIZE, 0, DRM_MM_INSERT_HIGH);
}

/**
 * simt_va_free() - Free device addresses, if allocated.
 * @sdev: the device.
 * @va: a node of simt_va_alloc(), allocated or not.
 *
 * Context: takes &simt_device.vram_lock.
 */
void simt_va_free(struct simt_device *sdev, struct drm_mm_node *va)
{
	mutex_lock(&sdev->vram_lock);
	if (drm_mm_node_allocated(va))
		drm_mm_remove_node(va);
	mutex_unlock(&sdev->vram_lock);
}

static int simt_vram_insert(struct simt_device *sdev, struct drm_mm_node *node,
			    u64 size)
{
	int ret = drm_mm_insert_node_generic(&sdev->vram_mm, node, size,
					     SIMT_PAGE_SIZE, 0,
					     DRM_MM_INSERT_BEST);

	if (!ret)
		sdev->vram_used += size;
	return ret;
}

static void simt_vram_remove(struct simt_device *sdev, struct drm_mm_node *node)
{
	sdev->vram_used -= node->size;
	drm_mm_remove_node(node);
}

/*
 * Is @ctx no user queue's, arming no job, and has the last one it pushed
 * finished (or has it none)?  Under vram_lock.
 */
static bool simt_ctx_idle(struct simt_ctx *ctx)
{
	unsigned long flags;
	bool idle;

	lockdep_assert_held(&ctx->sdev->vram_lock);
	/* A user queue may run at any time, unseen (simt_userq.c). */
	if (ctx->userq)
		return false;
	/* Pairs with simt_vram_ctx_armed(). */
	if (smp_load_acquire(&ctx->arming))
		return false;
	spin_lock_irqsave(&ctx->fence_lock, flags);
	idle = !ctx->last_job || dma_fence_is_signaled(ctx->last_job);
	spin_unlock_irqrestore(&ctx->fence_lock, flags);
	return idle;
}

/*
 * Can @bo move?  Every context binding it is idle, except @keep, the
 * context whose submission asks for room: its objects stay where they
 * are (@keep_stays), or move for it (only its submission is in flight).
 */
static bool simt_vram_bo_movable(struct simt_vram_bo *bo,
				 struct simt_ctx *keep, bool keep_stays)
{
	struct simt_bind *b;

	list_for_each_entry(b, &bo->binds, obj_link) {
		if (b->unbinding)
			return false;
		if (b->ctx == keep) {
			if (keep_stays)
				return false;
		} else if (!simt_ctx_idle(b->ctx)) {
			return false;
		}
	}
	return true;
}

/* Point every binding of @bo at its current place, and flush the TLBs. */
static void simt_vram_bo_remap(struct simt_device *sdev,
			       struct simt_vram_bo *bo)
{
	struct simt_bind *b;
	u64 i, pages = bo->base.size >> SIMT_PAGE_SHIFT;

	list_for_each_entry(b, &bo->binds, obj_link) {
		if (bo->pages) {
			for (i = 0; i < pages; i++)
				simt_pt_write(b->ctx, b->addr + i * SIMT_PAGE_SIZE,
					      bo->dma[i], SIMT_PAGE_SIZE,
					      SIMT_PTE_RWX | SIMT_PTE_SYS);
		} else {
			simt_pt_write(b->ctx, b->addr, bo->node.start,
				      bo->base.size, SIMT_PTE_RWX);
		}
		simt_tlb_inv_ctx(sdev, b->ctx->hw_ctx);
	}
}

/* System pages of an evicted object, unmapped for DMA and freed. */
static void simt_vram_bo_pages_free(struct simt_device *sdev,
				    struct simt_vram_bo *bo)
{
	u64 i, pages = bo->base.size >> SIMT_PAGE_SHIFT;

	for (i = 0; i < pages && bo->pages[i]; i++) {
		if (bo->dma[i])
			dma_unmap_page(&sdev->pdev->dev, bo->dma[i],
				       SIMT_PAGE_SIZE, DMA_BIDIRECTIONAL);
		__free_page(bo->pages[i]);
	}
	kvfree(bo->pages);
	kvfree(bo->dma);
	bo->pages = NULL;
	bo->dma = NULL;
	sdev->evicted_bytes -= bo->base.size;
}

/*
 * System pages for all of @bo, zeroed (@zero) or to be filled by a move,
 * and mapped for the device.  The device MMU reaches DMA addresses below
 * 16 GiB only.
 */
static int simt_vram_bo_pages_alloc(struct simt_device *sdev,
				    struct simt_vram_bo *bo, bool zero)
{
	u64 i, pages = bo->base.size >> SIMT_PAGE_SHIFT;
	u64 limit = ((u64)totalram_pages() << PAGE_SHIFT) / 2;
	struct device *dev = &sdev->pdev->dev;
	/* No OOM kill in the cgroup: a full one only keeps @bo in VRAM. */
	gfp_t gfp = GFP_HIGHUSER | __GFP_NOWARN | __GFP_RETRY_MAYFAIL |
		    __GFP_ACCOUNT;
	struct mem_cgroup *old_memcg;

	BUILD_BUG_ON(PAGE_SIZE != SIMT_PAGE_SIZE);
	if (sdev->evicted_bytes + bo->base.size > limit)
		return -ENOMEM;
	bo->pages = kvcalloc(pages, sizeof(*bo->pages), GFP_KERNEL);
	bo->dma = kvcalloc(pages, sizeof(*bo->dma), GFP_KERNEL);
	sdev->evicted_bytes += bo->base.size;
	if (!bo->pages || !bo->dma)
		goto err;

	for (i = 0; i < pages; i++) {
		struct page *page;
		dma_addr_t dma;

		old_memcg = set_active_memcg(bo->memcg);
		page = alloc_page(gfp | (zero ? __GFP_ZERO : 0));
		set_active_memcg(old_memcg);
		if (!page)
			goto err;
		bo->pages[i] = page;
		dma = dma_map_page(dev, page, 0, SIMT_PAGE_SIZE,
				   DMA_BIDIRECTIONAL);
		if (dma_mapping_error(dev, dma))
			goto err;
		bo->dma[i] = dma;
		if (dma + SIMT_PAGE_SIZE > (1ull << (22 + SIMT_PAGE_SHIFT))) {
			dev_warn_ratelimited(dev, "page at DMA address %pad is out of the device MMU's reach: VRAM object not evicted\n",
					     &dma);
			goto err;
		}
	}
	return 0;

err:
	if (bo->pages && bo->dma) {
		simt_vram_bo_pages_free(sdev, bo);
	} else {
		kvfree(bo->pages);
		kvfree(bo->dma);
		bo->pages = NULL;
		bo->dma = NULL;
		sdev->evicted_bytes -= bo->base.size;
	}
	return -ENOMEM;
}

/* Forget the CPU's mappings of @bo: they fault in at its new place. */
static void simt_vram_bo_zap(struct simt_device *sdev, struct simt_vram_bo *bo)
{
	drm_vma_node_unmap(&bo->base.vma_node, sdev->drm.anon_inode->i_mapping);
}

/*
 * Move resident, movable @bo to system memory, its bytes by the move
 * queue's copies; under vram_lock.  If the move fails, @bo stays
 * resident, mapped as it was.
 */
static int simt_vram_bo_evict(struct simt_device *sdev,
			      struct simt_vram_bo *bo)
{
	int ret;

	lockdep_assert_held(&sdev->vram_lock);
	simt_vram_bo_zap(sdev, bo);
	ret = simt_vram_bo_pages_alloc(sdev, bo, false);
	if (ret)
		return ret;
	ret = simt_move_pages(sdev, bo->node.start, bo->dma,
			      bo->base.size >> SIMT_PAGE_SHIFT,
			      SIMT_MOVE_TO_SYSTEM);
	if (ret) {
		simt_vram_bo_pages_free(sdev, bo);
		return ret;
	}
	simt_vram_bo_remap(sdev, bo);
	list_del_init(&bo->lru);
	simt_vram_remove(sdev, &bo->node);
	bo->evictions++;
	atomic64_inc(&sdev->stats.evictions);
	return 0;
}

/*
 * VRAM for @node, evicting movable objects not bound to @keep, least
 * recently submitted first, until it fits.  Nothing is evicted if even
 * all of them would not make room.  Under vram_lock, inside
 * drm_dev_enter().
 */
static int simt_vram_alloc_evict(struct simt_device *sdev,
				 struct drm_mm_node *node, u64 size,
				 struct simt_ctx *keep)
{
	u64 room = sdev->vram_mm_size - sdev->vram_used;
	struct simt_vram_bo *bo, *next;
	int ret;

	lockdep_assert_held(&sdev->vram_lock);
	ret = simt_vram_insert(sdev, node, size);
	if (ret != -ENOSPC)
		return ret;
	list_for_each_entry(bo, &sdev->vram_lru, lru)
		if (simt_vram_bo_movable(bo, keep, true))
			room += bo->base.size;
	if (room < size)
		return -ENOSPC;
	list_for_each_entry_safe(bo, next, &sdev->vram_lru, lru) {
		if (!simt_vram_bo_movable(bo, keep, true) ||
		    simt_vram_bo_evict(sdev, bo))
			continue;
		ret = simt_vram_insert(sdev, node, size);
		if (ret != -ENOSPC)
			return ret;
	}
	return -ENOSPC;
}

/**
 * simt_vram_alloc() - Allocate VRAM for the driver's own use (page tables,
 * save areas).
 * @sdev: the device.
 * @node: the node to allocate, zeroed.
 * @size: bytes of VRAM.
 *
 * Movable objects are evicted, least recently submitted first, if that
 * makes room.
 *
 * Context: takes &simt_device.vram_lock, and may sleep for moves.
 * Return: 0, -ENOSPC if no room can be made, or -ENODEV if the device has
 * gone.
 */
int simt_vram_alloc(struct simt_device *sdev, struct drm_mm_node *node,
		    u64 size)
{
	int idx, ret = -ENODEV;

	if (!drm_dev_enter(&sdev->drm, &idx))
		return ret;
	mutex_lock(&sdev->vram_lock);
	ret = simt_vram_alloc_evict(sdev, node, size, NULL);
	mutex_unlock(&sdev->vram_lock);
	drm_dev_exit(idx);
	return ret;
}

/**
 * simt_vram_free() - Free VRAM of simt_vram_alloc().
 * @sdev: the device.
 * @node: the allocated node.
 *
 * Context: takes &simt_device.vram_lock.
 */
void simt_vram_free(struct simt_device *sdev, struct drm_mm_node *node)
{
	mutex_lock(&sdev->vram_lock);
	simt_vram_remove(sdev, node);
	mutex_unlock(&sdev->vram_lock);
}

/**
 * simt_vram_alloc_zeroed() - Allocate zeroed VRAM for the driver's own use.
 * @sdev: the device.
 * @node: the node to allocate, zeroed.
 * @size: bytes of VRAM.
 *
 * As simt_vram_alloc(), then zeroed through BAR2: the last owner's data
 * must not show.
 *
 * Context: takes &simt_device.vram_lock, and may sleep for moves.
 * Return: 0, -ENOMEM if no room can be made, or -ENODEV if the device has
 * gone.
 */
int simt_vram_alloc_zeroed(struct simt_device *sdev,
			   struct drm_mm_node *node, u64 size)
{
	int idx, ret = simt_vram_alloc(sdev, node, size);

	if (ret)
		return ret == -ENOSPC ? -ENOMEM : ret;
	if (!drm_dev_enter(&sdev->drm, &idx)) {
		simt_vram_free(sdev, node);
		return -ENODEV;
	}
	memset_io(sdev->vram + node->start, 0, size);
	drm_dev_exit(idx);
	return 0;
}

/**
 * simt_vram_bo_place() - Place a new VRAM object.
 * @sdev: the device.
 * @bo: the new object, initialized as a GEM object.
 *
 * Zeroed VRAM if room can be made (evicting others), else zeroed system
 * pages charged to @bo's memory cgroup (it starts evicted); then its
 * device addresses, at its VRAM offset if that range is free.  Unless the
 * device has gone, @bo goes on sdev->vram_bos whatever else happens, so
 * that its release undoes what was done.
 *
 * Context: takes &simt_device.vram_lock, and may sleep for moves.
 * Return: 0, -ENOMEM if neither VRAM nor system pages could be had,
 * -ENOSPC if no device addresses are left, or -ENODEV if the device has
 * gone.
 */
int simt_vram_bo_place(struct simt_device *sdev, struct simt_vram_bo *bo)
{
	u64 size = bo->base.size;
	int idx, ret;

	INIT_LIST_HEAD(&bo->lru);
	INIT_LIST_HEAD(&bo->all);
	INIT_LIST_HEAD(&bo->binds);
	if (!drm_dev_enter(&sdev->drm, &idx))
		return -ENODEV;
	mutex_lock(&sdev->vram_lock);
	ret = simt_vram_alloc_evict(sdev, &bo->node, size, NULL);
	if (!ret) {
		/* The previous owner's data must not leak to the next one. */
		memset_io(sdev->vram + bo->node.start, 0, size);
		list_add_tail(&bo->lru, &sdev->vram_lru);
	} else if (ret == -ENOSPC) {
		ret = simt_vram_bo_pages_alloc(sdev, bo, true);
	}
	if (!ret) {
		ret = simt_va_alloc(sdev, &bo->va, size,
				    bo->pages ? 0 : bo->node.start);
		if (ret)
			ret = -ENOSPC;
	}
	/* Released (list_del) with the object, whatever happened here. */
	list_add_tail(&bo->all, &sdev->vram_bos);
	mutex_unlock(&sdev->vram_lock);
	drm_dev_exit(idx);
	return ret;
}

/**
 * simt_vram_bo_release() - Give back whatever a VRAM object holds.
 * @sdev: the device.
 * @bo: the object being freed, bound nowhere.
 *
 * Its VRAM or system pages, and its device addresses.
 *
 * Context: takes &simt_device.vram_lock.
 */
void simt_vram_bo_release(struct simt_device *sdev, struct simt_vram_bo *bo)
{
	mutex_lock(&sdev->vram_lock);
	WARN_ON(!list_empty(&bo->binds));
	list_del(&bo->all);
	if (bo->pages)
		simt_vram_bo_pages_free(sdev, bo);
	if (drm_mm_node_allocated(&bo->node)) {
		list_del(&bo->lru);
		simt_vram_remove(sdev, &bo->node);
	}
	if (drm_mm_node_allocated(&bo->va))
		drm_mm_remove_node(&bo->va);
	mutex_unlock(&sdev->vram_lock);
}

/*
 * Bring evicted, movable @bo back for @keep's submission, if room allows,
 * its bytes by the move queue's copies.  If the move fails, @bo stays in
 * system memory.
 */
static void simt_vram_bo_restore(struct simt_device *sdev,
				 struct simt_vram_bo *bo, struct simt_ctx *keep)
{
	if (!simt_vram_bo_movable(bo, keep, false) ||
	    simt_vram_alloc_evict(sdev, &bo->node, bo->base.size, keep))
		return;
	simt_vram_bo_zap(sdev, bo);
	if (simt_move_pages(sdev, bo->node.start, bo->dma,
			    bo->base.size >> SIMT_PAGE_SHIFT,
			    SIMT_MOVE_TO_VRAM)) {
		simt_vram_remove(sdev, &bo->node);
		return;
	}
	simt_vram_bo_pages_free(sdev, bo);
	simt_vram_bo_remap(sdev, bo);
	list_add_tail(&bo->lru, &sdev->vram_lru);
	bo->restores++;
	atomic64_inc(&sdev->stats.restores);
}

/**
 * simt_vram_ctx_prepare() - Prepare a context's objects for its next job.
 * @ctx: the context, about to arm and push a job.
 * @launches: whether the job launches a kernel.
 *
 * The context's VRAM objects become the most recently used, and if the
 * job launches a kernel (as in seed 003, copies do not bring anything
 * back) the evicted ones come back if they can, but only if the context
 * was idle: earlier work may still be using them where they are.  From
 * here the context is busy (&simt_ctx.arming) until simt_vram_ctx_armed()
 * and then until the job has finished.  If the device has gone nothing
 * moves, but the context is marked busy all the same.
 *
 * Context: caller holds &simt_ctx.lock; takes &simt_device.vram_lock, and
 * may sleep for moves.
 */
void simt_vram_ctx_prepare(struct simt_ctx *ctx, bool launches)
{
	struct simt_device *sdev = ctx->sdev;
	struct simt_vram_bo *bo;
	struct simt_bind *b;
	bool idle;
	int idx;

	lockdep_assert_held(&ctx->lock);
	mutex_lock(&sdev->vram_lock);
	idle = simt_ctx_idle(ctx);
	WRITE_ONCE(ctx->arming, true);
	if (!drm_dev_enter(&sdev->drm, &idx)) {
		mutex_unlock(&sdev->vram_lock);
		return;
	}
	list_for_each_entry(b, &ctx->binds, link) {
		if (!b->vram)
			continue;
		bo = to_simt_vram_bo(b->obj);
		if (!bo->pages)
			list_move_tail(&bo->lru, &sdev->vram_lru);
		else if (idle && launches)
			simt_vram_bo_restore(sdev, bo, ctx);
	}
	drm_dev_exit(idx);
	mutex_unlock(&sdev->vram_lock);
}

/**
 * simt_vram_ctx_armed() - Note a context's armed job as its last one.
 * @ctx: the context, which has armed its job and is about to push it.
 * @finished: the job's finished fence.
 *
 * The job is the context's last job, busy until it has finished; the
 * mark simt_vram_ctx_prepare() set goes.  No allocation, no vram_lock:
 * this runs between arming and pushing, where fences are being
 * signalled.
 *
 * Context: caller holds &simt_ctx.lock; takes &simt_ctx.fence_lock.
 * Return: the previous last job's fence (or NULL), for the caller to put
 * once it can.
 */
struct dma_fence *simt_vram_ctx_armed(struct simt_ctx *ctx,
				      struct dma_fence *finished)
{
	struct dma_fence *last;
	unsigned long flags;

	spin_lock_irqsave(&ctx->fence_lock, flags);
	last = ctx->last_job;
	ctx->last_job = dma_fence_get(finished);
	spin_unlock_irqrestore(&ctx->fence_lock, flags);
	/* Pairs with simt_ctx_idle(): the fence is seen before the mark goes. */
	smp_store_release(&ctx->arming, false);
	return last;
}

/**
 * simt_vram_bind() - Map a VRAM object's binding and put it on the
 * object's list.
 * @ctx: the context, whose page tables for the range are prepared.
 * @b: the binding of a VRAM object, at @b->addr.
 *
 * The leaves point at where the object is now, VRAM or system pages; the
 * mapping and the list entry are made at once with respect to moves.
 *
 * Context: caller holds &simt_ctx.lock; takes &simt_device.vram_lock.
 */
void simt_vram_bind(struct simt_ctx *ctx, struct simt_bind *b)
{
	struct simt_device *sdev = ctx->sdev;
	struct simt_vram_bo *bo = to_simt_vram_bo(b->obj);
	u64 i, pages = b->obj->size >> SIMT_PAGE_SHIFT;

	mutex_lock(&sdev->vram_lock);
	if (bo->pages) {
		for (i = 0; i < pages; i++)
			simt_pt_write(ctx, b->addr + i * SIMT_PAGE_SIZE,
				      bo->dma[i], SIMT_PAGE_SIZE,
				      SIMT_PTE_RWX | SIMT_PTE_SYS);
	} else {
		simt_pt_write(ctx, b->addr, bo->node.start, b->obj->size,
			      SIMT_PTE_RWX);
	}
	b->ctx = ctx;
	list_add_tail(&b->obj_link, &bo->binds);
	mutex_unlock(&sdev->vram_lock);
}

/**
 * simt_vram_unbind_begin() - Keep a binding's object where it is while it
 * is being unbound.
 * @ctx: the context, which may be running.
 * @b: the binding of a VRAM object, to be unbound.
 *
 * Until simt_vram_unbind(), no eviction frees the VRAM that the context's
 * page tables and TLB still point at, nor writes the binding's entries
 * again once they are gone.
 *
 * Context: caller holds &simt_ctx.lock; takes &simt_device.vram_lock.
 */
void simt_vram_unbind_begin(struct simt_ctx *ctx, struct simt_bind *b)
{
	mutex_lock(&ctx->sdev->vram_lock);
	b->unbinding = true;
	mutex_unlock(&ctx->sdev->vram_lock);
}

/**
 * simt_vram_unbind() - Take a binding off its VRAM object's list.
 * @ctx: the context.
 * @b: the binding of a VRAM object.
 *
 * Called before the binding's leaves are cleared or freed, so that no move
 * rewrites them afterwards.
 *
 * Context: caller holds &simt_ctx.lock; takes &simt_device.vram_lock.
 */
void simt_vram_unbind(struct simt_ctx *ctx, struct simt_bind *b)
{
	mutex_lock(&ctx->sdev->vram_lock);
	list_del(&b->obj_link);
	mutex_unlock(&ctx->sdev->vram_lock);
}

/**
 * simt_vram_bo_pfn() - The pfn of a page of a VRAM object, where it is.
 * @sdev: the device.
 * @bo: the object.
 * @pgoff: the page's index in @bo.
 * @sys: set to true if the page is a system page (@bo is evicted), false
 *	if it is in BAR2.
 *
 * The fault handler's view (simt_gem.c).
 *
 * Context: caller holds &simt_device.vram_lock.
 * Return: the pfn of the page.
 */
unsigned long simt_vram_bo_pfn(struct simt_device *sdev,
			       struct simt_vram_bo *bo, pgoff_t pgoff,
			       bool *sys)
{
	lockdep_assert_held(&sdev->vram_lock);
	*sys = bo->pages;
	if (bo->pages)
		return page_to_pfn(bo->pages[pgoff]);
	return ((sdev->vram_bar_start + bo->node.start) >> PAGE_SHIFT) + pgoff;
}

/**
 * simt_vram_unplug() - Unmap evicted objects' pages for a device that has
 * gone.
 * @sdev: the device, unplugged and quiet.
 *
 * The system pages stay, with the objects' contents; their DMA addresses
 * become 0.  Nothing moves an object any more: every move runs inside
 * drm_dev_enter().
 *
 * Context: caller holds &simt_device.dma_lock; takes
 * &simt_device.vram_lock.
 */
void simt_vram_unplug(struct simt_device *sdev)
{
	struct simt_vram_bo *bo;
	u64 i, pages;

	lockdep_assert_held(&sdev->dma_lock);
	mutex_lock(&sdev->vram_lock);
	list_for_each_entry(bo, &sdev->vram_bos, all) {
		pages = bo->base.size >> SIMT_PAGE_SHIFT;
		for (i = 0; bo->pages && i < pages; i++) {
			if (!bo->dma[i])
				continue;
			dma_unmap_page(sdev->drm.dev, bo->dma[i], SIMT_PAGE_SIZE,
				       DMA_BIDIRECTIONAL);
			bo->dma[i] = 0;
		}
	}
	mutex_unlock(&sdev->vram_lock);
}
