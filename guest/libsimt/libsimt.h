/* SPDX-License-Identifier: MIT */
/*
 * libsimt: a small runtime for the simt accelerator, in the spirit of the
 * CUDA driver API, on top of the simt DRM accel driver
 * (include/uapi/drm/simt_accel.h, docs/driver.rst).
 *
 * Copyright the simt authors.
 *
 * Permission is hereby granted, free of charge, to any person obtaining a
 * copy of this software and associated documentation files (the "Software"),
 * to deal in the Software without restriction, including without limitation
 * the rights to use, copy, modify, merge, publish, distribute, sublicense,
 * and/or sell copies of the Software, and to permit persons to whom the
 * Software is furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in
 * all copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.  IN NO EVENT SHALL
 * THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING
 * FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
 * DEALINGS IN THE SOFTWARE.
 *
 * The objects, from the outside in:
 *
 *   simt_device    an open device node (/dev/accel/accelN)
 *   simt_context   an address space and a hardware queue on a device, with
 *                  a priority; work submitted to it runs in order
 *   simt_buffer    device memory (VRAM) bound into one context: it has a
 *                  device address that kernels use, and can be mapped
 *   simt_module    a kernel image (ELF annotated by simt-meta) loaded into
 *                  a context at its link address
 *   simt_kernel    one kernel of a module, found by name
 *
 * A launch is asynchronous: simt_launch() queues it and returns its
 * sequence number; simt_wait() waits for it and gives how it ended
 * (struct simt_result).  Copies between host and device memory are
 * synchronous and ordered after the context's earlier work.
 *
 * Errors: every function that can fail returns a simt_status;
 * SIMT_SUCCESS is 0.
 * simt_error_string() names a status; simt_last_error() gives the
 * message of the last failure in the calling thread, with the details
 * (the ioctl and errno, the image file and what is wrong with it).
 *
 * Threads: every function may be called from any thread, at the same
 * time as any other, on the same or on different objects, with these
 * rules:
 *  - Each device has a lock (a mutex) that protects what libsimt keeps
 *    about its contexts, buffers, modules and staging memory; it is
 *    never held across a wait for the device.  Each context has a
 *    second lock that makes a submission (a launch, or a copy's command)
 *    and its sequence number one step: a context's submissions run in
 *    the order of their sequence numbers, which is the order in which
 *    the calls queued them; calls that overlap in time are queued in an
 *    unspecified order.  Growing a context's local memory waits for its
 *    queued work with that context lock held, so other submissions to
 *    the same context wait too (never those of other contexts).
 *  - Copies from several threads on one context use separate staging
 *    memory and may run at once; simt_wait and
 *    simt_context_synchronize block only the calling thread.
 *  - An object must not be used by one thread while another frees it:
 *    simt_mem_free, simt_module_unload, simt_context_destroy (which
 *    frees the context's buffers and modules) and simt_device_close end
 *    the life of their objects, and the caller orders them after every
 *    other use.
 *  - simt_last_error() is per thread.
 */
#ifndef LIBSIMT_H
#define LIBSIMT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum simt_status {
	SIMT_SUCCESS = 0,
	SIMT_ERROR_INVALID_VALUE,	/* a bad argument, refused before use */
	SIMT_ERROR_NO_DEVICE,		/* no such node, not simt, or unplugged */
	SIMT_ERROR_PERMISSION,		/* EACCES/EPERM: node or priority */
	SIMT_ERROR_OUT_OF_MEMORY,	/* device or host memory */
	SIMT_ERROR_OUT_OF_RESOURCES,	/* no hardware context or queue left */
	SIMT_ERROR_INVALID_IMAGE,	/* not a usable simt kernel image */
	SIMT_ERROR_NOT_FOUND,		/* no kernel of that name */
	SIMT_ERROR_ADDRESS_IN_USE,	/* a module's link range is taken */
	SIMT_ERROR_LAUNCH_REFUSED,	/* the driver refused the launch */
	SIMT_ERROR_FAULT,		/* the device faulted (see completion) */
	SIMT_ERROR_DEVICE,		/* the device (or driver) stopped it */
	SIMT_ERROR_CONTEXT_FAILED,	/* the context stopped on an error */
	SIMT_ERROR_TIMEOUT,		/* still running at the timeout */
	SIMT_ERROR_BUSY,		/* the queue stayed full */
	SIMT_ERROR_SYSTEM,		/* any other failure of a system call */
	/*
	 * A device reset cancelled a kernel that was not idempotent, rather
	 * than run it again; the context stopped (interface 0.3).
	 */
	SIMT_ERROR_CANCELED,
	SIMT_ERROR_TOO_LARGE,		/* more than the device can ever hold */
	SIMT_ERROR_NOT_SUPPORTED,	/* not on this backend (device or host) */
} simt_status;

/* A short, fixed description of @status ("out of device memory"...). */
const char *simt_error_string(simt_status status);

/*
 * The message of the calling thread's last failure, e.g.
 * "VM_BIND of a 64 KiB buffer: No space left on device" or
 * "vecadd.elf: no SIMT metadata note (run simt-meta on it)".  Empty if
 * nothing failed yet.  Valid until the thread's next libsimt call.
 */
const char *simt_last_error(void);

/* ---- devices ---- */

typedef struct simt_device simt_device;

/* What a device and its driver report (simt_device_get_info). */
struct simt_device_info {
	char node[64];			/* the node opened, /dev/accel/accelN */
	char pci_address[32];		/* e.g. 0000:00:03.0, "" if unknown */
	char driver_name[32];		/* DRM driver name, "simt" */
	char driver_desc[128];		/* DRM driver description */
	uint32_t uapi_major;		/* DRM driver version = interface */
	uint32_t uapi_minor;
	uint32_t device_major;		/* the device's version register */
	uint32_t device_minor;
	uint32_t caps;			/* DRM_SIMT_CAP_* of <drm/simt_accel.h> */
	uint32_t sm_count;
	uint32_t sm_blocks;		/* thread blocks per SM */
	uint32_t max_contexts;		/* live contexts, all processes */
	uint32_t max_submit_cmds;
	uint64_t vram_size;		/* bytes */
	uint64_t fixed_va_end;		/* kernel images are linked below */
	/* One SM's limits, which a block must fit (0 before interface 0.7). */
	uint32_t sm_threads;
	uint32_t sm_warps;
	uint32_t sm_regs;		/* 32-bit registers */
	uint32_t sm_shared;		/* shared memory bytes */
};

/*
 * Open the device node @node: NULL means $SIMT_DEVICE if set, else
 * /dev/accel/accel0.  Fails with SIMT_ERROR_NO_DEVICE if the node is
 * missing or not a simt device (or one with an interface of another
 * major version), SIMT_ERROR_PERMISSION if the caller may not open it.
 *
 * @node (or $SIMT_DEVICE) SIMT_DEVICE_LEAST_LOADED opens, of the simt
 * devices /dev/accel/accel0..63 that the caller can open, the one with
 * the fewest busy contexts per SM (contexts of any process with
 * submissions not yet finished), then the fewest contexts per SM, then
 * the lowest node number; a driver before interface 0.4, which does not
 * report its load, counts as the busiest.  simt_device_get_info tells
 * which node it was.  SIMT_ERROR_NO_DEVICE if none can be opened.
 */
#define SIMT_DEVICE_LEAST_LOADED	"least-loaded"

simt_status simt_device_open(const char *node, simt_device **dev);

/*
 * Close a device.  Its contexts, buffers and modules must have been
 * freed first (SIMT_ERROR_INVALID_VALUE otherwise, and nothing happens).
 */
simt_status simt_device_close(simt_device *dev);

simt_status simt_device_get_info(simt_device *dev,
				 struct simt_device_info *info);

/*
 * One raw parameter of DRM_IOCTL_SIMT_GET_PARAM (DRM_SIMT_PARAM_*),
 * for those simt_device_info does not have.  An unknown parameter is
 * SIMT_ERROR_INVALID_VALUE.
 */
simt_status simt_device_get_param(simt_device *dev, uint32_t param,
				  uint64_t *value);

/* ---- contexts ---- */

typedef struct simt_context simt_context;

/* Priorities: higher ones are dispatched first. */
enum simt_priority {
	SIMT_PRIORITY_LOW = 0,
	SIMT_PRIORITY_NORMAL = 1,
	SIMT_PRIORITY_HIGH = 2,		/* needs CAP_SYS_NICE since 0.3 */
	SIMT_PRIORITY_REALTIME = 3,	/* needs CAP_SYS_NICE */
};

/*
 * Preemption modes (DRM_SIMT_PREEMPT_*: 0 lets the driver choose; see
 * "Preemption" in docs/specs/simt.rst).  The field exists since
 * interface 0.2: on an older driver any mode but the default is
 * SIMT_ERROR_INVALID_VALUE, and so is a mode the driver does not know.
 */
enum simt_preemption {
	SIMT_PREEMPT_DEFAULT = 0,
	SIMT_PREEMPT_NONE = 1,
	SIMT_PREEMPT_DRAIN = 2,
	SIMT_PREEMPT_FLUSH = 3,
	SIMT_PREEMPT_SWITCH = 4,
	SIMT_PREEMPT_LIGHT = 5,
	SIMT_PREEMPT_AUTO = 6,
	SIMT_PREEMPT_CHIMERA = 7,	/* whole SMs, each block by its progress (0.4) */
};

/*
 * Create a context at @priority with @preempt_mode.  Every context holds
 * one of the device's hardware queues until it is destroyed:
 * SIMT_ERROR_OUT_OF_RESOURCES when none is left (max_contexts, counted
 * over all processes), or when the device is open too often
 * (DRM_SIMT_PARAM_FILE_CONTEXTS contexts per simt_device, interface
 * 0.3), or when the user holds DRM_SIMT_PARAM_USER_CONTEXTS contexts of
 * the device in all his processes (interface 0.9); the message says
 * which.  Realtime without CAP_SYS_NICE is
 * SIMT_ERROR_PERMISSION, and so is high since interface 0.3 unless the
 * administrator opened it to every user (the simt module's
 * unprivileged_high parameter).
 */
simt_status simt_context_create(simt_device *dev, int priority,
				int preempt_mode, simt_context **ctx);

/*
 * Destroy a context: work still queued is dropped, and its buffers and
 * modules are freed with it (their pointers become invalid).
 */
simt_status simt_context_destroy(simt_context *ctx);

/*
 * Wait, without a time limit, for everything submitted to the context.
 * SIMT_ERROR_FAULT, SIMT_ERROR_DEVICE or SIMT_ERROR_CANCELED if the
 * context has stopped on an error (simt_wait on the failed submission
 * gives the details).
 */
simt_status simt_context_synchronize(simt_context *ctx);

/* ---- device memory ---- */

typedef struct simt_buffer simt_buffer;

/*
 * Allocate @size bytes of device memory (rounded up to 4 KiB, zeroed)
 * and bind it into @ctx.  Size 0 is SIMT_ERROR_INVALID_VALUE; more than
 * the device's VRAM is SIMT_ERROR_TOO_LARGE.  VRAM can be oversubscribed
 * (driver interface 0.5): when it is full the driver moves idle
 * contexts' buffers to system memory, so SIMT_ERROR_OUT_OF_MEMORY means
 * the system memory it may spend on them ran out (an older driver says
 * it when the VRAM free now is too little).
 */
simt_status simt_mem_alloc(simt_context *ctx, size_t size, simt_buffer **buf);

/*
 * Free a buffer.  Waits for the context's queued work first (a kernel
 * still using the memory would fault), then unbinds and releases it.
 */
simt_status simt_mem_free(simt_buffer *buf);

/* The buffer's device address (what kernels take as a pointer). */
uint32_t simt_buffer_addr(const simt_buffer *buf);

/* Its size in bytes, after rounding. */
size_t simt_buffer_size(const simt_buffer *buf);

/*
 * Map the buffer into the process (once; later calls return the same
 * pointer, unmapped when the buffer is freed).  The mapping goes through
 * the device's memory BAR, write-combined: fast to write, slow to read.
 * It is not ordered with the queue: synchronize before reading what a
 * kernel wrote or writing what a queued kernel reads.
 */
simt_status simt_buffer_map(simt_buffer *buf, void **ptr);

/*
 * Copies, through the device's copy engines, ordered after the context's
 * earlier work; they return when the bytes have arrived.  Host memory is
 * staged through a system memory buffer of the context.  The device
 * range [@offset, @offset + @size) must lie inside the buffer.
 */
simt_status simt_memcpy_htod(simt_buffer *dst, size_t offset,
			     const void *src, size_t size);
simt_status simt_memcpy_dtoh(void *dst, simt_buffer *src, size_t offset,
			     size_t size);
/* Between buffers of one context; the ranges may not overlap. */
simt_status simt_memcpy_dtod(simt_buffer *dst, size_t dst_offset,
			     simt_buffer *src, size_t src_offset, size_t size);

/* ---- modules and kernels ---- */

typedef struct simt_module simt_module;
typedef struct simt_kernel simt_kernel;

/*
 * Load the kernel image at @path (an ELF file annotated by simt-meta)
 * into @ctx at its link address.  A file that is not a simt kernel image
 * is SIMT_ERROR_INVALID_IMAGE, with the file and the problem in
 * simt_last_error(); a second module linked at an overlapping address in
 * the same context is SIMT_ERROR_ADDRESS_IN_USE.
 */
simt_status simt_module_load(simt_context *ctx, const char *path,
			     simt_module **mod);

/* The same from @size bytes at @data; @name is used in messages. */
simt_status simt_module_load_data(simt_context *ctx, const void *data,
				  size_t size, const char *name,
				  simt_module **mod);

/* Unload: waits for the context's queued work, then frees the image. */
simt_status simt_module_unload(simt_module *mod);

/* The number of kernels in the module, and the name of kernel @index. */
unsigned int simt_module_kernel_count(const simt_module *mod);
const char *simt_module_kernel_name(const simt_module *mod,
				    unsigned int index);

/* Look a kernel up by name (SIMT_ERROR_NOT_FOUND if it has none). */
simt_status simt_module_get_kernel(simt_module *mod, const char *name,
				   simt_kernel **kernel);

/* What the image's metadata note says about a kernel. */
struct simt_kernel_attrs {
	const char *name;
	uint32_t entry;			/* device address of the function */
	uint32_t regs;			/* registers per thread */
	uint32_t shared_bytes;		/* static shared memory per block */
	uint32_t local_bytes;		/* stack per thread */
	uint32_t insn_count;		/* instructions it can reach */
	uint32_t flags;			/* SIMT_META_F_* of simt-isa.h */
};

void simt_kernel_get_attrs(const simt_kernel *kernel,
			   struct simt_kernel_attrs *attrs);

/* ---- launches and completion ---- */

typedef struct simt_dim3 {
	uint32_t x, y, z;
} simt_dim3;

/*
 * Queue a launch of @kernel on its module's context: @grid blocks of
 * @block threads (every dimension at least 1), @dynamic_shared bytes of
 * shared memory per block beyond the kernel's static ones, and @nargs
 * (0..8) 32-bit arguments in a0..a7 (buffer addresses, integers, floats
 * as their bit patterns).  Registers, local and shared sizes come from
 * the metadata note; local memory is allocated by the context as needed
 * (and kept for later launches).  The launch's sequence number goes to
 * *@seq if @seq is not NULL.  A launch the driver refuses is
 * SIMT_ERROR_LAUNCH_REFUSED; one the device cannot run (a block that
 * fits on no SM) fails at simt_wait.
 *
 * With a driver of interface 0.3 or later the launch also carries what
 * the preemption engine uses from the metadata note: the device address
 * of the image's live table (copied into device memory of the context
 * when the module was loaded), the registers the kernel uses, and the
 * idempotent flag when the note says SIMT_META_F_IDEMPOTENT and the
 * buffers the arguments in its store origins point into are neither
 * those in its load origins nor unknown (an address in no buffer or
 * module of the context).  An older driver gets the 0.2 command.
 */
simt_status simt_launch(simt_kernel *kernel, simt_dim3 grid, simt_dim3 block,
			uint32_t dynamic_shared, const uint32_t *args,
			unsigned int nargs, uint64_t *seq);

/* How a submission ended (simt_wait). */
struct simt_result {
	simt_status status;		/* SUCCESS, ERROR_FAULT, _DEVICE, _CANCELED */
	uint32_t hw_error;		/* the device's error code */
	uint64_t fault_addr;		/* for SIMT_ERROR_FAULT */
	uint32_t fault_pc;		/* pc of a faulting kernel instruction */
	/*
	 * Device cycles at which the submission's last launch placed its
	 * first block and at which its last block ended; both 0 if it had
	 * no launch or the driver does not record them.
	 */
	uint64_t start_cycle;
	uint64_t end_cycle;
};

/*
 * Wait up to @timeout_ns (negative: without limit; 0: only look) for
 * submission @seq of @ctx (a number simt_launch returned).  Returns
 * SIMT_SUCCESS, SIMT_ERROR_FAULT, SIMT_ERROR_DEVICE or
 * SIMT_ERROR_CANCELED as the submission ended (then the context is
 * failed: destroy it and create another; a reason the driver gives that
 * this library does not know counts as a device error), or
 * SIMT_ERROR_TIMEOUT; *@c (if not NULL) gets the details.  The deadline
 * is computed once, on CLOCK_MONOTONIC: signals do not extend the wait
 * (with a driver older than 0.3, a handler installed with SA_RESTART
 * can, since the kernel then restarts the relative wait itself).
 */
simt_status simt_wait(simt_context *ctx, uint64_t seq, int64_t timeout_ns,
		      struct simt_result *c);

/*
 * simt_wait() with a timeout of 0 that prints no device printf records:
 * SIMT_ERROR_TIMEOUT while submission @seq of @ctx runs, else how it
 * ended.  The records stay for the next synchronisation that covers the
 * module (a simt_wait(), simt_context_synchronize(), the unload, the
 * context's end).
 */
simt_status simt_query(simt_context *ctx, uint64_t seq, struct simt_result *c);

/* ---- user queues (interface 0.8) ---- */

/*
 * A user queue: the context's queue, fed by this process without a
 * system call (docs/driver.rst, "User queues").  Its ring and its fence
 * word are system memory of the process bound in the context; a launch
 * writes a LAUNCH and a SIGNAL of the fence word into the ring and
 * stores the new tail into the queue's doorbell, mapped into the
 * process.  Completion is the fence word reaching the value the launch
 * returned, which simt_userq_wait() polls, then sleeps for (USERQ_WAIT).
 * A user queue lives as long as its context: simt_context_destroy()
 * ends both.
 */
typedef struct simt_userq simt_userq;

/*
 * Make @ctx's queue a user queue of @entries commands (a power of two,
 * 2..4096; each launch takes two).  What was submitted to @ctx before
 * (loading modules, copies) must be over or about to be: the driver
 * waits a second for it.  From then on the context takes no SUBMIT:
 * simt_launch(), simt_memcpy_*() and the split launches on it fail with
 * SIMT_ERROR_INVALID_VALUE (fill buffers first, or through
 * simt_buffer_map()).  SIMT_ERROR_NOT_SUPPORTED if the driver (before
 * 0.8) or the device has no user queues.
 */
simt_status simt_userq_create(simt_context *ctx, unsigned int entries,
			      simt_userq **out);

/*
 * Queue a launch of @kernel (arguments as for simt_launch) on @q; *@value
 * (if not NULL) gets the fence value that says it is over.  Waits while
 * the ring is full (SIMT_ERROR_FAULT etc. if the queue stopped
 * meanwhile).  What the driver would check for simt_launch and the
 * device checks instead (a block that fits on no SM, a fault) stops the
 * context: simt_userq_wait() reports it.  Not for several threads at
 * once on one queue: they take turns (a lock).
 */
simt_status simt_userq_launch(simt_userq *q, simt_kernel *kernel, simt_dim3 grid,
			      simt_dim3 block, uint32_t dynamic_shared,
			      const uint32_t *args, unsigned int nargs, uint64_t *value);

/*
 * Wait up to @timeout_ns (negative: without limit; 0: only look) until
 * the launches up to the one that returned @value are over: first by
 * polling the fence word, then asleep in the driver (USERQ_WAIT).
 * SIMT_ERROR_FAULT, SIMT_ERROR_DEVICE or SIMT_ERROR_CANCELED if the
 * context stopped first (*@c, if not NULL, gets the device's error code
 * and the fault address; no cycles), SIMT_ERROR_TIMEOUT.
 */
simt_status simt_userq_wait(simt_userq *q, uint64_t value, int64_t timeout_ns,
			    struct simt_result *c);

/* The fence word now: every launch whose value is at most this is over. */
uint64_t simt_userq_done(const simt_userq *q);

/* ---- kernel splitting (seed 002, PKM) ---- */

/*
 * How simt_launch_split() cuts a grid into subkernels.  Either
 * @subkernel_blocks (S) is given, or it is 0 and S is chosen from
 * @target_cycles: the first subkernel runs @probe_blocks blocks (0: SM
 * count x blocks per SM, one wave when that many fit), its device time
 * per block is measured from its start and end cycles, and S is the
 * largest count whose time at that rate fits in @target_cycles (at least
 * 1).  Time is taken as proportional to the blocks, as it is when the
 * blocks of a subkernel share the SMs' issue slots; a subkernel smaller
 * than one block per SM is not faster than one that has it.  For PKM's
 * rule, @target_cycles is the shortest period of the higher-priority work
 * in device cycles (microseconds x DRM_SIMT_PARAM_CLOCK_MHZ).
 */
struct simt_split {
	uint32_t subkernel_blocks;	/* S; 0: chosen from @target_cycles */
	uint32_t probe_blocks;		/* with S 0: the measured first subkernel */
	uint64_t target_cycles;		/* with S 0: the longest a subkernel may run */
};

/* How a split launch went (simt_launch_split). */
struct simt_split_result {
	/*
	 * How it ended, as simt_wait gives it for the subkernel that failed
	 * (or the last one); start_cycle is the first subkernel's,
	 * end_cycle the last one's.
	 */
	struct simt_result result;
	uint32_t subkernel_blocks;	/* S used after the probe */
	uint32_t subkernels;		/* subkernels launched */
	uint64_t busy_cycles;		/* their end - start cycles, summed */
	uint64_t longest_cycles;	/* the longest one's, the probe's excluded */
};

/*
 * Run a launch of @kernel (arguments as for simt_launch) as subkernels of
 * S blocks each, in the order of their linear block indices (x fastest,
 * then y, then z).  Each subkernel is a LAUNCH of the whole grid limited
 * to its blocks (DRM_SIMT_CMD_LAUNCH's subgrid, interface 0.4), so the
 * kernel sees every block's index in the whole grid and the whole grid's
 * size, unchanged; the results are those of simt_launch.  Following PKM,
 * each subkernel is submitted only when the previous one has completed:
 * a launch of another context that arrived meanwhile (of higher priority,
 * or of the same priority, since the device dispatches equals in arrival
 * order) gets the device between two subkernels, whatever the preemption
 * mode of this context (also SIMT_PREEMPT_NONE).  The call returns when
 * the last subkernel has completed or one has failed (its status; the
 * context has stopped then).  Work queued on the context by other
 * threads meanwhile may run between the subkernels.
 *
 * SIMT_ERROR_INVALID_VALUE for no @split, S and @target_cycles both 0, or
 * a grid of 2^32 blocks or more; SIMT_ERROR_LAUNCH_REFUSED as for
 * simt_launch, and for a driver older than interface 0.4 when the grid
 * needs more than one subkernel.  *@r may be NULL.
 */
simt_status simt_launch_split(simt_kernel *kernel, simt_dim3 grid, simt_dim3 block,
			      uint32_t dynamic_shared, const uint32_t *args,
			      unsigned int nargs, const struct simt_split *split,
			      struct simt_split_result *r);

/* ---- checkers and block order (the host runner's backend) ---- */

/*
 * The interpreter backend's checkers, like compute-sanitizer's tools
 * (docs/toolchain.rst, "Checkers"); each finding is printed on stderr
 * as it is made, with the kernel's source line when the image was built
 * with -g.
 */
enum simt_check {
	SIMT_CHECK_MEMCHECK = 1 << 0,	/* accesses outside memory, misaligned */
	SIMT_CHECK_RACECHECK = 1 << 1,	/* shared-memory hazards */
	SIMT_CHECK_SYNCCHECK = 1 << 2,	/* plain shuffles, votes by part of a warp */
};

/* The order in which the interpreter runs a launch's blocks. */
enum simt_schedule {
	SIMT_SCHEDULE_LINEAR = 0,	/* in index order, each to its end */
	SIMT_SCHEDULE_RANDOM = 1,	/* interleaved, in an order from a seed */
};

/*
 * Run the launches that start from now with the checkers of @checks (a
 * mask of enum simt_check, 0 for none).  A memcheck finding stops the
 * kernel as a fault would (SIMT_ERROR_FAULT); racecheck and synccheck
 * findings are reported and the kernel runs on.  The device backend
 * has no checkers: SIMT_ERROR_NOT_SUPPORTED unless @checks is 0.
 */
simt_status simt_context_set_checks(simt_context *ctx, unsigned int checks);

/*
 * Run the launches that start from now in @schedule order; @seed draws
 * the random order (the same seed, the same order).  The device's
 * dispatcher chooses its own: SIMT_ERROR_NOT_SUPPORTED there.
 */
simt_status simt_context_set_schedule(simt_context *ctx, int schedule, uint64_t seed);

/* The checkers' findings on @ctx so far (0 on the device backend). */
uint64_t simt_context_check_findings(const simt_context *ctx);

#ifdef __cplusplus
}
#endif

#endif /* LIBSIMT_H */
