/* SPDX-License-Identifier: MIT */
/*
 * Contexts (one simt_context each, at the priority and preemption mode
 * of cl_simt.h's properties) and command queues.
 *
 * Copyright the simt authors.  Licensed under the MIT licence, as
 * written out in guest/libsimt/libsimt.h.
 */
#include <stdlib.h>
#include <string.h>

#include "CL/cl_simt.h"
#include "simt-cl.h"

struct _cl_command_queue *simt_cl_queues;

/*
 * Check @props (CL_CONTEXT_PLATFORM, CL_CONTEXT_INTEROP_USER_SYNC and
 * cl_simt.h's two) into @ctx, and take the priority and mode.
 */
static cl_int context_props(cl_context ctx, const cl_context_properties *props,
			    int *priority, int *mode)
{
	size_t n = 0;

	*priority = SIMT_PRIORITY_NORMAL;
	*mode = SIMT_PREEMPT_DEFAULT;
	for (; props && props[0]; props += 2) {
		cl_context_properties v = props[1];
		size_t k;

		for (k = 0; k < n; k += 2) {
			if (ctx->props[k] == props[0])
				return CL_INVALID_PROPERTY;	/* twice */
		}
		if (n + 3 > sizeof(ctx->props) / sizeof(ctx->props[0]))
			return CL_INVALID_PROPERTY;
		switch (props[0]) {
		case CL_CONTEXT_PLATFORM:
			if ((cl_platform_id)v != &simt_cl_platform)
				return CL_INVALID_PLATFORM;
			break;
		case CL_CONTEXT_INTEROP_USER_SYNC:
			break;
		case CL_CONTEXT_PRIORITY_SIMT:
			if (v < CL_PRIORITY_LOW_SIMT || v > CL_PRIORITY_REALTIME_SIMT)
				return CL_INVALID_PROPERTY;
			*priority = (int)v;
			break;
		case CL_CONTEXT_PREEMPTION_SIMT:
			if (v < CL_PREEMPTION_DEFAULT_SIMT ||
			    v > CL_PREEMPTION_CHIMERA_SIMT)
				return CL_INVALID_PROPERTY;
			*mode = (int)v;
			break;
		default:
			return CL_INVALID_PROPERTY;
		}
		ctx->props[n++] = props[0];
		ctx->props[n++] = v;
	}
	ctx->props[n] = 0;
	ctx->nprops = n ? n + 1 : 0;
	return CL_SUCCESS;
}

CL_API_ENTRY cl_context CL_API_CALL
clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
		const cl_device_id *devices,
		void (CL_CALLBACK *pfn_notify)(const char *, const void *,
					       size_t, void *),
		void *user_data, cl_int *errcode_ret)
{
	cl_context ctx;
	simt_status st;
	int priority, mode;
	cl_int err;

	if (!num_devices || !devices || (!pfn_notify && user_data))
		return simt_cl_fail(errcode_ret, CL_INVALID_VALUE);
	for (cl_uint i = 0; i < num_devices; i++) {
		if (!devices[i] || devices[i] != simt_cl_device)
			return simt_cl_fail(errcode_ret, CL_INVALID_DEVICE);
	}
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return simt_cl_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
	err = context_props(ctx, properties, &priority, &mode);
	if (err) {
		free(ctx);
		return simt_cl_fail(errcode_ret, err);
	}
	simt_cl_head_init(&ctx->h, MAGIC_CONTEXT);
	ctx->device = simt_cl_device;
	ctx->inflight_tail = &ctx->inflight;
	ctx->notify = pfn_notify;
	ctx->notify_data = user_data;
	pthread_mutex_lock(&simt_cl_lock);
	st = simt_context_create(ctx->device->dev, priority, mode, &ctx->sctx);
	if (st) {
		simt_cl_notify(ctx, "simt_context_create: %s", simt_last_error());
		pthread_mutex_unlock(&simt_cl_lock);
		simt_cl_head_kill(&ctx->h);
		free(ctx);
		/* A priority the caller may not have, or no hardware queue. */
		return simt_cl_fail(errcode_ret, st == SIMT_ERROR_PERMISSION ||
				    st == SIMT_ERROR_INVALID_VALUE ?
				    CL_INVALID_OPERATION : CL_OUT_OF_RESOURCES);
	}
	pthread_mutex_unlock(&simt_cl_lock);
	if (errcode_ret)
		*errcode_ret = CL_SUCCESS;
	return ctx;
}

CL_API_ENTRY cl_context CL_API_CALL
clCreateContextFromType(const cl_context_properties *properties,
			cl_device_type device_type,
			void (CL_CALLBACK *pfn_notify)(const char *, const void *,
						       size_t, void *),
			void *user_data, cl_int *errcode_ret)
{
	cl_device_id dev;
	cl_int err = clGetDeviceIDs(NULL, device_type, 1, &dev, NULL);

	if (err)
		return simt_cl_fail(errcode_ret, err);
	return clCreateContext(properties, 1, &dev, pfn_notify, user_data,
			       errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context ctx)
{
	return simt_cl_retain(ctx, MAGIC_CONTEXT, CL_INVALID_CONTEXT);
}

/* Drop a reference (objects of the context hold one each); lock held. */
static void context_release(cl_context ctx)
{
	if (--ctx->h.refs)
		return;
	simt_cl_context_free_slots(ctx);
	simt_context_destroy(ctx->sctx);
	simt_cl_head_kill(&ctx->h);
	free(ctx);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context ctx)
{
	return simt_cl_release(ctx, MAGIC_CONTEXT, CL_INVALID_CONTEXT);
}

/* For the objects' files: a context reference taken or dropped. */
void simt_cl_context_retain(cl_context ctx)
{
	ctx->h.refs++;
}

void simt_cl_context_release(cl_context ctx)
{
	context_release(ctx);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetContextInfo(cl_context ctx, cl_context_info param_name,
		 size_t param_value_size, void *param_value,
		 size_t *param_value_size_ret)
{
	cl_int err;

	pthread_mutex_lock(&simt_cl_lock);
	if (!cl_valid(ctx, MAGIC_CONTEXT)) {
		err = CL_INVALID_CONTEXT;
	} else {
		switch (param_name) {
		case CL_CONTEXT_REFERENCE_COUNT:
			err = CL_INFO_VALUE(cl_uint, ctx->h.refs);
			break;
		case CL_CONTEXT_NUM_DEVICES:
			err = CL_INFO_VALUE(cl_uint, 1);
			break;
		case CL_CONTEXT_DEVICES:
			err = CL_INFO_VALUE(cl_device_id, ctx->device);
			break;
		case CL_CONTEXT_PROPERTIES:
			err = simt_cl_info(ctx->props,
					   ctx->nprops * sizeof(ctx->props[0]),
					   param_value_size, param_value,
					   param_value_size_ret);
			break;
		default:
			err = CL_INVALID_VALUE;
		}
	}
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}

/* ---- command queues ---- */

CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueue(cl_context ctx, cl_device_id device,
		     cl_command_queue_properties properties, cl_int *errcode_ret)
{
	cl_command_queue q;

	if (!cl_valid(ctx, MAGIC_CONTEXT))
		return simt_cl_fail(errcode_ret, CL_INVALID_CONTEXT);
	if (device != ctx->device)
		return simt_cl_fail(errcode_ret, CL_INVALID_DEVICE);
	if (properties & ~(cl_command_queue_properties)
	    (CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
		return simt_cl_fail(errcode_ret, CL_INVALID_VALUE);
	if (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
		return simt_cl_fail(errcode_ret, CL_INVALID_QUEUE_PROPERTIES);
	q = calloc(1, sizeof(*q));
	if (!q)
		return simt_cl_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
	simt_cl_head_init(&q->h, MAGIC_QUEUE);
	q->props = properties;
	q->tail = &q->head;
	pthread_mutex_lock(&simt_cl_lock);
	q->ctx = ctx;
	simt_cl_context_retain(ctx);
	q->next_queue = simt_cl_queues;
	simt_cl_queues = q;
	pthread_mutex_unlock(&simt_cl_lock);
	if (errcode_ret)
		*errcode_ret = CL_SUCCESS;
	return q;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue q)
{
	return simt_cl_retain(q, MAGIC_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

void simt_cl_queue_release(cl_command_queue q)
{
	struct _cl_command_queue **pp;

	if (--q->h.refs)
		return;
	for (pp = &simt_cl_queues; *pp != q; pp = &(*pp)->next_queue)
		;
	*pp = q->next_queue;
	simt_cl_head_kill(&q->h);
	simt_cl_context_release(q->ctx);
	free(q);
}

/*
 * The queue lives on while events of it do (each holds a reference), so
 * that commands still waiting in it run when their user events are set.
 */
CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q)
{
	pthread_mutex_lock(&simt_cl_lock);
	if (!cl_valid(q, MAGIC_QUEUE)) {
		pthread_mutex_unlock(&simt_cl_lock);
		return CL_INVALID_COMMAND_QUEUE;
	}
	clFlush(q);
	simt_cl_queue_release(q);
	pthread_mutex_unlock(&simt_cl_lock);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info param_name,
		      size_t param_value_size, void *param_value,
		      size_t *param_value_size_ret)
{
	if (!cl_valid(q, MAGIC_QUEUE))
		return CL_INVALID_COMMAND_QUEUE;
	switch (param_name) {
	case CL_QUEUE_CONTEXT:
		return CL_INFO_VALUE(cl_context, q->ctx);
	case CL_QUEUE_DEVICE:
		return CL_INFO_VALUE(cl_device_id, q->ctx->device);
	case CL_QUEUE_REFERENCE_COUNT:
		return CL_INFO_VALUE(cl_uint, q->h.refs);
	case CL_QUEUE_PROPERTIES:
		return CL_INFO_VALUE(cl_command_queue_properties, q->props);
	default:
		return CL_INVALID_VALUE;
	}
}

/* OpenCL 1.0's, deprecated: profiling may be turned on and off. */
CL_API_ENTRY cl_int CL_API_CALL
clSetCommandQueueProperty(cl_command_queue q,
			  cl_command_queue_properties properties,
			  cl_bool enable, cl_command_queue_properties *old)
{
	if (!cl_valid(q, MAGIC_QUEUE))
		return CL_INVALID_COMMAND_QUEUE;
	if (properties & ~(cl_command_queue_properties)CL_QUEUE_PROFILING_ENABLE)
		return CL_INVALID_QUEUE_PROPERTIES;
	if (old)
		*old = q->props;
	clFinish(q);
	if (enable)
		q->props |= properties;
	else
		q->props &= ~properties;
	return CL_SUCCESS;
}
