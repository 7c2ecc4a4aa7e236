// SPDX-License-Identifier: MIT
/*
 * recovery.c: simt-ioctl-test's groups on hung kernels and the job
 * watchdog: hang, progress (only running time counts), hang2 (two hangs
 * in a row) and bystander (work that is not idempotent next to a
 * recovery).
 */
#include "ioctl-test.h"
#include "hw/simt/simt-hw.h"

/*
 * ---- hang: a kernel that never ends is declared hung after the job
 * timeout (lowered to 2 s here); since 0.3 the driver stops its queue
 * only (no device reset), and another process's work, queued before and
 * behind it, completes ----
 */

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
				FAIL("vecadd %d: c[%u] = %g, expected %g",
				     i, j, c[i][j], 4.0f * j);
				break;
			}
	}
	printf("other process: vecadd before, behind and after the endless kernel: %d failed checks\n",
	       failures);
	exit(failures ? 1 : 0);
}

void test_hang(void)
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
		FAIL("cannot write job_timeout_ms");
		return;
	}
	stats_read(st0);

	if (pipe(to_child) || pipe(from_child)) {
		FAIL("pipe");
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
						FAIL("after the recovery: out[%u] = 0x%x, expected 0x%x",
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
		FAIL("cannot restore job_timeout_ms");
}

/*
 * ---- progress: the job watchdog counts only time a submission runs.
 * job_timeout_ms is lowered to 5.  Two HIGH contexts are user queues
 * whose rings hold, written up front, a WAIT on a semaphore and then
 * PROGRESS_HP kernels each that take every block slot, each under the
 * timeout.  The NORMAL submission's first command stores the semaphore
 * and its second is a kernel: so the whole high-priority stream is on
 * the device, from the device's own rings, before that kernel can have
 * a slot, whatever the guest's speed (a debug kernel's included).  The
 * NORMAL submission waits behind it for more than twice the timeout,
 * then completes, with no error and no timeout counted.  The stream is
 * sized in device time: on the virtual clock every millisecond of a
 * full device costs the interpreter's work ----
 */
#define PROGRESS_HP		24	/* kernels in each high-priority ring */
#define PROGRESS_ITERS		12500	/* each about 0.5 ms of a whole device */
#define PROGRESS_RING		64	/* its entries: WAIT, LAUNCH + SIGNAL each */

/* A high-priority user queue of the progress test. */
struct hpq {
	struct spinjob j;
	uint32_t ring_h, tail;
	uint64_t ring_va;
	uint8_t *ring;
	volatile uint64_t *fence;	/* [0] kernels done, [1] end cycle */
	uint64_t fence_va;
	volatile uint32_t *db;
	int has_ctx;
};

static void hpq_put(struct hpq *q, const void *cmd)
{
	memcpy(q->ring + (uint64_t)q->tail * SIMT_CMD_SIZE, cmd, SIMT_CMD_SIZE);
	q->tail = (q->tail + 1) & (PROGRESS_RING - 1);
}

static void hpq_signal(struct hpq *q, uint64_t addr, uint64_t value, uint32_t flags)
{
	struct simt_cmd_signal s;

	memset(&s, 0, sizeof(s));
	s.opcode = SIMT_CMD_SIGNAL;
	s.flags = flags;
	s.addr = addr;
	s.value = value;
	hpq_put(q, &s);
}

/*
 * A HIGH context on @sem_h (bound at @sem_va) made a user queue whose
 * ring holds WAIT (*sem >= 1), then PROGRESS_HP times spin over @slots
 * blocks and a SIGNAL of the count, then a SIGNAL of the device cycle;
 * its doorbell rung.  0, or -1 (checks failed).
 */
static int hpq_start(struct hpq *q, uint32_t slots, uint32_t sem_h, uint64_t sem_va)
{
	const uint64_t size = (uint64_t)PROGRESS_RING * SIMT_CMD_SIZE + 4096;
	struct drm_simt_userq_create c = { 0 };
	struct simt_cmd_launch cl;
	struct simt_cmd_wait wt;
	void *p;
	int r, i;

	memset(q, 0, sizeof(*q));
	q->has_ctx = 1;
	if (spin_setup(&q->j, ctx_new(DRM_SIMT_PRIORITY_HIGH), slots, 32, PROGRESS_ITERS))
		return -1;
	CHECK(bind(q->j.ctx, sem_h) == sem_va,
	      "the semaphore has another address in a high-priority context");
	q->ring_h = bo_new(size, DRM_SIMT_BO_SYSTEM);
	q->ring_va = bind(q->j.ctx, q->ring_h);
	q->ring = bo_map(q->ring_h, size);
	q->fence = (volatile uint64_t *)(q->ring + (uint64_t)PROGRESS_RING * SIMT_CMD_SIZE);
	q->fence_va = q->ring_va + (uint64_t)PROGRESS_RING * SIMT_CMD_SIZE;
	c.ctx_id = q->j.ctx;
	c.ring_handle = q->ring_h;
	c.ring_addr = q->ring_va;
	c.ring_entries = PROGRESS_RING;
	r = xioctl(fd, DRM_IOCTL_SIMT_USERQ_CREATE, &c);
	CHECK(r == 0, "USERQ_CREATE: %s", strerror(-r));
	if (r)
		return -1;
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)c.doorbell_offset);
	CHECK(p != MAP_FAILED, "mmap of the doorbell: %s", strerror(errno));
	if (p == MAP_FAILED)
		return -1;
	q->db = p;

	memset(&wt, 0, sizeof(wt));
	wt.opcode = SIMT_CMD_WAIT;
	wt.addr = sem_va;
	wt.value = 1;
	hpq_put(q, &wt);
	hw_launch(&q->j.cmd, &cl);
	for (i = 0; i < PROGRESS_HP; i++) {
		hpq_put(q, &cl);
		hpq_signal(q, q->fence_va, i + 1, 0);
	}
	hpq_signal(q, q->fence_va + 8, 0, SIMT_CMDF_TIMESTAMP | SIMT_CMDF_IRQ);
	__sync_synchronize();
	q->db[SIMT_DBREG_TAIL / 4] = q->tail;
	return 0;
}

/* Wait for @q's last SIGNAL, check its kernels' results; its end cycle. */
static uint64_t hpq_finish(struct hpq *q, int k)
{
	struct drm_simt_userq_wait w = {
		.ctx_id = q->j.ctx, .addr = (uintptr_t)&q->fence[1], .value = 1,
		.timeout_ns = 20 * SEC_NS,
	};
	int r;

	r = xioctl(fd, DRM_IOCTL_SIMT_USERQ_WAIT, &w);
	CHECK(r == 0 && w.error == DRM_SIMT_ERROR_NONE,
	      "high-priority queue %d: USERQ_WAIT %d, error %u", k, r, w.error);
	CHECK(q->fence[0] == PROGRESS_HP, "high-priority queue %d ran %llu of %d kernels",
	      k, (unsigned long long)q->fence[0], PROGRESS_HP);
	CHECK(spin_wrong(&q->j, 7) == 0, "high-priority queue %d: results wrong", k);
	return q->fence[1];
}

static void hpq_free(struct hpq *q)
{
	if (q->db)
		munmap((void *)q->db, 4096);
	if (q->ring)
		munmap(q->ring, (uint64_t)PROGRESS_RING * SIMT_CMD_SIZE + 4096);
	if (q->has_ctx)
		ctx_destroy(q->j.ctx);
	spin_free(&q->j, 0);
	if (q->ring_h)
		bo_close(q->ring_h);
}

void test_progress(void)
{
	const uint32_t one[3] = { 1, 1, 1 };
	uint32_t slots, ctx, sem_h, hl = 0;
	uint64_t sem_va, seq, hp_end[2] = { 0, 0 };
	long long st0[ST_NR] = { 0 };
	struct drm_simt_cmd cmds[2];
	struct hpq q[2];
	struct spinjob j;
	struct drm_simt_wait w;
	double t0, t;
	int r, k;

	memset(q, 0, sizeof(q));
	if (test_set_timeout("5"))
		return;
	stats_read(st0);
	slots = get_param(DRM_SIMT_PARAM_SM_COUNT) * get_param(DRM_SIMT_PARAM_SM_BLOCKS);

	/* The normal-priority submission: store the semaphore, then spin. */
	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	sem_h = bo_new(4096, DRM_SIMT_BO_SYSTEM);
	sem_va = bind(ctx, sem_h);
	CHECK(sem_va && sem_va < (1ull << 32), "the semaphore at 0x%llx",
	      (unsigned long long)sem_va);
	if (spin_setup(&j, ctx, 8, 32, 20000))
		goto out;
	cmds[1] = j.cmd;
	if (kimg_cmd(&j.ki, ctx, "store_word", one, one,
		     (uint32_t[8]){ (uint32_t)sem_va, 1 }, &cmds[0], &hl))
		goto out_spin;

	/* The stream, held on the device until that store. */
	for (k = 0; k < 2; k++)
		if (hpq_start(&q[k], slots, sem_h, sem_va))
			goto out_spin;
	/* They get there: nothing stores the semaphore before SUBMIT. */
	t0 = now_s();
	while ((r = debugfs_ctx_count("status", SIMT_QSTATE_WAITING)) != 2 &&
	       now_s() - t0 < 20)
		usleep(1000);
	CHECK(r == 2, "%d high-priority queues wait for the semaphore, not 2", r);

	t0 = now_s();
	CHECK(submit(ctx, cmds, 2, &seq) == 0, "submit");
	r = wait_seq(ctx, seq, 60 * SEC_NS, &w);
	t = now_s() - t0;
	printf("the normal-priority kernel: WAIT %d, error %u, after %.1f ms; on the device cycles %llu..%llu\n",
	       r, w.error, t * 1e3, (unsigned long long)w.start_cycle,
	       (unsigned long long)w.end_cycle);
	CHECK(r == 0 && w.error == DRM_SIMT_ERROR_NONE,
	      "the kernel waiting behind high priority failed: WAIT %d, error %u", r, w.error);
	CHECK(t > 0.01, "it completed after %.1f ms: not held back long enough to tell",
	      t * 1e3);
	CHECK(spin_wrong(&j, 1) == 0, "its results are wrong");
	for (k = 0; k < 2; k++)
		hp_end[k] = hpq_finish(&q[k], k);
	printf("stream: 2 x %d high-priority kernels of %u blocks, ended at cycles %llu and %llu\n",
	       PROGRESS_HP, slots, (unsigned long long)hp_end[0],
	       (unsigned long long)hp_end[1]);
	{
		long long d[ST_NR] = { -1, -1, 0, 0, 0, -1, -1, -1, 0 };

		stats_expect("waiting behind high priority", st0, d);
	}
out_spin:
	if (hl)
		bo_close(hl);
	spin_free(&j, 1);
out:
	for (k = 0; k < 2; k++)
		hpq_free(&q[k]);
	ctx_destroy(ctx);
	bo_close(sem_h);
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
void test_hang2(void)
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
					FAIL("hang %d: the other context's c[%u] = %g, expected %g",
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
		/* Every run but the last ended while the hang stood. */
		CHECK(runs >= 2, "the other context's vecadd never ended during hang %d",
		      round + 1);
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
 * the flag (spin_held, released after the reset) is run again and right; an idle context works after it ----
 */
void test_bystander(void)
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
			FAIL("histogram's context refuses work");
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
					FAIL("histogram beside a hang: bin %u = %u, expected %u",
					     i, bins[i], wbins[i]);
			} else {
				right++;
			}
		} else {
			FAIL("histogram: WAIT %d, error %u", r, w.error);
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
		/* The idempotent one held until after the reset. */
		if (spin_setup(&jn, ctxn, sm, 32, 0xffffffffu) ||
		    spin_held_setup(&ji, ctxi, sm, 32, 20000))
			return;
		ji.cmd.flags = DRM_SIMT_CMD_LAUNCH_IDEMPOTENT;
		sn = syncobj_new();
		t0 = now_s();
		CHECK(submit_sync(ctxn, &jn.cmd, 1, sn, &seqn) == 0, "submit (not idempotent)");
		CHECK(submit(ctxi, &ji.cmd, 1, &seqi) == 0, "submit (idempotent)");
		/*
		 * Both launches on the device (their queues BUSY), so that
		 * the reset finds the one without the flag at the head of its
		 * queue; ctxz is idle.
		 */
		while ((r = debugfs_ctx_count("status", SIMT_QSTATE_BUSY)) < 2 &&
		       now_s() - t0 < 20)
			usleep(1000);
		CHECK(r == 2, "%d queues run a kernel, not 2", r);
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
		spin_release(&ji);
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
