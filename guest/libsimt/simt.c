// SPDX-License-Identifier: MIT
/*
 * libsimt: the runtime behind guest/libsimt/libsimt.h.  Every call maps
 * onto the driver's ioctls (include/uapi/drm/simt_accel.h); kernel
 * images are read by tools/simt-meta/simt-elf.c.
 *
 * Copyright the simt authors.  Licensed under the MIT licence, as
 * written out in libsimt.h.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <drm/drm.h>
#include <drm/simt_accel.h>

#include "hw/simt/simt-hw.h"
#include "simt-elf.h"
#include "simt-internal.h"
#include "libsimt.h"
#include "simt-backend.h"
#include "simt-printf-buffer.h"
#include "simt-printf.h"
#include "simt-status.h"

#define PAGE_SIZE_4K	4096u
#define STAGE_MAX	(1u << 20)	/* largest staging buffer of a context */
#define WAIT_SLICE_NS	(10ll * 1000000000ll)
/* struct drm_simt_cmd of interface 0.2, the first bytes of today's */
#define CMD_SIZE_0_2	120u

/*
 * Locking (the rule is in libsimt.h): dev->lock protects dev->contexts,
 * every context's buffer and module lists and staging pool, and a
 * buffer's or module's mapping; ctx->qlock makes SUBMIT and
 * ctx->last_seq one step and protects ctx->local and the modules'
 * printf_seq.  Order: ctx->qlock before dev->lock.
 * Neither is held across a WAIT, except ctx->qlock while local memory
 * grows (local_get), and both across the WAITs that only look whether
 * launches are over when a context is destroyed.
 */
struct simt_device {
	int fd;
	pthread_mutex_t lock;
	unsigned int contexts;		/* live contexts */
	uint32_t cmd_size;		/* SUBMIT's cmd_size for this driver */
	int has_meta;			/* LAUNCH takes metadata (0.3) */
	int launch64;			/* LAUNCH64 (0.6) */
	int wait_absolute;		/* WAIT takes DRM_SIMT_WAIT_ABSOLUTE */
	struct simt_device_info info;
};

/* A system memory object copies go through (one per concurrent copy). */
struct stage {
	uint32_t handle;
	void *map;
	size_t size;
	struct stage *next;
};

struct simt_buffer {
	simt_context *ctx;
	uint32_t handle;
	uint32_t addr;
	size_t size;
	void *map;
	simt_buffer *next;
};

struct simt_kernel {
	simt_module *mod;
	const struct simt_kernel_info *info;
};

struct simt_module {
	simt_context *ctx;
	char *name;			/* the image's path or name */
	struct simt_image img;
	uint32_t handle;		/* VRAM object holding the image */
	uint64_t bytes;			/* its size */
	void *map;			/* its mapping, or NULL until needed */
	uint8_t *printf_buf;		/* device printf's buffer in map, or NULL */
	uint64_t printf_seq;		/* last launch, if its records are unprinted */
	simt_buffer *live;		/* the live table, or NULL (before 0.3) */
	unsigned int nkernels;
	simt_kernel *kernels;
	simt_module *next;
};

struct simt_context {
	simt_device *dev;
	uint32_t id;
	pthread_mutex_t qlock;		/* see "Locking" above */
	uint64_t last_seq;		/* last submission, 0 if none */
	simt_buffer *buffers;		/* allocated by the user */
	simt_module *modules;
	simt_buffer *local;		/* local memory of launches, or NULL */
	struct stage *stages;		/* idle staging objects */
	int printf_modules;		/* modules with a printf buffer */
	simt_userq *userq;		/* its user queue, or NULL: SUBMIT works */
};


/* The status an errno of the driver stands for. */
static simt_status from_errno(int err)
{
	switch (err) {
	case EINVAL: return SIMT_ERROR_INVALID_VALUE;
	case ENODEV: case ENXIO: return SIMT_ERROR_NO_DEVICE;
	case EACCES: case EPERM: return SIMT_ERROR_PERMISSION;
	case ENOMEM: return SIMT_ERROR_OUT_OF_MEMORY;
	case E2BIG: return SIMT_ERROR_TOO_LARGE;
	case ENOSPC: case EMFILE: case EDQUOT: return SIMT_ERROR_OUT_OF_RESOURCES;
	case EBUSY: return SIMT_ERROR_ADDRESS_IN_USE;
	case EIO: return SIMT_ERROR_CONTEXT_FAILED;
	case ETIME: return SIMT_ERROR_TIMEOUT;
	case EAGAIN: return SIMT_ERROR_BUSY;
	case ECANCELED: return SIMT_ERROR_CANCELED;
	}
	return SIMT_ERROR_SYSTEM;
}

/* An ioctl, restarted on EINTR; 0 or an errno. */
static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do {
		r = ioctl(fd, req, arg);
	} while (r < 0 && errno == EINTR);
	return r < 0 ? errno : 0;
}

/* A failed ioctl @what: the status for @err, with the message. */
static simt_status ioctl_error(int err, const char *what)
{
	return simt_set_error(from_errno(err), "%s: %s", what, strerror(err));
}

/* ---- devices ---- */

static int get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_simt_get_param p = { .param = param };
	int err = xioctl(fd, DRM_IOCTL_SIMT_GET_PARAM, &p);

	if (!err)
		*value = p.value;
	return err;
}

/* The PCI address of the device behind the node open as @fd. */
static void pci_address(int fd, char *out, size_t len)
{
	char link[96], target[256];
	struct stat st;
	const char *base;
	ssize_t n;

	out[0] = 0;
	if (fstat(fd, &st) || !S_ISCHR(st.st_mode))
		return;
	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device",
		 major(st.st_rdev), minor(st.st_rdev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = 0;
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) < len)
		memcpy(out, base, strlen(base) + 1);
}

/* Open @node, which must be a simt device of our interface major. */
static simt_status open_node(const char *node, simt_device **out)
{
	struct simt_device_info *info;
	struct drm_version v;
	char name[32] = "", desc[128] = "", date[32] = "";
	simt_device *dev;
	static const struct {
		uint32_t param;
		size_t offset;
		int wide;
		uint32_t since;		/* the interface minor that has it */
	} params[] = {
#define P32(p, f, v) { DRM_SIMT_PARAM_##p, offsetof(struct simt_device_info, f), 0, v }
#define P64(p, f, v) { DRM_SIMT_PARAM_##p, offsetof(struct simt_device_info, f), 1, v }
		P32(CAPS, caps, 1), P32(SM_COUNT, sm_count, 1),
		P32(SM_BLOCKS, sm_blocks, 1), P32(MAX_CONTEXTS, max_contexts, 1),
		P32(MAX_SUBMIT_CMDS, max_submit_cmds, 1),
		P64(VRAM_SIZE, vram_size, 1), P64(FIXED_VA_END, fixed_va_end, 1),
		/* one SM's limits, so that a launch that fits none is refused here */
		P32(SM_THREADS, sm_threads, 7), P32(SM_WARPS, sm_warps, 7),
		P32(SM_REGS, sm_regs, 7), P32(SM_SHARED, sm_shared, 7),
#undef P32
#undef P64
	};
	uint64_t value;
	unsigned int i;
	int err;

	if (strlen(node) >= sizeof(info->node))
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "device node name too long: %s", node);
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	info = &dev->info;
	snprintf(info->node, sizeof(info->node), "%s", node);
	dev->fd = open(node, O_RDWR | O_CLOEXEC);
	if (dev->fd < 0) {
		err = errno;
		free(dev);
		return simt_set_error(err == EACCES || err == EPERM ? SIMT_ERROR_PERMISSION :
				 err == ENOENT || err == ENXIO || err == ENODEV ?
				 SIMT_ERROR_NO_DEVICE : SIMT_ERROR_SYSTEM,
				 "open %s: %s", node, strerror(err));
	}

	memset(&v, 0, sizeof(v));
	v.name = name;
	v.name_len = sizeof(name) - 1;
	v.desc = desc;
	v.desc_len = sizeof(desc) - 1;
	v.date = date;
	v.date_len = sizeof(date) - 1;
	err = xioctl(dev->fd, DRM_IOCTL_VERSION, &v);
	if (err || strcmp(name, "simt")) {
		close(dev->fd);
		free(dev);
		if (err)
			return simt_set_error(SIMT_ERROR_NO_DEVICE, "%s is not a DRM device (DRM_IOCTL_VERSION: %s)",
					 node, strerror(err));
		return simt_set_error(SIMT_ERROR_NO_DEVICE, "%s belongs to the DRM driver '%s', not simt",
				 node, name);
	}
	if (v.version_major != DRM_SIMT_UAPI_MAJOR) {
		close(dev->fd);
		free(dev);
		return simt_set_error(SIMT_ERROR_NO_DEVICE,
				 "%s: driver interface %d.%d, this libsimt needs %d.x",
				 node, v.version_major, v.version_minor, DRM_SIMT_UAPI_MAJOR);
	}
	snprintf(info->driver_name, sizeof(info->driver_name), "%s", name);
	snprintf(info->driver_desc, sizeof(info->driver_desc), "%s", desc);
	info->uapi_major = v.version_major;
	info->uapi_minor = v.version_minor;

	err = get_param(dev->fd, DRM_SIMT_PARAM_DEVICE_VERSION, &value);
	if (!err) {
		info->device_major = value >> 16;
		info->device_minor = value & 0xffff;
	}
	for (i = 0; !err && i < sizeof(params) / sizeof(params[0]); i++) {
		if (info->uapi_minor < params[i].since)
			continue;
		err = get_param(dev->fd, params[i].param, &value);
		if (params[i].wide)
			*(uint64_t *)((char *)info + params[i].offset) = value;
		else
			*(uint32_t *)((char *)info + params[i].offset) = value;
	}
	if (err) {
		close(dev->fd);
		free(dev);
		return ioctl_error(err, "GET_PARAM");
	}
	pci_address(dev->fd, info->pci_address, sizeof(info->pci_address));
	/* 0.3: the longer command with the launch metadata, absolute waits */
	if (info->uapi_minor >= 3) {
		dev->cmd_size = sizeof(struct drm_simt_cmd);
		dev->has_meta = 1;
		dev->wait_absolute = 1;
	} else {
		dev->cmd_size = CMD_SIZE_0_2;
	}
	/* 0.6: the launch with 64-bit device addresses */
	dev->launch64 = info->uapi_minor >= 6;
	pthread_mutex_init(&dev->lock, NULL);
	*out = dev;
	return SIMT_SUCCESS;
}

/* How busy @dev is now; a driver before 0.4 does not say: the most. */
struct device_load {
	uint64_t busy, contexts, sm_count;
};

static void device_load(simt_device *dev, struct device_load *load)
{
	load->sm_count = dev->info.sm_count ? dev->info.sm_count : 1;
	if (dev->info.uapi_minor < 4 ||
	    get_param(dev->fd, DRM_SIMT_PARAM_BUSY_CONTEXTS, &load->busy) ||
	    get_param(dev->fd, DRM_SIMT_PARAM_CONTEXTS, &load->contexts)) {
		load->busy = UINT32_MAX;
		load->contexts = UINT32_MAX;
	}
}

/* Whether @a is less loaded than @b: busy contexts per SM, then contexts. */
static int less_loaded(const struct device_load *a, const struct device_load *b)
{
	if (a->busy * b->sm_count != b->busy * a->sm_count)
		return a->busy * b->sm_count < b->busy * a->sm_count;
	return a->contexts * b->sm_count < b->contexts * a->sm_count;
}

/* N of "accelN" for N in 0..63 (one mask holds them), else -1 */
static int accel_index(const char *name)
{
	char *end;
	long n;

	if (strncmp(name, "accel", 5) || !isdigit((unsigned char)name[5]))
		return -1;
	n = strtol(name + 5, &end, 10);
	return *end || n > 63 ? -1 : (int)n;
}

/*
 * The simt device under /dev/accel with the fewest busy contexts per SM,
 * then the fewest contexts per SM, then the lowest node number (seed
 * 003's offload to the less loaded GPU, within one machine).
 */
static simt_status open_least_loaded(simt_device **out)
{
	char node[sizeof(((struct simt_device_info *)0)->node)];
	char why[256] = "no /dev/accel/accel* node";
	struct device_load load, best_load;
	simt_device *dev, *best = NULL;
	unsigned long long seen = 0;
	struct dirent *de;
	int n, next, max = -1;
	DIR *dir;

	dir = opendir("/dev/accel");
	if (!dir)
		return simt_set_error(SIMT_ERROR_NO_DEVICE, "least-loaded device: /dev/accel: %s",
				      strerror(errno));
	/* The numbers in use, lowest first, so that ties go to the lowest. */
	while ((de = readdir(dir))) {
		n = accel_index(de->d_name);
		if (n >= 0) {
			seen |= 1ull << n;
			max = n > max ? n : max;
		}
	}
	closedir(dir);
	for (next = 0; next <= max; next++) {
		if (!(seen >> next & 1))
			continue;
		snprintf(node, sizeof(node), "/dev/accel/accel%d", next);
		if (open_node(node, &dev)) {
			snprintf(why, sizeof(why), "%s", simt_last_error());
			continue;
		}
		device_load(dev, &load);
		if (!best || less_loaded(&load, &best_load)) {
			if (best)
				simt_device_close(best);
			best = dev;
			best_load = load;
		} else {
			simt_device_close(dev);
		}
	}
	if (!best)
		return simt_set_error(SIMT_ERROR_NO_DEVICE, "least-loaded device: none usable (%s)", why);
	*out = best;
	return SIMT_SUCCESS;
}

simt_status simt_device_open(const char *node, simt_device **out)
{
	if (!out)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_device_open: no result pointer");
	*out = NULL;
	if (!node)
		node = getenv("SIMT_DEVICE");
	if (!node || !*node)
		node = "/dev/accel/accel0";
	if (!strcmp(node, SIMT_DEVICE_LEAST_LOADED))
		return open_least_loaded(out);
	return open_node(node, out);
}

simt_status simt_device_close(simt_device *dev)
{
	unsigned int live;

	if (!dev)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_device_close: no device");
	pthread_mutex_lock(&dev->lock);
	live = dev->contexts;
	pthread_mutex_unlock(&dev->lock);
	if (live)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "simt_device_close: %u contexts still live", live);
	pthread_mutex_destroy(&dev->lock);
	close(dev->fd);
	free(dev);
	return SIMT_SUCCESS;
}

simt_status simt_device_get_info(simt_device *dev, struct simt_device_info *info)
{
	if (!dev || !info)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_device_get_info: null argument");
	*info = dev->info;
	return SIMT_SUCCESS;
}

simt_status simt_device_get_param(simt_device *dev, uint32_t param, uint64_t *value)
{
	char what[48];
	int err;

	if (!dev || !value)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_device_get_param: null argument");
	err = get_param(dev->fd, param, value);
	if (!err)
		return SIMT_SUCCESS;
	snprintf(what, sizeof(what), "GET_PARAM %u", param);
	return ioctl_error(err, what);
}

/* ---- buffer objects ---- */

static void gem_close(simt_device *dev, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	xioctl(dev->fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static simt_status bo_create(simt_device *dev, uint64_t size, uint32_t flags,
			     uint32_t *handle)
{
	struct drm_simt_bo_create c = { .size = size, .flags = flags };
	int err = xioctl(dev->fd, DRM_IOCTL_SIMT_BO_CREATE, &c);

	if (err)
		return simt_set_error(from_errno(err), "BO_CREATE of %llu bytes of %s: %s",
				 (unsigned long long)size,
				 flags == DRM_SIMT_BO_VRAM ? "VRAM" : "system memory",
				 strerror(err));
	*handle = c.handle;
	return SIMT_SUCCESS;
}

static simt_status bo_map(simt_device *dev, uint32_t handle, size_t size, void **ptr)
{
	struct drm_simt_bo_mmap_offset o = { .handle = handle };
	void *p;
	int err = xioctl(dev->fd, DRM_IOCTL_SIMT_BO_MMAP_OFFSET, &o);

	if (err)
		return ioctl_error(err, "BO_MMAP_OFFSET");
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd, o.offset);
	if (p == MAP_FAILED) {
		err = errno;
		return simt_set_error(err == ENOMEM ? SIMT_ERROR_OUT_OF_MEMORY : SIMT_ERROR_SYSTEM,
				 "mmap of a %zu-byte buffer: %s", size, strerror(err));
	}
	*ptr = p;
	return SIMT_SUCCESS;
}

static int vm_unbind(simt_context *ctx, uint32_t handle)
{
	struct drm_simt_vm_unbind u = { .ctx_id = ctx->id, .handle = handle };

	return xioctl(ctx->dev->fd, DRM_IOCTL_SIMT_VM_UNBIND, &u);
}

/* ---- submission ---- */

/*
 * Queue @n commands on @ctx (ctx->qlock held by the caller).  They are
 * sent with the driver's stride: on 0.2 the first CMD_SIZE_0_2 bytes of
 * each, whose later fields (the launch metadata) must then be zero.
 */
static simt_status submit_locked(simt_context *ctx, struct drm_simt_cmd *cmds,
				 uint32_t n, uint64_t *seq)
{
	uint32_t stride = ctx->dev->cmd_size;
	struct drm_simt_submit s = {
		.ctx_id = ctx->id, .cmds = (uintptr_t)cmds, .cmd_count = n,
		.cmd_size = stride,
	};
	char *packed = NULL;
	uint32_t i;
	int err;

	if (ctx->userq)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				      "the context runs a user queue, which takes no SUBMIT: "
				      "use simt_userq_launch and simt_buffer_map");
	if (stride != sizeof(*cmds) && n > 1) {
		packed = malloc((size_t)n * stride);
		if (!packed)
			return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
		for (i = 0; i < n; i++)
			memcpy(packed + (size_t)i * stride, &cmds[i], stride);
		s.cmds = (uintptr_t)packed;
	}
	err = xioctl(ctx->dev->fd, DRM_IOCTL_SIMT_SUBMIT, &s);
	free(packed);
	if (err)
		return ioctl_error(err, "SUBMIT");
	ctx->last_seq = s.seqno;
	if (seq)
		*seq = s.seqno;
	return SIMT_SUCCESS;
}

static simt_status submit(simt_context *ctx, struct drm_simt_cmd *cmds,
			  uint32_t n, uint64_t *seq)
{
	simt_status st;

	pthread_mutex_lock(&ctx->qlock);
	st = submit_locked(ctx, cmds, n, seq);
	pthread_mutex_unlock(&ctx->qlock);
	return st;
}

static int64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/*
 * One WAIT until the submission is over or @deadline (CLOCK_MONOTONIC
 * ns; @timeout_ns 0: only look; negative: no limit): 0, ETIME when the
 * deadline has passed, or another errno.  Signals (EINTR) and the
 * slices of a long wait never move the deadline.
 */
static int wait_until(simt_context *ctx, uint64_t seq, int64_t timeout_ns,
		      int64_t deadline, struct drm_simt_wait *w)
{
	simt_device *dev = ctx->dev;
	int64_t now, left;
	int err;

	for (;;) {
		memset(w, 0, sizeof(*w));
		w->ctx_id = ctx->id;
		w->seqno = seq;
		now = monotonic_ns();
		if (timeout_ns == 0) {
			w->timeout_ns = 0;
		} else if (timeout_ns > 0 && now >= deadline) {
			/* One last look, so that a finished one is not late. */
			w->timeout_ns = 0;
			timeout_ns = 0;
		} else if (dev->wait_absolute) {
			w->flags = DRM_SIMT_WAIT_ABSOLUTE;
			w->timeout_ns = timeout_ns < 0 || deadline - now > WAIT_SLICE_NS ?
					now + WAIT_SLICE_NS : deadline;
		} else {
			left = timeout_ns < 0 ? WAIT_SLICE_NS : deadline - now;
			w->timeout_ns = left > WAIT_SLICE_NS ? WAIT_SLICE_NS : left;
		}
		err = ioctl(dev->fd, DRM_IOCTL_SIMT_WAIT, w) < 0 ? errno : 0;
		if (err == EINTR)
			continue;
		if (err == ETIME && timeout_ns != 0)
			continue;	/* a slice ended; the loop checks the deadline */
		return err;
	}
}

/* ---- device printf (include/simt-printf-buffer.h) ---- */

/*
 * What of @ctx holds device address @addr (dev->lock held): a buffer of
 * the user, the local memory or a module's image (*@image set); NULL if
 * nothing does.
 */
static void *owner_of(simt_context *ctx, uint32_t addr, int *image)
{
	simt_buffer *b;
	simt_module *m;

	*image = 0;
	for (b = ctx->buffers; b; b = b->next)
		if (addr >= b->addr && addr - b->addr < b->size)
			return b;
	if (ctx->local && addr >= ctx->local->addr && addr - ctx->local->addr < ctx->local->size)
		return ctx->local;
	for (m = ctx->modules; m; m = m->next) {
		if (addr >= m->img.base && addr - m->img.base < m->bytes) {
			*image = 1;
			return m;
		}
	}
	return NULL;
}

/* Where printf_string looks: @ctx, and @mod even if unloaded. */
struct printf_reader {
	simt_context *ctx;
	simt_module *mod;
};

/*
 * The NUL-terminated string at device address @addr, read through a
 * mapping of what holds it (made now if there is none), or NULL.
 * ctx->qlock and dev->lock held.
 */
static const char *printf_string(void *opaque, uint32_t addr)
{
	const struct printf_reader *r = opaque;
	simt_module *m = r->mod;
	simt_device *dev = r->ctx->dev;
	const char *base;
	size_t size, off;
	void *owner;
	int image;

	if (addr >= m->img.base && addr - m->img.base < m->bytes) {
		owner = m;
		image = 1;
	} else {
		owner = owner_of(r->ctx, addr, &image);
		if (!owner)
			return NULL;
	}
	if (image) {
		m = owner;
		if (!m->map && bo_map(dev, m->handle, m->bytes, &m->map))
			return NULL;
		base = m->map;
		size = m->bytes;
		off = addr - m->img.base;
	} else {
		simt_buffer *b = owner;

		if (!b->map && bo_map(dev, b->handle, b->size, &b->map))
			return NULL;
		base = b->map;
		size = b->size;
		off = addr - b->addr;
	}
	return memchr(base + off, 0, size - off) ? base + off : NULL;
}

/*
 * Print and empty @m's printf buffer, whose launches are all over
 * (ctx->qlock and dev->lock held: no launch of @m is queued meanwhile).
 */
static void printf_module(simt_context *ctx, simt_module *m)
{
	struct printf_reader r = { .ctx = ctx, .mod = m };

	simt_printf_print(m->printf_buf, printf_string, &r);
	memset(m->printf_buf, 0, 4);
	m->printf_seq = 0;
}

/*
 * Every submission of @ctx up to @done is over: print the records of
 * the modules whose launches are all over.  A module with a launch still
 * queued keeps them until a synchronisation covers it, as its launches
 * share the buffer.  Contexts with no printf buffer pay one load.
 */
static void printf_flush(simt_context *ctx, uint64_t done)
{
	simt_module *m;

	if (!__atomic_load_n(&ctx->printf_modules, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&ctx->qlock);
	pthread_mutex_lock(&ctx->dev->lock);
	for (m = ctx->modules; m; m = m->next)
		if (m->printf_seq && m->printf_seq <= done)
			printf_module(ctx, m);
	pthread_mutex_unlock(&ctx->dev->lock);
	pthread_mutex_unlock(&ctx->qlock);
}

/*
 * simt_wait(), printing device printf's records when the submission is
 * over if @print (0 with ctx->qlock held: printf_flush takes it).
 */
static simt_status wait_seq(simt_context *ctx, uint64_t seq, int64_t timeout_ns,
			    struct simt_result *c, int print)
{
	struct drm_simt_wait w;
	struct simt_result local;
	int64_t deadline = 0;
	int err;

	if (!ctx)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_wait: no context");
	if (!c)
		c = &local;
	memset(c, 0, sizeof(*c));
	if (timeout_ns > 0) {
		deadline = monotonic_ns();
		deadline = timeout_ns > INT64_MAX - deadline ? INT64_MAX : deadline + timeout_ns;
	}
	err = wait_until(ctx, seq, timeout_ns, deadline, &w);
	if (err == ETIME) {
		c->status = SIMT_ERROR_TIMEOUT;
		return simt_set_error(SIMT_ERROR_TIMEOUT,
				 "submission %llu still running after %lld ns",
				 (unsigned long long)seq, (long long)timeout_ns);
	}
	if (err == EINVAL)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "WAIT: submission %llu was not handed out on this context",
				 (unsigned long long)seq);
	if (err)
		return ioctl_error(err, "WAIT");
	/* Over, maybe on an error: what ran has its records printed. */
	if (print)
		printf_flush(ctx, seq);
	c->hw_error = w.hw_error;
	c->fault_addr = w.fault_addr;
	c->fault_pc = w.fault_pc;
	c->start_cycle = w.start_cycle;
	c->end_cycle = w.end_cycle;
	switch (w.error) {
	case DRM_SIMT_ERROR_NONE:
		c->status = SIMT_SUCCESS;
		return SIMT_SUCCESS;
	case DRM_SIMT_ERROR_FAULT:
		c->status = SIMT_ERROR_FAULT;
		if (w.fault_pc)
			return simt_set_error(SIMT_ERROR_FAULT,
					 "submission %llu: device memory fault at 0x%llx by the instruction at 0x%x (device error %u)",
					 (unsigned long long)seq, (unsigned long long)w.fault_addr,
					 w.fault_pc, w.hw_error);
		return simt_set_error(SIMT_ERROR_FAULT,
				 "submission %llu: device memory fault at 0x%llx (device error %u)",
				 (unsigned long long)seq, (unsigned long long)w.fault_addr,
				 w.hw_error);
	case DRM_SIMT_ERROR_DEVICE:
		c->status = SIMT_ERROR_DEVICE;
		return simt_set_error(SIMT_ERROR_DEVICE, "submission %llu: device error %u, %s",
				 (unsigned long long)seq, w.hw_error,
				 simt_hw_error_phrase(w.hw_error));
	case DRM_SIMT_ERROR_TIMEOUT:
		c->status = SIMT_ERROR_DEVICE;
		return simt_set_error(SIMT_ERROR_DEVICE,
				 "submission %llu: stopped by the driver's job timeout (device error %u)",
				 (unsigned long long)seq, w.hw_error);
	case DRM_SIMT_ERROR_CANCELED:
		c->status = SIMT_ERROR_CANCELED;
		return simt_set_error(SIMT_ERROR_CANCELED,
				 "submission %llu: a device reset cancelled its kernel, which is not idempotent; the context stopped",
				 (unsigned long long)seq);
	default:
		/* A reason newer than this library: still the context's end. */
		c->status = SIMT_ERROR_DEVICE;
		return simt_set_error(SIMT_ERROR_DEVICE,
				 "submission %llu: the context stopped (reason %u, device error %u)",
				 (unsigned long long)seq, w.error, w.hw_error);
	}
}

simt_status simt_wait(simt_context *ctx, uint64_t seq, int64_t timeout_ns,
		      struct simt_result *c)
{
	return wait_seq(ctx, seq, timeout_ns, c, 1);
}

simt_status simt_query(simt_context *ctx, uint64_t seq, struct simt_result *c)
{
	return wait_seq(ctx, seq, 0, c, 0);
}

static uint64_t last_seq(simt_context *ctx)
{
	uint64_t seq;

	pthread_mutex_lock(&ctx->qlock);
	seq = ctx->last_seq;
	pthread_mutex_unlock(&ctx->qlock);
	return seq;
}

simt_status simt_context_synchronize(simt_context *ctx)
{
	uint64_t seq;

	if (!ctx)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_context_synchronize: no context");
	seq = last_seq(ctx);
	if (!seq)
		return SIMT_SUCCESS;
	return simt_wait(ctx, seq, -1, NULL);
}

/* The checkers need a hook on every access: the interpreter has them. */
simt_status simt_context_set_checks(simt_context *ctx, unsigned int checks)
{
	if (!ctx)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_context_set_checks: no context");
	if (checks)
		return simt_set_error(SIMT_ERROR_NOT_SUPPORTED,
				      "the checkers are the host runner's: the device does not report "
				      "each access");
	return SIMT_SUCCESS;
}

simt_status simt_context_set_schedule(simt_context *ctx, int schedule, uint64_t seed)
{
	(void)schedule;
	(void)seed;
	if (!ctx)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_context_set_schedule: no context");
	return simt_set_error(SIMT_ERROR_NOT_SUPPORTED,
			      "the device's dispatcher orders the blocks; --schedule is the host runner's");
}

uint64_t simt_context_check_findings(const simt_context *ctx)
{
	(void)ctx;
	return 0;
}

/* ---- contexts ---- */

simt_status simt_context_create(simt_device *dev, int priority, int preempt_mode,
				simt_context **out)
{
	struct drm_simt_context_create c = {
		.priority = priority, .preempt_mode = preempt_mode,
	};
	simt_context *ctx;
	int err;

	if (!dev || !out)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_context_create: null argument");
	*out = NULL;
	if (priority < SIMT_PRIORITY_LOW || priority > SIMT_PRIORITY_REALTIME)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "priority %d: must be %d (low) to %d (realtime)", priority,
				 SIMT_PRIORITY_LOW, SIMT_PRIORITY_REALTIME);
	if (preempt_mode < 0 ||
	    (preempt_mode && dev->info.uapi_major == 0 && dev->info.uapi_minor < 2))
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "preemption mode %d: the driver (interface %u.%u) does not take it",
				 preempt_mode, dev->info.uapi_major, dev->info.uapi_minor);
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	err = xioctl(dev->fd, DRM_IOCTL_SIMT_CONTEXT_CREATE, &c);
	if (err) {
		uint64_t per_file = 0;

		free(ctx);
		if (err == EACCES && priority == SIMT_PRIORITY_HIGH)
			return simt_set_error(SIMT_ERROR_PERMISSION,
					 "CONTEXT_CREATE: high priority needs CAP_SYS_NICE "
					 "(or the administrator's simt module parameter unprivileged_high=1)");
		if (err == EACCES || err == EPERM)
			return simt_set_error(SIMT_ERROR_PERMISSION,
					 "CONTEXT_CREATE: %s priority needs CAP_SYS_NICE",
					 priority == SIMT_PRIORITY_REALTIME ? "realtime" : "this");
		if (err == ENOSPC)
			return simt_set_error(SIMT_ERROR_OUT_OF_RESOURCES,
					 "CONTEXT_CREATE: all %u of the device's contexts are in use",
					 dev->info.max_contexts);
		if (err == EDQUOT) {
			uint64_t per_user = 0;

			get_param(dev->fd, DRM_SIMT_PARAM_USER_CONTEXTS, &per_user);
			return simt_set_error(SIMT_ERROR_OUT_OF_RESOURCES,
					 "CONTEXT_CREATE: this user holds %llu contexts of the device "
					 "in all his processes, the most one user may (the administrator's "
					 "simt module parameter user_contexts)",
					 (unsigned long long)per_user);
		}
		if (err == EMFILE) {
			if (get_param(dev->fd, DRM_SIMT_PARAM_FILE_CONTEXTS, &per_file))
				per_file = 0;
			if (per_file)
				return simt_set_error(SIMT_ERROR_OUT_OF_RESOURCES,
						 "CONTEXT_CREATE: the per-file limit of %llu contexts is reached "
						 "(one simt_device holds at most that many; open the device again for more)",
						 (unsigned long long)per_file);
			return simt_set_error(SIMT_ERROR_OUT_OF_RESOURCES,
					 "CONTEXT_CREATE: the per-file context limit is reached "
					 "(open the device again for more)");
		}
		if (err == EINVAL)
			return simt_set_error(SIMT_ERROR_INVALID_VALUE,
					 "CONTEXT_CREATE: preemption mode %d refused by the driver",
					 preempt_mode);
		return ioctl_error(err, "CONTEXT_CREATE");
	}
	ctx->dev = dev;
	ctx->id = c.ctx_id;
	pthread_mutex_init(&ctx->qlock, NULL);
	pthread_mutex_lock(&dev->lock);
	dev->contexts++;
	pthread_mutex_unlock(&dev->lock);
	*out = ctx;
	return SIMT_SUCCESS;
}

/* A user queue (interface 0.8): see simt_userq_create() below. */
struct simt_userq {
	simt_context *ctx;
	pthread_mutex_t lock;		/* one launch or sleep at a time */
	uint32_t handle;		/* system object: the ring, then the fence word */
	size_t size;
	uint8_t *ring;			/* its mapping */
	volatile uint64_t *fence;	/* the fence word, in the same object */
	uint64_t fence_addr;		/* ... at this device address */
	volatile uint32_t *doorbell;	/* TAIL at word 0, HEAD at word 1 */
	uint32_t entries;
	uint32_t tail;			/* next entry to write */
	uint32_t head;			/* HEAD when last read */
	uint64_t last;			/* value of the last launch's SIGNAL */
	uint64_t irq_value;		/* the last SIGNAL with an interrupt */
};

static void userq_release(simt_userq *q)
{
	if (q->doorbell)
		munmap((void *)q->doorbell, PAGE_SIZE_4K);
	if (q->ring)
		munmap(q->ring, q->size);
	gem_close(q->ctx->dev, q->handle);
	pthread_mutex_destroy(&q->lock);
	free(q);
}

static void buffer_release(simt_buffer *b)
{
	if (b->map)
		munmap(b->map, b->size);
	gem_close(b->ctx->dev, b->handle);
	free(b);
}

static void stage_release(simt_device *dev, struct stage *sg)
{
	munmap(sg->map, sg->size);
	gem_close(dev, sg->handle);
	free(sg);
}

static void module_release(simt_module *m)
{
	if (m->live)
		buffer_release(m->live);
	if (m->map)
		munmap(m->map, m->bytes);
	gem_close(m->ctx->dev, m->handle);
	simt_image_free(&m->img);
	free(m->kernels);
	free(m->name);
	free(m);
}

simt_status simt_context_destroy(simt_context *ctx)
{
	struct drm_simt_context_destroy d;
	simt_status st = SIMT_SUCCESS;
	int err;

	if (!ctx)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_context_destroy: no context");
	/* Records of launches that are over are printed, the others dropped. */
	if (__atomic_load_n(&ctx->printf_modules, __ATOMIC_RELAXED)) {
		struct drm_simt_wait w;
		simt_module *m;

		pthread_mutex_lock(&ctx->qlock);
		pthread_mutex_lock(&ctx->dev->lock);
		for (m = ctx->modules; m; m = m->next)
			if (m->printf_seq && !wait_until(ctx, m->printf_seq, 0, 0, &w))
				printf_module(ctx, m);
		pthread_mutex_unlock(&ctx->dev->lock);
		pthread_mutex_unlock(&ctx->qlock);
	}
	/* The context goes first: its queue stops and its bindings go. */
	d = (struct drm_simt_context_destroy){ .ctx_id = ctx->id };
	err = xioctl(ctx->dev->fd, DRM_IOCTL_SIMT_CONTEXT_DESTROY, &d);
	if (err)
		st = ioctl_error(err, "CONTEXT_DESTROY");
	if (ctx->userq)
		userq_release(ctx->userq);
	while (ctx->buffers) {
		simt_buffer *b = ctx->buffers;

		ctx->buffers = b->next;
		buffer_release(b);
	}
	while (ctx->modules) {
		simt_module *m = ctx->modules;

		ctx->modules = m->next;
		module_release(m);
	}
	if (ctx->local)
		buffer_release(ctx->local);
	while (ctx->stages) {
		struct stage *sg = ctx->stages;

		ctx->stages = sg->next;
		stage_release(ctx->dev, sg);
	}
	pthread_mutex_lock(&ctx->dev->lock);
	ctx->dev->contexts--;
	pthread_mutex_unlock(&ctx->dev->lock);
	pthread_mutex_destroy(&ctx->qlock);
	free(ctx);
	return st;
}

/* ---- device memory ---- */

/* A VRAM object of @size bound in @ctx, not on the context's list. */
static simt_status buffer_new(simt_context *ctx, size_t size, simt_buffer **out)
{
	struct drm_simt_vm_bind b = { .ctx_id = ctx->id };
	simt_buffer *buf;
	simt_status st;
	int err;

	buf = calloc(1, sizeof(*buf));
	if (!buf)
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	buf->ctx = ctx;
	buf->size = ((uint64_t)size + PAGE_SIZE_4K - 1) & ~(uint64_t)(PAGE_SIZE_4K - 1);
	st = bo_create(ctx->dev, buf->size, DRM_SIMT_BO_VRAM, &buf->handle);
	if (st) {
		free(buf);
		return st;
	}
	b.handle = buf->handle;
	err = xioctl(ctx->dev->fd, DRM_IOCTL_SIMT_VM_BIND, &b);
	if (err) {
		gem_close(ctx->dev, buf->handle);
		free(buf);
		return ioctl_error(err, "VM_BIND");
	}
	buf->addr = b.device_addr;
	*out = buf;
	return SIMT_SUCCESS;
}

simt_status simt_mem_alloc(simt_context *ctx, size_t size, simt_buffer **out)
{
	simt_device *dev;
	simt_status st;

	if (!ctx || !out)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_mem_alloc: null argument");
	*out = NULL;
	if (!size)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_mem_alloc: size 0");
	dev = ctx->dev;
	/* The driver says E2BIG beyond the VRAM; sizes it cannot take, too. */
	if ((uint64_t)size > UINT64_MAX - PAGE_SIZE_4K)
		return simt_set_error(SIMT_ERROR_TOO_LARGE,
				 "%zu bytes asked for, the device has %llu bytes of VRAM", size,
				 (unsigned long long)dev->info.vram_size);
	st = buffer_new(ctx, size, out);
	if (st == SIMT_ERROR_TOO_LARGE) {
		char why[512];

		snprintf(why, sizeof(why), "%s", simt_last_error());
		return simt_set_error(st, "%zu bytes asked for, more than the device's %llu bytes of VRAM (%s)",
				 size, (unsigned long long)dev->info.vram_size, why);
	}
	if (st)
		return st;
	pthread_mutex_lock(&dev->lock);
	(*out)->next = ctx->buffers;
	ctx->buffers = *out;
	pthread_mutex_unlock(&dev->lock);
	return SIMT_SUCCESS;
}

simt_status simt_mem_free(simt_buffer *buf)
{
	simt_context *ctx;
	simt_buffer **p;
	int err, found;

	if (!buf)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_mem_free: no buffer");
	ctx = buf->ctx;
	pthread_mutex_lock(&ctx->dev->lock);
	for (p = &ctx->buffers; *p && *p != buf; p = &(*p)->next)
		;
	found = *p != NULL;
	if (found)
		*p = buf->next;
	pthread_mutex_unlock(&ctx->dev->lock);
	if (!found)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "simt_mem_free: not a buffer of this context");
	/* A queued kernel may still use it; whatever it did, free it. */
	simt_context_synchronize(ctx);
	err = vm_unbind(ctx, buf->handle);
	buffer_release(buf);
	if (err && err != ENODEV)
		return ioctl_error(err, "VM_UNBIND");
	return SIMT_SUCCESS;
}

uint32_t simt_buffer_addr(const simt_buffer *buf)
{
	return buf ? buf->addr : 0;
}

size_t simt_buffer_size(const simt_buffer *buf)
{
	return buf ? buf->size : 0;
}

simt_status simt_buffer_map(simt_buffer *buf, void **ptr)
{
	simt_device *dev;
	simt_status st = SIMT_SUCCESS;

	if (!buf || !ptr)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_buffer_map: null argument");
	dev = buf->ctx->dev;
	pthread_mutex_lock(&dev->lock);
	if (!buf->map)
		st = bo_map(dev, buf->handle, buf->size, &buf->map);
	if (!st)
		*ptr = buf->map;
	pthread_mutex_unlock(&dev->lock);
	return st;
}

/*
 * A staging object of at least @size bytes (at most STAGE_MAX) for one
 * copy: an idle one of the context's, or a new one.  stage_put() gives
 * it back.  Copies of several threads on one context each get their own.
 */
static simt_status stage_get(simt_context *ctx, size_t size, struct stage **out)
{
	simt_device *dev = ctx->dev;
	struct stage *sg;
	simt_status st;

	pthread_mutex_lock(&dev->lock);
	sg = ctx->stages;
	if (sg)
		ctx->stages = sg->next;
	pthread_mutex_unlock(&dev->lock);
	if (sg && sg->size >= size) {
		*out = sg;
		return SIMT_SUCCESS;
	}
	/* Too small: copies that used it are over (they waited for them). */
	if (sg)
		stage_release(dev, sg);
	sg = calloc(1, sizeof(*sg));
	if (!sg)
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	sg->size = ((uint64_t)size + PAGE_SIZE_4K - 1) & ~(uint64_t)(PAGE_SIZE_4K - 1);
	st = bo_create(dev, sg->size, DRM_SIMT_BO_SYSTEM, &sg->handle);
	if (st) {
		free(sg);
		return st;
	}
	st = bo_map(dev, sg->handle, sg->size, &sg->map);
	if (st) {
		gem_close(dev, sg->handle);
		free(sg);
		return st;
	}
	*out = sg;
	return SIMT_SUCCESS;
}

static void stage_put(simt_context *ctx, struct stage *sg)
{
	simt_device *dev = ctx->dev;

	pthread_mutex_lock(&dev->lock);
	sg->next = ctx->stages;
	ctx->stages = sg;
	pthread_mutex_unlock(&dev->lock);
}

static struct drm_simt_cmd copy_cmd(uint32_t src, uint64_t soff, uint32_t dst,
				    uint64_t doff, uint64_t size)
{
	struct drm_simt_cmd c;

	memset(&c, 0, sizeof(c));
	c.type = DRM_SIMT_CMD_COPY;
	c.copy.src_handle = src;
	c.copy.dst_handle = dst;
	c.copy.src_offset = soff;
	c.copy.dst_offset = doff;
	c.copy.size = size;
	return c;
}

/* Submit one copy and wait for it. */
static simt_status copy_sync(simt_context *ctx, struct drm_simt_cmd *cmd)
{
	uint64_t seq = 0;
	simt_status st = submit(ctx, cmd, 1, &seq);

	return st ? st : simt_wait(ctx, seq, -1, NULL);
}

static simt_status check_range(const simt_buffer *buf, size_t offset, size_t size,
			       const char *what)
{
	if (!buf)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "%s: no buffer", what);
	if (offset > buf->size || size > buf->size - offset)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "%s: %zu bytes at offset %zu do not fit in a %zu-byte buffer",
				 what, size, offset, buf->size);
	return SIMT_SUCCESS;
}

simt_status simt_memcpy_htod(simt_buffer *dst, size_t offset, const void *src,
			     size_t size)
{
	simt_context *ctx;
	struct drm_simt_cmd cmd;
	struct stage *sg = NULL;
	simt_status st = check_range(dst, offset, size, "simt_memcpy_htod");
	size_t done, n;

	if (st)
		return st;
	if (!src && size)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_memcpy_htod: no source");
	if (!size)
		return SIMT_SUCCESS;
	ctx = dst->ctx;
	st = stage_get(ctx, size < STAGE_MAX ? size : STAGE_MAX, &sg);
	if (st)
		return st;
	for (done = 0; done < size; done += n) {
		n = size - done < STAGE_MAX ? size - done : STAGE_MAX;
		memcpy(sg->map, (const char *)src + done, n);
		cmd = copy_cmd(sg->handle, 0, dst->handle, offset + done, n);
		st = copy_sync(ctx, &cmd);
		if (st)
			break;
	}
	stage_put(ctx, sg);
	return st;
}

simt_status simt_memcpy_dtoh(void *dst, simt_buffer *src, size_t offset, size_t size)
{
	simt_context *ctx;
	struct drm_simt_cmd cmd;
	struct stage *sg = NULL;
	simt_status st = check_range(src, offset, size, "simt_memcpy_dtoh");
	size_t done, n;

	if (st)
		return st;
	if (!dst && size)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_memcpy_dtoh: no destination");
	if (!size)
		return SIMT_SUCCESS;
	ctx = src->ctx;
	st = stage_get(ctx, size < STAGE_MAX ? size : STAGE_MAX, &sg);
	if (st)
		return st;
	for (done = 0; done < size; done += n) {
		n = size - done < STAGE_MAX ? size - done : STAGE_MAX;
		cmd = copy_cmd(src->handle, offset + done, sg->handle, 0, n);
		st = copy_sync(ctx, &cmd);
		if (st)
			break;
		memcpy((char *)dst + done, sg->map, n);
	}
	stage_put(ctx, sg);
	return st;
}

simt_status simt_memcpy_dtod(simt_buffer *dst, size_t dst_offset, simt_buffer *src,
			     size_t src_offset, size_t size)
{
	struct drm_simt_cmd cmd;
	simt_status st;

	st = check_range(dst, dst_offset, size, "simt_memcpy_dtod destination");
	if (!st)
		st = check_range(src, src_offset, size, "simt_memcpy_dtod source");
	if (st)
		return st;
	if (dst->ctx != src->ctx)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "simt_memcpy_dtod: the buffers belong to different contexts");
	if (dst == src && dst_offset < src_offset + size && src_offset < dst_offset + size)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "simt_memcpy_dtod: overlapping ranges in one buffer");
	if (!size)
		return SIMT_SUCCESS;
	cmd = copy_cmd(src->handle, src_offset, dst->handle, dst_offset, size);
	return copy_sync(dst->ctx, &cmd);
}

/* ---- modules ---- */

/*
 * The live table of the image's code, [code_start, code_end), as the
 * device reads it for a launch (simt-isa.h: one little-endian 64-bit
 * mask per instruction), in VRAM bound into @ctx.  The note's table
 * covers the same range when simt-meta wrote it; any pc it does not
 * cover gets every register (simt_meta_live_at's safe answer).
 */
static simt_status live_setup(simt_context *ctx, simt_module *m)
{
	const struct simt_image *img = &m->img;
	uint32_t n = (img->code_end - img->code_start) / 4, i;
	uint8_t *table;
	simt_status st;

	if (!n)
		return SIMT_SUCCESS;
	table = malloc((size_t)n * 8);
	if (!table)
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	for (i = 0; i < n; i++) {
		uint64_t mask = simt_meta_live_at(&img->meta, img->code_start + 4 * i);
		unsigned int b;

		for (b = 0; b < 8; b++)
			table[8 * i + b] = mask >> (8 * b);
	}
	st = buffer_new(ctx, (size_t)n * 8, &m->live);
	if (!st) {
		st = simt_memcpy_htod(m->live, 0, table, (size_t)n * 8);
		if (st) {
			vm_unbind(ctx, m->live->handle);
			buffer_release(m->live);
			m->live = NULL;
		}
	}
	free(table);
	return st;
}

static simt_status module_setup(simt_context *ctx, simt_module *m)
{
	struct drm_simt_vm_bind b;
	const struct simt_image *img = &m->img;
	const struct simt_elf_symbol *sym;
	uint64_t bytes, end = (uint64_t)img->base + img->size;
	unsigned int i;
	simt_status st;
	void *map;
	int err;

	if (!img->has_meta)
		return simt_set_error(SIMT_ERROR_INVALID_IMAGE,
				 "%s: no SIMT metadata note (annotate the image with simt-meta)",
				 m->name);
	if (!img->meta.h.nkernels)
		return simt_set_error(SIMT_ERROR_INVALID_IMAGE, "%s: the image has no kernels", m->name);
	if (img->base % PAGE_SIZE_4K || end > ctx->dev->info.fixed_va_end)
		return simt_set_error(SIMT_ERROR_INVALID_IMAGE,
				 "%s: linked at 0x%x..0x%llx; images must start on a 4 KiB page and end below 0x%llx",
				 m->name, img->base, (unsigned long long)end,
				 (unsigned long long)ctx->dev->info.fixed_va_end);
	m->nkernels = img->meta.h.nkernels;
	m->kernels = calloc(m->nkernels, sizeof(*m->kernels));
	if (!m->kernels)
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	for (i = 0; i < m->nkernels; i++) {
		m->kernels[i].mod = m;
		m->kernels[i].info = &img->meta.kernels[i];
	}

	bytes = (end - img->base + PAGE_SIZE_4K - 1) & ~(uint64_t)(PAGE_SIZE_4K - 1);
	m->bytes = bytes;
	st = bo_create(ctx->dev, bytes, DRM_SIMT_BO_VRAM, &m->handle);
	if (st)
		return st;
	st = bo_map(ctx->dev, m->handle, bytes, &map);
	if (st)
		return st;
	memcpy(map, img->bytes, img->size);
	sym = simt_elf_symbol_by_name(&img->elf, SIMT_PRINTF_SYMBOL);
	if (sym && sym->size == SIMT_PRINTF_BYTES && sym->value >= img->base &&
	    (uint64_t)sym->value - img->base + SIMT_PRINTF_BYTES <= bytes) {
		/* Kept: the records are read through it (printf_flush). */
		m->map = map;
		m->printf_buf = (uint8_t *)map + (sym->value - img->base);
	} else {
		munmap(map, bytes);
	}
	b = (struct drm_simt_vm_bind){
		.ctx_id = ctx->id, .handle = m->handle,
		.flags = DRM_SIMT_VM_BIND_FIXED, .device_addr = img->base,
	};
	err = xioctl(ctx->dev->fd, DRM_IOCTL_SIMT_VM_BIND, &b);
	if (err == EBUSY)
		return simt_set_error(SIMT_ERROR_ADDRESS_IN_USE,
				 "%s: its link range 0x%x..0x%llx overlaps a module already loaded in this context",
				 m->name, img->base, (unsigned long long)end);
	if (err)
		return ioctl_error(err, "VM_BIND of the kernel image");
	if (ctx->dev->has_meta)
		return live_setup(ctx, m);
	return SIMT_SUCCESS;
}

/* Load into @m (its name set); on failure everything is freed. */
static simt_status module_finish(simt_context *ctx, simt_module *m, int loaded,
				 const char *err, simt_module **out)
{
	simt_status st;

	if (!loaded) {
		st = simt_set_error(SIMT_ERROR_INVALID_IMAGE, "%s", err);
		free(m->name);
		free(m);
		return st;
	}
	m->ctx = ctx;
	st = module_setup(ctx, m);
	if (st) {
		/* The image may be bound: unbind it so that its range is free. */
		if (m->handle)
			vm_unbind(ctx, m->handle);
		if (m->map)
			munmap(m->map, m->bytes);
		if (m->handle)
			gem_close(ctx->dev, m->handle);
		simt_image_free(&m->img);
		free(m->kernels);
		free(m->name);
		free(m);
		return st;
	}
	pthread_mutex_lock(&ctx->dev->lock);
	m->next = ctx->modules;
	ctx->modules = m;
	if (m->printf_buf)
		__atomic_add_fetch(&ctx->printf_modules, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&ctx->dev->lock);
	*out = m;
	return SIMT_SUCCESS;
}

simt_status simt_module_load(simt_context *ctx, const char *path, simt_module **out)
{
	char err[256];
	simt_module *m;
	int loaded;

	if (!ctx || !path || !out)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_module_load: null argument");
	*out = NULL;
	m = calloc(1, sizeof(*m));
	if (!m || !(m->name = strdup(path))) {
		free(m);
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	}
	loaded = simt_image_load(&m->img, m->name, err, sizeof(err)) == 0;
	return module_finish(ctx, m, loaded, err, out);
}

simt_status simt_module_load_data(simt_context *ctx, const void *data, size_t size,
				  const char *name, simt_module **out)
{
	char err[256];
	simt_module *m;
	int loaded;

	if (!ctx || !data || !out)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_module_load_data: null argument");
	*out = NULL;
	m = calloc(1, sizeof(*m));
	if (!m || !(m->name = strdup(name ? name : "(memory)"))) {
		free(m);
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	}
	loaded = simt_image_load_mem(&m->img, m->name, data, size, err, sizeof(err)) == 0;
	return module_finish(ctx, m, loaded, err, out);
}

simt_status simt_module_unload(simt_module *mod)
{
	simt_context *ctx;
	simt_module **p;
	int err, found;

	if (!mod)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_module_unload: no module");
	ctx = mod->ctx;
	pthread_mutex_lock(&ctx->dev->lock);
	for (p = &ctx->modules; *p && *p != mod; p = &(*p)->next)
		;
	found = *p != NULL;
	if (found)
		*p = mod->next;
	pthread_mutex_unlock(&ctx->dev->lock);
	if (!found)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "simt_module_unload: not a module of this context");
	simt_context_synchronize(ctx);
	if (mod->printf_buf) {
		/* Off the list, so the synchronisation left its records. */
		pthread_mutex_lock(&ctx->qlock);
		pthread_mutex_lock(&ctx->dev->lock);
		if (mod->printf_seq)
			printf_module(ctx, mod);
		pthread_mutex_unlock(&ctx->dev->lock);
		pthread_mutex_unlock(&ctx->qlock);
		__atomic_sub_fetch(&ctx->printf_modules, 1, __ATOMIC_RELAXED);
	}
	if (mod->live)
		vm_unbind(ctx, mod->live->handle);
	/* The binding, not the handle, holds the link address. */
	err = vm_unbind(ctx, mod->handle);
	module_release(mod);
	if (err && err != ENODEV)
		return ioctl_error(err, "VM_UNBIND of the kernel image");
	return SIMT_SUCCESS;
}

unsigned int simt_module_kernel_count(const simt_module *mod)
{
	return mod ? mod->nkernels : 0;
}

const char *simt_module_kernel_name(const simt_module *mod, unsigned int index)
{
	if (!mod || index >= mod->nkernels)
		return NULL;
	return mod->kernels[index].info->name;
}

simt_status simt_module_get_kernel(simt_module *mod, const char *name,
				   simt_kernel **kernel)
{
	unsigned int i;

	if (!mod || !name || !kernel)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_module_get_kernel: null argument");
	*kernel = NULL;
	for (i = 0; i < mod->nkernels; i++) {
		if (strcmp(mod->kernels[i].info->name, name) == 0) {
			*kernel = &mod->kernels[i];
			return SIMT_SUCCESS;
		}
	}
	return simt_set_error(SIMT_ERROR_NOT_FOUND, "%s: no kernel named '%s'", mod->name, name);
}

static uint32_t kernel_regs(const struct simt_kernel_info *k)
{
	return __builtin_popcount(k->m.int_regs_used) + __builtin_popcount(k->m.fp_regs_used);
}

void simt_kernel_get_attrs(const simt_kernel *kernel, struct simt_kernel_attrs *a)
{
	const struct simt_kernel_info *k;

	if (!kernel || !a)
		return;
	k = kernel->info;
	a->name = k->name;
	a->entry = k->m.entry;
	a->regs = kernel_regs(k);
	a->shared_bytes = k->m.shared_bytes;
	a->local_bytes = k->m.local_bytes;
	a->insn_count = k->m.insn_count;
	a->flags = k->m.flags;
}

/* ---- launches ---- */

/*
 * Local memory of at least @bytes for the context's launches (ctx->qlock
 * held: no launch can take the old one's address meanwhile).
 */
static simt_status local_get(simt_context *ctx, uint64_t bytes)
{
	simt_buffer *old = ctx->local;
	simt_status st;
	int err;

	if (old && old->size >= bytes)
		return SIMT_SUCCESS;
	if (bytes > ctx->dev->info.vram_size || bytes > UINT32_MAX)
		return simt_set_error(SIMT_ERROR_TOO_LARGE,
				 "the launch needs %llu bytes of local memory, more than the device has",
				 (unsigned long long)bytes);
	if (old) {
		/* Queued launches use the old one until they are done. */
		if (ctx->last_seq)
			wait_seq(ctx, ctx->last_seq, -1, NULL, 0);
		err = vm_unbind(ctx, old->handle);
		buffer_release(old);
		ctx->local = NULL;
		if (err)
			return ioctl_error(err, "VM_UNBIND of local memory");
	}
	st = buffer_new(ctx, bytes, &ctx->local);
	if (st)
		ctx->local = NULL;
	return st;
}

/*
 * May a launch of @k with @args be flushed and run again from a block's
 * start after it stored (DRM_SIMT_CMD_LAUNCH_IDEMPOTENT)?  Only if the
 * note says so, and what it stores through and what it loads through
 * are known and different buffers: every argument in load_origins and
 * store_origins points into a buffer or module of the context, none of
 * the stored-to ones into a module or into a buffer that is loaded from,
 * and neither mask has SIMT_ORIGIN_UNKNOWN (where an unknown pointer
 * leads cannot be checked) nor store_origins SIMT_ORIGIN_IMAGE.
 */
static int launch_idempotent(const simt_kernel *kernel, const uint32_t *args,
			     unsigned int nargs)
{
	const struct simt_meta_kernel *m = &kernel->info->m;
	simt_context *ctx = kernel->mod->ctx;
	const void *loads[9], *owner;
	uint32_t a[8] = { 0 };
	unsigned int i, j, nloads = 0;
	int image, ok = 1;

	if (!(m->flags & SIMT_META_F_IDEMPOTENT) || (m->flags & SIMT_META_F_ATOMICS) ||
	    (m->store_origins & (SIMT_ORIGIN_UNKNOWN | SIMT_ORIGIN_IMAGE)) ||
	    (m->load_origins & SIMT_ORIGIN_UNKNOWN))
		return 0;
	if (nargs > 8)
		return 0;
	if (nargs)
		memcpy(a, args, nargs * sizeof(a[0]));
	pthread_mutex_lock(&ctx->dev->lock);
	if (m->load_origins & SIMT_ORIGIN_IMAGE)
		loads[nloads++] = kernel->mod;
	for (i = 0; ok && i < 8; i++) {
		if (!(m->load_origins & (1u << i)))
			continue;
		owner = owner_of(ctx, a[i], &image);
		if (!owner)
			ok = 0;
		else
			loads[nloads++] = owner;
	}
	for (i = 0; ok && i < 8; i++) {
		if (!(m->store_origins & (1u << i)))
			continue;
		owner = owner_of(ctx, a[i], &image);
		if (!owner || image)
			ok = 0;
		for (j = 0; ok && j < nloads; j++)
			if (loads[j] == owner)
				ok = 0;
	}
	pthread_mutex_unlock(&ctx->dev->lock);
	return ok;
}

int simt_internal_launch_idempotent(const simt_kernel *kernel, const uint32_t *args,
				    unsigned int nargs)
{
	return kernel ? launch_idempotent(kernel, args, nargs) : 0;
}

simt_buffer *simt_internal_module_live(simt_module *mod)
{
	return mod ? mod->live : NULL;
}

/*
 * Check a launch and build its command (ctx->qlock held: local memory
 * may grow).  The metadata fields and the flag are set only for a
 * driver that takes them.
 */
static simt_status launch_cmd(simt_kernel *kernel, simt_dim3 grid, simt_dim3 block,
			      uint32_t dynamic_shared, const uint32_t *args,
			      unsigned int nargs, struct drm_simt_cmd *cmd)
{
	struct drm_simt_cmd_launch *l = &cmd->launch;
	const struct simt_kernel_info *k = kernel->info;
	const simt_module *mod = kernel->mod;
	const struct simt_image *img = &mod->img;
	simt_context *ctx = mod->ctx;
	uint64_t threads, local;
	simt_status st;

	if (nargs > 8 || (nargs && !args))
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "launch of %s: %u arguments, at most 8 in a0..a7", k->name, nargs);
	if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "launch of %s: grid %ux%ux%u, block %ux%ux%u: every dimension must be at least 1",
				 k->name, grid.x, grid.y, grid.z, block.x, block.y, block.z);
	threads = (uint64_t)block.x * block.y * block.z;
	if (threads > UINT32_MAX)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "launch of %s: %llu threads per block", k->name,
				 (unsigned long long)threads);
	if ((uint64_t)k->m.shared_bytes + dynamic_shared > UINT32_MAX)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "launch of %s: %u bytes of dynamic shared memory", k->name,
				 dynamic_shared);

	memset(cmd, 0, sizeof(*cmd));
	cmd->type = DRM_SIMT_CMD_LAUNCH;
	l->code_addr = img->code_start;
	l->code_size = img->code_end - img->code_start;
	l->entry = k->m.entry;
	l->grid[0] = grid.x;
	l->grid[1] = grid.y;
	l->grid[2] = grid.z;
	l->block[0] = block.x;
	l->block[1] = block.y;
	l->block[2] = block.z;
	l->shared_size = k->m.shared_bytes + dynamic_shared;
	l->local_size = k->m.local_bytes;
	l->regs = kernel_regs(k);
	if (nargs)
		memcpy(l->args, args, nargs * sizeof(args[0]));
	if (k->m.local_bytes) {
		local = k->m.local_bytes * threads * ctx->dev->info.sm_count *
			ctx->dev->info.sm_blocks;
		st = local_get(ctx, local);
		if (st)
			return st;
		l->local_base = ctx->local->addr;
	}
	if (ctx->dev->has_meta) {
		l->live_addr = mod->live ? mod->live->addr : 0;
		l->int_regs = k->m.int_regs_used;
		l->fp_regs = k->m.fp_regs_used;
		if (launch_idempotent(kernel, args, nargs))
			cmd->flags = DRM_SIMT_CMD_LAUNCH_IDEMPOTENT;
	}
	return SIMT_SUCCESS;
}

simt_status simt_internal_launch_cmd(simt_kernel *kernel, simt_dim3 grid, simt_dim3 block,
				     uint32_t dynamic_shared, const uint32_t *args,
				     unsigned int nargs, struct drm_simt_cmd *cmd)
{
	simt_context *ctx;
	simt_status st;

	if (!kernel || !cmd)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_internal_launch_cmd: null argument");
	ctx = kernel->mod->ctx;
	pthread_mutex_lock(&ctx->qlock);
	st = launch_cmd(kernel, grid, block, dynamic_shared, args, nargs, cmd);
	pthread_mutex_unlock(&ctx->qlock);
	return st;
}

/*
 * @cmd, a LAUNCH, as the driver of @dev takes it: since 0.6 a LAUNCH64,
 * whose device addresses are 64-bit (this library's are 32-bit: the
 * device's contexts are Sv32).
 */
static void launch_wire(const struct simt_device *dev, const struct drm_simt_cmd *cmd,
			struct drm_simt_cmd *wire)
{
	const struct drm_simt_cmd_launch *l = &cmd->launch;
	struct drm_simt_cmd_launch64 *w = &wire->launch64;

	*wire = *cmd;
	if (!dev->launch64)
		return;
	memset(wire->reserved, 0, sizeof(wire->reserved));
	wire->type = DRM_SIMT_CMD_LAUNCH64;
	w->code_addr = l->code_addr;
	w->entry = l->entry;
	w->local_base = l->local_base;
	w->live_addr = l->live_addr;
	w->code_size = l->code_size;
	memcpy(w->grid, l->grid, sizeof(w->grid));
	memcpy(w->block, l->block, sizeof(w->block));
	w->shared_size = l->shared_size;
	w->local_size = l->local_size;
	w->regs = l->regs;
	memcpy(w->args, l->args, sizeof(w->args));
	w->int_regs = l->int_regs;
	w->fp_regs = l->fp_regs;
	w->first_block = l->first_block;
	w->block_count = l->block_count;
}

/*
 * Queue a launch of blocks [@first, @first + @count) of @grid (@count 0:
 * the whole grid, without the subgrid fields older drivers refuse).
 */
simt_status simt_backend_launch_range(simt_kernel *kernel, simt_dim3 grid, simt_dim3 block,
				      uint32_t dynamic_shared, const uint32_t *args,
				      unsigned int nargs, uint32_t first, uint32_t count,
				      uint64_t *seq)
{
	struct drm_simt_cmd cmd, wire;
	struct drm_simt_cmd_launch *l = &cmd.launch;
	const struct simt_device_info *info;
	simt_context *ctx;
	const char *name;
	simt_status st;
	int refused = 0;

	if (!kernel)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_launch: no kernel");
	ctx = kernel->mod->ctx;
	info = &ctx->dev->info;
	name = kernel->info->name;
	pthread_mutex_lock(&ctx->qlock);
	if (ctx->userq) {
		pthread_mutex_unlock(&ctx->qlock);
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				      "launch of %s: the context runs a user queue, which takes no SUBMIT: "
				      "use simt_userq_launch", name);
	}
	st = launch_cmd(kernel, grid, block, dynamic_shared, args, nargs, &cmd);
	if (!st && info->sm_threads)
		st = simt_check_block_fits(name, (uint64_t)block.x * block.y * block.z, l->regs,
					   l->shared_size, info->sm_threads, info->sm_warps,
					   info->sm_regs, info->sm_shared, "the device's");
	if (!st) {
		l->first_block = first;
		l->block_count = count;
		launch_wire(ctx->dev, &cmd, &wire);
		st = submit_locked(ctx, &wire, 1, seq);
		refused = st == SIMT_ERROR_INVALID_VALUE;
		if (!st && kernel->mod->printf_buf)
			kernel->mod->printf_seq = ctx->last_seq;
	}
	pthread_mutex_unlock(&ctx->qlock);
	if (refused)
		return simt_set_error(SIMT_ERROR_LAUNCH_REFUSED,
				 "the driver refused the launch of %s (grid %ux%ux%u, block %ux%ux%u, "
				 "%u registers, %u shared bytes, %u local bytes per thread, "
				 "blocks %u+%u)",
				 name, grid.x, grid.y, grid.z, block.x, block.y, block.z,
				 l->regs, l->shared_size, l->local_size, first, count);
	return st;
}

simt_status simt_launch(simt_kernel *kernel, simt_dim3 grid, simt_dim3 block,
			uint32_t dynamic_shared, const uint32_t *args,
			unsigned int nargs, uint64_t *seq)
{
	return simt_backend_launch_range(kernel, grid, block, dynamic_shared, args, nargs, 0, 0,
					 seq);
}

/* ---- what the backend-independent part (simt-split.c) asks of the device ---- */

simt_context *simt_backend_kernel_context(const simt_kernel *kernel)
{
	return kernel->mod->ctx;
}

uint32_t simt_backend_wave_blocks(simt_context *ctx)
{
	return ctx->dev->info.sm_count * ctx->dev->info.sm_blocks;
}

simt_status simt_backend_check_subgrids(simt_context *ctx, const char *name)
{
	const struct simt_device_info *info = &ctx->dev->info;

	if (info->uapi_major == 0 && info->uapi_minor < 4)
		return simt_set_error(SIMT_ERROR_LAUNCH_REFUSED,
				 "split launch of %s: the driver's interface %u.%u has no subgrids (0.4)",
				 name, info->uapi_major, info->uapi_minor);
	return SIMT_SUCCESS;
}

/* ---- user queues (interface 0.8) ---- */

/* How long a wait polls the fence word before it sleeps in the driver. */
#define USERQ_SPIN_NS	50000ll
/* The fence word, after the ring in the same object, a page of its own. */
#define USERQ_FENCE_BYTES	PAGE_SIZE_4K

simt_status simt_userq_create(simt_context *ctx, unsigned int entries, simt_userq **out)
{
	const struct simt_device_info *info;
	struct drm_simt_vm_bind b = { 0 };
	struct drm_simt_userq_create c = { 0 };
	simt_userq *q;
	simt_status st;
	void *p;
	int err;

	if (!ctx || !out)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_userq_create: null argument");
	*out = NULL;
	info = &ctx->dev->info;
	if ((info->uapi_major == 0 && info->uapi_minor < 8) ||
	    !(info->caps & DRM_SIMT_CAP_USER_QUEUES))
		return simt_set_error(SIMT_ERROR_NOT_SUPPORTED,
				      "user queues: the driver (interface %u.%u) or the device (caps 0x%x) has none",
				      info->uapi_major, info->uapi_minor, info->caps);
	if (entries < 2 || entries > 4096 || (entries & (entries - 1)))
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				      "user queue of %u entries: a power of two, 2 to 4096", entries);
	if (ctx->userq)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "the context has a user queue already");
	q = calloc(1, sizeof(*q));
	if (!q)
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	q->ctx = ctx;
	q->entries = entries;
	q->size = (size_t)entries * SIMT_CMD_SIZE + USERQ_FENCE_BYTES;
	pthread_mutex_init(&q->lock, NULL);
	st = bo_create(ctx->dev, q->size, DRM_SIMT_BO_SYSTEM, &q->handle);
	if (st) {
		pthread_mutex_destroy(&q->lock);
		free(q);
		return st;
	}
	st = bo_map(ctx->dev, q->handle, q->size, &p);
	if (st)
		goto fail;
	q->ring = p;
	q->fence = (volatile uint64_t *)(q->ring + (size_t)entries * SIMT_CMD_SIZE);
	*q->fence = 0;
	b.ctx_id = ctx->id;
	b.handle = q->handle;
	err = xioctl(ctx->dev->fd, DRM_IOCTL_SIMT_VM_BIND, &b);
	if (err) {
		st = ioctl_error(err, "VM_BIND of a user queue's ring");
		goto fail;
	}
	q->fence_addr = b.device_addr + (uint64_t)entries * SIMT_CMD_SIZE;
	/* Earlier SUBMITs of the context are over before the queue changes hands. */
	pthread_mutex_lock(&ctx->qlock);
	c.ctx_id = ctx->id;
	c.ring_handle = q->handle;
	c.ring_addr = b.device_addr;
	c.ring_entries = entries;
	err = xioctl(ctx->dev->fd, DRM_IOCTL_SIMT_USERQ_CREATE, &c);
	if (!err)
		ctx->userq = q;
	pthread_mutex_unlock(&ctx->qlock);
	if (err) {
		st = ioctl_error(err, "USERQ_CREATE");
		vm_unbind(ctx, q->handle);
		goto fail;
	}
	p = mmap(NULL, PAGE_SIZE_4K, PROT_READ | PROT_WRITE, MAP_SHARED, ctx->dev->fd,
		 (off_t)c.doorbell_offset);
	if (p == MAP_FAILED) {
		/* The context keeps its user queue, unusable: it is for destroying. */
		return simt_set_error(SIMT_ERROR_SYSTEM, "mmap of the user queue's doorbell: %s",
				      strerror(errno));
	}
	q->doorbell = p;
	*out = q;
	return SIMT_SUCCESS;

fail:
	userq_release(q);
	return st;
}

uint64_t simt_userq_done(const simt_userq *q)
{
	return q ? __atomic_load_n(q->fence, __ATOMIC_ACQUIRE) : 0;
}

static uint32_t userq_free(const simt_userq *q)
{
	return q->entries - 1 - ((q->tail - q->head) & (q->entries - 1));
}

/* The status for a stopped user queue's USERQ_WAIT. */
static simt_status userq_error(const struct drm_simt_userq_wait *w, struct simt_result *c)
{
	c->hw_error = w->hw_error;
	c->fault_addr = w->fault_addr;
	switch (w->error) {
	case DRM_SIMT_ERROR_FAULT:
		c->status = SIMT_ERROR_FAULT;
		return simt_set_error(SIMT_ERROR_FAULT,
				      "user queue: device memory fault at 0x%llx (device error %u, %s)",
				      (unsigned long long)w->fault_addr, w->hw_error,
				      simt_hw_error_phrase(w->hw_error));
	case DRM_SIMT_ERROR_CANCELED:
		c->status = SIMT_ERROR_CANCELED;
		return simt_set_error(SIMT_ERROR_CANCELED,
				      "user queue: the context was destroyed or a device reset cancelled it");
	case DRM_SIMT_ERROR_TIMEOUT:
		c->status = SIMT_ERROR_DEVICE;
		return simt_set_error(SIMT_ERROR_DEVICE,
				      "user queue: stopped by the driver's job timeout");
	default:
		c->status = SIMT_ERROR_DEVICE;
		return simt_set_error(SIMT_ERROR_DEVICE, "user queue: device error %u, %s",
				      w->hw_error, simt_hw_error_phrase(w->hw_error));
	}
}

/*
 * Ring the doorbell for what was written up to q->tail: the commands
 * are in memory before the device can see the new tail.
 */
static void userq_ring(simt_userq *q)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	q->doorbell[SIMT_DBREG_TAIL / 4] = q->tail;
}

/* Write @cmd (SIMT_CMD_SIZE bytes) at the tail; room is reserved. */
static void userq_put(simt_userq *q, const void *cmd)
{
	memcpy(q->ring + (size_t)q->tail * SIMT_CMD_SIZE, cmd, SIMT_CMD_SIZE);
	q->tail = (q->tail + 1) & (q->entries - 1);
}

static void userq_put_signal(simt_userq *q, uint64_t value, uint32_t flags)
{
	struct simt_cmd_signal sig;

	memset(&sig, 0, sizeof(sig));
	sig.opcode = SIMT_CMD_SIGNAL;
	sig.flags = flags;
	sig.addr = q->fence_addr;
	sig.value = value;
	userq_put(q, &sig);
}

/*
 * Wait (q->lock held) until the fence word reaches @value, which a
 * launch returned, or @deadline (CLOCK_MONOTONIC ns; 0: only look; -1:
 * none) passes: poll, then sleep in USERQ_WAIT once a SIGNAL that
 * interrupts is queued for it.
 */
static simt_status userq_wait_locked(simt_userq *q, uint64_t value, int64_t deadline,
				     struct simt_result *c)
{
	int64_t start = monotonic_ns(), now;
	struct drm_simt_userq_wait w;
	int err;

	for (;;) {
		if (simt_userq_done(q) >= value)
			return SIMT_SUCCESS;
		now = monotonic_ns();
		if (now - start < USERQ_SPIN_NS && (deadline < 0 || now < deadline)) {
			__builtin_ia32_pause();
			continue;
		}
		memset(&w, 0, sizeof(w));
		w.ctx_id = q->ctx->id;
		w.addr = (uintptr_t)q->fence;
		w.value = value;
		if (deadline >= 0)
			w.timeout_ns = deadline > now ? deadline - now : 0;
		else
			w.timeout_ns = WAIT_SLICE_NS;
		/* To sleep: an interrupt when the last launch is over. */
		if (w.timeout_ns && q->irq_value < value && userq_free(q) >= 1) {
			userq_put_signal(q, q->last, SIMT_CMDF_IRQ);
			userq_ring(q);
			q->irq_value = q->last;
		}
		/* Without an interrupt on its way (ring full), look again soon. */
		if (q->irq_value < value && w.timeout_ns > 1000000)
			w.timeout_ns = 1000000;
		err = ioctl(q->ctx->dev->fd, DRM_IOCTL_SIMT_USERQ_WAIT, &w) < 0 ? errno : 0;
		if (err == EINTR)
			continue;
		if (err == ETIME) {
			if (deadline >= 0 && monotonic_ns() >= deadline &&
			    simt_userq_done(q) < value) {
				c->status = SIMT_ERROR_TIMEOUT;
				return simt_set_error(SIMT_ERROR_TIMEOUT,
						      "user queue: value %llu not reached (fence %llu)",
						      (unsigned long long)value,
						      (unsigned long long)simt_userq_done(q));
			}
			continue;
		}
		if (err)
			return ioctl_error(err, "USERQ_WAIT");
		if (w.error)
			return userq_error(&w, c);
	}
}

/* Room for @n commands (q->lock held): wait for the device to take some. */
static simt_status userq_reserve(simt_userq *q, uint32_t n)
{
	struct simt_result c;
	uint64_t done;
	simt_status st;

	while (userq_free(q) < n) {
		q->head = q->doorbell[SIMT_DBREG_HEAD / 4] & (q->entries - 1);
		if (userq_free(q) >= n)
			break;
		done = simt_userq_done(q);
		/* The next launch's end frees its entries and those before. */
		st = userq_wait_locked(q, done < q->last ? done + 1 : q->last, -1, &c);
		if (st)
			return st;
	}
	return SIMT_SUCCESS;
}

simt_status simt_userq_launch(simt_userq *q, simt_kernel *kernel, simt_dim3 grid,
			      simt_dim3 block, uint32_t dynamic_shared,
			      const uint32_t *args, unsigned int nargs, uint64_t *value)
{
	const struct drm_simt_cmd_launch *l;
	const struct simt_device_info *info;
	struct simt_cmd_launch cmd;
	struct drm_simt_cmd d;
	simt_context *ctx;
	struct simt_result c;
	simt_status st;

	if (!q || !kernel)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_userq_launch: null argument");
	ctx = q->ctx;
	if (kernel->mod->ctx != ctx)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				      "simt_userq_launch: the kernel is of another context");
	info = &ctx->dev->info;
	l = &d.launch;
	pthread_mutex_lock(&q->lock);
	pthread_mutex_lock(&ctx->qlock);
	/* Local memory that has to grow is in use until the queue is idle. */
	if (kernel->info->m.local_bytes) {
		uint64_t need = (uint64_t)kernel->info->m.local_bytes * block.x * block.y *
				block.z * info->sm_count * info->sm_blocks;

		if ((!ctx->local || ctx->local->size < need) && q->last) {
			pthread_mutex_unlock(&ctx->qlock);
			st = userq_wait_locked(q, q->last, -1, &c);
			pthread_mutex_lock(&ctx->qlock);
			if (st)
				goto out;
		}
	}
	st = launch_cmd(kernel, grid, block, dynamic_shared, args, nargs, &d);
	if (!st && info->sm_threads)
		st = simt_check_block_fits(kernel->info->name,
					   (uint64_t)block.x * block.y * block.z, l->regs,
					   l->shared_size, info->sm_threads, info->sm_warps,
					   info->sm_regs, info->sm_shared, "the device's");
	if (!st)
		st = userq_reserve(q, 2);
	if (st)
		goto out;
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = SIMT_CMD_LAUNCH;
	if (d.flags & DRM_SIMT_CMD_LAUNCH_IDEMPOTENT)
		cmd.flags = SIMT_CMDF_IDEMPOTENT;
	cmd.code_addr = l->code_addr;
	cmd.code_size = l->code_size;
	cmd.entry = l->entry;
	memcpy(cmd.grid, l->grid, sizeof(cmd.grid));
	memcpy(cmd.block, l->block, sizeof(cmd.block));
	cmd.shared_size = l->shared_size;
	cmd.local_size = l->local_size;
	cmd.regs = l->regs;
	cmd.local_base = l->local_base;
	memcpy(cmd.args, l->args, sizeof(cmd.args));
	cmd.live_addr = l->live_addr;
	cmd.int_regs = l->int_regs;
	cmd.fp_regs = l->fp_regs;
	userq_put(q, &cmd);
	userq_put_signal(q, ++q->last, 0);
	userq_ring(q);
	if (value)
		*value = q->last;
out:
	pthread_mutex_unlock(&ctx->qlock);
	pthread_mutex_unlock(&q->lock);
	return st;
}

simt_status simt_userq_wait(simt_userq *q, uint64_t value, int64_t timeout_ns,
			    struct simt_result *c)
{
	struct simt_result local;
	int64_t deadline = -1;
	simt_status st;

	if (!q)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_userq_wait: no queue");
	if (!c)
		c = &local;
	memset(c, 0, sizeof(*c));
	if (simt_userq_done(q) >= value)
		return SIMT_SUCCESS;
	if (timeout_ns >= 0) {
		deadline = monotonic_ns();
		deadline = timeout_ns > INT64_MAX - deadline ? INT64_MAX : deadline + timeout_ns;
	}
	pthread_mutex_lock(&q->lock);
	if (value > q->last)
		st = simt_set_error(SIMT_ERROR_INVALID_VALUE,
				    "simt_userq_wait: value %llu was not handed out (last %llu)",
				    (unsigned long long)value, (unsigned long long)q->last);
	else
		st = userq_wait_locked(q, value, deadline, c);
	pthread_mutex_unlock(&q->lock);
	return st;
}
