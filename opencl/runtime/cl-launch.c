/* SPDX-License-Identifier: MIT */
/*
 * Kernel launches: clEnqueueNDRangeKernel and clEnqueueTask.  A launch
 * takes a copy of the kernel's argument block (with the work dimension,
 * the global offset and the __local buffers' addresses filled in) into
 * device memory of the context, an argument slot, and passes its address
 * as the kernel's one argument word (include/hw/simt/simt-clargs.h).
 * Slots are reused once the launch that used one has ended.
 *
 * Copyright the simt authors.  Licensed under the MIT licence, as
 * written out in guest/libsimt/libsimt.h.
 */
#include <stdlib.h>
#include <string.h>

#include "hw/simt/simt-isa.h"
#include "simt-cl.h"

#define SLOT_BYTES 4096u
/* Slots kept; past them a launch waits for the oldest to end. */
#define MAX_SLOTS 64
/* A work-group the runtime chooses has at most this many work-items. */
#define CHOSEN_GROUP_MAX 128

struct simt_cl_arg_slot *simt_cl_arg_slot(cl_context ctx, uint32_t size,
					  cl_int *err)
{
	struct simt_cl_arg_slot *s, *oldest = NULL;
	unsigned int count = 0;

	size = (size + SLOT_BYTES - 1) & ~(SLOT_BYTES - 1);
	simt_cl_reap(ctx, ctx->last_seq, false);
	for (s = ctx->slots; s; s = s->next, count++) {
		if (s->size < size)
			continue;
		if (!s->seq || simt_cl_seq_done(ctx, s->seq))
			return s;
		if (!oldest || s->seq < oldest->seq)
			oldest = s;
	}
	if (count >= MAX_SLOTS && oldest) {
		simt_cl_reap(ctx, oldest->seq, true);
		return oldest;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return NULL;
	}
	if (simt_mem_alloc(ctx->sctx, size, &s->buf) ||
	    simt_buffer_map(s->buf, (void **)&s->map)) {
		simt_cl_notify(ctx, "an argument block: %s", simt_last_error());
		if (s->buf)
			simt_mem_free(s->buf);
		free(s);
		*err = CL_OUT_OF_RESOURCES;
		return NULL;
	}
	s->size = size;
	s->next = ctx->slots;
	ctx->slots = s;
	return s;
}

/* The simt_context frees the slots' memory with it. */
void simt_cl_context_free_slots(cl_context ctx)
{
	while (ctx->slots) {
		struct simt_cl_arg_slot *s = ctx->slots;

		ctx->slots = s->next;
		free(s);
	}
}

static cl_int run_launch(struct simt_cl_command *cmd)
{
	cl_kernel k = cmd->u.launch.kernel;
	cl_context ctx = k->program->ctx;
	struct simt_cl_arg_slot *slot;
	uint32_t addr;
	uint64_t seq;
	cl_int err;

	slot = simt_cl_arg_slot(ctx, cmd->u.launch.block_size, &err);
	if (!slot)
		return err;
	memcpy(slot->map, cmd->u.launch.block, cmd->u.launch.block_size);
	/* The block's stores (write-combined on the device) before the launch. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	addr = simt_buffer_addr(slot->buf);
	if (simt_launch(k->kernel, cmd->u.launch.grid, cmd->u.launch.group,
			cmd->u.launch.dynamic_shared, &addr, 1, &seq)) {
		simt_cl_notify(ctx, "launch of %s: %s", k->ck->name,
			       simt_last_error());
		return CL_OUT_OF_RESOURCES;
	}
	slot->seq = seq;
	simt_cl_event_launched(cmd->event, seq);
	return CL_SUCCESS;
}

static void launch_done(struct simt_cl_command *cmd)
{
	simt_cl_kernel_release(cmd->u.launch.kernel);
	free(cmd->u.launch.block);
}

/* The largest divisor of @n that is at most @limit. */
static size_t divisor_up_to(size_t n, size_t limit)
{
	for (size_t d = limit < n ? limit : n; d > 1; d--) {
		if (n % d == 0)
			return d;
	}
	return 1;
}

/*
 * Check a launch's sizes as OpenCL 1.2 does, and choose the work-group
 * if @lws is NULL: the most work-items up to CHOSEN_GROUP_MAX whose
 * sizes divide the global ones, dimension 0 first.
 */
static cl_int launch_shape(cl_kernel k, cl_uint dim, const size_t *gwo,
			   const size_t *gws, const size_t *lws,
			   size_t group[3], size_t global[3])
{
	size_t max = simt_cl_kernel_max_group(k), items = 1;
	size_t item_max = k->program->ctx->device->max_work_group;

	if (dim < 1 || dim > 3)
		return CL_INVALID_WORK_DIMENSION;
	if (!gws)
		return CL_INVALID_GLOBAL_WORK_SIZE;
	for (cl_uint i = 0; i < 3; i++) {
		global[i] = i < dim ? gws[i] : 1;
		group[i] = 1;
		if (!global[i] || global[i] > UINT32_MAX)
			return CL_INVALID_GLOBAL_WORK_SIZE;
		if (gwo && i < dim && gwo[i] > UINT32_MAX - global[i])
			return CL_INVALID_GLOBAL_OFFSET;
	}
	if (lws) {
		for (cl_uint i = 0; i < dim; i++) {
			if (!lws[i] || global[i] % lws[i])
				return CL_INVALID_WORK_GROUP_SIZE;
			if (lws[i] > item_max)
				return CL_INVALID_WORK_ITEM_SIZE;
			group[i] = lws[i];
			items *= lws[i];
		}
		return items > max ? CL_INVALID_WORK_GROUP_SIZE : CL_SUCCESS;
	}
	max = max < CHOSEN_GROUP_MAX ? max : CHOSEN_GROUP_MAX;
	for (cl_uint i = 0; i < dim; i++) {
		group[i] = divisor_up_to(global[i], max / items);
		items *= group[i];
	}
	return CL_SUCCESS;
}

/*
 * The launch's copy of @k's argument block: the header, and each
 * __local argument's buffer after the static shared memory and the
 * buffers before it.  *@dynamic gets their total.
 */
static uint8_t *launch_block(cl_kernel k, cl_uint dim, const size_t *gwo,
			     uint32_t *dynamic)
{
	struct simt_cl_block_header *h;
	uint8_t *block = malloc(k->ck->block_size);
	uint32_t at = 0;

	if (!block)
		return NULL;
	memcpy(block, k->block, k->ck->block_size);
	h = (struct simt_cl_block_header *)block;
	h->work_dim = dim;
	for (cl_uint i = 0; i < 3; i++)
		h->global_offset[i] = gwo && i < dim ? (uint32_t)gwo[i] : 0;
	for (uint32_t i = 0; i < k->ck->nargs; i++) {
		const struct simt_clarg *a = &k->ck->args[i];
		uint32_t addr;

		if (a->kind != SIMT_CLARG_LOCAL)
			continue;
		addr = SIMT_SHARED_BASE + k->attrs.shared_bytes + at;
		memcpy(block + a->offset, &addr, sizeof(addr));
		at += (k->local_size[i] + SIMT_CL_LOCAL_ALIGN - 1) &
		      ~(uint32_t)(SIMT_CL_LOCAL_ALIGN - 1);
	}
	*dynamic = at;
	return block;
}

static cl_int enqueue_launch(cl_command_queue q, cl_command_type type,
			     cl_kernel k, cl_uint dim, const size_t *gwo,
			     const size_t *gws, const size_t *lws, cl_uint n,
			     const cl_event *list, cl_event *event)
{
	struct simt_cl_command *cmd;
	size_t group[3], global[3];
	const struct simt_device_info *info;
	cl_int err;

	if (!cl_valid(q, MAGIC_QUEUE))
		return CL_INVALID_COMMAND_QUEUE;
	if (!cl_valid(k, MAGIC_KERNEL))
		return CL_INVALID_KERNEL;
	if (k->program->ctx != q->ctx)
		return CL_INVALID_CONTEXT;
	pthread_mutex_lock(&simt_cl_lock);
	err = launch_shape(k, dim, gwo, gws, lws, group, global);
	for (uint32_t i = 0; !err && i < k->ck->nargs; i++) {
		if (!k->arg_set[i])
			err = CL_INVALID_KERNEL_ARGS;
	}
	info = &q->ctx->device->info;
	if (!err && info->sm_shared && simt_cl_kernel_local_bytes(k) > info->sm_shared)
		err = CL_OUT_OF_RESOURCES;
	cmd = err ? NULL : simt_cl_command_new(q, type, n, list, &err);
	if (cmd) {
		cmd->u.launch.block = launch_block(k, dim, gwo,
						   &cmd->u.launch.dynamic_shared);
		if (!cmd->u.launch.block) {
			simt_cl_command_discard(cmd);
			cmd = NULL;
			err = CL_OUT_OF_HOST_MEMORY;
		}
	}
	if (cmd) {
		cmd->u.launch.kernel = k;
		k->h.refs++;
		cmd->u.launch.block_size = k->ck->block_size;
		cmd->u.launch.group = (simt_dim3){ group[0], group[1], group[2] };
		cmd->u.launch.grid = (simt_dim3){ global[0] / group[0],
						  global[1] / group[1],
						  global[2] / group[2] };
		cmd->run = run_launch;
		cmd->done = launch_done;
		err = simt_cl_command_submit(cmd, false, event);
	}
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint work_dim,
		       const size_t *global_work_offset,
		       const size_t *global_work_size,
		       const size_t *local_work_size, cl_uint n,
		       const cl_event *list, cl_event *event)
{
	return enqueue_launch(q, CL_COMMAND_NDRANGE_KERNEL, k, work_dim,
			      global_work_offset, global_work_size,
			      local_work_size, n, list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint n, const cl_event *list,
	      cl_event *event)
{
	static const size_t one = 1;

	return enqueue_launch(q, CL_COMMAND_TASK, k, 1, NULL, &one, &one, n,
			      list, event);
}
