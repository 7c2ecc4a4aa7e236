// SPDX-License-Identifier: MIT
/*
 * simt-ioctl-test: exercises the simt driver's ioctls from userspace, the
 * good paths and the bad arguments, and checks every byte the device
 * copies against what this program computes.  Built static by
 * scripts/guest-build.sh; run by tests/guest/simt-test.sh, one group per call:
 *
 *   simt-ioctl-test GROUP [NODE]
 *
 * Groups: bo, ctx, bind, copy, submit-bad, fault, launch, samples,
 * sysmem, syncobj, hang, multi, responsive, and since interface 0.3
 * infence, prio, savearea, progress, hang2, bystander, signal, threads,
 * close, fdinfo, light; since 0.6 launch64; the lifecycle stress group destroy-races,
 * watchdog-destroy, syncfile-outlives, grid-overflow, seqno and
 * unplug-mapped (which unbinds the device); and hold (for the unbind
 * test: see test_hold()).
 * Prints what it does and a line per failed check; exit status 0 if
 * every check passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
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
	__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);	/* threads test */
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

/* The same for a sync_file descriptor. */
static int sync_file_status(int sf)
{
	struct sync_file_info info;
	int r;

	memset(&info, 0, sizeof(info));
	r = xioctl(sf, SYNC_IOC_FILE_INFO, &info);
	return r ? -1000 + r : info.status;
}

/* poll(2) a sync_file for up to @ms: 1 if it has signalled, else 0. */
static int sync_file_poll(int sf, int ms)
{
	struct pollfd p = { .fd = sf, .events = POLLIN };
	int r;

	do {
		r = poll(&p, 1, ms);
	} while (r < 0 && errno == EINTR);
	return r == 1 && (p.revents & POLLIN);
}

/* WAIT on a context of open file @f. */
static int wait_on(int f, uint32_t ctx, uint64_t seqno, int64_t timeout_ns,
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
static int use_fd(int f)
{
	int old = fd;

	fd = f;
	return old;
}

/* The simt module's parameters, as text without the newline. */
#define PARAM_DIR "/sys/module/simt/parameters/"

static int mod_param_get(const char *name, char *buf, size_t len)
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

static int mod_param_set(const char *name, const char *value)
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

/* This process's permitted and effective capabilities (bits CAP_*). */
static uint64_t caps_get(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d))
		return 0;
	return d[0].effective | (uint64_t)d[1].effective << 32;
}

/* Keep only @caps, permitted and effective; 0 or -1. */
static int caps_set(uint64_t caps)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	d[0].permitted = d[0].effective = (uint32_t)caps;
	d[1].permitted = d[1].effective = (uint32_t)(caps >> 32);
	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

/* Become uid/gid 65534 (nobody) keeping capabilities @caps only. */
static int become_nobody(uint64_t caps)
{
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgid(65534) || setuid(65534) ||
	    caps_set(caps)) {
		printf("cannot become uid 65534 with capabilities 0x%llx: %s\n",
		       (unsigned long long)caps, strerror(errno));
		return -1;
	}
	return 0;
}

/* A whole small text file (debugfs, fdinfo), NUL-terminated; free it. */
static char *read_text(const char *path)
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

/*
 * The driver's counters (debugfs stats).  queue_stops (per-queue hang
 * recoveries) came with interface 0.3: stats_read() leaves it at -1 when
 * the driver has no such line, and the tests that need it check it.
 */
enum { ST_SUBMISSIONS, ST_COMPLETIONS, ST_ERRORS, ST_TIMEOUTS, ST_RESETS,
       ST_BYTES, ST_KERNELS, ST_CYCLES, ST_QUEUE_STOPS, ST_FAIR_HOLDS, ST_NR };
static const char *const stat_names[ST_NR] = {
	"submissions", "completions", "errors", "timeouts", "resets",
	"bytes_copied", "kernels", "kernel_cycles", "queue_stops", "fair_holds",
};
#define ST_REQUIRED ST_QUEUE_STOPS	/* the counters every version has */

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
static void stats_expect(const char *what, const long long before[ST_NR],
			 const long long delta[ST_NR])
{
	long long now[ST_NR];
	int i;

	if (stats_read(now))
		return;
	for (i = 0; i < ST_NR; i++) {
		if (i == ST_QUEUE_STOPS && delta[i] >= 0 &&
		    (now[i] < 0 || before[i] < 0)) {
			fail(__LINE__, "%s: debugfs stats has no queue_stops", what);
			continue;
		}
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

/*
 * PRIME (since 0.3): a system memory object exports as a dma-buf, which
 * imports back as the same object (the same handle in its own file, the
 * same object, same size and device address, in another); a VRAM object
 * does not export (EOPNOTSUPP).
 */
static void test_bo_prime(void)
{
	uint32_t v = bo_new(8192, DRM_SIMT_BO_VRAM), s = bo_new(8192, DRM_SIMT_BO_SYSTEM);
	struct drm_prime_handle p = { .handle = v, .flags = DRM_CLOEXEC | DRM_RDWR,
				      .fd = -1 };
	int r, f2;

	r = xioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p);
	CHECK(r == -EOPNOTSUPP, "PRIME export of a VRAM object: %d (%s), expected EOPNOTSUPP",
	      r, strerror(-r));
	if (r == 0)
		close(p.fd);
	p = (struct drm_prime_handle){ .handle = s, .flags = DRM_CLOEXEC | DRM_RDWR,
				       .fd = -1 };
	r = xioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p);
	CHECK(r == 0 && p.fd >= 0, "PRIME export of a system object: %s", strerror(-r));
	if (r == 0 && p.fd >= 0) {
		struct drm_prime_handle i = { .fd = p.fd };
		struct drm_simt_bo_info a = bo_info(s), b;

		CHECK(xioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &i) == 0 && i.handle == s,
		      "the dma-buf imported back as handle %u, not %u", i.handle, s);
		f2 = open_node();
		i = (struct drm_prime_handle){ .fd = p.fd };
		r = xioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &i);
		CHECK(r == 0, "PRIME import into another file: %s", strerror(-r));
		b = (struct drm_simt_bo_info){ .handle = i.handle };
		CHECK(r || (xioctl(f2, DRM_IOCTL_SIMT_BO_INFO, &b) == 0 &&
			    b.size == a.size && b.flags == a.flags &&
			    b.device_addr == a.device_addr),
		      "the imported object differs: size %llu flags %u at 0x%llx",
		      (unsigned long long)b.size, b.flags,
		      (unsigned long long)b.device_addr);
		close(f2);
		close(p.fd);
	}
	bo_close(v);
	bo_close(s);
	printf("PRIME: VRAM objects refused (EOPNOTSUPP), system objects exported and imported\n");
}

/*
 * System memory objects are pinned and count against RLIMIT_MEMLOCK
 * (since 0.3): a child with its own file, without CAP_IPC_LOCK and a
 * limit of 1 MiB, gets 768 KiB, then ENOMEM for 512 KiB more, and the
 * 512 KiB once the first object is freed; VRAM does not count (evicted
 * VRAM is charged to a memory cgroup instead: test_bo_memcg()).  With
 * CAP_IPC_LOCK (root) the limit does not apply.
 */
static void memlock_child(int keep_ipc_lock)
{
	struct rlimit rl = { .rlim_cur = 1 << 20, .rlim_max = 1 << 20 };
	uint32_t a, b, v;
	int r;

	fd = open_node();
	if ((!keep_ipc_lock && caps_set(caps_get() & ~(1ull << CAP_IPC_LOCK))) ||
	    setrlimit(RLIMIT_MEMLOCK, &rl)) {
		printf("cannot drop CAP_IPC_LOCK or set RLIMIT_MEMLOCK: %s\n",
		       strerror(errno));
		_exit(1);
	}
	r = bo_create(768 << 10, DRM_SIMT_BO_SYSTEM, &a);
	CHECK(r == 0, "768 KiB of system memory under a 1 MiB RLIMIT_MEMLOCK: %s",
	      strerror(-r));
	r = bo_create(512 << 10, DRM_SIMT_BO_SYSTEM, &b);
	if (keep_ipc_lock) {
		CHECK(r == 0, "with CAP_IPC_LOCK, 512 KiB more: %s", strerror(-r));
	} else {
		CHECK(r == -ENOMEM, "512 KiB more went past RLIMIT_MEMLOCK: %d (%s), expected ENOMEM",
		      r, strerror(-r));
		if (r == 0)
			bo_close(b);
		r = bo_create(4 << 20, DRM_SIMT_BO_VRAM, &v);
		CHECK(r == 0, "4 MiB of VRAM with RLIMIT_MEMLOCK exhausted: %s",
		      strerror(-r));
		if (!a) {
			_exit(1);
		}
		bo_close(a);
		r = bo_create(512 << 10, DRM_SIMT_BO_SYSTEM, &b);
		CHECK(r == 0, "512 KiB after freeing 768 KiB: %s", strerror(-r));
	}
	_exit(failures ? 1 : 0);
}

static void test_bo_memlock(void)
{
	int k, status;
	pid_t pid;

	for (k = 0; k < 2; k++) {
		pid = fork();
		if (pid == 0)
			memlock_child(k);
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0, "RLIMIT_MEMLOCK %s CAP_IPC_LOCK",
		      k ? "with" : "without");
	}
	printf("RLIMIT_MEMLOCK: system objects counted without CAP_IPC_LOCK, not with it\n");
}

static int sysfs_write(const char *path, const char *text);

static bool evicted(uint32_t h)
{
	return bo_info(h).flags & DRM_SIMT_BO_EVICTED;
}

static long long fdinfo_num(int f, const char *key, const char *unit);

/*
 * Evicted VRAM is charged to the memory cgroup of the object's creator,
 * whoever's allocation evicts it.  A child in a cgroup whose memory.max
 * is 64 MiB makes an object of 3/4 of VRAM (resident): a second one of
 * its own is ENOMEM (either would have to go to system memory, 192 MiB),
 * and one of the parent's, in the root cgroup, does not evict the
 * child's but starts evicted itself.  With memory.max at "max" the
 * child's second object succeeds and the cgroup's memory.current grows
 * by about its size.
 */
#define MEMCG_ROOT "/sys/fs/cgroup"
#define MEMCG_DIR MEMCG_ROOT "/simt-evict"

static int memcg_child(uint64_t size, int limited, int to_parent, int from_parent)
{
	uint32_t x = 0, y = 0;
	char pid[32], ok = 0;
	long long cur0, cur1;
	char *t;
	int r;

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (sysfs_write(MEMCG_DIR "/cgroup.procs", pid)) {
		printf("cannot join " MEMCG_DIR "\n");
		return 1;
	}
	fd = open_node();
	r = bo_create(size, DRM_SIMT_BO_VRAM, &x);
	CHECK(r == 0 && !evicted(x), "3/4 of VRAM in the cgroup: %s", strerror(-r));
	t = read_text(MEMCG_DIR "/memory.current");
	cur0 = t ? atoll(t) : -1;
	free(t);
	r = bo_create(size, DRM_SIMT_BO_VRAM, &y);
	t = read_text(MEMCG_DIR "/memory.current");
	cur1 = t ? atoll(t) : -1;
	free(t);
	if (limited) {
		CHECK(r == -ENOMEM, "a second 3/4 of VRAM with memory.max 64M: %d (%s), expected ENOMEM",
		      r, strerror(-r));
		/* The parent's object must not evict ours: it is not the parent's memory. */
		CHECK(write(to_parent, "x", 1) == 1 && read(from_parent, &ok, 1) == 1,
		      "pipe to the parent");
		CHECK(!evicted(x), "the parent's allocation evicted an object of a full cgroup");
	} else {
		CHECK(r == 0, "a second 3/4 of VRAM without a limit: %s", strerror(-r));
		/*
		 * The rest of the cgroup's memory moves too (a fresh root saw
		 * it shrink by 256 KiB meanwhile): 4 MiB of slack, against
		 * the object's 192 MiB.
		 */
		CHECK(cur1 - cur0 >= (long long)size - (4 << 20),
		      "memory.current grew by %lld bytes, less than the %llu evicted less 4 MiB",
		      cur1 - cur0, (unsigned long long)size);
	}
	printf("cgroup %s: second object %s, memory.current %lld -> %lld\n",
	       limited ? "at 64M" : "unlimited", r ? strerror(-r) : "made", cur0, cur1);
	if (y)
		bo_close(y);
	bo_close(x);
	return failures ? 1 : 0;
}

static void test_bo_memcg(void)
{
	uint64_t size = get_param(DRM_SIMT_PARAM_VRAM_SIZE) / 4 * 3 & ~4095ull;
	int limited, status, up[2], down[2];
	char *ctl;
	pid_t pid;

	mkdir(MEMCG_ROOT, 0755);
	if (mount("none", MEMCG_ROOT, "cgroup2", 0, NULL) && errno != EBUSY) {
		fail(__LINE__, "mount cgroup2 on " MEMCG_ROOT ": %s", strerror(errno));
		return;
	}
	ctl = read_text(MEMCG_ROOT "/cgroup.controllers");
	CHECK(ctl && strstr(ctl, "memory"), "no memory controller in cgroup2");
	free(ctl);
	CHECK(sysfs_write(MEMCG_ROOT "/cgroup.subtree_control", "+memory") == 0,
	      "cannot enable the memory controller");
	if (mkdir(MEMCG_DIR, 0755) && errno != EEXIST) {
		fail(__LINE__, "mkdir " MEMCG_DIR ": %s", strerror(errno));
		return;
	}
	for (limited = 1; limited >= 0; limited--) {
		CHECK(sysfs_write(MEMCG_DIR "/memory.max", limited ? "64M" : "max") == 0,
		      "cannot set memory.max");
		CHECK(pipe(up) == 0 && pipe(down) == 0, "pipe");
		pid = fork();
		if (pid == 0)
			_exit(memcg_child(size, limited, up[1], down[0]));
		if (limited) {
			char c;
			uint32_t h = 0;
			int r;

			CHECK(read(up[0], &c, 1) == 1, "the child did not get its object");
			r = bo_create(size, DRM_SIMT_BO_VRAM, &h);
			CHECK(r == 0 && evicted(h),
			      "the parent's 3/4 of VRAM next to a full cgroup's: %s, %s", strerror(-r),
			      h && evicted(h) ? "evicted" : "resident");
			if (h)
				bo_close(h);
			CHECK(write(down[1], "x", 1) == 1, "pipe to the child");
		}
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0, "the child in the cgroup (%s) failed",
		      limited ? "limited" : "unlimited");
		close(up[0]);
		close(up[1]);
		close(down[0]);
		close(down[1]);
	}
	CHECK(rmdir(MEMCG_DIR) == 0, "rmdir " MEMCG_DIR ": %s", strerror(errno));
	printf("evicted VRAM is charged to its creator's memory cgroup\n");
}

/*
 * Two objects of 3/4 of VRAM both exist (since 0.5): the first, idle, is
 * evicted to system memory when the second is created, keeps its
 * contents, and its CPU mapping follows it there; fdinfo counts the move.
 */
static void test_bo_oversubscribed(uint64_t vram)
{
	const uint64_t size = vram / 4 * 3, pages = size / 4096;
	long long ev0, ev1, evicted, resident;
	uint32_t big, h, *m, *m2, bad = 0;
	uint64_t p;

	ev0 = fdinfo_num(fd, "simt-evictions", "");
	big = bo_new(size, DRM_SIMT_BO_VRAM);
	m = (uint32_t *)bo_map(big, size);
	for (p = 0; p < pages; p++)
		m[p * 1024 + p % 1024] = 0x5eed0000u ^ (uint32_t)p;
	CHECK(bo_create(size, DRM_SIMT_BO_VRAM, &h) == 0,
	      "a second 3/4-of-VRAM object was refused");
	ev1 = fdinfo_num(fd, "simt-evictions", "");
	evicted = fdinfo_num(fd, "simt-evicted-vram", NULL);
	resident = fdinfo_num(fd, "drm-resident-vram", NULL);
	CHECK(ev1 == ev0 + 1 && evicted == (long long)size &&
	      resident == (long long)size,
	      "after the second object: %lld evictions (before %lld), %lld bytes evicted, %lld resident",
	      ev1, ev0, evicted, resident);
	m2 = h ? (uint32_t *)bo_map(h, size) : NULL;
	for (p = 0; m2 && p < pages; p++)
		bad += m2[p * 1024 + p % 1024] != 0;
	for (p = 0; p < pages; p++)
		bad += m[p * 1024 + p % 1024] != (0x5eed0000u ^ (uint32_t)p);
	CHECK(!bad, "%u words wrong in the evicted object or not zero in the new one", bad);
	printf("two objects of 3/4 of VRAM: %lld eviction, %lld bytes in system memory, contents kept through the mapping\n",
	       ev1 - ev0, evicted);
	if (m2)
		munmap(m2, size);
	munmap(m, size);
	bo_close(h);
	bo_close(big);
	CHECK(fdinfo_num(fd, "simt-evicted-vram", NULL) == 0 &&
	      fdinfo_num(fd, "drm-total-vram", NULL) == 0,
	      "both objects freed, VRAM still counted in fdinfo");
}

static void test_bo(void)
{
	uint64_t vram = get_param(DRM_SIMT_PARAM_VRAM_SIZE);
	struct drm_simt_bo_create c;
	struct drm_simt_bo_info i;
	struct drm_simt_bo_mmap_offset o;
	struct drm_gem_close gc;
	uint32_t h;

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

	test_bo_oversubscribed(vram);

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

	test_bo_prime();
	test_bo_memlock();
	test_bo_memcg();
}

/* ---- ctx: create, destroy, priorities, limits, per-file ids ---- */

/* CONTEXT_CREATE on open file @f: 0 or -errno. */
static int ctx_create_on(int f, uint32_t prio, uint32_t *id)
{
	struct drm_simt_context_create c = { .priority = prio };
	int r = xioctl(f, DRM_IOCTL_SIMT_CONTEXT_CREATE, &c);

	*id = c.ctx_id;
	return r;
}

static void test_ctx(void)
{
	uint32_t max = get_param(DRM_SIMT_PARAM_MAX_CONTEXTS);
	struct drm_simt_context_create c;
	struct drm_simt_context_destroy d;
	uint32_t ids[64], id, prio, mode;
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
	c = (struct drm_simt_context_create){ .preempt_mode = DRM_SIMT_PREEMPT_CHIMERA + 1 };
	EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, EINVAL);
	/* A valid mode is kept with the context (debugfs contexts shows it). */
	for (mode = DRM_SIMT_PREEMPT_AUTO; mode <= DRM_SIMT_PREEMPT_CHIMERA; mode++) {
		c = (struct drm_simt_context_create){ .preempt_mode = mode };
		EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, 0);
		CHECK(debugfs_ctx_count("preempt", mode) == 1,
		      "debugfs contexts does not show one context in preemption mode %u",
		      mode);
		CHECK(ctx_destroy(c.ctx_id) == 0, "destroy");
	}
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

	/*
	 * The limits: one open file holds FILE_CONTEXTS contexts (EMFILE
	 * beyond, since 0.3), the device MAX_CONTEXTS in all (ENOSPC), so
	 * the device's limit is reached with several files.  The per-file
	 * limit (module parameter file_contexts, 8 by default) is lowered to
	 * 2 for this, so that it lies below the device's on every preset.
	 */
	{
		uint32_t per_file = get_param(DRM_SIMT_PARAM_FILE_CONTEXTS);
		uint32_t lim = max > 2 ? 2 : 1, nf = (max + lim - 1) / lim + 1;
		int files[65], round;
		char old[32] = "";

		printf("one open file holds %u contexts\n", per_file);
		CHECK(per_file == 8, "FILE_CONTEXTS is %u, the default is 8", per_file);
		CHECK(mod_param_get("file_contexts", old, sizeof(old)) == 0 &&
		      strtoul(old, NULL, 10) == per_file,
		      "parameter file_contexts '%s' disagrees with FILE_CONTEXTS", old);
		CHECK(mod_param_set("file_contexts", lim == 2 ? "2" : "1") == 0,
		      "cannot write " PARAM_DIR "file_contexts");
		CHECK(get_param(DRM_SIMT_PARAM_FILE_CONTEXTS) == lim,
		      "FILE_CONTEXTS does not follow the parameter");
		for (round = 0; round < 3; round++) {
			uint32_t n = 0, k;

			if (round != 1)		/* round 1 reuses round 0's files */
				for (k = 0; k < nf; k++)
					files[k] = open_node();
			/* File 0 to its limit, then EMFILE: the device has room. */
			for (i = 0; i < lim; i++)
				CHECK(ctx_create_on(files[0], i % 4, &ids[n++]) == 0,
				      "round %d: context %u of file 0", round, i);
			if (lim < max)
				CHECK(ctx_create_on(files[0], DRM_SIMT_PRIORITY_NORMAL, &id) ==
				      -EMFILE, "round %d: file 0 went past its limit of %u",
				      round, lim);
			/* The device's limit from the other files, then ENOSPC. */
			for (k = 1; n < max; k++)
				for (i = 0; i < lim && n < max; i++, n++)
					CHECK(ctx_create_on(files[k], (n % 4 == 3) ?
							    DRM_SIMT_PRIORITY_HIGH : n % 4,
							    &ids[n]) == 0,
					      "round %d: context %u of the device", round, n);
			CHECK(ctx_create_on(files[nf - 1], DRM_SIMT_PRIORITY_NORMAL, &id) ==
			      -ENOSPC, "round %d: the device went past its %u contexts",
			      round, max);
			if (round == 0) {
				/* Destroying frees the slots (round 1 fills them again). */
				for (n = 0, k = 0; k < nf && n < max; k++)
					for (i = 0; i < lim && n < max; i++, n++) {
						d = (struct drm_simt_context_destroy){ .ctx_id = ids[n] };
						CHECK(xioctl(files[k], DRM_IOCTL_SIMT_CONTEXT_DESTROY,
							     &d) == 0, "destroy %u", ids[n]);
					}
			} else {
				/* Closing the files frees them (round 2 fills them again). */
				for (k = 0; k < nf; k++)
					close(files[k]);
			}
		}
		printf("%u contexts per file then EMFILE; %u contexts on the device from %u files then ENOSPC; all again after destroying and after closing\n",
		       lim, max, nf);
		CHECK(mod_param_set("file_contexts", old) == 0 &&
		      get_param(DRM_SIMT_PARAM_FILE_CONTEXTS) == per_file,
		      "cannot restore " PARAM_DIR "file_contexts");
	}

	/*
	 * An unprivileged user gets EACCES for realtime, and for high since
	 * 0.3 (the prio group has the rest).
	 */
	pid = fork();
	if (pid == 0) {
		if (setgid(65534) || setuid(65534)) {
			printf("cannot drop privileges: %s\n", strerror(errno));
			_exit(1);
		}
		c = (struct drm_simt_context_create){ .priority = DRM_SIMT_PRIORITY_REALTIME };
		EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, EACCES);
		c = (struct drm_simt_context_create){ .priority = DRM_SIMT_PRIORITY_HIGH };
		EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, EACCES);
		c = (struct drm_simt_context_create){ .priority = DRM_SIMT_PRIORITY_NORMAL };
		EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, 0);
		_exit(failures ? 1 : 0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "unprivileged priorities");
	printf("realtime and high priority refused to an unprivileged user (EACCES)\n");
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
	/* 1 is DRM_SIMT_SUBMIT_FENCE_FD since 0.3 */
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.flags = DRM_SIMT_SUBMIT_FENCE_FD << 1), EINVAL);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.cmd_count = max_cmds + 1), EINVAL);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.cmds = 0), EFAULT);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.cmds = 16), EFAULT);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.ctx_id = 999), ENOENT);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.pad = 1), EINVAL);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.syncobj = 999), ENOENT);
	/* Input fences (since 0.3) */
	{
		uint32_t so = syncobj_new();
		struct drm_simt_sync in[2] = { { .handle = so } };

		EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.in_syncs = (uintptr_t)in,
						 .in_sync_count = max_cmds + 1), EINVAL);
		EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.in_syncs = 16, .in_sync_count = 1),
		       EFAULT);
		in[0] = (struct drm_simt_sync){ .handle = 999 };
		EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.in_syncs = (uintptr_t)in,
						 .in_sync_count = 1), ENOENT);
		in[0] = (struct drm_simt_sync){ .handle = so, .flags = 1 };
		EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.in_syncs = (uintptr_t)in,
						 .in_sync_count = 1), EINVAL);
		/* a timeline point that has no fence yet */
		in[0] = (struct drm_simt_sync){ .handle = so, .point = 7 };
		EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.in_syncs = (uintptr_t)in,
						 .in_sync_count = 1), EINVAL);
		syncobj_free(so);
	}

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
	CHECK(sb.fence_fd == -1, "fence_fd %d without DRM_SIMT_SUBMIT_FENCE_FD",
	      sb.fence_fd);
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
		long long d[ST_NR] = { 1, 1, 0, 0, 0, 8ll * max_cmds, 0, 0, -1 };

		stats_expect("copies", st0, d);
	}
	free(many);

	CHECK(wait_seq(ctx, 0, 0, &w) == -EINVAL, "WAIT seqno 0");
	CHECK(wait_seq(ctx, seq + 1, 0, &w) == -EINVAL, "WAIT of a seqno not handed out");
	CHECK(wait_seq(ctx, seq, -1, &w) == -EINVAL, "WAIT with a negative timeout");
	CHECK(wait_seq(999, seq, 0, &w) == -ENOENT, "WAIT on no context");
	/* 1 is DRM_SIMT_WAIT_ABSOLUTE since 0.3: a deadline long past polls */
	w = (struct drm_simt_wait){ .ctx_id = ctx, .seqno = seq,
				    .flags = DRM_SIMT_WAIT_ABSOLUTE << 1 };
	EXPECT(DRM_IOCTL_SIMT_WAIT, &w, EINVAL);
	w = (struct drm_simt_wait){ .ctx_id = ctx, .seqno = seq,
				    .flags = DRM_SIMT_WAIT_ABSOLUTE, .timeout_ns = 1 };
	EXPECT(DRM_IOCTL_SIMT_WAIT, &w, 0);
	CHECK(w.error == 0, "absolute WAIT: error %u", w.error);
	w = (struct drm_simt_wait){ .ctx_id = ctx, .seqno = seq, .pad = 1 };
	EXPECT(DRM_IOCTL_SIMT_WAIT, &w, EINVAL);
	CHECK(wait_seq(ctx, seq, 0, &w) == 0 && !w.error, "WAIT after all that");
	CHECK(!w.start_cycle && !w.end_cycle && !w.fault_pc,
	      "a submission without launches has cycles %llu..%llu, pc 0x%x",
	      (unsigned long long)w.start_cycle, (unsigned long long)w.end_cycle,
	      w.fault_pc);
	printf("bad SUBMIT and WAIT arguments refused; the context still works\n");

	/*
	 * cmd_size (since 0.3): the stride of the commands, any multiple of 8
	 * from 8 to 4096.  A 0.2 caller's 120 bytes read as zero-filled; a
	 * larger stride is fine if its tail is zero, E2BIG if not.  Two copies
	 * per submission, so that the stride really is used: v2's two halves
	 * to t's, swapped.
	 */
	{
		static const uint32_t good_sizes[] = { 120, 136, 144, 4096 };
		static const uint32_t bad_sizes[] = { 0, 7, 12, 4100, 4104, 8192 };
		uint8_t *raw = calloc(2, 4096), *ms = bo_map(v2, 8192), *mt, *want;
		uint32_t t = bo_new(8192, DRM_SIMT_BO_SYSTEM);
		struct drm_simt_cmd c2[2] = {
			copy_cmd(v2, 0, t, 4096, 4096), copy_cmd(v2, 4096, t, 0, 4096),
		};
		unsigned int j;

		mt = bo_map(t, 8192);
		want = malloc(8192);
		fill(ms, 8192, 21);
		memcpy(want, ms + 4096, 4096);
		memcpy(want + 4096, ms, 4096);
		for (j = 0; j < ARRAY_SIZE(good_sizes); j++) {
			uint32_t sz = good_sizes[j];

			memset(raw, 0, 2 * 4096);
			memset(mt, 0, 8192);
			memcpy(raw, &c2[0], sz < sizeof(c2[0]) ? sz : sizeof(c2[0]));
			memcpy(raw + sz, &c2[1], sz < sizeof(c2[1]) ? sz : sizeof(c2[1]));
			sb = (struct drm_simt_submit){ .ctx_id = ctx,
				.cmds = (uintptr_t)raw, .cmd_count = 2, .cmd_size = sz };
			EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, 0);
			if (sb.seqno && wait_seq(ctx, sb.seqno, 10 * SEC_NS, &w) == 0 &&
			    !w.error) {
				if (same("copies at a command stride", mt, want, 8192))
					printf("cmd_size %u: two copies done\n", sz);
			} else {
				fail(__LINE__, "cmd_size %u: the copies did not complete", sz);
			}
			sb.seqno = 0;
		}
		/* A nonzero byte in the tail of either command. */
		for (j = 0; j < 2; j++) {
			memset(raw, 0, 2 * 4096);
			memcpy(raw, &c2[0], sizeof(c2[0]));
			memcpy(raw + 144, &c2[1], sizeof(c2[1]));
			raw[j * 144 + 143 - j * 7] = 1;
			sb = (struct drm_simt_submit){ .ctx_id = ctx,
				.cmds = (uintptr_t)raw, .cmd_count = 2, .cmd_size = 144 };
			EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, E2BIG);
		}
		for (j = 0; j < ARRAY_SIZE(bad_sizes); j++) {
			sb = (struct drm_simt_submit){ .ctx_id = ctx,
				.cmds = (uintptr_t)raw, .cmd_count = 1,
				.cmd_size = bad_sizes[j] };
			if (xioctl(fd, DRM_IOCTL_SIMT_SUBMIT, &sb) != -EINVAL)
				fail(__LINE__, "cmd_size %u was not refused with EINVAL",
				     bad_sizes[j]);
		}
		printf("cmd_size 120, 136, 144 and 4096 accepted, a nonzero tail E2BIG, 0, 7, 12, 4100, 4104, 8192 EINVAL\n");
		munmap(ms, 8192);
		munmap(mt, 8192);
		bo_close(t);
		free(raw);
		free(want);
	}
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

/*
 * The LAUNCH metadata of 0.3: put @img's live table into a VRAM object
 * bound in @ctx and point @cmd (a launch of kernel @name of @img) at the
 * masks of its code, with the registers the kernel uses.  Returns the
 * object (0 on failure, reported).
 */
static uint32_t live_upload(const struct simt_image *img, const char *name,
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
		fail(__LINE__, "%s: no live table for its code", name);
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
				       (long long)(w.end_cycle - w.start_cycle), -1 };

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
	/* Since 0.4: a subgrid must lie inside the grid (block_count 0: all). */
	LAUNCH_EXPECT(first_block, 1);
	LAUNCH_EXPECT(block_count, good.launch.grid[0] + 1);
	cmd = good;
	cmd.launch.first_block = good.launch.grid[0];
	cmd.launch.block_count = 1;
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, EINVAL);
	cmd.launch.first_block = UINT32_MAX;
	cmd.launch.block_count = 2;	/* wraps to 1 in 32 bits */
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, EINVAL);
	cmd = good;
	cmd.launch.grid[0] = 1u << 16;
	cmd.launch.grid[1] = 1u << 16;	/* 2^32 blocks */
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, EINVAL);
	cmd = good;
	cmd.reserved[13] = 1;
	sb = (struct drm_simt_submit){ .ctx_id = ctx, .cmds = (uintptr_t)&cmd,
		.cmd_count = 1, .cmd_size = sizeof(cmd) };
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, EINVAL);
	cmd = good;
	cmd.flags = DRM_SIMT_CMD_LAUNCH_IDEMPOTENT << 1;	/* unknown flag */
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, EINVAL);
	printf("bad launches refused\n");

	/*
	 * Since 0.3: the live table, the used registers and the idempotent
	 * flag (vecadd's note says idempotent; a, b and c do not overlap).
	 */
	{
		uint32_t live;

		cmd = good;
		cmd.flags = DRM_SIMT_CMD_LAUNCH_IDEMPOTENT;
		live = live_upload(&img, "vecadd", ctx, &cmd);
		CHECK(k->m.flags & SIMT_META_F_IDEMPOTENT, "vecadd is not idempotent");
		printf("vecadd with its live table at 0x%x, registers 0x%x/0x%x, idempotent\n",
		       cmd.launch.live_addr, cmd.launch.int_regs, cmd.launch.fp_regs);
		memset(mc, 0, bytes);
		if (live) {
			run(ctx, &cmd, 1);
			for (i = 0, bad = 0; i < n; i++) {
				float want = ma[i] + mb[i];

				if (memcmp(&mc[i], &want, sizeof(want)) && !bad++)
					fail(__LINE__, "with the metadata: c[%u] = %g, expected %g",
					     i, mc[i], want);
			}
			printf("vecadd with the 0.3 launch metadata: %u wrong\n", bad);
			bo_close(live);	/* the binding keeps it */
		}
	}

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
		long long d[ST_NR] = { 1, 0, 1, 0, 0, 0, 0, 0, -1 };

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
 * Is the guest on the device's virtual clock (guest-run.sh passes
 * simtguest.clock=virtual)?  Only there are guest times free of host
 * noise, so that upper bounds on them can be asserted.
 */
static bool on_virtual_clock(void)
{
	const char *c = getenv("SIMTGUEST_CLOCK");

	return c && !strcmp(c, "virtual");
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
 * ---- evict: oversubscribed VRAM (0.5, seed 003).  Two objects of 5/8
 * of VRAM, A in context 1 and B in context 2, cannot both be resident:
 * creating B evicts idle A; a kernel of context 2 runs on B; context 1's
 * next kernel brings A back (evicting idle B) and finds its data; a
 * third context binding both runs on the one left in system memory.
 * Device addresses never change, mappings follow the objects, and every
 * result is checked ----
 */
#define EVICT_N		4096u
#define EVICT_REGION	(EVICT_N * 4u)

/* Fill regions 0 and 1 of mapped object @m with @seed's inputs. */
static void evict_fill(float *m, uint64_t size, uint32_t seed)
{
	uint32_t i;

	for (i = 0; i < EVICT_N; i++) {
		m[i] = (float)(i + seed);
		m[EVICT_N + i] = (float)(seed * 3) - i * 0.5f;
	}
	/* A sentinel in the last word: the whole object moves. */
	m[size / 4 - 1] = (float)seed;
}

/* Is region @r of @m the sum of regions @x and @y (and the sentinel there)? */
static uint32_t evict_check(const float *m, uint64_t size, uint32_t seed,
			    uint32_t r, uint32_t x, uint32_t y)
{
	uint32_t i, bad = m[size / 4 - 1] != (float)seed;

	for (i = 0; i < EVICT_N; i++)
		bad += m[r * EVICT_N + i] != m[x * EVICT_N + i] + m[y * EVICT_N + i];
	return bad;
}

/* vecadd of @ki in its context: region @r = region @x + region @y of @addr. */
static int evict_vecadd(struct kimg *ki, uint64_t addr, uint32_t r, uint32_t x,
			uint32_t y)
{
	const uint32_t grid[3] = { EVICT_N / 128, 1, 1 }, block[3] = { 128, 1, 1 };
	const uint32_t args[8] = { addr + x * EVICT_REGION, addr + y * EVICT_REGION,
				   addr + r * EVICT_REGION, EVICT_N };

	return kimg_run(ki, ki->ctx, "vecadd", grid, block, args);
}

static void test_evict(void)
{
	const uint64_t vram = get_param(DRM_SIMT_PARAM_VRAM_SIZE);
	const uint64_t size = vram / 8 * 5;
	long long ev0, rs0, ev, rs;
	uint64_t da, db, da3, db3;
	struct kimg k1, k2, k3;
	uint32_t c1, c2, c3, a, b;
	float *ma, *mb;

	ev0 = fdinfo_num(fd, "simt-evictions", "");
	rs0 = fdinfo_num(fd, "simt-restores", "");
	c1 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	c2 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	c3 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (kimg_load(&k1, "vecadd.elf", c1) || kimg_load(&k2, "vecadd.elf", c2) ||
	    kimg_load(&k3, "vecadd.elf", c3))
		return;

	a = bo_new(size, DRM_SIMT_BO_VRAM);
	da = bind(c1, a);
	ma = (float *)bo_map(a, size);
	evict_fill(ma, size, 1);
	CHECK(!evict_vecadd(&k1, da, 2, 0, 1), "context 1's first kernel");
	CHECK(!evicted(a), "A evicted before anything asked for room");

	b = bo_new(size, DRM_SIMT_BO_VRAM);
	CHECK(evicted(a) && !evicted(b), "after B's creation: A %s, B %s",
	      evicted(a) ? "evicted" : "resident", evicted(b) ? "evicted" : "resident");
	CHECK(bo_info(a).device_addr == da, "A's device address changed when it was evicted");
	/* A is used through system pages by nobody; its mapping follows it. */
	CHECK(!evict_check(ma, size, 1, 2, 0, 1), "A's data after its eviction");
	db = bind(c2, b);
	mb = (float *)bo_map(b, size);
	evict_fill(mb, size, 7);
	CHECK(!evict_vecadd(&k2, db, 2, 0, 1), "context 2's kernel");
	CHECK(!evict_check(mb, size, 7, 2, 0, 1), "context 2's results in B");

	/* Context 1 runs again: A comes back, idle B goes. */
	CHECK(!evict_vecadd(&k1, da, 3, 0, 2), "context 1's second kernel");
	CHECK(!evicted(a) && evicted(b), "after context 1's second kernel: A %s, B %s",
	      evicted(a) ? "evicted" : "resident", evicted(b) ? "evicted" : "resident");
	CHECK(!evict_check(ma, size, 1, 2, 0, 1) && !evict_check(ma, size, 1, 3, 0, 2),
	      "context 1's results in A after its restore");
	CHECK(!evict_check(mb, size, 7, 2, 0, 1), "B's data after its eviction");
	ev = fdinfo_num(fd, "simt-evictions", "") - ev0;
	rs = fdinfo_num(fd, "simt-restores", "") - rs0;
	printf("two objects of 5/8 of VRAM used in turn by two contexts: %lld evictions, %lld restores\n",
	       ev, rs);
	CHECK(ev >= 2 && rs >= 1, "%lld evictions and %lld restores, expected 2 and 1 at least",
	      ev, rs);

	/* Context 3 binds both: they cannot both be in VRAM, and it runs anyway. */
	da3 = bind(c3, a);
	db3 = bind(c3, b);
	CHECK(da3 == da && db3 == db, "the objects are at other addresses in context 3");
	CHECK(!evict_vecadd(&k3, da, 4, 2, 3) && !evict_vecadd(&k3, db, 3, 2, 0),
	      "context 3's kernels on A and B");
	CHECK(evicted(a) != evicted(b), "context 3 ran with A %s and B %s",
	      evicted(a) ? "evicted" : "resident", evicted(b) ? "evicted" : "resident");
	CHECK(!evict_check(ma, size, 1, 4, 2, 3) && !evict_check(mb, size, 7, 3, 2, 0),
	      "context 3's results, one object in system memory");
	printf("a context binding both ran with %s in system memory\n", evicted(a) ? "A" : "B");

	munmap(ma, size);
	munmap(mb, size);
	kimg_free(&k1);
	kimg_free(&k2);
	kimg_free(&k3);
	ctx_destroy(c1);
	ctx_destroy(c2);
	ctx_destroy(c3);
	bo_close(a);
	bo_close(b);
	CHECK(fdinfo_num(fd, "simt-evicted-vram", NULL) == 0, "evicted memory left after freeing");
}

/*
 * ---- evict-bytes: every byte of an evicted and restored object kept
 * (seed 003; the driver moves them with the device's copy engines, on
 * its move queue).  A and B, 5/8 of the VRAM each, every word of them
 * written through their mappings: creating B evicts A, a kernel of a
 * context binding A brings it back and evicts B; after each move every
 * word of both is checked, the kernel's results too.  The shell side
 * (t_evict_copy_engine) checks that the copy engines moved the bytes ----
 */

/* Word @i of object @seed, the first three vecadd regions excepted. */
static uint32_t evict_word(uint32_t seed, uint64_t i)
{
	uint32_t x = (uint32_t)i * 2654435761u ^ seed * 0x9e3779b9u ^ (uint32_t)(i >> 32);

	return x ^ x >> 15;
}

static void evict_bytes_fill(uint32_t *m, uint64_t size, uint32_t seed)
{
	uint64_t i;

	evict_fill((float *)m, size, seed);
	for (i = 3 * EVICT_N; i < size / 4 - 1; i++)
		m[i] = evict_word(seed, i);
}

/*
 * Words of @m wrong, but for region 2 (the kernel's output); the first
 * one in *@at.
 */
static uint64_t evict_bytes_bad(const uint32_t *m, uint64_t size, uint32_t seed,
				uint64_t *at)
{
	const float *f = (const float *)m;
	uint64_t i, bad = 0;
	bool ok;

	for (i = 0; i < size / 4; i++) {
		if (i < EVICT_N)
			ok = f[i] == (float)(i + seed);
		else if (i < 2 * EVICT_N)
			ok = f[i] == (float)(seed * 3) - (i - EVICT_N) * 0.5f;
		else if (i < 3 * EVICT_N)
			continue;
		else if (i == size / 4 - 1)
			ok = f[i] == (float)seed;
		else
			ok = m[i] == evict_word(seed, i);
		if (!ok && !bad++)
			*at = i;
	}
	return bad;
}

static void test_evict_bytes(void)
{
	const uint64_t vram = get_param(DRM_SIMT_PARAM_VRAM_SIZE);
	const uint64_t size = vram / 8 * 5;
	uint64_t da, bad, at = 0;
	struct kimg k;
	uint32_t c, a, b;
	uint32_t *ma, *mb;

	c = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (kimg_load(&k, "vecadd.elf", c))
		return;
	a = bo_new(size, DRM_SIMT_BO_VRAM);
	ma = (uint32_t *)bo_map(a, size);
	evict_bytes_fill(ma, size, 3);
	CHECK(!evicted(a), "A evicted before anything asked for room");

	b = bo_new(size, DRM_SIMT_BO_VRAM);
	CHECK(evicted(a) && !evicted(b), "after B's creation: A %s, B %s",
	      evicted(a) ? "evicted" : "resident", evicted(b) ? "evicted" : "resident");
	mb = (uint32_t *)bo_map(b, size);
	evict_bytes_fill(mb, size, 5);
	bad = evict_bytes_bad(ma, size, 3, &at);
	CHECK(!bad, "A after its eviction: %llu words wrong, the first at word %llu",
	      (unsigned long long)bad, (unsigned long long)at);

	/* A kernel of a context binding A brings it back, and idle B goes. */
	da = bind(c, a);
	CHECK(!evict_vecadd(&k, da, 2, 0, 1), "the kernel on A");
	CHECK(!evicted(a) && evicted(b), "after the kernel on A: A %s, B %s",
	      evicted(a) ? "evicted" : "resident", evicted(b) ? "evicted" : "resident");
	bad = evict_bytes_bad(ma, size, 3, &at);
	CHECK(!bad, "A after its restore: %llu words wrong, the first at word %llu",
	      (unsigned long long)bad, (unsigned long long)at);
	CHECK(!evict_check((float *)ma, size, 3, 2, 0, 1), "the kernel's results in A");
	bad = evict_bytes_bad(mb, size, 5, &at);
	CHECK(!bad, "B after its eviction: %llu words wrong, the first at word %llu",
	      (unsigned long long)bad, (unsigned long long)at);
	printf("A and B of %llu bytes each: every word kept through A's eviction, B's "
	       "eviction and A's restore\n", (unsigned long long)size);

	munmap(ma, size);
	munmap(mb, size);
	kimg_free(&k);
	ctx_destroy(c);
	bo_close(a);
	bo_close(b);
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
	/* -ECANCELED whether it reached the device or not (-ESRCH in 0.3, 0.4) */
	CHECK(r == 1 || r == -ECANCELED, "fence status %d, expected 1 or %d", r,
	      -ECANCELED);

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
				printf("a copy queued behind a running kernel, its context destroyed: status %d\n",
				       r);
				CHECK(r == -ECANCELED,
				      "the cancelled copy's fence: status %d, expected %d",
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
 * timeout (lowered to 2 s here); since 0.3 the driver stops its queue
 * only (no device reset), and another process's work, queued before and
 * behind it, completes ----
 */

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
 * slot of the SMs (so it cannot run before the hung queue is stopped;
 * then it runs, untouched by the recovery), and once after the recovery.
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
			/* After the recovery: a new submission works at once. */
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

	CHECK(mod_param_get("job_timeout_ms", old, sizeof(old)) == 0,
	      "cannot read job_timeout_ms");
	printf("job_timeout_ms was %s\n", old);
	CHECK(strtoul(old, NULL, 10) == 10000, "the default timeout is not 10000 ms");
	if (mod_param_set("job_timeout_ms", "10")) {
		fail(__LINE__, "cannot write job_timeout_ms");
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
	printf("endless kernel: WAIT %d, error %u, after %.1f ms\n", r, w.error, t * 1e3);
	CHECK(r == 0 && w.error == DRM_SIMT_ERROR_TIMEOUT,
	      "WAIT %d, error %u, expected DRM_SIMT_ERROR_TIMEOUT", r, w.error);
	CHECK(!w.hw_error && !w.fault_addr && !w.fault_pc,
	      "a timeout with device error %u, fault 0x%llx at 0x%x", w.hw_error,
	      (unsigned long long)w.fault_addr, w.fault_pc);
	CHECK(t >= 0.01 && t < 30, "declared hung after %.1f ms; the timeout is 10 ms", t * 1e3);
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
	printf("the other process finished %.1f ms after the endless kernel was submitted\n",
	       (now_s() - t0) * 1e3);
	close(from_child[0]);
	{
		/* One timeout, recovered by stopping one queue, no reset. */
		long long d[ST_NR] = { -1, -1, 0, 1, 0, -1, -1, -1, 1 };

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
				printf("a short kernel after the recovery took %.1f ms\n",
				       (now_s() - t) * 1e3);
				for (i = 0; i < n; i++)
					if (m2[i] != spin_ref(i, 1000)) {
						fail(__LINE__, "after the recovery: out[%u] = 0x%x, expected 0x%x",
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
	printf("a kernel runs correctly after the recovery\n");
	CHECK(ctx_destroy(ctx) == 0 && ctx_destroy(ctx2) == 0, "destroy");
out_param:
	if (mod_param_set("job_timeout_ms", old))
		fail(__LINE__, "cannot restore job_timeout_ms");
}

/* ---- pieces shared by the tests of interface 0.3 ---- */

/* spin (kernels/spin.c) from samples.elf in a context, with its output. */
struct spinjob {
	struct kimg ki;
	struct drm_simt_cmd cmd;
	uint32_t ctx, hout, out, hl, n, iters;
	uint32_t *m;
	int loaded;
};

static int spin_setup(struct spinjob *j, uint32_t ctx, uint32_t blocks,
		      uint32_t threads, uint32_t iters)
{
	const uint32_t grid[3] = { blocks, 1, 1 }, block[3] = { threads, 1, 1 };
	uint32_t args[8] = { 0, iters };

	memset(j, 0, sizeof(*j));
	j->ctx = ctx;
	j->n = blocks * threads;
	j->iters = iters;
	if (kimg_load(&j->ki, "samples.elf", ctx))
		return -1;
	j->loaded = 1;
	j->m = vbuf(ctx, j->n * 4, &j->hout, &j->out);
	args[0] = j->out;
	return kimg_cmd(&j->ki, ctx, "spin", grid, block, args, &j->cmd, &j->hl);
}

/* How many outputs (every @step-th) differ from what spin computes. */
static uint32_t spin_wrong(const struct spinjob *j, uint32_t step)
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
static void spin_free(struct spinjob *j, int ctx_alive)
{
	if (!j->loaded)
		return;
	if (j->m)
		munmap(j->m, j->n * 4);
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

/*
 * ---- fair: the context scheduling policy (module parameter
 * sched_policy).  A stream of 40 high-priority spin kernels, two in
 * flight at all times, each filling every block slot, and one
 * low-priority spin kernel of the same shape submitted just after the
 * stream starts.  With "priority" the low-priority kernel gets only the
 * slots the others' kernels leave free at their ends and ends behind the
 * whole stream; with "fair-share" (starve_ms 10, share_ms 20, or a
 * grader's from simtguest.fair_ms=) the driver holds the high-priority
 * jobs back once it has waited starve_ms, it ends early, and debugfs
 * counts the holds.  Every result is checked. ----
 */
#define FAIR_HP 40

/* One run: how many high-priority kernels ended before the low one. */
static int fair_run(const char *policy, uint32_t *hp_before, long long *holds)
{
	uint32_t sms = get_param(DRM_SIMT_PARAM_SM_COUNT);
	uint32_t slots = get_param(DRM_SIMT_PARAM_SM_BLOCKS);
	uint64_t seq[FAIR_HP], lseq, lend, first = 0, klen = 0;
	uint32_t hp, lp, i, bad;
	struct spinjob jh, jl;
	struct drm_simt_wait w;
	long long st0[ST_NR], st1[ST_NR];
	int ok = 0;

	*hp_before = 0;
	*holds = -1;
	if (mod_param_set("sched_policy", policy) || stats_read(st0))
		return -1;
	hp = ctx_new(DRM_SIMT_PRIORITY_HIGH);
	lp = ctx_new(DRM_SIMT_PRIORITY_LOW);
	if (spin_setup(&jh, hp, sms * slots, 32, 30000) ||
	    spin_setup(&jl, lp, sms * slots, 32, 30000))
		goto out;
	CHECK(submit(hp, &jh.cmd, 1, &seq[0]) == 0 &&
	      submit(hp, &jh.cmd, 1, &seq[1]) == 0 &&
	      submit(lp, &jl.cmd, 1, &lseq) == 0, "%s: the first submissions", policy);
	for (i = 2; i < FAIR_HP; i++) {
		CHECK(wait_seq(hp, seq[i - 2], 60 * SEC_NS, &w) == 0 && !w.error,
		      "%s: high-priority kernel %u", policy, i - 2);
		CHECK(submit(hp, &jh.cmd, 1, &seq[i]) == 0, "%s: submit %u", policy, i);
	}
	CHECK(wait_seq(lp, lseq, 60 * SEC_NS, &w) == 0 && !w.error,
	      "%s: the low-priority kernel", policy);
	lend = w.end_cycle;
	for (i = 0; i < FAIR_HP; i++) {
		CHECK(wait_seq(hp, seq[i], 60 * SEC_NS, &w) == 0 && !w.error,
		      "%s: high-priority kernel %u", policy, i);
		*hp_before += w.end_cycle < lend;
		if (!i)
			first = w.start_cycle;
		klen += w.end_cycle - w.start_cycle;
	}
	printf("%s: %u high-priority kernels of %llu cycles each on average, over %llu cycles\n",
	       policy, FAIR_HP, (unsigned long long)(klen / FAIR_HP),
	       (unsigned long long)(w.end_cycle - first));
	bad = spin_wrong(&jh, 1) + spin_wrong(&jl, 1);
	CHECK(bad == 0, "%s: %u wrong results", policy, bad);
	if (stats_read(st1) == 0)
		*holds = st1[ST_FAIR_HOLDS] - st0[ST_FAIR_HOLDS];
	ok = 1;
out:
	spin_free(&jh, 1);
	spin_free(&jl, 1);
	ctx_destroy(hp);
	ctx_destroy(lp);
	return ok ? 0 : -1;
}

static void test_fair(void)
{
	const char *policy = getenv("SIMTGUEST_SCHED_POLICY");
	const char *fair_ms = getenv("SIMTGUEST_FAIR_MS");
	char old[32] = "", starve[16] = "", share[16] = "";
	char starve_set[16] = "10", share_set[16] = "20";
	uint32_t prio_before, fair_before;
	long long prio_holds, fair_holds;

	/* The policy to compare with priority: fair-share, or a lab's. */
	if (!policy || !*policy)
		policy = "fair-share";
	/* starve_ms,share_ms: 10,20, or a grader's (simtguest.fair_ms=). */
	if (fair_ms && *fair_ms)
		CHECK(sscanf(fair_ms, "%15[0-9],%15[0-9]", starve_set, share_set) == 2,
		      "simtguest.fair_ms=%s: give STARVE,SHARE", fair_ms);
	printf("starve_ms %s, share_ms %s\n", starve_set, share_set);
	CHECK(mod_param_get("sched_policy", old, sizeof(old)) == 0 &&
	      !strcmp(old, "priority"), "sched_policy is '%s', expected priority", old);
	mod_param_get("starve_ms", starve, sizeof(starve));
	mod_param_get("share_ms", share, sizeof(share));
	CHECK(mod_param_set("starve_ms", starve_set) == 0 &&
	      mod_param_set("share_ms", share_set) == 0, "cannot set starve_ms, share_ms");
	CHECK(mod_param_set("sched_policy", "no-such-policy") != 0,
	      "an unknown policy was taken");
	CHECK(mod_param_set("sched_policy", policy) == 0,
	      "unknown sched_policy '%s': the driver knows the names of simt_sched_policies[] "
	      "in guest-driver/simt_fair.c (priority, fair-share and those you added)", policy);
	if (!fair_run("priority", &prio_before, &prio_holds) &&
	    !fair_run(policy, &fair_before, &fair_holds)) {
		printf("low-priority kernel behind %u of %u high-priority kernels with priority "
		       "(%lld holds), behind %u with %s (%lld holds)\n",
		       prio_before, FAIR_HP, prio_holds, fair_before, policy, fair_holds);
		printf("lab driver-sched: policy %s behind %u holds %lld\n", "priority",
		       prio_before, prio_holds);
		printf("lab driver-sched: policy %s behind %u holds %lld\n", policy,
		       fair_before, fair_holds);
		/*
		 * Fixed numbers, not the same run's: on the device's clock
		 * (simtguest.clock=virtual) every run is the same, and
		 * priority leaves the low-priority kernel behind the whole
		 * stream (docs/labs/driver-sched.rst).
		 */
		CHECK(prio_holds == 0, "priority held jobs back %lld times", prio_holds);
		CHECK(prio_before == FAIR_HP,
		      "priority: the low-priority kernel ended behind %u high-priority kernels, not all %u",
		      prio_before, FAIR_HP);
		CHECK(fair_holds >= 1, "%s never held a job back", policy);
		CHECK(2 * fair_before < FAIR_HP,
		      "%s: the low-priority kernel ended behind %u high-priority kernels, not fewer than %u",
		      policy, fair_before, FAIR_HP / 2);
	}
	CHECK(mod_param_set("sched_policy", old[0] ? old : "priority") == 0 &&
	      mod_param_set("starve_ms", starve[0] ? starve : "100") == 0 &&
	      mod_param_set("share_ms", share[0] ? share : "20") == 0,
	      "cannot restore the scheduling parameters");
}

/* SUBMIT with every 0.3 field; 0 or -errno. */
static int submit_x(int f, uint32_t ctx, struct drm_simt_cmd *cmds, uint32_t n,
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

/* A syncobj of open file @from, shared with open file @to. */
static int syncobj_share(int from, uint32_t h, int to, uint32_t *out)
{
	struct drm_syncobj_handle e = { .handle = h, .fd = -1 };
	struct drm_syncobj_handle i = { 0 };
	int r = xioctl(from, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &e);

	*out = 0;
	if (r)
		return r;
	i.fd = e.fd;
	r = xioctl(to, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &i);
	close(e.fd);
	*out = i.handle;
	return r;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * SEC_NS + ts.tv_nsec;
}

static char saved_timeout[32];

/* Lower the job timeout for a test; test_restore_timeout() puts it back. */
static int test_set_timeout(const char *ms)
{
	if (mod_param_get("job_timeout_ms", saved_timeout, sizeof(saved_timeout))) {
		fail(__LINE__, "cannot read " PARAM_DIR "job_timeout_ms");
		return -1;
	}
	CHECK(strcmp(saved_timeout, "10000") == 0, "job_timeout_ms was %s, not 10000",
	      saved_timeout);
	if (mod_param_set("job_timeout_ms", ms)) {
		fail(__LINE__, "cannot write " PARAM_DIR "job_timeout_ms");
		return -1;
	}
	printf("job_timeout_ms %s -> %s\n", saved_timeout, ms);
	return 0;
}

static void test_restore_timeout(void)
{
	CHECK(mod_param_set("job_timeout_ms", saved_timeout) == 0,
	      "cannot restore " PARAM_DIR "job_timeout_ms");
}

/*
 * ---- infence: SUBMIT waits for fences of another open file.  Context
 * A (this file) runs spin for a while, then copy_words from a VRAM
 * object of its own into a system memory object S; context B, in another
 * open file that imported S (PRIME), runs copy_words from S into its own
 * object as soon as SUBMIT lets it.  B's result is right only if it ran
 * after A's output was written, and its launch must have started after
 * A's ended (device cycles).  B waits in four ways: a binary syncobj
 * shared through a file descriptor, a point of a timeline syncobj, A's
 * sync_file out-fence imported into a syncobj, and (the last round) the
 * fence of a faulting submission, whose error must not stop B. ----
 */
static void test_infence(void)
{
	const uint32_t n = 16384, bytes = n * 4;
	const uint32_t g4[3] = { 4, 1, 1 }, b128[3] = { 128, 1, 1 };
	uint32_t ctxa, ctxb, ctxf, hin, hs, hsb = 0, hout, dout, din, hl, hfault;
	uint32_t s1, s1b, tl, tlb, sc, sf, sfb, *min, *ms, *mout, i, bad;
	struct drm_simt_cmd acmd[2], bcmd, fcmd;
	struct drm_simt_wait wa, wb;
	struct spinjob sj;
	struct kimg kb;
	uint64_t sa, seqa, seqb, seqf = 0;
	int f1 = fd, f2, r, round, sfd;

	ctxa = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (spin_setup(&sj, ctxa, 4, 32, 250000))
		return;
	min = vbuf(ctxa, bytes, &hin, &din);
	for (i = 0; i < n; i++)
		min[i] = 0x5a000000u | i;
	hs = bo_new(bytes, DRM_SIMT_BO_SYSTEM);
	sa = bind(ctxa, hs);
	ms = (uint32_t *)bo_map(hs, bytes);
	acmd[0] = sj.cmd;
	CHECK(kimg_cmd(&sj.ki, ctxa, "copy_words", g4, b128,
		       (uint32_t[8]){ din, sa, n }, &acmd[1], &hl) == 0 && !hl,
	      "copy_words");

	/* B, in another file, with S imported. */
	f2 = open_node();
	{
		struct drm_prime_handle p = { .handle = hs, .flags = DRM_CLOEXEC | DRM_RDWR,
					      .fd = -1 };

		r = xioctl(f1, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p);
		CHECK(r == 0, "PRIME export of a system object: %s", strerror(-r));
		if (r == 0) {
			struct drm_prime_handle imp = { .fd = p.fd };

			r = xioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp);
			CHECK(r == 0, "PRIME import into the other file: %s", strerror(-r));
			hsb = imp.handle;
			close(p.fd);
		}
	}
	use_fd(f2);
	ctxb = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (!hsb || kimg_load(&kb, "samples.elf", ctxb)) {
		use_fd(f1);
		close(f2);
		return;
	}
	CHECK(bind(ctxb, hsb) == sa, "the imported object has another address");
	mout = vbuf(ctxb, bytes, &hout, &dout);
	CHECK(kimg_cmd(&kb, ctxb, "copy_words", g4, b128,
		       (uint32_t[8]){ sa, dout, n }, &bcmd, &hl) == 0 && !hl,
	      "copy_words in B");
	use_fd(f1);

	s1 = syncobj_new();
	tl = syncobj_new();
	CHECK(syncobj_share(f1, s1, f2, &s1b) == 0 && syncobj_share(f1, tl, f2, &tlb) == 0,
	      "cannot share syncobjs between the files");
	{
		struct drm_syncobj_create c = { 0 };

		CHECK(xioctl(f2, DRM_IOCTL_SYNCOBJ_CREATE, &c) == 0, "SYNCOBJ_CREATE");
		sc = c.handle;
	}

	for (round = 0; round < 4; round++) {
		static const char *const how[] = {
			"a binary syncobj of the other file", "timeline point 5",
			"A's sync_file", "a failed fence",
		};
		struct drm_simt_sync in = { 0 };
		double t0 = now_s();

		memset(ms, 0, bytes);
		memset(mout, 0xff, bytes);
		sfd = -1;
		if (round == 0) {
			r = submit_x(f1, ctxa, acmd, 2, 0, NULL, 0, s1, 0, &seqa, &sfd);
			CHECK(sfd == -1, "fence_fd %d without DRM_SIMT_SUBMIT_FENCE_FD", sfd);
			in.handle = s1b;
		} else if (round == 1) {
			/* B cannot wait for a point that has no fence yet. */
			in = (struct drm_simt_sync){ .handle = tlb, .point = 5 };
			CHECK(submit_x(f2, ctxb, &bcmd, 1, 0, &in, 1, 0, 0, &seqb, NULL) ==
			      -EINVAL, "SUBMIT waiting for a timeline point without a fence");
			r = submit_x(f1, ctxa, acmd, 2, 0, NULL, 0, tl, 5, &seqa, NULL);
		} else if (round == 2) {
			r = submit_x(f1, ctxa, acmd, 2, DRM_SIMT_SUBMIT_FENCE_FD, NULL, 0,
				     0, 0, &seqa, &sfd);
			CHECK(r || sfd > 0, "no sync_file from DRM_SIMT_SUBMIT_FENCE_FD (%d)", sfd);
			if (sfd > 0) {
				struct drm_syncobj_handle imp = {
					.fd = sfd, .handle = sc,
					.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
				};

				CHECK(!sync_file_poll(sfd, 0),
				      "A's sync_file signalled while A runs");
				CHECK(xioctl(f2, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &imp) == 0,
				      "cannot import A's sync_file into the other file");
			}
			in.handle = sc;
		} else {
			/* A faulting copy in a third context: its fence has an error. */
			ctxf = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
			hfault = bo_new(bytes, DRM_SIMT_BO_VRAM);	/* not bound */
			fcmd = copy_cmd(hs, 0, hfault, 0, bytes);
			sf = syncobj_new();
			CHECK(syncobj_share(f1, sf, f2, &sfb) == 0, "share");
			r = submit_x(f1, ctxa, acmd, 2, 0, NULL, 0, 0, 0, &seqa, NULL);
			CHECK(submit_x(f1, ctxf, &fcmd, 1, 0, NULL, 0, sf, 0, &seqf, NULL) == 0,
			      "submit of the faulting copy");
			in.handle = sfb;
		}
		CHECK(r == 0, "round %d: SUBMIT on A: %s", round, strerror(-r));
		if (round < 3)
			CHECK(wait_on(f1, ctxa, seqa, 0, &wa) == -ETIME,
			      "round %d: A was done before B was submitted: too short to tell",
			      round);
		r = submit_x(f2, ctxb, &bcmd, 1, 0, &in, 1, 0, 0, &seqb, NULL);
		CHECK(r == 0, "round %d: SUBMIT on B waiting for %s: %s", round, how[round],
		      strerror(-r));
		r = wait_on(f2, ctxb, seqb, 20 * SEC_NS, &wb);
		CHECK(r == 0 && wb.error == DRM_SIMT_ERROR_NONE,
		      "round %d: B: WAIT %d, error %u", round, r, wb.error);
		if (round < 3) {
			r = wait_on(f1, ctxa, seqa, 20 * SEC_NS, &wa);
			CHECK(r == 0 && wa.error == DRM_SIMT_ERROR_NONE,
			      "round %d: A: WAIT %d, error %u", round, r, wa.error);
			for (i = 0, bad = 0; i < n; i++)
				if (mout[i] != min[i] && !bad++)
					fail(__LINE__, "round %d (%s): B read 0x%x at %u, A wrote 0x%x",
					     round, how[round], mout[i], i, min[i]);
			printf("round %d, B waited for %s: %.2f s, A's launch ended at cycle %llu, B's started at %llu, %u words wrong\n",
			       round, how[round], now_s() - t0,
			       (unsigned long long)wa.end_cycle,
			       (unsigned long long)wb.start_cycle, bad);
			CHECK(wb.start_cycle >= wa.end_cycle,
			      "round %d: B started at cycle %llu, before A ended at %llu",
			      round, (unsigned long long)wb.start_cycle,
			      (unsigned long long)wa.end_cycle);
		} else {
			struct drm_simt_wait wf;

			CHECK(wait_on(f1, ctxf, seqf, 10 * SEC_NS, &wf) == 0 &&
			      wf.error == DRM_SIMT_ERROR_FAULT, "the copy did not fault");
			r = syncobj_status(sf);
			CHECK(r == -EFAULT, "the faulting copy's fence: %d", r);
			printf("round 3: B ran after a fence that signalled %d\n", r);
			CHECK(wait_on(f1, ctxa, seqa, 20 * SEC_NS, &wa) == 0, "A");
			syncobj_free(sf);
			ctx_destroy(ctxf);
			bo_close(hfault);
		}
		if (round == 1) {
			struct drm_syncobj_timeline_array q = {
				.handles = (uintptr_t)&tl, .points = 0, .count_handles = 1,
			};
			uint64_t point = 0, want = 5;

			q.points = (uintptr_t)&point;
			CHECK(xioctl(f1, DRM_IOCTL_SYNCOBJ_QUERY, &q) == 0 && point == 5,
			      "the timeline syncobj is at point %llu, not 5",
			      (unsigned long long)point);
			{
				struct drm_syncobj_timeline_wait tw = {
					.handles = (uintptr_t)&tl, .points = (uintptr_t)&want,
					.count_handles = 1, .timeout_nsec = now_ns() + SEC_NS,
				};

				CHECK(xioctl(f1, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &tw) == 0,
				      "SYNCOBJ_TIMELINE_WAIT for point 5");
			}
		}
		if (sfd > 0) {
			CHECK(sync_file_poll(sfd, 10000), "A's sync_file did not signal");
			r = sync_file_status(sfd);
			CHECK(r == 1, "A's sync_file: status %d, expected 1", r);
			close(sfd);
		}
	}
	printf("in-fences: binary and timeline syncobjs of another file, a sync_file, a failed fence\n");

	syncobj_free(s1);
	syncobj_free(tl);
	munmap(ms, bytes);
	munmap(min, bytes);
	munmap(mout, bytes);
	close(f2);		/* B and everything of it */
	bo_close(hs);
	bo_close(hin);
	spin_free(&sj, 1);
	ctx_destroy(ctxa);
}

/*
 * ---- prio: HIGH priority needs CAP_SYS_NICE since 0.3, unless the
 * module parameter unprivileged_high (default N) opens it to everyone;
 * REALTIME always needs it ----
 */

/* Create and destroy a context at @prio: 0 or -errno. */
static int prio_try(uint32_t prio)
{
	uint32_t id;
	int r = ctx_create_on(fd, prio, &id);

	if (r == 0)
		CHECK(ctx_destroy(id) == 0, "destroy");
	return r;
}

/* In a child, as uid 65534 with capabilities @caps: HIGH and REALTIME. */
static void prio_as_user(uint64_t caps, int want_high, int want_rt, const char *who)
{
	int status, r;
	pid_t pid = fork();

	if (pid == 0) {
		if (become_nobody(caps))
			_exit(1);
		r = prio_try(DRM_SIMT_PRIORITY_NORMAL);
		CHECK(r == 0, "%s: NORMAL: %s", who, strerror(-r));
		r = prio_try(DRM_SIMT_PRIORITY_HIGH);
		CHECK(r == -want_high, "%s: HIGH: %d (%s), expected %d", who, r,
		      strerror(-r), -want_high);
		r = prio_try(DRM_SIMT_PRIORITY_REALTIME);
		CHECK(r == -want_rt, "%s: REALTIME: %d (%s), expected %d", who, r,
		      strerror(-r), -want_rt);
		_exit(failures ? 1 : 0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "%s: wrong priorities", who);
	printf("%s: HIGH %s, REALTIME %s\n", who, want_high ? "refused" : "allowed",
	       want_rt ? "refused" : "allowed");
}

static void test_prio(void)
{
	char old[16] = "", now[16] = "";

	CHECK(mod_param_get("unprivileged_high", old, sizeof(old)) == 0 &&
	      strcmp(old, "N") == 0, "unprivileged_high is '%s', expected N", old);
	prio_as_user(0, EACCES, EACCES, "a plain user");
	prio_as_user(1ull << CAP_SYS_NICE, 0, 0, "a user with CAP_SYS_NICE");
	CHECK(prio_try(DRM_SIMT_PRIORITY_HIGH) == 0 &&
	      prio_try(DRM_SIMT_PRIORITY_REALTIME) == 0, "root: HIGH or REALTIME refused");
	if (mod_param_set("unprivileged_high", "Y") == 0 &&
	    mod_param_get("unprivileged_high", now, sizeof(now)) == 0 &&
	    strcmp(now, "Y") == 0) {
		prio_as_user(0, 0, EACCES, "a plain user with unprivileged_high=Y");
	} else {
		fail(__LINE__, "cannot set unprivileged_high to Y ('%s')", now);
	}
	CHECK(mod_param_set("unprivileged_high", old[0] ? old : "N") == 0 &&
	      mod_param_get("unprivileged_high", now, sizeof(now)) == 0 &&
	      strcmp(now, "N") == 0, "cannot restore unprivileged_high ('%s')", now);
	prio_as_user(0, EACCES, EACCES, "a plain user, unprivileged_high restored");
}

/*
 * ---- savearea: a context's preemption save area (debugfs contexts
 * save=0x<addr>+0x<size>) must not show what VRAM held before.  VRAM is
 * dirtied through an object that is then freed, contexts are created
 * until one's save area overlaps the dirtied range, and a kernel of that
 * context copies its whole save area into an output object, which must
 * then be all zero. ----
 */

/* The save areas debugfs contexts shows; returns how many (at most @max). */
static int save_areas(uint64_t *addr, uint64_t *size, int max)
{
	char *text = read_text(debugfs_file("contexts")), *p;
	int n = 0;

	if (!text) {
		fail(__LINE__, "cannot read debugfs contexts");
		return 0;
	}
	for (p = text; n < max && (p = strstr(p, "save=")); p++) {
		unsigned long long a, s;

		if (sscanf(p, "save=0x%llx+0x%llx", &a, &s) == 2) {
			addr[n] = a;
			size[n++] = s;
		}
	}
	free(text);
	return n;
}

static void test_savearea(void)
{
	const uint64_t dirty_size = 16 << 20;
	const uint32_t pattern = 0xa5000000u;
	uint32_t max = get_param(DRM_SIMT_PARAM_MAX_CONTEXTS), ids[64], nctx = 0;
	uint64_t before[64], bsize[64], after[64], asize[64], dstart, sa = 0, ss = 0;
	uint32_t dirty, *m, i, chosen = 0;
	int nb, na, k, j;

	dirty = bo_new(dirty_size, DRM_SIMT_BO_VRAM);
	dstart = bo_info(dirty).device_addr;
	m = (uint32_t *)bo_map(dirty, dirty_size);
	for (i = 0; i < dirty_size / 4; i++)
		m[i] = pattern | i;
	munmap(m, dirty_size);
	bo_close(dirty);
	printf("VRAM 0x%llx..0x%llx dirtied and freed\n", (unsigned long long)dstart,
	       (unsigned long long)(dstart + dirty_size));

	while (nctx < max && nctx < 8 && !chosen) {
		nb = save_areas(before, bsize, 64);
		ids[nctx] = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
		na = save_areas(after, asize, 64);
		for (k = 0; k < na; k++) {
			for (j = 0; j < nb && before[j] != after[k]; j++)
				;
			if (j < nb)
				continue;
			printf("context %u: save area 0x%llx+0x%llx\n", ids[nctx],
			       (unsigned long long)after[k], (unsigned long long)asize[k]);
			if (after[k] < dstart + dirty_size && after[k] + asize[k] > dstart) {
				chosen = ids[nctx];
				sa = after[k];
				ss = asize[k];
			}
		}
		nctx++;
	}
	CHECK(chosen, "no save area of %u contexts overlaps the dirtied VRAM", nctx);
	if (chosen) {
		const uint32_t g[3] = { 64, 1, 1 }, b[3] = { 128, 1, 1 };
		uint32_t hout, dout, nz = 0, dirtyw = 0, first = 0;
		struct kimg ki;
		uint32_t *mo;

		CHECK(ss % 4 == 0 && sa % 4 == 0, "save area 0x%llx+0x%llx",
		      (unsigned long long)sa, (unsigned long long)ss);
		if (!kimg_load(&ki, "samples.elf", chosen)) {
			mo = vbuf(chosen, ss, &hout, &dout);
			memset(mo, 0xff, ss);
			if (!kimg_run(&ki, chosen, "copy_words", g, b,
				      (uint32_t[8]){ sa, dout, ss / 4 })) {
				for (i = 0; i < ss / 4; i++)
					if (mo[i]) {
						if (!nz++)
							first = i;
						dirtyw += (mo[i] & 0xff000000u) == pattern;
					}
				printf("save area of %llu bytes read by a kernel: %u nonzero words (%u of the pattern), first at +0x%x\n",
				       (unsigned long long)ss, nz, dirtyw, first * 4);
				CHECK(nz == 0, "the save area is not zero: word +0x%x is 0x%08x",
				      first * 4, mo[first]);
			}
			munmap(mo, ss);
			bo_close(hout);
			kimg_free(&ki);
		}
	}
	for (i = 0; i < nctx; i++)
		CHECK(ctx_destroy(ids[i]) == 0, "destroy");
}

/*
 * ---- progress: the job watchdog counts only time a submission runs.
 * job_timeout_ms is lowered to 5; another process keeps two HIGH
 * contexts streaming kernels that take every block slot for 15 ms; a
 * NORMAL kernel submitted meanwhile waits for more than twice the
 * timeout, then completes, with no error and no timeout counted.  Sized
 * in device time: on the virtual clock every millisecond of a full
 * device costs the interpreter's work ----
 */
static void progress_stream(int to_parent, double secs)
{
	uint32_t slots;
	struct spinjob j[2];
	uint64_t seq[2][64];
	uint32_t ctx[2], sub[2] = { 0, 0 }, done[2] = { 0, 0 }, k;
	struct drm_simt_wait w;
	double t0;

	fd = open_node();
	slots = get_param(DRM_SIMT_PARAM_SM_COUNT) * get_param(DRM_SIMT_PARAM_SM_BLOCKS);
	for (k = 0; k < 2; k++) {
		ctx[k] = ctx_new(DRM_SIMT_PRIORITY_HIGH);
		if (spin_setup(&j[k], ctx[k], slots, 32, 2500))
			_exit(1);
	}
	t0 = now_s();
	while (now_s() - t0 < secs) {
		for (k = 0; k < 2; k++) {
			if (sub[k] - done[k] >= 3) {
				CHECK(wait_seq(ctx[k], seq[k][done[k] % 64], 20 * SEC_NS, &w) == 0 &&
				      w.error == DRM_SIMT_ERROR_NONE,
				      "a high-priority kernel failed: error %u", w.error);
				done[k]++;
			}
			CHECK(submit(ctx[k], &j[k].cmd, 1, &seq[k][sub[k] % 64]) == 0,
			      "submit");
			sub[k]++;
		}
		if (sub[0] == 2)
			CHECK(write(to_parent, "g", 1) == 1, "pipe");
	}
	for (k = 0; k < 2; k++) {
		while (done[k] < sub[k]) {
			CHECK(wait_seq(ctx[k], seq[k][done[k] % 64], 20 * SEC_NS, &w) == 0 &&
			      w.error == DRM_SIMT_ERROR_NONE,
			      "a high-priority kernel failed: error %u", w.error);
			done[k]++;
		}
		CHECK(spin_wrong(&j[k], 7) == 0, "high-priority results");
	}
	printf("stream: %u + %u high-priority kernels of %u blocks in %.1f ms\n",
	       sub[0], sub[1], slots, (now_s() - t0) * 1e3);
	_exit(failures ? 1 : 0);
}

static void test_progress(void)
{
	long long st0[ST_NR] = { 0 };
	int p[2], status, r;
	struct spinjob j;
	struct drm_simt_wait w;
	uint32_t ctx;
	uint64_t seq;
	double t0, t;
	pid_t pid;
	char ch;

	if (test_set_timeout("5"))
		return;
	stats_read(st0);
	if (pipe(p)) {
		fail(__LINE__, "pipe");
		goto out;
	}
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		close(fd);
		progress_stream(p[1], 0.015);
	}
	close(p[1]);
	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (spin_setup(&j, ctx, 8, 32, 20000))
		goto out_child;
	CHECK(read(p[0], &ch, 1) == 1, "the stream did not start");
	usleep(1000);
	t0 = now_s();
	CHECK(submit(ctx, &j.cmd, 1, &seq) == 0, "submit");
	r = wait_seq(ctx, seq, 30 * SEC_NS, &w);
	t = now_s() - t0;
	printf("the normal-priority kernel: WAIT %d, error %u, after %.1f ms\n", r, w.error,
	       t * 1e3);
	CHECK(r == 0 && w.error == DRM_SIMT_ERROR_NONE,
	      "the kernel waiting behind high priority failed: WAIT %d, error %u", r, w.error);
	CHECK(t > 0.01, "it completed after %.1f ms: not held back long enough to tell",
	      t * 1e3);
	CHECK(spin_wrong(&j, 1) == 0, "its results are wrong");
	spin_free(&j, 1);
out_child:
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "the streaming process failed");
	{
		long long d[ST_NR] = { -1, -1, 0, 0, 0, -1, -1, -1, 0 };

		stats_expect("waiting behind high priority", st0, d);
	}
	ctx_destroy(ctx);
	close(p[0]);
out:
	test_restore_timeout();
}

/*
 * ---- hang2: two endless kernels in a row (job_timeout_ms 40), each
 * declared hung and its queue stopped, while a context of another file
 * runs vecadd over and over, every result checked.  On the virtual clock
 * each is declared within 64 ms: the watchdog looks ten times per
 * timeout, at least a jiffy apart (a look comes one to two jiffies after
 * the one before, 4 to 8 ms at HZ 250), and starts counting at its first
 * look, so a hang shows at most two looks, 16 ms, late ----
 */
static void test_hang2(void)
{
	const uint32_t n = 4096, g[3] = { n / 128, 1, 1 }, b[3] = { 128, 1, 1 };
	long long st0[ST_NR] = { 0 };
	uint32_t ctxb, ha, hb, hc, da, db, dc, hl, i, so, ctx;
	struct drm_simt_cmd vcmd;
	struct drm_simt_wait w, wv;
	float *a, *bb, *c;
	struct spinjob j;
	struct kimg kb;
	int f1 = fd, f2, round, runs, r, bad;
	uint64_t seq, vseq;
	double t0, t;

	if (test_set_timeout("40"))
		return;
	stats_read(st0);

	/* The bystander: vecadd in a context of another open file. */
	f2 = open_node();
	use_fd(f2);
	ctxb = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (kimg_load(&kb, "samples.elf", ctxb)) {
		use_fd(f1);
		goto out;
	}
	a = vbuf(ctxb, n * 4, &ha, &da);
	bb = vbuf(ctxb, n * 4, &hb, &db);
	c = vbuf(ctxb, n * 4, &hc, &dc);
	for (i = 0; i < n; i++) {
		a[i] = i;
		bb[i] = 2.0f * i + 1;
	}
	CHECK(kimg_cmd(&kb, ctxb, "vecadd", g, b, (uint32_t[8]){ da, db, dc, n },
		       &vcmd, &hl) == 0 && !hl, "vecadd");
	use_fd(f1);

	for (round = 0; round < 2; round++) {
		ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
		if (spin_setup(&j, ctx, 1, 32, 0xffffffffu))
			break;
		so = syncobj_new();
		t0 = now_s();
		CHECK(submit_sync(ctx, &j.cmd, 1, so, &seq) == 0, "submit the endless kernel");
		runs = bad = 0;
		do {
			for (i = 0; i < n; i++)
				c[i] = -1.0f;
			r = submit_x(f2, ctxb, &vcmd, 1, 0, NULL, 0, 0, 0, &vseq, NULL);
			CHECK(r == 0, "the other context's SUBMIT: %s", strerror(-r));
			r = wait_on(f2, ctxb, vseq, 10 * SEC_NS, &wv);
			CHECK(r == 0 && wv.error == DRM_SIMT_ERROR_NONE,
			      "the other context's vecadd: WAIT %d, error %u", r, wv.error);
			for (i = 0; i < n; i++)
				if (c[i] != 3.0f * i + 1 && !bad++)
					fail(__LINE__, "hang %d: the other context's c[%u] = %g, expected %g",
					     round, i, c[i], 3.0f * i + 1);
			runs++;
			r = wait_seq(ctx, seq, 0, &w);
		} while (r == -ETIME && now_s() - t0 < 20);
		t = now_s() - t0;
		printf("endless kernel %d: WAIT %d, error %u, after %.1f ms; the other context ran vecadd %d times meanwhile, %d wrong\n",
		       round + 1, r, w.error, t * 1e3, runs, bad);
		CHECK(r == 0 && w.error == DRM_SIMT_ERROR_TIMEOUT,
		      "hang %d: WAIT %d, error %u, expected DRM_SIMT_ERROR_TIMEOUT",
		      round + 1, r, w.error);
		CHECK(t >= 0.04 && t < (on_virtual_clock() ? 0.064 : 15),
		      "hang %d declared after %.1f ms; the timeout is 40 ms", round + 1, t * 1e3);
		CHECK(runs >= 5, "the other context ran only %d times during hang %d",
		      runs, round + 1);
		r = syncobj_status(so);
		CHECK(r == -ETIMEDOUT, "hang %d: fence status %d, expected %d", round + 1,
		      r, -ETIMEDOUT);
		CHECK(submit(ctx, &j.cmd, 1, &seq) == -EIO, "a hung context took more work");
		syncobj_free(so);
		spin_free(&j, 1);
		CHECK(ctx_destroy(ctx) == 0, "destroy");
	}
	{
		/* Two timeouts, each recovered by stopping one queue. */
		long long d[ST_NR] = { -1, -1, 0, 2, 0, -1, -1, -1, 2 };

		stats_expect("two hangs", st0, d);
	}
	munmap(a, n * 4);
	munmap(bb, n * 4);
	munmap(c, n * 4);
out:
	close(f2);
	test_restore_timeout();
}

/*
 * ---- bystander: work that is not idempotent next to a recovery.
 * First a hang (job_timeout_ms 10) in one context while another runs
 * histogram (atomics) over and over: each histogram is right or ends
 * with DRM_SIMT_ERROR_CANCELED, never wrong.  Then a whole-device reset
 * forced through debugfs "reset" while two spin kernels run: the one
 * launched without DRM_SIMT_CMD_LAUNCH_IDEMPOTENT is cancelled (error
 * CANCELED, fence -ECANCELED, its context refuses work), the one with
 * the flag is run again and right; an idle context works after it ----
 */
static void test_bystander(void)
{
	const uint32_t n = 200000, g[3] = { 6, 1, 1 }, b[3] = { 128, 1, 1 };
	uint32_t ctxh, ctxx, hd, hbins, dd, dbins, hl, i, wbins[256] = { 0 };
	uint32_t *bins, runs = 0, right = 0, cancelled = 0, wrong = 0;
	long long st0[ST_NR] = { 0 };
	struct drm_simt_cmd hcmd;
	struct drm_simt_wait w, wh;
	struct spinjob jh;
	struct kimg kx;
	uint8_t *data;
	uint64_t seqh, seq;
	double t0;
	int r, hung = 0, after = 0;

	/* Part 1: a hang beside histogram. */
	if (test_set_timeout("10"))
		return;
	ctxx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (kimg_load(&kx, "histogram.elf", ctxx))
		goto out;
	data = vbuf(ctxx, n, &hd, &dd);
	bins = vbuf(ctxx, 256 * 4, &hbins, &dbins);
	for (i = 0; i < n; i++) {
		data[i] = pat(i, 4) % 151 + (i % 5) * 20;
		wbins[data[i]]++;
	}
	CHECK(kimg_cmd(&kx, ctxx, "histogram", g, b, (uint32_t[8]){ dd, n, dbins },
		       &hcmd, &hl) == 0 && !hl, "histogram");
	ctxh = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (spin_setup(&jh, ctxh, 1, 32, 0xffffffffu))
		goto out;
	t0 = now_s();
	CHECK(submit(ctxh, &jh.cmd, 1, &seqh) == 0, "submit the endless kernel");
	while (after < 3 && now_s() - t0 < 20) {
		memset(bins, 0, 256 * 4);
		r = submit(ctxx, &hcmd, 1, &seq);
		if (r == -EIO) {
			/* stopped after a cancellation: a new context goes on */
			fail(__LINE__, "histogram's context refuses work");
			break;
		}
		CHECK(r == 0, "histogram SUBMIT: %s", strerror(-r));
		r = wait_seq(ctxx, seq, 10 * SEC_NS, &w);
		runs++;
		if (r == 0 && w.error == DRM_SIMT_ERROR_CANCELED) {
			cancelled++;
			break;
		} else if (r == 0 && w.error == DRM_SIMT_ERROR_NONE) {
			for (i = 0; i < 256 && bins[i] == wbins[i]; i++)
				;
			if (i < 256) {
				if (!wrong++)
					fail(__LINE__, "histogram beside a hang: bin %u = %u, expected %u",
					     i, bins[i], wbins[i]);
			} else {
				right++;
			}
		} else {
			fail(__LINE__, "histogram: WAIT %d, error %u", r, w.error);
			break;
		}
		if (!hung) {
			r = wait_seq(ctxh, seqh, 0, &wh);
			hung = r == 0;
		} else {
			after++;
		}
	}
	if (!hung) {
		r = wait_seq(ctxh, seqh, 20 * SEC_NS, &wh);
		hung = r == 0;
	}
	printf("histogram beside a hang: %u runs, %u right, %u cancelled, %u wrong; the hang was %s after %.1f ms\n",
	       runs, right, cancelled, wrong, hung ? "recovered" : "not recovered",
	       (now_s() - t0) * 1e3);
	CHECK(hung && wh.error == DRM_SIMT_ERROR_TIMEOUT, "the endless kernel: error %u",
	      wh.error);
	CHECK(runs >= 3, "histogram ran only %u times", runs);
	spin_free(&jh, 1);
	ctx_destroy(ctxh);
	munmap(data, n);
	munmap(bins, 256 * 4);
	bo_close(hd);
	bo_close(hbins);
	kimg_free(&kx);
	ctx_destroy(ctxx);
	test_restore_timeout();

	/* Part 2: a device reset forced through debugfs. */
	{
		uint32_t sm = get_param(DRM_SIMT_PARAM_SM_COUNT);
		uint32_t ctxn, ctxi, ctxz, sn, v, s;
		struct spinjob jn, ji;
		struct drm_simt_cmd cc;
		uint64_t seqn, seqi;
		char path[256];
		FILE *f;

		stats_read(st0);
		snprintf(path, sizeof(path), "%s", debugfs_file("reset"));
		ctxn = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
		ctxi = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
		ctxz = ctx_new(DRM_SIMT_PRIORITY_LOW);
		if (spin_setup(&jn, ctxn, sm, 32, 0xffffffffu) ||
		    spin_setup(&ji, ctxi, sm, 32, 500000))
			return;
		ji.cmd.flags = DRM_SIMT_CMD_LAUNCH_IDEMPOTENT;
		sn = syncobj_new();
		t0 = now_s();
		CHECK(submit_sync(ctxn, &jn.cmd, 1, sn, &seqn) == 0, "submit (not idempotent)");
		CHECK(submit(ctxi, &ji.cmd, 1, &seqi) == 0, "submit (idempotent)");
		usleep(2000);
		CHECK(wait_seq(ctxn, seqn, 0, &w) == -ETIME &&
		      wait_seq(ctxi, seqi, 0, &w) == -ETIME,
		      "the kernels did not run long enough to be reset");
		f = fopen(path, "w");
		CHECK(f && fputs("1", f) >= 0 && fclose(f) == 0,
		      "cannot write 1 to debugfs reset (%s)", path);
		r = wait_seq(ctxn, seqn, 10 * SEC_NS, &w);
		printf("the kernel without the idempotent flag: WAIT %d, error %u\n", r, w.error);
		CHECK(r == 0 && w.error == DRM_SIMT_ERROR_CANCELED,
		      "WAIT %d, error %u, expected DRM_SIMT_ERROR_CANCELED", r, w.error);
		r = syncobj_status(sn);
		CHECK(r == -ECANCELED, "its fence: status %d, expected %d", r, -ECANCELED);
		CHECK(submit(ctxn, &jn.cmd, 1, &seq) == -EIO,
		      "its context took work after the cancellation");
		r = wait_seq(ctxi, seqi, 60 * SEC_NS, &w);
		printf("the idempotent kernel: WAIT %d, error %u, done %.1f ms after its submission\n",
		       r, w.error, (now_s() - t0) * 1e3);
		CHECK(r == 0 && w.error == DRM_SIMT_ERROR_NONE,
		      "the idempotent kernel: WAIT %d, error %u", r, w.error);
		CHECK(spin_wrong(&ji, 9) == 0, "the replayed kernel's results are wrong");
		/* The idle context works. */
		v = bo_new(8192, DRM_SIMT_BO_SYSTEM);
		s = bo_new(8192, DRM_SIMT_BO_SYSTEM);
		cc = copy_cmd(s, 0, v, 0, 8192);
		run(ctxz, &cc, 1);
		bo_close(v);
		bo_close(s);
		{
			long long d[ST_NR] = { -1, -1, -1, 0, 1, -1, -1, -1, 0 };

			stats_expect("a forced reset", st0, d);
		}
		syncobj_free(sn);
		spin_free(&jn, 1);
		spin_free(&ji, 1);
		ctx_destroy(ctxn);
		ctx_destroy(ctxi);
		ctx_destroy(ctxz);
	}
	return;
out:
	test_restore_timeout();
}

/*
 * ---- signal: WAIT under a stream of SA_RESTART signals (every 20 ms)
 * on a kernel that runs longer: a relative 1 s WAIT and an absolute one
 * (deadline 1 s ahead) both end with ETIME at about 1 s, however often
 * the call was interrupted and restarted.  The signals stop after 3 s,
 * so a driver that restarts with the whole timeout each time ends the
 * test too, late. ----
 */
static volatile sig_atomic_t sig_count;

static void on_alarm(int sig)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	(void)sig;
	if (++sig_count >= 150)
		setitimer(ITIMER_REAL, &off, NULL);
}

static void test_signal(void)
{
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART }, old;
	struct itimerval every = { { 0, 20000 }, { 0, 20000 } }, off = { { 0, 0 }, { 0, 0 } };
	struct drm_simt_wait w;
	struct spinjob j;
	uint32_t ctx;
	uint64_t seq, t0;
	double t;
	int mode, r, e;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (spin_setup(&j, ctx, 1, 32, 0xffffffffu))
		return;
	CHECK(submit(ctx, &j.cmd, 1, &seq) == 0, "submit");
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old);
	for (mode = 0; mode < 2; mode++) {
		memset(&w, 0, sizeof(w));
		w.ctx_id = ctx;
		w.seqno = seq;
		sig_count = 0;
		t0 = now_ns();
		w.flags = mode ? DRM_SIMT_WAIT_ABSOLUTE : 0;
		w.timeout_ns = mode ? (int64_t)(t0 + SEC_NS) : SEC_NS;
		setitimer(ITIMER_REAL, &every, NULL);
		r = ioctl(fd, DRM_IOCTL_SIMT_WAIT, &w);	/* once: SA_RESTART restarts it */
		e = errno;
		setitimer(ITIMER_REAL, &off, NULL);
		t = (now_ns() - t0) * 1e-9;
		printf("%s 1 s WAIT with a signal every 20 ms: %d (%s) after %.3f s, %d signals\n",
		       mode ? "absolute" : "relative", r, r ? strerror(e) : "done", t,
		       (int)sig_count);
		CHECK(r < 0 && e == ETIME, "%s WAIT: %d (%s), expected ETIME",
		      mode ? "absolute" : "relative", r, r ? strerror(e) : "done");
		CHECK(t >= 0.99 && t < 1.8, "%s WAIT ended after %.3f s; the deadline was 1 s",
		      mode ? "absolute" : "relative", t);
		CHECK(sig_count >= 20, "only %d signals during the WAIT", (int)sig_count);
	}
	sigaction(SIGALRM, &old, NULL);
	spin_free(&j, 1);
	CHECK(ctx_destroy(ctx) == 0, "destroy with the kernel running");
}

/*
 * ---- threads: threads of one process race SUBMIT, CONTEXT_DESTROY and
 * VM_UNBIND/VM_BIND on one open file for 2 s.  Only the errors the
 * races explain may come back (ENOENT for a context or binding just
 * gone, EIO for a context stopped by a copy that found its object
 * unbound, EEXIST, ETIME); nothing crashes, the kernel log stays clean
 * (the script checks), and a new context works afterwards ----
 */
struct race {
	uint32_t cur;		/* the context the threads use */
	int stop;
	uint32_t v, s;
	long calls[4], errs[4][8];
};

/* Count @r for thread kind @kind; fail unless it is one of @ok (0-ended). */
static void race_note(struct race *rc, int kind, const char *what, int r,
		      const int *ok)
{
	static const int seen[8] = { 0, ENOENT, EIO, EEXIST, ETIME, ENOSPC, EINVAL, 0 };
	int i;

	__atomic_add_fetch(&rc->calls[kind], 1, __ATOMIC_RELAXED);
	for (i = 1; i < 7; i++)
		if (-r == seen[i])
			__atomic_add_fetch(&rc->errs[kind][i], 1, __ATOMIC_RELAXED);
	if (r == 0)
		return;
	for (i = 0; ok[i]; i++)
		if (-r == ok[i])
			return;
	fail(__LINE__, "%s: %d (%s)", what, r, strerror(-r));
}

static void *race_submit(void *arg)
{
	static const int ok_sub[] = { ENOENT, EIO, 0 }, ok_wait[] = { ENOENT, ETIME, EINVAL, 0 };
	struct race *rc = arg;
	struct drm_simt_cmd cmds[2] = {
		copy_cmd(rc->s, 0, rc->v, 0, 65536), copy_cmd(rc->v, 0, rc->s, 65536, 65536),
	};
	struct drm_simt_wait w;
	uint64_t seq;
	uint32_t c;
	int r, k = 0;

	while (!__atomic_load_n(&rc->stop, __ATOMIC_RELAXED)) {
		c = __atomic_load_n(&rc->cur, __ATOMIC_RELAXED);
		r = submit(c, cmds, 2, &seq);
		race_note(rc, 0, "SUBMIT", r, ok_sub);
		if (r == 0 && ++k % 8 == 0) {
			r = wait_seq(c, seq, 0, &w);
			race_note(rc, 0, "WAIT", r, ok_wait);
		}
	}
	return NULL;
}

static void *race_destroy(void *arg)
{
	static const int ok[] = { ENOENT, 0 };
	struct race *rc = arg;

	while (!__atomic_load_n(&rc->stop, __ATOMIC_RELAXED)) {
		usleep(20000);
		race_note(rc, 1, "CONTEXT_DESTROY",
			  ctx_destroy(__atomic_load_n(&rc->cur, __ATOMIC_RELAXED)), ok);
	}
	return NULL;
}

static void *race_bind(void *arg)
{
	static const int ok_unbind[] = { ENOENT, 0 }, ok_bind[] = { ENOENT, EEXIST, 0 };
	struct race *rc = arg;
	struct drm_simt_vm_unbind u;
	struct drm_simt_vm_bind b;

	while (!__atomic_load_n(&rc->stop, __ATOMIC_RELAXED)) {
		u = (struct drm_simt_vm_unbind){ .ctx_id = __atomic_load_n(&rc->cur, __ATOMIC_RELAXED),
						 .handle = rc->v };
		race_note(rc, 2, "VM_UNBIND", xioctl(fd, DRM_IOCTL_SIMT_VM_UNBIND, &u),
			  ok_unbind);
		b = (struct drm_simt_vm_bind){ .ctx_id = u.ctx_id, .handle = rc->v };
		race_note(rc, 2, "VM_BIND", xioctl(fd, DRM_IOCTL_SIMT_VM_BIND, &b), ok_bind);
	}
	return NULL;
}

/*
 * After the races a new context works: system object @sys (@size bytes)
 * to VRAM object @vram and half of it back, checked byte for byte.
 */
static void race_round_trip(uint32_t sys, uint32_t vram, uint64_t size,
			    unsigned int seed)
{
	struct drm_simt_cmd cmds[2] = {
		copy_cmd(sys, 0, vram, 0, size), copy_cmd(vram, 0, sys, 0, size / 2),
	};
	uint8_t *ms = bo_map(sys, size), *want = malloc(size);
	uint32_t c = ctx_new(DRM_SIMT_PRIORITY_NORMAL);

	bind(c, vram);
	fill(ms, size, seed);
	memcpy(want, ms, size);
	run(c, cmds, 2);
	same("a round trip after the races", ms, want, size);
	CHECK(ctx_destroy(c) == 0, "destroy");
	munmap(ms, size);
	free(want);
}

static void test_threads(void)
{
	/*
	 * Context ids are per file and may be reused: the other threads can
	 * bind, use or destroy the new context before it is published.
	 */
	static const int ok_create[] = { ENOSPC, 0 }, ok_destroy[] = { ENOENT, 0 };
	static const int ok_bind[] = { ENOENT, EEXIST, 0 };
	struct drm_simt_vm_bind b;
	struct race rc = { 0 };
	pthread_t th[4];
	uint32_t c, old;
	double t0 = now_s();
	int i, r, nth = 0;

	rc.v = bo_new(1 << 20, DRM_SIMT_BO_VRAM);
	rc.s = bo_new(1 << 20, DRM_SIMT_BO_SYSTEM);
	rc.cur = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	bind(rc.cur, rc.v);
	CHECK(pthread_create(&th[nth++], NULL, race_submit, &rc) == 0, "thread");
	CHECK(pthread_create(&th[nth++], NULL, race_submit, &rc) == 0, "thread");
	CHECK(pthread_create(&th[nth++], NULL, race_destroy, &rc) == 0, "thread");
	CHECK(pthread_create(&th[nth++], NULL, race_bind, &rc) == 0, "thread");
	/*
	 * This thread replaces the context every 5 ms or so, for 2 s and
	 * at least 100 times (a debug kernel is slower), 30 s at most.
	 */
	while ((now_s() - t0 < 2.0 || rc.calls[3] < 100) && now_s() - t0 < 30) {
		r = ctx_create_on(fd, DRM_SIMT_PRIORITY_NORMAL, &c);
		race_note(&rc, 3, "CONTEXT_CREATE", r, ok_create);
		if (r) {
			usleep(1000);
			continue;
		}
		b = (struct drm_simt_vm_bind){ .ctx_id = c, .handle = rc.v };
		race_note(&rc, 3, "VM_BIND", xioctl(fd, DRM_IOCTL_SIMT_VM_BIND, &b), ok_bind);
		old = __atomic_exchange_n(&rc.cur, c, __ATOMIC_SEQ_CST);
		race_note(&rc, 3, "CONTEXT_DESTROY", ctx_destroy(old), ok_destroy);
		usleep(5000);
	}
	__atomic_store_n(&rc.stop, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	r = ctx_destroy(rc.cur);
	CHECK(r == 0 || r == -ENOENT, "last destroy: %d", r);
	printf("%.1f s of races: %ld submits/waits (%ld ENOENT, %ld EIO, %ld ETIME, %ld EINVAL), %ld destroys (%ld ENOENT), %ld unbinds/binds (%ld ENOENT, %ld EEXIST), %ld creates/destroys (%ld ENOSPC)\n",
	       now_s() - t0, rc.calls[0], rc.errs[0][1], rc.errs[0][2], rc.errs[0][4], rc.errs[0][6],
	       rc.calls[1], rc.errs[1][1], rc.calls[2], rc.errs[2][1], rc.errs[2][3],
	       rc.calls[3], rc.errs[3][5]);
	CHECK(rc.calls[0] - rc.errs[0][1] > 100 && rc.calls[1] > 20 &&
	      rc.calls[2] > 100 && rc.calls[3] > 100, "too few calls to race");
	{
		int left = 0;

		for (i = 0; i < 30 && (left = debugfs_ctx_count("pid", getpid())) > 0; i++)
			usleep(100000);
		CHECK(left == 0, "%d contexts of this process left after destroying them all",
		      left);
	}
	race_round_trip(rc.s, rc.v, 1 << 20, 17);
	bo_close(rc.v);
	bo_close(rc.s);
}

/*
 * ---- close: an open file closed with work in flight: a kernel running
 * and a copy queued behind it, both with sync_files that this process
 * keeps.  Both sync_files signal with -ECANCELED (the kernel had
 * reached the device, the copy had not), the file's contexts leave
 * debugfs and its half of VRAM comes back ----
 */
static void test_close(void)
{
	uint64_t vram = get_param(DRM_SIMT_PARAM_VRAM_SIZE);
	uint32_t ctx, big, sys, h = 0;
	struct drm_simt_cmd cc;
	struct spinjob j;
	uint64_t seq;
	int f2, f1 = fd, sf1 = -1, sf2 = -1, r, i, left = -1;
	double t0;

	f2 = open_node();
	use_fd(f2);
	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (spin_setup(&j, ctx, 1, 32, 0xffffffffu)) {
		use_fd(f1);
		close(f2);
		return;
	}
	big = bo_new(vram / 2, DRM_SIMT_BO_VRAM);
	bind(ctx, big);
	sys = bo_new(1 << 20, DRM_SIMT_BO_SYSTEM);
	cc = copy_cmd(sys, 0, big, 0, 1 << 20);
	CHECK(submit_x(f2, ctx, &j.cmd, 1, DRM_SIMT_SUBMIT_FENCE_FD, NULL, 0, 0, 0,
		       &seq, &sf1) == 0 && sf1 > 0, "submit the kernel with a sync_file");
	CHECK(submit_x(f2, ctx, &cc, 1, DRM_SIMT_SUBMIT_FENCE_FD, NULL, 0, 0, 0,
		       &seq, &sf2) == 0 && sf2 > 0, "submit the copy with a sync_file");
	usleep(200000);
	if (sf1 > 0)
		CHECK(!sync_file_poll(sf1, 0), "the endless kernel's sync_file signalled");
	munmap(j.m, j.n * 4);	/* a mapping would keep the file open */
	use_fd(f1);
	t0 = now_s();
	close(f2);
	if (sf1 > 0) {
		CHECK(sync_file_poll(sf1, 10000), "the kernel's sync_file did not signal");
		r = sync_file_status(sf1);
		printf("the running kernel's sync_file: status %d after %.3f s\n", r, now_s() - t0);
		CHECK(r == -ECANCELED, "status %d, expected %d", r, -ECANCELED);
		close(sf1);
	}
	if (sf2 > 0) {
		CHECK(sync_file_poll(sf2, 10000), "the copy's sync_file did not signal");
		r = sync_file_status(sf2);
		printf("the queued copy's sync_file: status %d\n", r);
		CHECK(r == -ECANCELED, "status %d, expected %d", r, -ECANCELED);
		close(sf2);
	}
	simt_image_free(&j.ki.img);
	/* Nothing left: the contexts, the VRAM. */
	for (i = 0; i < 30 && (left = debugfs_ctx_count("pid", getpid())) > 0; i++)
		usleep(100000);
	CHECK(left == 0, "%d contexts of the closed file left", left);
	for (i = 0; i < 30 && (r = bo_create(vram / 4 * 3, DRM_SIMT_BO_VRAM, &h)) == -ENOMEM; i++)
		usleep(100000);
	CHECK(r == 0, "3/4 of VRAM cannot be had after the close: %s", strerror(-r));
	if (r == 0)
		bo_close(h);
	printf("closed with work in flight: fences signalled with errors, nothing left behind\n");
}

/*
 * ---- fdinfo: /proc/PID/fdinfo of an open file (DRM client usage
 * stats): the keys, compute time and cycles growing with a kernel and
 * consistent with each other, copy time with a copy and only with it,
 * compute time leaving out the time a kernel sat preempted, memory
 * totals matching the objects allocated, the context count ----
 */

/* The value of @key in the fdinfo of @f (without the tab); 0 or -1. */
static int fdinfo_get(int f, const char *key, char *val, size_t len)
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
static long long fdinfo_num(int f, const char *key, const char *unit)
{
	char val[128], u[16] = "";
	long long v;
	int k;

	if (fdinfo_get(f, key, val, sizeof(val))) {
		fail(__LINE__, "fdinfo has no %s", key);
		return -1;
	}
	k = sscanf(val, "%lld %15s", &v, u);
	if (k < 1) {
		fail(__LINE__, "fdinfo %s: '%s'", key, val);
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

/* Copy time: a copy between @vram and @sys, in context @ctx of file @f. */
static void fdinfo_copy(int f, uint32_t ctx, uint32_t vram, uint32_t sys)
{
	uint32_t mhz = get_param(DRM_SIMT_PARAM_CLOCK_MHZ);
	long long ns0, cy0, ns1, cy1, k0, k1;
	struct drm_simt_cmd c = copy_cmd(sys, 0, vram, 0, 1 << 20);
	struct drm_simt_wait w;
	uint64_t seq;

	bind(ctx, vram);
	ns0 = fdinfo_num(f, "drm-engine-copy", "ns");
	cy0 = fdinfo_num(f, "drm-cycles-copy", "");
	k0 = fdinfo_num(f, "drm-cycles-compute", "");
	CHECK(submit(ctx, &c, 1, &seq) == 0, "submit a copy");
	CHECK(wait_seq(ctx, seq, 20 * SEC_NS, &w) == 0 && !w.error, "the copy");
	ns1 = fdinfo_num(f, "drm-engine-copy", "ns");
	cy1 = fdinfo_num(f, "drm-cycles-copy", "");
	k1 = fdinfo_num(f, "drm-cycles-compute", "");
	printf("a copy of 1 MiB: drm-engine-copy %lld -> %lld ns, drm-cycles-copy %lld -> %lld\n",
	       ns0, ns1, cy0, cy1);
	CHECK(cy1 > cy0 && ns1 > ns0, "copy time did not grow with a copy");
	CHECK(llabs((ns1 - ns0) - (cy1 - cy0) * 1000 / mhz) <= 1000,
	      "%lld ns of copy for %lld cycles at %u MHz", ns1 - ns0, cy1 - cy0, mhz);
	CHECK(k1 == k0, "a copy counted %lld cycles of compute", k1 - k0);
}

/*
 * Compute time leaves out preemption: a low-priority kernel of file @f
 * (context @ctx) that fills every block slot is switched out by a
 * high-priority one of another file that fills them too; the low one's
 * compute time grows by its run time less about the high one's, not by
 * its end-to-end time.  The high one runs on file @other.
 */
static void fdinfo_preempted(int f, uint32_t ctx, int other)
{
	uint32_t slots = get_param(DRM_SIMT_PARAM_SM_COUNT) *
			 get_param(DRM_SIMT_PARAM_SM_BLOCKS);
	struct drm_simt_wait lw = { 0 }, hw = { 0 };
	long long k0, k1, lrun, hrun;
	struct spinjob lp, hp;
	uint64_t lseq, hseq;
	uint32_t hctx;

	use_fd(f);
	if (spin_setup(&lp, ctx, slots, 32, 200000))
		return;
	use_fd(other);
	hctx = ctx_new(DRM_SIMT_PRIORITY_HIGH);
	if (spin_setup(&hp, hctx, slots, 32, 50000)) {
		use_fd(f);
		spin_free(&lp, 1);
		return;
	}
	use_fd(f);
	k0 = fdinfo_num(f, "drm-cycles-compute", "");
	CHECK(submit(ctx, &lp.cmd, 1, &lseq) == 0, "submit the low-priority kernel");
	usleep(20000);
	CHECK(wait_seq(ctx, lseq, 0, &lw) == -ETIME,
	      "the low-priority kernel ended before the high-priority one came");
	use_fd(other);
	CHECK(submit(hctx, &hp.cmd, 1, &hseq) == 0, "submit the high-priority kernel");
	CHECK(wait_seq(hctx, hseq, 30 * SEC_NS, &hw) == 0 && !hw.error,
	      "the high-priority kernel");
	use_fd(f);
	CHECK(wait_seq(ctx, lseq, 60 * SEC_NS, &lw) == 0 && !lw.error,
	      "the low-priority kernel");
	k1 = fdinfo_num(f, "drm-cycles-compute", "");
	lrun = lw.end_cycle - lw.start_cycle;
	hrun = hw.end_cycle - hw.start_cycle;
	printf("a kernel preempted by one of %lld cycles ran %lld cycles end to end: drm-cycles-compute grew %lld\n",
	       hrun, lrun, k1 - k0);
	CHECK(k1 - k0 > 0 && k1 - k0 <= lrun - hrun / 2,
	      "compute time %lld of a kernel of %lld cycles preempted for %lld",
	      k1 - k0, lrun, hrun);
	spin_free(&lp, 1);
	use_fd(other);
	spin_free(&hp, 1);
	CHECK(ctx_destroy(hctx) == 0, "destroy");
	use_fd(f);
}

/*
 * A device reset sets the queues' counters to 0: the engine times of
 * file @f, whose contexts ran work before, stay as they were.
 */
static void fdinfo_reset(int f)
{
	long long k0 = fdinfo_num(f, "drm-cycles-compute", "");
	long long c0 = fdinfo_num(f, "drm-cycles-copy", "");
	long long k1, c1;
	FILE *r = fopen(debugfs_file("reset"), "w");

	CHECK(r && fputs("1", r) >= 0 && fclose(r) == 0,
	      "cannot write 1 to debugfs reset");
	k1 = fdinfo_num(f, "drm-cycles-compute", "");
	c1 = fdinfo_num(f, "drm-cycles-copy", "");
	printf("a device reset: drm-cycles-compute %lld -> %lld, drm-cycles-copy %lld -> %lld\n",
	       k0, k1, c0, c1);
	CHECK(k0 > 0 && c0 > 0 && k1 == k0 && c1 == c0,
	      "engine times changed across an idle device reset");
}

static void test_fdinfo(void)
{
	static const char *const mem[] = { "total", "shared", "active", "resident" };
	uint32_t mhz = get_param(DRM_SIMT_PARAM_CLOCK_MHZ), c1, c2, v1, v2, s1;
	long long ns0, cy0, ns1, cy1, x;
	char val[128], key[64], pdev[64] = "", *rp;
	struct drm_simt_wait w;
	struct spinjob j;
	uint64_t seq;
	int f1 = fd, f2, i, k;

	f2 = open_node();
	CHECK(fdinfo_get(f2, "drm-driver", val, sizeof(val)) == 0 && !strcmp(val, "simt"),
	      "drm-driver '%s'", val);
	rp = realpath("/sys/class/accel/accel0/device", NULL);
	if (rp)
		snprintf(pdev, sizeof(pdev), "%s", strrchr(rp, '/') + 1);
	free(rp);
	CHECK(fdinfo_get(f2, "drm-pdev", val, sizeof(val)) == 0 && !strcmp(val, pdev),
	      "drm-pdev '%s', the device is %s", val, pdev);
	{
		char id1[32] = "", id2[32] = "";

		CHECK(fdinfo_get(f1, "drm-client-id", id1, sizeof(id1)) == 0 &&
		      fdinfo_get(f2, "drm-client-id", id2, sizeof(id2)) == 0 &&
		      strcmp(id1, id2), "drm-client-id '%s' and '%s' of two files", id1, id2);
	}
	CHECK(fdinfo_num(f2, "drm-maxfreq-compute", "MHz") == mhz,
	      "drm-maxfreq-compute is not CLOCK_MHZ %u", mhz);
	CHECK(fdinfo_num(f2, "drm-maxfreq-copy", "MHz") == mhz,
	      "drm-maxfreq-copy is not CLOCK_MHZ %u", mhz);
	/* A new file: nothing. */
	CHECK(fdinfo_num(f2, "drm-engine-compute", "ns") == 0 &&
	      fdinfo_num(f2, "drm-cycles-compute", "") == 0 &&
	      fdinfo_num(f2, "drm-engine-copy", "ns") == 0 &&
	      fdinfo_num(f2, "drm-cycles-copy", "") == 0 &&
	      fdinfo_num(f2, "simt-contexts", "") == 0, "a new file has used something");
	for (i = 0; i < 4; i++)
		for (k = 0; k < 2; k++) {
			snprintf(key, sizeof(key), "drm-%s-%s", mem[i], k ? "system" : "vram");
			x = fdinfo_num(f2, key, NULL);
			CHECK(x == 0, "a new file: %s is %lld", key, x);
		}
	/* Objects: exactly their sizes in the totals. */
	use_fd(f2);
	v1 = bo_new(1 << 20, DRM_SIMT_BO_VRAM);
	v2 = bo_new(3 << 20, DRM_SIMT_BO_VRAM);
	s1 = bo_new(2 << 20, DRM_SIMT_BO_SYSTEM);
	x = fdinfo_num(f2, "drm-total-vram", NULL);
	CHECK(x == 4 << 20, "drm-total-vram %lld after 4 MiB of VRAM objects", x);
	x = fdinfo_num(f2, "drm-total-system", NULL);
	CHECK(x == 2 << 20, "drm-total-system %lld after 2 MiB of system objects", x);
	x = fdinfo_num(f2, "drm-shared-vram", NULL);
	CHECK(x == 0, "drm-shared-vram %lld, nothing is shared", x);
	bo_close(v2);
	x = fdinfo_num(f2, "drm-total-vram", NULL);
	CHECK(x == 1 << 20, "drm-total-vram %lld after freeing 3 of its 4 MiB", x);
	/* Contexts. */
	c1 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	c2 = ctx_new(DRM_SIMT_PRIORITY_LOW);
	CHECK(fdinfo_num(f2, "simt-contexts", "") == 2, "simt-contexts with two");
	CHECK(ctx_destroy(c2) == 0, "destroy");
	CHECK(fdinfo_num(f2, "simt-contexts", "") == 1, "simt-contexts with one");
	/* Compute time: a kernel. */
	ns0 = fdinfo_num(f2, "drm-engine-compute", "ns");
	cy0 = fdinfo_num(f2, "drm-cycles-compute", "");
	if (!spin_setup(&j, c1, 4, 32, 20000)) {
		CHECK(submit(c1, &j.cmd, 1, &seq) == 0, "submit");
		CHECK(wait_seq(c1, seq, 20 * SEC_NS, &w) == 0 && !w.error, "the kernel");
		ns1 = fdinfo_num(f2, "drm-engine-compute", "ns");
		cy1 = fdinfo_num(f2, "drm-cycles-compute", "");
		printf("a kernel of cycles %llu..%llu: drm-engine-compute %lld -> %lld ns, drm-cycles-compute %lld -> %lld at %u MHz\n",
		       (unsigned long long)w.start_cycle, (unsigned long long)w.end_cycle,
		       ns0, ns1, cy0, cy1, mhz);
		CHECK(ns1 > ns0 && cy1 > cy0, "compute time did not grow with a kernel");
		/* Both are device time: cycles / MHz microseconds. */
		CHECK(llabs((ns1 - ns0) - (cy1 - cy0) * 1000 / mhz) <=
		      (cy1 - cy0) * 1000 / mhz / 10 + 1000,
		      "%lld ns for %lld cycles at %u MHz", ns1 - ns0, cy1 - cy0, mhz);
		CHECK(cy1 - cy0 >= (long long)(w.end_cycle - w.start_cycle) / 2,
		      "%lld cycles counted for a kernel of %llu", cy1 - cy0,
		      (unsigned long long)(w.end_cycle - w.start_cycle));
		x = fdinfo_num(f2, "drm-cycles-copy", "");
		CHECK(x == 0, "a kernel counted %lld cycles of copy engine", x);
		spin_free(&j, 1);
	}
	fdinfo_copy(f2, c1, v1, s1);
	fdinfo_preempted(f2, c1, f1);
	fdinfo_reset(f2);
	for (i = 0; i < 4; i++)
		for (k = 0; k < 2; k++) {
			snprintf(key, sizeof(key), "drm-%s-%s", mem[i], k ? "system" : "vram");
			printf("%s: %lld\n", key, fdinfo_num(f2, key, NULL));
		}
	CHECK(ctx_destroy(c1) == 0, "destroy");
	bo_close(v1);
	bo_close(s1);
	use_fd(f1);
	close(f2);
}

/*
 * ---- light: a lightweight context switch saves fewer bytes than a full
 * one.  A low-priority spin holding every block slot, launched with its
 * live table and used registers, preempted by a stream of short
 * high-priority kernels, once in mode SWITCH and once in LIGHT; the
 * saved bytes per saved block of the new debugfs preempt events must be
 * smaller with LIGHT ----
 */

/* The last event number in debugfs preempt (-1 if none). */
static long preempt_last(void)
{
	char *text = read_text(debugfs_file("preempt")), *p;
	long last = -1, seq;
	char trig[16];

	if (!text) {
		fail(__LINE__, "cannot read debugfs preempt");
		return -1;
	}
	for (p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (sscanf(p, "%ld %15s", &seq, trig) == 2 && seq > last)
			last = seq;
	free(text);
	return last;
}

/* Sum the events after @after: how many, saved blocks, saved bytes. */
static void preempt_sum(long after, long *events, long *blocks, long *bytes)
{
	char *text = read_text(debugfs_file("preempt")), *p;
	unsigned int status, victims, drained, flushed, switched, light, saved;
	char trig[16];
	long seq;
	int pre;

	*events = *blocks = *bytes = 0;
	if (!text)
		return;
	for (p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (sscanf(p, "%ld %15s %u %d %x %u %u %u %u %u", &seq, trig, &status,
			   &pre, &victims, &drained, &flushed, &switched, &light,
			   &saved) == 10 && seq > after) {
			(*events)++;
			*blocks += switched + light;
			*bytes += saved;
		}
	free(text);
}

static void test_light(void)
{
	static const uint32_t modes[2] = { DRM_SIMT_PREEMPT_SWITCH, DRM_SIMT_PREEMPT_LIGHT };
	static const char *const names[2] = { "switch", "light" };
	uint32_t slots = get_param(DRM_SIMT_PARAM_SM_COUNT) * get_param(DRM_SIMT_PARAM_SM_BLOCKS);
	long events[2] = { 0 }, blocks[2] = { 0 }, bytes[2] = { 0 }, last;
	struct drm_simt_context_create cc;
	struct drm_simt_wait w;
	struct spinjob lp, hp;
	uint32_t hctx, live;
	uint64_t lseq, hseq;
	int m, nhp;
	double t0;

	hctx = ctx_new(DRM_SIMT_PRIORITY_HIGH);
	if (spin_setup(&hp, hctx, 4, 32, 200))
		return;
	for (m = 0; m < 2; m++) {
		cc = (struct drm_simt_context_create){ .priority = DRM_SIMT_PRIORITY_LOW,
						       .preempt_mode = modes[m] };
		if (xioctl(fd, DRM_IOCTL_SIMT_CONTEXT_CREATE, &cc)) {
			fail(__LINE__, "CONTEXT_CREATE in mode %s", names[m]);
			continue;
		}
		if (spin_setup(&lp, cc.ctx_id, slots, 32, 20000))
			break;
		live = live_upload(&lp.ki.img, "spin", cc.ctx_id, &lp.cmd);
		last = preempt_last();
		t0 = now_s();
		CHECK(submit(cc.ctx_id, &lp.cmd, 1, &lseq) == 0, "submit the long kernel");
		usleep(20000);
		for (nhp = 0; nhp < 100 && now_s() - t0 < 20 &&
		     wait_seq(cc.ctx_id, lseq, 0, &w) == -ETIME; nhp++) {
			CHECK(submit(hctx, &hp.cmd, 1, &hseq) == 0, "submit");
			CHECK(wait_seq(hctx, hseq, 10 * SEC_NS, &w) == 0 && !w.error,
			      "a high-priority kernel");
			usleep(5000);
		}
		CHECK(wait_seq(cc.ctx_id, lseq, 30 * SEC_NS, &w) == 0 && !w.error,
		      "the long kernel in mode %s: error %u", names[m], w.error);
		CHECK(spin_wrong(&lp, 3) == 0, "mode %s: the preempted kernel's results",
		      names[m]);
		CHECK(spin_wrong(&hp, 1) == 0, "the high-priority results");
		preempt_sum(last, &events[m], &blocks[m], &bytes[m]);
		printf("mode %s: %d high-priority kernels, %ld events, %ld blocks saved, %ld bytes (%ld per event, %ld per block), %.2f s\n",
		       names[m], nhp, events[m], blocks[m], bytes[m],
		       events[m] ? bytes[m] / events[m] : 0,
		       blocks[m] ? bytes[m] / blocks[m] : 0, now_s() - t0);
		if (live)
			bo_close(live);
		spin_free(&lp, 1);
		CHECK(ctx_destroy(cc.ctx_id) == 0, "destroy");
	}
	CHECK(blocks[0] > 0 && blocks[1] > 0, "no saved blocks (switch %ld, light %ld)",
	      blocks[0], blocks[1]);
	if (blocks[0] > 0 && blocks[1] > 0)
		CHECK(bytes[1] * blocks[0] < bytes[0] * blocks[1],
		      "light saved %ld bytes per block, switch %ld", bytes[1] / blocks[1],
		      bytes[0] / blocks[0]);
	spin_free(&hp, 1);
	CHECK(ctx_destroy(hctx) == 0, "destroy");
}

/*
 * ---- launch64: DRM_SIMT_CMD_LAUNCH64 (0.6), the LAUNCH with 64-bit
 * device addresses: spin runs through it with the same results as
 * through LAUNCH; an address at or beyond 4 GiB (contexts are Sv32) and
 * a nonzero byte past the struct are EINVAL, and nothing of those runs ----
 */
static struct drm_simt_cmd launch64_of(const struct drm_simt_cmd *c)
{
	const struct drm_simt_cmd_launch *l = &c->launch;
	struct drm_simt_cmd w = { .type = DRM_SIMT_CMD_LAUNCH64, .flags = c->flags };

	w.launch64 = (struct drm_simt_cmd_launch64){
		.code_addr = l->code_addr, .entry = l->entry, .local_base = l->local_base,
		.live_addr = l->live_addr, .code_size = l->code_size, .shared_size = l->shared_size,
		.local_size = l->local_size, .regs = l->regs, .int_regs = l->int_regs,
		.fp_regs = l->fp_regs, .first_block = l->first_block,
		.block_count = l->block_count,
	};
	memcpy(w.launch64.grid, l->grid, sizeof(l->grid));
	memcpy(w.launch64.block, l->block, sizeof(l->block));
	memcpy(w.launch64.args, l->args, sizeof(l->args));
	return w;
}

static void test_launch64(void)
{
	struct drm_simt_cmd w, bad;
	struct drm_simt_wait wt;
	struct spinjob j;
	uint32_t ctx;
	uint64_t seq;
	int r;

	CHECK(sizeof(struct drm_simt_cmd_launch64) <= sizeof(((struct drm_simt_cmd *)0)->reserved),
	      "LAUNCH64 does not fit the command");
	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (spin_setup(&j, ctx, 8, 64, 300))
		return;
	w = launch64_of(&j.cmd);
	memset(j.m, 0, j.n * 4);
	r = submit(ctx, &w, 1, &seq);
	CHECK(r == 0, "SUBMIT of a LAUNCH64: %s", strerror(-r));
	if (!r) {
		r = wait_seq(ctx, seq, 10 * SEC_NS, &wt);
		CHECK(r == 0 && wt.error == DRM_SIMT_ERROR_NONE, "LAUNCH64: WAIT %d, error %u",
		      r, wt.error);
		CHECK(spin_wrong(&j, 1) == 0, "LAUNCH64: wrong results");
		CHECK(wt.end_cycle > wt.start_cycle, "LAUNCH64: no cycles in its record");
	}
	printf("spin through LAUNCH64: %u outputs right\n", j.n);

	bad = w;
	bad.launch64.code_addr += 1ull << 32;
	bad.launch64.entry += 1ull << 32;
	CHECK(submit(ctx, &bad, 1, &seq) == -EINVAL, "LAUNCH64 with code at 4 GiB + 0x%x",
	      j.cmd.launch.code_addr);
	bad = w;
	bad.launch64.local_base = 1ull << 32;
	CHECK(submit(ctx, &bad, 1, &seq) == -EINVAL, "LAUNCH64 with local memory at 4 GiB");
	bad = w;
	bad.launch64.live_addr = ~0ull & ~7ull;
	CHECK(submit(ctx, &bad, 1, &seq) == -EINVAL, "LAUNCH64 with its live table at 2^64 - 8");
	bad = w;
	bad.reserved[15] = 1;
	CHECK(submit(ctx, &bad, 1, &seq) == -EINVAL, "LAUNCH64 with a byte past it not zero");
	bad = w;
	bad.flags = 2;
	CHECK(submit(ctx, &bad, 1, &seq) == -EINVAL, "LAUNCH64 with an unknown flag");
	/* The refused ones left the context running: one more runs. */
	r = submit(ctx, &w, 1, &seq);
	CHECK(r == 0 && wait_seq(ctx, seq, 10 * SEC_NS, &wt) == 0 &&
	      wt.error == DRM_SIMT_ERROR_NONE, "a LAUNCH64 after the refused ones");
	printf("LAUNCH64 beyond 4 GiB, with a reserved byte or an unknown flag: EINVAL\n");
	spin_free(&j, 1);
	CHECK(ctx_destroy(ctx) == 0, "destroy");
}

/*
 * ---- The lifecycle stress group (issue 24): races and teardown that
 * once oopsed, read freed memory or hit another tenant's queue.  The
 * script fails each test whose kernel log shows a BUG, WARNING, KASAN or
 * lockdep report; on the debug guest kernel (make check DEBUG_KERNEL=1)
 * that catches what no result here could. ----
 */

/*
 * destroy-races: 200 times, three threads keep a context's entity full
 * of small submissions (two copies each: SUBMIT is quicker than run_job,
 * so jobs wait in the entity) and a fourth unbinds and binds another
 * VRAM object (not the copies': a copy that faulted would stop the
 * context, and SUBMIT would only say EIO) while the main thread destroys
 * the context: the destroy lands with jobs queued, one being picked by
 * the scheduler and others in the ring.  Only ENOENT (the context is
 * gone) and EEXIST may come back; no context is left, and a new one
 * works.  This is the race of drm_sched_entity_fini() with the
 * scheduler's pop_job that oopsed in drm_sched_fence_finished().
 */
#define DR_CMDS 2
#define DR_SUBMITTERS 3
struct dr_race {
	uint32_t ctx, v, s, w;
	int stop;
	long submits, errs;
};

static void *dr_submit(void *arg)
{
	static const int ok[] = { ENOENT, 0 };
	struct dr_race *rc = arg;
	struct drm_simt_cmd cmds[DR_CMDS];
	uint64_t seq;
	int r, i;

	for (i = 0; i < DR_CMDS; i += 2) {
		cmds[i] = copy_cmd(rc->s, 0, rc->v, 0, 4096);
		cmds[i + 1] = copy_cmd(rc->v, 0, rc->s, 4096, 4096);
	}
	while (!__atomic_load_n(&rc->stop, __ATOMIC_ACQUIRE)) {
		r = submit(rc->ctx, cmds, DR_CMDS, &seq);
		__atomic_add_fetch(&rc->submits, 1, __ATOMIC_RELAXED);
		for (i = 0; r && ok[i] && -r != ok[i]; i++)
			;
		if (r && !ok[i])
			fail(__LINE__, "SUBMIT during the destroy: %s", strerror(-r));
		if (r == -ENOENT)
			break;
	}
	return NULL;
}

static void *dr_bind(void *arg)
{
	struct dr_race *rc = arg;
	struct drm_simt_vm_unbind u = { .ctx_id = rc->ctx, .handle = rc->w };
	struct drm_simt_vm_bind b = { .ctx_id = rc->ctx, .handle = rc->w };
	int r;

	while (!__atomic_load_n(&rc->stop, __ATOMIC_ACQUIRE)) {
		r = xioctl(fd, DRM_IOCTL_SIMT_VM_UNBIND, &u);
		CHECK(!r || r == -ENOENT, "VM_UNBIND during the destroy: %s", strerror(-r));
		r = xioctl(fd, DRM_IOCTL_SIMT_VM_BIND, &b);
		CHECK(!r || r == -ENOENT || r == -EEXIST, "VM_BIND during the destroy: %s",
		      strerror(-r));
		if (r == -ENOENT)
			break;
	}
	return NULL;
}

#define DR_ITERATIONS 200

static void test_destroy_races(void)
{
	struct dr_race rc = { 0 };
	long submits = 0;
	pthread_t th[DR_SUBMITTERS + 1];
	int it, i, r, left = 0;
	double t0 = now_s();

	rc.v = bo_new(1 << 16, DRM_SIMT_BO_VRAM);
	rc.w = bo_new(1 << 16, DRM_SIMT_BO_VRAM);
	rc.s = bo_new(1 << 16, DRM_SIMT_BO_SYSTEM);
	for (it = 0; it < DR_ITERATIONS && !failures; it++) {
		rc.ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
		bind(rc.ctx, rc.v);
		rc.stop = 0;
		rc.submits = 0;
		for (i = 0; i < DR_SUBMITTERS; i++)
			CHECK(pthread_create(&th[i], NULL, dr_submit, &rc) == 0, "thread");
		CHECK(pthread_create(&th[i], NULL, dr_bind, &rc) == 0, "thread");
		/* Let the threads fill the entity; vary where the destroy lands. */
		while (__atomic_load_n(&rc.submits, __ATOMIC_RELAXED) < 16 + it % 32)
			usleep(200);
		r = ctx_destroy(rc.ctx);
		CHECK(r == 0, "destroy %d: %s", it, strerror(-r));
		__atomic_store_n(&rc.stop, 1, __ATOMIC_RELEASE);
		for (i = 0; i <= DR_SUBMITTERS; i++)
			pthread_join(th[i], NULL);
		submits += rc.submits;
	}
	printf("%d destroys raced %ld submissions and binds in %.1f s\n", it, submits,
	       now_s() - t0);
	CHECK(it == DR_ITERATIONS, "stopped at iteration %d", it);
	for (i = 0; i < 50 && (left = debugfs_ctx_count("pid", getpid())) > 0; i++)
		usleep(100000);
	CHECK(left == 0, "%d contexts of this process left after destroying them all", left);
	race_round_trip(rc.s, rc.v, 1 << 16, 23);
}

/*
 * watchdog-destroy: a context whose endless kernel is about to be
 * declared hung, or has just been, is destroyed, and the next context
 * takes its hardware queue at once and runs short kernels there.  The
 * watchdog's recovery must not reach the new owner: none of its kernels
 * ends with TIMEOUT or CANCELED, none is wrong, and no queue is stopped
 * for it.  The destroys come from 60 to 203 ms after the submission,
 * around the 100 ms timeout and the watchdog's looks 10 ms apart.
 */
static void test_watchdog_destroy(void)
{
	long long st0[ST_NR] = { 0 }, st1[ST_NR] = { 0 };
	struct spinjob hung, quick;
	struct drm_simt_wait w;
	uint32_t a, b;
	uint64_t seq;
	int round, i, r, runs = 0;
	double t0;

	if (test_set_timeout("100"))
		return;
	stats_read(st0);
	for (round = 0; round < 12 && !failures; round++) {
		a = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
		if (spin_setup(&hung, a, 1, 32, 0xffffffffu))
			break;
		CHECK(submit(a, &hung.cmd, 1, &seq) == 0, "submit the endless kernel");
		usleep(60000 + round * 13000);
		CHECK(ctx_destroy(a) == 0, "destroy the (maybe) hung context");
		spin_free(&hung, 0);

		b = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
		if (spin_setup(&quick, b, 4, 64, 2000))
			break;
		for (t0 = now_s(), i = 0; now_s() - t0 < 0.15; i++) {
			memset(quick.m, 0, quick.n * 4);
			CHECK(submit(b, &quick.cmd, 1, &seq) == 0, "submit on the new context");
			r = wait_seq(b, seq, 10 * SEC_NS, &w);
			CHECK(r == 0 && w.error == DRM_SIMT_ERROR_NONE,
			      "round %d, kernel %d of the new owner: WAIT %d, error %u", round, i,
			      r, w.error);
			CHECK(spin_wrong(&quick, 1) == 0, "round %d: wrong results", round);
			runs++;
		}
		spin_free(&quick, 1);
		CHECK(ctx_destroy(b) == 0, "destroy");
	}
	stats_read(st1);
	printf("%d rounds: %d kernels of the next owner, all right; %lld timeouts, %lld queue stops\n",
	       round, runs, st1[ST_TIMEOUTS] - st0[ST_TIMEOUTS],
	       st1[ST_QUEUE_STOPS] - st0[ST_QUEUE_STOPS]);
	test_restore_timeout();
}

/*
 * syncfile-outlives: the fence of a submission, as a sync_file from
 * SUBMIT and as one exported from a syncobj (drm_sched's own fence),
 * kept after the context is destroyed and freed and other contexts have
 * come and gone: SYNC_IOC_FILE_INFO still names the same driver and
 * timeline and says signalled.
 */
struct fence_names {
	char obj[32], driver[32];
	int status;
};

static int fence_names(int sf, struct fence_names *n)
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

static void test_syncfile_outlives(void)
{
	struct fence_names before[2], after[2];
	struct drm_simt_cmd cmd;
	struct drm_simt_submit s;
	uint32_t ctx, v, sys, so, c[4], max = get_param(DRM_SIMT_PARAM_MAX_CONTEXTS);
	int sf[2] = { -1, -1 }, i, n = max < 4 ? max : 4, left = 0;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	v = bo_new(1 << 16, DRM_SIMT_BO_VRAM);
	sys = bo_new(1 << 16, DRM_SIMT_BO_SYSTEM);
	bind(ctx, v);
	so = syncobj_new();
	cmd = copy_cmd(sys, 0, v, 0, 1 << 16);
	s = (struct drm_simt_submit){
		.ctx_id = ctx, .cmds = (uintptr_t)&cmd, .cmd_count = 1,
		.cmd_size = sizeof(cmd), .syncobj = so, .flags = DRM_SIMT_SUBMIT_FENCE_FD,
	};
	CHECK(xioctl(fd, DRM_IOCTL_SIMT_SUBMIT, &s) == 0 && s.fence_fd >= 0,
	      "SUBMIT with FENCE_FD and a syncobj");
	sf[0] = s.fence_fd;
	CHECK(syncobj_wait(so, 10 * SEC_NS) == 0, "the copy did not finish");
	{
		struct drm_syncobj_handle e = {
			.handle = so,
			.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
			.fd = -1,
		};

		CHECK(xioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &e) == 0,
		      "export the syncobj's fence");
		sf[1] = e.fd;
	}
	for (i = 0; i < 2; i++)
		CHECK(fence_names(sf[i], &before[i]) == 0, "SYNC_IOC_FILE_INFO %d", i);
	syncobj_free(so);
	CHECK(ctx_destroy(ctx) == 0, "destroy");
	for (i = 0; i < 50 && (left = debugfs_ctx_count("pid", getpid())) > 0; i++)
		usleep(100000);
	CHECK(left == 0, "the context was not freed");
	/*
	 * Other contexts (as many as the device holds, up to 4) take the
	 * freed memory and the same queue.
	 */
	for (i = 0; i < n; i++)
		c[i] = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	for (i = 0; i < n; i++)
		CHECK(ctx_destroy(c[i]) == 0, "destroy");
	for (i = 0; i < 2; i++) {
		CHECK(fence_names(sf[i], &after[i]) == 0, "SYNC_IOC_FILE_INFO %d after", i);
		printf("%s: driver '%s', timeline '%s', status %d; after the context: '%s', '%s', %d\n",
		       i ? "exported from the syncobj" : "SUBMIT's sync_file",
		       before[i].driver, before[i].obj, before[i].status, after[i].driver,
		       after[i].obj, after[i].status);
		CHECK(before[i].status == 1 && after[i].status == 1, "not signalled");
		CHECK(!strcmp(before[i].driver, after[i].driver) &&
		      !strcmp(before[i].obj, after[i].obj),
		      "the fence's names changed once its context was freed");
		close(sf[i]);
	}
	CHECK(!strcmp(before[0].driver, "simt"), "SUBMIT's sync_file fence is %s's",
	      before[0].driver);
	CHECK(strstr(before[1].obj, "queue") != NULL,
	      "the exported fence's timeline '%s' is not its queue's", before[1].obj);
	bo_close(v);
	bo_close(sys);
}

/*
 * grid-overflow: a launch whose grid dimensions multiply to 2^64 (0 in
 * 64 bits) is refused with EINVAL, as is one of 2^32 blocks; the largest
 * grid the device takes, 2^32 - 1 blocks, is accepted (a subgrid of its
 * first block runs).
 */
static void test_grid_overflow(void)
{
	static const struct {
		uint32_t grid[3], first, count;
		int err;
		const char *what;
	} cases[] = {
		{ { 1u << 22, 1u << 21, 1u << 21 }, 0, 0, EINVAL, "2^64 blocks (0 mod 2^64)" },
		{ { 1u << 22, 1u << 21, 1u << 21 }, 0, 1, EINVAL, "2^64 blocks, a subgrid of 1" },
		{ { 0xffffffffu, 0xffffffffu, 0xffffffffu }, 0, 1, EINVAL, "(2^32-1)^3 blocks" },
		{ { 1u << 16, 1u << 16, 1 }, 0, 1, EINVAL, "2^32 blocks" },
		{ { 0xffffffffu, 1, 1 }, 0, 1, 0, "2^32-1 blocks, the first one" },
	};
	const uint32_t block[3] = { 1, 1, 1 };
	struct drm_simt_cmd cmd;
	struct drm_simt_wait w;
	struct spinjob j;
	uint32_t ctx, i;
	uint64_t seq;
	int r;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (spin_setup(&j, ctx, 1, 32, 1))
		return;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		cmd = j.cmd;
		memcpy(cmd.launch.grid, cases[i].grid, sizeof(cmd.launch.grid));
		memcpy(cmd.launch.block, block, sizeof(cmd.launch.block));
		cmd.launch.first_block = cases[i].first;
		cmd.launch.block_count = cases[i].count;
		r = submit(ctx, &cmd, 1, &seq);
		printf("grid %u x %u x %u, subgrid %u+%u (%s): %s\n", cases[i].grid[0],
		       cases[i].grid[1], cases[i].grid[2], cases[i].first, cases[i].count,
		       cases[i].what, r ? strerror(-r) : "accepted");
		CHECK(r == -cases[i].err, "%s: got %d, expected %d", cases[i].what, r,
		      -cases[i].err);
		if (!r)
			CHECK(wait_seq(ctx, seq, 10 * SEC_NS, &w) == 0 &&
			      w.error == DRM_SIMT_ERROR_NONE, "%s: error %u", cases[i].what,
			      w.error);
	}
	spin_free(&j, 1);
	CHECK(ctx_destroy(ctx) == 0, "destroy");
}

/*
 * seqno: four threads SUBMIT 500 empty submissions each to one context:
 * every seqno SUBMIT returns is unique, each thread's rise, together
 * they are 1..2000, and WAIT on the last one succeeds.  EAGAIN (1024 in
 * flight for a second, as a debug kernel can be) is tried again.
 */
struct seq_thread {
	uint32_t ctx;
	uint64_t seq[500];
	int bad, again;
};

static void *seq_submit(void *arg)
{
	struct seq_thread *t = arg;
	int i, r;

	for (i = 0; i < 500; i++) {
		while ((r = submit(t->ctx, NULL, 0, &t->seq[i])) == -EAGAIN)
			t->again++;
		if (r) {
			t->bad++;
			t->seq[i] = 0;
		}
	}
	return NULL;
}

static void test_seqno(void)
{
	static struct seq_thread t[4];
	static uint8_t seen[2001];
	struct drm_simt_wait w;
	pthread_t th[4];
	uint32_t ctx;
	int i, k, dup = 0, order = 0, missing = 0;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	for (i = 0; i < 4; i++) {
		t[i].ctx = ctx;
		CHECK(pthread_create(&th[i], NULL, seq_submit, &t[i]) == 0, "thread");
	}
	for (i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < 4; i++) {
		CHECK(!t[i].bad, "thread %d: %d submissions failed", i, t[i].bad);
		for (k = 0; k < 500; k++) {
			if (t[i].seq[k] < 1 || t[i].seq[k] > 2000 || seen[t[i].seq[k]]++)
				dup++;
			if (k && t[i].seq[k] <= t[i].seq[k - 1])
				order++;
		}
	}
	for (k = 1; k <= 2000; k++)
		missing += !seen[k];
	printf("2000 submissions from 4 threads: %d duplicate or out of range, %d out of order, %d missing, %d EAGAIN tried again\n",
	       dup, order, missing, t[0].again + t[1].again + t[2].again + t[3].again);
	CHECK(!dup && !order && !missing, "seqnos are not 1..2000, each once, rising per thread");
	CHECK(wait_seq(ctx, 2000, 10 * SEC_NS, &w) == 0 && w.error == DRM_SIMT_ERROR_NONE,
	      "WAIT on the last submission");
	CHECK(ctx_destroy(ctx) == 0, "destroy");
}

/*
 * unplug-mapped: a process keeps a VRAM object mapped, written and read
 * through BAR2, while the device is unbound under it: the next touch of
 * the mapping gets SIGBUS, never the memory behind the BAR, and SUBMIT
 * gets ENODEV.  The script binds the device again afterwards.
 */
static sigjmp_buf unplug_jmp;

static void unplug_sigbus(int sig)
{
	siglongjmp(unplug_jmp, sig);
}

/*
 * Touch @p (read, or with @write write) once the device is gone: it
 * must get SIGBUS.
 */
static void gone_touch(volatile uint8_t *p, int write, const char *what)
{
	struct sigaction sa = { .sa_handler = unplug_sigbus }, old;
	int sig;

	sigaction(SIGBUS, &sa, &old);
	sig = sigsetjmp(unplug_jmp, 1);
	if (!sig) {
		uint8_t got = 0;

		if (write)
			*p = 1;
		else
			got = *p;
		fail(__LINE__, "%s the mapping after %s went through (0x%02x), expected SIGBUS",
		     write ? "a write to" : "a read of", what, got);
	} else {
		printf("%s the VRAM mapping after %s: signal %d (SIGBUS %d)\n",
		       write ? "a write to" : "a read of", what, sig, SIGBUS);
		CHECK(sig == SIGBUS, "signal %d, expected SIGBUS", sig);
	}
	sigaction(SIGBUS, &old, NULL);
}

static int sysfs_write(const char *path, const char *text)
{
	int f = open(path, O_WRONLY), r = 0;

	if (f < 0)
		return -errno;
	if (write(f, text, strlen(text)) < 0)
		r = -errno;
	close(f);
	return r;
}

static void test_unplug_mapped(void)
{
	const uint64_t size = 1 << 16;
	volatile uint8_t *m;
	struct drm_simt_cmd cmd;
	char link[256];
	const char *dev;
	uint32_t ctx, v, s;
	uint64_t seq;
	ssize_t n;
	int r;

	n = readlink("/sys/class/accel/accel0/device", link, sizeof(link) - 1);
	if (n <= 0) {
		fail(__LINE__, "no /sys/class/accel/accel0/device");
		return;
	}
	link[n] = 0;
	dev = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	v = bo_new(size, DRM_SIMT_BO_VRAM);
	s = bo_new(size, DRM_SIMT_BO_SYSTEM);
	bind(ctx, v);
	m = bo_map(v, size);
	m[0] = 0x5a;
	m[size - 1] = 0xa5;
	CHECK(m[0] == 0x5a && m[size - 1] == 0xa5, "the mapping does not read back");
	cmd = copy_cmd(s, 0, v, 0, size);

	r = sysfs_write("/sys/bus/pci/drivers/simt/unbind", dev);
	CHECK(r == 0, "unbind %s: %s", dev, strerror(-r));
	printf("unbound %s with object %u mapped\n", dev, v);

	gone_touch(&m[size - 1], 0, "the unbind");
	gone_touch(&m[0], 1, "the unbind");
	CHECK(submit(ctx, &cmd, 1, &seq) == -ENODEV, "SUBMIT after the unbind");
	munmap((void *)m, size);
}

/*
 * hotunplug-hold (for the test hot_unplug, run with SIMT_HOTPLUG=1): a
 * context with an endless kernel on the device, its fence in a
 * sync_file, copies queued behind it, and a VRAM object written through
 * its mapping; "ready", then the script has QEMU unplug the device.
 * Once the device is gone: the kernel's sync_file signals with -ENODEV
 * (the one fence still readable: every ioctl is ENODEV now), the
 * mapping gets SIGBUS, and SUBMIT, WAIT and GET_PARAM get ENODEV.  (job_timeout_ms is 0 during
 * the test: the kernel runs until the device goes.)
 */
static void test_hotunplug_hold(void)
{
	const uint64_t size = 1 << 16;
	struct drm_simt_get_param p = { .param = DRM_SIMT_PARAM_SM_COUNT };
	struct drm_simt_cmd copy;
	struct drm_simt_submit sb;
	struct drm_simt_wait w;
	volatile uint8_t *m;
	uint32_t ctx, v, sys;
	struct spinjob j;
	uint64_t seq;
	int i, r, sf;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (spin_setup(&j, ctx, 4, 64, 0xffffffffu))
		return;
	v = bo_new(size, DRM_SIMT_BO_VRAM);
	sys = bo_new(size, DRM_SIMT_BO_SYSTEM);
	bind(ctx, v);
	m = bo_map(v, size);
	m[0] = 0x5a;
	CHECK(m[0] == 0x5a, "the mapping does not read back");
	sb = (struct drm_simt_submit){
		.ctx_id = ctx, .cmds = (uintptr_t)&j.cmd, .cmd_count = 1,
		.cmd_size = sizeof(j.cmd), .flags = DRM_SIMT_SUBMIT_FENCE_FD,
	};
	CHECK(xioctl(fd, DRM_IOCTL_SIMT_SUBMIT, &sb) == 0 && sb.fence_fd >= 0,
	      "SUBMIT of the endless kernel");
	sf = sb.fence_fd;
	copy = copy_cmd(sys, 0, v, 0, size);
	for (i = 0; i < 8; i++)
		CHECK(submit(ctx, &copy, 1, &seq) == 0, "SUBMIT of copy %d", i);
	printf("ready: an endless kernel running and %d copies queued behind it\n", i);

	for (i = 0; i < 1200; i++) {
		r = xioctl(fd, DRM_IOCTL_SIMT_GET_PARAM, &p);
		if (r)
			break;
		usleep(50000);
	}
	CHECK(r == -ENODEV, "GET_PARAM after the unplug: %d", r);
	CHECK(sync_file_poll(sf, 10000), "the kernel's sync_file did not signal");
	r = sync_file_status(sf);
	CHECK(r == -ENODEV, "the kernel's sync_file: status %d, expected %d", r, -ENODEV);
	printf("after the unplug: the kernel's fence signalled %d\n", r);
	close(sf);

	gone_touch(&m[0], 0, "the unplug");
	CHECK(submit(ctx, &copy, 1, &seq) == -ENODEV, "SUBMIT after the unplug");
	CHECK(wait_seq(ctx, 1, 0, &w) == -ENODEV, "WAIT after the unplug");
	munmap((void *)m, size);
	printf("the device went away under work in flight: fences ENODEV, mapping SIGBUS, ioctls ENODEV\n");
}

/*
 * fence-fd-nomem (debug kernel only: it needs fault injection): SUBMIT
 * with DRM_SIMT_SUBMIT_FENCE_FD while the Nth slab allocation of the
 * calling thread fails (/proc/thread-self/fail-nth), for N = 1, 2, ...
 * until one goes through untouched.  A SUBMIT that fails must have
 * queued nothing and returned no file: the next sequence number is the
 * one after the last success, and the process has no new descriptor.
 * (Before 0.6 the sync_file was made after the push: its ENOMEM came
 * with the job queued and its sequence number spent.)
 */
/* Arm (or with 0 disarm) the Nth fault of this thread; the file is open. */
static int fail_nth_set(int f, unsigned int n)
{
	char text[16];
	int len = snprintf(text, sizeof(text), "%u", n);

	return pwrite(f, text, len, 0) == len ? 0 : -errno;
}

/* The faults still to come before the armed one (0: it fired). */
static int fail_nth_left(int f)
{
	char text[16] = "";

	return pread(f, text, sizeof(text) - 1, 0) > 0 ? atoi(text) : -1;
}

static void test_fence_fd_nomem(void)
{
	struct drm_simt_submit sb;
	uint64_t last = 0, seq;
	unsigned int n, failed = 0;
	int r, nth, left, lowest;
	uint32_t ctx;

	/* Opened once: opening it later would itself be a fault point. */
	nth = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	/* Every GFP_KERNEL allocation counts; no stack dump per failure. */
	if (nth < 0 || sysfs_write("/sys/kernel/debug/failslab/ignore-gfp-wait", "N") ||
	    sysfs_write("/sys/kernel/debug/failslab/verbose", "0")) {
		fail(__LINE__, "no fault injection here (a debug kernel's test)");
		return;
	}
	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	for (n = 1; n <= 200; n++) {
		sb = (struct drm_simt_submit){
			.ctx_id = ctx, .cmd_size = sizeof(struct drm_simt_cmd),
			.flags = DRM_SIMT_SUBMIT_FENCE_FD,
		};
		lowest = dup(0);
		close(lowest);
		CHECK(fail_nth_set(nth, n) == 0, "cannot arm fail-nth");
		r = xioctl(fd, DRM_IOCTL_SIMT_SUBMIT, &sb);
		left = fail_nth_left(nth);
		fail_nth_set(nth, 0);
		if (r == 0) {
			CHECK(sb.seqno == last + 1, "N=%u: seqno %llu after %llu", n,
			      (unsigned long long)sb.seqno, (unsigned long long)last);
			CHECK(sb.fence_fd >= 0, "N=%u: no sync_file", n);
			last = sb.seqno;
			close(sb.fence_fd);
			/* Still counting down: SUBMIT had no Nth allocation. */
			if (left > 0)
				break;
			continue;
		}
		failed++;
		CHECK(r == -ENOMEM, "N=%u: SUBMIT %d (%s), expected ENOMEM", n, r,
		      strerror(-r));
		CHECK(sb.fence_fd == -1, "N=%u: a failed SUBMIT returned fd %d", n,
		      sb.fence_fd);
		r = dup(0);
		CHECK(r == lowest, "N=%u: a failed SUBMIT left descriptor %d open", n, lowest);
		close(r);
		/* Nothing of it may be queued: the next one is last + 1. */
		r = submit(ctx, NULL, 0, &seq);
		CHECK(r == 0 && seq == last + 1,
		      "N=%u: after a failed SUBMIT the next got seqno %llu, expected %llu", n,
		      (unsigned long long)seq, (unsigned long long)last + 1);
		if (!r)
			last = seq;
	}
	close(nth);
	printf("SUBMIT with a sync_file, its Nth allocation failing: %u of N = 1..%u failed, each with nothing queued\n",
	       failed, n);
	CHECK(failed > 0, "no allocation of SUBMIT could be failed");
	CHECK(n <= 200, "SUBMIT still failing after 200 allocations");
	CHECK(ctx_destroy(ctx) == 0, "destroy");
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
	{ "evict", test_evict },
	{ "evict-bytes", test_evict_bytes },
	{ "fair", test_fair },
	{ "syncobj", test_syncobj },
	{ "hang", test_hang },
	{ "multi", test_multi },
	{ "hold", test_hold },
	{ "responsive", test_responsive },
	/* since 0.3 */
	{ "infence", test_infence },
	{ "prio", test_prio },
	{ "savearea", test_savearea },
	{ "progress", test_progress },
	{ "hang2", test_hang2 },
	{ "bystander", test_bystander },
	{ "signal", test_signal },
	{ "threads", test_threads },
	{ "close", test_close },
	{ "fdinfo", test_fdinfo },
	{ "light", test_light },
	/* since 0.6 */
	{ "launch64", test_launch64 },
	/* the lifecycle stress group */
	{ "destroy-races", test_destroy_races },
	{ "watchdog-destroy", test_watchdog_destroy },
	{ "syncfile-outlives", test_syncfile_outlives },
	{ "grid-overflow", test_grid_overflow },
	{ "seqno", test_seqno },
	{ "unplug-mapped", test_unplug_mapped },
	{ "hotunplug-hold", test_hotunplug_hold },
	{ "fence-fd-nomem", test_fence_fd_nomem },
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
