// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libsimt's host backend (tools/simt-run/simt-interp.c) on the calls
 * simt-run does not make: freeing and reusing memory, mapping, copies
 * between buffers, synchronising, device information and parameters,
 * modules from memory and unloading, split launches.  Prints TAP.
 *
 * usage: test-interp-api KERNEL-DIR   (holding vecadd.elf and matmul.elf)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm/simt_accel.h>

#include "libsimt.h"

static int test_no, failures;
static char path[4096];

static void ok(int cond, const char *name)
{
	printf("%s %d - %s\n", cond ? "ok" : "not ok", ++test_no, name);
	if (!cond) {
		printf("# last error: %s\n", simt_last_error());
		failures++;
	}
}

static const char *image(const char *dir, const char *name)
{
	snprintf(path, sizeof(path), "%s/%s.elf", dir, name);
	return path;
}

/* c = a + b on @n floats of @a and @b's buffers; 0 if launched and right. */
static int vecadd(simt_context *ctx, simt_kernel *k, simt_buffer *a, simt_buffer *b,
		  simt_buffer *c, uint32_t n)
{
	uint32_t args[4] = { simt_buffer_addr(a), simt_buffer_addr(b), simt_buffer_addr(c), n };
	uint64_t seq;

	return simt_launch(k, (simt_dim3){ (n + 63) / 64, 1, 1 }, (simt_dim3){ 64, 1, 1 }, 0,
			   args, 4, &seq) || simt_wait(ctx, seq, -1, NULL);
}

int main(int argc, char **argv)
{
	struct simt_device_info info;
	struct simt_split split = { .subkernel_blocks = 3 };
	struct simt_split_result sr;
	simt_device *dev;
	simt_context *ctx;
	simt_module *mod, *mod2;
	simt_kernel *k;
	simt_buffer *a, *b, *c, *d;
	float *pa, *pb, host[256];
	uint64_t v, c0;
	uint32_t addr_b, args[4], i;
	FILE *f;
	char *bytes;
	long len;
	int right;

	if (argc != 2) {
		fprintf(stderr, "usage: test-interp-api KERNEL-DIR\n");
		return 2;
	}
	if (simt_device_open(NULL, &dev) ||
	    simt_context_create(dev, SIMT_PRIORITY_NORMAL, SIMT_PREEMPT_DEFAULT, &ctx) ||
	    simt_module_load(ctx, image(argv[1], "vecadd"), &mod) ||
	    simt_module_get_kernel(mod, "vecadd", &k)) {
		printf("Bail out! %s\n", simt_last_error());
		return 1;
	}

	ok(!simt_device_get_info(dev, &info) && info.sm_count > 0 && info.sm_blocks > 0 &&
	   !strcmp(info.driver_name, "simt-interp") && info.fixed_va_end > 0,
	   "simt_device_get_info: the host runner's machine, SMs and limits");
	ok(!simt_device_get_param(dev, DRM_SIMT_PARAM_CLOCK_MHZ, &v) && v > 0 &&
	   simt_device_get_param(dev, 1000, &v) == SIMT_ERROR_INVALID_VALUE,
	   "simt_device_get_param: the clock, and an unknown parameter refused");

	/* Mapped buffers are the memory kernels see, both ways. */
	simt_mem_alloc(ctx, 256 * 4, &a);
	simt_mem_alloc(ctx, 256 * 4, &b);
	simt_mem_alloc(ctx, 256 * 4, &c);
	simt_buffer_map(a, (void **)&pa);
	simt_buffer_map(b, (void **)&pb);
	for (i = 0; i < 256; i++) {
		pa[i] = i;
		pb[i] = 2.0f * i;
	}
	simt_device_get_param(dev, DRM_SIMT_PARAM_CYCLE, &c0);
	right = !vecadd(ctx, k, a, b, c, 256) && !simt_memcpy_dtoh(host, c, 0, sizeof(host));
	for (i = 0; right && i < 256; i++)
		right = host[i] == 3.0f * i;
	ok(right, "simt_buffer_map: host writes reach the kernel, results right");
	ok(!simt_device_get_param(dev, DRM_SIMT_PARAM_CYCLE, &v) && v > c0,
	   "the cycle counter advances by the launch's cycles");

	/* dtod, then synchronize runs queued work. */
	right = !simt_memcpy_dtod(a, 0, c, 0, 256 * 4);
	for (i = 0; right && i < 256; i++)
		right = pa[i] == 3.0f * i;
	ok(right && simt_memcpy_dtod(a, simt_buffer_size(a), c, 0, 4) == SIMT_ERROR_INVALID_VALUE,
	   "simt_memcpy_dtod copies, and refuses a range past the buffer");
	args[0] = simt_buffer_addr(a);
	args[1] = simt_buffer_addr(b);
	args[2] = simt_buffer_addr(c);
	args[3] = 256;
	memset(host, 0, sizeof(host));
	simt_memcpy_htod(c, 0, host, sizeof(host));
	right = !simt_launch(k, (simt_dim3){ 4, 1, 1 }, (simt_dim3){ 64, 1, 1 }, 0, args, 4, NULL) &&
		!simt_context_synchronize(ctx) && !simt_memcpy_dtoh(host, c, 0, sizeof(host));
	for (i = 0; right && i < 256; i++)
		right = host[i] == 5.0f * i;
	ok(right, "simt_context_synchronize runs the queued launch");

	/* A copy comes after the launches queued before it, as on the device. */
	memset(host, 0, sizeof(host));
	simt_memcpy_htod(c, 0, host, sizeof(host));
	right = !simt_launch(k, (simt_dim3){ 4, 1, 1 }, (simt_dim3){ 64, 1, 1 }, 0, args, 4, NULL) &&
		!simt_memcpy_dtoh(host, c, 0, sizeof(host));
	for (i = 0; right && i < 256; i++)
		right = host[i] == 5.0f * i;
	ok(right, "simt_memcpy_dtoh after an unwaited launch reads its results");
	{
		struct simt_result r;
		uint64_t seq;

		right = !simt_launch(k, (simt_dim3){ 4, 1, 1 }, (simt_dim3){ 64, 1, 1 }, 0, args, 4,
				     &seq) && !simt_query(ctx, seq, &r) && r.end_cycle > r.start_cycle;
		ok(right, "simt_query runs a queued launch and gives its cycles");
	}

	/* A freed buffer's range serves the next allocation. */
	addr_b = simt_buffer_addr(b);
	ok(!simt_mem_free(b) && !simt_mem_alloc(ctx, 512, &d) && simt_buffer_addr(d) == addr_b,
	   "simt_mem_free: the freed range is reused (first fit)");

	/* Split: the same results, subkernels of 3 blocks. */
	memset(host, 0, sizeof(host));
	simt_memcpy_htod(c, 0, host, sizeof(host));
	args[1] = simt_buffer_addr(a);
	right = !simt_launch_split(k, (simt_dim3){ 4, 1, 1 }, (simt_dim3){ 64, 1, 1 }, 0, args, 4,
				   &split, &sr) && sr.subkernels == 2 &&
		!simt_memcpy_dtoh(host, c, 0, sizeof(host));
	for (i = 0; right && i < 256; i++)
		right = host[i] == 6.0f * i;
	ok(right, "simt_launch_split: 4 blocks as subkernels of 3 and 1, every result right");

	/* A module from memory cannot overlap the loaded one; unload frees its range. */
	f = fopen(image(argv[1], "matmul"), "rb");
	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) ||
	    !(bytes = malloc(len)) || fread(bytes, 1, len, f) != (size_t)len) {
		printf("Bail out! reading matmul.elf\n");
		return 1;
	}
	fclose(f);
	ok(simt_module_load_data(ctx, bytes, len, "matmul", &mod2) == SIMT_ERROR_ADDRESS_IN_USE,
	   "simt_module_load_data: an image over a loaded one is refused");
	ok(!simt_module_unload(mod) && !simt_module_load_data(ctx, bytes, len, "matmul", &mod2) &&
	   !simt_module_get_kernel(mod2, "matmul", &k),
	   "simt_module_unload frees its range; the image loads from memory");
	free(bytes);

	ok(!simt_context_destroy(ctx), "destroy");

	/*
	 * The checkers from a program, on a context of their own: a launch
	 * reading one float past a's 1 KiB (as asked for) is one memcheck
	 * finding and a fault; a random block order gives the same results.
	 */
	if (simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx) ||
	    simt_module_load(ctx, image(argv[1], "vecadd"), &mod) ||
	    simt_module_get_kernel(mod, "vecadd", &k) || simt_mem_alloc(ctx, 1024, &a) ||
	    simt_mem_alloc(ctx, 1028, &c) || simt_buffer_map(a, (void **)&pa)) {
		printf("Bail out! %s\n", simt_last_error());
		return 1;
	}
	for (i = 0; i < 256; i++)
		pa[i] = (float)i;
	ok(simt_context_set_checks(ctx, 8) == SIMT_ERROR_INVALID_VALUE &&
	   simt_context_set_schedule(ctx, 2, 0) == SIMT_ERROR_INVALID_VALUE &&
	   simt_context_check_findings(ctx) == 0,
	   "simt_context_set_checks and _set_schedule refuse unknown values");
	right = !simt_context_set_checks(ctx, SIMT_CHECK_MEMCHECK) &&
		!simt_context_set_schedule(ctx, SIMT_SCHEDULE_RANDOM, 42) &&
		!vecadd(ctx, k, a, a, c, 256) && simt_context_check_findings(ctx) == 0 &&
		!simt_memcpy_dtoh(host, c, 0, sizeof(host));
	for (i = 0; right && i < 256; i++)
		right = host[i] == 2.0f * i;
	ok(right, "memcheck and random block order from a program: a right kernel, no finding");
	ok(vecadd(ctx, k, a, a, c, 257) && simt_context_check_findings(ctx) == 1,
	   "memcheck from a program: a read past the buffer is one finding and stops the launch");
	ok(simt_launch(k, (simt_dim3){ 1, 1, 1 }, (simt_dim3){ 1, 1, 1 }, 0, args, 4, NULL) ==
	   SIMT_ERROR_CONTEXT_FAILED, "the context stops after a memcheck finding, as after a fault");
	ok(!simt_context_destroy(ctx) && !simt_device_close(dev), "destroy and close");
	printf("1..%d\n", test_no);
	return failures != 0;
}
