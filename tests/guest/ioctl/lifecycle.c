// SPDX-License-Identifier: MIT
/*
 * lifecycle.c: simt-ioctl-test's groups on the lifetime of contexts,
 * files and the device: hold (for the unbind test), threads (threads
 * racing SUBMIT, CONTEXT_DESTROY and VM_BIND) and the lifecycle stress
 * group (destroy-races, watchdog-destroy, syncfile-outlives,
 * grid-overflow, seqno, unplug-mapped, hotunplug-hold, fence-fd-nomem).
 */
#include "ioctl-test.h"

/*
 * ---- hold: keep a context with work, bindings and mappings across an
 * unbind of the device (run by the unbind test); once the device is gone
 * every ioctl fails with ENODEV and closing the file is clean ----
 */
void test_hold(void)
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

	/* the script unbinds the device; 60 s only stops a test it forgot */
	for (i = 0; i < 1200; i++) {
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
	FAIL("%s: %d (%s)", what, r, strerror(-r));
}

/* Fewer calls of some kind than make a race worth its name. */
static int race_few(struct race *rc)
{
	return __atomic_load_n(&rc->calls[0], __ATOMIC_RELAXED) -
		       __atomic_load_n(&rc->errs[0][1], __ATOMIC_RELAXED) <= 100 ||
	       __atomic_load_n(&rc->calls[1], __ATOMIC_RELAXED) <= 20 ||
	       __atomic_load_n(&rc->calls[2], __ATOMIC_RELAXED) <= 100 ||
	       __atomic_load_n(&rc->calls[3], __ATOMIC_RELAXED) <= 100;
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

void test_threads(void)
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
	 * until every thread has raced enough below (a debug kernel or a
	 * loaded host is slower), 120 s at most.
	 */
	while ((now_s() - t0 < 2.0 || race_few(&rc)) && now_s() - t0 < 120) {
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
	CHECK(!race_few(&rc), "too few calls to race");
	{
		int left = 0;

		for (i = 0; i < 300 && (left = debugfs_ctx_count("pid", getpid())) > 0; i++)
			usleep(100000);
		CHECK(left == 0, "%d contexts of this process left after destroying them all",
		      left);
	}
	race_round_trip(rc.s, rc.v, 1 << 20, 17);
	bo_close(rc.v);
	bo_close(rc.s);
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
			FAIL("SUBMIT during the destroy: %s", strerror(-r));
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

void test_destroy_races(void)
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
	for (i = 0; i < 300 && (left = debugfs_ctx_count("pid", getpid())) > 0; i++)
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
void test_watchdog_destroy(void)
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

void test_syncfile_outlives(void)
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
	for (i = 0; i < 300 && (left = debugfs_ctx_count("pid", getpid())) > 0; i++)
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
void test_grid_overflow(void)
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

void test_seqno(void)
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
		FAIL("%s the mapping after %s went through (0x%02x), expected SIGBUS",
		     write ? "a write to" : "a read of", what, got);
	} else {
		printf("%s the VRAM mapping after %s: signal %d (SIGBUS %d)\n",
		       write ? "a write to" : "a read of", what, sig, SIGBUS);
		CHECK(sig == SIGBUS, "signal %d, expected SIGBUS", sig);
	}
	sigaction(SIGBUS, &old, NULL);
}

void test_unplug_mapped(void)
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
		FAIL("no /sys/class/accel/accel0/device");
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
void test_hotunplug_hold(void)
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

void test_fence_fd_nomem(void)
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
		FAIL("no fault injection here (a debug kernel's test)");
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
