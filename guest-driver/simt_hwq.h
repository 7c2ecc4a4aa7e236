/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: a context's hardware context and queue registers (simt_hwq.c).
 */
#ifndef __SIMT_HWQ_H__
#define __SIMT_HWQ_H__

#include <linux/types.h>

struct simt_ctx;

int simt_ctx_hw_init(struct simt_ctx *ctx);
int simt_ctx_queue_start(struct simt_ctx *ctx);
void simt_ctx_stop_queue(struct simt_ctx *ctx);
void simt_ctx_hw_fini(struct simt_ctx *ctx);
void simt_ctx_usage_update(struct simt_ctx *ctx);
void simt_ctx_usage_restart(struct simt_ctx *ctx);

#endif /* __SIMT_HWQ_H__ */
