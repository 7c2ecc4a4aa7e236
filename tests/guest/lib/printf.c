// SPDX-License-Identifier: MIT
/*
 * printf.c: simt-lib-test's printf group: device printf's records printed
 * by libsimt at the synchronisations that cover every launch of the
 * module sharing the buffer (docs/toolchain.rst, "Device printf").
 */
#include "lib-test.h"

/* ---- printf: device printf's records, printed at the synchronisations ---- */

static int capture_fd = -1, saved_stdout = -1;

/* Send stdout to a file until capture_end(). */
static void capture_begin(void)
{
	char path[] = "/tmp/simt-lib-test.XXXXXX";

	fflush(stdout);
	capture_fd = mkstemp(path);
	if (capture_fd < 0) {
		FAIL("mkstemp: %s", strerror(errno));
		return;
	}
	unlink(path);
	saved_stdout = dup(STDOUT_FILENO);
	dup2(capture_fd, STDOUT_FILENO);
}

/* What was printed since capture_begin(), in @out (NUL-terminated). */
static void capture_end(char *out, size_t size)
{
	ssize_t n;

	out[0] = 0;
	fflush(stdout);
	if (capture_fd < 0)
		return;
	dup2(saved_stdout, STDOUT_FILENO);
	close(saved_stdout);
	n = pread(capture_fd, out, size - 1, 0);
	out[n > 0 ? n : 0] = 0;
	close(capture_fd);
	capture_fd = -1;
}

/*
 * print_values of kernels/devprintf.c on three threads, with the
 * arguments of the host runner's test (tests/runner/test-simt-run.sh,
 * t_printf), and what it prints: the host's lines, with the float
 * buffer's address for %p.
 */
struct print_values {
	simt_kernel *k;
	simt_buffer *in, *f, *name, *ret;
	uint32_t args[4];
	char lines[512];
};

static int print_values_setup(simt_context *ctx, simt_module *m, struct print_values *p)
{
	static const int32_t in[3] = { -5, 7, 300 };
	static const float f[3] = { 1.5f, 2.25f, -3.0f };
	uint32_t ptr;

	if (simt_module_get_kernel(m, "print_values", &p->k))
		return -1;
	p->in = upload(ctx, in, sizeof(in));
	p->f = upload(ctx, f, sizeof(f));
	p->name = upload(ctx, "name", 5);
	if (!p->in || !p->f || !p->name || simt_mem_alloc(ctx, 12, &p->ret))
		return -1;
	p->args[0] = simt_buffer_addr(p->in);
	p->args[1] = simt_buffer_addr(p->f);
	p->args[2] = simt_buffer_addr(p->name);
	p->args[3] = simt_buffer_addr(p->ret);
	ptr = simt_buffer_addr(p->f);
	snprintf(p->lines, sizeof(p->lines),
		 "0: -5 fffffffb -5  | 1.500 1.500000e+00 image name a -5000000000 0x%x %%\n"
		 "1: 7     7 7   | 2.250 2.250000e+00 image name b 7000000000 0x%x %%\n"
		 "2: 300   12c 44  | -3.000 -3.000000e+00 image name c 300000000000 0x%x %%\n",
		 ptr, ptr, ptr);
	return 0;
}

static int print_values_launch(struct print_values *p, uint64_t *seq)
{
	simt_status st = simt_launch(p->k, dim(1, 1, 1), dim(3, 1, 1), 0, p->args, 4, seq);

	CHECK(st == SIMT_SUCCESS, "launch of print_values: %s", simt_error_string(st));
	return st ? -1 : 0;
}

void test_printf(void)
{
	struct print_values p;
	simt_device *dev;
	simt_context *ctx;
	simt_module *m;
	uint64_t seq1, seq2;
	char out[2048], want[1024];
	int32_t ret[3];
	volatile uint32_t *map;
	void *mapped;
	unsigned int i;

	MUST(simt_device_open(node, &dev));
	MUST(simt_context_create(dev, SIMT_PRIORITY_NORMAL, 0, &ctx));
	MUST(simt_module_load(ctx, KERNEL_DIR "/devprintf.elf", &m));
	if (print_values_setup(ctx, m, &p)) {
		FAIL("print_values: set-up");
		return;
	}

	/* Two launches share the buffer: the wait for the first prints nothing. */
	capture_begin();
	if (print_values_launch(&p, &seq1) || print_values_launch(&p, &seq2)) {
		capture_end(out, sizeof(out));
		return;
	}
	EXPECT(simt_wait(ctx, seq1, -1, NULL), SIMT_SUCCESS);
	capture_end(out, sizeof(out));
	CHECK(!out[0], "the wait for the first of two launches printed:\n%s", out);
	capture_begin();
	EXPECT(simt_wait(ctx, seq2, -1, NULL), SIMT_SUCCESS);
	capture_end(out, sizeof(out));
	snprintf(want, sizeof(want), "%s%s", p.lines, p.lines);
	CHECK(!strcmp(out, want), "the wait for the second printed:\n%sexpected:\n%s", out, want);
	printf("two launches printed at the wait for the second:\n%s", out);

	/* Emptied: a copy waits for the launch before it, and prints it once. */
	capture_begin();
	if (print_values_launch(&p, &seq1)) {
		capture_end(out, sizeof(out));
		return;
	}
	EXPECT(simt_memcpy_dtoh(ret, p.ret, 0, sizeof(ret)), SIMT_SUCCESS);
	capture_end(out, sizeof(out));
	CHECK(!strcmp(out, p.lines), "the copy after a launch printed:\n%sexpected:\n%s", out,
	      p.lines);
	for (i = 0; i < 3; i++)
		CHECK(ret[i] == 11, "printf returned %d in thread %u, not its 11 arguments", ret[i], i);
	capture_begin();
	EXPECT(simt_context_synchronize(ctx), SIMT_SUCCESS);
	capture_end(out, sizeof(out));
	CHECK(!out[0], "records printed twice:\n%s", out);

	/* Unloading the module prints what its launches left. */
	capture_begin();
	if (print_values_launch(&p, &seq1)) {
		capture_end(out, sizeof(out));
		return;
	}
	EXPECT(simt_module_unload(m), SIMT_SUCCESS);
	capture_end(out, sizeof(out));
	CHECK(!strcmp(out, p.lines), "the unload printed:\n%sexpected:\n%s", out, p.lines);

	/* Destroying the context prints the launches that are over. */
	MUST(simt_module_load(ctx, KERNEL_DIR "/devprintf.elf", &m));
	MUST(simt_module_get_kernel(m, "print_values", &p.k));
	MUST(simt_buffer_map(p.ret, &mapped));
	map = mapped;
	for (i = 0; i < 3; i++)
		map[i] = 0;
	capture_begin();
	if (print_values_launch(&p, &seq1)) {
		capture_end(out, sizeof(out));
		return;
	}
	/* Over (its fence signalled), seen without printing; 60 s stops a hang. */
	for (i = 0; i < 6000 && simt_query(ctx, seq1, NULL) == SIMT_ERROR_TIMEOUT; i++)
		usleep(10000);
	CHECK(map[2] == 11, "the launch ended without its last return value");
	capture_end(out, sizeof(out));
	CHECK(!out[0], "simt_query printed:\n%s", out);
	capture_begin();
	EXPECT(simt_context_destroy(ctx), SIMT_SUCCESS);
	capture_end(out, sizeof(out));
	CHECK(!strcmp(out, p.lines), "the context's end printed:\n%sexpected:\n%s", out,
	      p.lines);
	printf("printed once each: at a copy, at an unload, at the context's end\n");
	EXPECT(simt_device_close(dev), SIMT_SUCCESS);
}
