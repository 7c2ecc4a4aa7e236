/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: the context scheduling policy (simt_fair.c).
 */
#ifndef __SIMT_FAIR_H__
#define __SIMT_FAIR_H__

struct dma_fence;
struct simt_ctx;
struct simt_device;

void simt_fair_init(struct simt_device *sdev);
void simt_fair_fini(struct simt_device *sdev);
struct dma_fence *simt_fair_prepare_job(struct simt_ctx *ctx);

#endif /* __SIMT_FAIR_H__ */
