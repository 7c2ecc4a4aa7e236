// SPDX-License-Identifier: MIT
/*
 * helpers.c: what several files of simt-ioctl-test use (ioctl-test.h).
 */
#include "ioctl-test.h"
#include "hw/simt/simt-hw.h"

int fd;

/* ioctl returning 0 or -errno */
int xioctl(int f, unsigned long req, void *arg)
{
	int r;

	do {
		r = ioctl(f, req, arg);
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : 0;
}

int open_node(void)
{
	int f = open(node, O_RDWR | O_CLOEXEC);

	if (f < 0) {
		printf("open %s: %s\n", node, strerror(errno));
		exit(1);
	}
	return f;
}

uint64_t get_param(uint32_t param)
{
	struct drm_simt_get_param p = { .param = param };

	CHECK(xioctl(fd, DRM_IOCTL_SIMT_GET_PARAM, &p) == 0, "GET_PARAM %u", param);
	return p.value;
}

int bo_create(uint64_t size, uint32_t flags, uint32_t *handle)
{
	struct drm_simt_bo_create c = { .size = size, .flags = flags };
	int r = xioctl(fd, DRM_IOCTL_SIMT_BO_CREATE, &c);

	*handle = c.handle;
	return r;
}

uint32_t bo_new(uint64_t size, uint32_t flags)
{
	uint32_t h = 0;
	int r = bo_create(size, flags, &h);

	if (r) {
		printf("BO_CREATE size %llu flags %u: %s\n",
		       (unsigned long long)size, flags, strerror(-r));
		exit(1);
	}
	return h;
}

void bo_close(uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	CHECK(xioctl(fd, DRM_IOCTL_GEM_CLOSE, &c) == 0, "GEM_CLOSE %u", handle);
}

struct drm_simt_bo_info bo_info(uint32_t handle)
{
	struct drm_simt_bo_info i = { .handle = handle };

	CHECK(xioctl(fd, DRM_IOCTL_SIMT_BO_INFO, &i) == 0, "BO_INFO %u", handle);
	return i;
}

uint8_t *bo_map(uint32_t handle, uint64_t size)
{
	struct drm_simt_bo_mmap_offset o = { .handle = handle };
	void *p;

	if (xioctl(fd, DRM_IOCTL_SIMT_BO_MMAP_OFFSET, &o)) {
		printf("BO_MMAP_OFFSET %u: %s\n", handle, strerror(errno));
		exit(1);
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, o.offset);
	if (p == MAP_FAILED) {
		printf("mmap of object %u: %s\n", handle, strerror(errno));
		exit(1);
	}
	return p;
}

uint32_t ctx_new(uint32_t prio)
{
	struct drm_simt_context_create c = { .priority = prio };
	int r = xioctl(fd, DRM_IOCTL_SIMT_CONTEXT_CREATE, &c);

	if (r) {
		printf("CONTEXT_CREATE priority %u: %s\n", prio, strerror(-r));
		exit(1);
	}
	return c.ctx_id;
}

int ctx_destroy(uint32_t id)
{
	struct drm_simt_context_destroy d = { .ctx_id = id };

	return xioctl(fd, DRM_IOCTL_SIMT_CONTEXT_DESTROY, &d);
}

uint64_t bind(uint32_t ctx, uint32_t handle)
{
	struct drm_simt_vm_bind b = { .ctx_id = ctx, .handle = handle };

	CHECK(xioctl(fd, DRM_IOCTL_SIMT_VM_BIND, &b) == 0,
	      "VM_BIND ctx %u handle %u: %s", ctx, handle, strerror(errno));
	return b.device_addr;
}

struct drm_simt_cmd copy_cmd(uint32_t src, uint64_t soff, uint32_t dst,
			     uint64_t doff, uint64_t size)
{
	struct drm_simt_cmd c = {
		.type = DRM_SIMT_CMD_COPY,
		.copy = {
			.src_handle = src, .dst_handle = dst,
			.src_offset = soff, .dst_offset = doff, .size = size,
		},
	};
	return c;
}

int submit(uint32_t ctx, struct drm_simt_cmd *cmds, uint32_t n,
	   uint64_t *seqno)
{
	struct drm_simt_submit s = {
		.ctx_id = ctx, .cmds = (uintptr_t)cmds, .cmd_count = n,
		.cmd_size = sizeof(*cmds),
	};
	int r = xioctl(fd, DRM_IOCTL_SIMT_SUBMIT, &s);

	*seqno = s.seqno;
	return r;
}

int wait_seq(uint32_t ctx, uint64_t seqno, int64_t timeout_ns,
	     struct drm_simt_wait *w)
{
	memset(w, 0, sizeof(*w));
	w->ctx_id = ctx;
	w->seqno = seqno;
	w->timeout_ns = timeout_ns;
	return xioctl(fd, DRM_IOCTL_SIMT_WAIT, w);
}

/* SUBMIT with a syncobj to receive the submission's fence. */
int submit_sync(uint32_t ctx, struct drm_simt_cmd *cmds, uint32_t n,
		uint32_t syncobj, uint64_t *seqno)
{
	struct drm_simt_submit s = {
		.ctx_id = ctx, .cmds = (uintptr_t)cmds, .cmd_count = n,
		.cmd_size = sizeof(*cmds), .syncobj = syncobj,
	};
	int r = xioctl(fd, DRM_IOCTL_SIMT_SUBMIT, &s);

	*seqno = s.seqno;
	return r;
}

uint32_t syncobj_new(void)
{
	struct drm_syncobj_create c = { 0 };

	CHECK(xioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c) == 0 && c.handle,
	      "SYNCOBJ_CREATE: %s", strerror(errno));
	return c.handle;
}

void syncobj_free(uint32_t h)
{
	struct drm_syncobj_destroy d = { .handle = h };

	CHECK(xioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d) == 0, "SYNCOBJ_DESTROY");
}

/* The generic DRM wait on one syncobj, @timeout_ns from now: 0 or -errno. */
int syncobj_wait(uint32_t h, int64_t timeout_ns)
{
	struct timespec ts;
	struct drm_syncobj_wait w = {
		.handles = (uintptr_t)&h, .count_handles = 1,
	};

	clock_gettime(CLOCK_MONOTONIC, &ts);
	w.timeout_nsec = ts.tv_sec * SEC_NS + ts.tv_nsec + timeout_ns;
	return xioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
}

/*
 * The state of a syncobj's fence, through a sync_file: 1 signalled, 0
 * not yet, a negative errno if it signalled an error; -1000 - errno if
 * it cannot be read.
 */
int syncobj_status(uint32_t h)
{
	struct drm_syncobj_handle e = {
		.handle = h,
		.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
		.fd = -1,
	};
	struct sync_file_info info;
	int r;

	r = xioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &e);
	if (r)
		return -1000 + r;
	memset(&info, 0, sizeof(info));
	r = xioctl(e.fd, SYNC_IOC_FILE_INFO, &info);
	close(e.fd);
	return r ? -1000 + r : info.status;
}

/* The same for a sync_file descriptor. */
int sync_file_status(int sf)
{
	struct sync_file_info info;
	int r;

	memset(&info, 0, sizeof(info));
	r = xioctl(sf, SYNC_IOC_FILE_INFO, &info);
	return r ? -1000 + r : info.status;
}

/* poll(2) a sync_file for up to @ms: 1 if it has signalled, else 0. */
int sync_file_poll(int sf, int ms)
{
	struct pollfd p = { .fd = sf, .events = POLLIN };
	int r;

	do {
		r = poll(&p, 1, ms);
	} while (r < 0 && errno == EINTR);
	return r == 1 && (p.revents & POLLIN);
}

/* WAIT on a context of open file @f. */
int wait_on(int f, uint32_t ctx, uint64_t seqno, int64_t timeout_ns,
	    struct drm_simt_wait *w)
{
	memset(w, 0, sizeof(*w));
	w->ctx_id = ctx;
	w->seqno = seqno;
	w->timeout_ns = timeout_ns;
	return xioctl(f, DRM_IOCTL_SIMT_WAIT, w);
}

/*
 * The helpers above work on the global @fd; the tests with several open
 * files switch it.  Returns the previous one.
 */
int use_fd(int f)
{
	int old = fd;

	fd = f;
	return old;
}

int mod_param_get(const char *name, char *buf, size_t len)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), PARAM_DIR "%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int mod_param_set(const char *name, const char *value)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), PARAM_DIR "%s", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ok = fputs(value, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* Keep only @caps, permitted and effective; 0 or -1. */
int caps_set(uint64_t caps)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	d[0].permitted = d[0].effective = (uint32_t)caps;
	d[1].permitted = d[1].effective = (uint32_t)(caps >> 32);
	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

/* A whole small text file (debugfs, fdinfo), NUL-terminated; free it. */
char *read_text(const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;
	int f = open(path, O_RDONLY | O_CLOEXEC);

	if (f < 0 || !buf) {
		free(buf);
		if (f >= 0)
			close(f);
		return NULL;
	}
	while ((n = read(f, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	close(f);
	buf[len] = 0;
	return buf;
}

static const char *const stat_names[ST_NR] = {
	"submissions", "completions", "errors", "timeouts", "resets",
	"bytes_copied", "kernels", "kernel_cycles", "queue_stops", "fair_holds",
};

const char *debugfs_file(const char *name)
{
	static char path[256];
	char pat[128];
	glob_t g;

	snprintf(pat, sizeof(pat), "/sys/kernel/debug/accel/*/%s", name);
	path[0] = 0;
	if (glob(pat, 0, NULL, &g) == 0 && g.gl_pathc == 1)
		snprintf(path, sizeof(path), "%s", g.gl_pathv[0]);
	globfree(&g);
	return path;
}

int stats_read(long long st[ST_NR])
{
	const char *path = debugfs_file("stats");
	char name[64];
	long long v;
	int i, found = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		FAIL("cannot open debugfs stats (%s)", path);
		return -1;
	}
	st[ST_QUEUE_STOPS] = -1;
	st[ST_FAIR_HOLDS] = -1;
	while (fscanf(f, "%63s %lld", name, &v) == 2)
		for (i = 0; i < ST_NR; i++)
			if (!strcmp(name, stat_names[i])) {
				st[i] = v;
				found += i < ST_REQUIRED;
			}
	fclose(f);
	CHECK(found == ST_REQUIRED, "debugfs stats has %d of the %d counters",
	      found, ST_REQUIRED);
	return found == ST_REQUIRED ? 0 : -1;
}

/* Check that each counter moved by exactly @delta (-1: not checked). */
void stats_expect(const char *what, const long long before[ST_NR],
		  const long long delta[ST_NR])
{
	long long now[ST_NR];
	int i;

	if (stats_read(now))
		return;
	for (i = 0; i < ST_NR; i++) {
		if (i == ST_QUEUE_STOPS && delta[i] >= 0 &&
		    (now[i] < 0 || before[i] < 0)) {
			FAIL("%s: debugfs stats has no queue_stops", what);
			continue;
		}
		if (delta[i] >= 0 && now[i] - before[i] != delta[i])
			FAIL("%s: stats %s went from %lld to %lld, expected +%lld",
			     what, stat_names[i], before[i], now[i], delta[i]);
	}
}

/* How many contexts debugfs "contexts" lists with @value in @column. */
int debugfs_ctx_count(const char *column, unsigned long value)
{
	const char *path = debugfs_file("contexts");
	char line[512], *tok, *save;
	int col = -1, i, n = 0;
	FILE *f = fopen(path, "r");

	if (!f || !fgets(line, sizeof(line), f)) {
		FAIL("cannot read debugfs contexts (%s)", path);
		if (f)
			fclose(f);
		return -1;
	}
	for (i = 0, tok = strtok_r(line, " \n", &save); tok;
	     i++, tok = strtok_r(NULL, " \n", &save))
		if (!strcmp(tok, column))
			col = i;
	while (col >= 0 && fgets(line, sizeof(line), f)) {
		for (i = 0, tok = strtok_r(line, " \n", &save); tok && i < col;
		     i++, tok = strtok_r(NULL, " \n", &save))
			;
		if (tok && strtoul(tok, NULL, 0) == value)
			n++;
	}
	fclose(f);
	CHECK(col >= 0, "debugfs contexts has no column %s", column);
	return n;
}

/* Submit and wait; the submission must complete without error. */
uint64_t run(uint32_t ctx, struct drm_simt_cmd *cmds, uint32_t n)
{
	struct drm_simt_wait w;
	uint64_t seq = 0;
	int r;

	r = submit(ctx, cmds, n, &seq);
	CHECK(r == 0, "SUBMIT of %u commands on ctx %u: %s", n, ctx, strerror(-r));
	if (r)
		return 0;
	r = wait_seq(ctx, seq, 10 * SEC_NS, &w);
	CHECK(r == 0 && w.error == DRM_SIMT_ERROR_NONE,
	      "WAIT seqno %llu: %s, error %u hw_error %u",
	      (unsigned long long)seq, strerror(-r), w.error, w.hw_error);
	return seq;
}

/* The byte pattern the tests fill buffers with. */
uint8_t pat(uint64_t i, unsigned int seed)
{
	uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull + seed * 0x632be59bd9b4e019ull;

	return (uint8_t)(x >> 56);
}

void fill(uint8_t *p, uint64_t size, unsigned int seed)
{
	uint64_t i;

	for (i = 0; i < size; i++)
		p[i] = pat(i, seed);
}

/* Compare; report the first difference. */
int same(const char *what, const uint8_t *got, const uint8_t *want,
	 uint64_t size)
{
	uint64_t i;

	for (i = 0; i < size; i++) {
		if (got[i] != want[i]) {
			FAIL("%s: byte %llu is 0x%02x, expected 0x%02x",
			     what, (unsigned long long)i, got[i], want[i]);
			return 0;
		}
	}
	return 1;
}

/* CONTEXT_CREATE on open file @f: 0 or -errno. */
int ctx_create_on(int f, uint32_t prio, uint32_t *id)
{
	struct drm_simt_context_create c = { .priority = prio };
	int r = xioctl(f, DRM_IOCTL_SIMT_CONTEXT_CREATE, &c);

	*id = c.ctx_id;
	return r;
}

int popcount32(uint32_t x)
{
	return __builtin_popcount(x);
}

/*
 * The LAUNCH metadata of 0.3: put @img's live table into a VRAM object
 * bound in @ctx and point @cmd (a launch of kernel @name of @img) at the
 * masks of its code, with the registers the kernel uses.  Returns the
 * object (0 on failure, reported).
 */
uint32_t live_upload(const struct simt_image *img, const char *name,
		     uint32_t ctx, struct drm_simt_cmd *cmd)
{
	const struct simt_meta *me = &img->meta;
	const struct simt_kernel_info *k = simt_image_kernel(img, name);
	uint64_t bytes = ((uint64_t)me->nlive * 8 + 4095) & ~4095ull;
	uint32_t h, addr;
	uint8_t *m;

	if (!img->has_meta || !k || !me->nlive ||
	    cmd->launch.code_addr < me->h.code_start ||
	    cmd->launch.code_addr + cmd->launch.code_size > me->h.code_end) {
		FAIL("%s: no live table for its code", name);
		return 0;
	}
	h = bo_new(bytes, DRM_SIMT_BO_VRAM);
	m = bo_map(h, bytes);
	memcpy(m, me->live, (size_t)me->nlive * 8);	/* little-endian both */
	munmap(m, bytes);
	addr = bind(ctx, h);
	cmd->launch.live_addr = addr + (cmd->launch.code_addr - me->h.code_start) / 4 * 8;
	cmd->launch.int_regs = k->m.int_regs_used;
	cmd->launch.fp_regs = k->m.fp_regs_used;
	return h;
}

/* Load KERNEL_DIR/@file into VRAM and bind it at its link address. */
/*
 * A new object of @flags (DRM_SIMT_BO_VRAM or _SYSTEM) holding @img's
 * bytes, filled through its mapping and bound in @ctx at the image's
 * link address; its handle.
 */
uint32_t image_bo(const struct simt_image *img, uint32_t ctx, uint32_t flags)
{
	uint64_t bytes = (img->size + 4095) & ~4095ull;
	uint32_t code = bo_new(bytes, flags);
	uint8_t *m = bo_map(code, bytes);
	struct drm_simt_vm_bind b = { .ctx_id = ctx, .handle = code,
		.flags = DRM_SIMT_VM_BIND_FIXED, .device_addr = img->base };

	memcpy(m, img->bytes, img->size);
	munmap(m, bytes);
	EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, 0);
	return code;
}

int kimg_load(struct kimg *ki, const char *file, uint32_t ctx)
{
	char path[256], err[256];

	snprintf(path, sizeof(path), KERNEL_DIR "/%s", file);
	if (simt_image_load(&ki->img, path, err, sizeof(err))) {
		FAIL("cannot load %s: %s", path, err);
		return -1;
	}
	ki->ctx = ctx;
	ki->code = image_bo(&ki->img, ctx, DRM_SIMT_BO_VRAM);
	return 0;
}

/* Unbind first: the binding, not the handle, holds the link address. */
void kimg_free(struct kimg *ki)
{
	struct drm_simt_vm_unbind u = { .ctx_id = ki->ctx, .handle = ki->code };

	EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, 0);
	bo_close(ki->code);
	simt_image_free(&ki->img);
}

/*
 * The LAUNCH of kernel @k of @img: @grid blocks of @block threads, with
 * @args, its local memory (if it needs any) at @local_base.  The one
 * place that fills struct drm_simt_cmd_launch.
 */
struct drm_simt_cmd launch_cmd(const struct simt_image *img,
			       const struct simt_kernel_info *k,
			       const uint32_t grid[3], const uint32_t block[3],
			       const uint32_t args[8], uint32_t local_base)
{
	struct drm_simt_cmd cmd;

	memset(&cmd, 0, sizeof(cmd));
	cmd.type = DRM_SIMT_CMD_LAUNCH;
	cmd.launch.code_addr = img->code_start;
	cmd.launch.code_size = img->code_end - img->code_start;
	cmd.launch.entry = k->m.entry;
	memcpy(cmd.launch.grid, grid, sizeof(cmd.launch.grid));
	memcpy(cmd.launch.block, block, sizeof(cmd.launch.block));
	cmd.launch.shared_size = k->m.shared_bytes;
	cmd.launch.local_size = k->m.local_bytes;
	cmd.launch.regs = popcount32(k->m.int_regs_used) +
			  popcount32(k->m.fp_regs_used);
	cmd.launch.local_base = local_base;
	memcpy(cmd.launch.args, args, sizeof(cmd.launch.args));
	return cmd;
}

/*
 * A launch of kernel @name of @ki with @args in @cmd; local memory, if the
 * kernel needs any, is a new object bound in @ctx, returned in @local.
 */
int kimg_cmd(struct kimg *ki, uint32_t ctx, const char *name,
	     const uint32_t grid[3], const uint32_t block[3],
	     const uint32_t args[8], struct drm_simt_cmd *cmd,
	     uint32_t *local)
{
	const struct simt_kernel_info *k = simt_image_kernel(&ki->img, name);
	uint32_t threads = block[0] * block[1] * block[2];
	uint32_t local_base = 0;

	*local = 0;
	CHECK(k != NULL, "no kernel %s in the image", name);
	if (!k)
		return -1;
	if (k->m.local_bytes) {
		*local = bo_new((uint64_t)k->m.local_bytes * threads *
				get_param(DRM_SIMT_PARAM_SM_COUNT) *
				get_param(DRM_SIMT_PARAM_SM_BLOCKS),
				DRM_SIMT_BO_VRAM);
		local_base = bind(ctx, *local);
	}
	*cmd = launch_cmd(&ki->img, k, grid, block, args, local_base);
	return 0;
}

/* Run kernel @name of @ki with @args, and wait; 0 if it completed. */
int kimg_run(struct kimg *ki, uint32_t ctx, const char *name,
	     const uint32_t grid[3], const uint32_t block[3],
	     const uint32_t args[8])
{
	struct drm_simt_cmd cmd;
	int before = failures;
	uint32_t hl;

	if (kimg_cmd(ki, ctx, name, grid, block, args, &cmd, &hl))
		return -1;
	run(ctx, &cmd, 1);
	if (hl) {
		struct drm_simt_vm_unbind u = { .ctx_id = ctx, .handle = hl };

		EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, 0);
		bo_close(hl);
	}
	return failures == before ? 0 : -1;
}

/* A bound VRAM object of @bytes, mapped; its device address in @addr. */
void *vbuf(uint32_t ctx, uint64_t bytes, uint32_t *handle,
	   uint32_t *addr)
{
	*handle = bo_new(bytes, DRM_SIMT_BO_VRAM);
	*addr = bind(ctx, *handle);
	return bo_map(*handle, bytes);
}

/* What the spin kernel computes for thread @i. */
uint32_t spin_ref(uint32_t i, uint32_t iters)
{
	uint32_t x = i * 2654435761u + 1;

	for (uint32_t k = 0; k < iters; k++) {
		x = x * 1664525u + 1013904223u;
		x ^= x >> 13;
	}
	return x;
}

/* A launch of @kernel (spin or spin_held) of @blocks x @threads in @ctx. */
static int spin_kernel_setup(struct spinjob *j, const char *kernel, uint32_t ctx,
			     uint32_t blocks, uint32_t threads, uint32_t iters)
{
	const uint32_t grid[3] = { blocks, 1, 1 }, block[3] = { threads, 1, 1 };
	uint32_t args[8] = { 0, iters };
	int held = !strcmp(kernel, "spin_held");

	memset(j, 0, sizeof(*j));
	j->ctx = ctx;
	j->n = blocks * threads;
	j->iters = iters;
	j->blocks = blocks;
	if (kimg_load(&j->ki, "samples.elf", ctx))
		return -1;
	j->loaded = 1;
	j->m = vbuf(ctx, j->n * 4 + (held ? 8 : 0), &j->hout, &j->out);
	args[0] = j->out;
	if (held) {
		j->gate = j->m + j->n;
		j->gate[0] = j->gate[1] = 0;
		args[2] = j->out + j->n * 4;
	}
	return kimg_cmd(&j->ki, ctx, kernel, grid, block, args, &j->cmd, &j->hl);
}

int spin_setup(struct spinjob *j, uint32_t ctx, uint32_t blocks,
	       uint32_t threads, uint32_t iters)
{
	return spin_kernel_setup(j, "spin", ctx, blocks, threads, iters);
}

/*
 * spin_held: spin that ends only once spin_release() opened its gate, so
 * that it is still running when what the test waits for has happened,
 * however fast the host.
 */
int spin_held_setup(struct spinjob *j, uint32_t ctx, uint32_t blocks,
		    uint32_t threads, uint32_t iters)
{
	return spin_kernel_setup(j, "spin_held", ctx, blocks, threads, iters);
}

/*
 * Wait until @blocks blocks of the held launch @j have started (its gate
 * counts their threads; a block restarted by a flush counts again).  The
 * deadline only stops a test whose launch never runs: -1 after 60 s.
 */
int spin_resident(struct spinjob *j, uint32_t blocks)
{
	uint32_t threads = blocks * (j->n / j->blocks);
	double t0 = now_s();

	while (j->gate[1] < threads) {
		if (now_s() - t0 > 60) {
			FAIL("spin_held: %u of the %u threads of %u blocks started in 60 s",
			     j->gate[1], threads, blocks);
			return -1;
		}
		usleep(100);
	}
	return 0;
}

/* Open the gate of the held launch @j: its blocks store and end. */
void spin_release(struct spinjob *j)
{
	j->gate[0] = 1;
	__sync_synchronize();
}

/* How many outputs (every @step-th) differ from what spin computes. */
uint32_t spin_wrong(const struct spinjob *j, uint32_t step)
{
	uint32_t i, bad = 0;

	for (i = 0; i < j->n; i += step)
		if (j->m[i] != spin_ref(i, j->iters)) {
			if (!bad)
				printf("spin: out[%u] = 0x%x, expected 0x%x\n", i,
				       j->m[i], spin_ref(i, j->iters));
			bad++;
		}
	return bad;
}

/* Free what spin_setup made; @ctx_alive: its context still exists. */
void spin_free(struct spinjob *j, int ctx_alive)
{
	if (!j->loaded)
		return;
	if (j->m)
		munmap(j->m, j->n * 4 + (j->gate ? 8 : 0));
	if (j->hout)
		bo_close(j->hout);
	if (j->hl)
		bo_close(j->hl);
	if (ctx_alive) {
		kimg_free(&j->ki);
	} else {
		bo_close(j->ki.code);
		simt_image_free(&j->ki.img);
	}
	j->loaded = 0;
}

/* SUBMIT with every 0.3 field; 0 or -errno. */
int submit_x(int f, uint32_t ctx, struct drm_simt_cmd *cmds, uint32_t n,
	     uint32_t flags, const struct drm_simt_sync *in, uint32_t nin,
	     uint32_t syncobj, uint64_t point, uint64_t *seqno, int *fence_fd)
{
	struct drm_simt_submit s = {
		.ctx_id = ctx, .flags = flags, .cmds = (uintptr_t)cmds,
		.cmd_count = n, .cmd_size = sizeof(*cmds), .syncobj = syncobj,
		.syncobj_point = point, .in_syncs = (uintptr_t)in,
		.in_sync_count = nin,
	};
	int r = xioctl(f, DRM_IOCTL_SIMT_SUBMIT, &s);

	*seqno = s.seqno;
	if (fence_fd)
		*fence_fd = s.fence_fd;
	return r;
}

static char saved_timeout[32];

/* Lower the job timeout for a test; test_restore_timeout() puts it back. */
int test_set_timeout(const char *ms)
{
	if (mod_param_get("job_timeout_ms", saved_timeout, sizeof(saved_timeout))) {
		FAIL("cannot read " PARAM_DIR "job_timeout_ms");
		return -1;
	}
	CHECK(strcmp(saved_timeout, "10000") == 0, "job_timeout_ms was %s, not 10000",
	      saved_timeout);
	if (mod_param_set("job_timeout_ms", ms)) {
		FAIL("cannot write " PARAM_DIR "job_timeout_ms");
		return -1;
	}
	printf("job_timeout_ms %s -> %s\n", saved_timeout, ms);
	return 0;
}

void test_restore_timeout(void)
{
	CHECK(mod_param_set("job_timeout_ms", saved_timeout) == 0,
	      "cannot restore " PARAM_DIR "job_timeout_ms");
}

/* The value of @key in the fdinfo of @f (without the tab); 0 or -1. */
int fdinfo_get(int f, const char *key, char *val, size_t len)
{
	char path[64], *text, *p, *e;
	size_t kl = strlen(key);

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", f);
	text = read_text(path);
	if (!text)
		return -1;
	for (p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, key, kl) && p[kl] == ':') {
			p += kl + 1;
			p += strspn(p, " \t");
			e = strchr(p, '\n');
			if (e)
				*e = 0;
			snprintf(val, len, "%s", p);
			free(text);
			return 0;
		}
	}
	free(text);
	return -1;
}

/* A number of @key, with its unit ("ns", "MHz", "KiB", "MiB", none) checked. */
long long fdinfo_num(int f, const char *key, const char *unit)
{
	char val[128], u[16] = "";
	long long v;
	int k;

	if (fdinfo_get(f, key, val, sizeof(val))) {
		FAIL("fdinfo has no %s", key);
		return -1;
	}
	k = sscanf(val, "%lld %15s", &v, u);
	if (k < 1) {
		FAIL("fdinfo %s: '%s'", key, val);
		return -1;
	}
	if (unit) {
		CHECK(!strcmp(u, unit), "fdinfo %s: '%s', expected unit %s", key, val, unit);
		return v;
	}
	/* a size */
	if (!strcmp(u, "KiB"))
		return v << 10;
	if (!strcmp(u, "MiB"))
		return v << 20;
	CHECK(k == 1, "fdinfo %s: '%s' is not a size", key, val);
	return v;
}

int fence_names(int sf, struct fence_names *n)
{
	struct sync_fence_info fi;
	struct sync_file_info info;
	int r;

	memset(&info, 0, sizeof(info));
	memset(&fi, 0, sizeof(fi));
	info.num_fences = 1;
	info.sync_fence_info = (uintptr_t)&fi;
	r = xioctl(sf, SYNC_IOC_FILE_INFO, &info);
	if (r)
		return r;
	memcpy(n->obj, fi.obj_name, sizeof(n->obj));
	memcpy(n->driver, fi.driver_name, sizeof(n->driver));
	n->obj[31] = n->driver[31] = 0;
	n->status = fi.status;
	return 0;
}

int sysfs_write(const char *path, const char *text)
{
	int f = open(path, O_WRONLY), r = 0;

	if (f < 0)
		return -errno;
	if (write(f, text, strlen(text)) < 0)
		r = -errno;
	close(f);
	return r;
}

/*
 * The device's LAUNCH (include/hw/simt/simt-hw.h) for the launch of
 * SUBMIT's @cmd, as a user queue's ring takes it.
 */
void hw_launch(const struct drm_simt_cmd *cmd, struct simt_cmd_launch *c)
{
	const struct drm_simt_cmd_launch *l = &cmd->launch;

	memset(c, 0, sizeof(*c));
	c->opcode = SIMT_CMD_LAUNCH;
	c->code_addr = l->code_addr;
	c->code_size = l->code_size;
	c->entry = l->entry;
	memcpy(c->grid, l->grid, sizeof(c->grid));
	memcpy(c->block, l->block, sizeof(c->block));
	c->shared_size = l->shared_size;
	c->local_size = l->local_size;
	c->regs = l->regs;
	c->local_base = l->local_base;
	memcpy(c->args, l->args, sizeof(c->args));
}
