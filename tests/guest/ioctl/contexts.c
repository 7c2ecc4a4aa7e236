// SPDX-License-Identifier: MIT
/*
 * contexts.c: simt-ioctl-test's groups on contexts and open files: ctx
 * (create, destroy, limits), user-contexts (one user's limit over all
 * his files), prio (who may ask for high priority),
 * savearea (the preemption save area), close (a file closed with work in
 * flight) and fdinfo (the DRM client usage stats).
 */
#include "ioctl-test.h"

/* Become uid/gid 65534 (nobody) keeping capabilities @caps only. */
static int become_nobody(uint64_t caps)
{
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgid(65534) || setuid(65534) ||
	    caps_set(caps)) {
		printf("cannot become uid 65534 with capabilities 0x%llx: %s\n",
		       (unsigned long long)caps, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- ctx: create, destroy, priorities, limits, per-file ids ---- */

void test_ctx(void)
{
	uint32_t max = get_param(DRM_SIMT_PARAM_MAX_CONTEXTS);
	struct drm_simt_context_create c;
	struct drm_simt_context_destroy d;
	uint32_t ids[64], id, prio, mode;
	unsigned int i;
	int f2, status;
	pid_t pid;

	printf("the device holds %u contexts\n", max);
	CHECK(max >= 1 && max <= 64, "MAX_CONTEXTS %u", max);

	for (prio = DRM_SIMT_PRIORITY_LOW; prio <= DRM_SIMT_PRIORITY_REALTIME; prio++) {
		id = ctx_new(prio);
		CHECK(id != 0, "context id 0");
		CHECK(ctx_destroy(id) == 0, "destroy %u", id);
		CHECK(ctx_destroy(id) == -ENOENT, "second destroy of %u", id);
	}

	c = (struct drm_simt_context_create){ .priority = 4 };
	EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, EINVAL);
	c = (struct drm_simt_context_create){ .flags = 1 };
	EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, EINVAL);
	c = (struct drm_simt_context_create){ .preempt_mode = DRM_SIMT_PREEMPT_CHIMERA + 1 };
	EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, EINVAL);
	/* A valid mode is kept with the context (debugfs contexts shows it). */
	for (mode = DRM_SIMT_PREEMPT_AUTO; mode <= DRM_SIMT_PREEMPT_CHIMERA; mode++) {
		c = (struct drm_simt_context_create){ .preempt_mode = mode };
		EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, 0);
		CHECK(debugfs_ctx_count("preempt", mode) == 1,
		      "debugfs contexts does not show one context in preemption mode %u",
		      mode);
		CHECK(ctx_destroy(c.ctx_id) == 0, "destroy");
	}
	d = (struct drm_simt_context_destroy){ .ctx_id = 0 };
	EXPECT(DRM_IOCTL_SIMT_CONTEXT_DESTROY, &d, ENOENT);
	d.ctx_id = 12345;
	EXPECT(DRM_IOCTL_SIMT_CONTEXT_DESTROY, &d, ENOENT);
	id = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	d = (struct drm_simt_context_destroy){ .ctx_id = id, .pad = 1 };
	EXPECT(DRM_IOCTL_SIMT_CONTEXT_DESTROY, &d, EINVAL);

	/* Ids belong to their file. */
	f2 = open_node();
	d = (struct drm_simt_context_destroy){ .ctx_id = id };
	CHECK(xioctl(f2, DRM_IOCTL_SIMT_CONTEXT_DESTROY, &d) == -ENOENT,
	      "another file destroyed context %u", id);
	close(f2);
	CHECK(ctx_destroy(id) == 0, "destroy %u", id);

	/*
	 * The limits: one open file holds FILE_CONTEXTS contexts (EMFILE
	 * beyond, since 0.3), the device MAX_CONTEXTS in all (ENOSPC), so
	 * the device's limit is reached with several files.  The per-file
	 * limit (module parameter file_contexts, 8 by default) is lowered to
	 * 2 for this, so that it lies below the device's on every preset.
	 */
	{
		uint32_t per_file = get_param(DRM_SIMT_PARAM_FILE_CONTEXTS);
		uint32_t lim = max > 2 ? 2 : 1, nf = (max + lim - 1) / lim + 1;
		int files[65], round;
		char old[32] = "";

		printf("one open file holds %u contexts\n", per_file);
		CHECK(per_file == 8, "FILE_CONTEXTS is %u, the default is 8", per_file);
		CHECK(mod_param_get("file_contexts", old, sizeof(old)) == 0 &&
		      strtoul(old, NULL, 10) == per_file,
		      "parameter file_contexts '%s' disagrees with FILE_CONTEXTS", old);
		CHECK(mod_param_set("file_contexts", lim == 2 ? "2" : "1") == 0,
		      "cannot write " PARAM_DIR "file_contexts");
		CHECK(get_param(DRM_SIMT_PARAM_FILE_CONTEXTS) == lim,
		      "FILE_CONTEXTS does not follow the parameter");
		for (round = 0; round < 3; round++) {
			uint32_t n = 0, k;

			if (round != 1)		/* round 1 reuses round 0's files */
				for (k = 0; k < nf; k++)
					files[k] = open_node();
			/* File 0 to its limit, then EMFILE: the device has room. */
			for (i = 0; i < lim; i++)
				CHECK(ctx_create_on(files[0], i % 4, &ids[n++]) == 0,
				      "round %d: context %u of file 0", round, i);
			if (lim < max)
				CHECK(ctx_create_on(files[0], DRM_SIMT_PRIORITY_NORMAL, &id) ==
				      -EMFILE, "round %d: file 0 went past its limit of %u",
				      round, lim);
			/* The device's limit from the other files, then ENOSPC. */
			for (k = 1; n < max; k++)
				for (i = 0; i < lim && n < max; i++, n++)
					CHECK(ctx_create_on(files[k], (n % 4 == 3) ?
							    DRM_SIMT_PRIORITY_HIGH : n % 4,
							    &ids[n]) == 0,
					      "round %d: context %u of the device", round, n);
			CHECK(ctx_create_on(files[nf - 1], DRM_SIMT_PRIORITY_NORMAL, &id) ==
			      -ENOSPC, "round %d: the device went past its %u contexts",
			      round, max);
			if (round == 0) {
				/* Destroying frees the slots (round 1 fills them again). */
				for (n = 0, k = 0; k < nf && n < max; k++)
					for (i = 0; i < lim && n < max; i++, n++) {
						d = (struct drm_simt_context_destroy){ .ctx_id = ids[n] };
						CHECK(xioctl(files[k], DRM_IOCTL_SIMT_CONTEXT_DESTROY,
							     &d) == 0, "destroy %u", ids[n]);
					}
			} else {
				/* Closing the files frees them (round 2 fills them again). */
				for (k = 0; k < nf; k++)
					close(files[k]);
			}
		}
		printf("%u contexts per file then EMFILE; %u contexts on the device from %u files then ENOSPC; all again after destroying and after closing\n",
		       lim, max, nf);
		CHECK(mod_param_set("file_contexts", old) == 0 &&
		      get_param(DRM_SIMT_PARAM_FILE_CONTEXTS) == per_file,
		      "cannot restore " PARAM_DIR "file_contexts");
	}

	/*
	 * An unprivileged user gets EACCES for realtime, and for high since
	 * 0.3 (the prio group has the rest).
	 */
	pid = fork();
	if (pid == 0) {
		if (setgid(65534) || setuid(65534)) {
			printf("cannot drop privileges: %s\n", strerror(errno));
			_exit(1);
		}
		c = (struct drm_simt_context_create){ .priority = DRM_SIMT_PRIORITY_REALTIME };
		EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, EACCES);
		c = (struct drm_simt_context_create){ .priority = DRM_SIMT_PRIORITY_HIGH };
		EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, EACCES);
		c = (struct drm_simt_context_create){ .priority = DRM_SIMT_PRIORITY_NORMAL };
		EXPECT(DRM_IOCTL_SIMT_CONTEXT_CREATE, &c, 0);
		_exit(failures ? 1 : 0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "unprivileged priorities");
	printf("realtime and high priority refused to an unprivileged user (EACCES)\n");
}

/*
 * ---- user-contexts: one user cannot take every hardware queue (0.9):
 * a user without CAP_SYS_ADMIN holds at most USER_CONTEXTS contexts, in
 * all his open files together ----
 */

/*
 * As uid @uid, one context in each of the @n files @files; tell @done
 * how many were made and the error of the first refused, then hold them
 * until @go closes.  The exit status is the number made.
 */
static void hold_contexts_as(uid_t uid, int *files, unsigned int n, int done,
			     int go)
{
	int result[2] = { 0, 0 };
	uint32_t id;
	char byte;

	if (setgid(uid) || setuid(uid))
		_exit(255);
	for (unsigned int i = 0; i < n; i++) {
		int r = ctx_create_on(files[i], DRM_SIMT_PRIORITY_NORMAL, &id);

		if (r) {
			result[1] = r;
			break;
		}
		result[0]++;
	}
	if (write(done, result, sizeof(result)) != sizeof(result))
		_exit(255);
	if (read(go, &byte, 1) < 0)
		_exit(255);
	_exit(result[0]);
}

/* Start hold_contexts_as() in a child; its pid, the result in @result. */
static pid_t hold_contexts(uid_t uid, unsigned int n, int *go_w, int result[2])
{
	int files[64], done[2], go[2];
	pid_t pid;

	if (n > ARRAY_SIZE(files) || pipe(done) || pipe(go))
		return -1;
	for (unsigned int i = 0; i < n; i++)
		files[i] = open_node();
	pid = fork();
	if (pid == 0) {
		close(done[0]);
		close(go[1]);
		hold_contexts_as(uid, files, n, done[1], go[0]);
	}
	for (unsigned int i = 0; i < n; i++)
		close(files[i]);
	close(done[1]);
	close(go[0]);
	if (pid < 0 || read(done[0], result, 2 * sizeof(int)) != 2 * sizeof(int)) {
		result[0] = -1;
		result[1] = 0;
	}
	close(done[0]);
	*go_w = go[1];
	return pid;
}

static void hold_end(pid_t pid, int go)
{
	int status;

	close(go);
	if (pid > 0)
		waitpid(pid, &status, 0);
}

void test_user_contexts(void)
{
	uint32_t max = get_param(DRM_SIMT_PARAM_MAX_CONTEXTS);
	uint32_t limit = max > 1 ? max - 1 : 1;
	int first[2], second[2], go1, go2;
	pid_t p1, p2;

	CHECK(get_param(DRM_SIMT_PARAM_USER_CONTEXTS) == max,
	      "root's USER_CONTEXTS %llu, want all %u (CAP_SYS_ADMIN has no limit)",
	      (unsigned long long)get_param(DRM_SIMT_PARAM_USER_CONTEXTS), max);
	/* One user opens the node once for every context and then some. */
	p1 = hold_contexts(65534, max + 1, &go1, first);
	CHECK(first[0] == (int)limit && first[1] == -EDQUOT,
	      "uid 65534, one context per file in %u files: %d made, then %s (want %u, then EDQUOT)",
	      max + 1, first[0], strerror(-first[1]), limit);
	printf("uid 65534 got %d of the %u contexts in %u files, then: %s\n",
	       first[0], max, max + 1, strerror(-first[1]));
	/* Another user still gets one. */
	p2 = hold_contexts(65533, 1, &go2, second);
	CHECK(second[0] == 1, "uid 65533 beside it: %d contexts, %s",
	      second[0], strerror(-second[1]));
	printf("uid 65533 beside it got %d context\n", second[0]);
	hold_end(p2, go2);
	hold_end(p1, go1);
}

/*
 * ---- prio: HIGH priority needs CAP_SYS_NICE since 0.3, unless the
 * module parameter unprivileged_high (default N) opens it to everyone;
 * REALTIME always needs it ----
 */
/* Create and destroy a context at @prio: 0 or -errno. */
static int prio_try(uint32_t prio)
{
	uint32_t id;
	int r = ctx_create_on(fd, prio, &id);

	if (r == 0)
		CHECK(ctx_destroy(id) == 0, "destroy");
	return r;
}

/* In a child, as uid 65534 with capabilities @caps: HIGH and REALTIME. */
static void prio_as_user(uint64_t caps, int want_high, int want_rt, const char *who)
{
	int status, r;
	pid_t pid = fork();

	if (pid == 0) {
		if (become_nobody(caps))
			_exit(1);
		r = prio_try(DRM_SIMT_PRIORITY_NORMAL);
		CHECK(r == 0, "%s: NORMAL: %s", who, strerror(-r));
		r = prio_try(DRM_SIMT_PRIORITY_HIGH);
		CHECK(r == -want_high, "%s: HIGH: %d (%s), expected %d", who, r,
		      strerror(-r), -want_high);
		r = prio_try(DRM_SIMT_PRIORITY_REALTIME);
		CHECK(r == -want_rt, "%s: REALTIME: %d (%s), expected %d", who, r,
		      strerror(-r), -want_rt);
		_exit(failures ? 1 : 0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "%s: wrong priorities", who);
	printf("%s: HIGH %s, REALTIME %s\n", who, want_high ? "refused" : "allowed",
	       want_rt ? "refused" : "allowed");
}

void test_prio(void)
{
	char old[16] = "", now[16] = "";

	CHECK(mod_param_get("unprivileged_high", old, sizeof(old)) == 0 &&
	      strcmp(old, "N") == 0, "unprivileged_high is '%s', expected N", old);
	prio_as_user(0, EACCES, EACCES, "a plain user");
	prio_as_user(1ull << CAP_SYS_NICE, 0, 0, "a user with CAP_SYS_NICE");
	CHECK(prio_try(DRM_SIMT_PRIORITY_HIGH) == 0 &&
	      prio_try(DRM_SIMT_PRIORITY_REALTIME) == 0, "root: HIGH or REALTIME refused");
	if (mod_param_set("unprivileged_high", "Y") == 0 &&
	    mod_param_get("unprivileged_high", now, sizeof(now)) == 0 &&
	    strcmp(now, "Y") == 0) {
		prio_as_user(0, 0, EACCES, "a plain user with unprivileged_high=Y");
	} else {
		FAIL("cannot set unprivileged_high to Y ('%s')", now);
	}
	CHECK(mod_param_set("unprivileged_high", old[0] ? old : "N") == 0 &&
	      mod_param_get("unprivileged_high", now, sizeof(now)) == 0 &&
	      strcmp(now, "N") == 0, "cannot restore unprivileged_high ('%s')", now);
	prio_as_user(0, EACCES, EACCES, "a plain user, unprivileged_high restored");
}

/*
 * ---- savearea: a context's preemption save area (debugfs contexts
 * save=0x<addr>+0x<size>) must not show what VRAM held before.  VRAM is
 * dirtied through an object that is then freed, contexts are created
 * until one's save area overlaps the dirtied range, and a kernel of that
 * context copies its whole save area into an output object, which must
 * then be all zero. ----
 */
/* The save areas debugfs contexts shows; returns how many (at most @max). */
static int save_areas(uint64_t *addr, uint64_t *size, int max)
{
	char *text = read_text(debugfs_file("contexts")), *p;
	int n = 0;

	if (!text) {
		FAIL("cannot read debugfs contexts");
		return 0;
	}
	for (p = text; n < max && (p = strstr(p, "save=")); p++) {
		unsigned long long a, s;

		if (sscanf(p, "save=0x%llx+0x%llx", &a, &s) == 2) {
			addr[n] = a;
			size[n++] = s;
		}
	}
	free(text);
	return n;
}

void test_savearea(void)
{
	const uint64_t dirty_size = 16 << 20;
	const uint32_t pattern = 0xa5000000u;
	uint32_t max = get_param(DRM_SIMT_PARAM_MAX_CONTEXTS), ids[64], nctx = 0;
	uint64_t before[64], bsize[64], after[64], asize[64], dstart, sa = 0, ss = 0;
	uint32_t dirty, *m, i, chosen = 0;
	int nb, na, k, j;

	dirty = bo_new(dirty_size, DRM_SIMT_BO_VRAM);
	dstart = bo_info(dirty).device_addr;
	m = (uint32_t *)bo_map(dirty, dirty_size);
	for (i = 0; i < dirty_size / 4; i++)
		m[i] = pattern | i;
	munmap(m, dirty_size);
	bo_close(dirty);
	printf("VRAM 0x%llx..0x%llx dirtied and freed\n", (unsigned long long)dstart,
	       (unsigned long long)(dstart + dirty_size));

	while (nctx < max && nctx < 8 && !chosen) {
		nb = save_areas(before, bsize, 64);
		ids[nctx] = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
		na = save_areas(after, asize, 64);
		for (k = 0; k < na; k++) {
			for (j = 0; j < nb && before[j] != after[k]; j++)
				;
			if (j < nb)
				continue;
			printf("context %u: save area 0x%llx+0x%llx\n", ids[nctx],
			       (unsigned long long)after[k], (unsigned long long)asize[k]);
			if (after[k] < dstart + dirty_size && after[k] + asize[k] > dstart) {
				chosen = ids[nctx];
				sa = after[k];
				ss = asize[k];
			}
		}
		nctx++;
	}
	CHECK(chosen, "no save area of %u contexts overlaps the dirtied VRAM", nctx);
	if (chosen) {
		const uint32_t g[3] = { 64, 1, 1 }, b[3] = { 128, 1, 1 };
		uint32_t hout, dout, nz = 0, dirtyw = 0, first = 0;
		struct kimg ki;
		uint32_t *mo;

		CHECK(ss % 4 == 0 && sa % 4 == 0, "save area 0x%llx+0x%llx",
		      (unsigned long long)sa, (unsigned long long)ss);
		if (!kimg_load(&ki, "samples.elf", chosen)) {
			mo = vbuf(chosen, ss, &hout, &dout);
			memset(mo, 0xff, ss);
			if (!kimg_run(&ki, chosen, "copy_words", g, b,
				      (uint32_t[8]){ sa, dout, ss / 4 })) {
				for (i = 0; i < ss / 4; i++)
					if (mo[i]) {
						if (!nz++)
							first = i;
						dirtyw += (mo[i] & 0xff000000u) == pattern;
					}
				printf("save area of %llu bytes read by a kernel: %u nonzero words (%u of the pattern), first at +0x%x\n",
				       (unsigned long long)ss, nz, dirtyw, first * 4);
				CHECK(nz == 0, "the save area is not zero: word +0x%x is 0x%08x",
				      first * 4, mo[first]);
			}
			munmap(mo, ss);
			bo_close(hout);
			kimg_free(&ki);
		}
	}
	for (i = 0; i < nctx; i++)
		CHECK(ctx_destroy(ids[i]) == 0, "destroy");
}

/*
 * ---- close: an open file closed with work in flight: a kernel running
 * and a copy queued behind it, both with sync_files that this process
 * keeps.  Both sync_files signal with -ECANCELED (the kernel had
 * reached the device, the copy had not), the file's contexts leave
 * debugfs and its half of VRAM comes back ----
 */
void test_close(void)
{
	uint64_t vram = get_param(DRM_SIMT_PARAM_VRAM_SIZE);
	uint32_t ctx, big, sys, h = 0;
	struct drm_simt_cmd cc;
	struct spinjob j;
	uint64_t seq;
	int f2, f1 = fd, sf1 = -1, sf2 = -1, r, i, left = -1;
	double t0;

	f2 = open_node();
	use_fd(f2);
	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	/* held for ever: only the close ends it */
	if (spin_held_setup(&j, ctx, 1, 32, 1)) {
		use_fd(f1);
		close(f2);
		return;
	}
	big = bo_new(vram / 2, DRM_SIMT_BO_VRAM);
	bind(ctx, big);
	sys = bo_new(1 << 20, DRM_SIMT_BO_SYSTEM);
	cc = copy_cmd(sys, 0, big, 0, 1 << 20);
	CHECK(submit_x(f2, ctx, &j.cmd, 1, DRM_SIMT_SUBMIT_FENCE_FD, NULL, 0, 0, 0,
		       &seq, &sf1) == 0 && sf1 > 0, "submit the kernel with a sync_file");
	CHECK(submit_x(f2, ctx, &cc, 1, DRM_SIMT_SUBMIT_FENCE_FD, NULL, 0, 0, 0,
		       &seq, &sf2) == 0 && sf2 > 0, "submit the copy with a sync_file");
	spin_resident(&j, 1);	/* the kernel has reached the device */
	if (sf1 > 0)
		CHECK(!sync_file_poll(sf1, 0), "the endless kernel's sync_file signalled");
	munmap(j.m, j.n * 4 + 8);	/* a mapping would keep the file open */
	use_fd(f1);
	t0 = now_s();
	close(f2);
	if (sf1 > 0) {
		CHECK(sync_file_poll(sf1, 10000), "the kernel's sync_file did not signal");
		r = sync_file_status(sf1);
		printf("the running kernel's sync_file: status %d after %.3f s\n", r, now_s() - t0);
		CHECK(r == -ECANCELED, "status %d, expected %d", r, -ECANCELED);
		close(sf1);
	}
	if (sf2 > 0) {
		CHECK(sync_file_poll(sf2, 10000), "the copy's sync_file did not signal");
		r = sync_file_status(sf2);
		printf("the queued copy's sync_file: status %d\n", r);
		CHECK(r == -ECANCELED, "status %d, expected %d", r, -ECANCELED);
		close(sf2);
	}
	simt_image_free(&j.ki.img);
	/* Nothing left: the contexts, the VRAM (30 s only stops a hang). */
	for (i = 0; i < 300 && (left = debugfs_ctx_count("pid", getpid())) > 0; i++)
		usleep(100000);
	CHECK(left == 0, "%d contexts of the closed file left", left);
	for (i = 0; i < 300 && (r = bo_create(vram / 4 * 3, DRM_SIMT_BO_VRAM, &h)) == -ENOMEM; i++)
		usleep(100000);
	CHECK(r == 0, "3/4 of VRAM cannot be had after the close: %s", strerror(-r));
	if (r == 0)
		bo_close(h);
	printf("closed with work in flight: fences signalled with errors, nothing left behind\n");
}

/*
 * ---- fdinfo: /proc/PID/fdinfo of an open file (DRM client usage
 * stats): the keys, compute time and cycles growing with a kernel and
 * consistent with each other, copy time with a copy and only with it,
 * compute time leaving out the time a kernel sat preempted, memory
 * totals matching the objects allocated, the context count ----
 */

/* Copy time: a copy between @vram and @sys, in context @ctx of file @f. */
static void fdinfo_copy(int f, uint32_t ctx, uint32_t vram, uint32_t sys)
{
	uint32_t mhz = get_param(DRM_SIMT_PARAM_CLOCK_MHZ);
	long long ns0, cy0, ns1, cy1, k0, k1;
	struct drm_simt_cmd c = copy_cmd(sys, 0, vram, 0, 1 << 20);
	struct drm_simt_wait w;
	uint64_t seq;

	bind(ctx, vram);
	ns0 = fdinfo_num(f, "drm-engine-copy", "ns");
	cy0 = fdinfo_num(f, "drm-cycles-copy", "");
	k0 = fdinfo_num(f, "drm-cycles-compute", "");
	CHECK(submit(ctx, &c, 1, &seq) == 0, "submit a copy");
	CHECK(wait_seq(ctx, seq, 20 * SEC_NS, &w) == 0 && !w.error, "the copy");
	ns1 = fdinfo_num(f, "drm-engine-copy", "ns");
	cy1 = fdinfo_num(f, "drm-cycles-copy", "");
	k1 = fdinfo_num(f, "drm-cycles-compute", "");
	printf("a copy of 1 MiB: drm-engine-copy %lld -> %lld ns, drm-cycles-copy %lld -> %lld\n",
	       ns0, ns1, cy0, cy1);
	CHECK(cy1 > cy0 && ns1 > ns0, "copy time did not grow with a copy");
	CHECK(llabs((ns1 - ns0) - (cy1 - cy0) * 1000 / mhz) <= 1000,
	      "%lld ns of copy for %lld cycles at %u MHz", ns1 - ns0, cy1 - cy0, mhz);
	CHECK(k1 == k0, "a copy counted %lld cycles of compute", k1 - k0);
}

/*
 * Compute time leaves out preemption: a low-priority kernel of file @f
 * (context @ctx) that fills every block slot, held (spin_held) until it
 * has been, is switched out by a high-priority one of another file that
 * fills them too; the low one's
 * compute time grows by its run time less about the high one's, not by
 * its end-to-end time.  The high one runs on file @other.
 */
static void fdinfo_preempted(int f, uint32_t ctx, int other)
{
	uint32_t slots = get_param(DRM_SIMT_PARAM_SM_COUNT) *
			 get_param(DRM_SIMT_PARAM_SM_BLOCKS);
	struct drm_simt_wait lw = { 0 }, hw = { 0 };
	long long k0, k1, lrun, hrun;
	struct spinjob lp, hp;
	uint64_t lseq, hseq;
	uint32_t hctx;

	use_fd(f);
	if (spin_held_setup(&lp, ctx, slots, 32, 20000))
		return;
	use_fd(other);
	hctx = ctx_new(DRM_SIMT_PRIORITY_HIGH);
	if (spin_setup(&hp, hctx, slots, 32, 50000)) {
		use_fd(f);
		spin_free(&lp, 1);
		return;
	}
	use_fd(f);
	k0 = fdinfo_num(f, "drm-cycles-compute", "");
	CHECK(submit(ctx, &lp.cmd, 1, &lseq) == 0, "submit the low-priority kernel");
	/* held on every slot until the high-priority kernel has run */
	if (spin_resident(&lp, slots) == 0) {
		use_fd(other);
		CHECK(submit(hctx, &hp.cmd, 1, &hseq) == 0, "submit the high-priority kernel");
		CHECK(wait_seq(hctx, hseq, 30 * SEC_NS, &hw) == 0 && !hw.error,
		      "the high-priority kernel");
		use_fd(f);
	}
	CHECK(wait_seq(ctx, lseq, 0, &lw) == -ETIME,
	      "the low-priority kernel ended before its release");
	spin_release(&lp);
	CHECK(wait_seq(ctx, lseq, 60 * SEC_NS, &lw) == 0 && !lw.error,
	      "the low-priority kernel");
	k1 = fdinfo_num(f, "drm-cycles-compute", "");
	lrun = lw.end_cycle - lw.start_cycle;
	hrun = hw.end_cycle - hw.start_cycle;
	printf("a kernel preempted by one of %lld cycles ran %lld cycles end to end: drm-cycles-compute grew %lld\n",
	       hrun, lrun, k1 - k0);
	CHECK(k1 - k0 > 0 && k1 - k0 <= lrun - hrun / 2,
	      "compute time %lld of a kernel of %lld cycles preempted for %lld",
	      k1 - k0, lrun, hrun);
	spin_free(&lp, 1);
	use_fd(other);
	spin_free(&hp, 1);
	CHECK(ctx_destroy(hctx) == 0, "destroy");
	use_fd(f);
}

/*
 * A device reset sets the queues' counters to 0: the engine times of
 * file @f, whose contexts ran work before, stay as they were.
 */
static void fdinfo_reset(int f)
{
	long long k0 = fdinfo_num(f, "drm-cycles-compute", "");
	long long c0 = fdinfo_num(f, "drm-cycles-copy", "");
	long long k1, c1;
	FILE *r = fopen(debugfs_file("reset"), "w");

	CHECK(r && fputs("1", r) >= 0 && fclose(r) == 0,
	      "cannot write 1 to debugfs reset");
	k1 = fdinfo_num(f, "drm-cycles-compute", "");
	c1 = fdinfo_num(f, "drm-cycles-copy", "");
	printf("a device reset: drm-cycles-compute %lld -> %lld, drm-cycles-copy %lld -> %lld\n",
	       k0, k1, c0, c1);
	CHECK(k0 > 0 && c0 > 0 && k1 == k0 && c1 == c0,
	      "engine times changed across an idle device reset");
}

void test_fdinfo(void)
{
	static const char *const mem[] = { "total", "shared", "active", "resident" };
	uint32_t mhz = get_param(DRM_SIMT_PARAM_CLOCK_MHZ), c1, c2, v1, v2, s1;
	long long ns0, cy0, ns1, cy1, x;
	char val[128], key[64], pdev[64] = "", *rp;
	struct drm_simt_wait w;
	struct spinjob j;
	uint64_t seq;
	int f1 = fd, f2, i, k;

	f2 = open_node();
	CHECK(fdinfo_get(f2, "drm-driver", val, sizeof(val)) == 0 && !strcmp(val, "simt"),
	      "drm-driver '%s'", val);
	rp = realpath("/sys/class/accel/accel0/device", NULL);
	if (rp)
		snprintf(pdev, sizeof(pdev), "%s", strrchr(rp, '/') + 1);
	free(rp);
	CHECK(fdinfo_get(f2, "drm-pdev", val, sizeof(val)) == 0 && !strcmp(val, pdev),
	      "drm-pdev '%s', the device is %s", val, pdev);
	{
		char id1[32] = "", id2[32] = "";

		CHECK(fdinfo_get(f1, "drm-client-id", id1, sizeof(id1)) == 0 &&
		      fdinfo_get(f2, "drm-client-id", id2, sizeof(id2)) == 0 &&
		      strcmp(id1, id2), "drm-client-id '%s' and '%s' of two files", id1, id2);
	}
	CHECK(fdinfo_num(f2, "drm-maxfreq-compute", "MHz") == mhz,
	      "drm-maxfreq-compute is not CLOCK_MHZ %u", mhz);
	CHECK(fdinfo_num(f2, "drm-maxfreq-copy", "MHz") == mhz,
	      "drm-maxfreq-copy is not CLOCK_MHZ %u", mhz);
	/* A new file: nothing. */
	CHECK(fdinfo_num(f2, "drm-engine-compute", "ns") == 0 &&
	      fdinfo_num(f2, "drm-cycles-compute", "") == 0 &&
	      fdinfo_num(f2, "drm-engine-copy", "ns") == 0 &&
	      fdinfo_num(f2, "drm-cycles-copy", "") == 0 &&
	      fdinfo_num(f2, "simt-contexts", "") == 0, "a new file has used something");
	for (i = 0; i < 4; i++)
		for (k = 0; k < 2; k++) {
			snprintf(key, sizeof(key), "drm-%s-%s", mem[i], k ? "system" : "vram");
			x = fdinfo_num(f2, key, NULL);
			CHECK(x == 0, "a new file: %s is %lld", key, x);
		}
	/* Objects: exactly their sizes in the totals. */
	use_fd(f2);
	v1 = bo_new(1 << 20, DRM_SIMT_BO_VRAM);
	v2 = bo_new(3 << 20, DRM_SIMT_BO_VRAM);
	s1 = bo_new(2 << 20, DRM_SIMT_BO_SYSTEM);
	x = fdinfo_num(f2, "drm-total-vram", NULL);
	CHECK(x == 4 << 20, "drm-total-vram %lld after 4 MiB of VRAM objects", x);
	x = fdinfo_num(f2, "drm-total-system", NULL);
	CHECK(x == 2 << 20, "drm-total-system %lld after 2 MiB of system objects", x);
	x = fdinfo_num(f2, "drm-shared-vram", NULL);
	CHECK(x == 0, "drm-shared-vram %lld, nothing is shared", x);
	bo_close(v2);
	x = fdinfo_num(f2, "drm-total-vram", NULL);
	CHECK(x == 1 << 20, "drm-total-vram %lld after freeing 3 of its 4 MiB", x);
	/* Contexts. */
	c1 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	c2 = ctx_new(DRM_SIMT_PRIORITY_LOW);
	CHECK(fdinfo_num(f2, "simt-contexts", "") == 2, "simt-contexts with two");
	CHECK(ctx_destroy(c2) == 0, "destroy");
	CHECK(fdinfo_num(f2, "simt-contexts", "") == 1, "simt-contexts with one");
	/* Compute time: a kernel. */
	ns0 = fdinfo_num(f2, "drm-engine-compute", "ns");
	cy0 = fdinfo_num(f2, "drm-cycles-compute", "");
	if (!spin_setup(&j, c1, 4, 32, 20000)) {
		CHECK(submit(c1, &j.cmd, 1, &seq) == 0, "submit");
		CHECK(wait_seq(c1, seq, 20 * SEC_NS, &w) == 0 && !w.error, "the kernel");
		ns1 = fdinfo_num(f2, "drm-engine-compute", "ns");
		cy1 = fdinfo_num(f2, "drm-cycles-compute", "");
		printf("a kernel of cycles %llu..%llu: drm-engine-compute %lld -> %lld ns, drm-cycles-compute %lld -> %lld at %u MHz\n",
		       (unsigned long long)w.start_cycle, (unsigned long long)w.end_cycle,
		       ns0, ns1, cy0, cy1, mhz);
		CHECK(ns1 > ns0 && cy1 > cy0, "compute time did not grow with a kernel");
		/* Both are device time: cycles / MHz microseconds. */
		CHECK(llabs((ns1 - ns0) - (cy1 - cy0) * 1000 / mhz) <=
		      (cy1 - cy0) * 1000 / mhz / 10 + 1000,
		      "%lld ns for %lld cycles at %u MHz", ns1 - ns0, cy1 - cy0, mhz);
		CHECK(cy1 - cy0 >= (long long)(w.end_cycle - w.start_cycle) / 2,
		      "%lld cycles counted for a kernel of %llu", cy1 - cy0,
		      (unsigned long long)(w.end_cycle - w.start_cycle));
		x = fdinfo_num(f2, "drm-cycles-copy", "");
		CHECK(x == 0, "a kernel counted %lld cycles of copy engine", x);
		spin_free(&j, 1);
	}
	fdinfo_copy(f2, c1, v1, s1);
	fdinfo_preempted(f2, c1, f1);
	fdinfo_reset(f2);
	for (i = 0; i < 4; i++)
		for (k = 0; k < 2; k++) {
			snprintf(key, sizeof(key), "drm-%s-%s", mem[i], k ? "system" : "vram");
			printf("%s: %lld\n", key, fdinfo_num(f2, key, NULL));
		}
	CHECK(ctx_destroy(c1) == 0, "destroy");
	bo_close(v1);
	bo_close(s1);
	use_fd(f1);
	close(f2);
}
