// SPDX-License-Identifier: MIT
/*
 * threads.c: simt-lib-test's groups on concurrency and time: threads
 * (several threads using libsimt at once) and timeout (a wait's
 * deadline, signals or not).
 */
#include "lib-test.h"

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
			FAIL("thread %u round %u: setup: %s", t->index, round,
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

void test_threads(void)
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
	nthreads = file_contexts(dev, &info, user_contexts(dev, &info, info.max_contexts)) - 1;
	nthreads = nthreads > THREADS ? THREADS : nthreads;
	CHECK(nthreads >= 2, "room for %u contexts only", nthreads + 1);
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &shared));
	MUST(simt_module_load(shared, KERNEL_DIR "/ids.elf", &m));
	MUST(simt_module_get_kernel(m, "ids", &ids));
	for (i = 0; i < nthreads; i++) {
		args[i] = (struct thread_arg){ .index = i, .dev = dev, .shared = shared,
					       .ids = ids, .sm_count = info.sm_count };
		if (pthread_create(&tid[i], NULL, thread_main, &args[i])) {
			FAIL("pthread_create: %s", strerror(errno));
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
	t0 = now_s();
	st = simt_wait(ctx, seq, ms * 1000000ll, &c);
	dt = now_s() - t0;
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

void test_timeout(void)
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
	t0 = now_s();
	EXPECT(simt_wait(ctx, seq, 50 * 1000000ll, &c), SIMT_ERROR_TIMEOUT);
	printf("50 ms wait: %.3f s\n", now_s() - t0);
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
	t0 = now_s();
	EXPECT(simt_wait(ctx, seq, -1, &c), SIMT_SUCCESS);
	printf("the kernel ended %.3f s later\n", now_s() - t0);
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}
