/* SPDX-License-Identifier: MIT */
/*
 * Buffers and their commands: read, write, copy and fill (whole ranges
 * and rectangles), map and unmap, migrate.  A buffer is a simt_buffer
 * of the context (a sub-buffer a range of its parent's); copies are
 * libsimt's, which are ordered after the context's earlier work and
 * return when the bytes have arrived.  A map is host memory filled from
 * the buffer and written back at unmap: reading through the device's
 * memory BAR is slow, and a host copy behaves alike on both backends.
 *
 * Copyright the simt authors.  Licensed under the MIT licence, as
 * written out in guest/libsimt/libsimt.h.
 */
#include <stdlib.h>
#include <string.h>

#include "simt-cl.h"

/* The alignment of a sub-buffer's origin (CL_DEVICE_MEM_BASE_ADDR_ALIGN). */
#define SUB_BUFFER_ALIGN 128

#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | \
			   CL_MEM_HOST_NO_ACCESS)
#define HOST_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | \
			CL_MEM_COPY_HOST_PTR)

/* At most one bit of @mask set in @flags. */
static bool at_most_one(cl_mem_flags flags, cl_mem_flags mask)
{
	cl_mem_flags f = flags & mask;

	return !(f & (f - 1));
}

static cl_int check_flags(cl_mem_flags flags)
{
	if (flags & ~(cl_mem_flags)(ACCESS_FLAGS | HOST_ACCESS_FLAGS |
				    HOST_PTR_FLAGS) ||
	    !at_most_one(flags, ACCESS_FLAGS) ||
	    !at_most_one(flags, HOST_ACCESS_FLAGS) ||
	    ((flags & CL_MEM_USE_HOST_PTR) &&
	     (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))))
		return CL_INVALID_VALUE;
	return CL_SUCCESS;
}

static cl_mem mem_new(cl_context ctx, cl_mem_flags flags, size_t size)
{
	cl_mem m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	simt_cl_head_init(&m->h, MAGIC_MEM);
	m->ctx = ctx;
	m->flags = flags;
	m->size = size;
	return m;
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateBuffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host_ptr,
	       cl_int *errcode_ret)
{
	simt_status st;
	cl_mem m;

	if (!cl_valid(ctx, MAGIC_CONTEXT))
		return simt_cl_fail(errcode_ret, CL_INVALID_CONTEXT);
	if (check_flags(flags))
		return simt_cl_fail(errcode_ret, CL_INVALID_VALUE);
	if (!size || size > ctx->device->max_alloc)
		return simt_cl_fail(errcode_ret, CL_INVALID_BUFFER_SIZE);
	if (!host_ptr != !(flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
		return simt_cl_fail(errcode_ret, CL_INVALID_HOST_PTR);
	if (!(flags & ACCESS_FLAGS))
		flags |= CL_MEM_READ_WRITE;
	m = mem_new(ctx, flags, size);
	if (!m)
		return simt_cl_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
	pthread_mutex_lock(&simt_cl_lock);
	st = simt_mem_alloc(ctx->sctx, size, &m->buf);
	if (!st && host_ptr)
		st = simt_memcpy_htod(m->buf, 0, host_ptr, size);
	if (st) {
		simt_cl_notify(ctx, "clCreateBuffer of %zu bytes: %s", size,
			       simt_last_error());
		if (m->buf)
			simt_mem_free(m->buf);
		pthread_mutex_unlock(&simt_cl_lock);
		simt_cl_head_kill(&m->h);
		free(m);
		return simt_cl_fail(errcode_ret, CL_MEM_OBJECT_ALLOCATION_FAILURE);
	}
	if (flags & CL_MEM_USE_HOST_PTR)
		m->host_ptr = host_ptr;
	simt_cl_context_retain(ctx);
	pthread_mutex_unlock(&simt_cl_lock);
	if (errcode_ret)
		*errcode_ret = CL_SUCCESS;
	return m;
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
		  cl_buffer_create_type type, const void *info,
		  cl_int *errcode_ret)
{
	const cl_buffer_region *r = info;
	cl_mem m;

	if (!cl_valid(buffer, MAGIC_MEM) || buffer->parent)
		return simt_cl_fail(errcode_ret, CL_INVALID_MEM_OBJECT);
	if (check_flags(flags) || (flags & HOST_PTR_FLAGS) ||
	    ((buffer->flags & CL_MEM_WRITE_ONLY) &&
	     (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
	    ((buffer->flags & CL_MEM_READ_ONLY) &&
	     (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
	    ((buffer->flags & CL_MEM_HOST_WRITE_ONLY) &&
	     (flags & CL_MEM_HOST_READ_ONLY)) ||
	    ((buffer->flags & CL_MEM_HOST_READ_ONLY) &&
	     (flags & CL_MEM_HOST_WRITE_ONLY)) ||
	    ((buffer->flags & CL_MEM_HOST_NO_ACCESS) &&
	     (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
		return simt_cl_fail(errcode_ret, CL_INVALID_VALUE);
	if (type != CL_BUFFER_CREATE_TYPE_REGION || !r ||
	    r->origin > buffer->size || r->size > buffer->size - r->origin)
		return simt_cl_fail(errcode_ret, CL_INVALID_VALUE);
	if (!r->size)
		return simt_cl_fail(errcode_ret, CL_INVALID_BUFFER_SIZE);
	if (r->origin % SUB_BUFFER_ALIGN)
		return simt_cl_fail(errcode_ret, CL_MISALIGNED_SUB_BUFFER_OFFSET);
	/* What is not given is inherited. */
	if (!(flags & ACCESS_FLAGS))
		flags |= buffer->flags & ACCESS_FLAGS;
	if (!(flags & HOST_ACCESS_FLAGS))
		flags |= buffer->flags & HOST_ACCESS_FLAGS;
	flags |= buffer->flags & HOST_PTR_FLAGS;
	m = mem_new(buffer->ctx, flags, r->size);
	if (!m)
		return simt_cl_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
	pthread_mutex_lock(&simt_cl_lock);
	m->buf = buffer->buf;
	m->origin = r->origin;
	m->parent = buffer;
	buffer->h.refs++;
	if (buffer->host_ptr)
		m->host_ptr = (uint8_t *)buffer->host_ptr + r->origin;
	simt_cl_context_retain(m->ctx);
	pthread_mutex_unlock(&simt_cl_lock);
	if (errcode_ret)
		*errcode_ret = CL_SUCCESS;
	return m;
}

void simt_cl_mem_release(cl_mem m)
{
	if (--m->h.refs)
		return;
	/* Destructor callbacks in the reverse order of their registration. */
	while (m->callbacks) {
		struct simt_cl_mem_callback *cb = m->callbacks;

		m->callbacks = cb->next;
		cb->fn(m, cb->data);
		free(cb);
	}
	while (m->maps) {
		struct simt_cl_map *map = m->maps;

		m->maps = map->next;
		if (map->owned)
			free(map->ptr);
		free(map);
	}
	if (m->parent)
		simt_cl_mem_release(m->parent);
	else
		simt_mem_free(m->buf);	/* after the work queued on it */
	simt_cl_head_kill(&m->h);
	simt_cl_context_release(m->ctx);
	free(m);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem m)
{
	return simt_cl_retain(m, MAGIC_MEM, CL_INVALID_MEM_OBJECT);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem m)
{
	return simt_cl_release(m, MAGIC_MEM, CL_INVALID_MEM_OBJECT);
}

CL_API_ENTRY cl_int CL_API_CALL
clSetMemObjectDestructorCallback(cl_mem m,
				 void (CL_CALLBACK *pfn_notify)(cl_mem, void *),
				 void *user_data)
{
	struct simt_cl_mem_callback *cb;

	if (!pfn_notify)
		return CL_INVALID_VALUE;
	cb = calloc(1, sizeof(*cb));
	if (!cb)
		return CL_OUT_OF_HOST_MEMORY;
	cb->fn = pfn_notify;
	cb->data = user_data;
	pthread_mutex_lock(&simt_cl_lock);
	if (!cl_valid(m, MAGIC_MEM)) {
		pthread_mutex_unlock(&simt_cl_lock);
		free(cb);
		return CL_INVALID_MEM_OBJECT;
	}
	cb->next = m->callbacks;
	m->callbacks = cb;
	pthread_mutex_unlock(&simt_cl_lock);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetMemObjectInfo(cl_mem m, cl_mem_info param_name, size_t param_value_size,
		   void *param_value, size_t *param_value_size_ret)
{
	if (!cl_valid(m, MAGIC_MEM))
		return CL_INVALID_MEM_OBJECT;
	switch (param_name) {
	case CL_MEM_TYPE:
		return CL_INFO_VALUE(cl_mem_object_type, CL_MEM_OBJECT_BUFFER);
	case CL_MEM_FLAGS:
		return CL_INFO_VALUE(cl_mem_flags, m->flags);
	case CL_MEM_SIZE:
		return CL_INFO_VALUE(size_t, m->size);
	case CL_MEM_HOST_PTR:
		return CL_INFO_VALUE(void *, m->host_ptr);
	case CL_MEM_MAP_COUNT:
		return CL_INFO_VALUE(cl_uint, m->map_count);
	case CL_MEM_REFERENCE_COUNT:
		return CL_INFO_VALUE(cl_uint, m->h.refs);
	case CL_MEM_CONTEXT:
		return CL_INFO_VALUE(cl_context, m->ctx);
	case CL_MEM_ASSOCIATED_MEMOBJECT:
		return CL_INFO_VALUE(cl_mem, m->parent);
	case CL_MEM_OFFSET:
		return CL_INFO_VALUE(size_t, m->origin);
	default:
		return CL_INVALID_VALUE;
	}
}

/* ---- commands on buffers ---- */

/*
 * A command of @type on @m's range [@offset, @offset + @size) from @q,
 * checked as the enqueue functions must; NULL with *@err on failure.
 */
static struct simt_cl_command *mem_command(cl_command_queue q,
					   cl_command_type type, cl_mem m,
					   size_t offset, size_t size,
					   cl_uint n, const cl_event *list,
					   cl_int *err)
{
	struct simt_cl_command *cmd;

	if (!cl_valid(q, MAGIC_QUEUE)) {
		*err = CL_INVALID_COMMAND_QUEUE;
		return NULL;
	}
	if (!cl_valid(m, MAGIC_MEM)) {
		*err = CL_INVALID_MEM_OBJECT;
		return NULL;
	}
	if (m->ctx != q->ctx) {
		*err = CL_INVALID_CONTEXT;
		return NULL;
	}
	if (offset > m->size || size > m->size - offset) {
		*err = CL_INVALID_VALUE;
		return NULL;
	}
	cmd = simt_cl_command_new(q, type, n, list, err);
	if (cmd) {
		cmd->u.mem.mem = m;
		cmd->u.mem.offset = offset;
		cmd->u.mem.size = size;
		m->h.refs++;
	}
	return cmd;
}

static void mem_done(struct simt_cl_command *cmd)
{
	simt_cl_mem_release(cmd->u.mem.mem);
	if (cmd->u.mem.src)
		simt_cl_mem_release(cmd->u.mem.src);
}

/* A libsimt copy's status as a command's (the reason to the callback). */
static cl_int copy_status(cl_context ctx, simt_status st)
{
	if (!st)
		return CL_SUCCESS;
	simt_cl_notify(ctx, "a copy failed: %s", simt_last_error());
	return CL_OUT_OF_RESOURCES;
}

static cl_int run_read(struct simt_cl_command *cmd)
{
	cl_mem m = cmd->u.mem.mem;

	return copy_status(m->ctx, simt_memcpy_dtoh(cmd->u.mem.ptr, m->buf,
						    m->origin + cmd->u.mem.offset,
						    cmd->u.mem.size));
}

static cl_int run_write(struct simt_cl_command *cmd)
{
	cl_mem m = cmd->u.mem.mem;

	return copy_status(m->ctx, simt_memcpy_htod(m->buf,
						    m->origin + cmd->u.mem.offset,
						    cmd->u.mem.ptr, cmd->u.mem.size));
}

/* Queue @cmd (NULL: its creation failed with @err), the lock held. */
static cl_int submit(struct simt_cl_command *cmd, cl_int err,
		     cl_int (*run)(struct simt_cl_command *), bool blocking,
		     cl_event *event)
{
	if (!cmd)
		return err;
	cmd->run = run;
	cmd->done = mem_done;
	cmd->copies = true;
	return simt_cl_command_submit(cmd, blocking, event);
}

/* A read or a write of @m's range from or to @ptr; @denied: host flags. */
static cl_int enqueue_rw(cl_command_queue q, cl_command_type type, cl_mem m,
			 bool blocking, size_t offset, size_t size, void *ptr,
			 cl_mem_flags denied, cl_uint n, const cl_event *list,
			 cl_event *event)
{
	struct simt_cl_command *cmd = NULL;
	cl_int err = CL_INVALID_OPERATION;

	if (!ptr || !size)
		return CL_INVALID_VALUE;
	pthread_mutex_lock(&simt_cl_lock);
	if (!cl_valid(m, MAGIC_MEM) || !(m->flags & denied))
		cmd = mem_command(q, type, m, offset, size, n, list, &err);
	if (cmd)
		cmd->u.mem.ptr = ptr;
	err = submit(cmd, err, type == CL_COMMAND_READ_BUFFER ? run_read : run_write,
		     blocking, event);
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool blocking,
		    size_t offset, size_t size, void *ptr, cl_uint n,
		    const cl_event *list, cl_event *event)
{
	return enqueue_rw(q, CL_COMMAND_READ_BUFFER, m, blocking, offset, size,
			  ptr, CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, n,
			  list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool blocking,
		     size_t offset, size_t size, const void *ptr, cl_uint n,
		     const cl_event *list, cl_event *event)
{
	return enqueue_rw(q, CL_COMMAND_WRITE_BUFFER, m, blocking, offset, size,
			  (void *)ptr, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
			  n, list, event);
}

static cl_int run_copy(struct simt_cl_command *cmd)
{
	cl_mem dst = cmd->u.mem.mem, src = cmd->u.mem.src;

	return copy_status(dst->ctx,
			   simt_memcpy_dtod(dst->buf, dst->origin + cmd->u.mem.offset,
					    src->buf, src->origin + cmd->u.mem.src_offset,
					    cmd->u.mem.size));
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
		    size_t src_offset, size_t dst_offset, size_t size,
		    cl_uint n, const cl_event *list, cl_event *event)
{
	struct simt_cl_command *cmd = NULL;
	cl_int err = CL_INVALID_MEM_OBJECT;

	if (!size)
		return CL_INVALID_VALUE;
	pthread_mutex_lock(&simt_cl_lock);
	if (cl_valid(src, MAGIC_MEM) && cl_valid(dst, MAGIC_MEM)) {
		size_t s = src->origin + src_offset, d = dst->origin + dst_offset;

		if (src->ctx != dst->ctx)
			err = CL_INVALID_CONTEXT;
		else if (src_offset > src->size || size > src->size - src_offset)
			err = CL_INVALID_VALUE;
		else if (src->buf == dst->buf && s < d + size && d < s + size)
			err = CL_MEM_COPY_OVERLAP;
		else
			cmd = mem_command(q, CL_COMMAND_COPY_BUFFER, dst, dst_offset,
					  size, n, list, &err);
	}
	if (cmd) {
		cmd->u.mem.src = src;
		cmd->u.mem.src_offset = src_offset;
		src->h.refs++;
	}
	err = submit(cmd, err, run_copy, false, event);
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}

static cl_int run_fill(struct simt_cl_command *cmd)
{
	enum { CHUNK = 64 << 10 };	/* a multiple of every pattern size */
	cl_mem m = cmd->u.mem.mem;
	size_t n = cmd->u.mem.size < CHUNK ? cmd->u.mem.size : CHUNK, done;
	simt_status st = SIMT_SUCCESS;
	uint8_t *chunk = malloc(n);

	if (!chunk)
		return CL_OUT_OF_HOST_MEMORY;
	for (done = 0; done < n; done += cmd->u.mem.pattern_size)
		memcpy(chunk + done, cmd->u.mem.pattern, cmd->u.mem.pattern_size);
	for (done = 0; !st && done < cmd->u.mem.size; done += n) {
		size_t len = cmd->u.mem.size - done < n ? cmd->u.mem.size - done : n;

		st = simt_memcpy_htod(m->buf, m->origin + cmd->u.mem.offset + done,
				      chunk, len);
	}
	free(chunk);
	return copy_status(m->ctx, st);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueFillBuffer(cl_command_queue q, cl_mem m, const void *pattern,
		    size_t pattern_size, size_t offset, size_t size, cl_uint n,
		    const cl_event *list, cl_event *event)
{
	struct simt_cl_command *cmd;
	cl_int err;

	if (!pattern || !pattern_size || pattern_size > 128 ||
	    (pattern_size & (pattern_size - 1)) || offset % pattern_size ||
	    size % pattern_size)
		return CL_INVALID_VALUE;
	pthread_mutex_lock(&simt_cl_lock);
	cmd = mem_command(q, CL_COMMAND_FILL_BUFFER, m, offset, size, n, list,
			  &err);
	if (cmd) {
		memcpy(cmd->u.mem.pattern, pattern, pattern_size);
		cmd->u.mem.pattern_size = pattern_size;
	}
	err = submit(cmd, err, run_fill, false, event);
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}

/* ---- rectangles ---- */

/*
 * Fill @r from OpenCL's origins, region and pitches (0: packed), the a
 * side at @a_origin, the b side at @b_origin.  CL_INVALID_VALUE for
 * pitches too small or a region past @a_size (and @b_size if not 0).
 */
static cl_int rect_setup(struct simt_cl_rect *r, const size_t *a_origin,
			 const size_t *b_origin, const size_t *region,
			 size_t a_row, size_t a_slice, size_t b_row,
			 size_t b_slice, size_t a_size, size_t b_size)
{
	if (!a_origin || !b_origin || !region || !region[0] || !region[1] ||
	    !region[2])
		return CL_INVALID_VALUE;
	a_row = a_row ? a_row : region[0];
	b_row = b_row ? b_row : region[0];
	a_slice = a_slice ? a_slice : region[1] * a_row;
	b_slice = b_slice ? b_slice : region[1] * b_row;
	if (a_row < region[0] || b_row < region[0] ||
	    a_slice < region[1] * a_row || b_slice < region[1] * b_row ||
	    a_slice % a_row || b_slice % b_row)
		return CL_INVALID_VALUE;
	*r = (struct simt_cl_rect){
		.a_off = a_origin[2] * a_slice + a_origin[1] * a_row + a_origin[0],
		.b_off = b_origin[2] * b_slice + b_origin[1] * b_row + b_origin[0],
		.a_row = a_row, .a_slice = a_slice,
		.b_row = b_row, .b_slice = b_slice,
		.width = region[0], .height = region[1], .depth = region[2],
	};
	/* Sizes here are far below SIZE_MAX: no products overflow. */
	if (r->a_off + (r->depth - 1) * a_slice + (r->height - 1) * a_row +
	    r->width > a_size)
		return CL_INVALID_VALUE;
	if (b_size && r->b_off + (r->depth - 1) * b_slice +
	    (r->height - 1) * b_row + r->width > b_size)
		return CL_INVALID_VALUE;
	return CL_SUCCESS;
}

/* Bytes from a side's first to its last byte (@row, @slice its pitches). */
static size_t rect_span(const struct simt_cl_rect *r, size_t row, size_t slice)
{
	return (r->depth - 1) * slice + (r->height - 1) * row + r->width;
}

/* Copy the rectangle's rows from a (at @a) to b (at @b), or back. */
static void rect_move(const struct simt_cl_rect *r, uint8_t *a, uint8_t *b,
		      bool a_to_b)
{
	for (size_t z = 0; z < r->depth; z++) {
		for (size_t y = 0; y < r->height; y++) {
			uint8_t *pa = a + z * r->a_slice + y * r->a_row;
			uint8_t *pb = b + z * r->b_slice + y * r->b_row;

			memmove(a_to_b ? pb : pa, a_to_b ? pa : pb, r->width);
		}
	}
}

/*
 * The device bytes [@off, @off + @span) of @m in a host copy (NULL on
 * failure, *@st set), to change rows of and write back.
 */
static uint8_t *span_read(cl_mem m, size_t off, size_t span, simt_status *st)
{
	uint8_t *tmp = malloc(span);

	if (!tmp) {
		*st = SIMT_ERROR_OUT_OF_MEMORY;
		return NULL;
	}
	*st = simt_memcpy_dtoh(tmp, m->buf, m->origin + off, span);
	if (*st) {
		free(tmp);
		return NULL;
	}
	return tmp;
}

static cl_int run_read_rect(struct simt_cl_command *cmd)
{
	const struct simt_cl_rect *r = &cmd->u.mem.rect;
	cl_mem m = cmd->u.mem.mem;
	simt_status st;
	uint8_t *tmp = span_read(m, r->a_off, rect_span(r, r->a_row, r->a_slice),
				 &st);

	if (tmp)
		rect_move(r, tmp, (uint8_t *)cmd->u.mem.ptr + r->b_off, true);
	free(tmp);
	return copy_status(m->ctx, st);
}

static cl_int run_write_rect(struct simt_cl_command *cmd)
{
	const struct simt_cl_rect *r = &cmd->u.mem.rect;
	cl_mem m = cmd->u.mem.mem;
	size_t span = rect_span(r, r->a_row, r->a_slice);
	simt_status st;
	uint8_t *tmp = span_read(m, r->a_off, span, &st);

	if (tmp) {
		rect_move(r, tmp, (uint8_t *)cmd->u.mem.ptr + r->b_off, false);
		st = simt_memcpy_htod(m->buf, m->origin + r->a_off, tmp, span);
	}
	free(tmp);
	return copy_status(m->ctx, st);
}

static cl_int run_copy_rect(struct simt_cl_command *cmd)
{
	const struct simt_cl_rect *r = &cmd->u.mem.rect;
	cl_mem dst = cmd->u.mem.mem, src = cmd->u.mem.src;
	size_t dspan = rect_span(r, r->b_row, r->b_slice);
	simt_status st;
	uint8_t *s = span_read(src, r->a_off, rect_span(r, r->a_row, r->a_slice),
			       &st);
	uint8_t *d = s ? span_read(dst, r->b_off, dspan, &st) : NULL;

	if (d) {
		rect_move(r, s, d, true);
		st = simt_memcpy_htod(dst->buf, dst->origin + r->b_off, d, dspan);
	}
	free(s);
	free(d);
	return copy_status(dst->ctx, st);
}

/* A read or write of a rectangle between @m and host memory at @ptr. */
static cl_int enqueue_rect(cl_command_queue q, cl_command_type type, cl_mem m,
			   bool blocking, const size_t *buffer_origin,
			   const size_t *host_origin, const size_t *region,
			   size_t buffer_row_pitch, size_t buffer_slice_pitch,
			   size_t host_row_pitch, size_t host_slice_pitch,
			   void *ptr, cl_uint n, const cl_event *list,
			   cl_event *event)
{
	struct simt_cl_command *cmd = NULL;
	struct simt_cl_rect r;
	cl_int err;

	if (!ptr)
		return CL_INVALID_VALUE;
	pthread_mutex_lock(&simt_cl_lock);
	if (!cl_valid(m, MAGIC_MEM))
		err = CL_INVALID_MEM_OBJECT;
	else
		err = rect_setup(&r, buffer_origin, host_origin, region,
				 buffer_row_pitch, buffer_slice_pitch,
				 host_row_pitch, host_slice_pitch, m->size, 0);
	if (!err)
		cmd = mem_command(q, type, m, 0, 0, n, list, &err);
	if (cmd) {
		cmd->u.mem.rect = r;
		cmd->u.mem.ptr = ptr;
	}
	err = submit(cmd, err, type == CL_COMMAND_READ_BUFFER_RECT ?
		     run_read_rect : run_write_rect, blocking, event);
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
			const size_t *buffer_origin, const size_t *host_origin,
			const size_t *region, size_t buffer_row_pitch,
			size_t buffer_slice_pitch, size_t host_row_pitch,
			size_t host_slice_pitch, void *ptr, cl_uint n,
			const cl_event *list, cl_event *event)
{
	return enqueue_rect(q, CL_COMMAND_READ_BUFFER_RECT, m, blocking,
			    buffer_origin, host_origin, region, buffer_row_pitch,
			    buffer_slice_pitch, host_row_pitch, host_slice_pitch,
			    ptr, n, list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
			 const size_t *buffer_origin, const size_t *host_origin,
			 const size_t *region, size_t buffer_row_pitch,
			 size_t buffer_slice_pitch, size_t host_row_pitch,
			 size_t host_slice_pitch, const void *ptr, cl_uint n,
			 const cl_event *list, cl_event *event)
{
	return enqueue_rect(q, CL_COMMAND_WRITE_BUFFER_RECT, m, blocking,
			    buffer_origin, host_origin, region, buffer_row_pitch,
			    buffer_slice_pitch, host_row_pitch, host_slice_pitch,
			    (void *)ptr, n, list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst,
			const size_t *src_origin, const size_t *dst_origin,
			const size_t *region, size_t src_row_pitch,
			size_t src_slice_pitch, size_t dst_row_pitch,
			size_t dst_slice_pitch, cl_uint n, const cl_event *list,
			cl_event *event)
{
	struct simt_cl_command *cmd = NULL;
	struct simt_cl_rect r;
	cl_int err;

	pthread_mutex_lock(&simt_cl_lock);
	if (!cl_valid(src, MAGIC_MEM) || !cl_valid(dst, MAGIC_MEM))
		err = CL_INVALID_MEM_OBJECT;
	else if (src->ctx != dst->ctx)
		err = CL_INVALID_CONTEXT;
	else
		err = rect_setup(&r, src_origin, dst_origin, region,
				 src_row_pitch, src_slice_pitch, dst_row_pitch,
				 dst_slice_pitch, src->size, dst->size);
	/* The whole spans, not just the rows, must be apart in one buffer. */
	if (!err && src->buf == dst->buf) {
		size_t s = src->origin + r.a_off, d = dst->origin + r.b_off;

		if (s < d + rect_span(&r, r.b_row, r.b_slice) &&
		    d < s + rect_span(&r, r.a_row, r.a_slice))
			err = CL_MEM_COPY_OVERLAP;
	}
	if (!err)
		cmd = mem_command(q, CL_COMMAND_COPY_BUFFER_RECT, dst, 0, 0, n,
				  list, &err);
	if (cmd) {
		cmd->u.mem.rect = r;
		cmd->u.mem.src = src;
		src->h.refs++;
	}
	err = submit(cmd, err, run_copy_rect, false, event);
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}

/* ---- map and unmap ---- */

static cl_int run_map(struct simt_cl_command *cmd)
{
	struct simt_cl_map *map = cmd->u.mem.map;
	cl_mem m = cmd->u.mem.mem;

	if (map->flags & CL_MAP_WRITE_INVALIDATE_REGION)
		return CL_SUCCESS;
	return copy_status(m->ctx, simt_memcpy_dtoh(map->ptr, m->buf,
						    m->origin + map->offset,
						    map->size));
}

CL_API_ENTRY void *CL_API_CALL
clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool blocking,
		   cl_map_flags flags, size_t offset, size_t size, cl_uint n,
		   const cl_event *list, cl_event *event, cl_int *errcode_ret)
{
	struct simt_cl_command *cmd;
	struct simt_cl_map *map;
	void *ptr;
	cl_int err;

	if (!size || (flags & ~(cl_map_flags)(CL_MAP_READ | CL_MAP_WRITE |
					      CL_MAP_WRITE_INVALIDATE_REGION)) ||
	    ((flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
	     (flags & (CL_MAP_READ | CL_MAP_WRITE))))
		return simt_cl_fail(errcode_ret, CL_INVALID_VALUE);
	map = calloc(1, sizeof(*map));
	if (!map)
		return simt_cl_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
	pthread_mutex_lock(&simt_cl_lock);
	cmd = mem_command(q, CL_COMMAND_MAP_BUFFER, m, offset, size, n, list,
			  &err);
	if (cmd) {
		map->offset = offset;
		map->size = size;
		map->flags = flags;
		/* A buffer on host memory maps there (OpenCL asks it). */
		map->ptr = m->host_ptr ? (uint8_t *)m->host_ptr + offset :
			   malloc(size);
		map->owned = !m->host_ptr;
		if (!map->ptr) {
			simt_cl_command_discard(cmd);
			cmd = NULL;
			err = CL_MAP_FAILURE;
		}
	}
	if (!cmd) {
		pthread_mutex_unlock(&simt_cl_lock);
		free(map);
		return simt_cl_fail(errcode_ret, err);
	}
	map->next = m->maps;
	m->maps = map;
	m->map_count++;
	cmd->u.mem.map = map;
	ptr = map->ptr;
	err = submit(cmd, err, run_map, blocking, event);
	pthread_mutex_unlock(&simt_cl_lock);
	if (errcode_ret)
		*errcode_ret = err;
	return err ? NULL : ptr;
}

static cl_int run_unmap(struct simt_cl_command *cmd)
{
	struct simt_cl_map *map = cmd->u.mem.map, **pp;
	cl_mem m = cmd->u.mem.mem;
	simt_status st = SIMT_SUCCESS;

	if (map->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
		st = simt_memcpy_htod(m->buf, m->origin + map->offset, map->ptr,
				      map->size);
	for (pp = &m->maps; *pp != map; pp = &(*pp)->next)
		;
	*pp = map->next;
	m->map_count--;
	if (map->owned)
		free(map->ptr);
	free(map);
	return copy_status(m->ctx, st);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *mapped_ptr,
			cl_uint n, const cl_event *list, cl_event *event)
{
	struct simt_cl_command *cmd;
	struct simt_cl_map *map = NULL;
	cl_int err;

	pthread_mutex_lock(&simt_cl_lock);
	if (cl_valid(m, MAGIC_MEM)) {
		/* The first map of @mapped_ptr that no unmap has taken yet. */
		for (map = m->maps; map; map = map->next) {
			if (map->ptr == mapped_ptr && !map->unmapping)
				break;
		}
	}
	if (cl_valid(m, MAGIC_MEM) && !map) {
		pthread_mutex_unlock(&simt_cl_lock);
		return CL_INVALID_VALUE;
	}
	cmd = mem_command(q, CL_COMMAND_UNMAP_MEM_OBJECT, m, 0, 0, n, list, &err);
	if (cmd) {
		cmd->u.mem.map = map;
		map->unmapping = true;
	}
	err = submit(cmd, err, run_unmap, false, event);
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}

/* One device: nothing to migrate; ordered like any other command. */
static cl_int run_nothing(struct simt_cl_command *cmd)
{
	(void)cmd;
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint num_mem_objects,
			   const cl_mem *mem_objects, cl_mem_migration_flags flags,
			   cl_uint n, const cl_event *list, cl_event *event)
{
	struct simt_cl_command *cmd;
	cl_int err = CL_SUCCESS;

	if (!num_mem_objects || !mem_objects ||
	    (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
					       CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)))
		return CL_INVALID_VALUE;
	pthread_mutex_lock(&simt_cl_lock);
	for (cl_uint i = 0; i < num_mem_objects && !err; i++) {
		if (!cl_valid(mem_objects[i], MAGIC_MEM))
			err = CL_INVALID_MEM_OBJECT;
		else if (cl_valid(q, MAGIC_QUEUE) && mem_objects[i]->ctx != q->ctx)
			err = CL_INVALID_CONTEXT;
	}
	cmd = err ? NULL : simt_cl_command_new(q, CL_COMMAND_MIGRATE_MEM_OBJECTS,
					       n, list, &err);
	if (cmd) {
		cmd->run = run_nothing;
		err = simt_cl_command_submit(cmd, false, event);
	}
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}
