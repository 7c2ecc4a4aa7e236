// SPDX-License-Identifier: MIT
/*
 * userq.c: simt-ioctl-test's groups of user queues (interface 0.8):
 * userq (USERQ_CREATE's checks, the doorbell mapping, kernels run
 * through the process's own ring, USERQ_WAIT, SUBMIT refused),
 * userq-errors (what a process may not make its ring do),
 * userq-destroy (a running user queue destroyed, its doorbell gone),
 * userq-hang (the watchdog stops a user queue that does not progress),
 * userq-retract (nor one whose TAIL went back to HEAD under a kernel),
 * fair-userq (the fair-share policy holds a user queue too).
 * The commands are the device's own (include/hw/simt/simt-hw.h), written
 * by the test as any process may.
 */
#define _GNU_SOURCE	/* mremap */
#include "ioctl-test.h"
#include "hw/simt/simt-hw.h"

/* A user queue as a process sees it. */
struct uq {
	uint32_t ctx, ring_h, entries, tail;
	uint64_t ring_va, fence_va, value;
	uint8_t *ring;
	volatile uint64_t *fence;	/* after the ring, in the same object */
	volatile uint32_t *db;		/* the doorbell page */
	uint64_t db_offset;
};

/* A system object of @entries commands and a fence page, bound in @ctx. */
static void uq_ring_new(struct uq *q, uint32_t ctx, uint32_t entries)
{
	uint64_t size = (uint64_t)entries * SIMT_CMD_SIZE + 4096;

	memset(q, 0, sizeof(*q));
	q->ctx = ctx;
	q->entries = entries;
	q->ring_h = bo_new(size, DRM_SIMT_BO_SYSTEM);
	q->ring_va = bind(ctx, q->ring_h);
	q->ring = bo_map(q->ring_h, size);
	q->fence = (volatile uint64_t *)(q->ring + (uint64_t)entries * SIMT_CMD_SIZE);
	q->fence_va = q->ring_va + (uint64_t)entries * SIMT_CMD_SIZE;
}

static int uq_create_ioctl(struct uq *q)
{
	struct drm_simt_userq_create c = {
		.ctx_id = q->ctx, .ring_handle = q->ring_h,
		.ring_addr = q->ring_va, .ring_entries = q->entries,
	};
	int r = xioctl(fd, DRM_IOCTL_SIMT_USERQ_CREATE, &c);

	q->db_offset = c.doorbell_offset;
	return r;
}

static void *db_map(int f, uint64_t offset, size_t len, int prot)
{
	return mmap(NULL, len, prot, MAP_SHARED, f, (off_t)offset);
}

/* Make @q's ring a user queue and map its doorbell; 0 or -1 (checks failed). */
static int uq_start(struct uq *q)
{
	void *p;
	int r;

	r = uq_create_ioctl(q);
	CHECK(r == 0, "USERQ_CREATE: %s", strerror(-r));
	if (r)
		return -1;
	p = db_map(fd, q->db_offset, 4096, PROT_READ | PROT_WRITE);
	CHECK(p != MAP_FAILED, "mmap of the doorbell at 0x%llx: %s",
	      (unsigned long long)q->db_offset, strerror(errno));
	if (p == MAP_FAILED)
		return -1;
	q->db = p;
	return 0;
}

/* A user queue on a new context of @entries; 0 or -1 (checks failed). */
static int uq_new(struct uq *q, uint32_t entries)
{
	uq_ring_new(q, ctx_new(DRM_SIMT_PRIORITY_NORMAL), entries);
	return uq_start(q);
}

static void uq_put(struct uq *q, const void *cmd)
{
	memcpy(q->ring + (uint64_t)q->tail * SIMT_CMD_SIZE, cmd, SIMT_CMD_SIZE);
	q->tail = (q->tail + 1) & (q->entries - 1);
}

/* A SIGNAL of the next value to @addr (0: the fence word). */
static uint64_t uq_signal(struct uq *q, uint64_t addr, uint32_t flags)
{
	struct simt_cmd_signal s;

	memset(&s, 0, sizeof(s));
	s.opcode = SIMT_CMD_SIGNAL;
	s.flags = flags;
	s.addr = addr ? addr : q->fence_va;
	s.value = ++q->value;
	uq_put(q, &s);
	return q->value;
}

static void uq_launch(struct uq *q, const struct drm_simt_cmd *cmd)
{
	struct simt_cmd_launch c;

	hw_launch(cmd, &c);
	uq_put(q, &c);
}

/* The doorbell: the commands are in memory before the device looks. */
static void uq_ring(struct uq *q)
{
	__sync_synchronize();
	q->db[SIMT_DBREG_TAIL / 4] = q->tail;
}

static int uq_wait(struct uq *q, uint64_t value, int64_t timeout_ns,
		   struct drm_simt_userq_wait *w)
{
	memset(w, 0, sizeof(*w));
	w->ctx_id = q->ctx;
	w->addr = (uintptr_t)q->fence;
	w->value = value;
	w->timeout_ns = timeout_ns;
	return xioctl(fd, DRM_IOCTL_SIMT_USERQ_WAIT, w);
}

/* Poll the fence word for @value, up to @timeout_ns; 0 or -1. */
static int uq_poll(struct uq *q, uint64_t value, double timeout_s)
{
	double t0 = now_s();

	while (__atomic_load_n(q->fence, __ATOMIC_ACQUIRE) < value)
		if (now_s() - t0 > timeout_s)
			return -1;
	return 0;
}

static void uq_free(struct uq *q)
{
	if (q->db)
		munmap((void *)q->db, 4096);
	if (q->ring)
		munmap(q->ring, (uint64_t)q->entries * SIMT_CMD_SIZE + 4096);
	q->db = NULL;
	q->ring = NULL;
}

/* How many contexts debugfs "contexts" marks as user queues. */
static int user_queues_listed(void)
{
	char *text = read_text(debugfs_file("contexts")), *p;
	int n = 0;

	if (!text)
		return -1;
	for (p = text; (p = strstr(p, " userq=1\n")); p++)
		n++;
	free(text);
	return n;
}

/* Does a store to @db in a child process kill it with SIGBUS or SIGSEGV? */
static int store_kills(volatile uint32_t *db)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		db[SIMT_DBREG_TAIL / 4] = 1;
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 0;
	return WIFSIGNALED(status) &&
	       (WTERMSIG(status) == SIGBUS || WTERMSIG(status) == SIGSEGV);
}

/* ---- userq: the checks, the doorbell, vecadd through the ring ---- */

static void userq_create_checks(void)
{
	struct drm_simt_userq_create c;
	struct drm_simt_userq_wait w;
	struct drm_simt_cmd copy;
	uint32_t ctx, vram, small, other;
	struct uq q;
	uint64_t va;

	uq_ring_new(&q, ctx_new(DRM_SIMT_PRIORITY_NORMAL), 16);
	ctx = q.ctx;
#define CREATE(field, val, err) do { \
	c = (struct drm_simt_userq_create){ .ctx_id = ctx, \
		.ring_handle = q.ring_h, .ring_addr = q.ring_va, \
		.ring_entries = 16 }; \
	c.field = val; \
	EXPECT(DRM_IOCTL_SIMT_USERQ_CREATE, &c, err); \
} while (0)
	CREATE(ctx_id, 999999, ENOENT);
	CREATE(ring_handle, 999999, ENOENT);
	CREATE(flags, 1, EINVAL);
	CREATE(ring_entries, 0, EINVAL);
	CREATE(ring_entries, 1, EINVAL);
	CREATE(ring_entries, 12, EINVAL);
	CREATE(ring_entries, 8192, EINVAL);
	/* more entries than the object holds (16 entries and a page: 8 KiB) */
	CREATE(ring_entries, 128, EINVAL);
	/* bound elsewhere than said */
	CREATE(ring_addr, q.ring_va + 4096, EINVAL);
	/* a VRAM object, bound */
	vram = bo_new(16 * SIMT_CMD_SIZE, DRM_SIMT_BO_VRAM);
	va = bind(ctx, vram);
	c = (struct drm_simt_userq_create){ .ctx_id = ctx, .ring_handle = vram,
		.ring_addr = va, .ring_entries = 16 };
	EXPECT(DRM_IOCTL_SIMT_USERQ_CREATE, &c, EINVAL);
	/* a system object not bound in the context */
	other = bo_new(16 * SIMT_CMD_SIZE, DRM_SIMT_BO_SYSTEM);
	c = (struct drm_simt_userq_create){ .ctx_id = ctx, .ring_handle = other,
		.ring_addr = bo_info(other).device_addr, .ring_entries = 16 };
	EXPECT(DRM_IOCTL_SIMT_USERQ_CREATE, &c, EINVAL);
	/* a system object too small for 2 entries */
	small = bo_new(4096, DRM_SIMT_BO_SYSTEM);
	c = (struct drm_simt_userq_create){ .ctx_id = ctx, .ring_handle = small,
		.ring_addr = bind(ctx, small), .ring_entries = 64 };
	EXPECT(DRM_IOCTL_SIMT_USERQ_CREATE, &c, EINVAL);
	/* USERQ_WAIT on a context of the driver's queue */
	memset(&w, 0, sizeof(w));
	w.ctx_id = ctx;
	w.addr = (uintptr_t)q.fence;
	EXPECT(DRM_IOCTL_SIMT_USERQ_WAIT, &w, EINVAL);

	/* A context that has run copies becomes one once they are over. */
	copy = copy_cmd(vram, 0, vram, 1024, 512);
	run(ctx, &copy, 1);
	CREATE(ctx_id, ctx, 0);
	CREATE(ctx_id, ctx, EEXIST);
#undef CREATE
	CHECK(submit(ctx, &copy, 1, &va) == -EBUSY,
	      "SUBMIT on a user-queue context is not refused with EBUSY");
	/* USERQ_WAIT's own checks */
	memset(&w, 0, sizeof(w));
	w.ctx_id = ctx;
	w.addr = (uintptr_t)q.fence + 4;
	EXPECT(DRM_IOCTL_SIMT_USERQ_WAIT, &w, EINVAL);
	w.addr = (uintptr_t)q.fence;
	w.timeout_ns = -1;
	EXPECT(DRM_IOCTL_SIMT_USERQ_WAIT, &w, EINVAL);
	w.timeout_ns = 0;
	w.flags = 1;
	EXPECT(DRM_IOCTL_SIMT_USERQ_WAIT, &w, EINVAL);
	w.flags = 0;
	w.addr = 8;
	EXPECT(DRM_IOCTL_SIMT_USERQ_WAIT, &w, EFAULT);
	w.addr = (uintptr_t)q.fence;
	w.value = 1;
	EXPECT(DRM_IOCTL_SIMT_USERQ_WAIT, &w, ETIME);
	w.value = 0;
	EXPECT(DRM_IOCTL_SIMT_USERQ_WAIT, &w, 0);
	CHECK(w.error == DRM_SIMT_ERROR_NONE, "USERQ_WAIT of 0: error %u", w.error);
	uq_free(&q);
	bo_close(small);
	bo_close(other);
	CHECK(ctx_destroy(ctx) == 0, "CONTEXT_DESTROY of a user-queue context");
	bo_close(vram);
	bo_close(q.ring_h);
	printf("USERQ_CREATE and USERQ_WAIT checks done\n");
}

static void userq_doorbell_checks(void)
{
	struct uq q;
	void *p;
	int f2;

	if (uq_new(&q, 16))
		return;
	p = db_map(fd, q.db_offset, 8192, PROT_READ | PROT_WRITE);
	CHECK(p == MAP_FAILED, "a doorbell mapping of two pages was made");
	if (p != MAP_FAILED)
		munmap(p, 8192);
	p = db_map(fd, q.db_offset, 4096, PROT_READ | PROT_WRITE | PROT_EXEC);
	CHECK(p == MAP_FAILED, "an executable doorbell mapping was made");
	if (p != MAP_FAILED)
		munmap(p, 4096);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
		 (off_t)q.db_offset);
	CHECK(p == MAP_FAILED, "a private doorbell mapping was made");
	if (p != MAP_FAILED)
		munmap(p, 4096);
	/* another queue's doorbell */
	p = db_map(fd, q.db_offset + 4096, 4096, PROT_READ | PROT_WRITE);
	CHECK(p == MAP_FAILED, "the doorbell of a queue that is no user queue of this file was mapped");
	if (p != MAP_FAILED)
		munmap(p, 4096);
	/* from another open file */
	f2 = open_node();
	p = db_map(f2, q.db_offset, 4096, PROT_READ | PROT_WRITE);
	CHECK(p == MAP_FAILED, "another open file mapped the doorbell");
	if (p != MAP_FAILED)
		munmap(p, 4096);
	close(f2);
	p = mremap((void *)q.db, 4096, 8192, MREMAP_MAYMOVE);
	CHECK(p == MAP_FAILED, "the doorbell mapping grew to two pages (mremap)");
	CHECK(q.db[SIMT_DBREG_HEAD / 4] == 0, "HEAD of a new user queue reads %u",
	      q.db[SIMT_DBREG_HEAD / 4]);
	CHECK(user_queues_listed() == 1, "debugfs contexts lists %d user queues, not the one there is",
	      user_queues_listed());
	uq_free(&q);
	ctx_destroy(q.ctx);
	bo_close(q.ring_h);
	CHECK(user_queues_listed() == 0, "debugfs contexts lists %d user queues after the only one was destroyed",
	      user_queues_listed());
	printf("doorbell mapping checks done\n");
}

static void userq_vecadd(void)
{
	const uint32_t n = 4096, threads = 128, launches = 60, per_round = 3;
	const uint32_t grid[3] = { n / threads, 1, 1 }, block[3] = { threads, 1, 1 };
	struct drm_simt_userq_wait w;
	struct drm_simt_cmd cmd, acc;
	uint32_t ha, hb, hc, a, b, c, hl = 0, hl2 = 0, i, bad, done;
	float *ma, *mb, *mc;
	struct kimg ki;
	struct uq q;
	uint64_t v;
	int r;

	/* The context's module and buffers first, through SUBMIT; then the queue. */
	uq_ring_new(&q, ctx_new(DRM_SIMT_PRIORITY_NORMAL), 8);
	if (kimg_load(&ki, "samples.elf", q.ctx))
		return;
	ma = vbuf(q.ctx, n * 4, &ha, &a);
	mb = vbuf(q.ctx, n * 4, &hb, &b);
	mc = vbuf(q.ctx, n * 4, &hc, &c);
	for (i = 0; i < n; i++) {
		ma[i] = i;
		mb[i] = 1.0f + (i & 7);
		mc[i] = -1.0f;
	}
	if (kimg_cmd(&ki, q.ctx, "vecadd", grid, block,
		     (const uint32_t[8]){ a, b, c, n }, &cmd, &hl) ||
	    kimg_cmd(&ki, q.ctx, "vecadd", grid, block,
		     (const uint32_t[8]){ a, b, a, n }, &acc, &hl2))
		return;
	/* after loading a module through SUBMIT */
	if (uq_start(&q))
		return;

	/* c = a + b, then USERQ_WAIT woken by the SIGNAL's interrupt */
	uq_launch(&q, &cmd);
	v = uq_signal(&q, 0, SIMT_CMDF_IRQ);
	uq_ring(&q);
	r = uq_wait(&q, v, 10 * SEC_NS, &w);
	CHECK(r == 0 && w.error == DRM_SIMT_ERROR_NONE && *q.fence == v,
	      "USERQ_WAIT for the launch: %s, error %u, hw_error %u, fence %llu",
	      strerror(-r), w.error, w.hw_error, (unsigned long long)*q.fence);
	for (i = 0, bad = 0; i < n; i++)
		if (mc[i] != ma[i] + mb[i] && !bad++)
			FAIL("c[%u] = %g, expected %g", i, mc[i], ma[i] + mb[i]);
	printf("vecadd through a user queue: %u of %u wrong\n", bad, n);
	CHECK(q.db[SIMT_DBREG_HEAD / 4] == q.tail, "HEAD %u after the launch, tail %u",
	      q.db[SIMT_DBREG_HEAD / 4], q.tail);

	/*
	 * a += b, 60 times, three launches (six entries of eight) at a time,
	 * polled: the ring wraps 22 times.
	 */
	for (done = 0; done < launches; done += per_round) {
		for (i = 0; i < per_round; i++) {
			uq_launch(&q, &acc);
			v = uq_signal(&q, 0, 0);
		}
		uq_ring(&q);
		if (uq_poll(&q, v, 10)) {
			FAIL("fence %llu, waiting for %llu after %u launches",
			     (unsigned long long)*q.fence, (unsigned long long)v, done);
			break;
		}
	}
	for (i = 0, bad = 0; i < n; i++) {
		float want = i + (float)launches * (1.0f + (i & 7));

		if (ma[i] != want && !bad++)
			FAIL("a[%u] = %g after %u launches, expected %g", i, ma[i],
			     launches, want);
	}
	printf("%u launches accumulating through a ring of %u entries: %u of %u wrong\n",
	       launches, q.entries, bad, n);
	r = uq_wait(&q, v, 0, &w);
	CHECK(r == 0 && w.error == DRM_SIMT_ERROR_NONE, "USERQ_WAIT at the end: %s, error %u",
	      strerror(-r), w.error);

	uq_free(&q);
	munmap(ma, n * 4);
	munmap(mb, n * 4);
	munmap(mc, n * 4);
	kimg_free(&ki);
	ctx_destroy(q.ctx);
	bo_close(ha);
	bo_close(hb);
	bo_close(hc);
	if (hl)
		bo_close(hl);
	if (hl2)
		bo_close(hl2);
	bo_close(q.ring_h);
}

void test_userq(void)
{
	if (!(get_param(DRM_SIMT_PARAM_CAPS) & DRM_SIMT_CAP_USER_QUEUES)) {
		FAIL("the device has no user queues (caps 0x%llx)",
		     (unsigned long long)get_param(DRM_SIMT_PARAM_CAPS));
		return;
	}
	userq_create_checks();
	userq_doorbell_checks();
	userq_vecadd();
}

/* ---- userq-errors: host copies, SIGNAL off the address space ---- */

/*
 * A 4 KiB COPY of @flags from @src to @dst through @q, then a SIGNAL of
 * the next fence value (*@v): USERQ_WAIT's result for it, in @w.
 */
static int uq_copy_wait(struct uq *q, uint32_t flags, uint64_t src,
			uint64_t dst, uint64_t *v, struct drm_simt_userq_wait *w)
{
	struct simt_cmd_copy c;

	memset(&c, 0, sizeof(c));
	c.opcode = SIMT_CMD_COPY;
	c.flags = flags;
	c.src = src;
	c.dst = dst;
	c.size = 4096;
	uq_put(q, &c);
	*v = uq_signal(q, 0, SIMT_CMDF_IRQ);
	uq_ring(q);
	return uq_wait(q, *v, 10 * SEC_NS, w);
}

/* A COPY of @flags from @src to @dst stops the queue as privileged. */
static void privileged_copy(uint32_t flags, uint64_t src, uint64_t dst)
{
	struct drm_simt_userq_wait w;
	struct uq q;
	uint64_t v;
	int r;

	if (uq_new(&q, 16))
		return;
	r = uq_copy_wait(&q, flags, src, dst, &v, &w);
	CHECK(r == 0 && w.error == DRM_SIMT_ERROR_DEVICE &&
	      w.hw_error == SIMT_QERR_PRIVILEGED && *q.fence < v,
	      "COPY flags 0x%x in a user queue: %s, error %u, hw_error %u (want %u), fence %llu",
	      flags, strerror(-r), w.error, w.hw_error, SIMT_QERR_PRIVILEGED,
	      (unsigned long long)*q.fence);
	uq_free(&q);
	ctx_destroy(q.ctx);
	bo_close(q.ring_h);
}

void test_userq_errors(void)
{
	struct drm_simt_userq_wait w;
	struct drm_simt_cmd copy;
	uint8_t *m, want[4096];
	uint32_t h, other, h2;
	uint64_t va, v;
	struct uq q;
	int r;

	/* Guest memory named by the process: refused, nothing copied. */
	h = bo_new(4096, DRM_SIMT_BO_SYSTEM);
	m = bo_map(h, 4096);
	fill(m, 4096, 7);
	memcpy(want, m, sizeof(want));
	/* device addresses of no binding: the flag is refused before them */
	va = bo_info(h).device_addr;
	privileged_copy(SIMT_CMDF_SRC_HOST, 0x100000, va);
	privileged_copy(SIMT_CMDF_DST_HOST, va, 0x100000);
	printf("COPY with SRC_HOST and DST_HOST refused (SIMT_QERR_PRIVILEGED)\n");
	/* the same copy into an object bound in the queue's context */
	if (!uq_new(&q, 16)) {
		va = bind(q.ctx, h);
		r = uq_copy_wait(&q, SIMT_CMDF_SRC_HOST, 0x100000, va, &v, &w);
		CHECK(r == 0 && w.error == DRM_SIMT_ERROR_DEVICE &&
		      w.hw_error == SIMT_QERR_PRIVILEGED,
		      "COPY from guest memory into a bound object: %s, error %u, hw_error %u",
		      strerror(-r), w.error, w.hw_error);
		CHECK(!memcmp(m, want, sizeof(want)),
		      "a refused copy from guest memory changed the bound object");
		uq_free(&q);
		ctx_destroy(q.ctx);
		bo_close(q.ring_h);
	}

	/* A SIGNAL to an address the context has not bound faults it ... */
	other = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	h2 = bo_new(8192, DRM_SIMT_BO_VRAM);
	bind(other, h2);
	if (!uq_new(&q, 16)) {
		/* a megabyte past the ring, the context's only binding */
		const uint64_t unbound = q.ring_va + (1 << 20);

		uq_signal(&q, unbound, SIMT_CMDF_IRQ);
		v = uq_signal(&q, 0, SIMT_CMDF_IRQ);
		uq_ring(&q);
		r = uq_wait(&q, v, 10 * SEC_NS, &w);
		CHECK(r == 0 && w.error == DRM_SIMT_ERROR_FAULT &&
		      w.hw_error == SIMT_QERR_MMU && w.fault_addr == unbound &&
		      *q.fence < v,
		      "SIGNAL to unbound 0x%llx: %s, error %u, hw_error %u (want %u), fault 0x%llx, fence %llu",
		      (unsigned long long)unbound, strerror(-r), w.error, w.hw_error,
		      SIMT_QERR_MMU, (unsigned long long)w.fault_addr,
		      (unsigned long long)*q.fence);
		/* ... and no other: a copy on another context runs. */
		copy = copy_cmd(h2, 0, h2, 4096, 4096);
		run(other, &copy, 1);
		uq_free(&q);
		ctx_destroy(q.ctx);
		bo_close(q.ring_h);
		printf("SIGNAL to an unbound address faults its context, not the others\n");
	}
	ctx_destroy(other);
	bo_close(h2);
	munmap(m, 4096);
	bo_close(h);
}

/* ---- userq-destroy: a running queue destroyed; its doorbell gone ---- */

void test_userq_destroy(void)
{
	const uint32_t per_ctx = 3;
	struct drm_simt_userq_wait w;
	struct spinjob j;
	struct uq q, again[3];
	uint32_t i;
	int r;

	/* spin, held running, then destroy while it runs */
	uq_ring_new(&q, ctx_new(DRM_SIMT_PRIORITY_NORMAL), 16);
	if (spin_held_setup(&j, q.ctx, 4, 64, 1))
		return;
	if (uq_start(&q))
		return;
	uq_launch(&q, &j.cmd);
	uq_signal(&q, 0, SIMT_CMDF_IRQ);
	uq_ring(&q);
	spin_resident(&j, 4);
	r = uq_wait(&q, 1, 0, &w);
	CHECK(r == -ETIME, "the held spin kernel is not running once its blocks started: %s",
	      strerror(-r));
	CHECK(ctx_destroy(q.ctx) == 0, "CONTEXT_DESTROY with a kernel running");
	CHECK(store_kills(q.db), "a store to the doorbell after CONTEXT_DESTROY did not get SIGBUS/SIGSEGV");
	spin_free(&j, 0);
	munmap((void *)q.db, 4096);
	munmap(q.ring, 16 * SIMT_CMD_SIZE + 4096);
	bo_close(q.ring_h);

	/* The queues come back: user queues on new contexts work. */
	for (i = 0; i < per_ctx; i++) {
		uint64_t v;

		if (uq_new(&again[i], 16))
			return;
		v = uq_signal(&again[i], 0, SIMT_CMDF_IRQ);
		uq_ring(&again[i]);
		r = uq_wait(&again[i], v, 10 * SEC_NS, &w);
		CHECK(r == 0 && w.error == DRM_SIMT_ERROR_NONE && *again[i].fence == v,
		      "new user queue %u: %s, error %u, fence %llu", i, strerror(-r),
		      w.error, (unsigned long long)*again[i].fence);
	}
	for (i = 0; i < per_ctx; i++) {
		uq_free(&again[i]);
		ctx_destroy(again[i].ctx);
		bo_close(again[i].ring_h);
	}
	/*
	 * A doorbell mapped but never touched: its page goes in at the first
	 * access, and after the destroy there is none to go in.
	 */
	if (uq_new(&q, 16))
		return;
	CHECK(ctx_destroy(q.ctx) == 0, "destroy of the untouched doorbell's context");
	CHECK(store_kills(q.db),
	      "a first store to a doorbell mapped before CONTEXT_DESTROY did not get SIGBUS/SIGSEGV");
	uq_free(&q);
	bo_close(q.ring_h);
	printf("a running user queue destroyed, its doorbell gone; %u new ones work; "
	       "a doorbell mapped, never touched, then destroyed is SIGBUS\n", per_ctx);
}

/* ---- userq-hang: the watchdog stops a user queue that hangs ---- */

/*
 * Ring @q, whose commands never end (@what), and check that the watchdog
 * stops it, not before the 200 ms job timeout, with its fence untouched.
 */
static void expect_watchdog(struct uq *q, const char *what)
{
	struct drm_simt_userq_wait w;
	double t0 = now_s(), t;
	int r;

	uq_ring(q);
	r = uq_wait(q, 1, 30 * SEC_NS, &w);
	t = now_s() - t0;
	CHECK(r == 0 && w.error == DRM_SIMT_ERROR_TIMEOUT && *q->fence == 0,
	      "%s in a user queue: %s, error %u, fence %llu after %.2f s",
	      what, strerror(-r), w.error, (unsigned long long)*q->fence, t);
	CHECK(t >= 0.2, "stopped after %.3f s, before the 200 ms job timeout", t);
	if (w.error == DRM_SIMT_ERROR_TIMEOUT)
		printf("%s in a user queue stopped by the watchdog after %.2f s\n", what, t);
}

void test_userq_hang(void)
{
	struct spinjob j;
	struct uq q;

	if (test_set_timeout("200"))
		return;
	uq_ring_new(&q, ctx_new(DRM_SIMT_PRIORITY_NORMAL), 16);
	if (spin_setup(&j, q.ctx, 4, 64, 0xffffffffu))
		goto out_spin;
	if (uq_start(&q)) {
		FAIL("no user queue to hang");
		goto out_spin;
	}
	uq_launch(&q, &j.cmd);
	uq_signal(&q, 0, SIMT_CMDF_IRQ);
	expect_watchdog(&q, "an endless kernel");
out_spin:
	ctx_destroy(q.ctx);
	spin_free(&j, 0);
	uq_free(&q);
	bo_close(q.ring_h);

	/*
	 * A WAIT that nothing satisfies holds the queue and keeps the
	 * device's engine polling, though no SM: it counts as running.
	 */
	if (uq_new(&q, 16) == 0) {
		struct simt_cmd_wait hold;

		memset(&hold, 0, sizeof(hold));
		hold.opcode = SIMT_CMD_WAIT;
		hold.addr = q.fence_va + 8;	/* a word nothing writes */
		hold.value = 1;
		uq_put(&q, &hold);
		uq_signal(&q, 0, SIMT_CMDF_IRQ);
		expect_watchdog(&q, "a WAIT that nothing satisfies");
		ctx_destroy(q.ctx);
		uq_free(&q);
		bo_close(q.ring_h);
	}
	test_restore_timeout();
}

/*
 * ---- userq-retract: a user queue whose TAIL goes back to HEAD while
 * its command runs is still watched ----
 *
 * An unprivileged process takes every SM with an endless kernel of a
 * NONE-mode context (never preempted), then stores TAIL = HEAD, so that
 * the ring looks empty while the kernel runs.  The watchdog must still
 * stop it after job_timeout_ms of running time, and root's REALTIME
 * launch, which waits for the NONE kernel's blocks, must then run.
 */
static int retract_as_user(int ready)
{
	uint32_t sms = get_param(DRM_SIMT_PARAM_SM_COUNT);
	uint32_t per_sm = get_param(DRM_SIMT_PARAM_SM_BLOCKS);
	uint32_t threads = get_param(DRM_SIMT_PARAM_SM_THREADS) / per_sm;
	struct drm_simt_context_create c = {
		.priority = DRM_SIMT_PRIORITY_NORMAL,
		.preempt_mode = DRM_SIMT_PREEMPT_NONE,
	};
	struct drm_simt_userq_wait w;
	struct spinjob j;
	struct uq q;
	uint32_t head;
	int r;

	if (setgid(65534) || setuid(65534)) {
		printf("cannot become uid 65534: %s\n", strerror(errno));
		return 1;
	}
	r = xioctl(fd, DRM_IOCTL_SIMT_CONTEXT_CREATE, &c);
	CHECK(r == 0, "CONTEXT_CREATE preempt NONE as a user: %s", strerror(-r));
	if (r)
		return 1;
	uq_ring_new(&q, c.ctx_id, 16);
	if (spin_held_setup(&j, q.ctx, sms * per_sm, threads, 1) || uq_start(&q))
		return 1;
	uq_launch(&q, &j.cmd);
	uq_signal(&q, 0, SIMT_CMDF_IRQ);
	uq_ring(&q);
	if (spin_resident(&j, sms * per_sm))
		return 1;
	head = q.db[SIMT_DBREG_HEAD / 4];
	q.db[SIMT_DBREG_TAIL / 4] = head;
	printf("user: %u blocks of %u threads on every SM, TAIL set back to HEAD %u\n",
	       sms * per_sm, threads, head);
	CHECK(write(ready, "r", 1) == 1, "telling root: %s", strerror(errno));
	r = uq_wait(&q, 1, 60 * SEC_NS, &w);
	CHECK(r == 0 && w.error == DRM_SIMT_ERROR_TIMEOUT,
	      "the retracted queue: %s, error %u (want %u, a timeout)",
	      strerror(-r), w.error, DRM_SIMT_ERROR_TIMEOUT);
	return failures ? 1 : 0;
}

void test_userq_retract(void)
{
	struct drm_simt_wait w;
	struct spinjob rt;
	int ready[2], status, f, old;
	uint32_t ctx;
	uint64_t seq;
	double t0, t;
	char byte;
	pid_t pid;
	int r;

	if (test_set_timeout("200"))
		return;
	if (pipe(ready)) {
		FAIL("pipe: %s", strerror(errno));
		goto out;
	}
	f = open_node();
	pid = fork();
	if (pid == 0) {
		close(ready[0]);
		use_fd(f);
		_exit(retract_as_user(ready[1]));
	}
	close(ready[1]);
	close(f);
	if (pid < 0 || read(ready[0], &byte, 1) != 1) {
		FAIL("the user's process did not take the SMs");
		goto out_child;
	}
	ctx = ctx_new(DRM_SIMT_PRIORITY_REALTIME);
	if (spin_setup(&rt, ctx, 1, 32, 1000))
		goto out_child;
	t0 = now_s();
	r = submit(ctx, &rt.cmd, 1, &seq);
	CHECK(r == 0, "SUBMIT at realtime: %s", strerror(-r));
	r = r ? r : wait_seq(ctx, seq, 30 * SEC_NS, &w);
	t = now_s() - t0;
	CHECK(r == 0 && w.error == DRM_SIMT_ERROR_NONE,
	      "root's realtime launch behind the retracted queue: %s, error %u after %.2f s",
	      strerror(-r), r ? 0 : w.error, t);
	if (r == 0 && w.error == DRM_SIMT_ERROR_NONE)
		printf("root's realtime launch ended %.2f s after the user's queue was retracted\n",
		       t);
	spin_free(&rt, 1);
	ctx_destroy(ctx);
out_child:
	if (pid > 0) {
		/* Its USERQ_WAIT returns once the queue stopped. */
		t0 = now_s();
		while ((old = waitpid(pid, &status, WNOHANG)) == 0 &&
		       now_s() - t0 < 30)
			usleep(10000);
		if (old == 0) {
			/* Ends the user's queue if the watchdog did not. */
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			FAIL("the user's process still waited; killed");
		} else {
			CHECK(old == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
			      "the user's process failed");
		}
	}
	close(ready[0]);
out:
	test_restore_timeout();
}

/*
 * ---- fair-userq: the fair-share policy holds user queues too.  fair's
 * experiment (sched.c) with the high-priority stream in a user queue:
 * FAIR_UQ_HP spin kernels filling every block slot, each followed by a
 * SIGNAL of its number, all in the ring at once (no gap however slow
 * the process), and one low-priority spin kernel of the same shape
 * submitted once the first of the stream has ended.  With "priority" it
 * ends behind the whole stream; with "fair-share" (starve_ms 10,
 * share_ms 20) the driver lowers the user queue's priority to its own
 * for a hold, the device runs the older low-priority kernel first, and
 * it ends early.  On the virtual clock (make check's vclock boot), where
 * every run is the same. ----
 */
#define FAIR_UQ_HP 40

/* One run: how many of the stream had ended when the low one had. */
static int fair_userq_run(const char *policy, uint64_t *hp_before, long long *holds)
{
	uint32_t sms = get_param(DRM_SIMT_PARAM_SM_COUNT);
	uint32_t slots = get_param(DRM_SIMT_PARAM_SM_BLOCKS);
	long long st0[ST_NR], st1[ST_NR];
	struct drm_simt_userq_wait uw;
	struct spinjob jh, jl;
	struct drm_simt_wait w;
	uint32_t lp, i;
	uint64_t lseq;
	struct uq q;
	int ok = 0;

	*hp_before = 0;
	*holds = -1;
	if (mod_param_set("sched_policy", policy) || stats_read(st0))
		return -1;
	uq_ring_new(&q, ctx_new(DRM_SIMT_PRIORITY_HIGH), 128);	/* 2 * FAIR_UQ_HP, rounded up */
	lp = ctx_new(DRM_SIMT_PRIORITY_LOW);
	if (spin_setup(&jh, q.ctx, sms * slots, 32, 30000) ||
	    spin_setup(&jl, lp, sms * slots, 32, 30000) || uq_start(&q))
		goto out;
	for (i = 0; i < FAIR_UQ_HP; i++) {
		uq_launch(&q, &jh.cmd);
		uq_signal(&q, 0, i + 1 == FAIR_UQ_HP ? SIMT_CMDF_IRQ : 0);
	}
	uq_ring(&q);
	CHECK(uq_poll(&q, 1, 60) == 0, "%s: the stream's first kernel did not end", policy);
	CHECK(submit(lp, &jl.cmd, 1, &lseq) == 0, "%s: submit the low-priority kernel", policy);
	CHECK(wait_seq(lp, lseq, 120 * SEC_NS, &w) == 0 && !w.error,
	      "%s: the low-priority kernel", policy);
	*hp_before = *q.fence;
	CHECK(uq_wait(&q, FAIR_UQ_HP, 120 * SEC_NS, &uw) == 0 && !uw.error &&
	      *q.fence == FAIR_UQ_HP, "%s: the user queue's stream: error %u, fence %llu",
	      policy, uw.error, (unsigned long long)*q.fence);
	CHECK(spin_wrong(&jh, 1) + spin_wrong(&jl, 1) == 0, "%s: wrong results", policy);
	if (stats_read(st1) == 0)
		*holds = st1[ST_FAIR_HOLDS] - st0[ST_FAIR_HOLDS];
	ok = 1;
out:
	ctx_destroy(q.ctx);
	spin_free(&jh, 0);
	spin_free(&jl, 1);
	ctx_destroy(lp);
	uq_free(&q);
	bo_close(q.ring_h);
	return ok ? 0 : -1;
}

void test_fair_userq(void)
{
	char old[32] = "", starve[16] = "", share[16] = "";
	uint64_t prio_before, fair_before;
	long long prio_holds, fair_holds;

	mod_param_get("sched_policy", old, sizeof(old));
	mod_param_get("starve_ms", starve, sizeof(starve));
	mod_param_get("share_ms", share, sizeof(share));
	CHECK(mod_param_set("starve_ms", "10") == 0 && mod_param_set("share_ms", "20") == 0,
	      "cannot set starve_ms, share_ms");
	if (!fair_userq_run("priority", &prio_before, &prio_holds) &&
	    !fair_userq_run("fair-share", &fair_before, &fair_holds)) {
		printf("low-priority kernel behind %llu of %u kernels of a user queue with priority "
		       "(%lld holds), behind %llu with fair-share (%lld holds)\n",
		       (unsigned long long)prio_before, FAIR_UQ_HP, prio_holds,
		       (unsigned long long)fair_before, fair_holds);
		CHECK(prio_holds == 0 && prio_before == FAIR_UQ_HP,
		      "priority: behind %llu of %u, %lld holds (want all, and none)",
		      (unsigned long long)prio_before, FAIR_UQ_HP, prio_holds);
		CHECK(fair_holds >= 1 && 2 * fair_before < FAIR_UQ_HP,
		      "fair-share: behind %llu of %u, %lld holds (want fewer than half, and a hold)",
		      (unsigned long long)fair_before, FAIR_UQ_HP, fair_holds);
	}
	CHECK(mod_param_set("sched_policy", old[0] ? old : "priority") == 0 &&
	      mod_param_set("starve_ms", starve[0] ? starve : "100") == 0 &&
	      mod_param_set("share_ms", share[0] ? share : "20") == 0,
	      "cannot restore the scheduling parameters");
}
