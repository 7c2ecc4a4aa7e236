// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The six example kernels of examples/ at -O0 and -O2, run through
 * libsimt on the warp interpreter (tools/simt-run/simt-interp.c, the host
 * backend of simt-run), each result compared element by element with a
 * host reference.  Prints TAP.
 *
 * usage: test-examples DIR   (DIR holds NAME-O0.elf and NAME-O2.elf)
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libsimt.h"

static const char *dir;
static int test_no, failures;
static simt_context *ctx;
static simt_module *mod;
static simt_device *dev;

/* ---- TAP ---- */

static void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void result(bool ok, double t0, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void result(bool ok, double t0, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", ++test_no);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" (%.2f s)\n", now_s() - t0);
	fflush(stdout);
	if (!ok)
		failures++;
}

/* ---- deterministic input ---- */

static uint64_t rng_state;

static void rng_seed(uint64_t s)
{
	rng_state = s;
}

static uint32_t rng(void)	/* splitmix64, upper half */
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* ---- libsimt ---- */

static bool check(simt_status st, const char *what)
{
	if (st)
		diag("%s: %s: %s", what, simt_error_string(st), simt_last_error());
	return !st;
}

/* A fresh context with NAME-OPT.elf loaded (every image links at the same
 * address, so each example has a context of its own). */
static bool open_example(const char *name, const char *opt)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s-%s.elf", dir, name, opt);
	if (!check(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx), "context"))
		return false;
	return check(simt_module_load(ctx, path, &mod), path);
}

static void close_example(void)
{
	simt_context_destroy(ctx);
	ctx = NULL;
	mod = NULL;
}

static simt_kernel *kernel(const char *name)
{
	simt_kernel *k = NULL;

	check(simt_module_get_kernel(mod, name, &k), name);
	return k;
}

static simt_buffer *alloc_copy(const void *src, size_t size)
{
	simt_buffer *b = NULL;

	if (!check(simt_mem_alloc(ctx, size, &b), "simt_mem_alloc"))
		return NULL;
	if (src && !check(simt_memcpy_htod(b, 0, src, size), "simt_memcpy_htod"))
		return NULL;
	return b;
}

static bool copy_back(void *dst, simt_buffer *b, size_t size)
{
	return check(simt_memcpy_dtoh(dst, b, 0, size), "simt_memcpy_dtoh");
}

/*
 * Launch and wait; arguments are 32-bit words.  The wait's limit only
 * stops a launch that hangs: generous enough for -O0 under the
 * sanitizers on a loaded host, never a verdict on speed.
 */
#define RUN_TIMEOUT_NS (300 * 1000000000ll)

static bool run(simt_kernel *k, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by,
		const uint32_t *args, unsigned int nargs)
{
	uint64_t seq;
	struct simt_result r;

	if (!k)
		return false;
	if (!check(simt_launch(k, (simt_dim3){ gx, gy, 1 }, (simt_dim3){ bx, by, 1 }, 0,
			       args, nargs, &seq), "simt_launch"))
		return false;
	return check(simt_wait(ctx, seq, RUN_TIMEOUT_NS, &r), "simt_wait");
}

#define ARGS(...) (const uint32_t[]){ __VA_ARGS__ }, \
	sizeof((const uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t)

/* Compare @n 32-bit words; report the first few differences. */
static bool same_words(const char *what, const void *got, const void *want, size_t n)
{
	const uint32_t *g = got, *w = want;
	size_t i, bad = 0;

	for (i = 0; i < n; i++) {
		if (g[i] != w[i]) {
			if (bad < 5)
				diag("%s[%zu]: got 0x%08x (%d), want 0x%08x (%d)", what, i,
				     g[i], (int)g[i], w[i], (int)w[i]);
			bad++;
		}
	}
	if (bad)
		diag("%s: %zu of %zu differ", what, bad, n);
	return !bad;
}

/* ---- 1. two-pass inclusive prefix sum ---- */

#define SCAN_N      1000003u
#define SCAN_BLOCK  256u

/* Inclusive scan of @n ints of @in into @out: pass 1 scans each block and
 * gives the block sums; pass 2 scans the block sums (the same way) and
 * adds the sum of the earlier blocks to each block. */
static bool scan_device(simt_buffer *in, simt_buffer *out, uint32_t n, unsigned int *launches)
{
	uint32_t nb = (n + SCAN_BLOCK - 1) / SCAN_BLOCK;
	simt_buffer *sums = alloc_copy(NULL, nb * 4), *scanned;

	if (!sums)
		return false;
	(*launches)++;
	if (!run(kernel("scan_blocks"), nb, 1, SCAN_BLOCK, 1,
		 ARGS(simt_buffer_addr(in), simt_buffer_addr(out), simt_buffer_addr(sums), n)))
		return false;
	if (nb == 1)
		return true;
	scanned = alloc_copy(NULL, nb * 4);
	if (!scanned || !scan_device(sums, scanned, nb, launches))
		return false;
	(*launches)++;
	return run(kernel("add_offsets"), nb, 1, SCAN_BLOCK, 1,
		   ARGS(simt_buffer_addr(out), simt_buffer_addr(scanned), n));
}

static void test_scan(const char *opt)
{
	double t0 = now_s();
	int *in = malloc(SCAN_N * 4), *want = malloc(SCAN_N * 4), *got = malloc(SCAN_N * 4);
	unsigned int launches = 0;
	simt_buffer *bin, *bout;
	bool ok = false;
	int64_t acc = 0;
	uint32_t i;

	rng_seed(1);
	for (i = 0; i < SCAN_N; i++) {
		in[i] = (int)(rng() % 2001) - 1000;	/* |prefix| < 2^31 */
		acc += in[i];
		want[i] = (int)acc;
	}
	if (open_example("scan", opt) && (bin = alloc_copy(in, SCAN_N * 4)) &&
	    (bout = alloc_copy(NULL, SCAN_N * 4)) && scan_device(bin, bout, SCAN_N, &launches) &&
	    copy_back(got, bout, SCAN_N * 4))
		ok = same_words("scan", got, want, SCAN_N);
	close_example();
	result(ok, t0, "inclusive prefix sum of %u ints, two passes (%u launches), -%s: "
	       "every element matches", SCAN_N, launches, opt);
	free(in);
	free(want);
	free(got);
}

/* ---- 2. bitonic sort ---- */

#define SORT_N      65536u
#define SORT_BLOCK  256u
#define TILE_THREADS 512u
#define TILE        (2 * TILE_THREADS)

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

/* Finite, non-zero floats of both signs and many magnitudes, one in
 * eight a copy of an earlier one (ties); no NaN, no -0/+0 pair, so the
 * sorted order is unique bit for bit. */
static void sort_input(float *v)
{
	uint32_t i, bits;

	rng_seed(2);
	for (i = 0; i < SORT_N; i++) {
		if (i > 0 && rng() % 8 == 0) {
			v[i] = v[rng() % i];
			continue;
		}
		bits = (rng() & 0x807fffffu) | (100 + rng() % 55) << 23;
		memcpy(&v[i], &bits, 4);
	}
}

static void test_bitonic_global(const char *opt)
{
	double t0 = now_s();
	float *v = malloc(SORT_N * 4), *got = malloc(SORT_N * 4);
	unsigned int launches = 0;
	simt_kernel *k;
	simt_buffer *b;
	bool ok = false;

	sort_input(v);
	if (open_example("bitonic", opt) && (k = kernel("bitonic_step")) &&
	    (b = alloc_copy(v, SORT_N * 4))) {
		ok = true;
		for (uint32_t kk = 2; ok && kk <= SORT_N; kk <<= 1) {
			for (uint32_t j = kk >> 1; ok && j > 0; j >>= 1) {
				ok = run(k, SORT_N / SORT_BLOCK, 1, SORT_BLOCK, 1,
					 ARGS(simt_buffer_addr(b), j, kk));
				launches++;
			}
		}
		ok = ok && copy_back(got, b, SORT_N * 4);
		qsort(v, SORT_N, 4, cmp_float);
		ok = ok && same_words("sorted", got, v, SORT_N);
	}
	close_example();
	result(ok, t0, "bitonic sort of %u floats in global memory (%u launches, one per "
	       "merge step), -%s: bitwise equal to the host's sort", SORT_N, launches, opt);
	free(v);
	free(got);
}

static void test_bitonic_tiles(const char *opt)
{
	double t0 = now_s();
	float *v = malloc(SORT_N * 4), *got = malloc(SORT_N * 4);
	simt_buffer *b;
	bool ok = false;
	uint32_t t, i, unsorted = 0;

	sort_input(v);
	if (open_example("bitonic", opt) && (b = alloc_copy(v, SORT_N * 4)) &&
	    run(kernel("bitonic_tile"), SORT_N / TILE, 1, TILE_THREADS, 1,
		ARGS(simt_buffer_addr(b))) && copy_back(got, b, SORT_N * 4)) {
		/* each tile ascending, and the host's sort of the input tile
		 * bit for bit (the same multiset: a permutation) */
		for (t = 0; t < SORT_N / TILE; t++) {
			for (i = 1; i < TILE; i++)
				unsorted += got[t * TILE + i - 1] > got[t * TILE + i];
			qsort(v + t * TILE, TILE, 4, cmp_float);
		}
		if (unsorted)
			diag("%u adjacent pairs out of order", unsorted);
		ok = !unsorted && same_words("tiles", got, v, SORT_N);
	}
	close_example();
	result(ok, t0, "bitonic sort of %u floats in %u shared-memory tiles of %u, -%s: "
	       "every tile sorted and a permutation of its input", SORT_N, SORT_N / TILE, TILE,
	       opt);
	free(v);
	free(got);
}

/* ---- 3. tiled 5-point stencil ---- */

#define ST_W  1001
#define ST_H  517
#define ST_T  16

static float st_at(const float *in, int x, int y)
{
	return x >= 0 && y >= 0 && x < ST_W && y < ST_H ? in[y * ST_W + x] : 0.0f;
}

static void test_stencil(const char *opt)
{
	double t0 = now_s();
	size_t n = (size_t)ST_W * ST_H, bytes = n * 4;
	float *in = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
	simt_buffer *bi, *bo;
	bool ok = false;
	int x, y;

	rng_seed(3);
	for (size_t i = 0; i < n; i++)
		in[i] = (float)(int32_t)rng() / 16777216.0f;
	/* the kernel's expression, in float, in the same order */
	for (y = 0; y < ST_H; y++) {
		for (x = 0; x < ST_W; x++) {
			float c = st_at(in, x, y), no = st_at(in, x, y - 1);
			float so = st_at(in, x, y + 1), w = st_at(in, x - 1, y);
			float e = st_at(in, x + 1, y);

			want[y * ST_W + x] = 0.5f * c + 0.125f * (((no + so) + w) + e);
		}
	}
	if (open_example("stencil", opt) && (bi = alloc_copy(in, bytes)) &&
	    (bo = alloc_copy(NULL, bytes)) &&
	    run(kernel("stencil5"), (ST_W + ST_T - 1) / ST_T, (ST_H + ST_T - 1) / ST_T, ST_T, ST_T,
		ARGS(simt_buffer_addr(bi), simt_buffer_addr(bo), ST_W, ST_H)) &&
	    copy_back(got, bo, bytes))
		ok = same_words("stencil", got, want, n);
	close_example();
	result(ok, t0, "5-point stencil on a %ux%u float grid, %ux%u tiles with halos in "
	       "shared memory, -%s: every element bitwise equal to the host's", ST_W, ST_H,
	       ST_T, ST_T, opt);
	free(in);
	free(want);
	free(got);
}

/* ---- 4. warp reduction with shuffles and votes ---- */

#define RED_N      100003u
#define RED_BLOCK  256u

static void test_warpreduce(const char *opt)
{
	double t0 = now_s();
	uint32_t nw = (RED_N + 31) / 32, nblocks = (RED_N + RED_BLOCK - 1) / RED_BLOCK;
	int *in = malloc(RED_N * 4), *want = calloc(3 * nw, 4), *got = malloc(3 * nw * 4);
	int *want_tail = calloc(nw, 4), *got_tail = malloc(nw * 4);
	int totals[3] = { 0, 0, INT32_MIN }, want_totals[3] = { 0, 0, INT32_MIN };
	simt_buffer *bi, *bo, *bt, *btail;
	bool ok = false, ok_tail = false;
	uint32_t i;

	rng_seed(4);
	for (i = 0; i < RED_N; i++)
		in[i] = (int)(rng() % 200001) - 100000;
	for (i = 0; i < nw; i++)
		want[3 * i + 2] = INT32_MIN;
	for (i = 0; i < RED_N; i++) {
		uint32_t w = i / 32;

		want[3 * w] += in[i];
		want[3 * w + 1] += in[i] > 0;
		if (in[i] > want[3 * w + 2])
			want[3 * w + 2] = in[i];
		want_tail[w] += in[i];
		want_totals[0] += in[i];
		want_totals[1] += in[i] > 0;
		if (in[i] > want_totals[2])
			want_totals[2] = in[i];
	}
	if (open_example("warpreduce", opt) && (bi = alloc_copy(in, RED_N * 4)) &&
	    (bo = alloc_copy(NULL, 3 * nw * 4)) && (bt = alloc_copy(totals, sizeof(totals))) &&
	    (btail = alloc_copy(NULL, nw * 4))) {
		if (run(kernel("warp_reduce"), nblocks, 1, RED_BLOCK, 1,
			ARGS(simt_buffer_addr(bi), simt_buffer_addr(bo), simt_buffer_addr(bt),
			     RED_N)) &&
		    copy_back(got, bo, 3 * nw * 4) && copy_back(totals, bt, sizeof(totals)))
			/* +, not &&: both report their differences */
			ok = same_words("warp sum/count/max", got, want, 3 * nw) +
			     same_words("totals", totals, want_totals, 3) == 2;
		if (run(kernel("warp_sum_tail"), nblocks, 1, RED_BLOCK, 1,
			ARGS(simt_buffer_addr(bi), simt_buffer_addr(btail), RED_N)) &&
		    copy_back(got_tail, btail, nw * 4))
			ok_tail = same_words("tail sums", got_tail, want_tail, nw);
	}
	close_example();
	result(ok, t0, "warp reduction of %u ints (__shfl_xor_sync sum, __shfl_down_sync max, "
	       "__ballot_sync/__popc count, masked last warp), -%s: every warp's results and "
	       "the atomic totals match", RED_N, opt);
	result(ok_tail, t0, "warp sum of %u ints with an early `if (i >= n) return;` tail, -%s: "
	       "every warp's sum matches", RED_N, opt);
	free(in);
	free(want);
	free(got);
	free(want_tail);
	free(got_tail);
}

/* ---- 5. histogram with warp-aggregated atomics ---- */

#define HIST_N      100003u
#define HIST_BINS   64u

static void test_histogram(const char *opt)
{
	double t0 = now_s();
	uint32_t nw = (HIST_N + 31) / 32, nblocks = (HIST_N + 255) / 256;
	uint8_t *data = malloc(HIST_N);
	uint32_t want[HIST_BINS] = { 0 }, got[HIST_BINS];
	uint32_t *want_atomics = calloc(nw, 4), *got_atomics = malloc(nw * 4);
	uint64_t seen = 0, total_atomics = 0;
	simt_buffer *bd, *bh, *ba;
	bool ok = false;
	uint32_t i;

	/* skewed: the spread of values changes every 1024 bytes, from one
	 * bin per warp to up to 32 distinct ones */
	rng_seed(5);
	for (i = 0; i < HIST_N; i++)
		data[i] = (uint8_t)(rng() % (1 + (i >> 10) % 256));
	for (i = 0; i < HIST_N; i++) {
		uint32_t b = data[i] % HIST_BINS;

		want[b]++;
		if (i % 32 == 0)
			seen = 0;
		if (!(seen >> b & 1)) {
			seen |= 1ull << b;
			want_atomics[i / 32]++;
			total_atomics++;
		}
	}
	if (open_example("histogram", opt) && (bd = alloc_copy(data, HIST_N)) &&
	    (bh = alloc_copy(NULL, sizeof(got))) && (ba = alloc_copy(NULL, nw * 4)) &&
	    run(kernel("histogram_warp"), nblocks, 1, 256, 1,
		ARGS(simt_buffer_addr(bd), simt_buffer_addr(bh), simt_buffer_addr(ba), HIST_N)) &&
	    copy_back(got, bh, sizeof(got)) && copy_back(got_atomics, ba, nw * 4))
		/* +, not &&: both report their differences */
		ok = same_words("bins", got, want, HIST_BINS) +
		     same_words("atomics per warp", got_atomics, want_atomics, nw) == 2;
	close_example();
	result(ok, t0, "histogram of %u bytes into %u bins with warp-aggregated atomicAdd, "
	       "-%s: every bin matches and each warp did one atomicAdd per distinct bin "
	       "(%llu in all)", HIST_N, HIST_BINS, opt,
	       (unsigned long long)total_atomics);
	free(data);
	free(want_atomics);
	free(got_atomics);
}

/* ---- 6. deep data-dependent divergence ---- */

#define COL_N 20011u

/* The kernel's code, line for line. */
static void collatz_ref(uint32_t x, uint32_t *out)
{
	uint32_t steps = 0, peak = x, odd1 = 0, score = 0;

	while (x != 1) {
		if (x & 1) {
			if (x % 3 == 1)
				odd1++;
			x = 3 * x + 1;
			steps++;
			if (x > peak)
				peak = x;
			while (!(x & 1)) {
				x >>= 1;
				steps++;
			}
		} else {
			x >>= 1;
			steps++;
		}
	}
	for (uint32_t p = peak; p; p /= 10) {
		uint32_t d = p % 10;

		if (d & 1)
			score += d * d;
		else if (d)
			score += d;
		else
			score += 100;
	}
	out[0] = steps;
	out[1] = peak;
	out[2] = odd1;
	out[3] = score;
}

static void test_collatz(const char *opt)
{
	double t0 = now_s();
	uint32_t *start = malloc(COL_N * 4), *want = malloc(COL_N * 16), *got = malloc(COL_N * 16);
	uint32_t i, maxsteps = 0;
	simt_buffer *bs, *bo;
	bool ok = false;

	/* starts below 100000: every peak fits in 32 bits (the largest is
	 * 1570824736, from 77671) */
	rng_seed(6);
	for (i = 0; i < COL_N; i++) {
		start[i] = 1 + rng() % 99999;
		collatz_ref(start[i], want + 4 * i);
		if (want[4 * i] > maxsteps)
			maxsteps = want[4 * i];
	}
	if (open_example("collatz", opt) && (bs = alloc_copy(start, COL_N * 4)) &&
	    (bo = alloc_copy(NULL, COL_N * 16)) &&
	    run(kernel("collatz"), (COL_N + 127) / 128, 1, 128, 1,
		ARGS(simt_buffer_addr(bs), simt_buffer_addr(bo), COL_N)) &&
	    copy_back(got, bo, COL_N * 16))
		ok = same_words("collatz", got, want, 4 * COL_N);
	close_example();
	result(ok, t0, "Collatz steps, peak, odd-step count and digit score of %u starts "
	       "(data-dependent nested loops and branches, up to %u steps a lane), -%s: "
	       "every element matches", COL_N, maxsteps, opt);
	free(start);
	free(want);
	free(got);
}

int main(int argc, char **argv)
{
	static const char *const opts[] = { "O0", "O2" };
	double t0 = now_s();

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR (with NAME-O0.elf and NAME-O2.elf)\n", argv[0]);
		return 2;
	}
	dir = argv[1];
	if (simt_device_open(NULL, &dev)) {
		printf("Bail out! %s\n", simt_last_error());
		return 1;
	}
	printf("1..%d\n", 8 * 2);
	for (int o = 0; o < 2; o++) {
		test_scan(opts[o]);
		test_bitonic_global(opts[o]);
		test_bitonic_tiles(opts[o]);
		test_stencil(opts[o]);
		test_warpreduce(opts[o]);
		test_histogram(opts[o]);
		test_collatz(opts[o]);
	}
	diag("all examples: %.2f s", now_s() - t0);
	simt_device_close(dev);
	return failures ? 1 : 0;
}
