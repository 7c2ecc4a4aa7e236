/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: a context's hardware context and queue registers (simt_hwq.c).
 */
#ifndef __SIMT_HWQ_H__
#define __SIMT_HWQ_H__

#include <linux/types.h>

struct simt_ctx;

int simt_ctx_hw_init(struct simt_ctx *ctx);
/* Start @ctx's queue, empty (the context's registers are set). */
int simt_ctx_queue_start(struct simt_ctx *ctx);
/* Stop @ctx's queue and empty it (its counters restart at 0). */
void simt_ctx_stop_queue(struct simt_ctx *ctx);
/* @ctx closes: stop its queue, which is given back, and its context. */
void simt_ctx_hw_fini(struct simt_ctx *ctx);
/* Add what @ctx's queue counted since the last look to its file's usage. */
void simt_ctx_usage_update(struct simt_ctx *ctx);
/* The same, before a device reset sets the counters to 0. */
void simt_ctx_usage_restart(struct simt_ctx *ctx);

#endif /* __SIMT_HWQ_H__ */
