// SPDX-License-Identifier: MIT
/*
 * launch.c: simt-ioctl-test's groups that run kernels: launch (vecadd,
 * bad launches, a faulting kernel), samples (the sample kernels, results
 * checked), sysmem (kernels on system memory objects) and launch64.
 */
#include "ioctl-test.h"

/* ---- launch: run vecadd, check c = a + b; bad launches; a faulting one ---- */

void test_launch(void)
{
	const uint32_t n = 10000, threads = 128;
	const uint32_t grid[3] = { (n + threads - 1) / threads, 1, 1 };
	const uint32_t block[3] = { threads, 1, 1 };
	const uint64_t bytes = n * sizeof(float);
	uint32_t sm_count = get_param(DRM_SIMT_PARAM_SM_COUNT);
	uint32_t sm_blocks = get_param(DRM_SIMT_PARAM_SM_BLOCKS);
	const struct simt_kernel_info *k;
	struct drm_simt_cmd cmd, good;
	struct drm_simt_submit sb;
	struct drm_simt_wait w;
	struct simt_image img;
	uint32_t ctx, ctx2, code, ha, hb, hc, hl = 0;
	uint64_t da, db, dc, local = 0, seq;
	long long st0[ST_NR] = { 0 };
	float *ma, *mb, *mc;
	char err[256];
	uint32_t i, bad;

	if (simt_image_load(&img, KERNEL_DIR "/vecadd.elf", err, sizeof(err))) {
		FAIL("cannot load the kernel image: %s", err);
		return;
	}
	k = simt_image_kernel(&img, "vecadd");
	CHECK(k != NULL, "no vecadd in the image's metadata");
	if (!k)
		return;
	printf("vecadd.elf: %u bytes at 0x%x, code 0x%x..0x%x, entry 0x%x, local %u, regs %d\n",
	       img.size, img.base, img.code_start, img.code_end, k->m.entry,
	       k->m.local_bytes,
	       popcount32(k->m.int_regs_used) + popcount32(k->m.fp_regs_used));

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);

	/* The image goes into VRAM through the mapping, at its link address. */
	code = image_bo(&img, ctx, DRM_SIMT_BO_VRAM);

	ha = bo_new(bytes, DRM_SIMT_BO_VRAM);
	hb = bo_new(bytes, DRM_SIMT_BO_VRAM);
	hc = bo_new(bytes, DRM_SIMT_BO_VRAM);
	da = bind(ctx, ha);
	db = bind(ctx, hb);
	dc = bind(ctx, hc);
	ma = (float *)bo_map(ha, bytes);
	mb = (float *)bo_map(hb, bytes);
	mc = (float *)bo_map(hc, bytes);
	for (i = 0; i < n; i++) {
		ma[i] = i * 0.5f;
		mb[i] = 1000.0f - i * 0.25f;
		mc[i] = -1.0f;
	}
	if (k->m.local_bytes) {
		uint64_t lb = (uint64_t)k->m.local_bytes * threads * sm_count * sm_blocks;

		hl = bo_new(lb, DRM_SIMT_BO_VRAM);
		local = bind(ctx, hl);
	}

	good = launch_cmd(&img, k, grid, block,
			  (const uint32_t[8]){ da, db, dc, n }, local);
	CHECK(stats_read(st0) == 0, "stats");
	seq = run(ctx, &good, 1);
	CHECK(wait_seq(ctx, seq, 0, &w) == 0 && w.error == DRM_SIMT_ERROR_NONE,
	      "WAIT after the run");
	printf("vecadd ran from cycle %llu to %llu\n",
	       (unsigned long long)w.start_cycle, (unsigned long long)w.end_cycle);
	CHECK(w.start_cycle > 0 && w.end_cycle > w.start_cycle,
	      "implausible cycles %llu..%llu", (unsigned long long)w.start_cycle,
	      (unsigned long long)w.end_cycle);
	CHECK(w.fault_pc == 0 && w.fault_addr == 0, "fault reported for a clean run");
	{
		/* Exactly this launch, as the statistics see it. */
		long long d[ST_NR] = { 1, 1, 0, 0, 0, 0, 1,
				       (long long)(w.end_cycle - w.start_cycle), -1 };

		stats_expect("one launch", st0, d);
	}
	/* A launch then a copy: the launch's cycles, later than the first's. */
	{
		uint32_t scratch = bo_new(4096, DRM_SIMT_BO_SYSTEM);
		struct drm_simt_cmd two[2] = {
			good, copy_cmd(ha, 0, scratch, 0, 4096),
		};
		uint64_t prev_end = w.end_cycle;
		uint8_t *ms;

		seq = run(ctx, two, 2);
		CHECK(wait_seq(ctx, seq, 0, &w) == 0 && w.start_cycle > prev_end &&
		      w.end_cycle > w.start_cycle,
		      "launch then copy: cycles %llu..%llu after %llu",
		      (unsigned long long)w.start_cycle,
		      (unsigned long long)w.end_cycle,
		      (unsigned long long)prev_end);
		ms = bo_map(scratch, 4096);
		CHECK(!memcmp(ms, ma, 4096), "the copy after the launch");
		munmap(ms, 4096);
		bo_close(scratch);
	}
	for (i = 0, bad = 0; i < n; i++) {
		float want = ma[i] + mb[i];

		if (memcmp(&mc[i], &want, sizeof(want))) {
			if (!bad++)
				FAIL("c[%u] = %g, expected %g", i, mc[i], want);
		}
	}
	printf("vecadd of %u elements: %u wrong\n", n, bad);

	/* Bad launches are refused before they reach the device. */
#define LAUNCH_EXPECT(field, value) do { \
	cmd = good; \
	cmd.launch.field = value; \
	sb = (struct drm_simt_submit){ .ctx_id = ctx, .cmds = (uintptr_t)&cmd, \
		.cmd_count = 1, .cmd_size = sizeof(cmd) }; \
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, EINVAL); \
} while (0)
	LAUNCH_EXPECT(grid[0], 0);
	LAUNCH_EXPECT(grid[2], 0);
	LAUNCH_EXPECT(block[1], 0);
	LAUNCH_EXPECT(regs, 0);
	LAUNCH_EXPECT(regs, 65);
	LAUNCH_EXPECT(local_size, 8);
	LAUNCH_EXPECT(code_size, 0);
	LAUNCH_EXPECT(code_size, (4u << 20) + 4);
	LAUNCH_EXPECT(entry, img.code_end);
	LAUNCH_EXPECT(entry, img.code_start - 4);
	LAUNCH_EXPECT(entry, k->m.entry + 2);
	/* Since 0.4: a subgrid must lie inside the grid (block_count 0: all). */
	LAUNCH_EXPECT(first_block, 1);
	LAUNCH_EXPECT(block_count, good.launch.grid[0] + 1);
	cmd = good;
	cmd.launch.first_block = good.launch.grid[0];
	cmd.launch.block_count = 1;
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, EINVAL);
	cmd.launch.first_block = UINT32_MAX;
	cmd.launch.block_count = 2;	/* wraps to 1 in 32 bits */
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, EINVAL);
	cmd = good;
	cmd.launch.grid[0] = 1u << 16;
	cmd.launch.grid[1] = 1u << 16;	/* 2^32 blocks */
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, EINVAL);
	cmd = good;
	cmd.reserved[13] = 1;
	sb = (struct drm_simt_submit){ .ctx_id = ctx, .cmds = (uintptr_t)&cmd,
		.cmd_count = 1, .cmd_size = sizeof(cmd) };
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, EINVAL);
	cmd = good;
	cmd.flags = DRM_SIMT_CMD_LAUNCH_IDEMPOTENT << 1;	/* unknown flag */
	EXPECT(DRM_IOCTL_SIMT_SUBMIT, &sb, EINVAL);
	printf("bad launches refused\n");

	/*
	 * Since 0.3: the live table, the used registers and the idempotent
	 * flag (vecadd's note says idempotent; a, b and c do not overlap).
	 */
	{
		uint32_t live;

		cmd = good;
		cmd.flags = DRM_SIMT_CMD_LAUNCH_IDEMPOTENT;
		live = live_upload(&img, "vecadd", ctx, &cmd);
		CHECK(k->m.flags & SIMT_META_F_IDEMPOTENT, "vecadd is not idempotent");
		printf("vecadd with its live table at 0x%x, registers 0x%x/0x%x, idempotent\n",
		       cmd.launch.live_addr, cmd.launch.int_regs, cmd.launch.fp_regs);
		memset(mc, 0, bytes);
		if (live) {
			run(ctx, &cmd, 1);
			for (i = 0, bad = 0; i < n; i++) {
				float want = ma[i] + mb[i];

				if (memcmp(&mc[i], &want, sizeof(want)) && !bad++)
					FAIL("with the metadata: c[%u] = %g, expected %g",
					     i, mc[i], want);
			}
			printf("vecadd with the 0.3 launch metadata: %u wrong\n", bad);
			bo_close(live);	/* the binding keeps it */
		}
	}

	/* A kernel storing to an address its context has not bound faults. */
	ctx2 = ctx_new(DRM_SIMT_PRIORITY_HIGH);
	bind(ctx2, ha);
	cmd = good;
	cmd.launch.args[2] = 0x200000;	/* below FIXED_VA_END: never an object's */
	CHECK(stats_read(st0) == 0, "stats");
	CHECK(submit(ctx, &cmd, 1, &seq) == 0, "submit of the faulting kernel");
	CHECK(wait_seq(ctx, seq, 10 * SEC_NS, &w) == 0, "wait");
	printf("faulting kernel: error %u, hw_error %u, fault at 0x%llx, pc 0x%x, cycles %llu..%llu\n",
	       w.error, w.hw_error, (unsigned long long)w.fault_addr, w.fault_pc,
	       (unsigned long long)w.start_cycle, (unsigned long long)w.end_cycle);
	CHECK(w.error == DRM_SIMT_ERROR_FAULT && w.fault_addr >= 0x200000 &&
	      w.fault_addr < 0x200000 + bytes, "the kernel's fault was not reported");
	CHECK(w.fault_pc >= img.code_start && w.fault_pc < img.code_end &&
	      w.fault_pc % 4 == 0, "fault pc 0x%x is not in the code 0x%x..0x%x",
	      w.fault_pc, img.code_start, img.code_end);
	CHECK(w.start_cycle > 0 && w.end_cycle >= w.start_cycle,
	      "the faulting launch's cycles %llu..%llu",
	      (unsigned long long)w.start_cycle, (unsigned long long)w.end_cycle);
	{
		/* A stopped context: an error, nothing completed. */
		long long d[ST_NR] = { 1, 0, 1, 0, 0, 0, 0, 0, -1 };

		stats_expect("a faulting launch", st0, d);
	}
	CHECK(submit(ctx, &good, 1, &seq) == -EIO, "a faulted context took work");

	/* Another context runs the good kernel meanwhile. */
	{
		struct drm_simt_vm_bind b = { .ctx_id = ctx2, .handle = code,
			.flags = DRM_SIMT_VM_BIND_FIXED, .device_addr = img.base };

		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, 0);
	}
	bind(ctx2, hb);
	bind(ctx2, hc);
	if (hl)
		bind(ctx2, hl);
	memset(mc, 0, bytes);
	run(ctx2, &good, 1);
	CHECK(mc[n - 1] == ma[n - 1] + mb[n - 1], "other context's vecadd");
	printf("another context's kernel completes\n");

	munmap(ma, bytes);
	munmap(mb, bytes);
	munmap(mc, bytes);
	CHECK(ctx_destroy(ctx) == 0 && ctx_destroy(ctx2) == 0, "destroy");
	bo_close(code);
	bo_close(ha);
	bo_close(hb);
	bo_close(hc);
	if (hl)
		bo_close(hl);
	simt_image_free(&img);
}

static int check_floats(const char *what, const float *got, const float *want,
			uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (got[i] != want[i]) {
			FAIL("%s: [%u] = %g, expected %g", what, i,
			     got[i], want[i]);
			return -1;
		}
	}
	return 0;
}

/*
 * ---- samples: saxpy, matmul, reduce (tree and warp), histogram, each
 * checked against what this program computes.  Inputs are small
 * integers, so every float result is exact whatever the order of the
 * additions and whether the compiler fused a multiply-add. ----
 */

void test_samples(void)
{
	uint32_t ctx, hx, hy, hz, ax, ay, az, i, j, k;
	struct kimg ki;
	float *x, *y, *z, *want;

	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);

	/* saxpy: y = 2 x + y on 5000 elements, a grid smaller than n. */
	if (!kimg_load(&ki, "saxpy.elf", ctx)) {
		const uint32_t n = 5000, grid[3] = { 8, 1, 1 }, block[3] = { 128, 1, 1 };
		float a = 2.0f;
		uint32_t a_bits;

		memcpy(&a_bits, &a, 4);
		x = vbuf(ctx, n * 4, &hx, &ax);
		y = vbuf(ctx, n * 4, &hy, &ay);
		want = malloc(n * 4);
		for (i = 0; i < n; i++) {
			x[i] = i % 1000;
			y[i] = 3.0f * (i % 777);
			want[i] = a * x[i] + y[i];
		}
		if (!kimg_run(&ki, ctx, "saxpy", grid, block,
			      (uint32_t[8]){ n, a_bits, ax, ay }) &&
		    !check_floats("saxpy", y, want, n))
			printf("saxpy: %u elements checked\n", n);
		munmap(x, n * 4);
		munmap(y, n * 4);
		bo_close(hx);
		bo_close(hy);
		free(want);
		kimg_free(&ki);
	}

	/* matmul: 48 x 48, tiles of 16 through shared memory. */
	if (!kimg_load(&ki, "matmul.elf", ctx)) {
		const uint32_t n = 48, grid[3] = { n / 16, n / 16, 1 };
		const uint32_t block[3] = { 16, 16, 1 };

		x = vbuf(ctx, n * n * 4, &hx, &ax);
		y = vbuf(ctx, n * n * 4, &hy, &ay);
		z = vbuf(ctx, n * n * 4, &hz, &az);
		want = calloc(n * n, 4);
		for (i = 0; i < n * n; i++) {
			x[i] = (float)((i * 7) % 11) - 5.0f;
			y[i] = (float)((i * 5) % 13) - 6.0f;
		}
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				for (k = 0; k < n; k++)
					want[i * n + j] += x[i * n + k] * y[k * n + j];
		if (!kimg_run(&ki, ctx, "matmul", grid, block,
			      (uint32_t[8]){ ax, ay, az, n }) &&
		    !check_floats("matmul", z, want, n * n))
			printf("matmul: %u x %u checked\n", n, n);
		munmap(x, n * n * 4);
		munmap(y, n * n * 4);
		munmap(z, n * n * 4);
		bo_close(hx);
		bo_close(hy);
		bo_close(hz);
		free(want);
		kimg_free(&ki);
	}

	/* reduce: partial sums per block of 256, by tree and by warp shuffles. */
	if (!kimg_load(&ki, "reduce.elf", ctx)) {
		const uint32_t n = 10000, bs = 256, nb = (n + bs - 1) / bs;
		const uint32_t grid[3] = { nb, 1, 1 }, block[3] = { bs, 1, 1 };
		const char *names[] = { "reduce_tree", "reduce_warp" };

		x = vbuf(ctx, n * 4, &hx, &ax);
		y = vbuf(ctx, nb * 4, &hy, &ay);
		want = calloc(nb, 4);
		for (i = 0; i < n; i++) {
			x[i] = (float)(i % 100);
			want[i / bs] += x[i];
		}
		for (j = 0; j < 2; j++) {
			memset(y, 0, nb * 4);
			if (!kimg_run(&ki, ctx, names[j], grid, block,
				      (uint32_t[8]){ ax, ay, n }) &&
			    !check_floats(names[j], y, want, nb))
				printf("%s: %u partial sums checked\n", names[j], nb);
		}
		munmap(x, n * 4);
		munmap(y, nb * 4);
		bo_close(hx);
		bo_close(hy);
		free(want);
		kimg_free(&ki);
	}

	/* histogram: 256 bins of 20000 bytes, shared and global atomics. */
	if (!kimg_load(&ki, "histogram.elf", ctx)) {
		const uint32_t n = 20000, grid[3] = { 6, 1, 1 }, block[3] = { 128, 1, 1 };
		uint32_t *bins, wbins[256] = { 0 };
		uint8_t *data;

		data = vbuf(ctx, n, &hx, &ax);
		bins = vbuf(ctx, 256 * 4, &hy, &ay);
		for (i = 0; i < n; i++) {
			data[i] = pat(i, 9) % 97 + (i % 3) * 50;
			wbins[data[i]]++;
		}
		if (!kimg_run(&ki, ctx, "histogram", grid, block,
			      (uint32_t[8]){ ax, n, ay })) {
			for (i = 0; i < 256; i++)
				if (bins[i] != wbins[i]) {
					FAIL("bin %u = %u, expected %u", i,
					     bins[i], wbins[i]);
					break;
				}
			if (i == 256)
				printf("histogram: 256 bins of %u bytes checked\n", n);
		}
		munmap(data, n);
		munmap(bins, 256 * 4);
		bo_close(hx);
		bo_close(hy);
		kimg_free(&ki);
	}
	CHECK(ctx_destroy(ctx) == 0, "destroy");
}

/*
 * ---- sysmem: kernels on system memory objects.  vecadd with its code,
 * inputs and output all in system memory, bound to the context through
 * the device MMU (SIMT_PTE_SYS pages), filled and read back through
 * mmap; then the output unbound, and the same launch faults. ----
 */
void test_sysmem(void)
{
	const uint32_t n = 5000, threads = 128;
	const uint32_t grid[3] = { (n + threads - 1) / threads, 1, 1 };
	const uint32_t block[3] = { threads, 1, 1 };
	const uint64_t bytes = n * sizeof(float);
	const uint64_t vram = get_param(DRM_SIMT_PARAM_VRAM_SIZE);
	const struct simt_kernel_info *k;
	struct drm_simt_cmd cmd;
	struct drm_simt_wait w;
	struct simt_image img;
	uint32_t ctx, ctx2, code, h[3], hl = 0, i, bad;
	uint64_t d[3], local = 0, seq;
	float *m[3];
	char err[256];

	if (simt_image_load(&img, KERNEL_DIR "/vecadd.elf", err, sizeof(err))) {
		FAIL("cannot load the kernel image: %s", err);
		return;
	}
	k = simt_image_kernel(&img, "vecadd");
	CHECK(k != NULL, "no vecadd in the image's metadata");
	if (!k)
		return;
	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);

	/* The code in a system object too, bound at its link address. */
	code = image_bo(&img, ctx, DRM_SIMT_BO_SYSTEM);

	for (i = 0; i < 3; i++) {
		uint64_t info;

		h[i] = bo_new(bytes, DRM_SIMT_BO_SYSTEM);
		info = bo_info(h[i]).device_addr;
		d[i] = bind(ctx, h[i]);
		printf("system object %u: device address 0x%llx\n", i,
		       (unsigned long long)d[i]);
		CHECK(d[i] == info && d[i] >= vram && !(d[i] & 4095) &&
		      d[i] + bytes <= 0xc0000000ull,
		      "system object at 0x%llx (BO_INFO 0x%llx, VRAM %llu)",
		      (unsigned long long)d[i], (unsigned long long)info,
		      (unsigned long long)vram);
		CHECK(i == 0 || d[i] >= d[i - 1] + bytes || d[i] + bytes <= d[i - 1],
		      "system objects overlap");
		m[i] = (float *)bo_map(h[i], bytes);
	}
	{
		struct drm_simt_vm_bind b = { .ctx_id = ctx, .handle = h[0] };

		EXPECT(DRM_IOCTL_SIMT_VM_BIND, &b, EEXIST);
	}
	for (i = 0; i < n; i++) {
		m[0][i] = i * 0.75f;
		m[1][i] = 500.0f - i * 0.5f;
		m[2][i] = -1.0f;
	}
	if (k->m.local_bytes) {
		hl = bo_new((uint64_t)k->m.local_bytes * threads *
			    get_param(DRM_SIMT_PARAM_SM_COUNT) *
			    get_param(DRM_SIMT_PARAM_SM_BLOCKS),
			    DRM_SIMT_BO_VRAM);
		local = bind(ctx, hl);
	}
	cmd = launch_cmd(&img, k, grid, block,
			 (const uint32_t[8]){ d[0], d[1], d[2], n }, local);
	run(ctx, &cmd, 1);
	for (i = 0, bad = 0; i < n; i++) {
		float want = m[0][i] + m[1][i];

		if (memcmp(&m[2][i], &want, sizeof(want)) && !bad++)
			FAIL("c[%u] = %g, expected %g", i, m[2][i], want);
	}
	printf("vecadd on system memory, %u elements: %u wrong\n", n, bad);

	/* Another context does not see the bindings: it faults. */
	ctx2 = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	{
		struct drm_simt_cmd c2 = cmd;

		c2.launch.local_size = 0;
		c2.launch.local_base = 0;
		CHECK(submit(ctx2, &c2, 1, &seq) == 0, "submit on ctx2");
		CHECK(wait_seq(ctx2, seq, 10 * SEC_NS, &w) == 0 &&
		      w.error == DRM_SIMT_ERROR_FAULT,
		      "a context without the bindings ran: error %u", w.error);
	}
	CHECK(ctx_destroy(ctx2) == 0, "destroy ctx2");

	/* Unbind the output: the same launch faults on it, writing nothing. */
	{
		struct drm_simt_vm_unbind u = { .ctx_id = ctx, .handle = h[2] };

		EXPECT(DRM_IOCTL_SIMT_VM_UNBIND, &u, 0);
	}
	for (i = 0; i < n; i++)
		m[2][i] = -1.0f;
	CHECK(submit(ctx, &cmd, 1, &seq) == 0, "submit after unbind");
	CHECK(wait_seq(ctx, seq, 10 * SEC_NS, &w) == 0, "wait after unbind");
	printf("after unbind: error %u, hw_error %u, fault at 0x%llx (object at 0x%llx)\n",
	       w.error, w.hw_error, (unsigned long long)w.fault_addr,
	       (unsigned long long)d[2]);
	CHECK(w.error == DRM_SIMT_ERROR_FAULT && w.hw_error != 0,
	      "no MMU fault reported: error %u", w.error);
	CHECK(w.fault_addr >= d[2] && w.fault_addr < d[2] + bytes,
	      "fault at 0x%llx, not in the unbound object",
	      (unsigned long long)w.fault_addr);
	for (i = 0, bad = 0; i < n; i++)
		bad += m[2][i] != -1.0f;
	CHECK(bad == 0, "%u elements written through an unbound mapping", bad);

	CHECK(ctx_destroy(ctx) == 0, "destroy");
	for (i = 0; i < 3; i++) {
		munmap(m[i], bytes);
		bo_close(h[i]);
	}
	bo_close(code);
	if (hl)
		bo_close(hl);
	simt_image_free(&img);
	printf("sysmem: kernel on system objects, EEXIST, isolation, unbind faults: done\n");
}

/*
 * ---- launch64: DRM_SIMT_CMD_LAUNCH64 (0.6), the LAUNCH with 64-bit
 * device addresses: spin runs through it with the same results as
 * through LAUNCH; an address at or beyond 4 GiB (contexts are Sv32) and
 * a nonzero byte past the struct are EINVAL, and nothing of those runs ----
 */
static struct drm_simt_cmd launch64_of(const struct drm_simt_cmd *c)
{
	const struct drm_simt_cmd_launch *l = &c->launch;
	struct drm_simt_cmd w = { .type = DRM_SIMT_CMD_LAUNCH64, .flags = c->flags };

	w.launch64 = (struct drm_simt_cmd_launch64){
		.code_addr = l->code_addr, .entry = l->entry, .local_base = l->local_base,
		.live_addr = l->live_addr, .code_size = l->code_size, .shared_size = l->shared_size,
		.local_size = l->local_size, .regs = l->regs, .int_regs = l->int_regs,
		.fp_regs = l->fp_regs, .first_block = l->first_block,
		.block_count = l->block_count,
	};
	memcpy(w.launch64.grid, l->grid, sizeof(l->grid));
	memcpy(w.launch64.block, l->block, sizeof(l->block));
	memcpy(w.launch64.args, l->args, sizeof(l->args));
	return w;
}

void test_launch64(void)
{
	struct drm_simt_cmd w, bad;
	struct drm_simt_wait wt;
	struct spinjob j;
	uint32_t ctx;
	uint64_t seq;
	int r;

	CHECK(sizeof(struct drm_simt_cmd_launch64) <= sizeof(((struct drm_simt_cmd *)0)->reserved),
	      "LAUNCH64 does not fit the command");
	ctx = ctx_new(DRM_SIMT_PRIORITY_NORMAL);
	if (spin_setup(&j, ctx, 8, 64, 300))
		return;
	w = launch64_of(&j.cmd);
	memset(j.m, 0, j.n * 4);
	r = submit(ctx, &w, 1, &seq);
	CHECK(r == 0, "SUBMIT of a LAUNCH64: %s", strerror(-r));
	if (!r) {
		r = wait_seq(ctx, seq, 10 * SEC_NS, &wt);
		CHECK(r == 0 && wt.error == DRM_SIMT_ERROR_NONE, "LAUNCH64: WAIT %d, error %u",
		      r, wt.error);
		CHECK(spin_wrong(&j, 1) == 0, "LAUNCH64: wrong results");
		CHECK(wt.end_cycle > wt.start_cycle, "LAUNCH64: no cycles in its record");
	}
	printf("spin through LAUNCH64: %u outputs right\n", j.n);

	bad = w;
	bad.launch64.code_addr += 1ull << 32;
	bad.launch64.entry += 1ull << 32;
	CHECK(submit(ctx, &bad, 1, &seq) == -EINVAL, "LAUNCH64 with code at 4 GiB + 0x%x",
	      j.cmd.launch.code_addr);
	bad = w;
	bad.launch64.local_base = 1ull << 32;
	CHECK(submit(ctx, &bad, 1, &seq) == -EINVAL, "LAUNCH64 with local memory at 4 GiB");
	bad = w;
	bad.launch64.live_addr = ~0ull & ~7ull;
	CHECK(submit(ctx, &bad, 1, &seq) == -EINVAL, "LAUNCH64 with its live table at 2^64 - 8");
	bad = w;
	bad.reserved[15] = 1;
	CHECK(submit(ctx, &bad, 1, &seq) == -EINVAL, "LAUNCH64 with a byte past it not zero");
	bad = w;
	bad.flags = 2;
	CHECK(submit(ctx, &bad, 1, &seq) == -EINVAL, "LAUNCH64 with an unknown flag");
	/* The refused ones left the context running: one more runs. */
	r = submit(ctx, &w, 1, &seq);
	CHECK(r == 0 && wait_seq(ctx, seq, 10 * SEC_NS, &wt) == 0 &&
	      wt.error == DRM_SIMT_ERROR_NONE, "a LAUNCH64 after the refused ones");
	printf("LAUNCH64 beyond 4 GiB, with a reserved byte or an unknown flag: EINVAL\n");
	spin_free(&j, 1);
	CHECK(ctx_destroy(ctx) == 0, "destroy");
}
