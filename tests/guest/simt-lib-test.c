// SPDX-License-Identifier: MIT
/*
 * simt-lib-test: tests of libsimt (guest/libsimt/libsimt.h), every call with
 * its good and bad arguments, and the sample kernels run through it with
 * their results checked against what this program computes.  Built static
 * by scripts/guest-build.sh; run by tests/guest/simt-test.sh as the unprivileged
 * user, one group per call:
 *
 *   simt-lib-test GROUP [NODE [hold]]
 *
 * Groups: device, context, memory, module, launch, errors, samples,
 * threads, timeout, too-large, metadata, multi-device (which expects
 * $SIMTGUEST_DEVICES devices, default 1), split-results, split-ids,
 * split-auto, split-between, oversub-tenants, oversub-single (which, with
 * "hold", waits with its objects until its standard input closes).  The
 * oversubscription groups allocate more than the VRAM and keep copies of
 * it in host memory: run them on a device with little VRAM (make check
 * gives them 64 MiB, the least with room for kernel images below the
 * objects).
 * Prints what it does and a line per failed check; exit status 0 if every
 * check passed.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm/simt_accel.h>

#include "simt-elf.h"
#include "simt-internal.h"
#include "libsimt.h"

#define KERNEL_DIR "/lib/simt/kernels"
#define SEC_NS 1000000000ll

static const char *node = "/dev/accel/accel0";
static int hold;		/* "hold" after the node: see test_oversub_single */
static int failures;
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;

/* Called from several threads by the threads group: one line each. */
static void fail(int line, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&fail_lock);
	printf("FAIL line %d: %s (last error: %s)\n", line, msg, simt_last_error());
	failures++;
	pthread_mutex_unlock(&fail_lock);
}

#define CHECK(cond, ...) do { if (!(cond)) fail(__LINE__, __VA_ARGS__); } while (0)

/* A call that must return @want. */
#define EXPECT(call, want) do { \
	simt_status st_ = (call); \
	if (st_ != (want)) \
		fail(__LINE__, "%s: %s (%d), expected %s (%d)", #call, \
		     simt_error_string(st_), st_, simt_error_string(want), want); \
} while (0)

/* A call that must succeed, or the group cannot go on. */
#define MUST(call) do { \
	simt_status st_ = (call); \
	if (st_) { \
		fail(__LINE__, "%s: %s", #call, simt_error_string(st_)); \
		return; \
	} \
} while (0)

static simt_dim3 dim(uint32_t x, uint32_t y, uint32_t z)
{
	return (simt_dim3){ x, y, z };
}

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* Queue a launch that must be accepted; 0 if it was. */
static int run(simt_kernel *k, simt_dim3 grid, simt_dim3 block, uint32_t dyn,
	       const uint32_t *args, unsigned int nargs)
{
	uint64_t seq = 0;
	simt_status st = simt_launch(k, grid, block, dyn, args, nargs, &seq);

	CHECK(st == SIMT_SUCCESS, "launch: %s", simt_error_string(st));
	CHECK(st || seq > 0, "launch returned sequence number 0");
	return st == SIMT_SUCCESS ? 0 : -1;
}

/* Wait for everything queued on @ctx; 0 if it all completed. */
static int finish(simt_context *ctx)
{
	simt_status st = simt_context_synchronize(ctx);

	CHECK(st == SIMT_SUCCESS, "synchronize: %s", simt_error_string(st));
	return st == SIMT_SUCCESS ? 0 : -1;
}

static int check_u32(const char *what, const uint32_t *got, const uint32_t *want,
		     size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (got[i] != want[i]) {
			fail(__LINE__, "%s: [%zu] = %u, expected %u", what, i, got[i], want[i]);
			return -1;
		}
	}
	return 0;
}

static int check_floats(const char *what, const float *got, const float *want,
			size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (got[i] != want[i]) {
			fail(__LINE__, "%s: [%zu] = %g, expected %g", what, i, got[i], want[i]);
			return -1;
		}
	}
	return 0;
}

/* ---- device: open, info, parameters, close ---- */

static void test_device(void)
{
	struct simt_device_info info;
	simt_device *dev, *dev2;
	simt_context *ctx;
	uint64_t v;
	simt_status s, t;

	EXPECT(simt_device_open("/dev/accel/no-such-node", &dev), SIMT_ERROR_NO_DEVICE);
	CHECK(dev == NULL, "a failed open returned a device");
	CHECK(strstr(simt_last_error(), "/dev/accel/no-such-node") != NULL,
	      "the message does not name the node: %s", simt_last_error());
	EXPECT(simt_device_open("/dev/null", &dev), SIMT_ERROR_NO_DEVICE);
	printf("/dev/null refused: %s\n", simt_last_error());
	EXPECT(simt_device_open(node, NULL), SIMT_ERROR_INVALID_VALUE);
	MUST(simt_device_open(node, &dev));

	EXPECT(simt_device_get_info(dev, NULL), SIMT_ERROR_INVALID_VALUE);
	MUST(simt_device_get_info(dev, &info));
	printf("%s (%s): %s %u.%u, device %u.%u, %u SMs x %u blocks, %llu bytes of VRAM, "
	       "%u contexts, caps 0x%x\n", info.node, info.pci_address,
	       info.driver_name, info.uapi_major, info.uapi_minor, info.device_major,
	       info.device_minor, info.sm_count, info.sm_blocks,
	       (unsigned long long)info.vram_size, info.max_contexts, info.caps);
	CHECK(strcmp(info.node, node) == 0, "node %s", info.node);
	CHECK(strcmp(info.driver_name, "simt") == 0, "driver %s", info.driver_name);
	CHECK(info.uapi_major == DRM_SIMT_UAPI_MAJOR && info.uapi_minor >= 1,
	      "interface %u.%u", info.uapi_major, info.uapi_minor);
	CHECK(info.pci_address[0] != 0, "no PCI address");
	CHECK(info.sm_count > 0 && info.sm_blocks > 0 && info.max_contexts > 0 &&
	      info.max_submit_cmds > 0, "zero limits");
	CHECK(info.vram_size && !(info.vram_size & (info.vram_size - 1)),
	      "VRAM size %llu", (unsigned long long)info.vram_size);

	/* The raw parameters agree with the info. */
	MUST(simt_device_get_param(dev, DRM_SIMT_PARAM_SM_COUNT, &v));
	CHECK(v == info.sm_count, "SM_COUNT %llu", (unsigned long long)v);
	MUST(simt_device_get_param(dev, DRM_SIMT_PARAM_VRAM_SIZE, &v));
	CHECK(v == info.vram_size, "VRAM_SIZE %llu", (unsigned long long)v);
	MUST(simt_device_get_param(dev, DRM_SIMT_PARAM_FIXED_VA_END, &v));
	CHECK(v == info.fixed_va_end, "FIXED_VA_END %llu", (unsigned long long)v);
	MUST(simt_device_get_param(dev, DRM_SIMT_PARAM_DEVICE_VERSION, &v));
	CHECK(v == ((uint64_t)info.device_major << 16 | info.device_minor),
	      "DEVICE_VERSION 0x%llx", (unsigned long long)v);
	EXPECT(simt_device_get_param(dev, 0xffff, &v), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_device_get_param(dev, DRM_SIMT_PARAM_SM_COUNT, NULL),
	       SIMT_ERROR_INVALID_VALUE);

	/* SIMT_DEVICE names the node when none is given. */
	setenv("SIMT_DEVICE", "/dev/accel/no-such-node", 1);
	EXPECT(simt_device_open(NULL, &dev2), SIMT_ERROR_NO_DEVICE);
	setenv("SIMT_DEVICE", node, 1);
	EXPECT(simt_device_open(NULL, &dev2), SIMT_SUCCESS);
	unsetenv("SIMT_DEVICE");
	if (dev2)
		EXPECT(simt_device_close(dev2), SIMT_SUCCESS);

	/* A device with a live context stays open. */
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	EXPECT(simt_device_close(dev), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
	EXPECT(simt_device_close(NULL), SIMT_ERROR_INVALID_VALUE);

	/* Every status has its own description (the last one appended last). */
	CHECK(SIMT_ERROR_SYSTEM == 15 && SIMT_ERROR_CANCELED == 16 && SIMT_ERROR_TOO_LARGE == 17,
	      "the status values moved");
	for (s = SIMT_SUCCESS; s <= SIMT_ERROR_TOO_LARGE; s++) {
		CHECK(simt_error_string(s) && *simt_error_string(s), "status %d has no text", s);
		for (t = SIMT_SUCCESS; t < s; t++)
			CHECK(strcmp(simt_error_string(s), simt_error_string(t)),
			      "statuses %d and %d read the same", s, t);
	}
	CHECK(strcmp(simt_error_string((simt_status)999), "unknown status") == 0,
	      "an unknown status");
	printf("device: info, parameters, close and error strings checked\n");
}

/* ---- context: priorities, preemption modes, limits ---- */

/*
 * May this process create HIGH priority contexts?  Since interface 0.3
 * only with CAP_SYS_NICE (root here) or when the administrator set the
 * simt module's unprivileged_high parameter.
 */
static int high_allowed(const struct simt_device_info *info)
{
	char v[8] = "";
	FILE *f;

	if (info->uapi_minor < 3 || geteuid() == 0)
		return 1;
	f = fopen("/sys/module/simt/parameters/unprivileged_high", "r");
	if (f) {
		if (!fgets(v, sizeof(v), f))
			v[0] = 0;
		fclose(f);
	}
	return v[0] == 'Y' || v[0] == '1';
}

/* Contexts one open device may hold (0.3), or @max before. */
static unsigned int file_contexts(simt_device *dev, const struct simt_device_info *info,
				  unsigned int max)
{
	uint64_t v;

	if (info->uapi_minor < 3 || simt_device_get_param(dev, DRM_SIMT_PARAM_FILE_CONTEXTS, &v))
		return max;
	return v < max ? (unsigned int)v : max;
}

static void test_context(void)
{
	struct simt_device_info info;
	simt_context *ctx[64];
	simt_device *dev, *devs[64];
	unsigned int i, n, per_file, ndev;
	int prio, high;

	MUST(simt_device_open(node, &dev));
	MUST(simt_device_get_info(dev, &info));
	high = high_allowed(&info);
	for (prio = SIMT_PRIORITY_LOW; prio <= SIMT_PRIORITY_HIGH; prio++) {
		if (prio == SIMT_PRIORITY_HIGH && !high) {
			/* Since 0.3 HIGH needs CAP_SYS_NICE: this test runs as a user. */
			EXPECT(simt_context_create(dev, prio, SIMT_PREEMPT_DEFAULT, &ctx[0]),
			       SIMT_ERROR_PERMISSION);
			CHECK(strstr(simt_last_error(), "high priority needs CAP_SYS_NICE") != NULL,
			      "no clear message for high priority: %s", simt_last_error());
			printf("high refused to uid %u: %s\n", (unsigned)geteuid(),
			       simt_last_error());
			continue;
		}
		EXPECT(simt_context_create(dev, prio, SIMT_PREEMPT_DEFAULT, &ctx[0]),
		       SIMT_SUCCESS);
		if (ctx[0]) {
			EXPECT(simt_context_synchronize(ctx[0]), SIMT_SUCCESS);
			EXPECT(simt_context_destroy(ctx[0]), SIMT_SUCCESS);
		}
	}
	/* Realtime needs CAP_SYS_NICE: this test runs as an ordinary user. */
	if (geteuid() != 0) {
		EXPECT(simt_context_create(dev, SIMT_PRIORITY_REALTIME, 0, &ctx[0]),
		       SIMT_ERROR_PERMISSION);
		CHECK(ctx[0] == NULL, "a refused context was returned");
		printf("realtime refused to uid %u: %s\n", (unsigned)geteuid(),
		       simt_last_error());
	} else {
		EXPECT(simt_context_create(dev, SIMT_PRIORITY_REALTIME, 0, &ctx[0]),
		       SIMT_SUCCESS);
		if (ctx[0])
			simt_context_destroy(ctx[0]);
	}
	EXPECT(simt_context_create(dev, -1, 0, &ctx[0]), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_context_create(dev, 4, 0, &ctx[0]), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_context_create(dev, 1, -1, &ctx[0]), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_context_create(dev, 1, SIMT_PREEMPT_CHIMERA + 1, &ctx[0]),
	       SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_context_create(NULL, 1, 0, &ctx[0]), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_context_create(dev, 1, 0, NULL), SIMT_ERROR_INVALID_VALUE);
	/* Every mode the interface names is taken (since 0.2; Chimera 0.4). */
	if (info.uapi_minor >= 2) {
		int last = info.uapi_minor >= 4 ? SIMT_PREEMPT_CHIMERA : SIMT_PREEMPT_AUTO;

		for (i = SIMT_PREEMPT_NONE; i <= last; i++) {
			EXPECT(simt_context_create(dev, 1, i, &ctx[0]), SIMT_SUCCESS);
			if (ctx[0])
				simt_context_destroy(ctx[0]);
		}
	}

	/*
	 * Exactly max_contexts, then none; all of them again after.  Since
	 * 0.3 one open file holds FILE_CONTEXTS at most: beyond, the refusal
	 * names that limit; the device's limit takes several opens then.
	 */
	n = info.max_contexts < 64 ? info.max_contexts : 64;
	per_file = file_contexts(dev, &info, n);
	ndev = (n + per_file - 1) / per_file;
	devs[0] = dev;
	for (i = 1; i < ndev; i++)
		MUST(simt_device_open(node, &devs[i]));
	if (per_file < n) {
		simt_context *extra;

		for (i = 0; i < per_file; i++)
			EXPECT(simt_context_create(dev, i % 2, 0, &ctx[i]), SIMT_SUCCESS);
		EXPECT(simt_context_create(dev, 1, 0, &extra), SIMT_ERROR_OUT_OF_RESOURCES);
		CHECK(strstr(simt_last_error(), "per-file") != NULL,
		      "the refusal does not name the per-file limit: %s", simt_last_error());
		printf("context %u of one open file refused: %s\n", per_file + 1,
		       simt_last_error());
		for (i = 0; i < per_file; i++)
			if (ctx[i])
				EXPECT(simt_context_destroy(ctx[i]), SIMT_SUCCESS);
	}
	for (i = 0; i < n; i++)
		EXPECT(simt_context_create(devs[i / per_file], i % 2, 0, &ctx[i]), SIMT_SUCCESS);
	if (n == info.max_contexts) {
		simt_context *extra;
		simt_device *more;

		MUST(simt_device_open(node, &more));
		EXPECT(simt_context_create(more, 1, 0, &extra), SIMT_ERROR_OUT_OF_RESOURCES);
		CHECK(strstr(simt_last_error(), "contexts are in use") != NULL,
		      "the refusal does not name the device's limit: %s", simt_last_error());
		printf("context %u refused: %s\n", n + 1, simt_last_error());
		EXPECT(simt_device_close(more), SIMT_SUCCESS);
	}
	for (i = 0; i < n; i++)
		if (ctx[i])
			EXPECT(simt_context_destroy(ctx[i]), SIMT_SUCCESS);
	for (i = 0; i < n; i++)
		EXPECT(simt_context_create(devs[i / per_file], 1, 0, &ctx[i]), SIMT_SUCCESS);
	for (i = 0; i < n; i++)
		if (ctx[i])
			simt_context_destroy(ctx[i]);
	for (i = 1; i < ndev; i++)
		EXPECT(simt_device_close(devs[i]), SIMT_SUCCESS);
	EXPECT(simt_context_destroy(NULL), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_context_synchronize(NULL), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
	printf("context: priorities, preemption modes, %u contexts (%u per open file) and the limits checked\n",
	       n, per_file);
}

/* ---- memory: allocation, copies both ways, mapping, bad ranges ---- */

static uint8_t pat(size_t i, unsigned int seed)
{
	uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull + seed * 0x632be59bd9b4e019ull;

	return (uint8_t)(x >> 56);
}

static void test_memory(void)
{
	const size_t big = 3 * 1024 * 1024 + 123;	/* several staging rounds */
	struct simt_device_info info;
	simt_device *dev;
	simt_context *ctx, *ctx2;
	simt_buffer *a, *b, *c, *other;
	uint8_t *src, *dst, *map;
	size_t i;
	void *p;

	MUST(simt_device_open(node, &dev));
	MUST(simt_device_get_info(dev, &info));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	EXPECT(simt_mem_alloc(ctx, 0, &a), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_mem_alloc(ctx, info.vram_size + 1, &a), SIMT_ERROR_TOO_LARGE);
	/* VRAM is oversubscribed (driver 0.5): the first one is evicted. */
	EXPECT(simt_mem_alloc(ctx, info.vram_size * 3 / 4, &a), SIMT_SUCCESS);
	EXPECT(simt_mem_alloc(ctx, info.vram_size * 3 / 4, &b), SIMT_SUCCESS);
	printf("two buffers of 3/4 of VRAM allocated\n");
	if (a)
		EXPECT(simt_mem_free(a), SIMT_SUCCESS);
	if (b)
		EXPECT(simt_mem_free(b), SIMT_SUCCESS);
	EXPECT(simt_mem_alloc(NULL, 4096, &a), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_mem_alloc(ctx, 4096, NULL), SIMT_ERROR_INVALID_VALUE);

	MUST(simt_mem_alloc(ctx, big, &a));
	MUST(simt_mem_alloc(ctx, big, &b));
	MUST(simt_mem_alloc(ctx, 100, &c));
	CHECK(simt_buffer_size(a) == ((big + 4095) & ~(size_t)4095), "size %zu",
	      simt_buffer_size(a));
	CHECK(simt_buffer_size(c) == 4096, "size of 100 bytes: %zu", simt_buffer_size(c));
	CHECK(simt_buffer_addr(a) >= info.fixed_va_end && simt_buffer_addr(b) >= info.fixed_va_end &&
	      simt_buffer_addr(a) != simt_buffer_addr(b), "addresses 0x%x 0x%x",
	      simt_buffer_addr(a), simt_buffer_addr(b));
	CHECK(simt_buffer_addr(NULL) == 0 && simt_buffer_size(NULL) == 0, "null buffer");

	src = malloc(big);
	dst = malloc(big);
	for (i = 0; i < big; i++)
		src[i] = pat(i, 1);
	/* New memory reads as zero. */
	memset(dst, 0xff, big);
	EXPECT(simt_memcpy_dtoh(dst, a, 0, big), SIMT_SUCCESS);
	for (i = 0; i < big && !dst[i]; i++)
		;
	CHECK(i == big, "new memory is not zero at byte %zu", i);
	/* Host to device, device to device at odd offsets, back. */
	EXPECT(simt_memcpy_htod(a, 0, src, big), SIMT_SUCCESS);
	EXPECT(simt_memcpy_dtod(b, 7, a, 3, big - 10), SIMT_SUCCESS);
	memset(dst, 0, big);
	EXPECT(simt_memcpy_dtoh(dst, b, 7, big - 10), SIMT_SUCCESS);
	CHECK(memcmp(dst, src + 3, big - 10) == 0, "device round trip differs");
	EXPECT(simt_memcpy_dtoh(dst, a, 1000, 5), SIMT_SUCCESS);
	CHECK(memcmp(dst, src + 1000, 5) == 0, "a 5-byte read differs");
	/* What the copy engines wrote is visible through the mapping. */
	EXPECT(simt_buffer_map(a, &p), SIMT_SUCCESS);
	map = p;
	CHECK(map && memcmp(map, src, big) == 0, "the mapping differs");
	EXPECT(simt_buffer_map(a, &p), SIMT_SUCCESS);
	CHECK(p == map, "a second map gave another pointer");
	/* ... and what is written there, to the copy engines. */
	if (map) {
		map[5] = 0x5a;
		EXPECT(simt_memcpy_dtoh(dst, a, 5, 1), SIMT_SUCCESS);
		CHECK(dst[0] == 0x5a, "a byte written through the mapping reads 0x%x", dst[0]);
	}
	EXPECT(simt_buffer_map(NULL, &p), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_htod(c, 0, src, 0), SIMT_SUCCESS);
	printf("copies of %zu bytes both ways, device to device, mapping: checked\n", big);

	/* Ranges outside the buffer, overlaps, other contexts. */
	EXPECT(simt_memcpy_htod(c, 0, src, 4097), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_htod(c, 4096, src, 1), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_htod(c, SIZE_MAX, src, 2), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_dtoh(dst, c, 1, 4096), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_htod(NULL, 0, src, 1), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_htod(c, 0, NULL, 1), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_dtoh(NULL, c, 0, 1), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_dtod(a, 0, a, 100, 200), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_memcpy_dtod(a, 0, a, 200, 200), SIMT_SUCCESS);
	EXPECT(simt_memcpy_dtod(c, 0, a, 0, 4097), SIMT_ERROR_INVALID_VALUE);
	MUST(simt_context_create(dev, SIMT_PRIORITY_LOW, 0, &ctx2));
	MUST(simt_mem_alloc(ctx2, 4096, &other));
	EXPECT(simt_memcpy_dtod(other, 0, c, 0, 16), SIMT_ERROR_INVALID_VALUE);
	printf("bad ranges refused: %s\n", simt_last_error());
	/* Each context's copies reach its own memory only. */
	EXPECT(simt_memcpy_htod(other, 0, src + 11, 4096), SIMT_SUCCESS);
	EXPECT(simt_memcpy_dtoh(dst, other, 0, 4096), SIMT_SUCCESS);
	CHECK(memcmp(dst, src + 11, 4096) == 0, "second context's copy");

	EXPECT(simt_mem_free(b), SIMT_SUCCESS);
	EXPECT(simt_mem_free(other), SIMT_SUCCESS);
	EXPECT(simt_mem_free(NULL), SIMT_ERROR_INVALID_VALUE);
	/* Destroying a context frees what is left of its memory. */
	EXPECT(simt_context_destroy(ctx2), SIMT_SUCCESS);
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
	free(src);
	free(dst);
}

/* ---- module: loading, kernels by name, bad images ---- */

static uint8_t *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*size = n;
	return buf;
}

static void test_module(void)
{
	struct simt_kernel_attrs at;
	simt_device *dev;
	simt_context *ctx, *ctx2;
	simt_module *m, *m2;
	simt_kernel *k;
	uint8_t *data, *bad;
	size_t size;
	unsigned int i;

	MUST(simt_device_open(node, &dev));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));

	/* Bad files: missing, not ELF, truncated, not annotated. */
	EXPECT(simt_module_load(ctx, KERNEL_DIR "/no-such.elf", &m), SIMT_ERROR_INVALID_IMAGE);
	CHECK(m == NULL && strstr(simt_last_error(), "no-such.elf"),
	      "message does not name the file: %s", simt_last_error());
	EXPECT(simt_module_load(ctx, "/lib/simt/simt-hw.env", &m), SIMT_ERROR_INVALID_IMAGE);
	printf("a text file: %s\n", simt_last_error());
	data = read_file(KERNEL_DIR "/samples.elf", &size);
	CHECK(data != NULL, "cannot read samples.elf");
	if (!data)
		return;
	EXPECT(simt_module_load_data(ctx, data, size / 2, "half.elf", &m),
	       SIMT_ERROR_INVALID_IMAGE);
	printf("a truncated image: %s\n", simt_last_error());
	CHECK(strstr(simt_last_error(), "half.elf") != NULL, "message does not name the image");
	EXPECT(simt_module_load_data(ctx, data, 0, "empty", &m), SIMT_ERROR_INVALID_IMAGE);
	EXPECT(simt_module_load_data(ctx, NULL, 10, "null", &m), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_module_load(NULL, KERNEL_DIR "/samples.elf", &m), SIMT_ERROR_INVALID_VALUE);
	/* Without its note: rename the section so that it is not found. */
	{
		struct simt_elf elf;
		const struct simt_elf_section *sec;
		char err[256];
		uint8_t *copy = malloc(size);

		memcpy(copy, data, size);
		CHECK(simt_elf_parse(&elf, "samples.elf", copy, size, err, sizeof(err)) == 0,
		      "parse: %s", err);
		sec = simt_elf_section_by_name(&elf, SIMT_NOTE_SECTION);
		CHECK(sec != NULL, "samples.elf has no note section");
		bad = malloc(size);
		memcpy(bad, data, size);
		if (sec) {
			bad[(const uint8_t *)sec->name - elf.data + 1] = 'X';
			EXPECT(simt_module_load_data(ctx, bad, size, "unannotated.elf", &m),
			       SIMT_ERROR_INVALID_IMAGE);
			CHECK(strstr(simt_last_error(), "simt-meta") != NULL,
			      "message does not say what to do: %s", simt_last_error());
			printf("an image without its note: %s\n", simt_last_error());
		}
		free(bad);
		simt_elf_free(&elf);
	}

	/* From memory: the kernels by name, their attributes. */
	MUST(simt_module_load_data(ctx, data, size, "samples.elf", &m));
	CHECK(simt_module_kernel_count(m) >= 5, "%u kernels", simt_module_kernel_count(m));
	for (i = 0; i < simt_module_kernel_count(m); i++) {
		const char *name = simt_module_kernel_name(m, i);

		EXPECT(simt_module_get_kernel(m, name, &k), SIMT_SUCCESS);
		if (!k)
			continue;
		simt_kernel_get_attrs(k, &at);
		printf("  %-12s entry 0x%x, %u registers, %u local bytes, %u instructions\n",
		       at.name, at.entry, at.regs, at.local_bytes, at.insn_count);
		CHECK(strcmp(at.name, name) == 0, "attrs name %s", at.name);
		CHECK(at.regs >= 1 && at.regs <= 64 && at.entry >= 0x10000 && at.insn_count,
		      "attributes of %s", name);
	}
	CHECK(simt_module_kernel_name(m, i) == NULL, "a name past the end");
	EXPECT(simt_module_get_kernel(m, "vecadd", &k), SIMT_SUCCESS);
	EXPECT(simt_module_get_kernel(m, "no_such_kernel", &k), SIMT_ERROR_NOT_FOUND);
	CHECK(k == NULL && strstr(simt_last_error(), "no_such_kernel"), "not found: %s",
	      simt_last_error());
	EXPECT(simt_module_get_kernel(m, NULL, &k), SIMT_ERROR_INVALID_VALUE);

	/* Another image at the same link address in the same context. */
	EXPECT(simt_module_load(ctx, KERNEL_DIR "/vecadd.elf", &m2), SIMT_ERROR_ADDRESS_IN_USE);
	printf("second module: %s\n", simt_last_error());
	/* ... in another context, fine; and here after an unload. */
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx2));
	EXPECT(simt_module_load(ctx2, KERNEL_DIR "/vecadd.elf", &m2), SIMT_SUCCESS);
	EXPECT(simt_module_unload(m), SIMT_SUCCESS);
	EXPECT(simt_module_unload(NULL), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_module_load(ctx, KERNEL_DIR "/vecadd.elf", &m), SIMT_SUCCESS);
	/* Contexts free their modules. */
	EXPECT(simt_context_destroy(ctx2), SIMT_SUCCESS);
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
	free(data);
	printf("module: loads, look-ups, bad images checked\n");
}

/* ---- launch: vecadd, ids in 3D with local memory, dynamic shared ---- */

#define IDS_WORDS 17

/* Threads of ids' output (grid @g of blocks @bl) that are wrong. */
static uint32_t check_ids(const uint32_t *ids, simt_dim3 g, simt_dim3 bl, uint32_t sm_count)
{
	uint32_t threads = bl.x * bl.y * bl.z, bad = 0;
	uint32_t gx, gy, gz, tx, ty, tz;

	for (gz = 0; gz < g.z; gz++)
	for (gy = 0; gy < g.y; gy++)
	for (gx = 0; gx < g.x; gx++)
	for (tz = 0; tz < bl.z; tz++)
	for (ty = 0; ty < bl.y; ty++)
	for (tx = 0; tx < bl.x; tx++) {
		uint32_t blk = (gz * g.y + gy) * g.x + gx;
		uint32_t lin = (tz * bl.y + ty) * bl.x + tx;
		const uint32_t *o = ids + (blk * threads + lin) * IDS_WORDS;
		uint32_t w[IDS_WORDS] = {
			tx, ty, tz, gx, gy, gz, bl.x, bl.y, bl.z, g.x, g.y, g.z,
			lin % 32, lin / 32, (threads + 31) / 32, o[15], 1,
		};

		if (o[15] >= sm_count || memcmp(o, w, sizeof(w))) {
			if (!bad++)
				check_u32("ids", o, w, IDS_WORDS);
		}
	}
	return bad;
}

static void test_launch(void)
{
	const uint32_t n = 10000;
	struct simt_device_info info;
	struct simt_result c;
	simt_device *dev;
	simt_context *ctx;
	simt_module *m;
	simt_kernel *k;
	simt_buffer *a, *b, *out;
	float *fa, *fb, *fc;
	uint32_t *ids, *in, *want, i;
	uint64_t seq = 0;

	MUST(simt_device_open(node, &dev));
	MUST(simt_device_get_info(dev, &info));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	MUST(simt_module_load(ctx, KERNEL_DIR "/samples.elf", &m));
	MUST(simt_module_get_kernel(m, "vecadd", &k));

	/* vecadd on 10000 elements: c = a + b, every element checked. */
	MUST(simt_mem_alloc(ctx, n * 4, &a));
	MUST(simt_mem_alloc(ctx, n * 4, &b));
	MUST(simt_mem_alloc(ctx, n * 4, &out));
	fa = malloc(n * 4);
	fb = malloc(n * 4);
	fc = malloc(n * 4);
	for (i = 0; i < n; i++) {
		fa[i] = i * 0.5f;
		fb[i] = 1000.0f - i * 0.25f;
	}
	MUST(simt_memcpy_htod(a, 0, fa, n * 4));
	MUST(simt_memcpy_htod(b, 0, fb, n * 4));
	{
		uint32_t args[4] = { simt_buffer_addr(a), simt_buffer_addr(b),
				     simt_buffer_addr(out), n };

		EXPECT(simt_launch(k, dim((n + 127) / 128, 1, 1), dim(128, 1, 1), 0, args, 4,
				   &seq), SIMT_SUCCESS);
		EXPECT(simt_wait(ctx, seq, 30 * SEC_NS, &c), SIMT_SUCCESS);
		CHECK(c.status == SIMT_SUCCESS && c.fault_addr == 0, "completion");
		printf("vecadd: cycles %llu..%llu (%s)\n", (unsigned long long)c.start_cycle,
		       (unsigned long long)c.end_cycle,
		       c.end_cycle ? "reported by the driver" : "not reported by this driver");
		CHECK(c.end_cycle >= c.start_cycle, "end before start");
		/* A finished submission can be waited for again, and polled. */
		EXPECT(simt_wait(ctx, seq, 0, NULL), SIMT_SUCCESS);
		EXPECT(simt_wait(ctx, seq + 1, 0, NULL), SIMT_ERROR_INVALID_VALUE);
		EXPECT(simt_wait(ctx, 0, 0, NULL), SIMT_ERROR_INVALID_VALUE);
		EXPECT(simt_wait(NULL, seq, 0, NULL), SIMT_ERROR_INVALID_VALUE);
	}
	MUST(simt_memcpy_dtoh(fc, out, 0, n * 4));
	for (i = 0; i < n; i++)
		fb[i] = fa[i] + fb[i];
	if (!check_floats("vecadd", fc, fb, n))
		printf("vecadd: %u elements checked\n", n);

	/* Bad launches, between two good ones: they use no sequence number. */
	{
		uint32_t args[9] = { simt_buffer_addr(a), simt_buffer_addr(b),
				     simt_buffer_addr(out), 0 };
		uint64_t seq2 = 0;

		EXPECT(simt_launch(k, dim(1, 1, 1), dim(1, 1, 1), 0, args, 4, &seq), SIMT_SUCCESS);

		EXPECT(simt_launch(k, dim(1, 1, 1), dim(1, 1, 1), 0, args, 9, NULL),
		       SIMT_ERROR_INVALID_VALUE);
		EXPECT(simt_launch(k, dim(1, 1, 1), dim(1, 1, 1), 0, NULL, 2, NULL),
		       SIMT_ERROR_INVALID_VALUE);
		EXPECT(simt_launch(k, dim(0, 1, 1), dim(1, 1, 1), 0, args, 4, NULL),
		       SIMT_ERROR_INVALID_VALUE);
		EXPECT(simt_launch(k, dim(1, 1, 1), dim(1, 1, 0), 0, args, 4, NULL),
		       SIMT_ERROR_INVALID_VALUE);
		EXPECT(simt_launch(k, dim(1, 1, 1), dim(65536, 65536, 2), 0, args, 4, NULL),
		       SIMT_ERROR_INVALID_VALUE);
		EXPECT(simt_launch(NULL, dim(1, 1, 1), dim(1, 1, 1), 0, args, 4, NULL),
		       SIMT_ERROR_INVALID_VALUE);
		printf("bad launch: %s\n", simt_last_error());
		EXPECT(simt_launch(k, dim(1, 1, 1), dim(1, 1, 1), 0, args, 4, &seq2), SIMT_SUCCESS);
		CHECK(seq2 == seq + 1, "sequence numbers %llu then %llu",
		      (unsigned long long)seq, (unsigned long long)seq2);
		EXPECT(simt_context_synchronize(ctx), SIMT_SUCCESS);
	}
	simt_mem_free(a);
	simt_mem_free(b);
	simt_mem_free(out);
	free(fa);
	free(fb);
	free(fc);

	/* ids: every identity in a 3D grid of 3D blocks; it needs local memory. */
	MUST(simt_module_unload(m));
	MUST(simt_module_load(ctx, KERNEL_DIR "/ids.elf", &m));
	MUST(simt_module_get_kernel(m, "ids", &k));
	{
		const simt_dim3 shapes[2][2] = {
			{ { 3, 2, 2 }, { 4, 3, 2 } },	/* 24 threads */
			{ { 2, 1, 1 }, { 8, 8, 2 } },	/* 128: more local memory */
		};
		unsigned int s;

		for (s = 0; s < 2; s++) {
			simt_dim3 g = shapes[s][0], bl = shapes[s][1];
			uint32_t threads = bl.x * bl.y * bl.z, blocks = g.x * g.y * g.z;
			uint32_t words = threads * blocks * IDS_WORDS, bad;
			uint32_t arg;

			MUST(simt_mem_alloc(ctx, words * 4, &out));
			arg = simt_buffer_addr(out);
			if (run(k, g, bl, 0, &arg, 1) || finish(ctx))
				break;
			ids = malloc(words * 4);
			MUST(simt_memcpy_dtoh(ids, out, 0, words * 4));
			bad = check_ids(ids, g, bl, info.sm_count);
			CHECK(!bad, "%u threads with wrong identities", bad);
			printf("ids: grid %ux%ux%u of %ux%ux%u, %u threads checked\n",
			       g.x, g.y, g.z, bl.x, bl.y, bl.z, threads * blocks);
			free(ids);
			simt_mem_free(out);
		}
	}

	/* dynshared: each block reverses its slice through dynamic shared memory. */
	MUST(simt_module_unload(m));
	MUST(simt_module_load(ctx, KERNEL_DIR "/dynshared.elf", &m));
	MUST(simt_module_get_kernel(m, "dynshared", &k));
	{
		const uint32_t bs = 64, nb = 5, cnt = bs * nb;
		uint32_t args[2];

		in = malloc(cnt * 4);
		want = malloc(cnt * 4);
		ids = malloc(cnt * 4);
		for (i = 0; i < cnt; i++) {
			in[i] = i * 7 + 1;
			want[i] = (i / bs) * bs + (bs - 1 - i % bs) ;
			want[i] = want[i] * 7 + 1;
		}
		MUST(simt_mem_alloc(ctx, cnt * 4, &a));
		MUST(simt_mem_alloc(ctx, cnt * 4, &out));
		MUST(simt_memcpy_htod(a, 0, in, cnt * 4));
		args[0] = simt_buffer_addr(a);
		args[1] = simt_buffer_addr(out);
		if (!run(k, dim(nb, 1, 1), dim(bs, 1, 1), bs * 4, args, 2) &&
		    !finish(ctx)) {
			MUST(simt_memcpy_dtoh(ids, out, 0, cnt * 4));
			if (!check_u32("dynshared", ids, want, cnt))
				printf("dynshared: %u words reversed in blocks of %u\n", cnt, bs);
		}
		free(in);
		free(want);
		free(ids);
	}
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}

/* ---- errors: faults, device errors, refused launches, timeouts ---- */

/* samples.elf with kernel @name's register masks cleared: regs 0. */
static uint8_t *zero_regs_image(const uint8_t *data, size_t size, const char *name)
{
	struct simt_elf elf;
	struct simt_meta meta;
	const uint8_t *desc;
	uint32_t len, i;
	char err[256];
	uint8_t *copy = malloc(size), *out = NULL;

	memcpy(copy, data, size);
	if (simt_elf_parse(&elf, "samples.elf", copy, size, err, sizeof(err)) ||
	    simt_elf_find_meta(&elf, &desc, &len, err, sizeof(err)) != 1 ||
	    simt_meta_parse(&meta, desc, len, err, sizeof(err))) {
		fail(__LINE__, "samples.elf: %s", err);
		return NULL;
	}
	for (i = 0; i < meta.h.nkernels; i++) {
		if (strcmp(meta.kernels[i].name, name))
			continue;
		out = malloc(size);
		memcpy(out, data, size);
		memset(out + (desc - elf.data) + meta.h.kernel_offset + i * meta.h.kernel_size +
		       offsetof(struct simt_meta_kernel, int_regs_used), 0, 8);
	}
	simt_meta_free(&meta);
	simt_elf_free(&elf);
	return out;
}

static void test_errors(void)
{
	struct simt_result c;
	simt_device *dev;
	simt_context *ctx, *ctx2;
	simt_module *m, *m2;
	simt_kernel *k, *k2, *spin;
	simt_buffer *a, *out;
	uint8_t *data, *bad;
	uint64_t seq = 0;
	size_t size;
	uint32_t args[4];

	struct simt_device_info info;

	MUST(simt_device_open(node, &dev));
	MUST(simt_device_get_info(dev, &info));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	MUST(simt_context_create(dev, high_allowed(&info) ? SIMT_PRIORITY_HIGH :
				 SIMT_PRIORITY_NORMAL, 0, &ctx2));

	/* A launch the driver refuses: an image whose note says 0 registers. */
	data = read_file(KERNEL_DIR "/samples.elf", &size);
	CHECK(data != NULL, "cannot read samples.elf");
	if (!data)
		return;
	bad = zero_regs_image(data, size, "vecadd");
	CHECK(bad != NULL, "no vecadd in samples.elf");
	if (bad) {
		MUST(simt_module_load_data(ctx, bad, size, "zero-regs.elf", &m));
		MUST(simt_module_get_kernel(m, "vecadd", &k));
		EXPECT(simt_launch(k, dim(1, 1, 1), dim(1, 1, 1), 0, args, 4, NULL),
		       SIMT_ERROR_LAUNCH_REFUSED);
		printf("refused: %s\n", simt_last_error());
		MUST(simt_module_unload(m));
		free(bad);
	}

	MUST(simt_module_load_data(ctx, data, size, "samples.elf", &m));
	MUST(simt_module_get_kernel(m, "vecadd", &k));
	MUST(simt_module_get_kernel(m, "spin", &spin));
	MUST(simt_mem_alloc(ctx, 4096, &a));

	/* A timeout: a long kernel polled, then waited for. */
	MUST(simt_mem_alloc(ctx, 4 * 256 * 4, &out));
	args[0] = simt_buffer_addr(out);
	args[1] = 20000;
	EXPECT(simt_launch(spin, dim(4, 1, 1), dim(256, 1, 1), 0, args, 2, &seq), SIMT_SUCCESS);
	EXPECT(simt_wait(ctx, seq, 0, &c), SIMT_ERROR_TIMEOUT);
	CHECK(c.status == SIMT_ERROR_TIMEOUT, "completion status %d", c.status);
	printf("poll: %s\n", simt_last_error());
	EXPECT(simt_wait(ctx, seq, -1, &c), SIMT_SUCCESS);

	/* A kernel storing where its context has nothing faults. */
	args[0] = simt_buffer_addr(a);
	args[1] = simt_buffer_addr(a);
	args[2] = 0x200000;	/* below FIXED_VA_END: never a buffer's */
	args[3] = 64;
	EXPECT(simt_launch(k, dim(1, 1, 1), dim(64, 1, 1), 0, args, 4, &seq), SIMT_SUCCESS);
	EXPECT(simt_wait(ctx, seq, 30 * SEC_NS, &c), SIMT_ERROR_FAULT);
	CHECK(c.status == SIMT_ERROR_FAULT && c.fault_addr >= 0x200000 &&
	      c.fault_addr < 0x200000 + 64 * 4, "fault at 0x%llx",
	      (unsigned long long)c.fault_addr);
	printf("fault: %s\n", simt_last_error());
	/* The context takes no more work; the other one goes on. */
	EXPECT(simt_launch(k, dim(1, 1, 1), dim(64, 1, 1), 0, args, 4, NULL),
	       SIMT_ERROR_CONTEXT_FAILED);
	EXPECT(simt_memcpy_htod(a, 0, args, 4), SIMT_ERROR_CONTEXT_FAILED);
	EXPECT(simt_context_synchronize(ctx), SIMT_ERROR_FAULT);
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);

	/*
	 * A block too large for any SM is refused before it is submitted,
	 * naming the SM limit it exceeds; the context goes on.
	 */
	MUST(simt_module_load_data(ctx2, data, size, "samples.elf", &m2));
	MUST(simt_module_get_kernel(m2, "vecadd", &k2));
	MUST(simt_mem_alloc(ctx2, 4096, &a));
	args[0] = args[1] = args[2] = simt_buffer_addr(a);
	args[3] = 0;
	EXPECT(simt_launch(k2, dim(1, 1, 1), dim(64, 1, 1), 0, args, 4, &seq), SIMT_SUCCESS);
	EXPECT(simt_wait(ctx2, seq, 30 * SEC_NS, &c), SIMT_SUCCESS);
	EXPECT(simt_launch(k2, dim(1, 1, 1), dim(1024, 64, 1), 0, args, 4, &seq),
	       SIMT_ERROR_LAUNCH_REFUSED);
	printf("block of 65536 threads: %s\n", simt_last_error());
	CHECK(strstr(simt_last_error(), "a block of 65536 threads exceeds the device's") != NULL,
	      "the refusal does not name the threads per SM: %s", simt_last_error());
	EXPECT(simt_launch(k2, dim(1, 1, 1), dim(64, 1, 1), info.sm_shared + 1, args, 4, &seq),
	       SIMT_ERROR_LAUNCH_REFUSED);
	printf("%u bytes of shared memory: %s\n", info.sm_shared + 1, simt_last_error());
	CHECK(strstr(simt_last_error(), "shared memory per block") != NULL,
	      "the refusal does not name shared memory: %s", simt_last_error());
	EXPECT(simt_launch(k2, dim(1, 1, 1), dim(64, 1, 1), 0, args, 4, &seq), SIMT_SUCCESS);
	EXPECT(simt_wait(ctx2, seq, 30 * SEC_NS, &c), SIMT_SUCCESS);
	EXPECT(simt_context_destroy(ctx2), SIMT_SUCCESS);

	/* A new context works after all that. */
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	MUST(simt_module_load_data(ctx, data, size, "samples.elf", &m));
	MUST(simt_module_get_kernel(m, "vecadd", &k));
	MUST(simt_mem_alloc(ctx, 4096, &a));
	{
		float v[4] = { 1, 2, 3, 4 }, r[4];

		MUST(simt_memcpy_htod(a, 0, v, 16));
		args[0] = args[1] = simt_buffer_addr(a);
		args[2] = simt_buffer_addr(a) + 16;
		args[3] = 4;
		if (!run(k, dim(1, 1, 1), dim(32, 1, 1), 0, args, 4) && !finish(ctx)) {
			MUST(simt_memcpy_dtoh(r, a, 16, 16));
			CHECK(r[0] == 2 && r[1] == 4 && r[2] == 6 && r[3] == 8,
			      "a new context's vecadd: %g %g %g %g", r[0], r[1], r[2], r[3]);
		}
	}
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
	free(data);
	printf("errors: refused launch, timeout, fault, device error checked\n");
}

/* ---- samples: saxpy, matmul, reduce, histogram through libsimt ---- */

static simt_kernel *load_kernel(simt_context *ctx, simt_module **m, const char *file,
				const char *name)
{
	simt_kernel *k = NULL;
	char path[256];

	snprintf(path, sizeof(path), KERNEL_DIR "/%s", file);
	if (*m)
		CHECK(simt_module_unload(*m) == SIMT_SUCCESS, "unload");
	*m = NULL;
	if (simt_module_load(ctx, path, m) || simt_module_get_kernel(*m, name, &k))
		fail(__LINE__, "kernel %s of %s", name, path);
	return k;
}

/* A buffer holding @n bytes of @data. */
static simt_buffer *upload(simt_context *ctx, const void *data, size_t n)
{
	simt_buffer *b = NULL;

	if (simt_mem_alloc(ctx, n, &b) || simt_memcpy_htod(b, 0, data, n)) {
		fail(__LINE__, "upload of %zu bytes", n);
		return NULL;
	}
	return b;
}

static void test_samples(void)
{
	simt_device *dev;
	simt_context *ctx;
	simt_module *m = NULL;
	simt_kernel *k;
	simt_buffer *bx, *by, *bz;
	float *x, *y, *z, *want;
	uint32_t i, j, l;

	MUST(simt_device_open(node, &dev));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));

	/* saxpy: y = 2 x + y, a grid smaller than the data. */
	if ((k = load_kernel(ctx, &m, "saxpy.elf", "saxpy"))) {
		const uint32_t n = 5000;

		x = malloc(n * 4);
		y = malloc(n * 4);
		want = malloc(n * 4);
		for (i = 0; i < n; i++) {
			x[i] = i % 1000;
			y[i] = 3.0f * (i % 777);
			want[i] = 2.0f * x[i] + y[i];
		}
		bx = upload(ctx, x, n * 4);
		by = upload(ctx, y, n * 4);
		if (bx && by &&
		    !run(k, dim(8, 1, 1), dim(128, 1, 1), 0,
			 (uint32_t[]){ n, fbits(2.0f), simt_buffer_addr(bx), simt_buffer_addr(by) },
			 4) && !finish(ctx) &&
		    !simt_memcpy_dtoh(y, by, 0, n * 4) && !check_floats("saxpy", y, want, n))
			printf("saxpy: %u elements checked\n", n);
		free(x);
		free(y);
		free(want);
	}

	/* matmul: 48 x 48 through shared-memory tiles. */
	if ((k = load_kernel(ctx, &m, "matmul.elf", "matmul"))) {
		const uint32_t n = 48;

		x = malloc(n * n * 4);
		y = malloc(n * n * 4);
		z = malloc(n * n * 4);
		want = calloc(n * n, 4);
		for (i = 0; i < n * n; i++) {
			x[i] = (float)((i * 7) % 11) - 5.0f;
			y[i] = (float)((i * 5) % 13) - 6.0f;
		}
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				for (l = 0; l < n; l++)
					want[i * n + j] += x[i * n + l] * y[l * n + j];
		bx = upload(ctx, x, n * n * 4);
		by = upload(ctx, y, n * n * 4);
		bz = NULL;
		simt_mem_alloc(ctx, n * n * 4, &bz);
		if (bx && by && bz &&
		    !run(k, dim(n / 16, n / 16, 1), dim(16, 16, 1), 0,
			 (uint32_t[]){ simt_buffer_addr(bx), simt_buffer_addr(by),
				       simt_buffer_addr(bz), n }, 4) &&
		    !finish(ctx) && !simt_memcpy_dtoh(z, bz, 0, n * n * 4) &&
		    !check_floats("matmul", z, want, n * n))
			printf("matmul: %u x %u checked\n", n, n);
		free(x);
		free(y);
		free(z);
		free(want);
	}

	/* reduce: partial sums of blocks of 256, by tree and by warp shuffles. */
	if ((k = load_kernel(ctx, &m, "reduce.elf", "reduce_tree"))) {
		const uint32_t n = 10000, bs = 256, nb = (n + bs - 1) / bs;
		const char *names[] = { "reduce_tree", "reduce_warp" };

		x = malloc(n * 4);
		y = malloc(nb * 4);
		want = calloc(nb, 4);
		for (i = 0; i < n; i++) {
			x[i] = (float)(i % 100);
			want[i / bs] += x[i];
		}
		bx = upload(ctx, x, n * 4);
		for (j = 0; bx && j < 2; j++) {
			by = NULL;
			if (simt_module_get_kernel(m, names[j], &k) || simt_mem_alloc(ctx, nb * 4, &by)) {
				fail(__LINE__, "%s", names[j]);
				break;
			}
			if (!run(k, dim(nb, 1, 1), dim(bs, 1, 1), 0,
				 (uint32_t[]){ simt_buffer_addr(bx), simt_buffer_addr(by), n }, 3) &&
			    !finish(ctx) && !simt_memcpy_dtoh(y, by, 0, nb * 4) &&
			    !check_floats(names[j], y, want, nb))
				printf("%s: %u partial sums checked\n", names[j], nb);
			simt_mem_free(by);
		}
		free(x);
		free(y);
		free(want);
	}

	/* histogram: 256 bins of 20000 bytes, shared and global atomics. */
	if ((k = load_kernel(ctx, &m, "histogram.elf", "histogram"))) {
		const uint32_t n = 20000;
		uint32_t bins[256], wbins[256] = { 0 };
		uint8_t *data = malloc(n);

		for (i = 0; i < n; i++) {
			data[i] = pat(i, 9) % 97 + (i % 3) * 50;
			wbins[data[i]]++;
		}
		bx = upload(ctx, data, n);
		by = NULL;
		simt_mem_alloc(ctx, sizeof(bins), &by);
		if (bx && by &&
		    !run(k, dim(6, 1, 1), dim(128, 1, 1), 0,
			 (uint32_t[]){ simt_buffer_addr(bx), n, simt_buffer_addr(by) }, 3) &&
		    !finish(ctx) && !simt_memcpy_dtoh(bins, by, 0, sizeof(bins)) &&
		    !check_u32("histogram", bins, wbins, 256))
			printf("histogram: 256 bins of %u bytes checked\n", n);
		free(data);
	}
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}

/* ---- threads: one process, several threads using libsimt at once ---- */

#define THREADS 4		/* at most; one context each, and one shared */
#define THREAD_ROUNDS 3

struct thread_arg {
	unsigned int index;
	simt_device *dev;
	simt_context *shared;		/* holds ids.elf, used by every thread */
	simt_kernel *ids;
	uint32_t sm_count;
	unsigned int vecadds, ids_runs;	/* checked results */
};

/*
 * One thread: per round, its own context with samples.elf (created,
 * loaded, buffers allocated and copied, vecadd launched and waited for,
 * the result copied back and checked, destroyed) and an ids launch in
 * the shared context with a block shape of its own, so that the shared
 * context's local memory grows while the other threads launch there.
 */
static void *thread_main(void *p)
{
	struct thread_arg *t = p;
	const uint32_t n = 3000 + 1000 * t->index;
	float *fa = malloc(n * 4), *fb = malloc(n * 4), *fc = malloc(n * 4);
	unsigned int round, i;

	for (round = 0; round < THREAD_ROUNDS; round++) {
		simt_context *ctx = NULL;
		simt_module *m = NULL;
		simt_kernel *k = NULL;
		simt_buffer *a = NULL, *b = NULL, *c = NULL, *out = NULL;
		struct simt_result res;
		uint64_t seq = 0, seq2 = 0;
		simt_dim3 g = dim(2, 1 + t->index % 2, 1);
		simt_dim3 bl = dim(8 * (1 + t->index + round), 2, 1);
		uint32_t words = g.x * g.y * g.z * bl.x * bl.y * bl.z * IDS_WORDS, *ids;
		simt_status st;

		for (i = 0; i < n; i++) {
			fa[i] = (float)(i + t->index * 7 + round);
			fb[i] = (float)(t->index * 1000) - i * 0.5f;
		}
		if ((st = simt_context_create(t->dev, SIMT_PRIORITY_NORMAL, 0, &ctx)) ||
		    (st = simt_module_load(ctx, KERNEL_DIR "/samples.elf", &m)) ||
		    (st = simt_module_get_kernel(m, "vecadd", &k)) ||
		    (st = simt_mem_alloc(ctx, n * 4, &a)) ||
		    (st = simt_mem_alloc(ctx, n * 4, &b)) ||
		    (st = simt_mem_alloc(ctx, n * 4, &c)) ||
		    (st = simt_memcpy_htod(a, 0, fa, n * 4)) ||
		    (st = simt_memcpy_htod(b, 0, fb, n * 4))) {
			fail(__LINE__, "thread %u round %u: setup: %s", t->index, round,
			     simt_error_string(st));
			if (ctx)
				simt_context_destroy(ctx);
			break;
		}
		/* ids in the shared context, queued before waiting for vecadd */
		st = simt_mem_alloc(t->shared, words * 4, &out);
		if (!st) {
			uint32_t arg = simt_buffer_addr(out);

			st = simt_launch(t->ids, g, bl, 0, &arg, 1, &seq2);
		}
		CHECK(!st, "thread %u round %u: ids in the shared context: %s", t->index, round,
		      simt_error_string(st));
		{
			uint32_t args[4] = { simt_buffer_addr(a), simt_buffer_addr(b),
					     simt_buffer_addr(c), n };

			st = simt_launch(k, dim((n + 127) / 128, 1, 1), dim(128, 1, 1), 0, args, 4,
					 &seq);
			if (!st)
				st = simt_wait(ctx, seq, 120 * SEC_NS, &res);
		}
		CHECK(!st, "thread %u round %u: vecadd: %s", t->index, round,
		      simt_error_string(st));
		if (!st && !simt_memcpy_dtoh(fc, c, 0, n * 4)) {
			for (i = 0; i < n && fc[i] == fa[i] + fb[i]; i++)
				;
			CHECK(i == n, "thread %u round %u: vecadd [%u] = %g, expected %g", t->index,
			      round, i, i < n ? fc[i] : 0, i < n ? fa[i] + fb[i] : 0);
			t->vecadds += i == n;
		}
		if (seq2) {
			st = simt_wait(t->shared, seq2, 120 * SEC_NS, &res);
			CHECK(!st, "thread %u round %u: ids wait: %s", t->index, round,
			      simt_error_string(st));
			ids = malloc(words * 4);
			if (!st && !simt_memcpy_dtoh(ids, out, 0, words * 4)) {
				uint32_t bad = check_ids(ids, g, bl, t->sm_count);

				CHECK(!bad, "thread %u round %u: %u threads of ids wrong", t->index,
				      round, bad);
				t->ids_runs += !bad;
			}
			free(ids);
		}
		if (out)
			EXPECT(simt_mem_free(out), SIMT_SUCCESS);
		EXPECT(simt_mem_free(a), SIMT_SUCCESS);
		EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	}
	free(fa);
	free(fb);
	free(fc);
	return NULL;
}

static void test_threads(void)
{
	struct simt_device_info info;
	struct thread_arg args[THREADS];
	pthread_t tid[THREADS];
	simt_device *dev;
	simt_context *shared;
	simt_module *m;
	simt_kernel *ids;
	unsigned int i, nthreads, vecadds = 0, ids_runs = 0;

	MUST(simt_device_open(node, &dev));
	MUST(simt_device_get_info(dev, &info));
	nthreads = file_contexts(dev, &info, info.max_contexts) - 1;
	nthreads = nthreads > THREADS ? THREADS : nthreads;
	CHECK(nthreads >= 2, "room for %u contexts only", nthreads + 1);
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &shared));
	MUST(simt_module_load(shared, KERNEL_DIR "/ids.elf", &m));
	MUST(simt_module_get_kernel(m, "ids", &ids));
	for (i = 0; i < nthreads; i++) {
		args[i] = (struct thread_arg){ .index = i, .dev = dev, .shared = shared,
					       .ids = ids, .sm_count = info.sm_count };
		if (pthread_create(&tid[i], NULL, thread_main, &args[i])) {
			fail(__LINE__, "pthread_create: %s", strerror(errno));
			tid[i] = 0;
		}
	}
	for (i = 0; i < nthreads; i++) {
		if (tid[i])
			pthread_join(tid[i], NULL);
		vecadds += args[i].vecadds;
		ids_runs += args[i].ids_runs;
	}
	CHECK(vecadds == nthreads * THREAD_ROUNDS && ids_runs == nthreads * THREAD_ROUNDS,
	      "%u vecadds and %u ids runs checked, expected %u of each", vecadds, ids_runs,
	      nthreads * THREAD_ROUNDS);
	/* Everything the threads made is gone: the device closes. */
	EXPECT(simt_context_destroy(shared), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
	printf("threads: %u threads x %u rounds: %u vecadds in their own contexts and "
	       "%u ids runs in a shared one checked\n", nthreads, THREAD_ROUNDS, vecadds, ids_runs);
}

/* ---- timeout: a wait's deadline holds, signals or not ---- */

static volatile sig_atomic_t signals;

static void on_alarm(int sig)
{
	(void)sig;
	signals++;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Wait @ms for submission @seq, which runs longer, while SIGALRM comes
 * every 2 ms (its handler with or without SA_RESTART): SIMT_ERROR_TIMEOUT
 * after the deadline, not before and not much later.
 */
static void timed_wait(simt_context *ctx, uint64_t seq, unsigned int ms, int restart)
{
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } }, off = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = restart ? SA_RESTART : 0 };
	struct simt_result c;
	simt_status st;
	double t0, dt;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	signals = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	t0 = mono_s();
	st = simt_wait(ctx, seq, ms * 1000000ll, &c);
	dt = mono_s() - t0;
	setitimer(ITIMER_REAL, &off, NULL);
	EXPECT(st, SIMT_ERROR_TIMEOUT);
	CHECK(c.status == SIMT_ERROR_TIMEOUT, "result status %s", simt_error_string(c.status));
	CHECK(strstr(simt_last_error(), "still running") != NULL, "message: %s",
	      simt_last_error());
	CHECK(dt >= ms / 1000.0 - 0.002 && dt < ms / 1000.0 + 2.0,
	      "a %u ms wait took %.3f s", ms, dt);
	CHECK(signals >= 5, "only %d signals during the wait", (int)signals);
	printf("%u ms wait with %d signals (%s): %s after %.3f s\n", ms, (int)signals,
	       restart ? "SA_RESTART" : "no SA_RESTART", simt_error_string(st), dt);
}

static void test_timeout(void)
{
	struct simt_device_info info;
	struct simt_result c;
	simt_device *dev;
	simt_context *ctx;
	simt_module *m;
	simt_kernel *spin;
	simt_buffer *out;
	uint64_t seq = 0;
	uint32_t args[2];
	double t0;

	MUST(simt_device_open(node, &dev));
	MUST(simt_device_get_info(dev, &info));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	MUST(simt_module_load(ctx, KERNEL_DIR "/samples.elf", &m));
	MUST(simt_module_get_kernel(m, "spin", &spin));
	MUST(simt_mem_alloc(ctx, 32 * 256 * 4, &out));
	/* Seconds of device time: every wait below ends before it does. */
	args[0] = simt_buffer_addr(out);
	args[1] = 40000;
	MUST(simt_launch(spin, dim(32, 1, 1), dim(256, 1, 1), 0, args, 2, &seq));
	/* A poll, and a short wait without signals. */
	EXPECT(simt_wait(ctx, seq, 0, &c), SIMT_ERROR_TIMEOUT);
	CHECK(c.status == SIMT_ERROR_TIMEOUT, "poll status %s", simt_error_string(c.status));
	t0 = mono_s();
	EXPECT(simt_wait(ctx, seq, 50 * 1000000ll, &c), SIMT_ERROR_TIMEOUT);
	printf("50 ms wait: %.3f s\n", mono_s() - t0);
	/* Signals interrupt the wait (EINTR): the deadline stays. */
	timed_wait(ctx, seq, 100, 0);
	/*
	 * With SA_RESTART the kernel restarts the ioctl itself: only an
	 * absolute deadline (0.3) keeps it; a 0.2 relative wait starts over.
	 */
	if (info.uapi_minor >= 3)
		timed_wait(ctx, seq, 100, 1);
	else
		printf("SA_RESTART wait not checked: interface %u.%u has no absolute WAIT\n",
		       info.uapi_major, info.uapi_minor);
	/* Still running: every timeout above was real. */
	EXPECT(simt_wait(ctx, seq, 0, NULL), SIMT_ERROR_TIMEOUT);
	t0 = mono_s();
	EXPECT(simt_wait(ctx, seq, -1, &c), SIMT_SUCCESS);
	printf("the kernel ended %.3f s later\n", mono_s() - t0);
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}

/* ---- too-large: E2BIG is "too large", not "out of memory" ---- */

static void test_too_large(void)
{
	struct simt_device_info info;
	struct simt_kernel_attrs at;
	simt_device *dev;
	simt_context *ctx;
	simt_module *m;
	simt_kernel *k;
	simt_buffer *a = NULL;
	uint32_t arg = 0;

	MUST(simt_device_open(node, &dev));
	MUST(simt_device_get_info(dev, &info));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	CHECK(strcmp(simt_error_string(SIMT_ERROR_TOO_LARGE),
		     simt_error_string(SIMT_ERROR_OUT_OF_MEMORY)), "same texts");
	/* More than the device has: the driver's E2BIG. */
	EXPECT(simt_mem_alloc(ctx, info.vram_size + 1, &a), SIMT_ERROR_TOO_LARGE);
	CHECK(a == NULL, "a buffer was returned");
	printf("VRAM + 1 byte: %s: %s\n", simt_error_string(SIMT_ERROR_TOO_LARGE),
	       simt_last_error());
	EXPECT(simt_mem_alloc(ctx, info.vram_size * 4, &a), SIMT_ERROR_TOO_LARGE);
	EXPECT(simt_mem_alloc(ctx, SIZE_MAX, &a), SIMT_ERROR_TOO_LARGE);
	/*
	 * What fits the device but neither VRAM nor the system memory the
	 * driver spends on evicted buffers (half the RAM) is out of memory.
	 */
	{
		simt_buffer *bufs[8] = { NULL };
		simt_status st = SIMT_SUCCESS;
		unsigned int i, n = 0;

		for (i = 0; i < 8 && st == SIMT_SUCCESS; i++) {
			st = simt_mem_alloc(ctx, info.vram_size * 3 / 4, &bufs[i]);
			n += st == SIMT_SUCCESS;
		}
		CHECK(n >= 1 && st == SIMT_ERROR_OUT_OF_MEMORY,
		      "%u buffers of 3/4 of VRAM, then %s (expected out of memory after 1 or more)",
		      n, simt_error_string(st));
		printf("%u buffers of 3/4 of VRAM, then %s: %s\n", n, simt_error_string(st),
		       simt_last_error());
		for (i = 0; i < n; i++)
			EXPECT(simt_mem_free(bufs[i]), SIMT_SUCCESS);
	}
	/* Local memory for more threads than the VRAM can hold stacks for. */
	MUST(simt_module_load(ctx, KERNEL_DIR "/ids.elf", &m));
	MUST(simt_module_get_kernel(m, "ids", &k));
	simt_kernel_get_attrs(k, &at);
	CHECK(at.local_bytes > 0, "ids uses no local memory");
	if (at.local_bytes) {
		uint64_t per_block = info.vram_size / ((uint64_t)at.local_bytes * info.sm_count *
						       info.sm_blocks) + 1;

		EXPECT(simt_launch(k, dim(1, 1, 1), dim(per_block, 1, 1), 0, &arg, 1, NULL),
		       SIMT_ERROR_TOO_LARGE);
		printf("blocks of %llu threads: %s\n", (unsigned long long)per_block,
		       simt_last_error());
	}
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}

/* ---- metadata: what a launch carries from the note (0.3) ---- */

/* Does the launch command of @k with @args have the idempotent flag? */
static int cmd_flag(simt_kernel *k, const uint32_t *args, unsigned int nargs)
{
	struct drm_simt_cmd cmd;
	simt_status st = simt_internal_launch_cmd(k, dim(1, 1, 1), dim(32, 1, 1), 0, args, nargs,
						  &cmd);

	CHECK(st == SIMT_SUCCESS, "launch command: %s", simt_error_string(st));
	return !st && (cmd.flags & DRM_SIMT_CMD_LAUNCH_IDEMPOTENT);
}

static void test_metadata(void)
{
	const uint32_t n = 4096;
	struct simt_device_info info;
	struct simt_image img;
	const struct simt_kernel_info *kv, *ks;
	struct drm_simt_cmd cmd;
	simt_device *dev;
	simt_context *ctx;
	simt_module *m;
	simt_kernel *vecadd, *saxpy;
	simt_buffer *a, *b, *out, *live;
	char err[256];
	float *fa, *fb, *fc;
	uint32_t i, meta_ok;

	MUST(simt_device_open(node, &dev));
	MUST(simt_device_get_info(dev, &info));
	meta_ok = info.uapi_minor >= 3;
	if (simt_image_load(&img, KERNEL_DIR "/samples.elf", err, sizeof(err))) {
		fail(__LINE__, "%s", err);
		return;
	}
	kv = simt_image_kernel(&img, "vecadd");
	ks = simt_image_kernel(&img, "saxpy");
	if (!kv || !ks) {
		fail(__LINE__, "samples.elf has no vecadd or saxpy");
		return;
	}
	/* What the rule below rests on: vecadd loads a0, a1, stores a2. */
	CHECK((kv->m.flags & SIMT_META_F_IDEMPOTENT) && kv->m.load_origins == 3 &&
	      kv->m.store_origins == 4, "vecadd's note: flags 0x%x loads 0x%x stores 0x%x",
	      kv->m.flags, kv->m.load_origins, kv->m.store_origins);
	CHECK(!(ks->m.flags & SIMT_META_F_IDEMPOTENT), "saxpy's note says idempotent");

	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	MUST(simt_module_load(ctx, KERNEL_DIR "/samples.elf", &m));
	MUST(simt_module_get_kernel(m, "vecadd", &vecadd));
	MUST(simt_module_get_kernel(m, "saxpy", &saxpy));
	MUST(simt_mem_alloc(ctx, n * 4, &a));
	MUST(simt_mem_alloc(ctx, n * 4, &b));
	MUST(simt_mem_alloc(ctx, n * 4, &out));

	/* The idempotence decision: the buffers behind the arguments. */
	{
		uint32_t A = simt_buffer_addr(a), B = simt_buffer_addr(b), O = simt_buffer_addr(out);
		const struct {
			simt_kernel *k;
			uint32_t args[4];
			int want;
			const char *what;
		} cases[] = {
			{ vecadd, { A, B, O, n }, 1, "three buffers" },
			{ vecadd, { A, B + 64, O + 4000, n }, 1, "addresses inside the buffers" },
			{ vecadd, { A, A, O, n }, 1, "one buffer loaded twice" },
			{ vecadd, { A, B, A, n }, 0, "the stored-to buffer loaded too" },
			{ vecadd, { A, B, A + 8192, n }, 0, "another part of a loaded buffer" },
			{ vecadd, { A, B, 0x200000, n }, 0, "a store to no buffer" },
			{ vecadd, { 0x200000, B, O, n }, 0, "a load from no buffer" },
			{ vecadd, { A, B, img.code_start, n }, 0, "a store into the image" },
			{ saxpy, { n, 0x40000000, A, B }, 0, "a kernel whose note says no" },
		};

		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			int got = simt_internal_launch_idempotent(cases[i].k, cases[i].args, 4);

			CHECK(got == cases[i].want, "idempotent, %s: %d, expected %d", cases[i].what,
			      got, cases[i].want);
			/* The command has the flag from 0.3 on, never before. */
			got = cmd_flag(cases[i].k, cases[i].args, 4);
			CHECK(got == (cases[i].want && meta_ok), "flag, %s: %d", cases[i].what, got);
		}
		/* Fewer arguments than the note names: a2 is 0, in no buffer. */
		CHECK(!simt_internal_launch_idempotent(vecadd, cases[0].args, 2),
		      "idempotent with a2 missing");
		printf("idempotence: %u cases decided as the rule says\n",
		       (unsigned)(sizeof(cases) / sizeof(cases[0])));
	}

	/* The command: live table, used registers (0.3), or the 0.2 form. */
	{
		uint32_t args[4] = { simt_buffer_addr(a), simt_buffer_addr(b),
				     simt_buffer_addr(out), n };

		MUST(simt_internal_launch_cmd(vecadd, dim(n / 128, 1, 1), dim(128, 1, 1), 0, args, 4,
					      &cmd));
	}
	live = simt_internal_module_live(m);
	if (meta_ok) {
		uint32_t count = (img.code_end - img.code_start) / 4;
		uint64_t *table = malloc(count * 8);

		CHECK(live != NULL, "no live table in device memory");
		CHECK(live && cmd.launch.live_addr == simt_buffer_addr(live),
		      "live_addr 0x%x", cmd.launch.live_addr);
		CHECK(cmd.launch.code_addr == img.code_start &&
		      cmd.launch.code_size == count * 4, "code 0x%x + %u", cmd.launch.code_addr,
		      cmd.launch.code_size);
		CHECK(cmd.launch.int_regs == kv->m.int_regs_used &&
		      cmd.launch.fp_regs == kv->m.fp_regs_used,
		      "registers 0x%x 0x%x, the note says 0x%x 0x%x", cmd.launch.int_regs,
		      cmd.launch.fp_regs, kv->m.int_regs_used, kv->m.fp_regs_used);
		/* The table in device memory is the note's, pc by pc. */
		if (live && simt_buffer_size(live) >= count * 8 &&
		    !simt_memcpy_dtoh(table, live, 0, count * 8)) {
			for (i = 0; i < count; i++)
				if (table[i] != simt_meta_live_at(&img.meta, img.code_start + 4 * i))
					break;
			CHECK(i == count, "live table entry %u (pc 0x%x): 0x%llx", i,
			      img.code_start + 4 * i, i < count ? (unsigned long long)table[i] : 0);
			if (i == count)
				printf("live table: %u masks at 0x%x equal the note's\n", count,
				       simt_buffer_addr(live));
		} else {
			fail(__LINE__, "cannot read the live table");
		}
		free(table);
	} else {
		CHECK(!live && !cmd.flags && !cmd.launch.live_addr && !cmd.launch.int_regs &&
		      !cmd.launch.fp_regs, "metadata for a driver of interface %u.%u",
		      info.uapi_major, info.uapi_minor);
		printf("interface %u.%u: the launch carries no metadata (checked)\n",
		       info.uapi_major, info.uapi_minor);
	}

	/* The device takes both: vecadd flagged, saxpy not, results checked. */
	fa = malloc(n * 4);
	fb = malloc(n * 4);
	fc = malloc(n * 4);
	for (i = 0; i < n; i++) {
		fa[i] = i * 0.25f;
		fb[i] = 7.0f - i;
	}
	MUST(simt_memcpy_htod(a, 0, fa, n * 4));
	MUST(simt_memcpy_htod(b, 0, fb, n * 4));
	if (!run(vecadd, dim(n / 128, 1, 1), dim(128, 1, 1), 0,
		 (uint32_t[]){ simt_buffer_addr(a), simt_buffer_addr(b), simt_buffer_addr(out), n },
		 4) && !finish(ctx) && !simt_memcpy_dtoh(fc, out, 0, n * 4)) {
		for (i = 0; i < n && fc[i] == fa[i] + fb[i]; i++)
			;
		CHECK(i == n, "vecadd [%u]", i);
	}
	if (!run(saxpy, dim(8, 1, 1), dim(128, 1, 1), 0,
		 (uint32_t[]){ n, fbits(2.0f), simt_buffer_addr(a), simt_buffer_addr(b) }, 4) &&
	    !finish(ctx) && !simt_memcpy_dtoh(fc, b, 0, n * 4)) {
		for (i = 0; i < n && fc[i] == 2.0f * fa[i] + fb[i]; i++)
			;
		CHECK(i == n, "saxpy [%u]", i);
	}
	printf("vecadd (idempotent flag %s) and saxpy (no flag) ran: results checked\n",
	       meta_ok ? "set, with the live table" : "not sent, no metadata");
	free(fa);
	free(fb);
	free(fc);
	simt_image_free(&img);
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}

/* ---- multi-device: every device works, the least-loaded choice ---- */

/* Open SIMT_DEVICE_LEAST_LOADED; the index N of the accelN chosen, or -1. */
static int least_loaded(const char *how)
{
	struct simt_device_info info;
	simt_device *dev;
	int n = -1;

	if (how)
		setenv("SIMT_DEVICE", SIMT_DEVICE_LEAST_LOADED, 1);
	EXPECT(simt_device_open(how ? NULL : SIMT_DEVICE_LEAST_LOADED, &dev),
	       SIMT_SUCCESS);
	if (how)
		unsetenv("SIMT_DEVICE");
	if (simt_device_get_info(dev, &info) == SIMT_SUCCESS &&
	    sscanf(info.node, "/dev/accel/accel%d", &n) != 1)
		n = -1;
	simt_device_close(dev);
	return n;
}

/* vecadd of 1000 elements on @dev, checked; 0 if right. */
static int vecadd_on(simt_device *dev)
{
	const uint32_t n = 1000;
	float fa[1000], fb[1000], fc[1000];
	simt_buffer *a, *b, *c;
	simt_context *ctx;
	simt_module *m;
	simt_kernel *k;
	uint32_t i, args[4];
	int bad;

	if (simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx))
		return -1;
	for (i = 0; i < n; i++) {
		fa[i] = i * 0.5f;
		fb[i] = 7.0f - i;
	}
	bad = simt_module_load(ctx, KERNEL_DIR "/samples.elf", &m) ||
	      simt_module_get_kernel(m, "vecadd", &k) ||
	      simt_mem_alloc(ctx, n * 4, &a) || simt_mem_alloc(ctx, n * 4, &b) ||
	      simt_mem_alloc(ctx, n * 4, &c) ||
	      simt_memcpy_htod(a, 0, fa, n * 4) || simt_memcpy_htod(b, 0, fb, n * 4);
	if (!bad) {
		args[0] = simt_buffer_addr(a);
		args[1] = simt_buffer_addr(b);
		args[2] = simt_buffer_addr(c);
		args[3] = n;
		bad = run(k, dim(8, 1, 1), dim(128, 1, 1), 0, args, 4) || finish(ctx) ||
		      simt_memcpy_dtoh(fc, c, 0, n * 4);
	}
	for (i = 0; !bad && i < n; i++)
		fb[i] += fa[i];
	bad = bad || check_floats("vecadd", fc, fb, n);
	simt_context_destroy(ctx);
	return bad ? -1 : 0;
}

static void test_multi_device(void)
{
	const char *env = getenv("SIMTGUEST_DEVICES");
	int ndev = env ? atoi(env) : 1, i, j, got;
	struct simt_device_info info[8];
	simt_device *dev[8];
	simt_context *busy, *idle = NULL;
	simt_module *m;
	simt_kernel *spin;
	simt_buffer *out;
	uint32_t args[2];
	uint64_t seq, v;

	if (ndev < 1 || ndev > 8) {
		fail(__LINE__, "SIMTGUEST_DEVICES=%s: not 1..8", env);
		return;
	}
	/* Every device a simt device of its own, working and idle. */
	for (i = 0; i < ndev; i++) {
		char path[32];

		snprintf(path, sizeof(path), "/dev/accel/accel%d", i);
		MUST(simt_device_open(path, &dev[i]));
		MUST(simt_device_get_info(dev[i], &info[i]));
		for (j = 0; j < i; j++)
			CHECK(strcmp(info[i].pci_address, info[j].pci_address),
			      "accel%d and accel%d are both %s", i, j, info[i].pci_address);
		CHECK(vecadd_on(dev[i]) == 0, "vecadd on accel%d", i);
		EXPECT(simt_device_get_param(dev[i], DRM_SIMT_PARAM_BUSY_CONTEXTS, &v),
		       SIMT_SUCCESS);
		CHECK(v == 0, "accel%d idle but %llu busy contexts", i, (unsigned long long)v);
		printf("accel%d: %s, %u SMs, vecadd checked\n", i, info[i].pci_address,
		       info[i].sm_count);
	}
	{
		char path[32];

		snprintf(path, sizeof(path), "/dev/accel/accel%d", ndev);
		CHECK(access(path, F_OK) != 0, "%s exists: more than %d devices", path, ndev);
	}

	/* All idle: the lowest node, by name or through $SIMT_DEVICE. */
	got = least_loaded(NULL);
	CHECK(got == 0, "all idle: least-loaded chose accel%d, not accel0", got);
	got = least_loaded("env");
	CHECK(got == 0, "SIMT_DEVICE=least-loaded chose accel%d, not accel0", got);

	/* A long kernel on accel0: the choice moves to accel1. */
	MUST(simt_context_create(dev[0], SIMT_PRIORITY_NORMAL, 0, &busy));
	MUST(simt_module_load(busy, KERNEL_DIR "/samples.elf", &m));
	MUST(simt_module_get_kernel(m, "spin", &spin));
	MUST(simt_mem_alloc(busy, 32 * 256 * 4, &out));
	args[0] = simt_buffer_addr(out);
	args[1] = 4000;
	MUST(simt_launch(spin, dim(32, 1, 1), dim(256, 1, 1), 0, args, 2, &seq));
	EXPECT(simt_device_get_param(dev[0], DRM_SIMT_PARAM_BUSY_CONTEXTS, &v), SIMT_SUCCESS);
	CHECK(v == 1, "accel0 running a kernel: %llu busy contexts, not 1",
	      (unsigned long long)v);
	EXPECT(simt_device_get_param(dev[0], DRM_SIMT_PARAM_CONTEXTS, &v), SIMT_SUCCESS);
	CHECK(v == 1, "accel0: %llu contexts, not 1", (unsigned long long)v);
	got = least_loaded(NULL);
	CHECK(got == (ndev > 1 ? 1 : 0), "accel0 busy: least-loaded chose accel%d", got);
	if (ndev > 1) {
		/* An idle context on accel1 still beats a busy accel0. */
		MUST(simt_context_create(dev[1], SIMT_PRIORITY_NORMAL, 0, &idle));
		got = least_loaded(NULL);
		/* with a third device, it has no context at all */
		CHECK(got == (ndev > 2 ? 2 : 1),
		      "accel0 busy, accel1 idle with a context: chose accel%d", got);
	}
	EXPECT(simt_wait(busy, seq, -1, NULL), SIMT_SUCCESS);
	EXPECT(simt_context_destroy(busy), SIMT_SUCCESS);
	/* accel0 empty again; accel1 holds a context: accel0 */
	got = least_loaded(NULL);
	CHECK(got == 0, "accel0 empty again: least-loaded chose accel%d", got);
	if (idle)
		EXPECT(simt_context_destroy(idle), SIMT_SUCCESS);
	for (i = 0; i < ndev; i++)
		EXPECT(simt_device_close(dev[i]), SIMT_SUCCESS);
	printf("least-loaded: checked with %d device%s\n", ndev, ndev > 1 ? "s" : "");
}

/* ---- kernel splitting (seed 002): simt_launch_split ---- */

/* A context at normal priority, never preempted, and its device's info. */
static simt_context *split_context(simt_device **dev, struct simt_device_info *info)
{
	simt_context *ctx = NULL;

	if (simt_device_open(node, dev)) {
		fail(__LINE__, "open %s", node);
		return NULL;
	}
	if (simt_device_get_info(*dev, info) ||
	    simt_context_create(*dev, SIMT_PRIORITY_NORMAL, SIMT_PREEMPT_NONE, &ctx)) {
		fail(__LINE__, "context");
		return NULL;
	}
	CHECK(info->uapi_minor >= 4, "interface %u.%u has no subgrids", info->uapi_major,
	      info->uapi_minor);
	return ctx;
}

/*
 * Run @k split into subkernels of @s blocks (0: automatic with @target)
 * and check that it wrote what the unsplit launch wrote (@want, @bytes at
 * @out, which starts zeroed), with the expected number of subkernels.
 */
static int split_same(simt_kernel *k, simt_dim3 g, simt_dim3 bl, const uint32_t *args,
		      unsigned int nargs, simt_buffer *out, const void *want, size_t bytes,
		      uint32_t s, struct simt_split_result *r)
{
	struct simt_split sp = { .subkernel_blocks = s, .target_cycles = 0 };
	uint32_t total = g.x * g.y * g.z;
	void *got = calloc(bytes, 1);
	int bad;

	if (!got || simt_memcpy_htod(out, 0, got, bytes)) {
		fail(__LINE__, "clearing the output");
		free(got);
		return -1;
	}
	if (simt_launch_split(k, g, bl, 0, args, nargs, &sp, r)) {
		fail(__LINE__, "split launch, S = %u", s);
		free(got);
		return -1;
	}
	CHECK(r->subkernels == (total + s - 1) / s && r->subkernel_blocks == s,
	      "S = %u: %u subkernels of %u blocks for %u blocks", s, r->subkernels,
	      r->subkernel_blocks, total);
	CHECK(r->result.status == SIMT_SUCCESS && r->result.end_cycle > r->result.start_cycle,
	      "S = %u: status %d, cycles %llu..%llu", s, r->result.status,
	      (unsigned long long)r->result.start_cycle, (unsigned long long)r->result.end_cycle);
	bad = simt_memcpy_dtoh(got, out, 0, bytes) || memcmp(got, want, bytes);
	CHECK(!bad, "S = %u: the output differs from the unsplit launch's", s);
	free(got);
	return bad ? -1 : 0;
}

/* Results of split launches are those of the unsplit one, bit for bit. */
static void test_split_results(void)
{
	const uint32_t n = 64;	/* matmul: 4 x 4 blocks of 16 x 16 */
	struct simt_device_info info;
	struct simt_split_result r;
	struct simt_split sp;
	simt_device *dev;
	simt_context *ctx;
	simt_module *m = NULL;
	simt_kernel *k;
	simt_buffer *bx, *by, *bz;
	float *x, *y, *want;
	uint32_t args[4], i;
	const uint32_t sizes[] = { 1, 3, 5, 15, 16, 100 };

	if (!(ctx = split_context(&dev, &info)))
		return;
	if (!(k = load_kernel(ctx, &m, "matmul.elf", "matmul")))
		return;
	x = malloc(n * n * 4);
	y = malloc(n * n * 4);
	want = malloc(n * n * 4);
	for (i = 0; i < n * n; i++) {
		x[i] = (float)((i * 7) % 11) / 3.0f - 1.5f;
		y[i] = (float)((i * 5) % 13) / 7.0f - 0.75f;
	}
	bx = upload(ctx, x, n * n * 4);
	by = upload(ctx, y, n * n * 4);
	MUST(simt_mem_alloc(ctx, n * n * 4, &bz));
	args[0] = simt_buffer_addr(bx);
	args[1] = simt_buffer_addr(by);
	args[2] = simt_buffer_addr(bz);
	args[3] = n;
	MUST(simt_launch(k, dim(n / 16, n / 16, 1), dim(16, 16, 1), 0, args, 4, NULL));
	MUST(simt_context_synchronize(ctx));
	MUST(simt_memcpy_dtoh(want, bz, 0, n * n * 4));
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		if (!split_same(k, dim(n / 16, n / 16, 1), dim(16, 16, 1), args, 4, bz, want,
				n * n * 4, sizes[i], &r))
			printf("matmul %ux%u split into %u subkernels of %u blocks: identical, "
			       "%llu busy cycles\n", n, n, r.subkernels, sizes[i],
			       (unsigned long long)r.busy_cycles);
	}

	/* Bad splits are refused before anything runs. */
	sp = (struct simt_split){ 0 };
	EXPECT(simt_launch_split(k, dim(4, 4, 1), dim(16, 16, 1), 0, args, 4, &sp, &r),
	       SIMT_ERROR_INVALID_VALUE);
	printf("no size and no target: %s\n", simt_last_error());
	EXPECT(simt_launch_split(k, dim(4, 4, 1), dim(16, 16, 1), 0, args, 4, NULL, &r),
	       SIMT_ERROR_INVALID_VALUE);
	sp.subkernel_blocks = 2;
	EXPECT(simt_launch_split(k, dim(4, 0, 1), dim(16, 16, 1), 0, args, 4, &sp, &r),
	       SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_launch_split(k, dim(65536, 65536, 1), dim(16, 16, 1), 0, args, 4, &sp, &r),
	       SIMT_ERROR_INVALID_VALUE);
	printf("2^32 blocks: %s\n", simt_last_error());
	CHECK(r.subkernels == 0, "%u subkernels ran for a refused split", r.subkernels);
	free(x);
	free(y);
	free(want);
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}

/* Every block sees its index in the whole grid, in 1, 2 and 3 dimensions. */
static void test_split_ids(void)
{
	static const struct {
		simt_dim3 g, bl;
		uint32_t s;
	} runs[] = {
		{ { 7, 1, 1 }, { 4, 1, 1 }, 2 },
		{ { 7, 1, 1 }, { 4, 1, 1 }, 1 },
		{ { 5, 3, 1 }, { 2, 3, 1 }, 4 },	/* subkernels end mid row */
		{ { 5, 3, 1 }, { 2, 3, 1 }, 5 },
		{ { 3, 4, 2 }, { 2, 2, 2 }, 5 },	/* ... and mid plane */
		{ { 3, 4, 2 }, { 2, 2, 2 }, 7 },
	};
	struct simt_device_info info;
	struct simt_split_result r;
	simt_device *dev;
	simt_context *ctx;
	simt_module *m = NULL;
	simt_kernel *k;
	simt_buffer *out;
	unsigned int i;

	if (!(ctx = split_context(&dev, &info)))
		return;
	if (!(k = load_kernel(ctx, &m, "ids.elf", "ids")))
		return;
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		simt_dim3 g = runs[i].g, bl = runs[i].bl;
		struct simt_split sp = { .subkernel_blocks = runs[i].s };
		uint32_t blocks = g.x * g.y * g.z, threads = bl.x * bl.y * bl.z;
		uint32_t words = blocks * threads * IDS_WORDS, arg, bad;
		uint32_t *ids = calloc(words, 4);

		MUST(simt_mem_alloc(ctx, words * 4, &out));
		arg = simt_buffer_addr(out);
		MUST(simt_launch_split(k, g, bl, 0, &arg, 1, &sp, &r));
		CHECK(r.subkernels == (blocks + runs[i].s - 1) / runs[i].s,
		      "%u subkernels", r.subkernels);
		MUST(simt_memcpy_dtoh(ids, out, 0, words * 4));
		bad = check_ids(ids, g, bl, info.sm_count);
		CHECK(!bad, "grid %ux%ux%u, S = %u: %u threads with wrong identities",
		      g.x, g.y, g.z, runs[i].s, bad);
		printf("ids: grid %ux%ux%u of %ux%ux%u in %u subkernels of %u blocks: "
		       "%u threads checked\n", g.x, g.y, g.z, bl.x, bl.y, bl.z, r.subkernels,
		       runs[i].s, blocks * threads);
		free(ids);
		simt_mem_free(out);
	}
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}

/* spin's arguments: iterations per thread and blocks of 32 threads */
#define SPIN_ITERS 2000
#define SPIN_THREADS 32

/*
 * S chosen from a target subkernel time: the probe measured, S the most
 * blocks that fit the target at its rate, every later subkernel within
 * the target (with a margin for the rounding of blocks onto SMs) and not
 * far below it, and the result that of the unsplit launch.
 */
static void test_split_auto(void)
{
	struct simt_device_info info;
	struct simt_split_result r;
	struct simt_split sp = { 0 };
	struct simt_result c, w;
	simt_device *dev;
	simt_context *ctx;
	simt_module *m = NULL;
	simt_kernel *k;
	simt_buffer *out;
	uint32_t blocks, probe, args[2], *want, *got;
	uint64_t seq, target, wave;
	size_t bytes;

	if (!(ctx = split_context(&dev, &info)))
		return;
	if (!(k = load_kernel(ctx, &m, "spin.elf", "spin")))
		return;
	probe = info.sm_count * info.sm_blocks;
	blocks = 12 * probe;
	bytes = (size_t)blocks * SPIN_THREADS * 4;
	want = malloc(bytes);
	got = calloc(bytes, 1);
	MUST(simt_mem_alloc(ctx, bytes, &out));
	args[0] = simt_buffer_addr(out);
	args[1] = SPIN_ITERS;
	/* The unsplit launch, and what one wave (the default probe) takes. */
	MUST(simt_launch(k, dim(blocks, 1, 1), dim(SPIN_THREADS, 1, 1), 0, args, 2, &seq));
	MUST(simt_wait(ctx, seq, -1, &c));
	MUST(simt_memcpy_dtoh(want, out, 0, bytes));
	MUST(simt_launch(k, dim(probe, 1, 1), dim(SPIN_THREADS, 1, 1), 0, args, 2, &seq));
	MUST(simt_wait(ctx, seq, -1, &w));
	wave = w.end_cycle - w.start_cycle;
	target = 3 * wave;

	MUST(simt_memcpy_htod(out, 0, got, bytes));
	sp.target_cycles = target;
	MUST(simt_launch_split(k, dim(blocks, 1, 1), dim(SPIN_THREADS, 1, 1), 0, args, 2,
			       &sp, &r));
	printf("spin: %u blocks in %llu cycles unsplit; a wave of %u in %llu; target %llu: "
	       "S = %u, %u subkernels, longest %llu cycles, %llu busy\n", blocks,
	       (unsigned long long)(c.end_cycle - c.start_cycle), probe,
	       (unsigned long long)wave, (unsigned long long)target, r.subkernel_blocks,
	       r.subkernels, (unsigned long long)r.longest_cycles,
	       (unsigned long long)r.busy_cycles);
	CHECK(r.subkernel_blocks >= 2 * probe && r.subkernel_blocks <= 4 * probe,
	      "S = %u for a target of 3 waves of %u blocks", r.subkernel_blocks, probe);
	CHECK(r.longest_cycles <= target + target / 4 && r.longest_cycles >= target / 2,
	      "the longest subkernel took %llu cycles for a target of %llu",
	      (unsigned long long)r.longest_cycles, (unsigned long long)target);
	CHECK(r.subkernels == 1 + (blocks - probe + r.subkernel_blocks - 1) / r.subkernel_blocks,
	      "%u subkernels", r.subkernels);
	MUST(simt_memcpy_dtoh(got, out, 0, bytes));
	CHECK(!memcmp(got, want, bytes), "the output differs from the unsplit launch's");

	/* A target shorter than a block's time still runs, a block at a time. */
	sp.target_cycles = 1;
	sp.probe_blocks = 3;
	MUST(simt_launch_split(k, dim(8, 1, 1), dim(SPIN_THREADS, 1, 1), 0, args, 2, &sp, &r));
	CHECK(r.subkernel_blocks == 1 && r.subkernels == 6,
	      "target 1 cycle, probe 3 of 8 blocks: S = %u, %u subkernels", r.subkernel_blocks,
	      r.subkernels);
	free(want);
	free(got);
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}

/* The long split (or unsplit) launch of the "between" group, in a thread. */
struct split_runner {
	simt_kernel *k;
	simt_dim3 g;
	uint32_t args[2];
	uint32_t s;			/* 0: unsplit */
	struct simt_split_result r;
	simt_status st;
};

static void *split_runner_main(void *arg)
{
	struct split_runner *sr = arg;
	struct simt_split sp = { .subkernel_blocks = sr->s ? sr->s : sr->g.x };

	sr->st = simt_launch_split(sr->k, sr->g, dim(SPIN_THREADS, 1, 1), 0, sr->args, 2, &sp,
				   &sr->r);
	return NULL;
}

/*
 * Start the long launch (@s blocks per subkernel, 0: unsplit) on @ctx_a in
 * a thread; once its second submission (or, unsplit, its first) is on the
 * device, launch @short_k on @ctx_b, of the same priority, and wait for
 * it.  A loaded host may poll too late for the second: then the first
 * later one still in flight, but never the last.  *@b_end gets the short
 * kernel's end cycle, *@a the long launch's.
 */
static int split_race(simt_kernel *long_k, simt_context *ctx_a, uint32_t blocks,
		      uint32_t s, uint32_t a_out, simt_kernel *short_k, simt_context *ctx_b,
		      const uint32_t *b_args, struct simt_result *b, struct simt_split_result *a)
{
	struct split_runner sr = {
		.k = long_k, .g = dim(blocks, 1, 1), .args = { a_out, SPIN_ITERS }, .s = s,
	};
	uint64_t watch, last, seq;
	pthread_t t;
	simt_status st;
	int i;

	/* The next submissions of @ctx_a are the long launch's. */
	st = simt_launch(long_k, dim(1, 1, 1), dim(1, 1, 1), 0, sr.args, 2, &seq);
	if (!st)
		st = simt_wait(ctx_a, seq, -1, NULL);
	if (st) {
		fail(__LINE__, "marker launch: %s", simt_error_string(st));
		return -1;
	}
	watch = seq + (s ? 2 : 1);
	last = seq + (s ? (blocks + s - 1) / s : 1);
	if (pthread_create(&t, NULL, split_runner_main, &sr)) {
		fail(__LINE__, "pthread_create");
		return -1;
	}
	/* Submission @watch handed out and not finished: it is queued or running. */
	for (i = 0; i < 100000; i++) {
		st = simt_wait(ctx_a, watch, 0, NULL);
		if (st == SIMT_SUCCESS && watch + 1 < last) {
			watch++;
			continue;
		}
		if (st == SIMT_ERROR_TIMEOUT || st == SIMT_SUCCESS)
			break;
		usleep(100);
	}
	CHECK(st == SIMT_ERROR_TIMEOUT, "submission %llu of the long launch: %s when the "
	      "short one was to start", (unsigned long long)watch, simt_error_string(st));
	/* Let the driver hand it to the device (its ring, then the doorbell). */
	usleep(20000);
	st = simt_launch(short_k, dim(1, 1, 1), dim(SPIN_THREADS, 1, 1), 0, b_args, 2, &seq);
	if (!st)
		st = simt_wait(ctx_b, seq, -1, b);
	CHECK(!st, "the short launch: %s", simt_error_string(st));
	pthread_join(t, NULL);
	CHECK(!sr.st, "the long launch: %s", simt_error_string(sr.st));
	*a = sr.r;
	return st || sr.st ? -1 : 0;
}

/*
 * A launch of another context of the same priority that arrives while a
 * split kernel runs gets the device at the next subkernel boundary, with
 * preemption mode none: it finishes long before the split kernel does.
 * Unsplit, it waits for the long kernel's last blocks to be dispatched
 * and finishes after it.
 */
static void test_split_between(void)
{
	struct simt_device_info info;
	struct simt_split_result a;
	struct simt_result b;
	simt_device *dev;
	simt_context *ctx_a, *ctx_b = NULL;
	simt_module *ma = NULL, *mb = NULL;
	simt_kernel *ka, *kb;
	simt_buffer *out_a, *out_b;
	uint32_t wave, blocks, b_args[2];

	if (!(ctx_a = split_context(&dev, &info)))
		return;
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, SIMT_PREEMPT_NONE, &ctx_b));
	if (!(ka = load_kernel(ctx_a, &ma, "spin.elf", "spin")) ||
	    !(kb = load_kernel(ctx_b, &mb, "spin.elf", "spin")))
		return;
	wave = info.sm_count * info.sm_blocks;
	blocks = 16 * wave;
	MUST(simt_mem_alloc(ctx_a, (size_t)blocks * SPIN_THREADS * 4, &out_a));
	MUST(simt_mem_alloc(ctx_b, SPIN_THREADS * 4, &out_b));
	b_args[0] = simt_buffer_addr(out_b);
	b_args[1] = 4 * SPIN_ITERS;	/* longer than a block of the long kernel */

	if (!split_race(ka, ctx_a, blocks, wave, simt_buffer_addr(out_a), kb, ctx_b, b_args,
			&b, &a)) {
		printf("split into %u subkernels of %u blocks: cycles %llu..%llu; the other "
		       "context's launch ran %llu..%llu\n", a.subkernels, wave,
		       (unsigned long long)a.result.start_cycle,
		       (unsigned long long)a.result.end_cycle,
		       (unsigned long long)b.start_cycle, (unsigned long long)b.end_cycle);
		CHECK(b.end_cycle < a.result.end_cycle,
		      "the other context's launch ended at cycle %llu, after the split kernel (%llu)",
		      (unsigned long long)b.end_cycle, (unsigned long long)a.result.end_cycle);
	}
	if (!split_race(ka, ctx_a, blocks, 0, simt_buffer_addr(out_a), kb, ctx_b, b_args,
			&b, &a)) {
		printf("unsplit: cycles %llu..%llu; the other context's launch ran %llu..%llu\n",
		       (unsigned long long)a.result.start_cycle,
		       (unsigned long long)a.result.end_cycle,
		       (unsigned long long)b.start_cycle, (unsigned long long)b.end_cycle);
		CHECK(b.end_cycle > a.result.end_cycle,
		      "unsplit, the other context's launch ended at cycle %llu, before the long kernel (%llu)",
		      (unsigned long long)b.end_cycle, (unsigned long long)a.result.end_cycle);
	}
	EXPECT(simt_context_destroy(ctx_b), SIMT_SUCCESS);
	EXPECT(simt_context_destroy(ctx_a), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}

/* ---- oversubscription: VRAM objects beyond the VRAM (issue 13) ---- */

/*
 * What the driver says in fdinfo about this process's file of the device
 * @node: moves of its VRAM objects out of VRAM and back (simt-evictions,
 * simt-restores), the bytes of them in system memory now
 * (simt-evicted-vram) and in VRAM (drm-resident-vram), and their total
 * (drm-total-vram).  -1 for a key the driver does not print.
 */
struct vram_usage {
	long long evictions, restores, evicted, resident, total;
};

/* "123", "123 KiB", "4 MiB": bytes; -1 if it is none of them. */
static long long size_value(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s)
		return -1;
	while (*end == ' ')
		end++;
	if (!strncmp(end, "KiB", 3))
		return v << 10;
	if (!strncmp(end, "MiB", 3))
		return v << 20;
	if (!strncmp(end, "GiB", 3))
		return v << 30;
	return *end && *end != '\n' ? -1 : v;
}

/* 0 if the file of this process open on @node was found and read. */
static int vram_usage(const char *node, struct vram_usage *u)
{
	char path[300], line[256];
	struct stat want, st;
	struct dirent *de;
	FILE *f = NULL;
	DIR *d;

	*u = (struct vram_usage){ -1, -1, -1, -1, -1 };
	if (stat(node, &want) || !(d = opendir("/proc/self/fd")))
		return -1;
	while (!f && (de = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		if (de->d_name[0] == '.' || stat(path, &st) || !S_ISCHR(st.st_mode) ||
		    st.st_rdev != want.st_rdev)
			continue;
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%s", de->d_name);
		f = fopen(path, "r");
	}
	closedir(d);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (!v)
			continue;
		*v++ = 0;
		v += strspn(v, " \t");
		if (!strcmp(line, "simt-evictions"))
			u->evictions = strtoll(v, NULL, 10);
		else if (!strcmp(line, "simt-restores"))
			u->restores = strtoll(v, NULL, 10);
		else if (!strcmp(line, "simt-evicted-vram"))
			u->evicted = size_value(v);
		else if (!strcmp(line, "drm-resident-vram"))
			u->resident = size_value(v);
		else if (!strcmp(line, "drm-total-vram"))
			u->total = size_value(v);
	}
	fclose(f);
	return 0;
}

/*
 * Check what fdinfo says about VRAM objects of which @allocated bytes were
 * asked for on a device of @vram bytes: every key there; what is in VRAM
 * fits the VRAM, the rest of at least @allocated bytes is in system
 * memory, and the two make the total.  0 if it all holds.
 */
static int check_vram_usage(const char *what, const char *dev_node, uint64_t vram,
			    uint64_t allocated, struct vram_usage *u)
{
	int bad = failures;

	if (vram_usage(dev_node, u)) {
		fail(__LINE__, "%s: no fdinfo for %s", what, dev_node);
		return -1;
	}
	printf("%s: fdinfo: %lld evictions, %lld restores, VRAM objects %lld bytes: "
	       "%lld resident, %lld evicted\n", what, u->evictions, u->restores, u->total,
	       u->resident, u->evicted);
	CHECK(u->evictions >= 0 && u->restores >= 0 && u->evicted >= 0 && u->resident >= 0 &&
	      u->total >= 0, "%s: fdinfo lacks simt-evictions, simt-restores, "
	      "simt-evicted-vram, drm-resident-vram or drm-total-vram", what);
	CHECK(u->total >= (long long)allocated, "%s: drm-total-vram %lld, below the %llu "
	      "bytes allocated", what, u->total, (unsigned long long)allocated);
	CHECK(u->resident <= (long long)vram, "%s: %lld bytes resident in %llu of VRAM",
	      what, u->resident, (unsigned long long)vram);
	CHECK(u->resident + u->evicted == u->total, "%s: resident %lld + evicted %lld is not "
	      "the total %lld", what, u->resident, u->evicted, u->total);
	CHECK(u->total - u->resident >= (long long)allocated - (long long)vram,
	      "%s: %lld bytes outside the VRAM, at least %lld must be", what,
	      u->total - u->resident, (long long)allocated - (long long)vram);
	return failures != bad ? -1 : 0;
}

#define OSUB_TENANTS 3		/* processes, each with ~60 % of the VRAM */
#define OSUB_TURNS 2		/* rounds of each, one process at a time */
#define OSUB_FREE 4		/* rounds of each, all at once, idle gaps between */
#define OSUB_SAMPLE 1024	/* words of y checked after every round, 3 times */

/* One process's part: two objects, x and y, each 3/10 of the VRAM. */
struct tenant {
	unsigned int index;
	simt_device *dev;
	struct simt_device_info info;
	simt_context *ctx;
	simt_kernel *saxpy;
	simt_buffer *x, *y;
	uint32_t n;			/* floats per object */
	float *hy;			/* y as it must be now */
	unsigned int rounds;
};

/*
 * Per-process patterns of small integers: y = 0.5 x + y stays exact in
 * floats (below 2^23), so every result is known bit for bit, and one
 * process's data is never another's.
 */
static float tenant_x(const struct tenant *t, uint32_t i)
{
	return (float)((i * 7u + t->index * 131u) % 1021u);
}

static float tenant_y0(const struct tenant *t, uint32_t i)
{
	return (float)((i * 13u + t->index * 977u) % 4093u + t->index * 8192u);
}

/* @n words of y from word @at, copied back, against what they must be. */
static int tenant_check_y(struct tenant *t, uint32_t at, uint32_t n, const char *when)
{
	float *got = malloc((size_t)n * 4);
	int bad = -1;

	if (got && !simt_memcpy_dtoh(got, t->y, (size_t)at * 4, (size_t)n * 4)) {
		bad = memcmp(got, t->hy + at, (size_t)n * 4) != 0;
		if (bad) {
			uint32_t i;

			for (i = 0; got[i] == t->hy[at + i]; i++)
				;
			fail(__LINE__, "process %u %s: y[%u] = %g, expected %g", t->index, when,
			     at + i, got[i], t->hy[at + i]);
		}
	} else {
		fail(__LINE__, "process %u %s: copy of y back", t->index, when);
	}
	free(got);
	return bad;
}

/* One round: y = 0.5 x + y over both objects, then samples of y checked. */
static int tenant_round(struct tenant *t)
{
	uint32_t args[4] = { t->n, fbits(0.5f), simt_buffer_addr(t->x), simt_buffer_addr(t->y) };
	uint32_t i, s = t->n < OSUB_SAMPLE ? t->n : OSUB_SAMPLE;
	char when[32];

	if (run(t->saxpy, dim(64, 1, 1), dim(256, 1, 1), 0, args, 4) || finish(t->ctx))
		return -1;
	for (i = 0; i < t->n; i++)
		t->hy[i] += 0.5f * tenant_x(t, i);
	t->rounds++;
	snprintf(when, sizeof(when), "after round %u", t->rounds);
	return tenant_check_y(t, 0, s, when) || tenant_check_y(t, t->n / 2 - s / 2, s, when) ||
	       tenant_check_y(t, t->n - s, s, when);
}

/* Its context and saxpy, before any process allocates. */
static int tenant_open(struct tenant *t)
{
	simt_module *m;

	if (simt_device_open(node, &t->dev) || simt_device_get_info(t->dev, &t->info) ||
	    simt_context_create(t->dev, SIMT_PRIORITY_NORMAL, 0, &t->ctx) ||
	    simt_module_load(t->ctx, KERNEL_DIR "/saxpy.elf", &m) ||
	    simt_module_get_kernel(m, "saxpy", &t->saxpy)) {
		fail(__LINE__, "process %u: device, context or saxpy", t->index);
		return -1;
	}
	return 0;
}

/*
 * Its objects: x filled by a copy, y through its mapping, each 3/10 of
 * the VRAM, so that no two processes' objects fit in it together.
 */
static int tenant_alloc(struct tenant *t)
{
	uint64_t bytes = t->info.vram_size * 3 / 10 & ~(uint64_t)4095;
	simt_status st;
	float *hx;
	void *map;
	uint32_t i;

	t->n = bytes / 4;
	hx = malloc(bytes);
	t->hy = malloc(bytes);
	if (!hx || !t->hy) {
		fail(__LINE__, "process %u: no host memory", t->index);
		free(hx);
		return -1;
	}
	for (i = 0; i < t->n; i++) {
		hx[i] = tenant_x(t, i);
		t->hy[i] = tenant_y0(t, i);
	}
	if ((st = simt_mem_alloc(t->ctx, bytes, &t->x)) ||
	    (st = simt_mem_alloc(t->ctx, bytes, &t->y))) {
		fail(__LINE__, "process %u: %llu bytes of VRAM (%llu of %llu allocated by "
		     "earlier processes): %s", t->index, (unsigned long long)bytes,
		     (unsigned long long)bytes * 2 * t->index,
		     (unsigned long long)t->info.vram_size, simt_error_string(st));
		return -1;
	}
	st = simt_memcpy_htod(t->x, 0, hx, bytes);
	free(hx);
	if (st || (st = simt_buffer_map(t->y, &map))) {
		fail(__LINE__, "process %u: filling x and y: %s", t->index,
		     simt_error_string(st));
		return -1;
	}
	memcpy(map, t->hy, bytes);
	return 0;
}

/* At the end: y copied back, x and y read through their mappings. */
static int tenant_final(struct tenant *t)
{
	const float *mx;
	void *p, *my;
	uint32_t i;

	if (tenant_check_y(t, 0, t->n, "at the end"))
		return -1;
	if (simt_buffer_map(t->x, &p) || simt_buffer_map(t->y, &my)) {
		fail(__LINE__, "process %u: mapping", t->index);
		return -1;
	}
	mx = p;
	for (i = 0; i < t->n && mx[i] == tenant_x(t, i); i++)
		;
	CHECK(i == t->n, "process %u: x[%u] through its mapping is %g, %g was copied in",
	      t->index, i, i < t->n ? mx[i] : 0, i < t->n ? tenant_x(t, i) : 0);
	CHECK(!memcmp(my, t->hy, (size_t)t->n * 4), "process %u: y through its mapping "
	      "differs from what the kernels wrote", t->index);
	return 0;
}

/* What a tenant process tells the parent when it is done. */
struct tenant_report {
	int failures;
	unsigned int rounds;
	long long evictions, restores;
};

/*
 * A tenant process: waits for a command on @cmd, does it, answers on
 * @ack (one byte, 0 if it went well; the report after 'E').  Commands:
 * 'O' open, 'A' allocate and fill, 'T' one round, 'F' OSUB_FREE rounds
 * with idle gaps, 'E' the final check, the report and exit.
 */
static void tenant_main(unsigned int index, int cmd, int ack)
{
	struct tenant t = { .index = index };
	struct tenant_report rep;
	struct vram_usage u;
	char c, failed;
	unsigned int r;

	while (read(cmd, &c, 1) == 1) {
		int bad = failures;

		switch (c) {
		case 'O':
			tenant_open(&t);
			break;
		case 'A':
			if (t.ctx)
				tenant_alloc(&t);
			break;
		case 'T':
			if (t.y)
				tenant_round(&t);
			break;
		case 'F':
			for (r = 0; t.y && r < OSUB_FREE; r++) {
				/* idle between rounds: 5..35 ms, different in each process */
				usleep(5000 + (index * 7919 + r * 104729) % 30000);
				if (tenant_round(&t))
					break;
			}
			break;
		case 'E':
			if (t.y)
				tenant_final(&t);
			if (!t.dev || vram_usage(t.info.node, &u))
				u = (struct vram_usage){ -1, -1, -1, -1, -1 };
			printf("process %u: %u rounds; fdinfo: %lld evictions, %lld restores, "
			       "%lld bytes of VRAM objects evicted now\n", index, t.rounds,
			       u.evictions, u.restores, u.evicted);
			rep = (struct tenant_report){ failures, t.rounds, u.evictions, u.restores };
			if (write(ack, &rep, sizeof(rep)) != sizeof(rep))
				failures++;
			if (t.ctx)
				simt_context_destroy(t.ctx);
			if (t.dev)
				simt_device_close(t.dev);
			exit(failures ? 1 : 0);
		}
		failed = failures != bad;
		if (write(ack, &failed, 1) != 1)
			break;
	}
	exit(1);
}

/* Send @c to tenant @i and wait for its answer; 0 if it went well. */
static int tenant_do(int *cmd, int *ack, unsigned int i, char c)
{
	char failed = 1;

	if (write(cmd[i], &c, 1) != 1 || read(ack[i], &failed, 1) != 1) {
		fail(__LINE__, "process %u gone at command '%c'", i, c);
		return -1;
	}
	return failed ? -1 : 0;
}

/*
 * OSUB_TENANTS processes each allocate 60 % of the VRAM and run rounds of
 * saxpy over it: first one process at a time (the others idle, so their
 * objects can be evicted to make room, and are restored at their next
 * turn), then all at once with idle gaps.  Every result is checked bit
 * for bit; each process's objects must have left the VRAM and come back
 * at least once (its fdinfo counters).
 */
static void test_oversub_tenants(void)
{
	int cmd[OSUB_TENANTS], ack[OSUB_TENANTS];
	struct tenant_report rep[OSUB_TENANTS];
	struct simt_device_info info;
	pid_t pid[OSUB_TENANTS];
	simt_device *dev;
	unsigned int i, turn, done;
	const char *steps = "OA";
	int status;

	/* Only the VRAM size here: libsimt is not carried across fork(). */
	MUST(simt_device_open(node, &dev));
	MUST(simt_device_get_info(dev, &info));
	MUST(simt_device_close(dev));
	printf("%u processes, each with 2 objects of %llu bytes, on %llu bytes of VRAM\n",
	       OSUB_TENANTS, (unsigned long long)(info.vram_size * 3 / 10 & ~(uint64_t)4095),
	       (unsigned long long)info.vram_size);
	for (i = 0; i < OSUB_TENANTS; i++) {
		int c[2], a[2];

		if (pipe(c) || pipe(a)) {
			fail(__LINE__, "pipe: %s", strerror(errno));
			return;
		}
		pid[i] = fork();
		if (pid[i] < 0) {
			fail(__LINE__, "fork: %s", strerror(errno));
			return;
		}
		if (!pid[i]) {
			unsigned int k;

			for (k = 0; k < i; k++) {
				close(cmd[k]);
				close(ack[k]);
			}
			close(c[1]);
			close(a[0]);
			tenant_main(i, c[0], a[1]);
		}
		close(c[0]);
		close(a[1]);
		cmd[i] = c[1];
		ack[i] = a[0];
	}
	/* Every context first, then the objects, one process after the other. */
	for (; *steps; steps++)
		for (i = 0; i < OSUB_TENANTS; i++)
			CHECK(!tenant_do(cmd, ack, i, *steps), "process %u: step '%c'", i, *steps);
	for (turn = 0; turn < OSUB_TURNS; turn++)
		for (i = 0; i < OSUB_TENANTS; i++)
			CHECK(!tenant_do(cmd, ack, i, 'T'), "process %u: turn %u", i, turn);
	printf("%u turns of each process one at a time: done\n", OSUB_TURNS);
	for (i = 0; i < OSUB_TENANTS; i++)
		CHECK(write(cmd[i], "F", 1) == 1, "process %u gone", i);
	for (i = 0; i < OSUB_TENANTS; i++) {
		char failed = 1;

		CHECK(read(ack[i], &failed, 1) == 1 && !failed, "process %u: rounds at once", i);
	}
	printf("%u rounds of all processes at once: done\n", OSUB_FREE);
	for (i = done = 0; i < OSUB_TENANTS; i++) {
		memset(&rep[i], 0, sizeof(rep[i]));
		if (write(cmd[i], "E", 1) != 1 ||
		    read(ack[i], &rep[i], sizeof(rep[i])) != sizeof(rep[i])) {
			fail(__LINE__, "process %u: no report", i);
			continue;
		}
		close(cmd[i]);
		close(ack[i]);
		CHECK(!rep[i].failures, "process %u: %d failed checks", i, rep[i].failures);
		CHECK(rep[i].rounds == OSUB_TURNS + OSUB_FREE, "process %u: %u rounds of %u", i,
		      rep[i].rounds, OSUB_TURNS + OSUB_FREE);
		CHECK(rep[i].evictions >= 1 && rep[i].restores >= 1, "process %u: fdinfo "
		      "says %lld evictions and %lld restores of its objects, expected at least "
		      "one of each", i, rep[i].evictions, rep[i].restores);
		done++;
	}
	for (i = 0; i < OSUB_TENANTS; i++) {
		CHECK(waitpid(pid[i], &status, 0) == pid[i] && WIFEXITED(status) &&
		      !WEXITSTATUS(status), "process %u ended with status 0x%x", i, status);
	}
	if (!failures)
		printf("%u processes checked every round's results bit for bit; their objects "
		       "were evicted and restored\n", done);
}

/*
 * One process, two objects of 3/4 of the VRAM each: both are created;
 * what is written through one's mapping survives a kernel that used the
 * other (and so had to have it in VRAM or reach it in system memory), and
 * the kernels' results are right.  With "hold" after the node it then
 * stays with its objects until its standard input closes (for simt-smi).
 */
static void test_oversub_single(void)
{
	struct simt_device_info info;
	struct vram_usage u;
	simt_device *dev;
	simt_context *ctx;
	simt_module *m;
	simt_kernel *saxpy;
	simt_buffer *b[2];
	uint32_t *map[2], *want[2], n, i, j;
	uint64_t bytes;
	void *p;

	MUST(simt_device_open(node, &dev));
	MUST(simt_device_get_info(dev, &info));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	MUST(simt_module_load(ctx, KERNEL_DIR "/saxpy.elf", &m));
	MUST(simt_module_get_kernel(m, "saxpy", &saxpy));
	bytes = info.vram_size * 3 / 4;
	n = bytes / 4;
	MUST(simt_mem_alloc(ctx, bytes, &b[0]));
	MUST(simt_mem_alloc(ctx, bytes, &b[1]));
	printf("two objects of 3/4 of %llu bytes of VRAM allocated, at 0x%x and 0x%x\n",
	       (unsigned long long)info.vram_size, simt_buffer_addr(b[0]),
	       simt_buffer_addr(b[1]));
	check_vram_usage("both allocated", info.node, info.vram_size, 2 * bytes, &u);
	for (j = 0; j < 2; j++) {
		MUST(simt_buffer_map(b[j], &p));
		map[j] = p;
		want[j] = malloc(bytes);
		if (!want[j]) {
			fail(__LINE__, "no host memory");
			return;
		}
		/* small integers as floats: doubling them stays exact */
		for (i = 0; i < n; i++)
			want[j][i] = fbits((float)((i * 5u + j * 1000u) % 65521u));
		memcpy(map[j], want[j], bytes);
	}
	/* Each in turn doubled by saxpy (y = 1 y + y); the other untouched. */
	for (j = 0; j < 2; j++) {
		uint32_t o = 1 - j;
		uint32_t args[4] = { n, fbits(1.0f), simt_buffer_addr(b[j]),
				     simt_buffer_addr(b[j]) };

		if (run(saxpy, dim(64, 1, 1), dim(256, 1, 1), 0, args, 4) || finish(ctx))
			break;
		for (i = 0; i < n; i++) {
			float f;

			memcpy(&f, &want[j][i], 4);
			want[j][i] = fbits(2.0f * f);
		}
		CHECK(!memcmp(map[o], want[o], bytes), "object %u through its mapping after a "
		      "kernel used object %u: its contents changed", o, j);
		CHECK(!memcmp(map[j], want[j], bytes), "object %u through its mapping: not what "
		      "the kernel wrote", j);
	}
	/* Written through the mapping again: a kernel and a copy see it. */
	for (i = 0; i < n; i += 1024)
		map[0][i] = want[0][i] = fbits((float)(i % 4099u));
	{
		uint32_t args[4] = { n, fbits(1.0f), simt_buffer_addr(b[0]),
				     simt_buffer_addr(b[0]) };
		uint32_t *got = malloc(bytes);

		if (got && !run(saxpy, dim(64, 1, 1), dim(256, 1, 1), 0, args, 4) &&
		    !finish(ctx) && !simt_memcpy_dtoh(got, b[0], 0, bytes)) {
			for (i = 0; i < n; i++) {
				float f;

				memcpy(&f, &want[0][i], 4);
				want[0][i] = fbits(2.0f * f);
			}
			CHECK(!memcmp(got, want[0], bytes), "object 0 copied back after a "
			      "second kernel: not what it wrote");
			EXPECT(simt_memcpy_dtoh(got, b[1], 0, bytes), SIMT_SUCCESS);
			CHECK(!memcmp(got, want[1], bytes), "object 1 copied back: changed");
		}
		free(got);
	}
	check_vram_usage("after the kernels", info.node, info.vram_size, 2 * bytes, &u);
	printf("two objects of %llu bytes each kept their contents through kernels on the "
	       "other\n", (unsigned long long)bytes);
	if (hold) {
		char c;

		printf("holding\n");
		while (read(0, &c, 1) > 0)
			;
	}
	free(want[0]);
	free(want[1]);
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}

static const struct {
	const char *name;
	void (*fn)(void);
} groups[] = {
	{ "device", test_device },
	{ "context", test_context },
	{ "memory", test_memory },
	{ "module", test_module },
	{ "launch", test_launch },
	{ "errors", test_errors },
	{ "samples", test_samples },
	{ "threads", test_threads },
	{ "timeout", test_timeout },
	{ "too-large", test_too_large },
	{ "metadata", test_metadata },
	{ "multi-device", test_multi_device },
	{ "split-results", test_split_results },
	{ "split-ids", test_split_ids },
	{ "split-auto", test_split_auto },
	{ "split-between", test_split_between },
	{ "oversub-tenants", test_oversub_tenants },
	{ "oversub-single", test_oversub_single },
};

int main(int argc, char **argv)
{
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: simt-lib-test GROUP [NODE]\n");
		return 2;
	}
	if (argc > 2)
		node = argv[2];
	hold = argc > 3 && !strcmp(argv[3], "hold");
	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		if (strcmp(argv[1], groups[i].name) == 0) {
			printf("%s as uid %u\n", argv[1], (unsigned)geteuid());
			groups[i].fn();
			printf("%s: %d failed checks\n", argv[1], failures);
			return failures ? 1 : 0;
		}
	}
	fprintf(stderr, "simt-lib-test: unknown group '%s'\n", argv[1]);
	return 2;
}
