// SPDX-License-Identifier: MIT
/*
 * oversub.c: simt-lib-test's groups on oversubscribed VRAM:
 * oversub-tenants and oversub-single.
 */
#include "lib-test.h"

/* ---- oversubscription: VRAM objects beyond the VRAM (issue 13) ---- */

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
		FAIL("%s: no fdinfo for %s", what, dev_node);
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
			FAIL("process %u %s: y[%u] = %g, expected %g", t->index, when,
			     at + i, got[i], t->hy[at + i]);
		}
	} else {
		FAIL("process %u %s: copy of y back", t->index, when);
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
		FAIL("process %u: device, context or saxpy", t->index);
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
		FAIL("process %u: no host memory", t->index);
		free(hx);
		return -1;
	}
	for (i = 0; i < t->n; i++) {
		hx[i] = tenant_x(t, i);
		t->hy[i] = tenant_y0(t, i);
	}
	if ((st = simt_mem_alloc(t->ctx, bytes, &t->x)) ||
	    (st = simt_mem_alloc(t->ctx, bytes, &t->y))) {
		FAIL("process %u: %llu bytes of VRAM (%llu of %llu allocated by "
		     "earlier processes): %s", t->index, (unsigned long long)bytes,
		     (unsigned long long)bytes * 2 * t->index,
		     (unsigned long long)t->info.vram_size, simt_error_string(st));
		return -1;
	}
	st = simt_memcpy_htod(t->x, 0, hx, bytes);
	free(hx);
	if (st || (st = simt_buffer_map(t->y, &map))) {
		FAIL("process %u: filling x and y: %s", t->index,
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
		FAIL("process %u: mapping", t->index);
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
		FAIL("process %u gone at command '%c'", i, c);
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
void test_oversub_tenants(void)
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
			FAIL("pipe: %s", strerror(errno));
			return;
		}
		pid[i] = fork();
		if (pid[i] < 0) {
			FAIL("fork: %s", strerror(errno));
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
			FAIL("process %u: no report", i);
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
void test_oversub_single(void)
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
			FAIL("no host memory");
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
