/* SPDX-License-Identifier: MIT */
/*
 * simt: the driver's userspace interface (ioctls on /dev/accel/accelN).
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
 * Versioning: the interface version is the DRM driver version that
 * DRM_IOCTL_VERSION reports (DRM_SIMT_UAPI_MAJOR.DRM_SIMT_UAPI_MINOR).  A
 * new ioctl, command type or flag raises the minor; userspace checks the
 * minor before it uses something newer than 0.1.  0.2 added the preemption
 * mode of a context, SUBMIT's syncobj, WAIT's fault pc and cycles,
 * DRM_SIMT_ERROR_TIMEOUT, and VM_BIND of system memory objects (with
 * their device address in BO_INFO); the driver also supports the generic DRM sync
 * object ioctls (DRIVER_SYNCOBJ) since then.  0.3 added SUBMIT's input
 * syncobjs, timeline points and sync_file out-fence, the LAUNCH
 * metadata (live table, used registers, DRM_SIMT_CMD_LAUNCH_IDEMPOTENT),
 * any command stride (cmd_size), WAIT's absolute deadline,
 * DRM_SIMT_ERROR_CANCELED, DRM_SIMT_PARAM_FILE_CONTEXTS, and the
 * capability and preset values below; HIGH priority became privileged
 * and the job timeout counts only time spent running (docs/driver.rst);
 * the driver supports timeline syncobjs (DRIVER_SYNCOBJ_TIMELINE).
 * 0.4 added DRM_SIMT_PARAM_CONTEXTS and DRM_SIMT_PARAM_BUSY_CONTEXTS,
 * DRM_SIMT_PREEMPT_CHIMERA, and the subgrid of a LAUNCH (@first_block,
 * @block_count).  0.5 oversubscribes VRAM: a VRAM BO_CREATE that finds
 * no room evicts idle contexts' objects to system memory (or starts
 * there) instead of failing with ENOMEM, and a VRAM object's device
 * address is no longer its VRAM offset (it never changes, wherever the
 * object is).  0.6 added DRM_SIMT_CMD_LAUNCH64, a LAUNCH whose device
 * addresses are 64-bit like every other device address of the
 * interface; context ids are no longer reused at once; a submission of
 * a destroyed context that never reached the device ends with
 * -ECANCELED, not -ESRCH.  0.7 added the SM limits of GET_PARAM
 * (DRM_SIMT_PARAM_SM_THREADS ... _SM_SHARED).  0.8 added user queues
 * (DRM_SIMT_CAP_USER_QUEUES, USERQ_CREATE, USERQ_WAIT and the doorbell
 * mapping).
 *
 * Conventions: every structure is padded to 64-bit alignment; every
 * reserved or padding field must be zero and every unknown flag bit is
 * refused, both with EINVAL, so that they can be given a meaning later.
 * A handle that names no buffer object is ENOENT, as is a context id
 * that names no context of this open file.
 *
 * The model, in short (docs/driver.rst has the long version):
 *  - Buffer objects (BOs) live in device memory (VRAM) or in system memory.
 *    Both can be mapped into the process (BO_MMAP_OFFSET, then mmap(2) on
 *    the device node).  VRAM objects of idle contexts move to system
 *    memory when VRAM is full and back when their context submits.
 *  - A context is a device address space plus a hardware queue.  Contexts
 *    belong to the open file that created them and die with it.
 *  - VM_BIND maps a BO into a context's address space.  Its device
 *    address is chosen by the driver and is the same in every context
 *    (BO_INFO reports it), or, with DRM_SIMT_VM_BIND_FIXED, chosen by the
 *    caller below DRM_SIMT_PARAM_FIXED_VA_END (for kernel images, which
 *    are linked at a fixed address).  System memory BOs can be bound too
 *    (since 0.2), so kernels reach them through the device MMU; copies
 *    reach them directly, bound or not.
 *  - SUBMIT queues commands on a context and returns a sequence number;
 *    WAIT waits for one.  Commands of a context run in submission order.
 *  - A command that fails (a device MMU fault, a bad address), or a
 *    submission that runs longer than the driver's job timeout, stops the
 *    context: WAIT reports the error for that submission and every later
 *    one, and further SUBMITs fail with EIO.  Destroy the context and
 *    create a new one to go on.  Other contexts are not affected: the
 *    driver stops only the hung context's queue.  Only if that fails does
 *    it reset the whole device; then the other contexts' unfinished work
 *    runs again from the command that was interrupted, except a kernel
 *    that was running and is not idempotent: its submission ends with
 *    DRM_SIMT_ERROR_CANCELED and its context stops, rather than risk a
 *    wrong result.
 *  - Each submission has a completion fence: SUBMIT can put it in a DRM
 *    sync object (binary, or a timeline point) and return it as a
 *    sync_file, so the generic DRM_IOCTL_SYNCOBJ_* ioctls, poll(2) and
 *    other drivers can wait for it; SUBMIT can also wait for other
 *    fences (input syncobjs) before its commands run.
 */
#ifndef __SIMT_ACCEL_H__
#define __SIMT_ACCEL_H__

#include <drm/drm.h>

#if defined(__cplusplus)
extern "C" {
#endif

#define DRM_SIMT_UAPI_MAJOR		0
#define DRM_SIMT_UAPI_MINOR		9

#define DRM_SIMT_GET_PARAM		0x00
#define DRM_SIMT_BO_CREATE		0x01
#define DRM_SIMT_BO_MMAP_OFFSET		0x02
#define DRM_SIMT_BO_INFO		0x03
#define DRM_SIMT_CONTEXT_CREATE		0x04
#define DRM_SIMT_CONTEXT_DESTROY	0x05
#define DRM_SIMT_VM_BIND		0x06
#define DRM_SIMT_VM_UNBIND		0x07
#define DRM_SIMT_SUBMIT			0x08
#define DRM_SIMT_WAIT			0x09
#define DRM_SIMT_USERQ_CREATE		0x0a	/* since 0.8 */
#define DRM_SIMT_USERQ_WAIT		0x0b	/* since 0.8 */

/* Parameters for DRM_IOCTL_SIMT_GET_PARAM */
#define DRM_SIMT_PARAM_DEVICE_VERSION	0	/* major << 16 | minor */
#define DRM_SIMT_PARAM_CAPS		1	/* SIMT_CAP_* of simt-hw.h */
#define DRM_SIMT_PARAM_SM_COUNT		2
#define DRM_SIMT_PARAM_VRAM_SIZE	3	/* bytes */
#define DRM_SIMT_PARAM_IRQ_TEST_COUNT	4	/* test interrupts handled */
#define DRM_SIMT_PARAM_MAX_CONTEXTS	5	/* contexts the device can hold */
#define DRM_SIMT_PARAM_MAX_SUBMIT_CMDS	6	/* commands in one SUBMIT */
#define DRM_SIMT_PARAM_SM_BLOCKS	7	/* thread blocks per SM */
#define DRM_SIMT_PARAM_FIXED_VA_END	8	/* see DRM_SIMT_VM_BIND_FIXED */
/* Since 0.2: */
#define DRM_SIMT_PARAM_CLOCK_MHZ	9	/* device cycles per microsecond */
#define DRM_SIMT_PARAM_PRESET		10	/* enum simt_preset of simt-hw.h */
#define DRM_SIMT_PARAM_CYCLE		11	/* the device's cycle counter now */
/* Since 0.3: */
#define DRM_SIMT_PARAM_FILE_CONTEXTS	12	/* contexts one open file may hold */
/* Since 0.4: how busy the device is now, for choosing among devices */
#define DRM_SIMT_PARAM_CONTEXTS		13	/* contexts, of every process */
#define DRM_SIMT_PARAM_BUSY_CONTEXTS	14	/* ... with unfinished submissions */
/* Since 0.7: one SM's limits, which a block must fit (simt_block_misfit) */
#define DRM_SIMT_PARAM_SM_THREADS	15
#define DRM_SIMT_PARAM_SM_WARPS		16
#define DRM_SIMT_PARAM_SM_REGS		17	/* 32-bit registers */
#define DRM_SIMT_PARAM_SM_SHARED	18	/* shared memory bytes */
/* Since 0.9: contexts the caller's user may hold, in all his files */
#define DRM_SIMT_PARAM_USER_CONTEXTS	19

/* DRM_SIMT_PARAM_CAPS bits (the device's CAPS register) */
#define DRM_SIMT_CAP_MSIX		0x1u
#define DRM_SIMT_CAP_QUEUES		0x2u	/* queues and launches */
#define DRM_SIMT_CAP_MMU		0x4u	/* contexts and page tables */
#define DRM_SIMT_CAP_COPY		0x8u	/* copy engines */
#define DRM_SIMT_CAP_PREEMPT		0x10u	/* the preemption engine */
/* bit 5 is a device-internal dispatch mode, not reported */
#define DRM_SIMT_CAP_USER_QUEUES	0x40u	/* USERQ_CREATE (0.8) */

/* DRM_SIMT_PARAM_PRESET values: the machine the device models */
#define DRM_SIMT_PRESET_DEFAULT		0	/* small teaching configuration */
#define DRM_SIMT_PRESET_GTX480		1	/* Fermi (seeds 000, 004) */
#define DRM_SIMT_PRESET_PASCAL5		2	/* seed 001 */
#define DRM_SIMT_PRESET_VOLTA80		3
#define DRM_SIMT_PRESET_TURING68	4
#define DRM_SIMT_PRESET_AMPERE82	5
#define DRM_SIMT_PRESET_COUNT		6	/* later devices may have more */

/**
 * struct drm_simt_get_param - query a device parameter
 * @param: in, one of DRM_SIMT_PARAM_*
 * @reserved: must be zero
 * @value: out, the parameter's value
 */
struct drm_simt_get_param {
	__u32 param;
	__u32 reserved;
	__u64 value;
};

/* Placement of a buffer object: exactly one of these. */
#define DRM_SIMT_BO_VRAM		0x1u	/* device memory */
#define DRM_SIMT_BO_SYSTEM		0x2u	/* system memory */
/* BO_INFO only (since 0.5): a VRAM object now evicted to system memory. */
#define DRM_SIMT_BO_EVICTED		0x4u

/**
 * struct drm_simt_bo_create - allocate a buffer object
 * @size: in, bytes; rounded up to the page size (4 KiB).  Zero is EINVAL;
 *	more than the device can ever hold is E2BIG; more than is free now is
 *	ENOMEM.  System memory objects are pinned: they count against the
 *	creating process's RLIMIT_MEMLOCK (ENOMEM beyond it, unless it has
 *	CAP_IPC_LOCK) until they are freed, and never more than half of
 *	the RAM may be pinned by one object.
 * @flags: in, exactly one of DRM_SIMT_BO_VRAM, DRM_SIMT_BO_SYSTEM
 * @handle: out, the new object's handle (close it with DRM_IOCTL_GEM_CLOSE)
 *
 * The memory reads as zero when the object is created.  System memory
 * objects can be exported as dma-bufs (DRM_IOCTL_PRIME_HANDLE_TO_FD);
 * VRAM objects cannot (EOPNOTSUPP).
 */
struct drm_simt_bo_create {
	__u64 size;
	__u32 flags;
	__u32 handle;
};

/**
 * struct drm_simt_bo_mmap_offset - where to mmap a buffer object
 * @handle: in
 * @pad: must be zero
 * @offset: out, pass to mmap(2) on the device node; map at most the
 *	object's size from there.  VRAM objects are mapped write-combined
 *	through the device's memory BAR, system memory objects cached.
 */
struct drm_simt_bo_mmap_offset {
	__u32 handle;
	__u32 pad;
	__u64 offset;
};

/**
 * struct drm_simt_bo_info - describe a buffer object
 * @handle: in
 * @flags: out, its placement (DRM_SIMT_BO_VRAM or DRM_SIMT_BO_SYSTEM),
 *	with DRM_SIMT_BO_EVICTED for a VRAM object in system memory now
 * @size: out, bytes (after rounding)
 * @device_addr: out, the device address the object has in every context
 *	it is bound to without DRM_SIMT_VM_BIND_FIXED (VM_BIND): a range the
 *	driver gives it at creation, below 3 GiB, that meets no other object
 *	and no fixed binding, and stays the object's wherever it is (before
 *	0.5 a VRAM object's was its VRAM offset; before 0.2 a system memory
 *	object's was 0).  0 if the driver had no room left for a system
 *	memory object: then it cannot be bound at its own address.  Device
 *	address 0 is never a valid object address.
 */
struct drm_simt_bo_info {
	__u32 handle;
	__u32 flags;
	__u64 size;
	__u64 device_addr;
};

/* Context priorities: higher ones are dispatched first. */
#define DRM_SIMT_PRIORITY_LOW		0
#define DRM_SIMT_PRIORITY_NORMAL	1
/*
 * HIGH needs CAP_SYS_NICE (EACCES) since 0.3, unless the administrator
 * opened it to every user (the simt module's unprivileged_high
 * parameter); REALTIME always needs it.
 */
#define DRM_SIMT_PRIORITY_HIGH		2
#define DRM_SIMT_PRIORITY_REALTIME	3

/*
 * How a context's kernels give up the SMs to higher-priority work (see
 * "Preemption" in docs/specs/simt.rst).  DEFAULT lets the driver choose.
 */
#define DRM_SIMT_PREEMPT_DEFAULT	0
#define DRM_SIMT_PREEMPT_NONE		1	/* never preempted */
#define DRM_SIMT_PREEMPT_DRAIN		2
#define DRM_SIMT_PREEMPT_FLUSH		3
#define DRM_SIMT_PREEMPT_SWITCH		4
#define DRM_SIMT_PREEMPT_LIGHT		5
#define DRM_SIMT_PREEMPT_AUTO		6
#define DRM_SIMT_PREEMPT_CHIMERA	7	/* whole SMs, Park et al.; since 0.4 */

/**
 * struct drm_simt_context_create - create a context
 * @priority: in, DRM_SIMT_PRIORITY_*
 * @flags: in, must be zero
 * @ctx_id: out, the context's id (never 0), valid in this open file only;
 *	ids are handed out in turn, so a destroyed context's id does not
 *	name the next context (since 0.5)
 * @preempt_mode: in, DRM_SIMT_PREEMPT_* (since 0.2; was a zero pad).
 *	Larger values are EINVAL.  The driver keeps the mode with the
 *	context (debugfs "contexts" shows it).
 *
 * A context takes a hardware context (an address space) and a hardware
 * queue; when the device has none left the call fails with ENOSPC.  One
 * open file may hold DRM_SIMT_PARAM_FILE_CONTEXTS contexts at once
 * (EMFILE beyond; since 0.3), and one user without CAP_SYS_ADMIN
 * DRM_SIMT_PARAM_USER_CONTEXTS in all his files together (EDQUOT
 * beyond; since 0.9).
 */
struct drm_simt_context_create {
	__u32 priority;
	__u32 flags;
	__u32 ctx_id;
	__u32 preempt_mode;
};

/**
 * struct drm_simt_context_destroy - destroy a context
 * @ctx_id: in
 * @pad: must be zero
 *
 * Work still queued on the context is dropped; its bindings go away.
 * Closing the file destroys its remaining contexts.
 */
struct drm_simt_context_destroy {
	__u32 ctx_id;
	__u32 pad;
};

/* VM_BIND flags */
#define DRM_SIMT_VM_BIND_FIXED		0x1u	/* at @device_addr */

/**
 * struct drm_simt_vm_bind - map a buffer object into a context
 * @ctx_id: in
 * @handle: in, a VRAM or (since 0.2; EINVAL before) system memory object
 *	(an object already bound to the context is EEXIST).  A system
 *	memory object's pages are mapped by their DMA addresses, which must
 *	lie below 16 GiB (EINVAL otherwise, said in the kernel log); one
 *	without a device address (BO_INFO 0) is ENOSPC unless bound with
 *	DRM_SIMT_VM_BIND_FIXED.
 * @flags: in, 0 or DRM_SIMT_VM_BIND_FIXED
 * @pad: must be zero
 * @device_addr: without DRM_SIMT_VM_BIND_FIXED out, the object's device
 *	address (as BO_INFO reports it).  With it in: where to map the
 *	object, page-aligned, and the whole object below
 *	DRM_SIMT_PARAM_FIXED_VA_END (EINVAL otherwise); overlapping another
 *	fixed binding of the context is EBUSY.  The driver never puts an
 *	object's own address below that limit, so fixed and unfixed
 *	bindings cannot collide.
 *
 * The whole object is mapped readable, writable and executable.  The
 * binding keeps the object alive until VM_UNBIND or the context's end,
 * even if its handle is closed.  An object is bound at most once per
 * context.
 */
struct drm_simt_vm_bind {
	__u32 ctx_id;
	__u32 handle;
	__u32 flags;
	__u32 pad;
	__u64 device_addr;
};

/**
 * struct drm_simt_vm_unbind - remove a binding made by VM_BIND
 * @ctx_id: in
 * @handle: in; an object not bound to the context is ENOENT
 *
 * Work of the context that still uses the object's device addresses
 * faults (the device's translations are invalidated before this returns).
 */
struct drm_simt_vm_unbind {
	__u32 ctx_id;
	__u32 handle;
};

/* Command types for struct drm_simt_cmd */
#define DRM_SIMT_CMD_COPY		1
#define DRM_SIMT_CMD_LAUNCH		2	/* 32-bit device addresses */
#define DRM_SIMT_CMD_LAUNCH64		3	/* since 0.6 */

/**
 * struct drm_simt_cmd_copy - copy bytes between buffer objects
 * @src_handle: the object copied from
 * @dst_handle: the object copied to
 * @src_offset: byte offset in the source object
 * @dst_offset: byte offset in the destination object
 * @size: bytes to copy, any size and alignment (0 does nothing); both
 *	ranges must lie inside their objects (EINVAL otherwise)
 *
 * COPY moves bytes with the device's copy engines.  A VRAM object is
 * reached through the context's address space at its own device
 * address (BO_INFO), so it must be bound there without
 * DRM_SIMT_VM_BIND_FIXED, or the copy faults; a system memory object is
 * reached directly.  Source and destination may be the same object only
 * if the ranges do not overlap.
 */
struct drm_simt_cmd_copy {
	__u32 src_handle;
	__u32 dst_handle;
	__u64 src_offset;
	__u64 dst_offset;
	__u64 size;
};

/*
 * struct drm_simt_cmd @flags of a LAUNCH (since 0.3): every block may be
 * flushed (run again from its start) when it is preempted, even after it
 * stored to memory.  Set it only for a kernel whose metadata note says
 * SIMT_META_F_IDEMPOTENT and whose stored-to buffers do not overlap the
 * buffers it loads from (libsimt checks both); otherwise a flush can give
 * a wrong result.  The other command types take no flag.
 */
#define DRM_SIMT_CMD_LAUNCH_IDEMPOTENT	0x1u

/**
 * struct drm_simt_cmd_launch - run a kernel
 * @code_addr: device address of the kernel image's code
 * @code_size: its bytes, 4..4 MiB, a multiple of 4
 * @entry: device address of the kernel function, inside the code
 * @grid: blocks in x, y, z, each at least 1
 * @block: threads per block in x, y, z, each at least 1
 * @shared_size: shared memory bytes per block
 * @local_size: local memory (stack) bytes per thread, a multiple of 16
 * @regs: registers per thread, 1..64 (from the kernel's metadata note)
 * @local_base: device address of the local memory: local_size * threads
 *	per block * SM_COUNT * SM_BLOCKS bytes (0 if local_size is 0)
 * @args: the kernel's arguments, in a0..a7
 * @live_addr: device address of the kernel image's live table for
 *	[@code_addr, @code_addr + @code_size): one little-endian 64-bit mask
 *	per instruction, as in the image's metadata note (simt-isa.h); 0:
 *	none.  With it a lightweight context switch saves only the registers
 *	live where each thread stopped (seed 004).  It must be bound and
 *	readable, or the launch fails with a device error (since 0.3; was
 *	a zero pad).
 * @int_regs: the integer registers the kernel uses (bit n: xn; the
 *	metadata's int_regs_used) (since 0.3)
 * @fp_regs: the floating-point registers it uses (bit n: fn); both 0
 *	mean every register (since 0.3).  A context switch saves only these.
 * @first_block: with @block_count, a subgrid: only the blocks with linear
 *	indices [@first_block, @first_block + @block_count) of @grid run
 *	(x fastest, then y, then z); the kernel still sees its block's
 *	index in the whole grid, and the whole grid's size.  @block_count 0
 *	runs every block, and @first_block must then be 0.  A range beyond
 *	the grid is EINVAL.  (Since 0.4; was a zero pad.)
 * @block_count: see @first_block (since 0.4)
 *
 * Every address is a device address of the context: the code, the
 * local memory and whatever the kernel reads and writes must be bound.
 * What the driver can check it checks (EINVAL); what only running the
 * kernel shows (a fault, a block that fits on no SM) stops the context
 * with an error that WAIT reports.
 */
struct drm_simt_cmd_launch {
	__u32 code_addr;
	__u32 code_size;
	__u32 entry;
	__u32 grid[3];
	__u32 block[3];
	__u32 shared_size;
	__u32 local_size;
	__u32 regs;
	__u32 local_base;
	__u32 args[8];
	__u32 live_addr;
	__u32 int_regs;
	__u32 fp_regs;
	__u32 first_block;
	__u32 block_count;
};

/**
 * struct drm_simt_cmd_launch64 - run a kernel (since 0.6)
 * @code_addr: as struct drm_simt_cmd_launch's
 * @entry: likewise
 * @local_base: likewise
 * @live_addr: likewise
 * @code_size: likewise
 * @grid: likewise
 * @block: likewise
 * @shared_size: likewise
 * @local_size: likewise
 * @regs: likewise
 * @args: likewise: the kernel's registers a0..a7 are 32-bit
 * @int_regs: likewise
 * @fp_regs: likewise
 * @first_block: likewise
 * @block_count: likewise
 *
 * DRM_SIMT_CMD_LAUNCH with its four device addresses 64-bit, as every
 * other device address of the interface is (BO_INFO, VM_BIND), so that
 * a device with a larger address space needs no new command.  Today's
 * contexts are Sv32: an address (or a range) at or beyond 4 GiB is
 * EINVAL.  New programs use this one; DRM_SIMT_CMD_LAUNCH stays for
 * those built against 0.5 and earlier.
 */
struct drm_simt_cmd_launch64 {
	__u64 code_addr;
	__u64 entry;
	__u64 local_base;
	__u64 live_addr;
	__u32 code_size;
	__u32 grid[3];
	__u32 block[3];
	__u32 shared_size;
	__u32 local_size;
	__u32 regs;
	__u32 args[8];
	__u32 int_regs;
	__u32 fp_regs;
	__u32 first_block;
	__u32 block_count;
};

/**
 * struct drm_simt_cmd - one command of a SUBMIT
 * @type: DRM_SIMT_CMD_*
 * @flags: DRM_SIMT_CMD_LAUNCH_IDEMPOTENT for a launch; otherwise zero
 * @copy: for DRM_SIMT_CMD_COPY
 * @launch: for DRM_SIMT_CMD_LAUNCH
 * @launch64: for DRM_SIMT_CMD_LAUNCH64 (since 0.6)
 * @reserved: room for later commands; must be zero beyond the member
 *	the type uses
 *
 * The structure grew from 120 bytes (0.2) to 136 (0.3); SUBMIT's
 * @cmd_size says which one the caller has (see there).
 */
struct drm_simt_cmd {
	__u32 type;
	__u32 flags;
	union {
		struct drm_simt_cmd_copy copy;
		struct drm_simt_cmd_launch launch;
		struct drm_simt_cmd_launch64 launch64;
		__u64 reserved[16];
	};
};

/* An input fence of SUBMIT (since 0.3). */
#define DRM_SIMT_SYNC_WAIT_POINT	0	/* the only kind so far */

/**
 * struct drm_simt_sync - a fence SUBMIT waits for before its commands run
 * @handle: a DRM syncobj of this open file (ENOENT otherwise)
 * @flags: must be zero
 * @point: 0 for a binary syncobj, else the timeline point to wait for
 *	(EINVAL if the syncobj has no fence for it yet)
 */
struct drm_simt_sync {
	__u32 handle;
	__u32 flags;
	__u64 point;
};

/* SUBMIT flags (since 0.3) */
#define DRM_SIMT_SUBMIT_FENCE_FD	0x1u	/* return a sync_file */

/**
 * struct drm_simt_submit - queue commands on a context
 * @ctx_id: in
 * @flags: in, 0 or DRM_SIMT_SUBMIT_FENCE_FD (EINVAL for other bits)
 * @cmds: in, user pointer to an array of struct drm_simt_cmd
 * @cmd_count: in, number of commands, 0..DRM_SIMT_PARAM_MAX_SUBMIT_CMDS
 *	(0 queues only the completion, a marker to wait for)
 * @cmd_size: in, the stride of @cmds: sizeof(struct drm_simt_cmd) of
 *	the caller's header, a multiple of 8 from 8 to 4096 (EINVAL
 *	otherwise).  A smaller (older) struct reads as if zero-filled; a
 *	larger (newer) one is accepted if its extra bytes are zero (E2BIG
 *	otherwise).  Before 0.3 only 120 was accepted.
 * @seqno: out, the submission's sequence number: per context, starting
 *	at 1 and increasing by one per submission
 * @syncobj: in, 0 or a DRM syncobj handle of this open file
 *	(DRM_IOCTL_SYNCOBJ_CREATE): its fence is replaced by the submission's
 *	completion fence (or, with @syncobj_point, the fence is added at that
 *	point of a timeline syncobj), which signals when the submission
 *	completes or ends with an error (the fence's error is then -EFAULT
 *	for a fault, -EIO for another device error, -ETIMEDOUT for the job
 *	timeout, -ECANCELED if the context was destroyed first, whether
 *	the submission had reached the device or not (before 0.5 the latter
 *	was -ESRCH), or a device reset cancelled it, -ENODEV if the device
 *	went away).  A handle that
 *	names no syncobj is ENOENT and nothing is queued.  (Since 0.2.)
 * @pad: must be zero (EINVAL)
 * @syncobj_point: in, 0, or the timeline point of @syncobj to signal
 *	(since 0.3)
 * @in_syncs: in, user pointer to @in_sync_count struct drm_simt_sync:
 *	fences of any context, file or driver that must signal before the
 *	commands run (since 0.3).  A fence that signals with an error does
 *	not stop the submission.
 * @in_sync_count: in, 0..DRM_SIMT_PARAM_MAX_SUBMIT_CMDS (since 0.3)
 * @fence_fd: out, with DRM_SIMT_SUBMIT_FENCE_FD: a new sync_file file
 *	descriptor (close-on-exec) of a fence that signals, with the same
 *	error, when the completion fence does (since 0.5 the driver's own,
 *	driver "simt", timeline "submission"); else -1 (since 0.3)
 *
 * The commands run in order after every earlier submission of the
 * context, once the input fences have signalled.  The objects they name
 * are kept alive until they are done.  Errors: EIO if the context has
 * stopped on an error, EAGAIN if a thousand of its submissions were
 * still unfinished for a second, ENODEV if the device is gone, EBUSY
 * if the context is a user queue's (USERQ_CREATE, since 0.8).
 */
struct drm_simt_submit {
	__u32 ctx_id;
	__u32 flags;
	__u64 cmds;
	__u32 cmd_count;
	__u32 cmd_size;
	__u64 seqno;
	__u32 syncobj;
	__u32 pad;
	__u64 syncobj_point;
	__u64 in_syncs;
	__u32 in_sync_count;
	__s32 fence_fd;
};

/* Why a submission failed (struct drm_simt_wait @error) */
#define DRM_SIMT_ERROR_NONE		0
#define DRM_SIMT_ERROR_FAULT		1	/* device MMU fault, see @fault_addr */
#define DRM_SIMT_ERROR_DEVICE		2	/* another device error, see @hw_error */
/*
 * The submission ran longer than the driver's job timeout (the simt
 * module's job_timeout_ms parameter, 10 s by default, 0 for none),
 * counted in time it actually ran on the device (not preempted, not
 * waiting for SMs or a copy engine): the driver stopped the context's
 * queue, resetting the whole device only if the queue did not stop,
 * and stopped the context (since 0.2).
 */
#define DRM_SIMT_ERROR_TIMEOUT		3
/*
 * The submission was running a kernel that is not idempotent when the
 * driver had to reset the whole device to recover another context; run
 * again, it could have given a wrong result, so it was not, and the
 * context stopped (since 0.3).
 */
#define DRM_SIMT_ERROR_CANCELED		4

/* WAIT flags (since 0.3) */
#define DRM_SIMT_WAIT_ABSOLUTE		0x1u
/**
 * struct drm_simt_wait - wait for a submission
 * @ctx_id: in
 * @flags: in, 0 or DRM_SIMT_WAIT_ABSOLUTE
 * @seqno: in, a sequence number SUBMIT returned on this context (a
 *	number not yet handed out is EINVAL)
 * @timeout_ns: in, how long to wait, relative; 0 only polls.  Negative
 *	is EINVAL.  With DRM_SIMT_WAIT_ABSOLUTE: the CLOCK_MONOTONIC time
 *	(ns) at which to give up.  A relative wait interrupted by a signal
 *	gets the time it has left written back here, so that the restarted
 *	call (SA_RESTART) does not wait longer than asked in all.
 * @error: out, DRM_SIMT_ERROR_NONE if the submission completed, else why
 *	the context stopped at or before it
 * @hw_error: out, the device's error code (enum simt_queue_error of
 *	simt-hw.h) when @error is not NONE
 * @fault_addr: out, the faulting device address for DRM_SIMT_ERROR_FAULT
 * @fault_pc: out, when @error is not NONE and the context stopped on a
 *	kernel's fault (@hw_error 5, a faulting load, store, fetch or
 *	illegal instruction): the device address of the faulting
 *	instruction; else 0 (since 0.2)
 * @pad: must be zero (EINVAL)
 * @start_cycle: out, device cycle at which the submission's last LAUNCH
 *	that ran placed its first block: for a completed submission its last
 *	launch, for the submission that failed the launch that faulted.  0
 *	if none ran, for submissions after a failed one, and for a
 *	submission more than 2048 submissions older than the context's
 *	newest (since 0.2)
 * @end_cycle: out, device cycle at which that launch's last block ended
 *	(or it faulted); at least @start_cycle.  The device's cycle counter
 *	restarts from 0 when the driver resets the device (since 0.2)
 *
 * Returns 0 when the submission is over (completed, or ended by an
 * error: see @error), ETIME if it is still running when the timeout
 * expires, EINTR on a signal.  A waiter sleeps on its submission's fence
 * alone: other completions do not wake it.
 */
struct drm_simt_wait {
	__u32 ctx_id;
	__u32 flags;
	__u64 seqno;
	__s64 timeout_ns;
	__u32 error;
	__u32 hw_error;
	__u64 fault_addr;
	__u32 fault_pc;
	__u32 pad;
	__u64 start_cycle;
	__u64 end_cycle;
};

/**
 * struct drm_simt_userq_create - make a context's queue a user queue
 * @ctx_id: in, a context of this file whose submissions, if any, are
 *	over (the call waits up to a second for them)
 * @ring_handle: in, a system memory object (DRM_SIMT_BO_SYSTEM) ...
 * @ring_addr: in, ... bound in the context at this device address
 *	(VM_BIND); it holds the ring, @ring_entries commands of 128 bytes
 *	(struct simt_cmd_* of include/hw/simt/simt-hw.h) from its start,
 *	and may be larger (room for fence words after the ring)
 * @ring_entries: in, a power of two, 2..4096
 * @flags: in, must be zero
 * @doorbell_offset: out, the mmap(2) offset on the device node of the
 *	queue's doorbell: one page, mapped shared, not executable; TAIL at
 *	byte 0 (a 32-bit store: the ring index after the last command
 *	written), HEAD at byte 4 (a 32-bit load: the next command to run).
 *	mmap(2) of it fails with EACCES in another open file (or for a
 *	queue that is no user queue of this file) and with EINVAL for more
 *	than one page, a private or an executable mapping
 *
 * Since 0.8, on a device with DRM_SIMT_CAP_USER_QUEUES (EOPNOTSUPP
 * otherwise).  The process then writes device commands into its ring
 * mapping (BO_MMAP_OFFSET) and stores the new tail into the doorbell, with
 * no system call: every address a command names is a device address of
 * the context, so a command reaches only what is bound to it; a COPY
 * with a host flag stops the queue (hw_error SIMT_QERR_PRIVILEGED).
 * Completion is what the process makes of it: a SIGNAL command writes a
 * 64-bit value to a bound system object, which the process reads in its
 * mapping (or waits for with USERQ_WAIT, the SIGNAL carrying
 * SIMT_CMDF_IRQ).  A command that fails stops the queue and the context
 * as for SUBMIT's work; USERQ_WAIT reports why.  The context takes no
 * SUBMIT afterwards (EBUSY); destroying it stops the queue and removes
 * the doorbell from every mapping (a later access gets SIGBUS).  The
 * objects bound in a user-queue context never move out of VRAM, and a
 * whole-device reset cancels the context (DRM_SIMT_ERROR_CANCELED).
 *
 * Errors: ENOENT for no such context or object (or a context being
 * destroyed); EINVAL for a VRAM object, one not bound at @ring_addr,
 * too small, bad @ring_entries or @flags; EBUSY if a submission of the
 * context is still unfinished after a second; EIO if the context has
 * stopped; EEXIST if it is a user queue already.
 */
struct drm_simt_userq_create {
	__u32 ctx_id;
	__u32 ring_handle;
	__u64 ring_addr;
	__u32 ring_entries;
	__u32 flags;
	__u64 doorbell_offset;
};

/**
 * struct drm_simt_userq_wait - sleep until a user queue's fence word
 *	reaches a value
 * @ctx_id: in, a user-queue context of this file (EINVAL if it is not
 *	one)
 * @flags: in, must be zero
 * @addr: in, address in the process of a 64-bit word, 8-byte aligned
 *	(EINVAL), that a SIGNAL of the queue writes (EFAULT if unreadable)
 * @value: in, wait until the word is at least this
 * @timeout_ns: in, how long to wait at most, relative; 0 only looks;
 *	negative is EINVAL
 * @error: out, DRM_SIMT_ERROR_NONE, or why the context stopped
 * @hw_error: out, the device's error code when @error is not NONE
 * @fault_addr: out, the faulting device address for DRM_SIMT_ERROR_FAULT
 *
 * Since 0.8.  The queue's interrupts wake the waiter, so the SIGNAL
 * that writes @value must carry SIMT_CMDF_IRQ.  Returns 0 when the word
 * has reached @value or the context has stopped (see @error), ETIME at
 * the timeout, EINTR on a signal.
 */
struct drm_simt_userq_wait {
	__u32 ctx_id;
	__u32 flags;
	__u64 addr;
	__u64 value;
	__s64 timeout_ns;
	__u32 error;
	__u32 hw_error;
	__u64 fault_addr;
};

#define DRM_IOCTL_SIMT_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SIMT_GET_PARAM, struct drm_simt_get_param)
#define DRM_IOCTL_SIMT_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SIMT_BO_CREATE, struct drm_simt_bo_create)
#define DRM_IOCTL_SIMT_BO_MMAP_OFFSET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SIMT_BO_MMAP_OFFSET, \
		 struct drm_simt_bo_mmap_offset)
#define DRM_IOCTL_SIMT_BO_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SIMT_BO_INFO, struct drm_simt_bo_info)
#define DRM_IOCTL_SIMT_CONTEXT_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SIMT_CONTEXT_CREATE, \
		 struct drm_simt_context_create)
#define DRM_IOCTL_SIMT_CONTEXT_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_SIMT_CONTEXT_DESTROY, \
		struct drm_simt_context_destroy)
#define DRM_IOCTL_SIMT_VM_BIND \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SIMT_VM_BIND, struct drm_simt_vm_bind)
#define DRM_IOCTL_SIMT_VM_UNBIND \
	DRM_IOW(DRM_COMMAND_BASE + DRM_SIMT_VM_UNBIND, struct drm_simt_vm_unbind)
#define DRM_IOCTL_SIMT_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SIMT_SUBMIT, struct drm_simt_submit)
#define DRM_IOCTL_SIMT_WAIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SIMT_WAIT, struct drm_simt_wait)
#define DRM_IOCTL_SIMT_USERQ_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SIMT_USERQ_CREATE, \
		 struct drm_simt_userq_create)
#define DRM_IOCTL_SIMT_USERQ_WAIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SIMT_USERQ_WAIT, \
		 struct drm_simt_userq_wait)

#if defined(__cplusplus)
}
#endif

#endif /* __SIMT_ACCEL_H__ */
