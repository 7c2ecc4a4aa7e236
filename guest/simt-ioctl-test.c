// SPDX-License-Identifier: MIT
/*
 * simt-ioctl-test: exercises the simt driver's ioctls from userspace, the
 * good paths and the bad arguments, and checks every byte the device
 * copies against what this program computes.  Built static by
 * scripts/guest-build.sh; run by guest/simt-test.sh, one group per call:
 *
 *   simt-ioctl-test GROUP [NODE]
 *
 * Groups: bo, ctx, bind, copy, submit-bad, fault, launch, samples,
 * sysmem, syncobj, stats, hang, multi, responsive, and hold (for the unbind test:
 * see test_hold()).  Prints what it does and
 * a line per failed check; exit status 0 if every check passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include <drm/drm.h>
#include <drm/simt_accel.h>

#include "simt-elf.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define SEC_NS 1000000000ll

static const char *node = "/dev/accel/accel0";
static int fd;
static int failures;

static void fail(int line, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL line %d: ", line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failures++;
}

#define CHECK(cond, ...) do { if (!(cond)) fail(__LINE__, __VA_ARGS__); } while (0)

/* ioctl returning 0 or -errno */
static int xioctl(int f, unsigned long req, void *arg)
{
	int r;

	do {
		r = ioctl(f, req, arg);
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : 0;
}

/* An ioctl that must fail with errno @err (0: must succeed). */
#define EXPECT(req, arg, err) do { \
	int r_ = xioctl(fd, req, arg); \
	if (r_ != -(err)) \
		fail(__LINE__, "%s(%s): got %d (%s), expected %d (%s)", #req, \
		     #arg, r_, strerror(-r_), -(err), strerror(err)); \
} while (0)

static int open_node(void)
{
	int f = open(node, O_RDWR | O_CLOEXEC);

	if (f < 0) {
		printf("open %s: %s\n", node, strerror(errno));
		exit(1);
	}
	return f;
}

static uint64_t get_param(uint32_t param)
{
	struct drm_simt_get_param p = { .param = param };

	CHECK(xioctl(fd, DRM_IOCTL_SIMT_GET_PARAM, &p) == 0, "GET_PARAM %u", param);
	return p.value;
}

static int bo_create(uint64_t size, uint32_t flags, uint32_t *handle)
{
	struct drm_simt_bo_create c = { .size = size, .flags = flags };
	int r = xioctl(fd, DRM_IOCTL_SIMT_BO_CREATE, &c);

	*handle = c.handle;
	return r;
}

static uint32_t bo_new(uint64_t size, uint32_t flags)
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

static void bo_close(uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	CHECK(xioctl(fd, DRM_IOCTL_GEM_CLOSE, &c) == 0, "GEM_CLOSE %u", handle);
}

static struct drm_simt_bo_info bo_info(uint32_t handle)
{
	struct drm_simt_bo_info i = { .handle = handle };

	CHECK(xioctl(fd, DRM_IOCTL_SIMT_BO_INFO, &i) == 0, "BO_INFO %u", handle);
	return i;
}

static uint8_t *bo_map(uint32_t handle, uint64_t size)
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

static uint32_t ctx_new(uint32_t prio)
{
	struct drm_simt_context_create c = { .priority = prio };
	int r = xioctl(fd, DRM_IOCTL_SIMT_CONTEXT_CREATE, &c);

	if (r) {
		printf("CONTEXT_CREATE priority %u: %s\n", prio, strerror(-r));
		exit(1);
	}
	return c.ctx_id;
}

static int ctx_destroy(uint32_t id)
{
	struct drm_simt_context_destroy d = { .ctx_id = id };

	return xioctl(fd, DRM_IOCTL_SIMT_CONTEXT_DESTROY, &d);
}

static uint64_t bind(uint32_t ctx, uint32_t handle)
{
	struct drm_simt_vm_bind b = { .ctx_id = ctx, .handle = handle };

	CHECK(xioctl(fd, DRM_IOCTL_SIMT_VM_BIND, &b) == 0,
	      "VM_BIND ctx %u handle %u: %s", ctx, handle, strerror(errno));
	return b.device_addr;
}

static struct drm_simt_cmd copy_cmd(uint32_t src, uint64_t soff, uint32_t dst,
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

static int submit(uint32_t ctx, struct drm_simt_cmd *cmds, uint32_t n,
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

static int wait_seq(uint32_t ctx, uint64_t seqno, int64_t timeout_ns,
		    struct drm_simt_wait *w)
{
	memset(w, 0, sizeof(*w));
	w->ctx_id = ctx;
	w->seqno = seqno;
	w->timeout_ns = timeout_ns;
	return xioctl(fd, DRM_IOCTL_SIMT_WAIT, w);
}

/* SUBMIT with a syncobj to receive the submission's fence. */
static int submit_sync(uint32_t ctx, struct drm_simt_cmd *cmds, uint32_t n,
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

static uint32_t syncobj_new(void)
{
	struct drm_syncobj_create c = { 0 };

	CHECK(xioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c) == 0 && c.handle,
	      "SYNCOBJ_CREATE: %s", strerror(errno));
	return c.handle;
}

static void syncobj_free(uint32_t h)
{
	struct drm_syncobj_destroy d = { .handle = h };

	CHECK(xioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d) == 0, "SYNCOBJ_DESTROY");
}

/* The generic DRM wait on one syncobj, @timeout_ns from now: 0 or -errno. */
static int syncobj_wait(uint32_t h, int64_t timeout_ns)
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
static int syncobj_status(uint32_t h)
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

/* The driver's counters (debugfs stats). */
enum { ST_SUBMISSIONS, ST_COMPLETIONS, ST_ERRORS, ST_TIMEOUTS, ST_RESETS,
       ST_BYTES, ST_KERNELS, ST_CYCLES, ST_NR };
static const char *const stat_names[ST_NR] = {
	"submissions", "completions", "errors", "timeouts", "resets",
	"bytes_copied", "kernels", "kernel_cycles",
};

static const char *debugfs_file(const char *name)
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

static int stats_read(long long st[ST_NR])
{
	const char *path = debugfs_file("stats");
	char name[64];
	long long v;
	int i, found = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		fail(__LINE__, "cannot open debugfs stats (%s)", path);
		return -1;
	}
	while (fscanf(f, "%63s %lld", name, &v) == 2)
		for (i = 0; i < ST_NR; i++)
			if (!strcmp(name, stat_names[i])) {
				st[i] = v;
				found++;
			}
	fclose(f);
	CHECK(found == ST_NR, "debugfs stats has %d of the %d counters", found, ST_NR);
	return found == ST_NR ? 0 : -1;
}

/* Check that each counter moved by exactly @delta (-1: not checked). */
static void stats_expect(const char *what, const long long before[ST_NR],
			 const long long delta[ST_NR])
{
	long long now[ST_NR];
	int i;

	if (stats_read(now))
		return;
	for (i = 0; i < ST_NR; i++) {
		if (delta[i] >= 0 && now[i] - before[i] != delta[i])
			fail(__LINE__, "%s: stats %s went from %lld to %lld, expected +%lld",
			     what, stat_names[i], before[i], now[i], delta[i]);
	}
}

/* How many contexts debugfs "contexts" lists with @value in @column. */
static int debugfs_ctx_count(const char *column, unsigned long value)
{
	const char *path = debugfs_file("contexts");
	char line[512], *tok, *save;
	int col = -1, i, n = 0;
	FILE *f = fopen(path, "r");

	if (!f || !fgets(line, sizeof(line), f)) {
		fail(__LINE__, "cannot read debugfs contexts (%s)", path);
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
static uint64_t run(uint32_t ctx, struct drm_simt_cmd *cmds, uint32_t n)
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
static uint8_t pat(uint64_t i, unsigned int seed)
{
	uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull + seed * 0x632be59bd9b4e019ull;

	return (uint8_t)(x >> 56);
}

static void fill(uint8_t *p, uint64_t size, unsigned int seed)
{
	uint64_t i;

	for (i = 0; i < size; i++)
		p[i] = pat(i, seed);
}

/* Compare; report the first difference. */
static int same(const char *what, const uint8_t *got, const uint8_t *want,
		uint64_t size)
{
	uint64_t i;

	for (i = 0; i < size; i++) {
		if (got[i] != want[i]) {
			fail(__LINE__, "%s: byte %llu is 0x%02x, expected 0x%02x",
			     what, (unsigned long long)i, got[i], want[i]);
			return 0;
		}
	}
	return 1;
}

static int all_zero(const uint8_t *p, uint64_t size)
{
	uint64_t i;

	for (i = 0; i < size; i++)
		if (p[i])
			return 0;
	return 1;
}

/* ---- bo: creation, info, mmap, zeroing, bad arguments ---- */

static void test_bo_kind(uint32_t flags, const char *name)
{
	const uint64_t req = (1 << 20) + 123, size = (1 << 20) + 4096;
	struct drm_simt_bo_info info;
	uint32_t h, h2;
	uint8_t *p, *want;

	h = bo_new(req, flags);
	info = bo_info(h);
	printf("%s object: handle %u size %llu device_addr 0x%llx\n", name, h,
	       (unsigned long long)info.size, (unsigned long long)info.device_addr);
	CHECK(info.flags == flags, "%s: BO_INFO flags %u", name, info.flags);
	CHECK(info.size == size, "%s: size %llu, expected %llu", name,
	      (unsigned long long)info.size, (unsigned long long)size);
	if (flags == DRM_SIMT_BO_VRAM)
		CHECK(info.device_addr && !(info.device_addr & 4095) &&
		      info.device_addr + size <= get_param(DRM_SIMT_PARAM_VRAM_SIZE),
		      "%s: device address 0x%llx", name,
		      (unsigned long long)info.device_addr);
	else
		/* Above VRAM, below the shared and local windows (since 0.2). */
		CHECK(info.device_addr && !(info.device_addr & 4095) &&
		      info.device_addr >= get_param(DRM_SIMT_PARAM_VRAM_SIZE) &&
		      info.device_addr + size <= 0xc0000000ull,
		      "%s: device address 0x%llx", name,
		      (unsigned long long)info.device_addr);

	p = bo_map(h, size);
	CHECK(all_zero(p, size), "%s: a new object is not zero", name);
	fill(p, size, 1);
	munmap(p, size);

	/* A second mapping sees what the first wrote. */
	want = malloc(size);
	fill(want, size, 1);
	p = bo_map(h, size);
	same(name, p, want, size);
	munmap(p, size);

	/* Mapping more than the object is refused. */
	{
		struct drm_simt_bo_mmap_offset o = { .handle = h };

		CHECK(xioctl(fd, DRM_IOCTL_SIMT_BO_MMAP_OFFSET, &o) == 0, "offset");
		CHECK(mmap(NULL, size + 4096, PROT_READ, MAP_SHARED, fd, o.offset) ==
		      MAP_FAILED, "%s: mmap past the end succeeded", name);
		if (flags == DRM_SIMT_BO_VRAM)
			CHECK(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE,
				   fd, o.offset) == MAP_FAILED,
			      "%s: private mapping of VRAM succeeded", name);
	}

	/* The memory of a freed object comes back zeroed. */
	bo_close(h);
	h2 = bo_new(size, flags);
	p = bo_map(h2, size);
	CHECK(all_zero(p, size), "%s: a reused object is not zero", name);
	munmap(p, size);
	bo_close(h2);
	free(want);
	printf("%s: create, info, mmap, write, read back, zero on reuse: done\n", name);
}

static void test_bo(void)
{
	uint64_t vram = get_param(DRM_SIMT_PARAM_VRAM_SIZE);
	struct drm_simt_bo_create c;
	struct drm_simt_bo_info i;
	struct drm_simt_bo_mmap_offset o;
	struct drm_gem_close gc;
	uint32_t h, big;

	test_bo_kind(DRM_SIMT_BO_VRAM, "VRAM");
	test_bo_kind(DRM_SIMT_BO_SYSTEM, "system");

	c = (struct drm_simt_bo_create){ .size = 4096 };
	EXPECT(DRM_IOCTL_SIMT_BO_CREATE, &c, EINVAL);		/* no placement */
	c.flags = DRM_SIMT_BO_VRAM | DRM_SIMT_BO_SYSTEM;
	EXPECT(DRM_IOCTL_SIMT_BO_CREATE, &c, EINVAL);		/* both */
	c.flags = 1u << 7;
	EXPECT(DRM_IOCTL_SIMT_BO_CREATE, &c, EINVAL);		/* unknown */
	c = (struct drm_simt_bo_create){ .size = 0, .flags = DRM_SIMT_BO_VRAM };
	EXPECT(DRM_IOCTL_SIMT_BO_CREATE, &c, EINVAL);
	c.size = ~0ull;						/* rounding overflows */
	EXPECT(DRM_IOCTL_SIMT_BO_CREATE, &c, E2BIG);
	c.size = vram;						/* more than exists */
	EXPECT(DRM_IOCTL_SIMT_BO_CREATE, &c, E2BIG);
	c = (struct drm_simt_bo_create){ .size = 1ull << 50, .flags = DRM_SIMT_BO_SYSTEM };
	EXPECT(DRM_IOCTL_SIMT_BO_CREATE, &c, E2BIG);

	/* Two objects of 3/4 of VRAM cannot both fit. */
	big = bo_new(vram / 4 * 3, DRM_SIMT_BO_VRAM);
	CHECK(bo_create(vram / 4 * 3, DRM_SIMT_BO_VRAM, &h) == -ENOMEM,
	      "a second 3/4-of-VRAM object was not refused with ENOMEM");
	bo_close(big);
	h = bo_new(vram / 4 * 3, DRM_SIMT_BO_VRAM);	/* freed: fits again */
	bo_close(h);

	i = (struct drm_simt_bo_info){ .handle = 0 };
	EXPECT(DRM_IOCTL_SIMT_BO_INFO, &i, ENOENT);
	i.handle = 999999;
	EXPECT(DRM_IOCTL_SIMT_BO_INFO, &i, ENOENT);
	o = (struct drm_simt_bo_mmap_offset){ .handle = 999999 };
	EXPECT(DRM_IOCTL_SIMT_BO_MMAP_OFFSET, &o, ENOENT);
	h = bo_new(4096, DRM_SIMT_BO_VRAM);
	o = (struct drm_simt_bo_mmap_offset){ .handle = h, .pad = 1 };
	EXPECT(DRM_IOCTL_SIMT_BO_MMAP_OFFSET, &o, EINVAL);
	bo_close(h);
	i.handle = h;						/* closed */
	EXPECT(DRM_IOCTL_SIMT_BO_INFO, &i, ENOENT);
	gc = (struct drm_gem_close){ .handle = h };
	EXPECT(DRM_IOCTL_GEM_CLOSE, &gc, EINVAL);
	printf("bad arguments refused\n");
}

/* ---- ctx: create, destroy, priorities, limits, per-file ids ---- */

static void test_ctx(void)
{
	uint32_t max = get_param(DRM_SIMT_PARAM_MAX_CONTEXTS);
	struct drm_simt_context_create c;
	struct drm_simt_context_destroy d;
	uint32_t ids[64], id, prio;
	unsigned int i;
	int f2, status;
	pid_t pid;

	printf("the device holds %u contexts\n", max);
	CHECK(max >= 1 && max <= 64, "MAX_CONTEXTS %u", max);

	for (prio = DRM_SIMT_PRIORITY_LOW; prio <= DRM_SIMT_PRIORITY_REALTIME; prio++) {
		id = ctx_new(prio);
		CHECK(id != 0, "context id 0");
		CHECK(ctx_destroy(id) == 0, "destroy %u", id);
		CHECK(ctx_destroy(id) == -ENOENT, "second destroy of %u", id);
	}

	c = (struct drm_simt_context_create){ .priority = 4 };
	EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, EINVAL);
	c = (struct drm_simt_context_create){ .flags = 1 };
	EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, EINVAL);
	c = (struct drm_simt_context_create){ .preempt_mode = 7 };
	EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, EINVAL);
	/* A valid mode is kept with the context (debugfs contexts shows it). */
	c = (struct drm_simt_context_create){ .preempt_mode = DRM_SIMT_PREEMPT_AUTO };
	EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, 0);
	CHECK(debugfs_ctx_count("preempt", DRM_SIMT_PREEMPT_AUTO) == 1,
	      "debugfs contexts does not show one context in preemption mode %u",
	      DRM_SIMT_PREEMPT_AUTO);
	CHECK(ctx_destroy(c.ctx_id) == 0, "destroy");
	d = (struct drm_simt_context_destroy){ .ctx_id = 0 };
	EXPECT(DRM_IOCTL_SIMT_CONTEXT_DESTROY, &d, ENOENT);
	d.ctx_id = 12345;
	EXPECT(DRM_IOCTL_SIMT_CONTEXT_DESTROY, &d, ENOENT);
	id = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	d = (struct drm_simt_context_destroy){ .ctx_id = id, .pad = 1 };
	EXPECT(DRM_IOCTL_SIMT_CONTEXT_DESTROY, &d, EINVAL);

	/* Ids belong to their file. */
	f2 = open_node();
	d = (struct drm_simt_context_destroy){ .ctx_id = id };
	CHECK(xioctl(f2, DRM_IOCTL_SIMT_CONTEXT_DESTROY, &d) == -ENOENT,
	      "another file destroyed context %u", id);
	close(f2);
	CHECK(ctx_destroy(id) == 0, "destroy %u", id);

	/* The device's limit, then ENOSPC; destroying frees the slots. */
	for (i = 0; i < max; i++)
		ids[i] = ctx_new(i % 4 == 3 ? DRM_SIMT_PRIORITY_HIGH : i % 4);
	c = (struct drm_simt_context_create){ .priority = 1 };
	EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, ENOSPC);
	for (i = 0; i < max; i++)
		CHECK(ctx_destroy(ids[i]) == 0, "destroy %u", ids[i]);
	for (i = 0; i < max; i++)
		ids[i] = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	printf("%u contexts created, one more refused with ENOSPC, all again after destroying\n",
	       max);

	/* Closing the file destroys its contexts. */
	f2 = fd;
	fd = open_node();
	close(f2);
	for (i = 0; i < max; i++)
		ids[i] = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	for (i = 0; i < max; i++)
		CHECK(ctx_destroy(ids[i]) == 0, "destroy %u", ids[i]);
	printf("closing a file with %u contexts frees them\n", max);

	/* Realtime needs CAP_SYS_NICE: an unprivileged user gets EACCES. */
	pid = fork();
	if (pid == 0) {
		if (setgid(65534) || setuid(65534)) {
			printf("cannot drop privileges: %s\n", strerror(errno));
			_exit(1);
		}
		c = (struct drm_simt_context_create){ .priority = DRM_SIMT_PRIORITY_REALTIME };
		EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, EACCES);
		c = (struct drm_simt_context_create){ .priority = DRM_SIMT_PRIORITY_HIGH };
		EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, 0);
		_exit(failures ? 1 : 0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "unprivileged priorities");
	printf("realtime priority refused to an unprivileged user (EACCES)\n");
}

/* ---- bind: VM_BIND / VM_UNBIND ---- */

static void test_bind(void)
{
	struct drm_simt_vm_bind b;
	struct drm_simt_vm_unbind u;
	uint32_t c1, c2, v, s;
	uint64_t a1, a2;

	c1 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	c2 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	v = bo_new(5 << 20, DRM_SIMT_BO_VRAM);	/* spans two 4 MiB tables */
	s = bo_new(4096, DRM_SIMT_BO_SYSTEM);

	a1 = bind(c1, v);
	a2 = bind(c2, v);
	printf("bound at 0x%llx in both contexts\n", (unsigned long long)a1);
	CHECK(a1 == a2 && a1 == bo_info(v).device_addr,
	      "addresses 0x%llx 0x%llx, BO_INFO 0x%llx", (unsigned long long)a1,
	      (unsigned long long)a2, (unsigned long long)bo_info(v).device_addr);

	b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = v };
	EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EEXIST);
	/* System memory objects too, at their own address (since 0.2). */
	CHECK(bind(c1, s) == bo_info(s).device_addr && bo_info(s).device_addr,
	      "system object bound at 0x%llx",
	      (unsigned long long)bo_info(s).device_addr);
	b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = s };
	EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EEXIST);
	b = (struct drm_simt_vm_bind){ .ctx_id = 999, .handle = v };
	EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, ENOENT);
	b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = 999 };
	EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, ENOENT);
	b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = v, .flags = 1 };
	EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EINVAL);
	b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = v, .pad = 1 };
	EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EINVAL);

	u = (struct drm_simt_vm_unbind){ .ctx_id = c1, .handle = v };
	EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, 0);
	EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, ENOENT);	/* not bound any more */
	u = (struct drm_simt_vm_unbind){ .ctx_id = c2, .handle = s };
	EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, ENOENT);	/* bound in c1 only */
	u = (struct drm_simt_vm_unbind){ .ctx_id = 999, .handle = v };
	EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, ENOENT);
	u = (struct drm_simt_vm_unbind){ .ctx_id = c1, .handle = 999 };
	EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, ENOENT);
	CHECK(bind(c1, v) == a1, "rebinding moved the object");

	/* Fixed addresses: below FIXED_VA_END, page-aligned, no overlap. */
	{
		uint64_t end = get_param(DRM_SIMT_PARAM_FIXED_VA_END);
		uint32_t f1 = bo_new(8192, DRM_SIMT_BO_VRAM);
		uint32_t f2 = bo_new(8192, DRM_SIMT_BO_VRAM);

		printf("fixed bindings below 0x%llx\n", (unsigned long long)end);
		CHECK(end >= 0x20000 && a1 >= end, "FIXED_VA_END 0x%llx, object at 0x%llx",
		      (unsigned long long)end, (unsigned long long)a1);
		b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = f1,
			.flags = DRM_SIMT_VM_BIND_FIXED, .device_addr = 0x10000 };
		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, 0);
		CHECK(b.device_addr == 0x10000, "fixed binding at 0x%llx",
		      (unsigned long long)b.device_addr);
		b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = f2,
			.flags = DRM_SIMT_VM_BIND_FIXED, .device_addr = 0x11000 };
		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EBUSY);	/* overlaps f1 */
		b.device_addr = 0x12800;
		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EINVAL);	/* unaligned */
		b.device_addr = end - 4096;
		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EINVAL);	/* crosses the end */
		b.device_addr = ~0ull & ~4095ull;
		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EINVAL);	/* wraps */
		b.device_addr = 0x12000;
		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, 0);		/* adjacent */
		b = (struct drm_simt_vm_bind){ .ctx_id = c1, .handle = v, .flags = 2 };
		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EINVAL);	/* unknown flag */
		bo_close(f1);
		bo_close(f2);
	}

	/* A bound object whose handle is closed stays until its context goes. */
	bo_close(v);
	bo_close(s);
	CHECK(ctx_destroy(c1) == 0 && ctx_destroy(c2) == 0, "destroy");
	printf("bind, double bind, unbind, bad arguments: done\n");
}

/* ---- copy: between VRAM and system memory objects, checked ---- */

static void test_copy(void)
{
	const uint64_t size = (3 << 20) + 4096;
	uint8_t *ms, *mt, *ma, *mb, *ws, *wa, *wb, *wt;
	struct drm_simt_cmd cmds[4];
	struct drm_simt_wait w;
	uint32_t ctx, s, t, a, b;
	uint64_t seq, seq2;
	int r;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	s = bo_new(size, DRM_SIMT_BO_SYSTEM);
	t = bo_new(size, DRM_SIMT_BO_SYSTEM);
	a = bo_new(size, DRM_SIMT_BO_VRAM);
	b = bo_new(size, DRM_SIMT_BO_VRAM);
	bind(ctx, a);
	bind(ctx, b);
	ms = bo_map(s, size);
	mt = bo_map(t, size);
	ma = bo_map(a, size);
	mb = bo_map(b, size);

	/* The expected contents, computed here. */
	ws = malloc(size);
	wa = calloc(1, size);
	wb = calloc(1, size);
	wt = calloc(1, size);
	fill(ws, size, 7);
	memcpy(ms, ws, size);

	/* system -> VRAM, whole object */
	cmds[0] = copy_cmd(s, 0, a, 0, size);
	seq = run(ctx, cmds, 1);
	memcpy(wa, ws, size);
	CHECK(seq == 1, "first seqno %llu", (unsigned long long)seq);
	same("system -> VRAM", ma, wa, size);

	/* VRAM -> VRAM at odd offsets, then VRAM -> system, in one submission */
	cmds[0] = copy_cmd(a, 3, b, 4097, 300001);
	cmds[1] = copy_cmd(b, 4000, t, 5, 1 << 20);
	cmds[2] = copy_cmd(s, size - 100, t, size - 100, 100);	/* system -> system */
	cmds[3] = copy_cmd(a, 0, b, size - 1, 0);		/* empty */
	seq2 = run(ctx, cmds, 4);
	memcpy(wb + 4097, wa + 3, 300001);
	memcpy(wt + 5, wb + 4000, 1 << 20);
	memcpy(wt + size - 100, ws + size - 100, 100);
	CHECK(seq2 == seq + 1, "seqno %llu after %llu", (unsigned long long)seq2,
	      (unsigned long long)seq);
	same("VRAM -> VRAM", mb, wb, size);
	same("VRAM -> system and system -> system", mt, wt, size);

	/* A finished seqno polls as done; an empty submission is a marker. */
	CHECK(wait_seq(ctx, seq, 0, &w) == 0 && !w.error, "poll of a finished seqno");
	seq = run(ctx, NULL, 0);
	CHECK(seq == seq2 + 1, "marker seqno %llu", (unsigned long long)seq);

	/*
	 * Handles closed while the copies are queued: the jobs keep the
	 * objects.  One submission each: a system memory object's pages need
	 * not be contiguous, and two copies of 769 pages could need more ring
	 * entries than a queue has (E2BIG).
	 */
	cmds[0] = copy_cmd(s, 0, a, 0, size);
	cmds[1] = copy_cmd(a, 0, t, 0, size);
	r = submit(ctx, &cmds[0], 1, &seq);
	CHECK(r == 0, "submit: %s", strerror(-r));
	r = submit(ctx, &cmds[1], 1, &seq);
	CHECK(r == 0, "submit: %s", strerror(-r));
	munmap(ms, size);
	munmap(ma, size);
	bo_close(s);
	bo_close(a);
	CHECK(wait_seq(ctx, seq, 10 * SEC_NS, &w) == 0 && !w.error, "wait");
	same("copy after closing the handles", mt, ws, size);

	printf("copies system->VRAM, VRAM->VRAM, VRAM->system, system->system of %llu bytes checked, seqnos %llu..%llu\n",
	       (unsigned long long)size, 1ull, (unsigned long long)seq);
	munmap(mt, size);
	munmap(mb, size);
	bo_close(t);
	bo_close(b);
	CHECK(ctx_destroy(ctx) == 0, "destroy");
	free(ws);
	free(wa);
	free(wb);
	free(wt);
}

/* ---- submit-bad: every bad SUBMIT and WAIT argument ---- */

static void test_submit_bad(void)
{
	uint32_t max_cmds = get_param(DRM_SIMT_PARAM_MAX_SUBMIT_CMDS);
	struct drm_simt_cmd cmd, *many;
	long long st0[ST_NR] = { 0 };
	struct drm_simt_submit sb;
	struct drm_simt_wait w;
	uint32_t ctx, v, v2;
	uint64_t seq;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	v = bo_new(8192, DRM_SIMT_BO_VRAM);
	v2 = bo_new(8192, DRM_SIMT_BO_SYSTEM);
	bind(ctx, v);
	cmd = copy_cmd(v2, 0, v, 0, 8192);

#define SB(...) (sb = (struct drm_simt_submit){ .ctx_id = ctx, \
	.cmds = (uintptr_t)&cmd, .cmd_count = 1, .cmd_size = sizeof(cmd), \
	__VA_ARGS__ }, &sb)
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.flags = 1), EINVAL);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.cmd_size = sizeof(cmd) - 8), EINVAL);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.cmd_count = max_cmds + 1), EINVAL);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.cmds = 0), EFAULT);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.cmds = 16), EFAULT);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.ctx_id = 999), ENOENT);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.pad = 1), EINVAL);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.syncobj = 999), ENOENT);

#define CMD_EXPECT(err, field, value) do { \
	cmd = copy_cmd(v2, 0, v, 0, 8192); \
	cmd.field = value; \
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(), err); \
} while (0)
	CMD_EXPECT(EINVAL, type, 7);				/* unknown type */
	CMD_EXPECT(EINVAL, type, 0);
	CMD_EXPECT(EINVAL, flags, 1);
	CMD_EXPECT(EINVAL, reserved[13], 1);			/* past the copy */
	CMD_EXPECT(ENOENT, copy.src_handle, 999);
	CMD_EXPECT(ENOENT, copy.dst_handle, 999);
	CMD_EXPECT(EINVAL, copy.src_offset, 1);			/* past the end */
	CMD_EXPECT(EINVAL, copy.dst_offset, 8192);
	CMD_EXPECT(EINVAL, copy.size, 8193);
	cmd = copy_cmd(v2, ~0ull, v, 0, 2);			/* wraps */
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(), EINVAL);
	cmd = copy_cmd(v, 0, v, 4095, 4097);			/* overlaps */
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(), EINVAL);
	cmd = copy_cmd(v, 0, v, 4096, 4096);			/* does not */
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(), 0);
	CHECK(sb.seqno == 1, "refused submissions used seqnos: first is %llu",
	      (unsigned long long)sb.seqno);
	/* Done and counted before the statistics are read below. */
	CHECK(wait_seq(ctx, sb.seqno, 10 * SEC_NS, &w) == 0 && !w.error,
	      "WAIT for the first submission");

	/* The maximum number of commands is accepted. */
	many = calloc(max_cmds, sizeof(*many));
	for (uint32_t i = 0; i < max_cmds; i++)
		many[i] = copy_cmd(v2, i * 8, v, i * 8, 8);
	CHECK(stats_read(st0) == 0, "stats");
	seq = run(ctx, many, max_cmds);
	CHECK(seq == 2, "seqno %llu", (unsigned long long)seq);
	{
		/* Copies only: their bytes count, no kernel. */
		long long d[ST_NR] = { 1, 1, 0, 0, 0, 8ll * max_cmds, 0, 0 };

		stats_expect("copies", st0, d);
	}
	free(many);

	CHECK(wait_seq(ctx, 0, 0, &w) == -EINVAL, "WAIT seqno 0");
	CHECK(wait_seq(ctx, seq + 1, 0, &w) == -EINVAL, "WAIT of a seqno not handed out");
	CHECK(wait_seq(ctx, seq, -1, &w) == -EINVAL, "WAIT with a negative timeout");
	CHECK(wait_seq(999, seq, 0, &w) == -ENOENT, "WAIT on no context");
	w = (struct drm_simt_wait){ .ctx_id = ctx, .seqno = seq, .flags = 1 };
	EXPECT(DRM_IOCTL_SIMT_WAIT, &w, EINVAL);
	w = (struct drm_simt_wait){ .ctx_id = ctx, .seqno = seq, .pad = 1 };
	EXPECT(DRM_IOCTL_SIMT_WAIT, &w, EINVAL);
	CHECK(wait_seq(ctx, seq, 0, &w) == 0 && !w.error, "WAIT after all that");
	CHECK(!w.start_cycle && !w.end_cycle && !w.fault_pc,
	      "a submission without launches has cycles %llu..%llu, pc 0x%x",
	      (unsigned long long)w.start_cycle, (unsigned long long)w.end_cycle,
	      w.fault_pc);
	printf("bad SUBMIT and WAIT arguments refused; the context still works\n");
	bo_close(v);
	bo_close(v2);
	CHECK(ctx_destroy(ctx) == 0, "destroy");
}

/* ---- fault: a copy through an unbound address stops its context only ---- */

static void test_fault(void)
{
	const uint64_t size = 1 << 20;
	struct drm_simt_cmd cmd;
	struct drm_simt_wait w;
	uint32_t c1, c2, a, b, s, c3;
	uint64_t seq1, seq2, seq, addr_b;
	uint8_t *ms, *mb, *want;
	int r;

	c1 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	c2 = ctx_new(DRM_SIMT_PRIORITY_HIGH);
	a = bo_new(size, DRM_SIMT_BO_VRAM);
	b = bo_new(size, DRM_SIMT_BO_VRAM);
	s = bo_new(size, DRM_SIMT_BO_SYSTEM);
	bind(c1, a);
	addr_b = bind(c2, b);	/* b is not bound in c1 */

	cmd = copy_cmd(s, 0, a, 0, size);
	CHECK(submit(c1, &cmd, 1, &seq1) == 0, "submit 1");
	cmd = copy_cmd(b, 0, s, 0, size);	/* reads c2's object from c1 */
	CHECK(submit(c1, &cmd, 1, &seq2) == 0, "submit 2");

	r = wait_seq(c1, seq2, 10 * SEC_NS, &w);
	printf("wait for the faulting copy: %d, error %u, hw_error %u, fault at 0x%llx (object at 0x%llx)\n",
	       r, w.error, w.hw_error, (unsigned long long)w.fault_addr,
	       (unsigned long long)addr_b);
	CHECK(r == 0 && w.error == DRM_SIMT_ERROR_FAULT, "fault not reported");
	CHECK(w.fault_addr == addr_b, "fault address");
	CHECK(w.hw_error != 0, "no device error code");
	CHECK(wait_seq(c1, seq1, 0, &w) == 0 && w.error == DRM_SIMT_ERROR_NONE,
	      "the submission before the fault did not complete cleanly");
	CHECK(submit(c1, &cmd, 1, &seq) == -EIO, "a stopped context took work");

	/* The other context is not disturbed. */
	ms = bo_map(s, size);
	mb = bo_map(b, size);
	want = malloc(size);
	fill(want, size, 3);
	memcpy(ms, want, size);
	cmd = copy_cmd(s, 0, b, 0, size);
	run(c2, &cmd, 1);
	same("copy on the other context", mb, want, size);

	/* An unbound object faults too; a new context works at once. */
	CHECK(ctx_destroy(c1) == 0, "destroy");
	c3 = ctx_new(DRM_SIMT_PRIORITY_LOW);
	bind(c3, a);
	{
		struct drm_simt_vm_unbind u = { .ctx_id = c3, .handle = a };

		EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, 0);
	}
	cmd = copy_cmd(s, 0, a, 0, size);
	CHECK(submit(c3, &cmd, 1, &seq) == 0, "submit");
	CHECK(wait_seq(c3, seq, 10 * SEC_NS, &w) == 0 &&
	      w.error == DRM_SIMT_ERROR_FAULT &&
	      w.fault_addr == bo_info(a).device_addr,
	      "copy to an unbound object: error %u at 0x%llx", w.error,
	      (unsigned long long)w.fault_addr);

	/* Destroying a context with work queued is clean. */
	cmd = copy_cmd(s, 0, b, 0, size);
	for (int i = 0; i < 20; i++)
		CHECK(submit(c2, &cmd, 1, &seq) == 0, "submit %d", i);
	CHECK(ctx_destroy(c2) == 0 && ctx_destroy(c3) == 0, "destroy");
	munmap(ms, size);
	munmap(mb, size);
	bo_close(a);
	bo_close(b);
	bo_close(s);
	free(want);
	printf("faults reported to their context only; other contexts go on\n");
}

/* ---- launch: run vecadd, check c = a + b; bad launches; a faulting one ---- */

#define KERNEL_DIR "/lib/simt/kernels"

static int popcount32(uint32_t x)
{
	return __builtin_popcount(x);
}

static void test_launch(void)
{
	const uint32_t n = 10000, threads = 128;
	const uint64_t bytes = n * sizeof(float);
	uint32_t sm_count = get_param(DRM_SIMT_PARAM_SM_COUNT);
	uint32_t sm_blocks = get_param(DRM_SIMT_PARAM_SM_BLOCKS);
	const struct simt_kernel_info *k;
	struct drm_simt_cmd cmd, good;
	struct drm_simt_submit sb;
	struct drm_simt_wait w;
	struct simt_image img;
	uint32_t ctx, ctx2, code, ha, hb, hc, hl = 0;
	uint64_t da, db, dc, local = 0, code_bytes, seq;
	long long st0[ST_NR] = { 0 };
	float *ma, *mb, *mc;
	uint8_t *mcode;
	char err[256];
	uint32_t i, bad;

	if (simt_image_load(&img, KERNEL_DIR "/vecadd.elf", err, sizeof(err))) {
		fail(__LINE__, "cannot load the kernel image: %s", err);
		return;
	}
	k = simt_image_kernel(&img, "vecadd");
	CHECK(k != NULL, "no vecadd in the image's metadata");
	if (!k)
		return;
	printf("vecadd.elf: %u bytes at 0x%x, code 0x%x..0x%x, entry 0x%x, local %u, regs %d\n",
	       img.size, img.base, img.code_start, img.code_end, k->m.entry,
	       k->m.local_bytes,
	       popcount32(k->m.int_regs_used) + popcount32(k->m.fp_regs_used));

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);

	/* The image goes into VRAM through the mapping, at its link address. */
	code_bytes = (img.size + 4095) & ~4095ull;
	code = bo_new(code_bytes, DRM_SIMT_BO_VRAM);
	mcode = bo_map(code, code_bytes);
	memcpy(mcode, img.bytes, img.size);
	munmap(mcode, code_bytes);
	{
		struct drm_simt_vm_bind b = { .ctx_id = ctx, .handle = code,
			.flags = DRM_SIMT_VM_BIND_FIXED, .device_addr = img.base };

		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, 0);
	}

	ha = bo_new(bytes, DRM_SIMT_BO_VRAM);
	hb = bo_new(bytes, DRM_SIMT_BO_VRAM);
	hc = bo_new(bytes, DRM_SIMT_BO_VRAM);
	da = bind(ctx, ha);
	db = bind(ctx, hb);
	dc = bind(ctx, hc);
	ma = (float *)bo_map(ha, bytes);
	mb = (float *)bo_map(hb, bytes);
	mc = (float *)bo_map(hc, bytes);
	for (i = 0; i < n; i++) {
		ma[i] = i * 0.5f;
		mb[i] = 1000.0f - i * 0.25f;
		mc[i] = -1.0f;
	}
	if (k->m.local_bytes) {
		uint64_t lb = (uint64_t)k->m.local_bytes * threads * sm_count * sm_blocks;

		hl = bo_new(lb, DRM_SIMT_BO_VRAM);
		local = bind(ctx, hl);
	}

	memset(&good, 0, sizeof(good));
	good.type = DRM_SIMT_CMD_LAUNCH;
	good.launch = (struct drm_simt_cmd_launch){
		.code_addr = img.code_start,
		.code_size = img.code_end - img.code_start,
		.entry = k->m.entry,
		.grid = { (n + threads - 1) / threads, 1, 1 },
		.block = { threads, 1, 1 },
		.shared_size = k->m.shared_bytes,
		.local_size = k->m.local_bytes,
		.regs = popcount32(k->m.int_regs_used) + popcount32(k->m.fp_regs_used),
		.local_base = local,
		.args = { da, db, dc, n },
	};
	CHECK(stats_read(st0) == 0, "stats");
	seq = run(ctx, &good, 1);
	CHECK(wait_seq(ctx, seq, 0, &w) == 0 && w.error == DRM_SIMT_ERROR_NONE,
	      "WAIT after the run");
	printf("vecadd ran from cycle %llu to %llu\n",
	       (unsigned long long)w.start_cycle, (unsigned long long)w.end_cycle);
	CHECK(w.start_cycle > 0 && w.end_cycle > w.start_cycle,
	      "implausible cycles %llu..%llu", (unsigned long long)w.start_cycle,
	      (unsigned long long)w.end_cycle);
	CHECK(w.fault_pc == 0 && w.fault_addr == 0, "fault reported for a clean run");
	{
		/* Exactly this launch, as the statistics see it. */
		long long d[ST_NR] = { 1, 1, 0, 0, 0, 0, 1,
				       (long long)(w.end_cycle - w.start_cycle) };

		stats_expect("one launch", st0, d);
	}
	/* A launch then a copy: the launch's cycles, later than the first's. */
	{
		uint32_t scratch = bo_new(4096, DRM_SIMT_BO_SYSTEM);
		struct drm_simt_cmd two[2] = {
			good, copy_cmd(ha, 0, scratch, 0, 4096),
		};
		uint64_t prev_end = w.end_cycle;
		uint8_t *ms;

		seq = run(ctx, two, 2);
		CHECK(wait_seq(ctx, seq, 0, &w) == 0 && w.start_cycle > prev_end &&
		      w.end_cycle > w.start_cycle,
		      "launch then copy: cycles %llu..%llu after %llu",
		      (unsigned long long)w.start_cycle,
		      (unsigned long long)w.end_cycle,
		      (unsigned long long)prev_end);
		ms = bo_map(scratch, 4096);
		CHECK(!memcmp(ms, ma, 4096), "the copy after the launch");
		munmap(ms, 4096);
		bo_close(scratch);
	}
	for (i = 0, bad = 0; i < n; i++) {
		float want = ma[i] + mb[i];

		if (memcmp(&mc[i], &want, sizeof(want))) {
			if (!bad++)
				fail(__LINE__, "c[%u] = %g, expected %g", i, mc[i], want);
		}
	}
	printf("vecadd of %u elements: %u wrong\n", n, bad);

	/* Bad launches are refused before they reach the device. */
#define LAUNCH_EXPECT(field, value) do { \
	cmd = good; \
	cmd.launch.field = value; \
	sb = (struct drm_simt_submit){ .ctx_id = ctx, .cmds = (uintptr_t)&cmd, \
		.cmd_count = 1, .cmd_size = sizeof(cmd) }; \
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, EINVAL); \
} while (0)
	LAUNCH_EXPECT(grid[0], 0);
	LAUNCH_EXPECT(grid[2], 0);
	LAUNCH_EXPECT(block[1], 0);
	LAUNCH_EXPECT(regs, 0);
	LAUNCH_EXPECT(regs, 65);
	LAUNCH_EXPECT(local_size, 8);
	LAUNCH_EXPECT(code_size, 0);
	LAUNCH_EXPECT(code_size, (4u << 20) + 4);
	LAUNCH_EXPECT(entry, img.code_end);
	LAUNCH_EXPECT(entry, img.code_start - 4);
	LAUNCH_EXPECT(entry, k->m.entry + 2);
	LAUNCH_EXPECT(pad, 1);
	cmd = good;
	cmd.reserved[13] = 1;
	sb = (struct drm_simt_submit){ .ctx_id = ctx, .cmds = (uintptr_t)&cmd,
		.cmd_count = 1, .cmd_size = sizeof(cmd) };
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, EINVAL);
	printf("bad launches refused\n");

	/* A kernel storing to an address its context has not bound faults. */
	ctx2 = ctx_new(DRM_SIMT_PRIORITY_HIGH);
	bind(ctx2, ha);
	cmd = good;
	cmd.launch.args[2] = 0x200000;	/* below FIXED_VA_END: never an object's */
	CHECK(stats_read(st0) == 0, "stats");
	CHECK(submit(ctx, &cmd, 1, &seq) == 0, "submit of the faulting kernel");
	CHECK(wait_seq(ctx, seq, 10 * SEC_NS, &w) == 0, "wait");
	printf("faulting kernel: error %u, hw_error %u, fault at 0x%llx, pc 0x%x, cycles %llu..%llu\n",
	       w.error, w.hw_error, (unsigned long long)w.fault_addr, w.fault_pc,
	       (unsigned long long)w.start_cycle, (unsigned long long)w.end_cycle);
	CHECK(w.error == DRM_SIMT_ERROR_FAULT && w.fault_addr >= 0x200000 &&
	      w.fault_addr < 0x200000 + bytes, "the kernel's fault was not reported");
	CHECK(w.fault_pc >= img.code_start && w.fault_pc < img.code_end &&
	      w.fault_pc % 4 == 0, "fault pc 0x%x is not in the code 0x%x..0x%x",
	      w.fault_pc, img.code_start, img.code_end);
	CHECK(w.start_cycle > 0 && w.end_cycle >= w.start_cycle,
	      "the faulting launch's cycles %llu..%llu",
	      (unsigned long long)w.start_cycle, (unsigned long long)w.end_cycle);
	{
		/* A stopped context: an error, nothing completed. */
		long long d[ST_NR] = { 1, 0, 1, 0, 0, 0, 0, 0 };

		stats_expect("a faulting launch", st0, d);
	}
	CHECK(submit(ctx, &good, 1, &seq) == -EIO, "a faulted context took work");

	/* Another context runs the good kernel meanwhile. */
	{
		struct drm_simt_vm_bind b = { .ctx_id = ctx2, .handle = code,
			.flags = DRM_SIMT_VM_BIND_FIXED, .device_addr = img.base };

		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, 0);
	}
	bind(ctx2, hb);
	bind(ctx2, hc);
	if (hl)
		bind(ctx2, hl);
	memset(mc, 0, bytes);
	run(ctx2, &good, 1);
	CHECK(mc[n - 1] == ma[n - 1] + mb[n - 1], "other context's vecadd");
	printf("another context's kernel completes\n");

	munmap(ma, bytes);
	munmap(mb, bytes);
	munmap(mc, bytes);
	CHECK(ctx_destroy(ctx) == 0 && ctx_destroy(ctx2) == 0, "destroy");
	bo_close(code);
	bo_close(ha);
	bo_close(hb);
	bo_close(hc);
	if (hl)
		bo_close(hl);
	simt_image_free(&img);
}

/*
 * ---- samples: saxpy, matmul, reduce (tree and warp), histogram, each
 * checked against what this program computes.  Inputs are small
 * integers, so every float result is exact whatever the order of the
 * additions and whether the compiler fused a multiply-add. ----
 */

struct kimg {
	struct simt_image img;
	uint32_t code;		/* VRAM object holding the image */
	uint32_t ctx;		/* the context it is bound in */
};

/* Load KERNEL_DIR/@file into VRAM and bind it at its link address. */
static int kimg_load(struct kimg *ki, const char *file, uint32_t ctx)
{
	char path[256], err[256];
	uint64_t bytes;
	uint8_t *m;

	snprintf(path, sizeof(path), KERNEL_DIR "/%s", file);
	if (simt_image_load(&ki->img, path, err, sizeof(err))) {
		fail(__LINE__, "cannot load %s: %s", path, err);
		return -1;
	}
	bytes = (ki->img.size + 4095) & ~4095ull;
	ki->ctx = ctx;
	ki->code = bo_new(bytes, DRM_SIMT_BO_VRAM);
	m = bo_map(ki->code, bytes);
	memcpy(m, ki->img.bytes, ki->img.size);
	munmap(m, bytes);
	{
		struct drm_simt_vm_bind b = { .ctx_id = ctx, .handle = ki->code,
			.flags = DRM_SIMT_VM_BIND_FIXED, .device_addr = ki->img.base };

		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, 0);
	}
	return 0;
}

/* Unbind first: the binding, not the handle, holds the link address. */
static void kimg_free(struct kimg *ki)
{
	struct drm_simt_vm_unbind u = { .ctx_id = ki->ctx, .handle = ki->code };

	EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, 0);
	bo_close(ki->code);
	simt_image_free(&ki->img);
}

/*
 * A launch of kernel @name of @ki with @args in @cmd; local memory, if the
 * kernel needs any, is a new object bound in @ctx, returned in @local.
 */
static int kimg_cmd(struct kimg *ki, uint32_t ctx, const char *name,
		    const uint32_t grid[3], const uint32_t block[3],
		    const uint32_t args[8], struct drm_simt_cmd *cmd,
		    uint32_t *local)
{
	const struct simt_kernel_info *k = simt_image_kernel(&ki->img, name);
	uint32_t threads = block[0] * block[1] * block[2];

	*local = 0;
	CHECK(k != NULL, "no kernel %s in the image", name);
	if (!k)
		return -1;
	memset(cmd, 0, sizeof(*cmd));
	cmd->type = DRM_SIMT_CMD_LAUNCH;
	cmd->launch.code_addr = ki->img.code_start;
	cmd->launch.code_size = ki->img.code_end - ki->img.code_start;
	cmd->launch.entry = k->m.entry;
	memcpy(cmd->launch.grid, grid, sizeof(cmd->launch.grid));
	memcpy(cmd->launch.block, block, sizeof(cmd->launch.block));
	cmd->launch.shared_size = k->m.shared_bytes;
	cmd->launch.local_size = k->m.local_bytes;
	cmd->launch.regs = popcount32(k->m.int_regs_used) +
			   popcount32(k->m.fp_regs_used);
	memcpy(cmd->launch.args, args, sizeof(cmd->launch.args));
	if (k->m.local_bytes) {
		*local = bo_new((uint64_t)k->m.local_bytes * threads *
				get_param(DRM_SIMT_PARAM_SM_COUNT) *
				get_param(DRM_SIMT_PARAM_SM_BLOCKS),
				DRM_SIMT_BO_VRAM);
		cmd->launch.local_base = bind(ctx, *local);
	}
	return 0;
}

/* Run kernel @name of @ki with @args, and wait; 0 if it completed. */
static int kimg_run(struct kimg *ki, uint32_t ctx, const char *name,
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
static void *vbuf(uint32_t ctx, uint64_t bytes, uint32_t *handle,
		  uint32_t *addr)
{
	*handle = bo_new(bytes, DRM_SIMT_BO_VRAM);
	*addr = bind(ctx, *handle);
	return bo_map(*handle, bytes);
}

static int check_floats(const char *what, const float *got, const float *want,
			uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (got[i] != want[i]) {
			fail(__LINE__, "%s: [%u] = %g, expected %g", what, i,
			     got[i], want[i]);
			return -1;
		}
	}
	return 0;
}

static void test_samples(void)
{
	uint32_t ctx, hx, hy, hz, ax, ay, az, i, j, k;
	struct kimg ki;
	float *x, *y, *z, *want;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);

	/* saxpy: y = 2 x + y on 5000 elements, a grid smaller than n. */
	if (!kimg_load(&ki, "saxpy.elf", ctx)) {
		const uint32_t n = 5000, grid[3] = { 8, 1, 1 }, block[3] = { 128, 1, 1 };
		float a = 2.0f;
		uint32_t a_bits;

		memcpy(&a_bits, &a, 4);
		x = vbuf(ctx, n * 4, &hx, &ax);
		y = vbuf(ctx, n * 4, &hy, &ay);
		want = malloc(n * 4);
		for (i = 0; i < n; i++) {
			x[i] = i % 1000;
			y[i] = 3.0f * (i % 777);
			want[i] = a * x[i] + y[i];
		}
		if (!kimg_run(&ki, ctx, "saxpy", grid, block,
			      (uint32_t[8]){ n, a_bits, ax, ay }) &&
		    !check_floats("saxpy", y, want, n))
			printf("saxpy: %u elements checked\n", n);
		munmap(x, n * 4);
		munmap(y, n * 4);
		bo_close(hx);
		bo_close(hy);
		free(want);
		kimg_free(&ki);
	}

	/* matmul: 48 x 48, tiles of 16 through shared memory. */
	if (!kimg_load(&ki, "matmul.elf", ctx)) {
		const uint32_t n = 48, grid[3] = { n / 16, n / 16, 1 };
		const uint32_t block[3] = { 16, 16, 1 };

		x = vbuf(ctx, n * n * 4, &hx, &ax);
		y = vbuf(ctx, n * n * 4, &hy, &ay);
		z = vbuf(ctx, n * n * 4, &hz, &az);
		want = calloc(n * n, 4);
		for (i = 0; i < n * n; i++) {
			x[i] = (float)((i * 7) % 11) - 5.0f;
			y[i] = (float)((i * 5) % 13) - 6.0f;
		}
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				for (k = 0; k < n; k++)
					want[i * n + j] += x[i * n + k] * y[k * n + j];
		if (!kimg_run(&ki, ctx, "matmul", grid, block,
			      (uint32_t[8]){ ax, ay, az, n }) &&
		    !check_floats("matmul", z, want, n * n))
			printf("matmul: %u x %u checked\n", n, n);
		munmap(x, n * n * 4);
		munmap(y, n * n * 4);
		munmap(z, n * n * 4);
		bo_close(hx);
		bo_close(hy);
		bo_close(hz);
		free(want);
		kimg_free(&ki);
	}

	/* reduce: partial sums per block of 256, by tree and by warp shuffles. */
	if (!kimg_load(&ki, "reduce.elf", ctx)) {
		const uint32_t n = 10000, bs = 256, nb = (n + bs - 1) / bs;
		const uint32_t grid[3] = { nb, 1, 1 }, block[3] = { bs, 1, 1 };
		const char *names[] = { "reduce_tree", "reduce_warp" };

		x = vbuf(ctx, n * 4, &hx, &ax);
		y = vbuf(ctx, nb * 4, &hy, &ay);
		want = calloc(nb, 4);
		for (i = 0; i < n; i++) {
			x[i] = (float)(i % 100);
			want[i / bs] += x[i];
		}
		for (j = 0; j < 2; j++) {
			memset(y, 0, nb * 4);
			if (!kimg_run(&ki, ctx, names[j], grid, block,
				      (uint32_t[8]){ ax, ay, n }) &&
			    !check_floats(names[j], y, want, nb))
				printf("%s: %u partial sums checked\n", names[j], nb);
		}
		munmap(x, n * 4);
		munmap(y, nb * 4);
		bo_close(hx);
		bo_close(hy);
		free(want);
		kimg_free(&ki);
	}

	/* histogram: 256 bins of 20000 bytes, shared and global atomics. */
	if (!kimg_load(&ki, "histogram.elf", ctx)) {
		const uint32_t n = 20000, grid[3] = { 6, 1, 1 }, block[3] = { 128, 1, 1 };
		uint32_t *bins, wbins[256] = { 0 };
		uint8_t *data;

		data = vbuf(ctx, n, &hx, &ax);
		bins = vbuf(ctx, 256 * 4, &hy, &ay);
		for (i = 0; i < n; i++) {
			data[i] = pat(i, 9) % 97 + (i % 3) * 50;
			wbins[data[i]]++;
		}
		if (!kimg_run(&ki, ctx, "histogram", grid, block,
			      (uint32_t[8]){ ax, n, ay })) {
			for (i = 0; i < 256; i++)
				if (bins[i] != wbins[i]) {
					fail(__LINE__, "bin %u = %u, expected %u", i,
					     bins[i], wbins[i]);
					break;
				}
			if (i == 256)
				printf("histogram: 256 bins of %u bytes checked\n", n);
		}
		munmap(data, n);
		munmap(bins, 256 * 4);
		bo_close(hx);
		bo_close(hy);
		kimg_free(&ki);
	}
	CHECK(ctx_destroy(ctx) == 0, "destroy");
}

/*
 * ---- sysmem: kernels on system memory objects.  vecadd with its code,
 * inputs and output all in system memory, bound to the context through
 * the device MMU (SIMT_PTE_SYS pages), filled and read back through
 * mmap; then the output unbound, and the same launch faults. ----
 */
static void test_sysmem(void)
{
	const uint32_t n = 5000, threads = 128;
	const uint64_t bytes = n * sizeof(float);
	const uint64_t vram = get_param(DRM_SIMT_PARAM_VRAM_SIZE);
	const struct simt_kernel_info *k;
	struct drm_simt_cmd cmd;
	struct drm_simt_wait w;
	struct simt_image img;
	uint32_t ctx, ctx2, code, h[3], hl = 0, i, bad;
	uint64_t d[3], local = 0, code_bytes, seq;
	float *m[3];
	uint8_t *mcode;
	char err[256];

	if (simt_image_load(&img, KERNEL_DIR "/vecadd.elf", err, sizeof(err))) {
		fail(__LINE__, "cannot load the kernel image: %s", err);
		return;
	}
	k = simt_image_kernel(&img, "vecadd");
	CHECK(k != NULL, "no vecadd in the image's metadata");
	if (!k)
		return;
	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);

	/* The code in a system object too, bound at its link address. */
	code_bytes = (img.size + 4095) & ~4095ull;
	code = bo_new(code_bytes, DRM_SIMT_BO_SYSTEM);
	mcode = bo_map(code, code_bytes);
	memcpy(mcode, img.bytes, img.size);
	munmap(mcode, code_bytes);
	{
		struct drm_simt_vm_bind b = { .ctx_id = ctx, .handle = code,
			.flags = DRM_SIMT_VM_BIND_FIXED, .device_addr = img.base };

		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, 0);
	}

	for (i = 0; i < 3; i++) {
		uint64_t info;

		h[i] = bo_new(bytes, DRM_SIMT_BO_SYSTEM);
		info = bo_info(h[i]).device_addr;
		d[i] = bind(ctx, h[i]);
		printf("system object %u: device address 0x%llx\n", i,
		       (unsigned long long)d[i]);
		CHECK(d[i] == info && d[i] >= vram && !(d[i] & 4095) &&
		      d[i] + bytes <= 0xc0000000ull,
		      "system object at 0x%llx (BO_INFO 0x%llx, VRAM %llu)",
		      (unsigned long long)d[i], (unsigned long long)info,
		      (unsigned long long)vram);
		CHECK(i == 0 || d[i] >= d[i - 1] + bytes || d[i] + bytes <= d[i - 1],
		      "system objects overlap");
		m[i] = (float *)bo_map(h[i], bytes);
	}
	{
		struct drm_simt_vm_bind b = { .ctx_id = ctx, .handle = h[0] };

		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EEXIST);
	}
	for (i = 0; i < n; i++) {
		m[0][i] = i * 0.75f;
		m[1][i] = 500.0f - i * 0.5f;
		m[2][i] = -1.0f;
	}
	if (k->m.local_bytes) {
		hl = bo_new((uint64_t)k->m.local_bytes * threads *
			    get_param(DRM_SIMT_PARAM_SM_COUNT) *
			    get_param(DRM_SIMT_PARAM_SM_BLOCKS),
			    DRM_SIMT_BO_VRAM);
		local = bind(ctx, hl);
	}
	memset(&cmd, 0, sizeof(cmd));
	cmd.type = DRM_SIMT_CMD_LAUNCH;
	cmd.launch = (struct drm_simt_cmd_launch){
		.code_addr = img.code_start,
		.code_size = img.code_end - img.code_start,
		.entry = k->m.entry,
		.grid = { (n + threads - 1) / threads, 1, 1 },
		.block = { threads, 1, 1 },
		.shared_size = k->m.shared_bytes,
		.local_size = k->m.local_bytes,
		.regs = popcount32(k->m.int_regs_used) + popcount32(k->m.fp_regs_used),
		.local_base = local,
		.args = { d[0], d[1], d[2], n },
	};
	run(ctx, &cmd, 1);
	for (i = 0, bad = 0; i < n; i++) {
		float want = m[0][i] + m[1][i];

		if (memcmp(&m[2][i], &want, sizeof(want)) && !bad++)
			fail(__LINE__, "c[%u] = %g, expected %g", i, m[2][i], want);
	}
	printf("vecadd on system memory, %u elements: %u wrong\n", n, bad);

	/* Another context does not see the bindings: it faults. */
	ctx2 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	{
		struct drm_simt_cmd c2 = cmd;

		c2.launch.local_size = 0;
		c2.launch.local_base = 0;
		CHECK(submit(ctx2, &c2, 1, &seq) == 0, "submit on ctx2");
		CHECK(wait_seq(ctx2, seq, 10 * SEC_NS, &w) == 0 &&
		      w.error == DRM_SIMT_ERROR_FAULT,
		      "a context without the bindings ran: error %u", w.error);
	}
	CHECK(ctx_destroy(ctx2) == 0, "destroy ctx2");

	/* Unbind the output: the same launch faults on it, writing nothing. */
	{
		struct drm_simt_vm_unbind u = { .ctx_id = ctx, .handle = h[2] };

		EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, 0);
	}
	for (i = 0; i < n; i++)
		m[2][i] = -1.0f;
	CHECK(submit(ctx, &cmd, 1, &seq) == 0, "submit after unbind");
	CHECK(wait_seq(ctx, seq, 10 * SEC_NS, &w) == 0, "wait after unbind");
	printf("after unbind: error %u, hw_error %u, fault at 0x%llx (object at 0x%llx)\n",
	       w.error, w.hw_error, (unsigned long long)w.fault_addr,
	       (unsigned long long)d[2]);
	CHECK(w.error == DRM_SIMT_ERROR_FAULT && w.hw_error != 0,
	      "no MMU fault reported: error %u", w.error);
	CHECK(w.fault_addr >= d[2] && w.fault_addr < d[2] + bytes,
	      "fault at 0x%llx, not in the unbound object",
	      (unsigned long long)w.fault_addr);
	for (i = 0, bad = 0; i < n; i++)
		bad += m[2][i] != -1.0f;
	CHECK(bad == 0, "%u elements written through an unbound mapping", bad);

	CHECK(ctx_destroy(ctx) == 0, "destroy");
	for (i = 0; i < 3; i++) {
		munmap(m[i], bytes);
		bo_close(h[i]);
	}
	bo_close(code);
	if (hl)
		bo_close(hl);
	simt_image_free(&img);
	printf("sysmem: kernel on system objects, EEXIST, isolation, unbind faults: done\n");
}

/*
 * ---- multi: processes at every priority but realtime copying at once,
 * each checking its own data ----
 */

static void multi_child(uint32_t prio)
{
	const uint64_t size = 256 << 10;
	uint32_t ctx, s, v, t, round;
	struct drm_simt_cmd cmds[2];
	uint8_t *ms, *mt, *want;

	fd = open_node();
	ctx = ctx_new(prio);
	s = bo_new(size, DRM_SIMT_BO_SYSTEM);
	t = bo_new(size, DRM_SIMT_BO_SYSTEM);
	v = bo_new(size, DRM_SIMT_BO_VRAM);
	bind(ctx, v);
	ms = bo_map(s, size);
	mt = bo_map(t, size);
	want = malloc(size);
	for (round = 0; round < 16; round++) {
		fill(want, size, prio * 100 + round);
		memcpy(ms, want, size);
		memset(mt, 0, size);
		cmds[0] = copy_cmd(s, 0, v, 0, size);
		cmds[1] = copy_cmd(v, 0, t, 0, size);
		run(ctx, cmds, 2);
		if (!same("round trip", mt, want, size))
			break;
	}
	printf("priority %u: %u rounds of %llu bytes checked\n", prio, round,
	       (unsigned long long)size);
	_exit(failures ? 1 : 0);
}

static void test_multi(void)
{
	uint32_t max = get_param(DRM_SIMT_PARAM_MAX_CONTEXTS), prio, nproc;
	pid_t pids[DRM_SIMT_PRIORITY_REALTIME];
	int status;

	nproc = max < DRM_SIMT_PRIORITY_REALTIME ? max : DRM_SIMT_PRIORITY_REALTIME;
	for (prio = 0; prio < nproc; prio++) {
		pids[prio] = fork();
		if (pids[prio] == 0)
			multi_child(prio);
		CHECK(pids[prio] > 0, "fork");
	}
	for (prio = 0; prio < nproc; prio++)
		CHECK(pids[prio] > 0 && waitpid(pids[prio], &status, 0) == pids[prio] &&
		      WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the process at priority %u failed", prio);
	printf("%u processes at priorities 0..%u submitted at once, all checked\n",
	       nproc, nproc - 1);
}

/*
 * ---- hold: keep a context with work, bindings and mappings across an
 * unbind of the device (run by the unbind test); once the device is gone
 * every ioctl fails with ENODEV and closing the file is clean ----
 */

static void test_hold(void)
{
	const uint64_t size = 1 << 20;
	struct drm_simt_get_param p = { .param = DRM_SIMT_PARAM_SM_COUNT };
	struct drm_simt_cmd cmd;
	struct drm_simt_wait w;
	uint32_t ctx, a, s;
	uint64_t seq;
	uint8_t *ms;
	int i, r;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	a = bo_new(size, DRM_SIMT_BO_VRAM);
	s = bo_new(size, DRM_SIMT_BO_SYSTEM);
	bind(ctx, a);
	ms = bo_map(s, size);
	fill(ms, size, 5);
	cmd = copy_cmd(s, 0, a, 0, size);
	for (i = 0; i < 20; i++)
		CHECK(submit(ctx, &cmd, 1, &seq) == 0, "submit %d", i);
	printf("ready: context %u with %d copies queued\n", ctx, i);

	for (i = 0; i < 200; i++) {
		r = xioctl(fd, DRM_IOCTL_SIMT_GET_PARAM, &p);
		if (r)
			break;
		usleep(50000);
	}
	CHECK(r == -ENODEV, "GET_PARAM after the unbind: %d", r);
	CHECK(submit(ctx, &cmd, 1, &seq) == -ENODEV, "SUBMIT after the unbind");
	CHECK(wait_seq(ctx, 1, 0, &w) == -ENODEV, "WAIT after the unbind");
	CHECK(ms[size - 1] == pat(size - 1, 5), "system memory mapping lost");
	munmap(ms, size);
	printf("the device went away: ioctls fail with ENODEV\n");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * The VM keeps running while a long kernel does: for the first half
 * second of a kernel of about 1e9 thread instructions this process sleeps
 * 1 ms at a time, and no sleep may last 100 ms.  Timers need QEMU's main
 * loop, which a device hogging it would starve.
 */
static void test_responsive(void)
{
	const uint32_t grid[3] = { 32, 1, 1 }, block[3] = { 256, 1, 1 };
	uint32_t ctx, h, out, hl, args[8] = { 0, 20000 };
	double t0, last, t, gap = 0;
	struct drm_simt_cmd cmd;
	struct drm_simt_wait w;
	struct kimg ki;
	uint64_t seq = 0;
	void *m;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (kimg_load(&ki, "spin.elf", ctx))
		return;
	m = vbuf(ctx, 32 * 256 * 4, &h, &out);
	args[0] = out;
	if (kimg_cmd(&ki, ctx, "spin", grid, block, args, &cmd, &hl) == 0) {
		CHECK(submit(ctx, &cmd, 1, &seq) == 0, "submit the kernel");
		t0 = now_s();
		while ((last = now_s()) - t0 < 0.5) {
			usleep(1000);
			t = now_s();
			gap = t - last > gap ? t - last : gap;
		}
		CHECK(wait_seq(ctx, seq, 60ll * 1000000000, &w) == 0 &&
		      w.error == DRM_SIMT_ERROR_NONE, "the kernel did not end");
		printf("longest 1 ms sleep while the kernel ran: %.1f ms; "
		       "the kernel took %.2f s\n", gap * 1e3, now_s() - t0);
		CHECK(gap < 0.1, "the guest stalled for %.1f ms", gap * 1e3);
		CHECK(now_s() - t0 > 0.5, "the kernel was too short to tell");
	}
	munmap(m, 32 * 256 * 4);
	bo_close(h);
	if (hl)
		bo_close(hl);
	kimg_free(&ki);
	ctx_destroy(ctx);
}

/*
 * ---- syncobj: SUBMIT hands its fence to a DRM syncobj; the generic
 * syncobj ioctls wait for it, a sync_file shows its error ----
 */
static void test_syncobj(void)
{
	const uint64_t size = 256 << 10;
	uint32_t ctx, ctx2, v, sys, sys2, s1, s2, s3, gone;
	struct drm_simt_cmd cmd[2];
	struct drm_simt_wait w;
	uint64_t seq, seq2;
	uint8_t *m1, *m2, *want;
	int r;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	v = bo_new(size, DRM_SIMT_BO_VRAM);
	sys = bo_new(size, DRM_SIMT_BO_SYSTEM);
	sys2 = bo_new(size, DRM_SIMT_BO_SYSTEM);
	bind(ctx, v);
	m1 = bo_map(sys, size);
	m2 = bo_map(sys2, size);
	want = malloc(size);
	fill(want, size, 9);
	memcpy(m1, want, size);

	s1 = syncobj_new();
	r = syncobj_wait(s1, 0);
	CHECK(r == -EINVAL, "SYNCOBJ_WAIT on a syncobj without a fence: %d", r);

	/* Up to VRAM and back, waited for with the syncobj only. */
	cmd[0] = copy_cmd(sys, 0, v, 0, size);
	cmd[1] = copy_cmd(v, 0, sys2, 0, size);
	r = submit_sync(ctx, cmd, 2, s1, &seq);
	CHECK(r == 0, "SUBMIT with a syncobj: %s", strerror(-r));
	r = syncobj_wait(s1, 10 * SEC_NS);
	CHECK(r == 0, "SYNCOBJ_WAIT: %s", strerror(-r));
	r = syncobj_status(s1);
	CHECK(r == 1, "fence status %d, expected 1 (signalled)", r);
	same("copied through VRAM, waited for with SYNCOBJ_WAIT", m2, want, size);
	CHECK(wait_seq(ctx, seq, 0, &w) == 0 && w.error == DRM_SIMT_ERROR_NONE,
	      "WAIT does not agree with the syncobj");

	/* Bad handles queue nothing. */
	CHECK(submit_sync(ctx, cmd, 2, 999, &seq2) == -ENOENT,
	      "SUBMIT with syncobj 999");
	gone = syncobj_new();
	syncobj_free(gone);
	CHECK(submit_sync(ctx, cmd, 2, gone, &seq2) == -ENOENT,
	      "SUBMIT with a destroyed syncobj");

	/* The same syncobj again: it takes the new submission's fence. */
	memset(m2, 0, size);
	r = submit_sync(ctx, cmd, 2, s1, &seq2);
	CHECK(r == 0 && seq2 == seq + 1,
	      "second SUBMIT with the syncobj: %s, seqno %llu after %llu",
	      strerror(-r), (unsigned long long)seq2, (unsigned long long)seq);
	CHECK(syncobj_wait(s1, 10 * SEC_NS) == 0, "second SYNCOBJ_WAIT");
	same("second copy, waited for with SYNCOBJ_WAIT", m2, want, size);

	/* A faulting submission: its fence signals, with -EFAULT. */
	ctx2 = ctx_new(DRM_SIMT_PRIORITY_LOW);	/* v is not bound here */
	s2 = syncobj_new();
	cmd[0] = copy_cmd(sys, 0, v, 0, size);
	CHECK(submit_sync(ctx2, cmd, 1, s2, &seq) == 0, "submit of a faulting copy");
	r = syncobj_wait(s2, 10 * SEC_NS);
	CHECK(r == 0, "SYNCOBJ_WAIT for a faulting copy: %s", strerror(-r));
	r = syncobj_status(s2);
	CHECK(r == -EFAULT, "fence of a faulting copy: status %d, expected %d",
	      r, -EFAULT);
	CHECK(wait_seq(ctx2, seq, 0, &w) == 0 && w.error == DRM_SIMT_ERROR_FAULT,
	      "WAIT for the faulting copy: error %u", w.error);

	/* Destroying a context with work queued signals its fences. */
	s3 = syncobj_new();
	cmd[0] = copy_cmd(sys, 0, v, 0, size);
	for (int i = 0; i < 20; i++)
		CHECK(submit_sync(ctx, cmd, 1, i == 19 ? s3 : 0, &seq) == 0,
		      "submit %d", i);
	CHECK(ctx_destroy(ctx) == 0, "destroy with work queued");
	r = syncobj_wait(s3, 10 * SEC_NS);
	CHECK(r == 0, "SYNCOBJ_WAIT after the context was destroyed: %s",
	      strerror(-r));
	r = syncobj_status(s3);
	printf("the last of 20 queued copies, its context destroyed: status %d\n", r);
	CHECK(r == 1 || r == -ECANCELED, "fence status %d, expected 1 or %d",
	      r, -ECANCELED);

	/*
	 * A copy queued behind a kernel of seconds, its context destroyed
	 * at once: the copy never runs, its fence is cancelled.
	 */
	{
		const uint32_t grid[3] = { 32, 1, 1 }, block[3] = { 256, 1, 1 };
		uint32_t ctx3, h, out, hl, s4, args[8] = { 0, 20000 };
		struct drm_simt_cmd two[2];
		struct kimg ki;
		void *m;

		ctx3 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
		if (!kimg_load(&ki, "spin.elf", ctx3)) {
			m = vbuf(ctx3, 32 * 256 * 4, &h, &out);
			args[0] = out;
			s4 = syncobj_new();
			if (!kimg_cmd(&ki, ctx3, "spin", grid, block, args, &two[0], &hl)) {
				two[1] = copy_cmd(sys, 0, sys2, 0, size);
				CHECK(submit(ctx3, &two[0], 1, &seq) == 0, "submit the kernel");
				CHECK(submit_sync(ctx3, &two[1], 1, s4, &seq) == 0,
				      "submit the copy");
				CHECK(ctx_destroy(ctx3) == 0, "destroy");
				CHECK(syncobj_wait(s4, 10 * SEC_NS) == 0,
				      "SYNCOBJ_WAIT for a cancelled copy");
				r = syncobj_status(s4);
				CHECK(r == -ECANCELED, "the cancelled copy's fence: status %d, expected %d",
				      r, -ECANCELED);
				if (hl)
					bo_close(hl);
			}
			syncobj_free(s4);
			munmap(m, 32 * 256 * 4);
			bo_close(h);
			/* The binding went with the context: only the image is left. */
			bo_close(ki.code);
			simt_image_free(&ki.img);
		}
	}

	syncobj_free(s1);
	syncobj_free(s2);
	syncobj_free(s3);
	CHECK(ctx_destroy(ctx2) == 0, "destroy");
	munmap(m1, size);
	munmap(m2, size);
	bo_close(v);
	bo_close(sys);
	bo_close(sys2);
	free(want);
	printf("syncobjs get the submissions' fences; SYNCOBJ_WAIT waits for them\n");
}

/*
 * ---- hang: a kernel that never ends is declared hung after the job
 * timeout (lowered to 2 s here); the device is reset, and another
 * process's work, queued before and behind it, completes ----
 */

#define TIMEOUT_PARAM "/sys/module/simt/parameters/job_timeout_ms"

static int param_write(const char *value)
{
	FILE *f = fopen(TIMEOUT_PARAM, "w");
	int ok;

	if (!f)
		return -1;
	ok = fputs(value, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* What the spin kernel computes for thread @i. */
static uint32_t spin_ref(uint32_t i, uint32_t iters)
{
	uint32_t x = i * 2654435761u + 1;

	for (uint32_t k = 0; k < iters; k++) {
		x = x * 1664525u + 1013904223u;
		x ^= x >> 13;
	}
	return x;
}

/*
 * The other process: vecadd at low priority, once before the endless
 * kernel is submitted, once while the endless kernel holds every block
 * slot of the SMs (so it cannot run before the reset, and is resubmitted
 * by the recovery), and once after the reset.
 */
static void hang_other(int from_parent, int to_parent)
{
	const uint32_t n = 4096, threads = 128;
	const uint32_t grid[3] = { n / threads, 1, 1 }, block[3] = { threads, 1, 1 };
	uint32_t ctx, ha, hb, hc[3], da, db, dc[3], hl, args[8] = { 0 };
	struct drm_simt_cmd cmd;
	struct drm_simt_wait w;
	uint64_t seq[3];
	float *a, *b, *c[3];
	struct kimg ki;
	char ch = 0;
	int i, r;

	fd = open_node();
	ctx = ctx_new(DRM_SIMT_PRIORITY_LOW);
	if (kimg_load(&ki, "vecadd.elf", ctx))
		exit(1);
	a = vbuf(ctx, n * 4, &ha, &da);
	b = vbuf(ctx, n * 4, &hb, &db);
	for (i = 0; i < 3; i++)
		c[i] = vbuf(ctx, n * 4, &hc[i], &dc[i]);
	for (uint32_t j = 0; j < n; j++) {
		a[j] = j;
		b[j] = 3.0f * j;
	}
	args[0] = da;
	args[1] = db;
	args[3] = n;
	for (i = 0; i < 3; i++) {
		args[2] = dc[i];
		if (kimg_cmd(&ki, ctx, "vecadd", grid, block, args, &cmd, &hl))
			exit(1);
		if (i == 2) {
			/* After the reset: a new submission works at once. */
			CHECK(wait_seq(ctx, seq[1], 60 * SEC_NS, &w) == 0 &&
			      w.error == DRM_SIMT_ERROR_NONE,
			      "the submission behind the endless kernel: error %u",
			      w.error);
		}
		CHECK(submit(ctx, &cmd, 1, &seq[i]) == 0, "submit %d", i);
		if (i == 0) {
			/*
			 * Done before the endless kernel comes (at a higher
			 * priority it would starve what is left of this one).
			 */
			CHECK(wait_seq(ctx, seq[0], 10 * SEC_NS, &w) == 0 &&
			      w.error == DRM_SIMT_ERROR_NONE, "vecadd 0");
			/* Ready; wait for the endless kernel. */
			CHECK(write(to_parent, "r", 1) == 1, "pipe");
			CHECK(read(from_parent, &ch, 1) == 1 && ch == 'g', "pipe");
		} else if (i == 1) {
			r = wait_seq(ctx, seq[1], 0, &w);
			CHECK(r == -ETIME, "vecadd ran beside the endless kernel: %d", r);
		}
	}
	for (i = 0; i < 3; i++) {
		r = wait_seq(ctx, seq[i], 60 * SEC_NS, &w);
		CHECK(r == 0 && w.error == DRM_SIMT_ERROR_NONE,
		      "vecadd %d: %s, error %u", i, strerror(-r), w.error);
		for (uint32_t j = 0; j < n; j++)
			if (c[i][j] != 4.0f * j) {
				fail(__LINE__, "vecadd %d: c[%u] = %g, expected %g",
				     i, j, c[i][j], 4.0f * j);
				break;
			}
	}
	printf("other process: vecadd before, behind and after the endless kernel: %d failed checks\n",
	       failures);
	exit(failures ? 1 : 0);
}

static void test_hang(void)
{
	uint32_t sm_count = get_param(DRM_SIMT_PARAM_SM_COUNT);
	uint32_t sm_blocks = get_param(DRM_SIMT_PARAM_SM_BLOCKS);
	/* One-warp blocks, twice what every block slot of every SM holds. */
	uint32_t grid[3] = { 2 * sm_count * sm_blocks, 1, 1 }, block[3] = { 32, 1, 1 };
	uint32_t ctx, ctx2, h, out, hl, so, args[8] = { 0, 0xffffffffu };
	long long st0[ST_NR] = { 0 };
	int to_child[2], from_child[2], status, r;
	struct drm_simt_cmd cmd;
	struct drm_simt_wait w;
	char old[32] = "", ch;
	uint32_t *mo, i;
	struct kimg ki;
	uint64_t seq;
	double t0 = now_s(), t;
	pid_t pid;
	FILE *f;

	f = fopen(TIMEOUT_PARAM, "r");
	CHECK(f && fgets(old, sizeof(old), f), "cannot read " TIMEOUT_PARAM);
	if (f)
		fclose(f);
	printf("job_timeout_ms was %s", old);
	CHECK(strtoul(old, NULL, 10) == 10000, "the default timeout is not 10000 ms");
	if (param_write("2000")) {
		fail(__LINE__, "cannot write " TIMEOUT_PARAM);
		return;
	}
	stats_read(st0);

	if (pipe(to_child) || pipe(from_child)) {
		fail(__LINE__, "pipe");
		goto out_param;
	}
	pid = fork();
	if (pid == 0) {
		close(to_child[1]);
		close(from_child[0]);
		close(fd);
		hang_other(to_child[0], from_child[1]);
	}
	close(to_child[0]);
	close(from_child[1]);
	CHECK(read(from_child[0], &ch, 1) == 1, "the other process did not start");

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (kimg_load(&ki, "spin.elf", ctx))
		goto out_child;
	mo = vbuf(ctx, grid[0] * 32 * 4, &h, &out);
	args[0] = out;
	if (kimg_cmd(&ki, ctx, "spin", grid, block, args, &cmd, &hl))
		goto out_child;
	so = syncobj_new();
	t0 = now_s();
	CHECK(submit_sync(ctx, &cmd, 1, so, &seq) == 0, "submit of the endless kernel");
	CHECK(write(to_child[1], "g", 1) == 1, "pipe");

	r = wait_seq(ctx, seq, 60 * SEC_NS, &w);
	t = now_s() - t0;
	/*
	 * One hang is what this tests: from here on the timeout must not
	 * fire again.  The device of this writing needs that: a reset
	 * restarts its cycle counter from 0 but leaves its SMs' clocks where
	 * they were, so kernels make no progress after a reset until the
	 * counter has caught up (about as long as the device ran before).
	 */
	CHECK(param_write("60000") == 0, "cannot write " TIMEOUT_PARAM);
	printf("endless kernel: WAIT %d, error %u, after %.2f s\n", r, w.error, t);
	CHECK(r == 0 && w.error == DRM_SIMT_ERROR_TIMEOUT,
	      "WAIT %d, error %u, expected DRM_SIMT_ERROR_TIMEOUT", r, w.error);
	CHECK(!w.hw_error && !w.fault_addr && !w.fault_pc,
	      "a timeout with device error %u, fault 0x%llx at 0x%x", w.hw_error,
	      (unsigned long long)w.fault_addr, w.fault_pc);
	CHECK(t >= 1.95 && t < 30, "declared hung after %.2f s; the timeout is 2 s", t);
	r = syncobj_status(so);
	CHECK(r == -ETIMEDOUT, "the endless kernel's fence: status %d, expected %d",
	      r, -ETIMEDOUT);
	CHECK(submit(ctx, &cmd, 1, &seq) == -EIO, "a hung context took more work");
	CHECK(debugfs_ctx_count("stopped", DRM_SIMT_ERROR_TIMEOUT) == 1,
	      "debugfs contexts does not show the timed-out context");
	syncobj_free(so);
	munmap(mo, grid[0] * 32 * 4);
	bo_close(h);
	if (hl)
		bo_close(hl);
	kimg_free(&ki);

out_child:
	close(to_child[1]);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "the other process failed");
	printf("the other process finished %.2f s after the endless kernel was submitted\n",
	       now_s() - t0);
	close(from_child[0]);
	{
		long long d[ST_NR] = { -1, -1, 0, 1, 1, -1, -1, -1 };

		stats_expect("a hang", st0, d);
	}

	/* The device works afterwards: the same kernel, ending this time. */
	ctx2 = ctx_new(DRM_SIMT_PRIORITY_HIGH);
	{
		struct kimg k2;
		uint32_t h2, out2, hl2, *m2, n = 4 * 32;
		uint32_t g2[3] = { 4, 1, 1 }, a2[8] = { 0, 1000 };

		if (!kimg_load(&k2, "spin.elf", ctx2)) {
			m2 = vbuf(ctx2, n * 4, &h2, &out2);
			a2[0] = out2;
			if (!kimg_cmd(&k2, ctx2, "spin", g2, block, a2, &cmd, &hl2)) {
				t = now_s();
				run(ctx2, &cmd, 1);
				printf("a short kernel after the reset took %.2f s\n",
				       now_s() - t);
				for (i = 0; i < n; i++)
					if (m2[i] != spin_ref(i, 1000)) {
						fail(__LINE__, "after the reset: out[%u] = 0x%x, expected 0x%x",
						     i, m2[i], spin_ref(i, 1000));
						break;
					}
				if (hl2)
					bo_close(hl2);
			}
			munmap(m2, n * 4);
			bo_close(h2);
			kimg_free(&k2);
		}
	}
	printf("a kernel runs correctly after the reset\n");
	CHECK(ctx_destroy(ctx) == 0 && ctx_destroy(ctx2) == 0, "destroy");
out_param:
	if (param_write(old))
		fail(__LINE__, "cannot restore " TIMEOUT_PARAM);
}

static const struct {
	const char *name;
	void (*fn)(void);
} groups[] = {
	{ "bo", test_bo },
	{ "ctx", test_ctx },
	{ "bind", test_bind },
	{ "copy", test_copy },
	{ "submit-bad", test_submit_bad },
	{ "fault", test_fault },
	{ "launch", test_launch },
	{ "samples", test_samples },
	{ "sysmem", test_sysmem },
	{ "syncobj", test_syncobj },
	{ "hang", test_hang },
	{ "multi", test_multi },
	{ "hold", test_hold },
	{ "responsive", test_responsive },
};

int main(int argc, char **argv)
{
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: simt-ioctl-test GROUP [NODE]\n");
		return 2;
	}
	if (argc > 2)
		node = argv[2];
	for (i = 0; i < ARRAY_SIZE(groups); i++) {
		if (strcmp(argv[1], groups[i].name) == 0) {
			fd = open_node();
			groups[i].fn();
			close(fd);
			printf("%s: %d failed checks\n", argv[1], failures);
			return failures ? 1 : 0;
		}
	}
	fprintf(stderr, "simt-ioctl-test: unknown group '%s'\n", argv[1]);
	return 2;
}
