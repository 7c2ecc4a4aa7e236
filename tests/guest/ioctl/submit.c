// SPDX-License-Identifier: MIT
/*
 * submit.c: simt-ioctl-test's groups on SUBMIT and WAIT and their
 * fences: submit-bad (every bad argument), fault (a device MMU fault
 * stops its context only), syncobj, infence (fences of another file) and
 * signal (WAIT under signals).
 */
#include "ioctl-test.h"

/* ---- submit-bad: every bad SUBMIT and WAIT argument ---- */
void test_submit_bad(void)
{
	uint32_t max_cmds = get_param(DRM_SIMT_PARAM_MAX_SUBMIT_CMDS);
	struct drm_simt_cmd cmd, *many;
	long long st0[ST_NR] = { 0 };
	struct drm_simt_submit sb;
	struct drm_simt_wait w;
	uint32_t ctx, v, v2;
	uint64_t seq;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	v = bo_new(8192, DRM_SIMT_BO_VRAM);
	v2 = bo_new(8192, DRM_SIMT_BO_SYSTEM);
	bind(ctx, v);
	cmd = copy_cmd(v2, 0, v, 0, 8192);

#define SB(...) (sb = (struct drm_simt_submit){ .ctx_id = ctx, \
	.cmds = (uintptr_t)&cmd, .cmd_count = 1, .cmd_size = sizeof(cmd), \
	__VA_ARGS__ }, &sb)
	/* 1 is DRM_SIMT_SUBMIT_FENCE_FD since 0.3 */
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.flags = DRM_SIMT_SUBMIT_FENCE_FD << 1), EINVAL);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.cmd_count = max_cmds + 1), EINVAL);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.cmds = 0), EFAULT);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.cmds = 16), EFAULT);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.ctx_id = 999), ENOENT);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.pad = 1), EINVAL);
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.syncobj = 999), ENOENT);
	/* Input fences (since 0.3) */
	{
		uint32_t so = syncobj_new();
		struct drm_simt_sync in[2] = { { .handle = so } };

		EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.in_syncs = (uintptr_t)in,
						 .in_sync_count = max_cmds + 1), EINVAL);
		EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.in_syncs = 16, .in_sync_count = 1),
		       EFAULT);
		in[0] = (struct drm_simt_sync){ .handle = 999 };
		EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.in_syncs = (uintptr_t)in,
						 .in_sync_count = 1), ENOENT);
		in[0] = (struct drm_simt_sync){ .handle = so, .flags = 1 };
		EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.in_syncs = (uintptr_t)in,
						 .in_sync_count = 1), EINVAL);
		/* a timeline point that has no fence yet */
		in[0] = (struct drm_simt_sync){ .handle = so, .point = 7 };
		EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(.in_syncs = (uintptr_t)in,
						 .in_sync_count = 1), EINVAL);
		syncobj_free(so);
	}

#define CMD_EXPECT(err, field, value) do { \
	cmd = copy_cmd(v2, 0, v, 0, 8192); \
	cmd.field = value; \
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(), err); \
} while (0)
	CMD_EXPECT(EINVAL, type, 7);				/* unknown type */
	CMD_EXPECT(EINVAL, type, 0);
	CMD_EXPECT(EINVAL, flags, 1);
	CMD_EXPECT(EINVAL, reserved[13], 1);			/* past the copy */
	CMD_EXPECT(ENOENT, copy.src_handle, 999);
	CMD_EXPECT(ENOENT, copy.dst_handle, 999);
	CMD_EXPECT(EINVAL, copy.src_offset, 1);			/* past the end */
	CMD_EXPECT(EINVAL, copy.dst_offset, 8192);
	CMD_EXPECT(EINVAL, copy.size, 8193);
	cmd = copy_cmd(v2, ~0ull, v, 0, 2);			/* wraps */
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(), EINVAL);
	cmd = copy_cmd(v, 0, v, 4095, 4097);			/* overlaps */
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(), EINVAL);
	cmd = copy_cmd(v, 0, v, 4096, 4096);			/* does not */
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, SB(), 0);
	CHECK(sb.seqno == 1, "refused submissions used seqnos: first is %llu",
	      (unsigned long long)sb.seqno);
	CHECK(sb.fence_fd == -1, "fence_fd %d without DRM_SIMT_SUBMIT_FENCE_FD",
	      sb.fence_fd);
	/* Done and counted before the statistics are read below. */
	CHECK(wait_seq(ctx, sb.seqno, 10 * SEC_NS, &w) == 0 && !w.error,
	      "WAIT for the first submission");

	/* The maximum number of commands is accepted. */
	many = calloc(max_cmds, sizeof(*many));
	for (uint32_t i = 0; i < max_cmds; i++)
		many[i] = copy_cmd(v2, i * 8, v, i * 8, 8);
	CHECK(stats_read(st0) == 0, "stats");
	seq = run(ctx, many, max_cmds);
	CHECK(seq == 2, "seqno %llu", (unsigned long long)seq);
	{
		/* Copies only: their bytes count, no kernel. */
		long long d[ST_NR] = { 1, 1, 0, 0, 0, 8ll * max_cmds, 0, 0, -1 };

		stats_expect("copies", st0, d);
	}
	free(many);

	CHECK(wait_seq(ctx, 0, 0, &w) == -EINVAL, "WAIT seqno 0");
	CHECK(wait_seq(ctx, seq + 1, 0, &w) == -EINVAL, "WAIT of a seqno not handed out");
	CHECK(wait_seq(ctx, seq, -1, &w) == -EINVAL, "WAIT with a negative timeout");
	CHECK(wait_seq(999, seq, 0, &w) == -ENOENT, "WAIT on no context");
	/* 1 is DRM_SIMT_WAIT_ABSOLUTE since 0.3: a deadline long past polls */
	w = (struct drm_simt_wait){ .ctx_id = ctx, .seqno = seq,
				    .flags = DRM_SIMT_WAIT_ABSOLUTE << 1 };
	EXPECT(DRM_IOCTL_SIMT_WAIT, &w, EINVAL);
	w = (struct drm_simt_wait){ .ctx_id = ctx, .seqno = seq,
				    .flags = DRM_SIMT_WAIT_ABSOLUTE, .timeout_ns = 1 };
	EXPECT(DRM_IOCTL_SIMT_WAIT, &w, 0);
	CHECK(w.error == 0, "absolute WAIT: error %u", w.error);
	w = (struct drm_simt_wait){ .ctx_id = ctx, .seqno = seq, .pad = 1 };
	EXPECT(DRM_IOCTL_SIMT_WAIT, &w, EINVAL);
	CHECK(wait_seq(ctx, seq, 0, &w) == 0 && !w.error, "WAIT after all that");
	CHECK(!w.start_cycle && !w.end_cycle && !w.fault_pc,
	      "a submission without launches has cycles %llu..%llu, pc 0x%x",
	      (unsigned long long)w.start_cycle, (unsigned long long)w.end_cycle,
	      w.fault_pc);
	printf("bad SUBMIT and WAIT arguments refused; the context still works\n");

	/*
	 * cmd_size (since 0.3): the stride of the commands, any multiple of 8
	 * from 8 to 4096.  A 0.2 caller's 120 bytes read as zero-filled; a
	 * larger stride is fine if its tail is zero, E2BIG if not.  Two copies
	 * per submission, so that the stride really is used: v2's two halves
	 * to t's, swapped.
	 */
	{
		static const uint32_t good_sizes[] = { 120, 136, 144, 4096 };
		static const uint32_t bad_sizes[] = { 0, 7, 12, 4100, 4104, 8192 };
		uint8_t *raw = calloc(2, 4096), *ms = bo_map(v2, 8192), *mt, *want;
		uint32_t t = bo_new(8192, DRM_SIMT_BO_SYSTEM);
		struct drm_simt_cmd c2[2] = {
			copy_cmd(v2, 0, t, 4096, 4096), copy_cmd(v2, 4096, t, 0, 4096),
		};
		unsigned int j;

		mt = bo_map(t, 8192);
		want = malloc(8192);
		fill(ms, 8192, 21);
		memcpy(want, ms + 4096, 4096);
		memcpy(want + 4096, ms, 4096);
		for (j = 0; j < ARRAY_SIZE(good_sizes); j++) {
			uint32_t sz = good_sizes[j];

			memset(raw, 0, 2 * 4096);
			memset(mt, 0, 8192);
			memcpy(raw, &c2[0], sz < sizeof(c2[0]) ? sz : sizeof(c2[0]));
			memcpy(raw + sz, &c2[1], sz < sizeof(c2[1]) ? sz : sizeof(c2[1]));
			sb = (struct drm_simt_submit){ .ctx_id = ctx,
				.cmds = (uintptr_t)raw, .cmd_count = 2, .cmd_size = sz };
			EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, 0);
			if (sb.seqno && wait_seq(ctx, sb.seqno, 10 * SEC_NS, &w) == 0 &&
			    !w.error) {
				if (same("copies at a command stride", mt, want, 8192))
					printf("cmd_size %u: two copies done\n", sz);
			} else {
				FAIL("cmd_size %u: the copies did not complete", sz);
			}
			sb.seqno = 0;
		}
		/* A nonzero byte in the tail of either command. */
		for (j = 0; j < 2; j++) {
			memset(raw, 0, 2 * 4096);
			memcpy(raw, &c2[0], sizeof(c2[0]));
			memcpy(raw + 144, &c2[1], sizeof(c2[1]));
			raw[j * 144 + 143 - j * 7] = 1;
			sb = (struct drm_simt_submit){ .ctx_id = ctx,
				.cmds = (uintptr_t)raw, .cmd_count = 2, .cmd_size = 144 };
			EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, E2BIG);
		}
		for (j = 0; j < ARRAY_SIZE(bad_sizes); j++) {
			sb = (struct drm_simt_submit){ .ctx_id = ctx,
				.cmds = (uintptr_t)raw, .cmd_count = 1,
				.cmd_size = bad_sizes[j] };
			if (xioctl(fd, DRM_IOCTL_SIMT_SUBMIT, &sb) != -EINVAL)
				FAIL("cmd_size %u was not refused with EINVAL",
				     bad_sizes[j]);
		}
		printf("cmd_size 120, 136, 144 and 4096 accepted, a nonzero tail E2BIG, 0, 7, 12, 4100, 4104, 8192 EINVAL\n");
		munmap(ms, 8192);
		munmap(mt, 8192);
		bo_close(t);
		free(raw);
		free(want);
	}
	bo_close(v);
	bo_close(v2);
	CHECK(ctx_destroy(ctx) == 0, "destroy");
}

/* ---- fault: a copy through an unbound address stops its context only ---- */
void test_fault(void)
{
	const uint64_t size = 1 << 20;
	struct drm_simt_cmd cmd;
	struct drm_simt_wait w;
	uint32_t c1, c2, a, b, s, c3;
	uint64_t seq1, seq2, seq, addr_b;
	uint8_t *ms, *mb, *want;
	int r;

	c1 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	c2 = ctx_new(DRM_SIMT_PRIORITY_HIGH);
	a = bo_new(size, DRM_SIMT_BO_VRAM);
	b = bo_new(size, DRM_SIMT_BO_VRAM);
	s = bo_new(size, DRM_SIMT_BO_SYSTEM);
	bind(c1, a);
	addr_b = bind(c2, b);	/* b is not bound in c1 */

	cmd = copy_cmd(s, 0, a, 0, size);
	CHECK(submit(c1, &cmd, 1, &seq1) == 0, "submit 1");
	cmd = copy_cmd(b, 0, s, 0, size);	/* reads c2's object from c1 */
	CHECK(submit(c1, &cmd, 1, &seq2) == 0, "submit 2");

	r = wait_seq(c1, seq2, 10 * SEC_NS, &w);
	printf("wait for the faulting copy: %d, error %u, hw_error %u, fault at 0x%llx (object at 0x%llx)\n",
	       r, w.error, w.hw_error, (unsigned long long)w.fault_addr,
	       (unsigned long long)addr_b);
	CHECK(r == 0 && w.error == DRM_SIMT_ERROR_FAULT, "fault not reported");
	CHECK(w.fault_addr == addr_b, "fault address");
	CHECK(w.hw_error != 0, "no device error code");
	CHECK(wait_seq(c1, seq1, 0, &w) == 0 && w.error == DRM_SIMT_ERROR_NONE,
	      "the submission before the fault did not complete cleanly");
	CHECK(submit(c1, &cmd, 1, &seq) == -EIO, "a stopped context took work");

	/* The other context is not disturbed. */
	ms = bo_map(s, size);
	mb = bo_map(b, size);
	want = malloc(size);
	fill(want, size, 3);
	memcpy(ms, want, size);
	cmd = copy_cmd(s, 0, b, 0, size);
	run(c2, &cmd, 1);
	same("copy on the other context", mb, want, size);

	/* An unbound object faults too; a new context works at once. */
	CHECK(ctx_destroy(c1) == 0, "destroy");
	c3 = ctx_new(DRM_SIMT_PRIORITY_LOW);
	bind(c3, a);
	{
		struct drm_simt_vm_unbind u = { .ctx_id = c3, .handle = a };

		EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, 0);
	}
	cmd = copy_cmd(s, 0, a, 0, size);
	CHECK(submit(c3, &cmd, 1, &seq) == 0, "submit");
	CHECK(wait_seq(c3, seq, 10 * SEC_NS, &w) == 0 &&
	      w.error == DRM_SIMT_ERROR_FAULT &&
	      w.fault_addr == bo_info(a).device_addr,
	      "copy to an unbound object: error %u at 0x%llx", w.error,
	      (unsigned long long)w.fault_addr);

	/* Destroying a context with work queued is clean. */
	cmd = copy_cmd(s, 0, b, 0, size);
	for (int i = 0; i < 20; i++)
		CHECK(submit(c2, &cmd, 1, &seq) == 0, "submit %d", i);
	CHECK(ctx_destroy(c2) == 0 && ctx_destroy(c3) == 0, "destroy");
	munmap(ms, size);
	munmap(mb, size);
	bo_close(a);
	bo_close(b);
	bo_close(s);
	free(want);
	printf("faults reported to their context only; other contexts go on\n");
}

/*
 * ---- syncobj: SUBMIT hands its fence to a DRM syncobj; the generic
 * syncobj ioctls wait for it, a sync_file shows its error ----
 */
void test_syncobj(void)
{
	const uint64_t size = 256 << 10;
	uint32_t ctx, ctx2, v, sys, sys2, s1, s2, s3, gone;
	struct drm_simt_cmd cmd[2];
	struct drm_simt_wait w;
	uint64_t seq, seq2;
	uint8_t *m1, *m2, *want;
	int r;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	v = bo_new(size, DRM_SIMT_BO_VRAM);
	sys = bo_new(size, DRM_SIMT_BO_SYSTEM);
	sys2 = bo_new(size, DRM_SIMT_BO_SYSTEM);
	bind(ctx, v);
	m1 = bo_map(sys, size);
	m2 = bo_map(sys2, size);
	want = malloc(size);
	fill(want, size, 9);
	memcpy(m1, want, size);

	s1 = syncobj_new();
	r = syncobj_wait(s1, 0);
	CHECK(r == -EINVAL, "SYNCOBJ_WAIT on a syncobj without a fence: %d", r);

	/* Up to VRAM and back, waited for with the syncobj only. */
	cmd[0] = copy_cmd(sys, 0, v, 0, size);
	cmd[1] = copy_cmd(v, 0, sys2, 0, size);
	r = submit_sync(ctx, cmd, 2, s1, &seq);
	CHECK(r == 0, "SUBMIT with a syncobj: %s", strerror(-r));
	r = syncobj_wait(s1, 10 * SEC_NS);
	CHECK(r == 0, "SYNCOBJ_WAIT: %s", strerror(-r));
	r = syncobj_status(s1);
	CHECK(r == 1, "fence status %d, expected 1 (signalled)", r);
	same("copied through VRAM, waited for with SYNCOBJ_WAIT", m2, want, size);
	CHECK(wait_seq(ctx, seq, 0, &w) == 0 && w.error == DRM_SIMT_ERROR_NONE,
	      "WAIT does not agree with the syncobj");

	/* Bad handles queue nothing. */
	CHECK(submit_sync(ctx, cmd, 2, 999, &seq2) == -ENOENT,
	      "SUBMIT with syncobj 999");
	gone = syncobj_new();
	syncobj_free(gone);
	CHECK(submit_sync(ctx, cmd, 2, gone, &seq2) == -ENOENT,
	      "SUBMIT with a destroyed syncobj");

	/* The same syncobj again: it takes the new submission's fence. */
	memset(m2, 0, size);
	r = submit_sync(ctx, cmd, 2, s1, &seq2);
	CHECK(r == 0 && seq2 == seq + 1,
	      "second SUBMIT with the syncobj: %s, seqno %llu after %llu",
	      strerror(-r), (unsigned long long)seq2, (unsigned long long)seq);
	CHECK(syncobj_wait(s1, 10 * SEC_NS) == 0, "second SYNCOBJ_WAIT");
	same("second copy, waited for with SYNCOBJ_WAIT", m2, want, size);

	/* A faulting submission: its fence signals, with -EFAULT. */
	ctx2 = ctx_new(DRM_SIMT_PRIORITY_LOW);	/* v is not bound here */
	s2 = syncobj_new();
	cmd[0] = copy_cmd(sys, 0, v, 0, size);
	CHECK(submit_sync(ctx2, cmd, 1, s2, &seq) == 0, "submit of a faulting copy");
	r = syncobj_wait(s2, 10 * SEC_NS);
	CHECK(r == 0, "SYNCOBJ_WAIT for a faulting copy: %s", strerror(-r));
	r = syncobj_status(s2);
	CHECK(r == -EFAULT, "fence of a faulting copy: status %d, expected %d",
	      r, -EFAULT);
	CHECK(wait_seq(ctx2, seq, 0, &w) == 0 && w.error == DRM_SIMT_ERROR_FAULT,
	      "WAIT for the faulting copy: error %u", w.error);

	/* Destroying a context with work queued signals its fences. */
	s3 = syncobj_new();
	cmd[0] = copy_cmd(sys, 0, v, 0, size);
	for (int i = 0; i < 20; i++)
		CHECK(submit_sync(ctx, cmd, 1, i == 19 ? s3 : 0, &seq) == 0,
		      "submit %d", i);
	CHECK(ctx_destroy(ctx) == 0, "destroy with work queued");
	r = syncobj_wait(s3, 10 * SEC_NS);
	CHECK(r == 0, "SYNCOBJ_WAIT after the context was destroyed: %s",
	      strerror(-r));
	r = syncobj_status(s3);
	printf("the last of 20 queued copies, its context destroyed: status %d\n", r);
	/* -ECANCELED whether it reached the device or not (-ESRCH in 0.3, 0.4) */
	CHECK(r == 1 || r == -ECANCELED, "fence status %d, expected 1 or %d", r,
	      -ECANCELED);

	/*
	 * A copy queued behind a kernel of seconds, its context destroyed
	 * at once: the copy never runs, its fence is cancelled.
	 */
	{
		const uint32_t grid[3] = { 32, 1, 1 }, block[3] = { 256, 1, 1 };
		uint32_t ctx3, h, out, hl, s4, args[8] = { 0, 20000 };
		struct drm_simt_cmd two[2];
		struct kimg ki;
		void *m;

		ctx3 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
		if (!kimg_load(&ki, "spin.elf", ctx3)) {
			m = vbuf(ctx3, 32 * 256 * 4, &h, &out);
			args[0] = out;
			s4 = syncobj_new();
			if (!kimg_cmd(&ki, ctx3, "spin", grid, block, args, &two[0], &hl)) {
				two[1] = copy_cmd(sys, 0, sys2, 0, size);
				CHECK(submit(ctx3, &two[0], 1, &seq) == 0, "submit the kernel");
				CHECK(submit_sync(ctx3, &two[1], 1, s4, &seq) == 0,
				      "submit the copy");
				CHECK(ctx_destroy(ctx3) == 0, "destroy");
				CHECK(syncobj_wait(s4, 10 * SEC_NS) == 0,
				      "SYNCOBJ_WAIT for a cancelled copy");
				r = syncobj_status(s4);
				printf("a copy queued behind a running kernel, its context destroyed: status %d\n",
				       r);
				CHECK(r == -ECANCELED,
				      "the cancelled copy's fence: status %d, expected %d",
				      r, -ECANCELED);
				if (hl)
					bo_close(hl);
			}
			syncobj_free(s4);
			munmap(m, 32 * 256 * 4);
			bo_close(h);
			/* The binding went with the context: only the image is left. */
			bo_close(ki.code);
			simt_image_free(&ki.img);
		}
	}

	syncobj_free(s1);
	syncobj_free(s2);
	syncobj_free(s3);
	CHECK(ctx_destroy(ctx2) == 0, "destroy");
	munmap(m1, size);
	munmap(m2, size);
	bo_close(v);
	bo_close(sys);
	bo_close(sys2);
	free(want);
	printf("syncobjs get the submissions' fences; SYNCOBJ_WAIT waits for them\n");
}

/* A syncobj of open file @from, shared with open file @to. */
static int syncobj_share(int from, uint32_t h, int to, uint32_t *out)
{
	struct drm_syncobj_handle e = { .handle = h, .fd = -1 };
	struct drm_syncobj_handle i = { 0 };
	int r = xioctl(from, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &e);

	*out = 0;
	if (r)
		return r;
	i.fd = e.fd;
	r = xioctl(to, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &i);
	close(e.fd);
	*out = i.handle;
	return r;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * SEC_NS + ts.tv_nsec;
}

/*
 * ---- infence: SUBMIT waits for fences of another open file.  Context
 * A (this file) runs spin for a while, then copy_words from a VRAM
 * object of its own into a system memory object S; context B, in another
 * open file that imported S (PRIME), runs copy_words from S into its own
 * object as soon as SUBMIT lets it.  B's result is right only if it ran
 * after A's output was written, and its launch must have started after
 * A's ended (device cycles).  B waits in four ways: a binary syncobj
 * shared through a file descriptor, a point of a timeline syncobj, A's
 * sync_file out-fence imported into a syncobj, and (the last round) the
 * fence of a faulting submission, whose error must not stop B. ----
 */
void test_infence(void)
{
	const uint32_t n = 16384, bytes = n * 4;
	const uint32_t g4[3] = { 4, 1, 1 }, b128[3] = { 128, 1, 1 };
	uint32_t ctxa, ctxb, ctxf, hin, hs, hsb = 0, hout, dout, din, hl, hfault;
	uint32_t s1, s1b, tl, tlb, sc, sf, sfb, *min, *ms, *mout, i, bad;
	struct drm_simt_cmd acmd[2], bcmd, fcmd;
	struct drm_simt_wait wa, wb;
	struct spinjob sj;
	struct kimg kb;
	uint64_t sa, seqa, seqb, seqf = 0;
	int f1 = fd, f2, r, round, sfd;

	ctxa = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (spin_setup(&sj, ctxa, 4, 32, 250000))
		return;
	min = vbuf(ctxa, bytes, &hin, &din);
	for (i = 0; i < n; i++)
		min[i] = 0x5a000000u | i;
	hs = bo_new(bytes, DRM_SIMT_BO_SYSTEM);
	sa = bind(ctxa, hs);
	ms = (uint32_t *)bo_map(hs, bytes);
	acmd[0] = sj.cmd;
	CHECK(kimg_cmd(&sj.ki, ctxa, "copy_words", g4, b128,
		       (uint32_t[8]){ din, sa, n }, &acmd[1], &hl) == 0 && !hl,
	      "copy_words");

	/* B, in another file, with S imported. */
	f2 = open_node();
	{
		struct drm_prime_handle p = { .handle = hs, .flags = DRM_CLOEXEC | DRM_RDWR,
					      .fd = -1 };

		r = xioctl(f1, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p);
		CHECK(r == 0, "PRIME export of a system object: %s", strerror(-r));
		if (r == 0) {
			struct drm_prime_handle imp = { .fd = p.fd };

			r = xioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &imp);
			CHECK(r == 0, "PRIME import into the other file: %s", strerror(-r));
			hsb = imp.handle;
			close(p.fd);
		}
	}
	use_fd(f2);
	ctxb = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (!hsb || kimg_load(&kb, "samples.elf", ctxb)) {
		use_fd(f1);
		close(f2);
		return;
	}
	CHECK(bind(ctxb, hsb) == sa, "the imported object has another address");
	mout = vbuf(ctxb, bytes, &hout, &dout);
	CHECK(kimg_cmd(&kb, ctxb, "copy_words", g4, b128,
		       (uint32_t[8]){ sa, dout, n }, &bcmd, &hl) == 0 && !hl,
	      "copy_words in B");
	use_fd(f1);

	s1 = syncobj_new();
	tl = syncobj_new();
	CHECK(syncobj_share(f1, s1, f2, &s1b) == 0 && syncobj_share(f1, tl, f2, &tlb) == 0,
	      "cannot share syncobjs between the files");
	{
		struct drm_syncobj_create c = { 0 };

		CHECK(xioctl(f2, DRM_IOCTL_SYNCOBJ_CREATE, &c) == 0, "SYNCOBJ_CREATE");
		sc = c.handle;
	}

	for (round = 0; round < 4; round++) {
		static const char *const how[] = {
			"a binary syncobj of the other file", "timeline point 5",
			"A's sync_file", "a failed fence",
		};
		struct drm_simt_sync in = { 0 };
		double t0 = now_s();

		memset(ms, 0, bytes);
		memset(mout, 0xff, bytes);
		sfd = -1;
		if (round == 0) {
			r = submit_x(f1, ctxa, acmd, 2, 0, NULL, 0, s1, 0, &seqa, &sfd);
			CHECK(sfd == -1, "fence_fd %d without DRM_SIMT_SUBMIT_FENCE_FD", sfd);
			in.handle = s1b;
		} else if (round == 1) {
			/* B cannot wait for a point that has no fence yet. */
			in = (struct drm_simt_sync){ .handle = tlb, .point = 5 };
			CHECK(submit_x(f2, ctxb, &bcmd, 1, 0, &in, 1, 0, 0, &seqb, NULL) ==
			      -EINVAL, "SUBMIT waiting for a timeline point without a fence");
			r = submit_x(f1, ctxa, acmd, 2, 0, NULL, 0, tl, 5, &seqa, NULL);
		} else if (round == 2) {
			r = submit_x(f1, ctxa, acmd, 2, DRM_SIMT_SUBMIT_FENCE_FD, NULL, 0,
				     0, 0, &seqa, &sfd);
			CHECK(r || sfd > 0, "no sync_file from DRM_SIMT_SUBMIT_FENCE_FD (%d)", sfd);
			if (sfd > 0) {
				struct drm_syncobj_handle imp = {
					.fd = sfd, .handle = sc,
					.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
				};

				CHECK(!sync_file_poll(sfd, 0),
				      "A's sync_file signalled while A runs");
				CHECK(xioctl(f2, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &imp) == 0,
				      "cannot import A's sync_file into the other file");
			}
			in.handle = sc;
		} else {
			/* A faulting copy in a third context: its fence has an error. */
			ctxf = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
			hfault = bo_new(bytes, DRM_SIMT_BO_VRAM);	/* not bound */
			fcmd = copy_cmd(hs, 0, hfault, 0, bytes);
			sf = syncobj_new();
			CHECK(syncobj_share(f1, sf, f2, &sfb) == 0, "share");
			r = submit_x(f1, ctxa, acmd, 2, 0, NULL, 0, 0, 0, &seqa, NULL);
			CHECK(submit_x(f1, ctxf, &fcmd, 1, 0, NULL, 0, sf, 0, &seqf, NULL) == 0,
			      "submit of the faulting copy");
			in.handle = sfb;
		}
		CHECK(r == 0, "round %d: SUBMIT on A: %s", round, strerror(-r));
		if (round < 3)
			CHECK(wait_on(f1, ctxa, seqa, 0, &wa) == -ETIME,
			      "round %d: A was done before B was submitted: too short to tell",
			      round);
		r = submit_x(f2, ctxb, &bcmd, 1, 0, &in, 1, 0, 0, &seqb, NULL);
		CHECK(r == 0, "round %d: SUBMIT on B waiting for %s: %s", round, how[round],
		      strerror(-r));
		r = wait_on(f2, ctxb, seqb, 20 * SEC_NS, &wb);
		CHECK(r == 0 && wb.error == DRM_SIMT_ERROR_NONE,
		      "round %d: B: WAIT %d, error %u", round, r, wb.error);
		if (round < 3) {
			r = wait_on(f1, ctxa, seqa, 20 * SEC_NS, &wa);
			CHECK(r == 0 && wa.error == DRM_SIMT_ERROR_NONE,
			      "round %d: A: WAIT %d, error %u", round, r, wa.error);
			for (i = 0, bad = 0; i < n; i++)
				if (mout[i] != min[i] && !bad++)
					FAIL("round %d (%s): B read 0x%x at %u, A wrote 0x%x",
					     round, how[round], mout[i], i, min[i]);
			printf("round %d, B waited for %s: %.2f s, A's launch ended at cycle %llu, B's started at %llu, %u words wrong\n",
			       round, how[round], now_s() - t0,
			       (unsigned long long)wa.end_cycle,
			       (unsigned long long)wb.start_cycle, bad);
			CHECK(wb.start_cycle >= wa.end_cycle,
			      "round %d: B started at cycle %llu, before A ended at %llu",
			      round, (unsigned long long)wb.start_cycle,
			      (unsigned long long)wa.end_cycle);
		} else {
			struct drm_simt_wait wf;

			CHECK(wait_on(f1, ctxf, seqf, 10 * SEC_NS, &wf) == 0 &&
			      wf.error == DRM_SIMT_ERROR_FAULT, "the copy did not fault");
			r = syncobj_status(sf);
			CHECK(r == -EFAULT, "the faulting copy's fence: %d", r);
			printf("round 3: B ran after a fence that signalled %d\n", r);
			CHECK(wait_on(f1, ctxa, seqa, 20 * SEC_NS, &wa) == 0, "A");
			syncobj_free(sf);
			ctx_destroy(ctxf);
			bo_close(hfault);
		}
		if (round == 1) {
			struct drm_syncobj_timeline_array q = {
				.handles = (uintptr_t)&tl, .points = 0, .count_handles = 1,
			};
			uint64_t point = 0, want = 5;

			q.points = (uintptr_t)&point;
			CHECK(xioctl(f1, DRM_IOCTL_SYNCOBJ_QUERY, &q) == 0 && point == 5,
			      "the timeline syncobj is at point %llu, not 5",
			      (unsigned long long)point);
			{
				struct drm_syncobj_timeline_wait tw = {
					.handles = (uintptr_t)&tl, .points = (uintptr_t)&want,
					.count_handles = 1, .timeout_nsec = now_ns() + SEC_NS,
				};

				CHECK(xioctl(f1, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &tw) == 0,
				      "SYNCOBJ_TIMELINE_WAIT for point 5");
			}
		}
		if (sfd > 0) {
			CHECK(sync_file_poll(sfd, 10000), "A's sync_file did not signal");
			r = sync_file_status(sfd);
			CHECK(r == 1, "A's sync_file: status %d, expected 1", r);
			close(sfd);
		}
	}
	printf("in-fences: binary and timeline syncobjs of another file, a sync_file, a failed fence\n");

	syncobj_free(s1);
	syncobj_free(tl);
	munmap(ms, bytes);
	munmap(min, bytes);
	munmap(mout, bytes);
	close(f2);		/* B and everything of it */
	bo_close(hs);
	bo_close(hin);
	spin_free(&sj, 1);
	ctx_destroy(ctxa);
}

/*
 * ---- signal: WAIT under a stream of SA_RESTART signals (every 20 ms)
 * on a kernel that runs longer: a relative 1 s WAIT and an absolute one
 * (deadline 1 s ahead) both end with ETIME at about 1 s, however often
 * the call was interrupted and restarted.  The signals stop after 3 s,
 * so a driver that restarts with the whole timeout each time ends the
 * test too, late. ----
 */
static volatile sig_atomic_t sig_count;

static void on_alarm(int sig)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	(void)sig;
	if (++sig_count >= 150)
		setitimer(ITIMER_REAL, &off, NULL);
}

void test_signal(void)
{
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART }, old;
	struct itimerval every = { { 0, 20000 }, { 0, 20000 } }, off = { { 0, 0 }, { 0, 0 } };
	struct drm_simt_wait w;
	struct spinjob j;
	uint32_t ctx;
	uint64_t seq, t0;
	double t;
	int mode, r, e;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (spin_setup(&j, ctx, 1, 32, 0xffffffffu))
		return;
	CHECK(submit(ctx, &j.cmd, 1, &seq) == 0, "submit");
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old);
	for (mode = 0; mode < 2; mode++) {
		memset(&w, 0, sizeof(w));
		w.ctx_id = ctx;
		w.seqno = seq;
		sig_count = 0;
		t0 = now_ns();
		w.flags = mode ? DRM_SIMT_WAIT_ABSOLUTE : 0;
		w.timeout_ns = mode ? (int64_t)(t0 + SEC_NS) : SEC_NS;
		setitimer(ITIMER_REAL, &every, NULL);
		r = ioctl(fd, DRM_IOCTL_SIMT_WAIT, &w);	/* once: SA_RESTART restarts it */
		e = errno;
		setitimer(ITIMER_REAL, &off, NULL);
		t = (now_ns() - t0) * 1e-9;
		printf("%s 1 s WAIT with a signal every 20 ms: %d (%s) after %.3f s, %d signals\n",
		       mode ? "absolute" : "relative", r, r ? strerror(e) : "done", t,
		       (int)sig_count);
		CHECK(r < 0 && e == ETIME, "%s WAIT: %d (%s), expected ETIME",
		      mode ? "absolute" : "relative", r, r ? strerror(e) : "done");
		CHECK(t >= 0.99 && t < 1.8, "%s WAIT ended after %.3f s; the deadline was 1 s",
		      mode ? "absolute" : "relative", t);
		CHECK(sig_count >= 20, "only %d signals during the WAIT", (int)sig_count);
	}
	sigaction(SIGALRM, &old, NULL);
	spin_free(&j, 1);
	CHECK(ctx_destroy(ctx) == 0, "destroy with the kernel running");
}
