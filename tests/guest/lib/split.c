// SPDX-License-Identifier: MIT
/*
 * split.c: simt-lib-test's groups on kernel splitting (seed 002):
 * split-results, split-ids, split-auto and split-between.
 */
#include "lib-test.h"

/* ---- kernel splitting (seed 002): simt_launch_split ---- */
/* A context at normal priority, never preempted, and its device's info. */
static simt_context *split_context(simt_device **dev, struct simt_device_info *info)
{
	simt_context *ctx = NULL;

	if (simt_device_open(node, dev)) {
		FAIL("open %s", node);
		return NULL;
	}
	if (simt_device_get_info(*dev, info) ||
	    simt_context_create(*dev, SIMT_PRIORITY_NORMAL, SIMT_PREEMPT_NONE, &ctx)) {
		FAIL("context");
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
		FAIL("clearing the output");
		free(got);
		return -1;
	}
	if (simt_launch_split(k, g, bl, 0, args, nargs, &sp, r)) {
		FAIL("split launch, S = %u", s);
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
void test_split_results(void)
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
void test_split_ids(void)
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
void test_split_auto(void)
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
	uint32_t args[3];
	uint32_t s;			/* 0: unsplit */
	struct simt_split_result r;
	simt_status st;
};

static void *split_runner_main(void *arg)
{
	struct split_runner *sr = arg;
	struct simt_split sp = { .subkernel_blocks = sr->s ? sr->s : sr->g.x };

	sr->st = simt_launch_split(sr->k, sr->g, dim(SPIN_THREADS, 1, 1), 0, sr->args, 3, &sp,
				   &sr->r);
	return NULL;
}

/*
 * Start the long launch of spin_held (@s blocks per subkernel, 0:
 * unsplit) on @ctx_a in a thread, its blocks held by @gate (mapped at
 * @gate_map, device address @gate_addr); once a whole wave of @wave blocks
 * of it is on the device and held there, launch @short_k on @ctx_b, of
 * the same priority, then open the gate and wait for both.  The short
 * launch comes while the first subkernel (or, unsplit, the first wave)
 * runs, however fast the host.  *@b gets the short kernel's result, *@a
 * the long launch's.
 */
static int split_race(simt_kernel *long_k, simt_context *ctx_a, uint32_t blocks, uint32_t wave,
		      uint32_t s, uint32_t a_out, volatile uint32_t *gate_map, uint32_t gate_addr,
		      simt_kernel *short_k, simt_context *ctx_b, const uint32_t *b_args,
		      struct simt_result *b, struct simt_split_result *a)
{
	struct split_runner sr = {
		.k = long_k, .g = dim(blocks, 1, 1), .args = { a_out, SPIN_ITERS, gate_addr },
		.s = s,
	};
	uint64_t seq;
	pthread_t t;
	simt_status st;
	double t0;

	gate_map[0] = gate_map[1] = 0;
	__sync_synchronize();
	if (pthread_create(&t, NULL, split_runner_main, &sr)) {
		FAIL("pthread_create");
		return -1;
	}
	/* 60 s only stops a launch that never comes */
	for (t0 = now_s(); gate_map[1] < wave * SPIN_THREADS && now_s() - t0 < 60;)
		usleep(100);
	CHECK(gate_map[1] >= wave * SPIN_THREADS, "%u threads of a wave of %u blocks of the "
	      "long launch started in 60 s", gate_map[1], wave);
	st = simt_launch(short_k, dim(1, 1, 1), dim(SPIN_THREADS, 1, 1), 0, b_args, 2, &seq);
	gate_map[0] = 1;
	__sync_synchronize();
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
void test_split_between(void)
{
	struct simt_device_info info;
	struct simt_split_result a;
	struct simt_result b;
	simt_device *dev;
	simt_context *ctx_a, *ctx_b = NULL;
	simt_module *ma = NULL, *mb = NULL;
	simt_kernel *ka, *kb;
	simt_buffer *out_a, *out_b, *gate;
	uint32_t wave, blocks, b_args[2];
	void *gate_map;

	if (!(ctx_a = split_context(&dev, &info)))
		return;
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, SIMT_PREEMPT_NONE, &ctx_b));
	if (!(ka = load_kernel(ctx_a, &ma, "spin.elf", "spin_held")) ||
	    !(kb = load_kernel(ctx_b, &mb, "spin.elf", "spin")))
		return;
	wave = info.sm_count * info.sm_blocks;
	blocks = 16 * wave;
	MUST(simt_mem_alloc(ctx_a, (size_t)blocks * SPIN_THREADS * 4, &out_a));
	MUST(simt_mem_alloc(ctx_b, SPIN_THREADS * 4, &out_b));
	MUST(simt_mem_alloc(ctx_a, 8, &gate));
	MUST(simt_buffer_map(gate, &gate_map));
	b_args[0] = simt_buffer_addr(out_b);
	b_args[1] = 4 * SPIN_ITERS;	/* longer than a block of the long kernel */

	if (!split_race(ka, ctx_a, blocks, wave, wave, simt_buffer_addr(out_a), gate_map,
			simt_buffer_addr(gate), kb, ctx_b, b_args, &b, &a)) {
		printf("split into %u subkernels of %u blocks: cycles %llu..%llu; the other "
		       "context's launch ran %llu..%llu\n", a.subkernels, wave,
		       (unsigned long long)a.result.start_cycle,
		       (unsigned long long)a.result.end_cycle,
		       (unsigned long long)b.start_cycle, (unsigned long long)b.end_cycle);
		CHECK(b.end_cycle < a.result.end_cycle,
		      "the other context's launch ended at cycle %llu, after the split kernel (%llu)",
		      (unsigned long long)b.end_cycle, (unsigned long long)a.result.end_cycle);
	}
	if (!split_race(ka, ctx_a, blocks, wave, 0, simt_buffer_addr(out_a), gate_map,
			simt_buffer_addr(gate), kb, ctx_b, b_args, &b, &a)) {
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
