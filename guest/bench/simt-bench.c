// SPDX-License-Identifier: MIT
/*
 * simt-bench: launch latency and submission rate of an empty kernel,
 * measured from inside the guest through libsimt.  Run by `make bench`
 * (scripts/bench.sh boots the guest with simtguest.mode=bench) and, with
 * few rounds, by the guest test suite.
 *
 *   simt-bench [-n ROUNDS] [--split] [--device NODE]
 *
 * The empty kernel is vecadd with n = 0 on one thread: the thread
 * compares its index with n and returns.  Figures, one line each:
 *
 *   bench guest_launch_latency: MEDIAN us
 *       submission to completion: simt_launch() to simt_wait()'s return,
 *       one launch at a time, guest CLOCK_MONOTONIC
 *   bench guest_launch_cycles: MEDIAN cycles
 *       submission to completion in device cycles: the device's cycle
 *       counter (GET_PARAM CYCLE) just before simt_launch() to the launch's
 *       last block ended (WAIT's end cycle); only if the driver reports
 *       them (interface 0.2)
 *   bench guest_kernel_cycles: MEDIAN cycles
 *       the launch alone: its first block placed to its last block ended
 *   bench guest_submit_rate: RATE submissions/s
 *       launches queued back to back in batches of 256, each batch waited
 *       for at its last launch
 *   bench guest_userq_launch_latency: MEDIAN us
 *       the same through a user queue (interface 0.8): simt_userq_launch()
 *       to simt_userq_wait()'s return, which polls the fence word
 *   bench guest_userq_submit_rate: RATE submissions/s
 *       launches through the user queue back to back (at least twice as
 *       many as its 256 entries hold, two each), the ring kept full (a
 *       launch waits for room), the last one waited for
 *
 * With --split, seed 002's Table 1 instead (PKM's kernel splitting, at
 * 1/16 of the paper's data): a 512x512 matmul (1024 blocks) launched
 * whole and through simt_launch_split in M = 4, 16 and 64 subkernels of
 * S = 256, 64 and 16 blocks, each subkernel waited for before the next
 * is launched as PKM does, so each pays the host's round trip; times are
 * guest CLOCK_MONOTONIC, on the device's clock (docs/guest.rst, "One
 * clock"), from the call to its return.  Every split result is checked
 * against the whole launch's.
 *
 *   bench seed002_split_slowdown_S64: P %   M = 16 against M = 4, the
 *   bench seed002_split_slowdown_S16: P %   paper's reference row
 *   bench seed002_split_reference_over_whole: P %   M = 4 against the
 *                                                   unsplit launch
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <drm/simt_accel.h>
#include "libsimt.h"
#include "simt-clock.h"

#define KERNEL_IMAGE "/lib/simt/kernels/samples.elf"
#define BATCH 256
#define USERQ_ENTRIES 256
#define TIMEOUT_NS (30ll * 1000000000ll)

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int check(simt_status st, const char *what)
{
	if (st)
		fprintf(stderr, "simt-bench: %s: %s (%s)\n", what, simt_error_string(st),
			simt_last_error());
	return st != SIMT_SUCCESS;
}

#define SPLIT_IMAGE "/lib/simt/kernels/matmul.elf"
#define SPLIT_N 512

/*
 * One launch of the matmul into @c: whole (@s 0) or split into subkernels
 * of @s blocks; its guest time in microseconds, or a negative value on
 * failure.
 */
static double split_run(simt_kernel *k, simt_context *ctx, const uint32_t *args,
			uint32_t s, uint64_t *busy)
{
	const simt_dim3 grid = { SPLIT_N / 16, SPLIT_N / 16, 1 }, block = { 16, 16, 1 };
	struct simt_split split = { .subkernel_blocks = s };
	struct simt_split_result r;
	struct simt_result c;
	uint64_t seq;
	double t0 = now_us();

	if (!s) {
		if (check(simt_launch(k, grid, block, 0, args, 4, &seq), "launch") ||
		    check(simt_wait(ctx, seq, TIMEOUT_NS, &c), "wait"))
			return -1;
		*busy = c.end_cycle - c.start_cycle;
	} else if (check(simt_launch_split(k, grid, block, 0, args, 4, &split, &r),
			 "split launch")) {
		return -1;
	} else {
		*busy = r.busy_cycles;
	}
	return now_us() - t0;
}

static int split_bench(const char *node)
{
	static const uint32_t sizes[] = { 256, 64, 16 };
	const size_t bytes = SPLIT_N * SPLIT_N * 4;
	simt_device *dev;
	simt_context *ctx;
	simt_module *mod;
	simt_kernel *k;
	simt_buffer *a, *b, *c;
	float *host, *want, *got;
	double whole, t[3];
	uint64_t mhz, busy, whole_busy;
	uint32_t args[4], i, m;

	host = malloc(bytes);
	want = malloc(bytes);
	got = malloc(bytes);
	if (!host || !want || !got)
		return 1;
	for (i = 0; i < SPLIT_N * SPLIT_N; i++)
		host[i] = (float)((int)(i * 7 % 5) - 2);
	if (check(simt_device_open(node, &dev), "open") ||
	    check(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx), "context") ||
	    check(simt_module_load(ctx, SPLIT_IMAGE, &mod), "load") ||
	    check(simt_module_get_kernel(mod, "matmul", &k), "kernel") ||
	    check(simt_mem_alloc(ctx, bytes, &a), "buffer") ||
	    check(simt_mem_alloc(ctx, bytes, &b), "buffer") ||
	    check(simt_mem_alloc(ctx, bytes, &c), "buffer") ||
	    check(simt_memcpy_htod(a, 0, host, bytes), "upload") ||
	    check(simt_memcpy_htod(b, 0, host, bytes), "upload") ||
	    check(simt_device_get_param(dev, DRM_SIMT_PARAM_CLOCK_MHZ, &mhz), "clock"))
		return 1;
	args[0] = simt_buffer_addr(a);
	args[1] = simt_buffer_addr(b);
	args[2] = simt_buffer_addr(c);
	args[3] = SPLIT_N;
	/* Warm up: the first launch faults in page tables and the image. */
	if (split_run(k, ctx, args, 0, &busy) < 0)
		return 1;
	whole = split_run(k, ctx, args, 0, &whole_busy);
	if (whole < 0 || check(simt_memcpy_dtoh(want, c, 0, bytes), "download"))
		return 1;
	printf("# %ux%u matmul, %u blocks: whole %.0f us, the kernel %.0f us of it\n",
	       SPLIT_N, SPLIT_N, (SPLIT_N / 16) * (SPLIT_N / 16), whole,
	       (double)whole_busy / mhz);
	for (i = 0; i < 3; i++) {
		memset(got, 0, bytes);
		if (check(simt_memcpy_htod(c, 0, got, bytes), "clear"))
			return 1;
		t[i] = split_run(k, ctx, args, sizes[i], &busy);
		if (t[i] < 0 || check(simt_memcpy_dtoh(got, c, 0, bytes), "download"))
			return 1;
		if (memcmp(got, want, bytes)) {
			fprintf(stderr, "simt-bench: the split launch (S = %u) differs from the whole one\n",
				sizes[i]);
			return 1;
		}
		m = (SPLIT_N / 16) * (SPLIT_N / 16) / sizes[i];
		printf("# S = %u: M = %u subkernels, %.0f us, the subkernels %.0f us of it\n",
		       sizes[i], m, t[i], (double)busy / mhz);
		/* The host's part: what the subkernels' own time leaves, each. */
		printf("bench seed002_split_host_per_subkernel_S%u: %.1f us\n", sizes[i],
		       (t[i] - (double)busy / mhz) / m);
	}
	printf("bench seed002_split_reference_over_whole: %.1f %%\n", 100 * (t[0] / whole - 1));
	for (i = 1; i < 3; i++)
		printf("bench seed002_split_slowdown_S%u: %.1f %%\n", sizes[i],
		       100 * (t[i] / t[0] - 1));
	free(host);
	free(want);
	free(got);
	if (check(simt_context_destroy(ctx), "destroy") || check(simt_device_close(dev), "close"))
		return 1;
	return 0;
}

/*
 * The user-queue figures, on @ctx once its submissions are over; 0, or 1
 * on failure.  Without user queues, a comment line says why.
 */
static int userq_bench(simt_context *ctx, simt_kernel *k, const uint32_t *args,
		       unsigned int rounds, double *lat)
{
	const simt_dim3 one = { 1, 1, 1 };
	simt_userq *q;
	simt_status st;
	uint64_t v = 0;
	double t0, t1;
	unsigned int i, n;

	st = simt_userq_create(ctx, USERQ_ENTRIES, &q);
	if (st == SIMT_ERROR_NOT_SUPPORTED) {
		printf("# user queues: %s\n", simt_last_error());
		return 0;
	}
	if (check(st, "user queue"))
		return 1;
	for (i = 0; i < 10; i++)
		if (check(simt_userq_launch(q, k, one, one, 0, args, 4, &v), "userq launch") ||
		    check(simt_userq_wait(q, v, TIMEOUT_NS, NULL), "userq wait"))
			return 1;
	for (i = 0; i < rounds; i++) {
		t0 = now_us();
		if (check(simt_userq_launch(q, k, one, one, 0, args, 4, &v), "userq launch") ||
		    check(simt_userq_wait(q, v, TIMEOUT_NS, NULL), "userq wait"))
			return 1;
		lat[i] = now_us() - t0;
	}
	printf("# %u launches of an empty kernel through a user queue, one at a time\n", rounds);
	printf("bench guest_userq_launch_latency: %.1f us\n", median(lat, rounds));
	printf("# fastest %.1f us, 10%% under %.1f us, 90%% under %.1f us, slowest %.1f us\n",
	       lat[0], lat[rounds / 10], lat[rounds - 1 - rounds / 10], lat[rounds - 1]);

	/* Enough launches to wrap the ring four times, each waiting for room. */
	n = rounds > 2 * USERQ_ENTRIES ? rounds : 2 * USERQ_ENTRIES;
	t0 = now_us();
	for (i = 0; i < n; i++)
		if (check(simt_userq_launch(q, k, one, one, 0, args, 4, &v), "userq launch"))
			return 1;
	if (check(simt_userq_wait(q, v, TIMEOUT_NS, NULL), "userq wait"))
		return 1;
	t1 = now_us();
	printf("# %u launches through a ring of %u entries, back to back: %.0f us\n", n,
	       USERQ_ENTRIES, t1 - t0);
	printf("bench guest_userq_submit_rate: %.0f submissions/s\n", n / ((t1 - t0) / 1e6));
	return 0;
}

int main(int argc, char **argv)
{
	const simt_dim3 one = { 1, 1, 1 };
	const char *node = NULL;
	unsigned int rounds = 200, i, ncycles = 0, done;
	struct simt_result c;
	simt_device *dev;
	simt_context *ctx;
	simt_module *mod;
	simt_kernel *k;
	simt_buffer *buf;
	double *lat, *cyc, *run, t0, t1;
	uint64_t c0;
	int have_cycle;
	uint32_t args[4];
	uint64_t seq = 0;
	int a, split = 0;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-n") && a + 1 < argc) {
			char *end;
			unsigned long v = strtoul(argv[++a], &end, 10);

			if (*end || v < 1 || v > 1000000) {
				fprintf(stderr, "simt-bench: -n '%s': 1 to 1000000 rounds\n", argv[a]);
				return 2;
			}
			rounds = v;
		} else if (!strcmp(argv[a], "--device") && a + 1 < argc) {
			node = argv[++a];
		} else if (!strcmp(argv[a], "--split")) {
			split = 1;
		} else {
			fprintf(stderr, "usage: simt-bench [-n ROUNDS] [--split] [--device NODE]\n");
			return 2;
		}
	}
	if (split)
		return split_bench(node);

	if (check(simt_device_open(node, &dev), "open") ||
	    check(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx), "context") ||
	    check(simt_module_load(ctx, KERNEL_IMAGE, &mod), "load") ||
	    check(simt_module_get_kernel(mod, "vecadd", &k), "kernel") ||
	    check(simt_mem_alloc(ctx, 4096, &buf), "buffer"))
		return 1;
	args[0] = args[1] = args[2] = simt_buffer_addr(buf);
	args[3] = 0;
	lat = calloc(rounds, sizeof(*lat));
	cyc = calloc(rounds, sizeof(*cyc));
	run = calloc(rounds, sizeof(*run));
	if (!lat || !cyc || !run)
		return 1;
	have_cycle = !simt_device_get_param(dev, DRM_SIMT_PARAM_CYCLE, &c0);

	/* Warm up: the first launches fault in page tables and caches. */
	for (i = 0; i < 10; i++)
		if (check(simt_launch(k, one, one, 0, args, 4, &seq), "launch") ||
		    check(simt_wait(ctx, seq, TIMEOUT_NS, &c), "wait"))
			return 1;

	for (i = 0; i < rounds; i++) {
		if (have_cycle &&
		    check(simt_device_get_param(dev, DRM_SIMT_PARAM_CYCLE, &c0), "cycle"))
			return 1;
		t0 = now_us();
		if (check(simt_launch(k, one, one, 0, args, 4, &seq), "launch") ||
		    check(simt_wait(ctx, seq, TIMEOUT_NS, &c), "wait"))
			return 1;
		t1 = now_us();
		lat[i] = t1 - t0;
		if (have_cycle && c.end_cycle) {
			cyc[ncycles] = c.end_cycle - c0;
			run[ncycles++] = c.end_cycle - c.start_cycle;
		}
	}
	printf("# %u launches of an empty kernel, one at a time\n", rounds);
	printf("bench guest_launch_latency: %.1f us\n", median(lat, rounds));
	printf("# fastest %.1f us, 10%% under %.1f us, 90%% under %.1f us, slowest %.1f us\n",
	       lat[0], lat[rounds / 10], lat[rounds - 1 - rounds / 10], lat[rounds - 1]);
	if (ncycles) {
		printf("bench guest_launch_cycles: %.0f cycles\n", median(cyc, ncycles));
		printf("bench guest_kernel_cycles: %.0f cycles\n", median(run, ncycles));
	} else
		printf("# device cycles: not reported by the driver (WAIT start/end cycles are 0)\n");

	t0 = now_us();
	for (done = 0; done < rounds; ) {
		unsigned int n = rounds - done < BATCH ? rounds - done : BATCH;

		for (i = 0; i < n; i++)
			if (check(simt_launch(k, one, one, 0, args, 4, &seq), "launch"))
				return 1;
		if (check(simt_wait(ctx, seq, TIMEOUT_NS, &c), "wait"))
			return 1;
		done += n;
	}
	t1 = now_us();
	printf("# %u launches queued back to back in batches of %u: %.0f us\n", rounds,
	       BATCH, t1 - t0);
	printf("bench guest_submit_rate: %.0f submissions/s\n", rounds / ((t1 - t0) / 1e6));

	/* Last: the context takes no SUBMIT once its queue is the process's. */
	if (userq_bench(ctx, k, args, rounds, lat))
		return 1;

	free(lat);
	free(cyc);
	free(run);
	if (check(simt_context_destroy(ctx), "destroy") || check(simt_device_close(dev), "close"))
		return 1;
	return 0;
}
