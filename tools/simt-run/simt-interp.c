// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libsimt's host backend: the whole API of guest/libsimt/libsimt.h on
 * the warp interpreter (hw/simt/simt-core.c) instead of the device, so
 * that one program (simt-run.c, or a user's) builds against the device's
 * libsimt in the guest or this one on the host unchanged
 * (libsimt-interp.a, docs/toolchain.rst).  What the host cannot do is a
 * documented no-op: priorities and preemption modes (one context runs
 * at a time, nothing to order or preempt); freed buffers are not
 * unmapped (a kernel may still read what was there).
 *
 * "Device memory" is one flat host array at device address 0
 * (HOST_VRAM bytes, reserved with mmap and filled in on demand):
 *
 *   [image base, + size)    the kernel image, copied to its link address
 *                           (4 KiB aligned, below FIXED_VA_END, as the
 *                           driver requires)
 *   [FIXED_VA_END, top)     buffers (simt_mem_alloc) and local memory,
 *                           each rounded up to 4 KiB, zeroed
 *
 * Any other address faults (SIMT_FAULT_PAGE, as the device's MMU does
 * for an address nothing is bound at).  A launch runs in simt_wait():
 * every block in turn, one after another, each to completion, as
 * simt_run_grid() does, but in slices so that the timeout is kept, and
 * with the device's instruction costs so that --time can report cycles.
 * An image with device printf records (include/simt-printf-buffer.h) has
 * them printed on stdout after each launch, as CUDA prints them at the
 * next synchronisation.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <drm/simt_accel.h>

#include "libsimt.h"
#include "simt-backend.h"
#include "simt-check.h"
#include "simt-status.h"
#include "simt-elf.h"
#include "simt-lines.h"
#include "simt-printf-buffer.h"
#include "simt-printf.h"
#include "hw/simt/simt-core.h"
#include "hw/simt/simt-config.h"

#define HOST_VRAM       (1u << 30)      /* device addresses 0 .. 1 GiB */
#define FIXED_VA_END    (4u << 20)      /* as the driver with enough VRAM */
#define PAGE            4096u
#define SLICE           (1u << 20)      /* warp insns between clock checks */

struct simt_device {
	int ncontexts;
	int preset;			/* the machine the host runner stands for */
	SimtConfig cfg;
	uint64_t cycle;			/* the interpreter's cycles so far */
};

/* A range of freed buffer memory, for later allocations. */
struct hole {
	uint32_t addr;
	uint32_t size;
	struct hole *next;
};

struct simt_buffer {
	simt_context *ctx;
	uint32_t addr;
	size_t size;
	size_t asked;			/* before rounding: what memcheck allows */
	simt_buffer *next;
};

struct simt_kernel {
	simt_module *mod;
	const struct simt_kernel_info *info;
};

struct simt_module {
	simt_context *ctx;
	char *name;
	struct simt_image img;
	uint32_t bytes;			/* image bytes, rounded to 4 KiB */
	uint32_t printf_addr;		/* its printf buffer, 0 if none */
	/* Its source lines, read when a checker first reports on it. */
	struct simt_lines lines;
	int lines_read;
	unsigned int nkernels;
	simt_kernel *kernels;
	simt_module *next;
};

struct pending {
	uint64_t seq;
	simt_module *mod;
	SimtLaunch l;
	uint32_t first, count;		/* blocks, in linear order; count 0: all */
	struct pending *next;
};

struct simt_context {
	simt_device *dev;
	uint8_t *mem;			/* HOST_VRAM bytes at device address 0 */
	uint32_t top;			/* end of the buffers */
	uint32_t local_addr, local_size;
	simt_buffer *buffers;
	struct hole *holes;		/* freed, below top */
	simt_module *modules;
	SimtMem smem;
	struct pending *queue, **tail;
	uint64_t next_seq, done_seq;
	int failed;
	unsigned int checks;		/* SIMT_CHECK_* */
	int schedule;			/* SIMT_SCHEDULE_* */
	uint64_t seed;
	uint64_t findings;
};


/* ---- the device: nothing to open ---- */

/*
 * The machine is the preset $SIMT_PRESET names (default: "default"):
 * its SM limits decide which launches run, as on a device of that preset.
 */
simt_status simt_device_open(const char *node, simt_device **dev)
{
	const char *name = getenv("SIMT_PRESET");
	int preset = name && *name ? simt_preset_lookup(name) : SIMT_PRESET_DEFAULT;

	(void)node;			/* no device node on the host */
	*dev = NULL;
	if (preset < 0) {
		char list[256] = "";
		int i;

		for (i = 0; i < SIMT_PRESET_NR; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? ", " : "", simt_preset_name(i));
		return simt_set_error(SIMT_ERROR_NO_DEVICE, "SIMT_PRESET=%s: no such preset (%s)",
				      name, list);
	}
	*dev = calloc(1, sizeof(**dev));
	if (!*dev)
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	(*dev)->preset = preset;
	simt_preset_config(preset, &(*dev)->cfg);
	return SIMT_SUCCESS;
}

simt_status simt_device_get_info(simt_device *dev, struct simt_device_info *info)
{
	if (!dev || !info)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_device_get_info: null argument");
	memset(info, 0, sizeof(*info));
	snprintf(info->node, sizeof(info->node), "host");
	snprintf(info->driver_name, sizeof(info->driver_name), "simt-interp");
	snprintf(info->driver_desc, sizeof(info->driver_desc),
		 "the warp interpreter on the host, as the %s preset", simt_preset_name(dev->preset));
	info->uapi_major = DRM_SIMT_UAPI_MAJOR;
	info->uapi_minor = DRM_SIMT_UAPI_MINOR;
	info->device_major = SIMT_VERSION_MAJOR;
	info->device_minor = SIMT_VERSION_MINOR;
	info->sm_count = dev->cfg.field[SIMT_CFG_SM_COUNT];
	info->sm_blocks = dev->cfg.field[SIMT_CFG_SM_BLOCKS];
	info->max_contexts = dev->cfg.field[SIMT_CFG_CONTEXTS];
	info->max_submit_cmds = UINT32_MAX;
	info->vram_size = HOST_VRAM;
	info->fixed_va_end = FIXED_VA_END;
	info->sm_threads = dev->cfg.field[SIMT_CFG_SM_THREADS];
	info->sm_warps = dev->cfg.field[SIMT_CFG_SM_WARPS];
	info->sm_regs = dev->cfg.field[SIMT_CFG_SM_REGS];
	info->sm_shared = dev->cfg.field[SIMT_CFG_SM_SHARED];
	return SIMT_SUCCESS;
}

simt_status simt_device_get_param(simt_device *dev, uint32_t param, uint64_t *value)
{
	if (!dev || !value)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_device_get_param: null argument");
	switch (param) {
	case DRM_SIMT_PARAM_DEVICE_VERSION:
		*value = SIMT_VERSION_VALUE;
		break;
	case DRM_SIMT_PARAM_CAPS:
		*value = 0;		/* no device: no MSI-X, queues, MMU, ... */
		break;
	case DRM_SIMT_PARAM_SM_COUNT:
		*value = dev->cfg.field[SIMT_CFG_SM_COUNT];
		break;
	case DRM_SIMT_PARAM_VRAM_SIZE:
		*value = HOST_VRAM;
		break;
	case DRM_SIMT_PARAM_MAX_CONTEXTS:
		*value = dev->cfg.field[SIMT_CFG_CONTEXTS];
		break;
	case DRM_SIMT_PARAM_SM_BLOCKS:
		*value = dev->cfg.field[SIMT_CFG_SM_BLOCKS];
		break;
	case DRM_SIMT_PARAM_FIXED_VA_END:
		*value = FIXED_VA_END;
		break;
	case DRM_SIMT_PARAM_CLOCK_MHZ:
		*value = dev->cfg.field[SIMT_CFG_CLOCK_MHZ];
		break;
	case DRM_SIMT_PARAM_PRESET:
		*value = dev->preset;
		break;
	case DRM_SIMT_PARAM_CYCLE:
		*value = dev->cycle;
		break;
	case DRM_SIMT_PARAM_SM_THREADS:
		*value = dev->cfg.field[SIMT_CFG_SM_THREADS];
		break;
	case DRM_SIMT_PARAM_SM_WARPS:
		*value = dev->cfg.field[SIMT_CFG_SM_WARPS];
		break;
	case DRM_SIMT_PARAM_SM_REGS:
		*value = dev->cfg.field[SIMT_CFG_SM_REGS];
		break;
	case DRM_SIMT_PARAM_SM_SHARED:
		*value = dev->cfg.field[SIMT_CFG_SM_SHARED];
		break;
	case DRM_SIMT_PARAM_CONTEXTS:
	case DRM_SIMT_PARAM_FILE_CONTEXTS:
		*value = dev->ncontexts;
		break;
	default:
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "parameter %u: the host runner has no such parameter", param);
	}
	return SIMT_SUCCESS;
}

simt_status simt_device_close(simt_device *dev)
{
	if (!dev || dev->ncontexts)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_device_close: contexts still open");
	free(dev);
	return SIMT_SUCCESS;
}

/* ---- memory: the image range is served here, buffers are flat ---- */

static int in_image(simt_context *ctx, uint32_t addr, unsigned int size)
{
	simt_module *m;

	for (m = ctx->modules; m; m = m->next) {
		if (addr >= m->img.base && addr - m->img.base + size <= m->bytes)
			return 1;
	}
	return 0;
}

static int mem_load(void *opaque, uint32_t addr, unsigned size, uint32_t *val)
{
	simt_context *ctx = opaque;

	if (!in_image(ctx, addr, size))
		return SIMT_FAULT_PAGE;
	*val = 0;
	memcpy(val, ctx->mem + addr, size);	/* little-endian hosts */
	return SIMT_FAULT_NONE;
}

static int mem_store(void *opaque, uint32_t addr, unsigned size, uint32_t val)
{
	simt_context *ctx = opaque;

	if (!in_image(ctx, addr, size))
		return SIMT_FAULT_PAGE;
	memcpy(ctx->mem + addr, &val, size);
	return SIMT_FAULT_NONE;
}

static const SimtMemOps mem_ops = { .load = mem_load, .store = mem_store };

simt_status simt_context_create(simt_device *dev, int priority, int preempt_mode,
				simt_context **out)
{
	simt_context *ctx;
	void *mem;

	(void)priority;			/* one context at a time: nothing to order */
	(void)preempt_mode;
	*out = NULL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	mem = mmap(NULL, HOST_VRAM, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED) {
		free(ctx);
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "reserving %u MiB of host memory as VRAM: %s",
				 HOST_VRAM >> 20, strerror(errno));
	}
	ctx->dev = dev;
	ctx->mem = mem;
	ctx->top = FIXED_VA_END;
	ctx->tail = &ctx->queue;
	ctx->next_seq = 1;
	ctx->smem.ops = &mem_ops;
	ctx->smem.opaque = ctx;
	dev->ncontexts++;
	*out = ctx;
	return SIMT_SUCCESS;
}

static void module_free(simt_module *m)
{
	simt_lines_free(&m->lines);
	simt_image_free(&m->img);
	free(m->kernels);
	free(m->name);
	free(m);
}

simt_status simt_context_destroy(simt_context *ctx)
{
	struct pending *p;

	if (!ctx)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_context_destroy: no context");
	while ((p = ctx->queue)) {
		ctx->queue = p->next;
		free(p);
	}
	while (ctx->buffers) {
		simt_buffer *b = ctx->buffers;

		ctx->buffers = b->next;
		free(b);
	}
	while (ctx->holes) {
		struct hole *h = ctx->holes;

		ctx->holes = h->next;
		free(h);
	}
	while (ctx->modules) {
		simt_module *m = ctx->modules;

		ctx->modules = m->next;
		module_free(m);
	}
	munmap(ctx->mem, HOST_VRAM);
	ctx->dev->ncontexts--;
	free(ctx);
	return SIMT_SUCCESS;
}

/* @size bytes at the top of the buffers, rounded to 4 KiB and zeroed. */
static simt_status carve(simt_context *ctx, size_t size, uint32_t *addr)
{
	uint64_t bytes = ((uint64_t)size + PAGE - 1) & ~(uint64_t)(PAGE - 1);

	struct hole **hp;

	if (bytes > HOST_VRAM - FIXED_VA_END)
		return simt_set_error(SIMT_ERROR_TOO_LARGE,
				 "%zu bytes asked for, the host runner has %u MiB of device memory",
				 size, (HOST_VRAM - FIXED_VA_END) >> 20);
	for (hp = &ctx->holes; *hp; hp = &(*hp)->next) {
		struct hole *h = *hp;

		if (h->size < bytes)
			continue;
		*addr = h->addr;
		memset(ctx->mem + h->addr, 0, bytes);
		h->addr += bytes;
		h->size -= bytes;
		if (!h->size) {
			*hp = h->next;
			free(h);
		}
		return SIMT_SUCCESS;
	}
	if (bytes > HOST_VRAM - ctx->top)
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY,
				 "%zu bytes asked for, %u bytes of the host runner's device memory left",
				 size, HOST_VRAM - ctx->top);
	*addr = ctx->top;
	memset(ctx->mem + ctx->top, 0, bytes);
	ctx->top += bytes;
	ctx->smem.flat = ctx->mem + FIXED_VA_END;
	ctx->smem.flat_base = FIXED_VA_END;
	ctx->smem.flat_size = ctx->top - FIXED_VA_END;
	return SIMT_SUCCESS;
}

simt_status simt_mem_alloc(simt_context *ctx, size_t size, simt_buffer **out)
{
	simt_buffer *b;
	simt_status st;
	uint32_t addr = 0;

	if (!ctx || !out)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_mem_alloc: null argument");
	*out = NULL;
	if (!size)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_mem_alloc: size 0");
	st = carve(ctx, size, &addr);
	if (st)
		return st;
	b = calloc(1, sizeof(*b));
	if (!b)
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	b->ctx = ctx;
	b->addr = addr;
	b->size = (size + PAGE - 1) & ~(size_t)(PAGE - 1);
	b->asked = size;
	b->next = ctx->buffers;
	ctx->buffers = b;
	*out = b;
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

simt_status simt_mem_free(simt_buffer *buf)
{
	simt_context *ctx;
	simt_buffer **bp;
	struct hole *h;

	if (!buf)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_mem_free: no buffer");
	ctx = buf->ctx;
	for (bp = &ctx->buffers; *bp != buf; bp = &(*bp)->next)
		;
	*bp = buf->next;
	h = malloc(sizeof(*h));
	if (h) {
		/* Its range serves later allocations (first fit). */
		h->addr = buf->addr;
		h->size = buf->size;
		h->next = ctx->holes;
		ctx->holes = h;
	}
	free(buf);
	return SIMT_SUCCESS;
}

simt_status simt_buffer_map(simt_buffer *buf, void **ptr)
{
	if (!buf || !ptr)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_buffer_map: null argument");
	/* Kernels run inside simt_wait: the mapping is always coherent. */
	*ptr = buf->ctx->mem + buf->addr;
	return SIMT_SUCCESS;
}

static simt_status copy_check(const simt_buffer *b, size_t offset, size_t size)
{
	if (!b || offset > b->size || size > b->size - offset)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				 "copy of %zu bytes at offset %zu: outside the buffer", size, offset);
	return SIMT_SUCCESS;
}

/*
 * Copies are ordered after the context's earlier work, as on the device:
 * the launches still queued run first.
 */
static simt_status copy_after_queued(const simt_buffer *b, size_t offset, size_t size)
{
	simt_status st = copy_check(b, offset, size);

	if (!st && b->ctx->queue)
		st = simt_context_synchronize(b->ctx);
	return st;
}

simt_status simt_memcpy_htod(simt_buffer *dst, size_t offset, const void *src, size_t size)
{
	simt_status st = copy_after_queued(dst, offset, size);

	if (!st)
		memcpy(dst->ctx->mem + dst->addr + offset, src, size);
	return st;
}

simt_status simt_memcpy_dtoh(void *dst, simt_buffer *src, size_t offset, size_t size)
{
	simt_status st = copy_after_queued(src, offset, size);

	if (!st)
		memcpy(dst, src->ctx->mem + src->addr + offset, size);
	return st;
}

simt_status simt_memcpy_dtod(simt_buffer *dst, size_t dst_offset, simt_buffer *src,
			     size_t src_offset, size_t size)
{
	simt_status st = copy_check(dst, dst_offset, size);

	if (!st)
		st = copy_check(src, src_offset, size);
	if (!st && dst->ctx != src->ctx)
		st = simt_set_error(SIMT_ERROR_INVALID_VALUE,
				    "simt_memcpy_dtod: the buffers are in different contexts");
	if (!st)
		st = copy_after_queued(dst, dst_offset, size);
	if (!st)
		memmove(dst->ctx->mem + dst->addr + dst_offset,
			src->ctx->mem + src->addr + src_offset, size);
	return st;
}

/* ---- modules ---- */

/* A module from @path, or from @data (@size bytes) named @path. */
static simt_status module_load(simt_context *ctx, const char *path, const void *data,
			       size_t size, simt_module **out)
{
	const struct simt_elf_symbol *sym;
	char err[256];
	simt_module *m, *o;
	uint64_t end;
	unsigned int i;
	int bad;

	if (!ctx || !path || !out)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_module_load: null argument");
	*out = NULL;
	m = calloc(1, sizeof(*m));
	if (!m || !(m->name = strdup(path))) {
		free(m);
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	}
	bad = data ? simt_image_load_mem(&m->img, m->name, data, size, err, sizeof(err))
		   : simt_image_load(&m->img, m->name, err, sizeof(err));
	if (bad < 0) {
		simt_set_error(SIMT_ERROR_INVALID_IMAGE, "%s", err);
		free(m->name);
		free(m);
		return SIMT_ERROR_INVALID_IMAGE;
	}
	end = (uint64_t)m->img.base + m->img.size;
	if (!m->img.has_meta)
		simt_set_error(SIMT_ERROR_INVALID_IMAGE,
			  "%s: no SIMT metadata note (annotate the image with simt-meta)", path);
	else if (!m->img.meta.h.nkernels)
		simt_set_error(SIMT_ERROR_INVALID_IMAGE, "%s: the image has no kernels", path);
	else if (m->img.base % PAGE || end > FIXED_VA_END)
		simt_set_error(SIMT_ERROR_INVALID_IMAGE,
			  "%s: linked at 0x%x..0x%llx; images must start on a 4 KiB page and end below 0x%x",
			  path, m->img.base, (unsigned long long)end, FIXED_VA_END);
	else
		goto ok;
	simt_image_free(&m->img);
	free(m->name);
	free(m);
	return SIMT_ERROR_INVALID_IMAGE;
ok:
	m->bytes = (end - m->img.base + PAGE - 1) & ~(uint64_t)(PAGE - 1);
	for (o = ctx->modules; o; o = o->next) {
		if (m->img.base < o->img.base + o->bytes && o->img.base < m->img.base + m->bytes) {
			simt_set_error(SIMT_ERROR_ADDRESS_IN_USE,
				  "%s: its link range 0x%x..0x%llx overlaps a module already loaded in this context",
				  path, m->img.base, (unsigned long long)end);
			simt_image_free(&m->img);
			free(m->name);
			free(m);
			return SIMT_ERROR_ADDRESS_IN_USE;
		}
	}
	m->nkernels = m->img.meta.h.nkernels;
	m->kernels = calloc(m->nkernels, sizeof(*m->kernels));
	if (!m->kernels) {
		simt_image_free(&m->img);
		free(m->name);
		free(m);
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	}
	for (i = 0; i < m->nkernels; i++) {
		m->kernels[i].mod = m;
		m->kernels[i].info = &m->img.meta.kernels[i];
	}
	memset(ctx->mem + m->img.base, 0, m->bytes);
	memcpy(ctx->mem + m->img.base, m->img.bytes, m->img.size);
	sym = simt_elf_symbol_by_name(&m->img.elf, SIMT_PRINTF_SYMBOL);
	if (sym && sym->size == SIMT_PRINTF_BYTES && sym->value >= m->img.base &&
	    m->bytes >= SIMT_PRINTF_BYTES && sym->value - m->img.base <= m->bytes - SIMT_PRINTF_BYTES)
		m->printf_addr = sym->value;
	m->ctx = ctx;
	m->next = ctx->modules;
	ctx->modules = m;
	*out = m;
	return SIMT_SUCCESS;
}

simt_status simt_module_load(simt_context *ctx, const char *path, simt_module **out)
{
	return module_load(ctx, path, NULL, 0, out);
}

simt_status simt_module_load_data(simt_context *ctx, const void *data, size_t size,
				  const char *name, simt_module **out)
{
	if (!data || !size)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_module_load_data: no data");
	return module_load(ctx, name ? name : "(memory)", data, size, out);
}

/* Its queued launches run first, as on the device, where they hold it. */
simt_status simt_module_unload(simt_module *mod)
{
	simt_context *ctx;
	simt_module **mp;
	simt_status st;

	if (!mod)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_module_unload: no module");
	ctx = mod->ctx;
	st = simt_context_synchronize(ctx);
	if (st)
		return st;
	for (mp = &ctx->modules; *mp != mod; mp = &(*mp)->next)
		;
	*mp = mod->next;
	memset(ctx->mem + mod->img.base, 0, mod->bytes);
	module_free(mod);
	return SIMT_SUCCESS;
}

unsigned int simt_module_kernel_count(const simt_module *mod)
{
	return mod ? mod->nkernels : 0;
}

const char *simt_module_kernel_name(const simt_module *mod, unsigned int index)
{
	return mod && index < mod->nkernels ? mod->kernels[index].info->name : NULL;
}

simt_status simt_module_get_kernel(simt_module *mod, const char *name, simt_kernel **kernel)
{
	unsigned int i;

	for (i = 0; mod && name && i < mod->nkernels; i++) {
		if (!strcmp(mod->kernels[i].info->name, name)) {
			*kernel = &mod->kernels[i];
			return SIMT_SUCCESS;
		}
	}
	return simt_set_error(SIMT_ERROR_NOT_FOUND, "%s: no kernel '%s'", mod ? mod->name : "?",
			 name ? name : "");
}

void simt_kernel_get_attrs(const simt_kernel *kernel, struct simt_kernel_attrs *a)
{
	const struct simt_kernel_info *k;

	if (!kernel || !a)
		return;
	k = kernel->info;
	a->name = k->name;
	a->entry = k->m.entry;
	a->regs = __builtin_popcount(k->m.int_regs_used) + __builtin_popcount(k->m.fp_regs_used);
	a->shared_bytes = k->m.shared_bytes;
	a->local_bytes = k->m.local_bytes;
	a->insn_count = k->m.insn_count;
	a->flags = k->m.flags;
}

/* ---- launches: queued by simt_launch, run by simt_wait ---- */

simt_status simt_backend_launch_range(simt_kernel *kernel, simt_dim3 grid, simt_dim3 block,
				      uint32_t dynamic_shared, const uint32_t *args,
				      unsigned int nargs, uint32_t first, uint32_t count,
				      uint64_t *seq)
{
	const struct simt_image *img;
	simt_context *ctx;
	struct pending *p;
	const char *why;
	char whose[48];
	simt_status st;

	if (!kernel || nargs > SIMT_ARG_REGS || (nargs && !args))
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_launch: bad kernel or arguments");
	ctx = kernel->mod->ctx;
	img = &kernel->mod->img;
	if (ctx->failed)
		return simt_set_error(SIMT_ERROR_CONTEXT_FAILED, "the context stopped on an earlier error");
	p = calloc(1, sizeof(*p));
	if (!p)
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	p->l.entry = kernel->info->m.entry;
	p->l.code_base = img->code_start;
	p->l.code_size = img->code_end - img->code_start;
	p->l.grid_dim[0] = grid.x;
	p->l.grid_dim[1] = grid.y;
	p->l.grid_dim[2] = grid.z;
	p->l.block_dim[0] = block.x;
	p->l.block_dim[1] = block.y;
	p->l.block_dim[2] = block.z;
	p->l.shared_size = kernel->info->m.shared_bytes + dynamic_shared;
	if (p->l.shared_size < dynamic_shared)
		p->l.shared_size = UINT32_MAX;
	p->l.local_size = kernel->info->m.local_bytes;
	memcpy(p->l.args, args, nargs * sizeof(*args));
	why = simt_launch_check(&p->l);
	if (!why && (uint64_t)grid.x * grid.y * grid.z > UINT32_MAX)
		why = "a grid of more than 2^32 - 1 blocks";
	if (!why && count && (uint64_t)first + count > (uint64_t)grid.x * grid.y * grid.z)
		why = "the blocks asked for go past the grid's end";
	if (why) {
		free(p);
		return simt_set_error(SIMT_ERROR_LAUNCH_REFUSED, "%s", why);
	}
	snprintf(whose, sizeof(whose), "the %s preset's", simt_preset_name(ctx->dev->preset));
	st = simt_check_block_fits(kernel->info->name, simt_launch_threads(&p->l),
				   __builtin_popcount(kernel->info->m.int_regs_used) +
				   __builtin_popcount(kernel->info->m.fp_regs_used),
				   p->l.shared_size, ctx->dev->cfg.field[SIMT_CFG_SM_THREADS],
				   ctx->dev->cfg.field[SIMT_CFG_SM_WARPS],
				   ctx->dev->cfg.field[SIMT_CFG_SM_REGS],
				   ctx->dev->cfg.field[SIMT_CFG_SM_SHARED], whose);
	if (st) {
		free(p);
		return st;
	}
	p->first = first;
	p->count = count;
	p->seq = ctx->next_seq++;
	p->mod = kernel->mod;
	*ctx->tail = p;
	ctx->tail = &p->next;
	if (seq)
		*seq = p->seq;
	return SIMT_SUCCESS;
}

simt_status simt_launch(simt_kernel *kernel, simt_dim3 grid, simt_dim3 block,
			uint32_t dynamic_shared, const uint32_t *args, unsigned int nargs,
			uint64_t *seq)
{
	return simt_backend_launch_range(kernel, grid, block, dynamic_shared, args, nargs, 0, 0,
					 seq);
}

simt_context *simt_backend_kernel_context(const simt_kernel *kernel)
{
	return kernel->mod->ctx;
}

uint32_t simt_backend_wave_blocks(simt_context *ctx)
{
	return ctx->dev->cfg.field[SIMT_CFG_SM_COUNT] * ctx->dev->cfg.field[SIMT_CFG_SM_BLOCKS];
}

/* Ranges of blocks are always possible on the host. */
simt_status simt_backend_check_subgrids(simt_context *ctx, const char *name)
{
	(void)ctx;
	(void)name;
	return SIMT_SUCCESS;
}

/* The instruction costs of the device's timing model (hw/simt/simt-pci.c). */
static const SimtTiming host_timing = {
	.cost = {
		[SIMT_IC_ALU] = 1, [SIMT_IC_BRANCH] = 1, [SIMT_IC_MUL] = 2,
		[SIMT_IC_DIV] = 8, [SIMT_IC_FPU] = 1, [SIMT_IC_FDIV] = 8,
		[SIMT_IC_MEM] = 2, [SIMT_IC_ATOMIC] = 4, [SIMT_IC_SYNC] = 1,
	},
	.global_cost = 2,
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- what the checkers ask of the runner ---- */

struct launch_env {
	simt_context *ctx;
	simt_module *mod;
	const simt_buffer *last;	/* the buffer of the last access found */
};

/* Inside a buffer (as asked for, not as rounded) or a module's image. */
static int global_ok(void *opaque, uint32_t addr, unsigned int size, char *why, size_t len)
{
	struct launch_env *e = opaque;
	const simt_buffer *b = e->last, *near = NULL;
	uint64_t end = (uint64_t)addr + size;

	/* Lanes and warps mostly go on in the buffer the last access was in. */
	if (b && addr >= b->addr && end <= b->addr + (uint64_t)b->asked)
		return 1;
	if (in_image(e->ctx, addr, size))
		return 1;
	for (b = e->ctx->buffers; b; b = b->next) {
		uint64_t b_end = b->addr + (uint64_t)b->asked;

		if (addr >= b->addr && end <= b_end) {
			e->last = b;
			return 1;
		}
		/* the buffer starting closest below @addr */
		if (addr >= b->addr && (!near || b->addr > near->addr))
			near = b;
	}
	if (!near)
		snprintf(why, len, "0x%08x is in no buffer and no module image", addr);
	else if (addr >= near->addr + (uint64_t)near->asked)
		snprintf(why, len, "0x%08x is %llu bytes past the end of the %zu-byte buffer at 0x%08x",
			 addr, (unsigned long long)(addr - near->addr - near->asked), near->asked,
			 near->addr);
	else
		snprintf(why, len, "the access runs past the end of the %zu-byte buffer at 0x%08x",
			 near->asked, near->addr);
	return 0;
}

/*
 * @path with "dir/.." and "." taken out, in @out: meson's builds record
 * kernels as "/src/build/host/../../k.c".
 */
static void tidy_path(const char *path, char *out, size_t len)
{
	size_t n = 0, seg;

	if (!len)
		return;
	out[0] = 0;
	if (*path == '/' && len > 1)
		out[n++] = '/', out[n] = 0;
	for (; *path; path += seg + (path[seg] == '/')) {
		const char *slash;

		seg = strcspn(path, "/");
		if (!seg || (seg == 1 && path[0] == '.'))
			continue;
		slash = strrchr(out, '/');
		if (seg == 2 && !strncmp(path, "..", 2) && n && strcmp(slash ? slash + 1 : out, "..") &&
		    !(n == 1 && out[0] == '/')) {
			n = slash ? (size_t)(slash - out) + (slash == out) : 0;
			out[n] = 0;
			continue;
		}
		if (n + (n && out[n - 1] != '/') + seg + 1 > len)
			return;
		if (n && out[n - 1] != '/')
			out[n++] = '/';
		memcpy(out + n, path, seg);
		n += seg;
		out[n] = 0;
	}
}

/*
 * "/src/k.c:12 (kernel+0x24)" from the image's line table (built with
 * -g), the line of the kernel's source that called the code when it was
 * inlined (", inlined from /src/simt.h:257" then follows the function),
 * else "pc 0x00010024 (kernel+0x24)".
 */
static void where(void *opaque, uint32_t pc, char *buf, size_t len)
{
	const struct launch_env *e = opaque;
	simt_module *m = e->mod;
	const struct simt_elf *elf = &m->img.elf;
	const struct simt_elf_symbol *f = NULL;
	const char *file, *inner_file;
	unsigned int line, inner_line;
	char sym[96], err[256], path[256], inner[256];
	uint32_t i;

	if (!m->lines_read) {
		m->lines_read = 1;
		if (simt_lines_read(&m->lines, elf, err, sizeof(err)))
			fprintf(stderr, "simt-run: no source lines: %s\n", err);
	}
	for (i = 0; i < elf->nsymbols; i++) {
		const struct simt_elf_symbol *y = &elf->symbols[i];

		if (y->type == 2 /* STT_FUNC */ && pc >= y->value && pc - y->value < y->size)
			f = y;
	}
	if (f)
		snprintf(sym, sizeof(sym), "%s+0x%x", f->name, pc - f->value);
	else
		snprintf(sym, sizeof(sym), "pc 0x%08x", pc);
	if (simt_lines_find_call(&m->lines, pc, &file, &line, &inner_file, &inner_line)) {
		tidy_path(file, path, sizeof(path));
		if (inner_file) {
			tidy_path(inner_file, inner, sizeof(inner));
			snprintf(buf, len, "%s:%u (%s, inlined from %s:%u)", path, line, sym, inner,
				 inner_line);
		} else {
			snprintf(buf, len, "%s:%u (%s)", path, line, sym);
		}
	} else {
		snprintf(buf, len, "pc 0x%08x%s%s%s", pc, f ? " (" : "", f ? sym : "", f ? ")" : "");
	}
}

/* ---- running a launch ---- */

/* One block being run, with its warps and shared memory. */
struct slot {
	SimtBlock b;
	SimtWarp *warps;
	uint8_t *shared;
	bool busy;
};

/* splitmix64's mix, so that neighbouring seeds start far apart. */
static uint64_t first_random(uint64_t seed)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z ? z : 1;
}

/* xorshift64*: the random block order, the same for the same seed. */
static uint64_t next_random(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dull;
}

/*
 * Run blocks [@first, @first + @count) of @l.  Linear: in turn (x
 * fastest, then y, then z), each to completion before the next starts,
 * like simt_run_grid().  Random: up to a wave of blocks at once, started
 * in an order shuffled from the seed, the next warp and how far it runs
 * drawn at every step, so that blocks interleave.
 */
static simt_status run_blocks(simt_context *ctx, const struct pending *p, double deadline,
			      struct simt_result *c, SimtCode *code, struct simt_checker *chk,
			      struct slot *slots, unsigned int nslots, uint64_t *cycles)
{
	const SimtLaunch *l = &p->l;
	uint64_t total = (uint64_t)l->grid_dim[0] * l->grid_dim[1] * l->grid_dim[2];
	uint64_t first = p->count ? p->first : 0, count = (p->count ? p->first + p->count : total) - first;
	uint64_t started = 0, done = 0, rng = first_random(ctx->seed), steps = 0, insns = 0;
	uint32_t threads = simt_launch_threads(l), *order = NULL;
	bool random = ctx->schedule == SIMT_SCHEDULE_RANDOM;
	SimtBlockDesc desc = { 0 };
	simt_status st = SIMT_SUCCESS;
	unsigned int s;

	if (random) {
		order = malloc(count * sizeof(*order));
		if (!order)
			return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
		for (started = 0; started < count; started++) {
			uint64_t j = next_random(&rng) % (started + 1);

			order[started] = order[j];
			order[j] = first + started;
		}
		started = 0;
	}
	while (done < count) {
		struct slot *sl;
		uint64_t i;

		for (s = 0; s < nslots && started < count; s++) {
			if (slots[s].busy)
				continue;
			i = order ? order[started] : first + started;
			started++;
			desc.block_idx[0] = i % l->grid_dim[0];
			desc.block_idx[1] = i / l->grid_dim[0] % l->grid_dim[1];
			desc.block_idx[2] = i / l->grid_dim[0] / l->grid_dim[1];
			desc.local_addr = ctx->local_addr + s * threads * l->local_size;
			simt_block_init(&slots[s].b, l, &desc, code, &ctx->smem,
					slots[s].warps, slots[s].shared);
			if (chk)
				simt_checker_attach(chk, &slots[s].b, s);
			slots[s].busy = true;
		}
		do {
			s = random ? next_random(&rng) % nslots : 0;
		} while (!slots[s].busy);
		sl = &slots[s];
		if (random) {
			uint64_t before = sl->b.st.warp_insns;

			simt_warp_run(&sl->b, next_random(&rng) % sl->b.st.nwarps,
				      1 + next_random(&rng) % 64);
			insns += sl->b.st.warp_insns - before;
		} else {
			uint64_t before = sl->b.st.warp_insns;

			simt_block_run(&sl->b, SLICE);
			insns += sl->b.st.warp_insns - before;
		}
		if (deadline && (!random || ++steps % 4096 == 0) && now_s() > deadline) {
			const uint32_t *x = sl->b.st.desc.block_idx;

			st = simt_set_error(SIMT_ERROR_TIMEOUT,
					    "block (%u,%u,%u) still running after %llu warp instructions; %s",
					    x[0], x[1], x[2], (unsigned long long)insns,
					    random ? "the blocks of a wave run interleaved, but a block waiting "
						     "for one of a later wave never ends"
						   : "the host runner runs blocks one after another, so a block "
						     "waiting for a later one never ends");
			break;
		}
		if (sl->b.st.status == SIMT_RUNNING)
			continue;
		*cycles += sl->b.st.cycle;
		sl->busy = false;
		done++;
		if (sl->b.st.status == SIMT_FAULTED) {
			const SimtBlockState *b = &sl->b.st;

			c->status = SIMT_ERROR_FAULT;
			c->hw_error = b->fault;
			c->fault_addr = b->fault_addr;
			c->fault_pc = b->fault_pc;
			st = simt_set_error(SIMT_ERROR_FAULT,
					    "%s at pc 0x%08x, address 0x%08x: block (%u,%u,%u), warp %u, lane %u",
					    simt_fault_name(b->fault), b->fault_pc, b->fault_addr,
					    b->desc.block_idx[0], b->desc.block_idx[1], b->desc.block_idx[2],
					    b->fault_warp, b->fault_lane);
			break;
		}
	}
	free(order);
	return st;
}

/* The name of @m's kernel that starts at @entry. */
static const char *kernel_name_at(const simt_module *m, uint32_t entry)
{
	unsigned int i;

	for (i = 0; i < m->nkernels; i++) {
		if (m->kernels[i].info->m.entry == entry)
			return m->kernels[i].info->name;
	}
	return "(unknown)";
}

/* Run @p: its blocks in the context's order, checked if asked. */
static simt_status run_grid(simt_context *ctx, const struct pending *p, double deadline,
			    struct simt_result *c)
{
	const SimtLaunch *l = &p->l;
	uint64_t total = (uint64_t)l->grid_dim[0] * l->grid_dim[1] * l->grid_dim[2];
	uint64_t blocks = p->count ? p->count : total, cycles = 0;
	unsigned int nslots = 1, s;
	uint32_t threads = simt_launch_threads(l);
	uint64_t need;
	struct launch_env env = { ctx, p->mod, NULL };
	struct simt_check_env check_env = {
		.checks = ctx->checks, .launch = l, .mem = ctx->mem, .mem_size = HOST_VRAM,
		.global_ok = global_ok, .where = where, .opaque = &env,
	};
	struct simt_checker *chk = NULL;
	simt_status st = SIMT_SUCCESS;
	struct slot *slots;
	SimtCode code;

	if (ctx->schedule == SIMT_SCHEDULE_RANDOM)
		nslots = blocks < simt_backend_wave_blocks(ctx) ? blocks : simt_backend_wave_blocks(ctx);
	need = (uint64_t)nslots * threads * l->local_size;
	if (need > ctx->local_size) {
		st = carve(ctx, need, &ctx->local_addr);
		if (st)
			return st;
		ctx->local_size = need;
	}
	if (simt_code_init(&code, l->code_base, l->code_size))
		return simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	code.timing = &host_timing;
	slots = calloc(nslots, sizeof(*slots));
	for (s = 0; slots && s < nslots; s++) {
		slots[s].warps = calloc(simt_launch_warps(l), sizeof(*slots[s].warps));
		slots[s].shared = malloc(l->shared_size ? l->shared_size : 1);
		if (!slots[s].warps || !slots[s].shared)
			break;
	}
	if (ctx->checks) {
		check_env.kernel = kernel_name_at(p->mod, l->entry);
		chk = simt_checker_create(&check_env, nslots);
	}
	if (!slots || s < nslots || (ctx->checks && !chk))
		st = simt_set_error(SIMT_ERROR_OUT_OF_MEMORY, "out of host memory");
	else
		st = run_blocks(ctx, p, deadline, c, &code, chk, slots, nslots, &cycles);
	ctx->findings += simt_checker_destroy(chk);
	for (s = 0; slots && s < nslots; s++) {
		free(slots[s].warps);
		free(slots[s].shared);
	}
	free(slots);
	simt_code_destroy(&code);
	if (st)
		return st;
	/* On the one clock of the host runner: launches one after another. */
	c->start_cycle = ctx->dev->cycle;
	c->end_cycle = ctx->dev->cycle + cycles;
	ctx->dev->cycle += cycles;
	return SIMT_SUCCESS;
}

/* ---- device printf: records printed by guest/libsimt/simt-printf.c ---- */

/* The NUL-terminated string at device address @addr, or NULL. */
static const char *device_string(void *opaque, uint32_t addr)
{
	simt_context *ctx = opaque;
	uint32_t end = 0;
	simt_module *m;

	for (m = ctx->modules; m; m = m->next) {
		if (addr >= m->img.base && addr - m->img.base < m->bytes)
			end = m->img.base + m->bytes;
	}
	if (addr >= FIXED_VA_END && addr < ctx->top)
		end = ctx->top;
	if (!end || !memchr(ctx->mem + addr, 0, end - addr))
		return NULL;
	return (const char *)ctx->mem + addr;
}

simt_status simt_wait(simt_context *ctx, uint64_t seq, int64_t timeout_ns,
		      struct simt_result *c)
{
	struct simt_result local;
	double deadline = 0;
	simt_status st;

	if (!c)
		c = &local;
	memset(c, 0, sizeof(*c));
	if (!ctx || !seq || seq >= ctx->next_seq)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_wait: no such submission");
	if (ctx->failed)
		return simt_set_error(SIMT_ERROR_CONTEXT_FAILED, "the context stopped on an earlier error");
	if (timeout_ns >= 0)
		deadline = now_s() + timeout_ns / 1e9 + 1e-9;
	while (ctx->done_seq < seq) {
		struct pending *p = ctx->queue;

		ctx->queue = p->next;
		if (!ctx->queue)
			ctx->tail = &ctx->queue;
		st = run_grid(ctx, p, deadline, c);
		if (p->mod->printf_addr) {
			simt_printf_print(ctx->mem + p->mod->printf_addr, device_string, ctx);
			memset(ctx->mem + p->mod->printf_addr, 0, 4);	/* emptied */
		}
		ctx->done_seq = p->seq;
		free(p);
		if (st) {
			ctx->failed = 1;
			c->status = st;
			return st;
		}
	}
	return SIMT_SUCCESS;
}

/*
 * Kernels run only inside calls here: a look at a submission that has
 * not run yet runs it (and those before it), as simt_wait does.
 */
simt_status simt_query(simt_context *ctx, uint64_t seq, struct simt_result *c)
{
	return simt_wait(ctx, seq, -1, c);
}

simt_status simt_context_synchronize(simt_context *ctx)
{
	if (!ctx)
		return simt_set_error(SIMT_ERROR_INVALID_VALUE, "simt_context_synchronize: no context");
	return ctx->next_seq > 1 ? simt_wait(ctx, ctx->next_seq - 1, -1, NULL) : SIMT_SUCCESS;
}

/* ---- checkers and block order ---- */

simt_status simt_context_set_checks(simt_context *ctx, unsigned int checks)
{
	const unsigned int all = SIMT_CHECK_MEMCHECK | SIMT_CHECK_RACECHECK | SIMT_CHECK_SYNCCHECK;

	if (!ctx || (checks & ~all))
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				      "simt_context_set_checks: no context, or an unknown check in 0x%x",
				      checks);
	ctx->checks = checks;
	return SIMT_SUCCESS;
}

simt_status simt_context_set_schedule(simt_context *ctx, int schedule, uint64_t seed)
{
	if (!ctx || (schedule != SIMT_SCHEDULE_LINEAR && schedule != SIMT_SCHEDULE_RANDOM))
		return simt_set_error(SIMT_ERROR_INVALID_VALUE,
				      "simt_context_set_schedule: no context, or no schedule %d",
				      schedule);
	ctx->schedule = schedule;
	ctx->seed = seed;
	return SIMT_SUCCESS;
}

uint64_t simt_context_check_findings(const simt_context *ctx)
{
	return ctx ? ctx->findings : 0;
}
