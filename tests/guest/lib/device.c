// SPDX-License-Identifier: MIT
/*
 * device.c: simt-lib-test's groups on devices and contexts: device
 * (open, info, parameters), context (priorities, preemption modes,
 * limits) and multi-device (every device, the least-loaded choice).
 */
#include "lib-test.h"

/* ---- device: open, info, parameters, close ---- */
void test_device(void)
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
	/* The checkers and block orders are the host runner's. */
	EXPECT(simt_context_set_checks(ctx, 0), SIMT_SUCCESS);
	EXPECT(simt_context_set_checks(ctx, SIMT_CHECK_MEMCHECK), SIMT_ERROR_NOT_SUPPORTED);
	EXPECT(simt_context_set_schedule(ctx, SIMT_SCHEDULE_RANDOM, 1), SIMT_ERROR_NOT_SUPPORTED);
	CHECK(simt_context_check_findings(ctx) == 0, "findings on the device");
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
	EXPECT(simt_device_close(NULL), SIMT_ERROR_INVALID_VALUE);

	/* Every status has its own description (the last one appended last). */
	CHECK(SIMT_ERROR_SYSTEM == 15 && SIMT_ERROR_CANCELED == 16 && SIMT_ERROR_TOO_LARGE == 17 &&
	      SIMT_ERROR_NOT_SUPPORTED == 18, "the status values moved");
	for (s = SIMT_SUCCESS; s <= SIMT_ERROR_NOT_SUPPORTED; s++) {
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

void test_context(void)
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
	 * Since 0.9 a user holds USER_CONTEXTS at most, in all his opens:
	 * then that is the limit the refusal names.
	 */
	n = user_contexts(dev, &info, info.max_contexts < 64 ? info.max_contexts : 64);
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
	if (n == info.max_contexts || n < 64) {
		const char *limit = n == info.max_contexts ? "contexts are in use" :
				    "in all his processes";
		simt_context *extra;
		simt_device *more;

		MUST(simt_device_open(node, &more));
		EXPECT(simt_context_create(more, 1, 0, &extra), SIMT_ERROR_OUT_OF_RESOURCES);
		CHECK(strstr(simt_last_error(), limit) != NULL,
		      "the refusal does not name the %s limit: %s",
		      n == info.max_contexts ? "device's" : "user's", simt_last_error());
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

void test_multi_device(void)
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
		FAIL("SIMTGUEST_DEVICES=%s: not 1..8", env);
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
