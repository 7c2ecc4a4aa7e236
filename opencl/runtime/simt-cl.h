/* SPDX-License-Identifier: MIT */
/*
 * The simt OpenCL 1.2 platform: what its files share.  Not an API; the
 * API is OpenCL's, reached through the ICD loader's dispatch table
 * (simt_cl_dispatch), and cl_simt.h's properties.
 *
 * Copyright the simt authors.  Licensed under the MIT licence, as
 * written out in guest/libsimt/libsimt.h.
 *
 * The runtime is built over libsimt, once per backend: the warp
 * interpreter on the host (libsimt-interp.a) and the device through the
 * driver in the guest (libsimt.a).  The objects map as
 *
 *   cl_platform_id    the one platform, "simt"
 *   cl_device_id      the device libsimt opens ($SIMT_DEVICE, else the
 *                     first node), opened at the first clGetDeviceIDs
 *   cl_context        one simt_context (its priority and preemption mode
 *                     from cl_simt.h's properties), shared by its queues
 *   cl_command_queue  a list of commands not yet given to the context;
 *                     the simt_context runs what it is given in order,
 *                     so commands of all queues of a context are ordered
 *                     by when they were given to it
 *   cl_mem            a simt_buffer, or a range of its parent's
 *   cl_program        a kernel image built by simt-cc, loaded into the
 *                     context at an address of its own
 *   cl_kernel         a kernel of it, with its argument block
 *   cl_event          a command's state; a launch's is its sequence
 *                     number in the simt_context
 *
 * Locking: one mutex (simt_cl_lock) around every entry point, released
 * only while a call waits for a user event (simt_cl_cond), so that
 * another thread can set it.
 */
#ifndef SIMT_CL_H
#define SIMT_CL_H

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "libsimt.h"
#include "simt-clargs-reader.h"

extern cl_icd_dispatch simt_cl_dispatch;
extern pthread_mutex_t simt_cl_lock;
extern pthread_cond_t simt_cl_cond;

/* Every object starts with the loader's dispatch pointer and a magic. */
enum simt_cl_magic {
	MAGIC_PLATFORM = 0x51a70001,
	MAGIC_DEVICE,
	MAGIC_CONTEXT,
	MAGIC_QUEUE,
	MAGIC_MEM,
	MAGIC_PROGRAM,
	MAGIC_KERNEL,
	MAGIC_EVENT,
};

struct simt_cl_head {
	cl_icd_dispatch *dispatch;
	uint32_t magic;
	uint32_t refs;
};

/*
 * Objects are registered while they live, so that a handle a program
 * passes is looked up before it is read: a stale or made-up handle is
 * an error code, not a crash.
 */
void simt_cl_head_init(struct simt_cl_head *h, uint32_t magic);
void simt_cl_head_kill(struct simt_cl_head *h);
bool simt_cl_registered(const void *obj);

/*
 * clRetainXxx and clReleaseXxx: @err unless @obj is a live object of
 * kind @magic; a release drops the reference as its kind does (freeing
 * the object at the last one), the lock held.
 */
cl_int simt_cl_retain(void *obj, uint32_t magic, cl_int err);
cl_int simt_cl_release(void *obj, uint32_t magic, cl_int err);

/* Is @obj a live object of kind @magic? */
static inline bool cl_valid(const void *obj, uint32_t magic)
{
	return obj && simt_cl_registered(obj) &&
	       ((const struct simt_cl_head *)obj)->magic == magic &&
	       ((const struct simt_cl_head *)obj)->refs > 0;
}

struct _cl_platform_id {
	struct simt_cl_head h;
};

struct _cl_device_id {
	struct simt_cl_head h;
	simt_device *dev;
	struct simt_device_info info;
	uint32_t clock_mhz;
	uint32_t max_work_group;	/* threads in one block */
	uint64_t max_alloc;		/* bytes of one buffer */
	bool host;			/* the interpreter backend */
};

/* A run of the context's image range taken by a program's image. */
struct simt_cl_range {
	uint32_t start, end;
	struct simt_cl_range *next;
};

/* Device memory that holds argument blocks, one per launch in flight. */
struct simt_cl_arg_slot {
	simt_buffer *buf;
	uint8_t *map;
	uint32_t size;
	uint64_t seq;			/* the launch using it; 0: free */
	struct simt_cl_arg_slot *next;
};

struct _cl_context {
	struct simt_cl_head h;
	cl_device_id device;
	simt_context *sctx;
	cl_context_properties props[8];
	size_t nprops;
	void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
	void *notify_data;
	struct simt_cl_range *images;	/* sorted by start */
	struct simt_cl_arg_slot *slots;
	uint64_t last_seq;		/* the last launch given to sctx */
	/* Events of launches given to sctx and not yet seen to end, in order. */
	struct _cl_event *inflight, **inflight_tail;
	bool failed;			/* a command stopped the simt_context */
};

struct simt_cl_command;

struct _cl_command_queue {
	struct simt_cl_head h;
	cl_context ctx;
	cl_command_queue_properties props;
	struct simt_cl_command *head, **tail;	/* not yet given to sctx */
	struct _cl_command_queue *next_queue;	/* simt_cl_queues */
};

/* Every queue, for clSetUserEventStatus to move their commands on. */
extern struct _cl_command_queue *simt_cl_queues;

/* Drop a reference to @q (lock held); the last frees it. */
void simt_cl_queue_release(cl_command_queue q);

struct simt_cl_mem_callback {
	void (CL_CALLBACK *fn)(cl_mem, void *);
	void *data;
	struct simt_cl_mem_callback *next;
};

/* A mapping of part of a buffer: host memory, copied back at unmap. */
struct simt_cl_map {
	void *ptr;
	size_t offset, size;
	cl_map_flags flags;
	bool owned;			/* ptr was allocated for the map */
	bool unmapping;			/* an unmap of it is queued */
	struct simt_cl_map *next;
};

struct _cl_mem {
	struct simt_cl_head h;
	cl_context ctx;
	cl_mem_flags flags;
	size_t size;
	simt_buffer *buf;		/* the parent's for a sub-buffer */
	size_t origin;			/* in buf */
	cl_mem parent;			/* retained, for a sub-buffer */
	void *host_ptr;			/* CL_MEM_USE_HOST_PTR's */
	struct simt_cl_map *maps;
	cl_uint map_count;
	struct simt_cl_mem_callback *callbacks;
};

/* Device address of byte @offset of @m. */
static inline uint32_t cl_mem_addr(const struct _cl_mem *m, size_t offset)
{
	return simt_buffer_addr(m->buf) + (uint32_t)(m->origin + offset);
}

struct _cl_program {
	struct simt_cl_head h;
	cl_context ctx;
	char *source;			/* NULL for a program from a binary */
	uint8_t *binary;		/* the image, once built */
	size_t binary_size;
	bool from_binary;
	cl_build_status status;
	char *options;
	char *log;
	struct simt_elf elf;		/* parsed from a copy of binary */
	struct simt_clargs clargs;
	bool have_elf;
	simt_module *mod;
	struct simt_cl_range range;	/* its image's addresses */
	cl_uint kernels_alive;		/* no rebuild while any */
};

struct _cl_kernel {
	struct simt_cl_head h;
	cl_program program;
	simt_kernel *kernel;
	const struct simt_clkernel *ck;
	struct simt_kernel_attrs attrs;
	uint8_t *block;			/* the argument block being set */
	uint32_t *local_size;		/* per argument: __local bytes */
	bool *arg_set;
	cl_mem *arg_mem;		/* per argument, retained while set */
};

struct simt_cl_event_callback {
	void (CL_CALLBACK *fn)(cl_event, cl_int, void *);
	cl_int status;			/* CL_SUBMITTED, CL_RUNNING, CL_COMPLETE */
	void *data;
	struct simt_cl_event_callback *next;
};

struct _cl_event {
	struct simt_cl_head h;
	cl_context ctx;
	cl_command_queue queue;		/* NULL for a user event */
	cl_command_type type;
	cl_int status;			/* CL_QUEUED ... CL_COMPLETE, or < 0 */
	uint64_t seq;			/* a launch's, in ctx->sctx */
	cl_ulong queued, submit, start, end;	/* ns of device time */
	struct simt_cl_event_callback *callbacks;
	struct _cl_event *next_inflight;	/* ctx->inflight */
};

/*
 * A rectangle of bytes in two places, a (the buffer, or a copy's source)
 * and b (host memory, or a copy's destination): @height rows of @width
 * bytes in each of @depth slices, starting at each one's offset.
 */
struct simt_cl_rect {
	size_t a_off, a_row, a_slice;
	size_t b_off, b_row, b_slice;
	size_t width, height, depth;
};

/* A command waiting in its queue: what runs it, and what it waits for. */
struct simt_cl_command {
	cl_event event;			/* the queue holds one reference */
	cl_event *waits;		/* retained */
	cl_uint nwaits;
	/*
	 * A copy: the context's launches before it are seen to end first,
	 * each with its own cycles (the host backend runs them inside a
	 * copy and keeps no record of them after).
	 */
	bool copies;
	cl_int (*run)(struct simt_cl_command *cmd);
	void (*done)(struct simt_cl_command *cmd);	/* frees what it holds */
	union {
		struct {
			cl_mem mem;
			size_t offset, size;
			void *ptr;
			uint8_t pattern[128];	/* fill */
			size_t pattern_size;
			cl_mem src;		/* copy */
			size_t src_offset;
			struct simt_cl_map *map;	/* map, unmap */
			struct simt_cl_rect rect;
		} mem;
		struct {
			cl_kernel kernel;	/* retained */
			uint8_t *block;
			uint32_t block_size;
			uint32_t dynamic_shared;
			simt_dim3 grid, group;
		} launch;
	} u;
	struct simt_cl_command *next;
};

/* ---- shared helpers ---- */

/* The device's cycle counter, in ns (for profiling times). */
cl_ulong simt_cl_now_ns(cl_device_id dev);

/* A message through the context's callback (clCreateContext's). */
void simt_cl_notify(cl_context ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * clGetXxxInfo's answer: @size bytes of @value into @param_value (if not
 * NULL; CL_INVALID_VALUE if @param_value_size is too small) and @size
 * into *@param_value_size_ret (if not NULL).
 */
cl_int simt_cl_info(const void *value, size_t size, size_t param_value_size,
		    void *param_value, size_t *param_value_size_ret);
#define CL_INFO_VALUE(type, v)						\
	simt_cl_info(&(type){ (v) }, sizeof(type), param_value_size,	\
		     param_value, param_value_size_ret)
#define CL_INFO_STRING(s)						\
	simt_cl_info((s), strlen(s) + 1, param_value_size, param_value,	\
		     param_value_size_ret)

/* Sets *@errcode_ret (if not NULL) to @err; returns NULL. */
void *simt_cl_fail(cl_int *errcode_ret, cl_int err);

/* OpenCL's error for a libsimt status. */
cl_int simt_cl_error(simt_status st);

/* The only device (NULL before clGetDeviceIDs opened it). */
extern struct _cl_device_id *simt_cl_device;
extern struct _cl_platform_id simt_cl_platform;

/* ---- the command machinery (cl-queue.c) ---- */

/*
 * Check an event wait list as the enqueue functions must (every event
 * valid and of @ctx).
 */
cl_int simt_cl_check_waits(cl_context ctx, cl_uint n, const cl_event *list);

/*
 * A command of @type on @q that waits for @list, its event made (not
 * yet queued).  NULL with *@err set on failure.
 */
struct simt_cl_command *simt_cl_command_new(cl_command_queue q,
					    cl_command_type type, cl_uint n,
					    const cl_event *list, cl_int *err);

/*
 * Queue @cmd, run what in @q can run, and hand the event to the caller
 * in *@event (if not NULL).  With @blocking, return after the command
 * has ended: its status (CL_SUCCESS, or the error that stopped it).
 */
cl_int simt_cl_command_submit(struct simt_cl_command *cmd, bool blocking,
			      cl_event *event);

/* Free a command that was not submitted (with its event). */
void simt_cl_command_discard(struct simt_cl_command *cmd);

/*
 * See the launches of @ctx up to @upto end, in order: with @blocking,
 * wait for them; else stop at the first still running.
 */
void simt_cl_reap(cl_context ctx, uint64_t upto, bool blocking);

/* Update @e from the device (a launch that may have ended). */
void simt_cl_event_update(cl_event e);

/* Wait until @e has ended (CL_COMPLETE or an error). */
void simt_cl_event_wait(cl_event e);

/* Set @e's status and run the callbacks that it reaches. */
void simt_cl_event_set_status(cl_event e, cl_int status);

void simt_cl_event_release(cl_event e);

/* Give every queue's runnable commands to the device. */
void simt_cl_progress_all(void);

/* ---- memory (cl-mem.c), programs (cl-program.c) ---- */

void simt_cl_mem_release(cl_mem m);
void simt_cl_kernel_release(cl_kernel k);
void simt_cl_program_release(cl_program p);

/* Shared memory of a block of @k: static and its __local arguments'. */
uint32_t simt_cl_kernel_local_bytes(cl_kernel k);

/* The largest work-group of @k that fits on one SM. */
size_t simt_cl_kernel_max_group(cl_kernel k);

/* A free argument slot of @ctx for a block of @size bytes. */
struct simt_cl_arg_slot *simt_cl_arg_slot(cl_context ctx, uint32_t size,
					  cl_int *err);

/* Free the context's slots and images (it is being destroyed). */
void simt_cl_context_free_slots(cl_context ctx);

/* A context reference taken or dropped by an object of it; lock held. */
void simt_cl_context_retain(cl_context ctx);
void simt_cl_context_release(cl_context ctx);

/*
 * Give @e the launch @seq that the command's run() just queued on
 * @ctx's simt_context; it ends as the device says.
 */
void simt_cl_event_launched(cl_event e, uint64_t seq);

/* Has launch @seq of @ctx been seen to end? */
bool simt_cl_seq_done(cl_context ctx, uint64_t seq);

#endif /* SIMT_CL_H */
