/* SPDX-License-Identifier: MIT */
/*
 * Commands and events.  An enqueue makes a command and appends it to its
 * queue; a queue gives its commands to the context's simt_context in
 * order, each as soon as what it waits for allows: an event of the same
 * context that is already on the device (the simt_context runs its work
 * in order), or an event that has ended.  So a command waits in its
 * queue only behind a user event that is not set yet, or behind the
 * command before it.  Copies are synchronous in libsimt and end when
 * they run; a launch ends when the device says so, and launches are
 * seen to end in the order they were given (simt_cl_reap()), so that each gets
 * its own start and end cycles.
 *
 * Copyright the simt authors.  Licensed under the MIT licence, as
 * written out in guest/libsimt/libsimt.h.
 */
#include <stdlib.h>
#include <string.h>

#include "simt-cl.h"

/* Device cycles to the ns of profiling times. */
static cl_ulong cycles_ns(cl_context ctx, uint64_t cycles)
{
	return cycles * 1000 / ctx->device->clock_mhz;
}

bool simt_cl_seq_done(cl_context ctx, uint64_t seq)
{
	return !ctx->inflight || ctx->inflight->seq > seq;
}

/* Run the callbacks that @e's status has reached, once each. */
static void run_callbacks(cl_event e)
{
	struct simt_cl_event_callback **pp = &e->callbacks, *cb;

	while ((cb = *pp)) {
		if (e->status > cb->status) {
			pp = &cb->next;
			continue;
		}
		*pp = cb->next;
		/* Errors are reported to the callbacks of CL_COMPLETE. */
		cb->fn(e, e->status < 0 ? e->status : cb->status, cb->data);
		free(cb);
	}
}

void simt_cl_event_set_status(cl_event e, cl_int status)
{
	if (status < 0 || status < e->status) {
		e->status = status;
		if (status <= CL_COMPLETE && !e->end) {
			e->end = simt_cl_now_ns(e->ctx->device);
			if (!e->start)
				e->start = e->end;
		}
		run_callbacks(e);
		pthread_cond_broadcast(&simt_cl_cond);
	}
}

void simt_cl_event_release(cl_event e)
{
	if (--e->h.refs)
		return;
	while (e->callbacks) {
		struct simt_cl_event_callback *cb = e->callbacks;

		e->callbacks = cb->next;
		free(cb);
	}
	simt_cl_head_kill(&e->h);
	if (e->queue)
		simt_cl_queue_release(e->queue);
	simt_cl_context_release(e->ctx);
	free(e);
}

void simt_cl_reap(cl_context ctx, uint64_t upto, bool blocking)
{
	cl_event e;

	while ((e = ctx->inflight) && e->seq <= upto) {
		struct simt_result r;
		simt_status st = blocking ? simt_wait(ctx->sctx, e->seq, -1, &r) :
				 simt_query(ctx->sctx, e->seq, &r);

		if (st == SIMT_ERROR_TIMEOUT)
			break;
		ctx->inflight = e->next_inflight;
		if (!ctx->inflight)
			ctx->inflight_tail = &ctx->inflight;
		if (st) {
			ctx->failed = true;
			simt_cl_notify(ctx, "a kernel stopped the context: %s",
				       simt_last_error());
			simt_cl_event_set_status(e, CL_OUT_OF_RESOURCES);
		} else {
			if (r.end_cycle) {
				e->start = cycles_ns(ctx, r.start_cycle);
				e->end = cycles_ns(ctx, r.end_cycle);
			}
			simt_cl_event_set_status(e, CL_COMPLETE);
		}
		simt_cl_event_release(e);
	}
}

void simt_cl_event_launched(cl_event e, uint64_t seq)
{
	cl_context ctx = e->ctx;

	e->seq = seq;
	ctx->last_seq = seq;
	e->h.refs++;		/* the in-flight list's */
	e->next_inflight = NULL;
	*ctx->inflight_tail = e;
	ctx->inflight_tail = &e->next_inflight;
}

void simt_cl_event_update(cl_event e)
{
	if (e->status <= CL_COMPLETE || !e->seq)
		return;
	simt_cl_reap(e->ctx, e->seq, false);
	/* A marker's seq is the launch before it: it ends with that one. */
	if (e->status > CL_COMPLETE && simt_cl_seq_done(e->ctx, e->seq))
		simt_cl_event_set_status(e, e->ctx->failed ? CL_OUT_OF_RESOURCES :
					 CL_COMPLETE);
}

/* Can a command of @q that waits for @e be given to the device now? */
static bool wait_ready(cl_command_queue q, cl_event e)
{
	simt_cl_event_update(e);
	if (e->status <= CL_COMPLETE)
		return true;
	if (e->status == CL_QUEUED || !e->queue)
		return false;	/* in its queue still, or a user event */
	if (e->ctx == q->ctx)
		return true;	/* ahead of it in the same simt_context */
	/* Another context's launch: nothing orders the two but its end. */
	simt_cl_event_wait(e);
	return true;
}

/* Give @q's commands to the device, as many as can go. */
static void queue_progress(cl_command_queue q)
{
	struct simt_cl_command *cmd;

	while ((cmd = q->head)) {
		cl_event e = cmd->event;
		bool failed = false;
		cl_int status;

		for (cl_uint i = 0; i < cmd->nwaits; i++) {
			if (!wait_ready(q, cmd->waits[i]))
				return;
			failed |= cmd->waits[i]->status < 0;
		}
		q->head = cmd->next;
		if (!q->head)
			q->tail = &q->head;
		e->submit = e->start = simt_cl_now_ns(q->ctx->device);
		if (!failed && cmd->copies)
			simt_cl_reap(q->ctx, q->ctx->last_seq, true);
		if (failed)
			status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
		else if (q->ctx->failed)
			status = CL_OUT_OF_RESOURCES;
		else
			status = cmd->run(cmd);
		if (status < 0)
			simt_cl_event_set_status(e, status);
		else if (e->seq && !simt_cl_seq_done(q->ctx, e->seq))
			simt_cl_event_set_status(e, CL_SUBMITTED);
		else
			simt_cl_event_set_status(e, CL_COMPLETE);
		simt_cl_command_discard(cmd);
	}
}

void simt_cl_progress_all(void)
{
	for (cl_command_queue q = simt_cl_queues; q; q = q->next_queue)
		queue_progress(q);
}

void simt_cl_event_wait(cl_event e)
{
	for (;;) {
		simt_cl_event_update(e);
		if (e->status <= CL_COMPLETE)
			return;
		if (e->status == CL_QUEUED)
			queue_progress(e->queue);
		if (e->status <= CL_COMPLETE)
			return;
		if (e->seq && e->status != CL_QUEUED) {
			simt_cl_reap(e->ctx, e->seq, true);
			continue;
		}
		/* Behind a user event: another thread must set it. */
		pthread_cond_wait(&simt_cl_cond, &simt_cl_lock);
	}
}

cl_int simt_cl_check_waits(cl_context ctx, cl_uint n, const cl_event *list)
{
	if ((n && !list) || (!n && list))
		return CL_INVALID_EVENT_WAIT_LIST;
	for (cl_uint i = 0; i < n; i++) {
		if (!cl_valid(list[i], MAGIC_EVENT))
			return CL_INVALID_EVENT_WAIT_LIST;
		if (list[i]->ctx != ctx)
			return CL_INVALID_CONTEXT;
	}
	return CL_SUCCESS;
}

/* A new event of @ctx with one reference, the caller's. */
static cl_event event_new(cl_context ctx, cl_command_queue q,
			  cl_command_type type, cl_int status)
{
	cl_event e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	simt_cl_head_init(&e->h, MAGIC_EVENT);
	e->ctx = ctx;
	simt_cl_context_retain(ctx);
	e->queue = q;
	if (q)
		q->h.refs++;
	e->type = type;
	e->status = status;
	e->queued = simt_cl_now_ns(ctx->device);
	return e;
}

struct simt_cl_command *simt_cl_command_new(cl_command_queue q,
					    cl_command_type type, cl_uint n,
					    const cl_event *list, cl_int *err)
{
	struct simt_cl_command *cmd;

	if (!cl_valid(q, MAGIC_QUEUE)) {
		*err = CL_INVALID_COMMAND_QUEUE;
		return NULL;
	}
	*err = simt_cl_check_waits(q->ctx, n, list);
	if (*err)
		return NULL;
	cmd = calloc(1, sizeof(*cmd));
	if (cmd && n)
		cmd->waits = malloc(n * sizeof(*cmd->waits));
	if (cmd)
		cmd->event = event_new(q->ctx, q, type, CL_QUEUED);
	if (!cmd || (n && !cmd->waits) || !cmd->event) {
		if (cmd && cmd->event)
			simt_cl_event_release(cmd->event);
		if (cmd)
			free(cmd->waits);
		free(cmd);
		*err = CL_OUT_OF_HOST_MEMORY;
		return NULL;
	}
	for (cl_uint i = 0; i < n; i++) {
		cmd->waits[i] = list[i];
		list[i]->h.refs++;
	}
	cmd->nwaits = n;
	return cmd;
}

void simt_cl_command_discard(struct simt_cl_command *cmd)
{
	if (cmd->done)
		cmd->done(cmd);
	for (cl_uint i = 0; i < cmd->nwaits; i++)
		simt_cl_event_release(cmd->waits[i]);
	free(cmd->waits);
	simt_cl_event_release(cmd->event);
	free(cmd);
}

cl_int simt_cl_command_submit(struct simt_cl_command *cmd, bool blocking,
			      cl_event *event)
{
	cl_event e = cmd->event;
	cl_command_queue q = e->queue;
	cl_int status = CL_SUCCESS;

	e->h.refs++;		/* ours, until we are done with it */
	cmd->next = NULL;
	*q->tail = cmd;
	q->tail = &cmd->next;
	queue_progress(q);
	if (blocking) {
		simt_cl_event_wait(e);
		status = e->status < 0 ? e->status : CL_SUCCESS;
	}
	if (event)
		*event = e;
	else
		simt_cl_event_release(e);
	/* A blocking call reports a failed command as the spec asks. */
	if (status == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
		return status;
	return status < 0 ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}

/* ---- flush, finish, waits ---- */

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue q)
{
	pthread_mutex_lock(&simt_cl_lock);
	if (!cl_valid(q, MAGIC_QUEUE)) {
		pthread_mutex_unlock(&simt_cl_lock);
		return CL_INVALID_COMMAND_QUEUE;
	}
	queue_progress(q);
	pthread_mutex_unlock(&simt_cl_lock);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue q)
{
	pthread_mutex_lock(&simt_cl_lock);
	if (!cl_valid(q, MAGIC_QUEUE)) {
		pthread_mutex_unlock(&simt_cl_lock);
		return CL_INVALID_COMMAND_QUEUE;
	}
	queue_progress(q);
	while (q->head) {
		pthread_cond_wait(&simt_cl_cond, &simt_cl_lock);
		queue_progress(q);
	}
	/* Everything of the queue is on the device: wait for all of it. */
	simt_cl_reap(q->ctx, q->ctx->last_seq, true);
	pthread_mutex_unlock(&simt_cl_lock);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clWaitForEvents(cl_uint num_events, const cl_event *event_list)
{
	cl_int err = CL_SUCCESS;

	if (!num_events || !event_list)
		return CL_INVALID_VALUE;
	pthread_mutex_lock(&simt_cl_lock);
	for (cl_uint i = 0; i < num_events; i++) {
		if (!cl_valid(event_list[i], MAGIC_EVENT))
			err = CL_INVALID_EVENT;
		else if (event_list[i]->ctx != event_list[0]->ctx)
			err = CL_INVALID_CONTEXT;
	}
	for (cl_uint i = 0; !err && i < num_events; i++) {
		cl_event e = event_list[i];

		if (e->queue)
			queue_progress(e->queue);
		simt_cl_event_wait(e);
		if (e->status < 0)
			err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
	}
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}

/* ---- events ---- */

CL_API_ENTRY cl_int CL_API_CALL
clGetEventInfo(cl_event e, cl_event_info param_name, size_t param_value_size,
	       void *param_value, size_t *param_value_size_ret)
{
	cl_int err;

	pthread_mutex_lock(&simt_cl_lock);
	if (!cl_valid(e, MAGIC_EVENT)) {
		pthread_mutex_unlock(&simt_cl_lock);
		return CL_INVALID_EVENT;
	}
	switch (param_name) {
	case CL_EVENT_COMMAND_QUEUE:
		err = CL_INFO_VALUE(cl_command_queue, e->queue);
		break;
	case CL_EVENT_CONTEXT:
		err = CL_INFO_VALUE(cl_context, e->ctx);
		break;
	case CL_EVENT_COMMAND_TYPE:
		err = CL_INFO_VALUE(cl_command_type, e->type);
		break;
	case CL_EVENT_COMMAND_EXECUTION_STATUS:
		if (e->queue && e->status == CL_QUEUED)
			queue_progress(e->queue);
		simt_cl_event_update(e);
		err = CL_INFO_VALUE(cl_int, e->status);
		break;
	case CL_EVENT_REFERENCE_COUNT:
		err = CL_INFO_VALUE(cl_uint, e->h.refs);
		break;
	default:
		err = CL_INVALID_VALUE;
	}
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetEventProfilingInfo(cl_event e, cl_profiling_info param_name,
			size_t param_value_size, void *param_value,
			size_t *param_value_size_ret)
{
	cl_ulong t;

	pthread_mutex_lock(&simt_cl_lock);
	if (!cl_valid(e, MAGIC_EVENT)) {
		pthread_mutex_unlock(&simt_cl_lock);
		return CL_INVALID_EVENT;
	}
	simt_cl_event_update(e);
	if (!e->queue || !(e->queue->props & CL_QUEUE_PROFILING_ENABLE) ||
	    e->status != CL_COMPLETE) {
		pthread_mutex_unlock(&simt_cl_lock);
		return CL_PROFILING_INFO_NOT_AVAILABLE;
	}
	switch (param_name) {
	case CL_PROFILING_COMMAND_QUEUED:
		t = e->queued;
		break;
	case CL_PROFILING_COMMAND_SUBMIT:
		t = e->submit;
		break;
	case CL_PROFILING_COMMAND_START:
		t = e->start;
		break;
	case CL_PROFILING_COMMAND_END:
		t = e->end;
		break;
	default:
		pthread_mutex_unlock(&simt_cl_lock);
		return CL_INVALID_VALUE;
	}
	pthread_mutex_unlock(&simt_cl_lock);
	return CL_INFO_VALUE(cl_ulong, t);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event e)
{
	return simt_cl_retain(e, MAGIC_EVENT, CL_INVALID_EVENT);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event e)
{
	return simt_cl_release(e, MAGIC_EVENT, CL_INVALID_EVENT);
}

/*
 * Callbacks run in the thread that sees the event reach the status: one
 * that waits for it, asks its status, or enqueues on its context.
 */
CL_API_ENTRY cl_int CL_API_CALL
clSetEventCallback(cl_event e, cl_int command_exec_callback_type,
		   void (CL_CALLBACK *pfn_notify)(cl_event, cl_int, void *),
		   void *user_data)
{
	struct simt_cl_event_callback *cb;

	if (!pfn_notify || (command_exec_callback_type != CL_COMPLETE &&
			    command_exec_callback_type != CL_SUBMITTED &&
			    command_exec_callback_type != CL_RUNNING))
		return CL_INVALID_VALUE;
	cb = calloc(1, sizeof(*cb));
	if (!cb)
		return CL_OUT_OF_HOST_MEMORY;
	cb->fn = pfn_notify;
	cb->status = command_exec_callback_type;
	cb->data = user_data;
	pthread_mutex_lock(&simt_cl_lock);
	if (!cl_valid(e, MAGIC_EVENT)) {
		pthread_mutex_unlock(&simt_cl_lock);
		free(cb);
		return CL_INVALID_EVENT;
	}
	cb->next = e->callbacks;
	e->callbacks = cb;
	simt_cl_event_update(e);
	run_callbacks(e);
	pthread_mutex_unlock(&simt_cl_lock);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context ctx,
						      cl_int *errcode_ret)
{
	cl_event e;

	pthread_mutex_lock(&simt_cl_lock);
	if (!cl_valid(ctx, MAGIC_CONTEXT)) {
		pthread_mutex_unlock(&simt_cl_lock);
		return simt_cl_fail(errcode_ret, CL_INVALID_CONTEXT);
	}
	e = event_new(ctx, NULL, CL_COMMAND_USER, CL_SUBMITTED);
	pthread_mutex_unlock(&simt_cl_lock);
	if (!e)
		return simt_cl_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
	if (errcode_ret)
		*errcode_ret = CL_SUCCESS;
	return e;
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event e,
						       cl_int execution_status)
{
	pthread_mutex_lock(&simt_cl_lock);
	if (!cl_valid(e, MAGIC_EVENT) || e->queue) {
		pthread_mutex_unlock(&simt_cl_lock);
		return CL_INVALID_EVENT;
	}
	if (execution_status > CL_COMPLETE) {
		pthread_mutex_unlock(&simt_cl_lock);
		return CL_INVALID_VALUE;
	}
	if (e->status <= CL_COMPLETE) {
		pthread_mutex_unlock(&simt_cl_lock);
		return CL_INVALID_OPERATION;	/* set once only */
	}
	simt_cl_event_set_status(e, execution_status);
	simt_cl_progress_all();
	pthread_mutex_unlock(&simt_cl_lock);
	return CL_SUCCESS;
}

/* ---- markers and barriers ---- */

/* Ends with everything given to the context before it (in order). */
static cl_int run_marker(struct simt_cl_command *cmd)
{
	cl_context ctx = cmd->event->ctx;

	if (!simt_cl_seq_done(ctx, ctx->last_seq))
		cmd->event->seq = ctx->last_seq;
	return CL_SUCCESS;
}

static cl_int enqueue_marker(cl_command_queue q, cl_command_type type,
			     cl_uint n, const cl_event *list, cl_event *event)
{
	struct simt_cl_command *cmd;
	cl_int err;

	pthread_mutex_lock(&simt_cl_lock);
	cmd = simt_cl_command_new(q, type, n, list, &err);
	if (cmd) {
		cmd->run = run_marker;
		err = simt_cl_command_submit(cmd, false, event);
	}
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint num_events_in_wait_list,
			    const cl_event *event_wait_list, cl_event *event)
{
	return enqueue_marker(q, CL_COMMAND_MARKER, num_events_in_wait_list,
			      event_wait_list, event);
}

/* In an in-order queue a barrier is a marker: nothing passes either. */
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueBarrierWithWaitList(cl_command_queue q,
			     cl_uint num_events_in_wait_list,
			     const cl_event *event_wait_list, cl_event *event)
{
	return enqueue_marker(q, CL_COMMAND_BARRIER, num_events_in_wait_list,
			      event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue q,
						 cl_event *event)
{
	if (!event)
		return CL_INVALID_VALUE;
	return enqueue_marker(q, CL_COMMAND_MARKER, 0, NULL, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue q)
{
	return enqueue_marker(q, CL_COMMAND_BARRIER, 0, NULL, NULL);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWaitForEvents(cl_command_queue q, cl_uint num_events,
		       const cl_event *event_list)
{
	if (!num_events || !event_list)
		return CL_INVALID_VALUE;
	return enqueue_marker(q, CL_COMMAND_MARKER, num_events, event_list, NULL);
}
