// SPDX-License-Identifier: MIT
/*
 * launch.c: simt-lib-test's groups on launches: launch (vecadd, ids in
 * 3D, dynamic shared memory), errors (faults, refused launches) and
 * metadata (what a launch carries from the note).
 */
#include "lib-test.h"

/* ---- launch: vecadd, ids in 3D with local memory, dynamic shared ---- */

void test_launch(void)
{
	const uint32_t n = 10000;
	struct simt_device_info info;
	struct simt_result c;
	simt_device *dev;
	simt_context *ctx;
	simt_module *m;
	simt_kernel *k;
	simt_buffer *a, *b, *out;
	float *fa, *fb, *fc;
	uint32_t *ids, *in, *want, i;
	uint64_t seq = 0;

	MUST(simt_device_open(node, &dev));
	MUST(simt_device_get_info(dev, &info));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	MUST(simt_module_load(ctx, KERNEL_DIR "/samples.elf", &m));
	MUST(simt_module_get_kernel(m, "vecadd", &k));

	/* vecadd on 10000 elements: c = a + b, every element checked. */
	MUST(simt_mem_alloc(ctx, n * 4, &a));
	MUST(simt_mem_alloc(ctx, n * 4, &b));
	MUST(simt_mem_alloc(ctx, n * 4, &out));
	fa = malloc(n * 4);
	fb = malloc(n * 4);
	fc = malloc(n * 4);
	for (i = 0; i < n; i++) {
		fa[i] = i * 0.5f;
		fb[i] = 1000.0f - i * 0.25f;
	}
	MUST(simt_memcpy_htod(a, 0, fa, n * 4));
	MUST(simt_memcpy_htod(b, 0, fb, n * 4));
	{
		uint32_t args[4] = { simt_buffer_addr(a), simt_buffer_addr(b),
				     simt_buffer_addr(out), n };

		EXPECT(simt_launch(k, dim((n + 127) / 128, 1, 1), dim(128, 1, 1), 0, args, 4,
				   &seq), SIMT_SUCCESS);
		EXPECT(simt_wait(ctx, seq, 30 * SEC_NS, &c), SIMT_SUCCESS);
		CHECK(c.status == SIMT_SUCCESS && c.fault_addr == 0, "completion");
		printf("vecadd: cycles %llu..%llu (%s)\n", (unsigned long long)c.start_cycle,
		       (unsigned long long)c.end_cycle,
		       c.end_cycle ? "reported by the driver" : "not reported by this driver");
		CHECK(c.end_cycle >= c.start_cycle, "end before start");
		/* A finished submission can be waited for again, and polled. */
		EXPECT(simt_wait(ctx, seq, 0, NULL), SIMT_SUCCESS);
		EXPECT(simt_wait(ctx, seq + 1, 0, NULL), SIMT_ERROR_INVALID_VALUE);
		EXPECT(simt_wait(ctx, 0, 0, NULL), SIMT_ERROR_INVALID_VALUE);
		EXPECT(simt_wait(NULL, seq, 0, NULL), SIMT_ERROR_INVALID_VALUE);
	}
	MUST(simt_memcpy_dtoh(fc, out, 0, n * 4));
	for (i = 0; i < n; i++)
		fb[i] = fa[i] + fb[i];
	if (!check_floats("vecadd", fc, fb, n))
		printf("vecadd: %u elements checked\n", n);

	/* Bad launches, between two good ones: they use no sequence number. */
	{
		uint32_t args[9] = { simt_buffer_addr(a), simt_buffer_addr(b),
				     simt_buffer_addr(out), 0 };
		uint64_t seq2 = 0;

		EXPECT(simt_launch(k, dim(1, 1, 1), dim(1, 1, 1), 0, args, 4, &seq), SIMT_SUCCESS);

		EXPECT(simt_launch(k, dim(1, 1, 1), dim(1, 1, 1), 0, args, 9, NULL),
		       SIMT_ERROR_INVALID_VALUE);
		EXPECT(simt_launch(k, dim(1, 1, 1), dim(1, 1, 1), 0, NULL, 2, NULL),
		       SIMT_ERROR_INVALID_VALUE);
		EXPECT(simt_launch(k, dim(0, 1, 1), dim(1, 1, 1), 0, args, 4, NULL),
		       SIMT_ERROR_INVALID_VALUE);
		EXPECT(simt_launch(k, dim(1, 1, 1), dim(1, 1, 0), 0, args, 4, NULL),
		       SIMT_ERROR_INVALID_VALUE);
		EXPECT(simt_launch(k, dim(1, 1, 1), dim(65536, 65536, 2), 0, args, 4, NULL),
		       SIMT_ERROR_INVALID_VALUE);
		EXPECT(simt_launch(NULL, dim(1, 1, 1), dim(1, 1, 1), 0, args, 4, NULL),
		       SIMT_ERROR_INVALID_VALUE);
		printf("bad launch: %s\n", simt_last_error());
		EXPECT(simt_launch(k, dim(1, 1, 1), dim(1, 1, 1), 0, args, 4, &seq2), SIMT_SUCCESS);
		CHECK(seq2 == seq + 1, "sequence numbers %llu then %llu",
		      (unsigned long long)seq, (unsigned long long)seq2);
		EXPECT(simt_context_synchronize(ctx), SIMT_SUCCESS);
	}
	simt_mem_free(a);
	simt_mem_free(b);
	simt_mem_free(out);
	free(fa);
	free(fb);
	free(fc);

	/* ids: every identity in a 3D grid of 3D blocks; it needs local memory. */
	MUST(simt_module_unload(m));
	MUST(simt_module_load(ctx, KERNEL_DIR "/ids.elf", &m));
	MUST(simt_module_get_kernel(m, "ids", &k));
	{
		const simt_dim3 shapes[2][2] = {
			{ { 3, 2, 2 }, { 4, 3, 2 } },	/* 24 threads */
			{ { 2, 1, 1 }, { 8, 8, 2 } },	/* 128: more local memory */
		};
		unsigned int s;

		for (s = 0; s < 2; s++) {
			simt_dim3 g = shapes[s][0], bl = shapes[s][1];
			uint32_t threads = bl.x * bl.y * bl.z, blocks = g.x * g.y * g.z;
			uint32_t words = threads * blocks * IDS_WORDS, bad;
			uint32_t arg;

			MUST(simt_mem_alloc(ctx, words * 4, &out));
			arg = simt_buffer_addr(out);
			if (run(k, g, bl, 0, &arg, 1) || finish(ctx))
				break;
			ids = malloc(words * 4);
			MUST(simt_memcpy_dtoh(ids, out, 0, words * 4));
			bad = check_ids(ids, g, bl, info.sm_count);
			CHECK(!bad, "%u threads with wrong identities", bad);
			printf("ids: grid %ux%ux%u of %ux%ux%u, %u threads checked\n",
			       g.x, g.y, g.z, bl.x, bl.y, bl.z, threads * blocks);
			free(ids);
			simt_mem_free(out);
		}
	}

	/* dynshared: each block reverses its slice through dynamic shared memory. */
	MUST(simt_module_unload(m));
	MUST(simt_module_load(ctx, KERNEL_DIR "/dynshared.elf", &m));
	MUST(simt_module_get_kernel(m, "dynshared", &k));
	{
		const uint32_t bs = 64, nb = 5, cnt = bs * nb;
		uint32_t args[2];

		in = malloc(cnt * 4);
		want = malloc(cnt * 4);
		ids = malloc(cnt * 4);
		for (i = 0; i < cnt; i++) {
			in[i] = i * 7 + 1;
			want[i] = (i / bs) * bs + (bs - 1 - i % bs) ;
			want[i] = want[i] * 7 + 1;
		}
		MUST(simt_mem_alloc(ctx, cnt * 4, &a));
		MUST(simt_mem_alloc(ctx, cnt * 4, &out));
		MUST(simt_memcpy_htod(a, 0, in, cnt * 4));
		args[0] = simt_buffer_addr(a);
		args[1] = simt_buffer_addr(out);
		if (!run(k, dim(nb, 1, 1), dim(bs, 1, 1), bs * 4, args, 2) &&
		    !finish(ctx)) {
			MUST(simt_memcpy_dtoh(ids, out, 0, cnt * 4));
			if (!check_u32("dynshared", ids, want, cnt))
				printf("dynshared: %u words reversed in blocks of %u\n", cnt, bs);
		}
		free(in);
		free(want);
		free(ids);
	}
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}

/* ---- errors: faults, device errors, refused launches, timeouts ---- */
/* samples.elf with kernel @name's register masks cleared: regs 0. */
static uint8_t *zero_regs_image(const uint8_t *data, size_t size, const char *name)
{
	struct simt_elf elf;
	struct simt_meta meta;
	const uint8_t *desc;
	uint32_t len, i;
	char err[256];
	uint8_t *copy = malloc(size), *out = NULL;

	memcpy(copy, data, size);
	if (simt_elf_parse(&elf, "samples.elf", copy, size, err, sizeof(err)) ||
	    simt_elf_find_meta(&elf, &desc, &len, err, sizeof(err)) != 1 ||
	    simt_meta_parse(&meta, desc, len, err, sizeof(err))) {
		FAIL("samples.elf: %s", err);
		return NULL;
	}
	for (i = 0; i < meta.h.nkernels; i++) {
		if (strcmp(meta.kernels[i].name, name))
			continue;
		out = malloc(size);
		memcpy(out, data, size);
		memset(out + (desc - elf.data) + meta.h.kernel_offset + i * meta.h.kernel_size +
		       offsetof(struct simt_meta_kernel, int_regs_used), 0, 8);
	}
	simt_meta_free(&meta);
	simt_elf_free(&elf);
	return out;
}

void test_errors(void)
{
	struct simt_result c;
	simt_device *dev;
	simt_context *ctx, *ctx2;
	simt_module *m, *m2;
	simt_kernel *k, *k2, *spin;
	simt_buffer *a, *out;
	uint8_t *data, *bad;
	uint64_t seq = 0;
	size_t size;
	uint32_t args[4];

	struct simt_device_info info;

	MUST(simt_device_open(node, &dev));
	MUST(simt_device_get_info(dev, &info));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	MUST(simt_context_create(dev, high_allowed(&info) ? SIMT_PRIORITY_HIGH :
				 SIMT_PRIORITY_NORMAL, 0, &ctx2));

	/* A launch the driver refuses: an image whose note says 0 registers. */
	data = read_file(KERNEL_DIR "/samples.elf", &size);
	CHECK(data != NULL, "cannot read samples.elf");
	if (!data)
		return;
	bad = zero_regs_image(data, size, "vecadd");
	CHECK(bad != NULL, "no vecadd in samples.elf");
	if (bad) {
		MUST(simt_module_load_data(ctx, bad, size, "zero-regs.elf", &m));
		MUST(simt_module_get_kernel(m, "vecadd", &k));
		EXPECT(simt_launch(k, dim(1, 1, 1), dim(1, 1, 1), 0, args, 4, NULL),
		       SIMT_ERROR_LAUNCH_REFUSED);
		printf("refused: %s\n", simt_last_error());
		MUST(simt_module_unload(m));
		free(bad);
	}

	MUST(simt_module_load_data(ctx, data, size, "samples.elf", &m));
	MUST(simt_module_get_kernel(m, "vecadd", &k));
	MUST(simt_module_get_kernel(m, "spin", &spin));
	MUST(simt_mem_alloc(ctx, 4096, &a));

	/* A timeout: a long kernel polled, then waited for. */
	MUST(simt_mem_alloc(ctx, 4 * 256 * 4, &out));
	args[0] = simt_buffer_addr(out);
	args[1] = 20000;
	EXPECT(simt_launch(spin, dim(4, 1, 1), dim(256, 1, 1), 0, args, 2, &seq), SIMT_SUCCESS);
	EXPECT(simt_wait(ctx, seq, 0, &c), SIMT_ERROR_TIMEOUT);
	CHECK(c.status == SIMT_ERROR_TIMEOUT, "completion status %d", c.status);
	printf("poll: %s\n", simt_last_error());
	EXPECT(simt_wait(ctx, seq, -1, &c), SIMT_SUCCESS);

	/* A kernel storing where its context has nothing faults. */
	args[0] = simt_buffer_addr(a);
	args[1] = simt_buffer_addr(a);
	args[2] = 0x200000;	/* below FIXED_VA_END: never a buffer's */
	args[3] = 64;
	EXPECT(simt_launch(k, dim(1, 1, 1), dim(64, 1, 1), 0, args, 4, &seq), SIMT_SUCCESS);
	EXPECT(simt_wait(ctx, seq, 30 * SEC_NS, &c), SIMT_ERROR_FAULT);
	CHECK(c.status == SIMT_ERROR_FAULT && c.fault_addr >= 0x200000 &&
	      c.fault_addr < 0x200000 + 64 * 4, "fault at 0x%llx",
	      (unsigned long long)c.fault_addr);
	printf("fault: %s\n", simt_last_error());
	/* The context takes no more work; the other one goes on. */
	EXPECT(simt_launch(k, dim(1, 1, 1), dim(64, 1, 1), 0, args, 4, NULL),
	       SIMT_ERROR_CONTEXT_FAILED);
	EXPECT(simt_memcpy_htod(a, 0, args, 4), SIMT_ERROR_CONTEXT_FAILED);
	EXPECT(simt_context_synchronize(ctx), SIMT_ERROR_FAULT);
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);

	/*
	 * A block too large for any SM is refused before it is submitted,
	 * naming the SM limit it exceeds; the context goes on.
	 */
	MUST(simt_module_load_data(ctx2, data, size, "samples.elf", &m2));
	MUST(simt_module_get_kernel(m2, "vecadd", &k2));
	MUST(simt_mem_alloc(ctx2, 4096, &a));
	args[0] = args[1] = args[2] = simt_buffer_addr(a);
	args[3] = 0;
	EXPECT(simt_launch(k2, dim(1, 1, 1), dim(64, 1, 1), 0, args, 4, &seq), SIMT_SUCCESS);
	EXPECT(simt_wait(ctx2, seq, 30 * SEC_NS, &c), SIMT_SUCCESS);
	EXPECT(simt_launch(k2, dim(1, 1, 1), dim(1024, 64, 1), 0, args, 4, &seq),
	       SIMT_ERROR_LAUNCH_REFUSED);
	printf("block of 65536 threads: %s\n", simt_last_error());
	CHECK(strstr(simt_last_error(), "a block of 65536 threads exceeds the device's") != NULL,
	      "the refusal does not name the threads per SM: %s", simt_last_error());
	EXPECT(simt_launch(k2, dim(1, 1, 1), dim(64, 1, 1), info.sm_shared + 1, args, 4, &seq),
	       SIMT_ERROR_LAUNCH_REFUSED);
	printf("%u bytes of shared memory: %s\n", info.sm_shared + 1, simt_last_error());
	CHECK(strstr(simt_last_error(), "shared memory per block") != NULL,
	      "the refusal does not name shared memory: %s", simt_last_error());
	EXPECT(simt_launch(k2, dim(1, 1, 1), dim(64, 1, 1), 0, args, 4, &seq), SIMT_SUCCESS);
	EXPECT(simt_wait(ctx2, seq, 30 * SEC_NS, &c), SIMT_SUCCESS);
	EXPECT(simt_context_destroy(ctx2), SIMT_SUCCESS);

	/* A new context works after all that. */
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	MUST(simt_module_load_data(ctx, data, size, "samples.elf", &m));
	MUST(simt_module_get_kernel(m, "vecadd", &k));
	MUST(simt_mem_alloc(ctx, 4096, &a));
	{
		float v[4] = { 1, 2, 3, 4 }, r[4];

		MUST(simt_memcpy_htod(a, 0, v, 16));
		args[0] = args[1] = simt_buffer_addr(a);
		args[2] = simt_buffer_addr(a) + 16;
		args[3] = 4;
		if (!run(k, dim(1, 1, 1), dim(32, 1, 1), 0, args, 4) && !finish(ctx)) {
			MUST(simt_memcpy_dtoh(r, a, 16, 16));
			CHECK(r[0] == 2 && r[1] == 4 && r[2] == 6 && r[3] == 8,
			      "a new context's vecadd: %g %g %g %g", r[0], r[1], r[2], r[3]);
		}
	}
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
	free(data);
	printf("errors: refused launch, timeout, fault, device error checked\n");
}

/* ---- metadata: what a launch carries from the note (0.3) ---- */
/* Does the launch command of @k with @args have the idempotent flag? */
static int cmd_flag(simt_kernel *k, const uint32_t *args, unsigned int nargs)
{
	struct drm_simt_cmd cmd;
	simt_status st = simt_internal_launch_cmd(k, dim(1, 1, 1), dim(32, 1, 1), 0, args, nargs,
						  &cmd);

	CHECK(st == SIMT_SUCCESS, "launch command: %s", simt_error_string(st));
	return !st && (cmd.flags & DRM_SIMT_CMD_LAUNCH_IDEMPOTENT);
}

void test_metadata(void)
{
	const uint32_t n = 4096;
	struct simt_device_info info;
	struct simt_image img;
	const struct simt_kernel_info *kv, *ks;
	struct drm_simt_cmd cmd;
	simt_device *dev;
	simt_context *ctx;
	simt_module *m;
	simt_kernel *vecadd, *saxpy;
	simt_buffer *a, *b, *out, *live;
	char err[256];
	float *fa, *fb, *fc;
	uint32_t i, meta_ok;

	MUST(simt_device_open(node, &dev));
	MUST(simt_device_get_info(dev, &info));
	meta_ok = info.uapi_minor >= 3;
	if (simt_image_load(&img, KERNEL_DIR "/samples.elf", err, sizeof(err))) {
		FAIL("%s", err);
		return;
	}
	kv = simt_image_kernel(&img, "vecadd");
	ks = simt_image_kernel(&img, "saxpy");
	if (!kv || !ks) {
		FAIL("samples.elf has no vecadd or saxpy");
		return;
	}
	/* What the rule below rests on: vecadd loads a0, a1, stores a2. */
	CHECK((kv->m.flags & SIMT_META_F_IDEMPOTENT) && kv->m.load_origins == 3 &&
	      kv->m.store_origins == 4, "vecadd's note: flags 0x%x loads 0x%x stores 0x%x",
	      kv->m.flags, kv->m.load_origins, kv->m.store_origins);
	CHECK(!(ks->m.flags & SIMT_META_F_IDEMPOTENT), "saxpy's note says idempotent");

	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	MUST(simt_module_load(ctx, KERNEL_DIR "/samples.elf", &m));
	MUST(simt_module_get_kernel(m, "vecadd", &vecadd));
	MUST(simt_module_get_kernel(m, "saxpy", &saxpy));
	MUST(simt_mem_alloc(ctx, n * 4, &a));
	MUST(simt_mem_alloc(ctx, n * 4, &b));
	MUST(simt_mem_alloc(ctx, n * 4, &out));

	/* The idempotence decision: the buffers behind the arguments. */
	{
		uint32_t A = simt_buffer_addr(a), B = simt_buffer_addr(b), O = simt_buffer_addr(out);
		const struct {
			simt_kernel *k;
			uint32_t args[4];
			int want;
			const char *what;
		} cases[] = {
			{ vecadd, { A, B, O, n }, 1, "three buffers" },
			{ vecadd, { A, B + 64, O + 4000, n }, 1, "addresses inside the buffers" },
			{ vecadd, { A, A, O, n }, 1, "one buffer loaded twice" },
			{ vecadd, { A, B, A, n }, 0, "the stored-to buffer loaded too" },
			{ vecadd, { A, B, A + 8192, n }, 0, "another part of a loaded buffer" },
			{ vecadd, { A, B, 0x200000, n }, 0, "a store to no buffer" },
			{ vecadd, { 0x200000, B, O, n }, 0, "a load from no buffer" },
			{ vecadd, { A, B, img.code_start, n }, 0, "a store into the image" },
			{ saxpy, { n, 0x40000000, A, B }, 0, "a kernel whose note says no" },
		};

		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			int got = simt_internal_launch_idempotent(cases[i].k, cases[i].args, 4);

			CHECK(got == cases[i].want, "idempotent, %s: %d, expected %d", cases[i].what,
			      got, cases[i].want);
			/* The command has the flag from 0.3 on, never before. */
			got = cmd_flag(cases[i].k, cases[i].args, 4);
			CHECK(got == (cases[i].want && meta_ok), "flag, %s: %d", cases[i].what, got);
		}
		/* Fewer arguments than the note names: a2 is 0, in no buffer. */
		CHECK(!simt_internal_launch_idempotent(vecadd, cases[0].args, 2),
		      "idempotent with a2 missing");
		printf("idempotence: %u cases decided as the rule says\n",
		       (unsigned)(sizeof(cases) / sizeof(cases[0])));
	}

	/* The command: live table, used registers (0.3), or the 0.2 form. */
	{
		uint32_t args[4] = { simt_buffer_addr(a), simt_buffer_addr(b),
				     simt_buffer_addr(out), n };

		MUST(simt_internal_launch_cmd(vecadd, dim(n / 128, 1, 1), dim(128, 1, 1), 0, args, 4,
					      &cmd));
	}
	live = simt_internal_module_live(m);
	if (meta_ok) {
		uint32_t count = (img.code_end - img.code_start) / 4;
		uint64_t *table = malloc(count * 8);

		CHECK(live != NULL, "no live table in device memory");
		CHECK(live && cmd.launch.live_addr == simt_buffer_addr(live),
		      "live_addr 0x%x", cmd.launch.live_addr);
		CHECK(cmd.launch.code_addr == img.code_start &&
		      cmd.launch.code_size == count * 4, "code 0x%x + %u", cmd.launch.code_addr,
		      cmd.launch.code_size);
		CHECK(cmd.launch.int_regs == kv->m.int_regs_used &&
		      cmd.launch.fp_regs == kv->m.fp_regs_used,
		      "registers 0x%x 0x%x, the note says 0x%x 0x%x", cmd.launch.int_regs,
		      cmd.launch.fp_regs, kv->m.int_regs_used, kv->m.fp_regs_used);
		/* The table in device memory is the note's, pc by pc. */
		if (live && simt_buffer_size(live) >= count * 8 &&
		    !simt_memcpy_dtoh(table, live, 0, count * 8)) {
			for (i = 0; i < count; i++)
				if (table[i] != simt_meta_live_at(&img.meta, img.code_start + 4 * i))
					break;
			CHECK(i == count, "live table entry %u (pc 0x%x): 0x%llx", i,
			      img.code_start + 4 * i, i < count ? (unsigned long long)table[i] : 0);
			if (i == count)
				printf("live table: %u masks at 0x%x equal the note's\n", count,
				       simt_buffer_addr(live));
		} else {
			FAIL("cannot read the live table");
		}
		free(table);
	} else {
		CHECK(!live && !cmd.flags && !cmd.launch.live_addr && !cmd.launch.int_regs &&
		      !cmd.launch.fp_regs, "metadata for a driver of interface %u.%u",
		      info.uapi_major, info.uapi_minor);
		printf("interface %u.%u: the launch carries no metadata (checked)\n",
		       info.uapi_major, info.uapi_minor);
	}

	/* The device takes both: vecadd flagged, saxpy not, results checked. */
	fa = malloc(n * 4);
	fb = malloc(n * 4);
	fc = malloc(n * 4);
	for (i = 0; i < n; i++) {
		fa[i] = i * 0.25f;
		fb[i] = 7.0f - i;
	}
	MUST(simt_memcpy_htod(a, 0, fa, n * 4));
	MUST(simt_memcpy_htod(b, 0, fb, n * 4));
	if (!run(vecadd, dim(n / 128, 1, 1), dim(128, 1, 1), 0,
		 (uint32_t[]){ simt_buffer_addr(a), simt_buffer_addr(b), simt_buffer_addr(out), n },
		 4) && !finish(ctx) && !simt_memcpy_dtoh(fc, out, 0, n * 4)) {
		for (i = 0; i < n && fc[i] == fa[i] + fb[i]; i++)
			;
		CHECK(i == n, "vecadd [%u]", i);
	}
	if (!run(saxpy, dim(8, 1, 1), dim(128, 1, 1), 0,
		 (uint32_t[]){ n, fbits(2.0f), simt_buffer_addr(a), simt_buffer_addr(b) }, 4) &&
	    !finish(ctx) && !simt_memcpy_dtoh(fc, b, 0, n * 4)) {
		for (i = 0; i < n && fc[i] == 2.0f * fa[i] + fb[i]; i++)
			;
		CHECK(i == n, "saxpy [%u]", i);
	}
	printf("vecadd (idempotent flag %s) and saxpy (no flag) ran: results checked\n",
	       meta_ok ? "set, with the live table" : "not sent, no metadata");
	free(fa);
	free(fb);
	free(fc);
	simt_image_free(&img);
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}

/* ---- userq: launches through a user queue (interface 0.8) ---- */

void test_userq(void)
{
	const uint32_t n = 2048, launches = 300;
	simt_device *dev;
	simt_context *ctx;
	simt_module *m;
	simt_kernel *k;
	simt_buffer *a, *b;
	simt_userq *q, *q2;
	struct simt_result c;
	float *fa, *fb, *ma, want;
	uint32_t i, bad = 0;
	uint64_t v = 0, v2;

	MUST(simt_device_open(node, &dev));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	MUST(simt_module_load(ctx, KERNEL_DIR "/samples.elf", &m));
	MUST(simt_module_get_kernel(m, "vecadd", &k));
	MUST(simt_mem_alloc(ctx, n * 4, &a));
	MUST(simt_mem_alloc(ctx, n * 4, &b));
	fa = malloc(n * 4);
	fb = malloc(n * 4);
	for (i = 0; i < n; i++) {
		fa[i] = i;
		fb[i] = 1 + (i % 5);
	}
	/* Filled through SUBMIT first: the queue waits for it. */
	MUST(simt_memcpy_htod(a, 0, fa, n * 4));
	MUST(simt_memcpy_htod(b, 0, fb, n * 4));
	EXPECT(simt_userq_create(ctx, 3, &q), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_userq_create(ctx, 8192, &q), SIMT_ERROR_INVALID_VALUE);
	MUST(simt_userq_create(ctx, 16, &q));
	EXPECT(simt_userq_create(ctx, 16, &q2), SIMT_ERROR_INVALID_VALUE);

	/* a += b, 300 times through a ring of 16 entries: it fills and wraps. */
	{
		uint32_t args[4] = { simt_buffer_addr(a), simt_buffer_addr(b),
				     simt_buffer_addr(a), n };

		for (i = 0; i < launches; i++) {
			EXPECT(simt_userq_launch(q, k, dim(n / 128, 1, 1), dim(128, 1, 1), 0,
						 args, 4, &v2), SIMT_SUCCESS);
			CHECK(v2 == v + 1, "launch %u got fence value %llu after %llu", i,
			      (unsigned long long)v2, (unsigned long long)v);
			v = v2;
		}
		EXPECT(simt_userq_wait(q, v + 1, 0, NULL), SIMT_ERROR_INVALID_VALUE);
		EXPECT(simt_userq_wait(q, v, 30 * SEC_NS, &c), SIMT_SUCCESS);
		CHECK(c.status == SIMT_SUCCESS && simt_userq_done(q) >= v,
		      "status %d, fence %llu, waited for %llu", c.status,
		      (unsigned long long)simt_userq_done(q), (unsigned long long)v);
	}
	MUST(simt_buffer_map(a, (void **)&ma));
	for (i = 0; i < n; i++) {
		want = i + (float)launches * (1 + (i % 5));
		if (ma[i] != want && !bad++)
			FAIL("a[%u] = %g after %u launches, expected %g", i, ma[i], launches, want);
	}
	printf("userq: %u launches of vecadd through a ring of 16 entries, %u of %u wrong\n",
	       launches, bad, n);
	/* The context takes no SUBMIT now. */
	EXPECT(simt_memcpy_htod(a, 0, fa, n * 4), SIMT_ERROR_INVALID_VALUE);
	EXPECT(simt_launch(k, dim(1, 1, 1), dim(1, 1, 1), 0, (uint32_t[4]){ 0 }, 4, NULL),
	       SIMT_ERROR_INVALID_VALUE);

	/* A kernel that faults: the wait says so, and where. */
	{
		uint32_t args[4] = { simt_buffer_addr(a), simt_buffer_addr(b), 0x200000, n };

		EXPECT(simt_userq_launch(q, k, dim(n / 128, 1, 1), dim(128, 1, 1), 0, args, 4,
					 &v), SIMT_SUCCESS);
		EXPECT(simt_userq_wait(q, v, 30 * SEC_NS, &c), SIMT_ERROR_FAULT);
		CHECK(c.status == SIMT_ERROR_FAULT && c.fault_addr >= 0x200000 &&
		      c.fault_addr < 0x200000 + n * 4,
		      "fault: status %d, address 0x%llx, device error %u", c.status,
		      (unsigned long long)c.fault_addr, c.hw_error);
		printf("userq: a faulting kernel reported at 0x%llx (%s)\n",
		       (unsigned long long)c.fault_addr, simt_last_error());
	}
	free(fa);
	free(fb);
	MUST(simt_context_destroy(ctx));
	MUST(simt_device_close(dev));
}
