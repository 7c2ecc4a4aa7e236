// SPDX-License-Identifier: MIT
/*
 * simt-run: run one kernel of a simt kernel image from the command line,
 * through libsimt.  See usage() for the syntax; built static by
 * scripts/guest-build.sh and put into the guest image with the sample
 * kernels (/lib/simt/kernels).
 *
 * The same file is also built for the host (tools/simt-run/meson.build,
 * with SIMT_RUN_HOST defined): there the libsimt calls below are served by
 * tools/simt-run/simt-interp.c, which runs the kernel on the warp
 * interpreter with no VM and no device.  Only the SIMT_RUN_HOST hunks
 * differ; the guest's output is what tests/guest/simt-test.sh checks.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libsimt.h"
#include "simt-clock.h"

#define MAX_ARGS	8
#define MAX_ELEMS	(16u << 20)	/* values in one buffer argument */

static const char *prog = "simt-run";

static void usage(FILE *f)
{
	fprintf(f,
"usage: simt-run [OPTIONS] IMAGE KERNEL\n"
"       simt-run --list IMAGE\n"
"\n"
"Run KERNEL of the simt kernel image IMAGE (an ELF annotated by simt-meta,\n"
"e.g. /lib/simt/kernels/vecadd.elf) on the device, once or --repeat times,\n"
"wait for it and print or write the buffers asked for.  Options may come\n"
"before or after IMAGE.\n"
"\n"
"  --grid X[,Y[,Z]]    blocks in the grid (default 1,1,1)\n"
"  --block X[,Y[,Z]]   threads per block (default 1,1,1)\n"
"  --arg SPEC          the next kernel argument, in a0, a1, ... (at most 8):\n"
"        N                 an integer: decimal, 0x hex, or negative\n"
"        f:X               the float X, passed as its bit pattern\n"
"        buf:N             a new device buffer of N bytes (suffix k or M:\n"
"                          KiB, MiB), zeroed; the kernel gets its address\n"
"        buf:TYPE:V,V,...  a new buffer holding these values\n"
"        buf:TYPE:A..B     a new buffer holding A, A+1, ..., B (integers)\n"
"      TYPE is u8, i32, u32, x32 (u32 printed in hex) or f32\n"
"        iter              the launch's number, 0, 1, 2, ... (with --repeat)\n"
"  --in N=FILE         argument N (the next one) is a new buffer holding the\n"
"                      bytes of FILE, as many as it has (printed as u32)\n"
"  --out N=FILE        after the last launch write the buffer of argument N\n"
"                      to FILE, its bytes as they are\n"
"  --repeat COUNT      launch the kernel up to COUNT times (default 1) on the\n"
"                      same buffers, each after the one before has ended\n"
"  --set N[@OFF]=V     before every launch store the u32 V at byte OFF\n"
"                      (default 0) of argument N's buffer\n"
"  --until N[@OFF]=V   stop repeating once a launch leaves the u32 V there\n"
"  --hold              once the (first) launch is queued, wait for the end of\n"
"                      standard input before waiting for the kernel: the\n"
"                      process, its context, buffers and queue stay for a look\n"
"                      (simt-smi) for as long as the input is open\n"
"  --release N[@OFF]=V with --hold: at the end of the input store the u32 V at\n"
"                      byte OFF of argument N's buffer through a mapping, while\n"
"                      the kernel runs (samples.elf's wait_word waits for it, so\n"
"                      that the queue is busy until then)\n"
"  --dump N[:TYPE]     after the run print the buffer of argument N (0-7),\n"
"                      as TYPE (default: its own type, u32 for buf:N);\n"
"                      8 values a line after the index of the first\n"
"  --shared BYTES      dynamic shared memory per block (default 0)\n"
"  --priority P        low, normal (default), high or realtime\n"
"  --timeout SECONDS   how long to wait for the kernel (default 60)\n"
"  --time              print the time from submission to completion in\n"
"                      microseconds, and the device cycles the driver reports\n"
"  --list              list the kernels of IMAGE and their resources\n"
"  --check TOOL        on the host runner, check the kernel as it runs, like\n"
"                      compute-sanitizer (repeat or list with commas):\n"
"        memcheck          accesses outside shared or local memory or any\n"
"                          buffer, or misaligned: the kernel stops\n"
"        racecheck         shared memory written and read (or written) by\n"
"                          threads of different warps between two barriers\n"
"        synccheck         a plain shuffle or vote run by part of a warp\n"
"                      each finding is printed with the source line (images\n"
"                      built with -g) or the instruction's address\n"
"  --schedule ORDER    on the host runner, the order of the blocks: linear\n"
"                      (default: one after another) or random (a wave of\n"
"                      blocks interleaved, in an order drawn from --seed)\n"
"  --seed N            the random order's seed (default 1)\n"
"  --device NODE       the device node (default $SIMT_DEVICE or\n"
"                      /dev/accel/accel0)\n"
"  -h, --help          this text\n"
"\n"
"Example: c = a + b on 1000 floats\n"
"  simt-run /lib/simt/kernels/vecadd.elf vecadd --grid 8 --block 128 \\\n"
"      --arg buf:f32:0..999 --arg buf:f32:0..999 --arg buf:4000 --arg 1000 \\\n"
"      --dump 2:f32\n"
"\n"
"Example: breadth-first search, one launch per level, from files\n"
"  simt-run /lib/simt/kernels/bfs.elf bfs_level --grid 391 --block 256 \\\n"
"      --in 0=row.bin --in 1=col.bin --in 2=dist.bin --arg iter --arg buf:4 \\\n"
"      --arg 100000 --repeat 100000 --set 4=0 --until 4=0 --out 2=dist.out\n"
"\n"
"Example: a kernel that runs until the input ends (a look with simt-smi)\n"
"  simt-run /lib/simt/kernels/samples.elf wait_word --arg buf:4 --arg 1 \\\n"
"      --hold --release 0=1\n"
"\n"
"Exit status: 0 if the kernel completed (and --until's value came), 1 if\n"
"it or the device failed (or --until's value did not come, or a checker\n"
"found something), 2 for a usage error.\n");
#ifdef SIMT_RUN_HOST
	fprintf(f,
"\n"
"This is the host build: the kernel runs on the warp interpreter, with no VM\n"
"and no device.  Images are in build/host/kernels rather than\n"
"/lib/simt/kernels; --device and --priority are accepted and ignored.  The\n"
"blocks of the grid run one after another, each to completion (unless\n"
"--schedule random), so blocks that wait for each other never finish\n"
"(--timeout ends them), and --time gives the cycles of the device's\n"
"instruction costs summed over the blocks.\n");
#else
	fprintf(f,
"\n"
"--check and --schedule are the host runner's (simt-run on the host).\n");
#endif
}

static void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(simt-run --help gives the syntax)\n");
	exit(2);
}

enum vtype { T_U8, T_I32, T_U32, T_X32, T_F32 };

static const struct {
	const char *name;
	enum vtype type;
	unsigned int size;
} types[] = {
	{ "u8", T_U8, 1 }, { "i32", T_I32, 4 }, { "u32", T_U32, 4 },
	{ "x32", T_X32, 4 }, { "f32", T_F32, 4 },
};

static int type_by_name(const char *s, size_t len, enum vtype *t)
{
	unsigned int i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (strlen(types[i].name) == len && !strncmp(s, types[i].name, len)) {
			*t = types[i].type;
			return 0;
		}
	}
	return -1;
}

static unsigned int type_size(enum vtype t)
{
	return types[t].size;
}

struct arg {
	const char *spec;	/* as given, for messages */
	int is_buf;
	int is_iter;		/* the launch's number */
	uint32_t value;		/* a scalar, or the buffer's address */
	enum vtype type;	/* of a buffer's values */
	size_t bytes;		/* of a buffer */
	uint8_t *init;		/* initial contents, or NULL for zeros */
	simt_buffer *buf;
};

/* A whole string as a signed or unsigned 32-bit integer. */
static int parse_i32(const char *s, uint32_t *out)
{
	char *end;
	long long v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || *end || v < INT32_MIN || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int parse_float(const char *s, float *out)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	*out = strtof(s, &end);
	return errno || *end ? -1 : 0;
}

/* A byte count with an optional k or M suffix. */
static int parse_size(const char *s, size_t *out)
{
	unsigned long long v, mult = 1;
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno)
		return -1;
	if (*end == 'k' || *end == 'K')
		mult = 1024, end++;
	else if (*end == 'M')
		mult = 1024 * 1024, end++;
	if (*end || v > (1ull << 32) / mult)
		return -1;
	*out = v * mult;
	return 0;
}

/* One value of a buffer's list into @dst, as @t. */
static int store_value(enum vtype t, const char *s, uint8_t *dst)
{
	uint32_t u;
	float f;

	switch (t) {
	case T_U8:
		if (parse_i32(s, &u) || u > 255)
			return -1;
		*dst = u;
		return 0;
	case T_F32:
		if (parse_float(s, &f))
			return -1;
		memcpy(dst, &f, 4);
		return 0;
	case T_I32:
	case T_U32:
	case T_X32:
		if (parse_i32(s, &u))
			return -1;
		memcpy(dst, &u, 4);
		return 0;
	}
	return -1;
}

/* buf:TYPE:A..B */
static void parse_range(struct arg *a, const char *vals, const char *dots)
{
	char lo[32], *end;
	long long from, to, i;
	size_t n;
	uint8_t *p;

	if ((size_t)(dots - vals) >= sizeof(lo))
		die_usage("--arg '%s': '%.*s' is not an integer", a->spec, (int)(dots - vals), vals);
	memcpy(lo, vals, dots - vals);
	lo[dots - vals] = 0;
	errno = 0;
	from = strtoll(lo, &end, 0);
	if (errno || *end || !*lo)
		die_usage("--arg '%s': '%s' is not an integer", a->spec, lo);
	to = strtoll(dots + 2, &end, 0);
	if (errno || *end || !dots[2])
		die_usage("--arg '%s': '%s' is not an integer", a->spec, dots + 2);
	if (to < from)
		die_usage("--arg '%s': the range ends before it starts", a->spec);
	if (to - from >= MAX_ELEMS)
		die_usage("--arg '%s': more than %u values", a->spec, MAX_ELEMS);
	n = to - from + 1;
	a->bytes = n * type_size(a->type);
	a->init = p = calloc(n, type_size(a->type));
	if (!p)
		die_usage("out of memory");
	for (i = from; i <= to; i++, p += type_size(a->type)) {
		char num[32];

		snprintf(num, sizeof(num), "%lld", i);
		if (store_value(a->type, num, p))
			die_usage("--arg '%s': %lld does not fit in %s", a->spec, i,
				  types[a->type].name);
	}
}

static void parse_arg(struct arg *a, const char *spec)
{
	const char *rest, *colon, *dots;
	float f;

	memset(a, 0, sizeof(*a));
	a->spec = spec;
	if (!strcmp(spec, "iter")) {
		a->is_iter = 1;
		return;
	}
	if (!strncmp(spec, "f:", 2)) {
		if (parse_float(spec + 2, &f))
			die_usage("--arg '%s': '%s' is not a number", spec, spec + 2);
		memcpy(&a->value, &f, 4);
		return;
	}
	if (strncmp(spec, "buf:", 4)) {
		if (parse_i32(spec, &a->value))
			die_usage("--arg '%s': not an integer of 32 bits, f:FLOAT or buf:...", spec);
		return;
	}
	a->is_buf = 1;
	a->type = T_U32;
	rest = spec + 4;
	colon = strchr(rest, ':');
	if (!colon) {
		if (parse_size(rest, &a->bytes) || !a->bytes)
			die_usage("--arg '%s': '%s' is not a byte count (1 or more, k or M suffix)",
				  spec, rest);
		return;
	}
	if (type_by_name(rest, colon - rest, &a->type))
		die_usage("--arg '%s': unknown type '%.*s' (u8, i32, u32, x32, f32)", spec,
			  (int)(colon - rest), rest);
	rest = colon + 1;
	if (!*rest)
		die_usage("--arg '%s': no values after the type", spec);
	dots = strstr(rest, "..");
	if (dots) {
		parse_range(a, rest, dots);
		return;
	}
	{
		size_t n = 1, i;
		const char *p;
		char *copy, *tok, *save;
		unsigned int sz = type_size(a->type);

		for (p = rest; *p; p++)
			n += *p == ',';
		if (n > MAX_ELEMS)
			die_usage("--arg '%s': more than %u values", spec, MAX_ELEMS);
		a->init = calloc(n, sz);
		copy = strdup(rest);
		if (!a->init || !copy)
			die_usage("out of memory");
		for (i = 0, tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save), i++) {
			if (store_value(a->type, tok, a->init + i * sz))
				die_usage("--arg '%s': value %zu, '%s', is not a valid %s", spec, i + 1, tok,
					  types[a->type].name);
		}
		if (i != n)
			die_usage("--arg '%s': an empty value in the list", spec);
		a->bytes = n * sz;
		free(copy);
	}
}

/* --in N=FILE: a buffer argument holding FILE's bytes. */
static void parse_in(struct arg *a, const char *spec, unsigned int next)
{
	const char *eq = strchr(spec, '=');
	FILE *f;
	long len;
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(spec, &end, 10);
	if (!eq || end != eq || end == spec || errno)
		die_usage("--in '%s': expected N=FILE", spec);
	if (n != next)
		die_usage("--in '%s': arguments come in order; this one is argument %u", spec, next);
	memset(a, 0, sizeof(*a));
	a->spec = spec;
	a->is_buf = 1;
	a->type = T_U32;
	f = fopen(eq + 1, "rb");
	if (!f)
		die_usage("--in '%s': %s: %s", spec, eq + 1, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		die_usage("--in '%s': %s: cannot find its size", spec, eq + 1);
	if (len == 0 || (unsigned long)len > (unsigned long)MAX_ELEMS * 4)
		die_usage("--in '%s': %s has %ld bytes; a buffer takes 1 to %u", spec, eq + 1, len,
			  MAX_ELEMS * 4);
	a->bytes = len;
	a->init = malloc(len);
	if (!a->init)
		die_usage("out of memory");
	if (fread(a->init, 1, len, f) != (size_t)len)
		die_usage("--in '%s': %s: read error", spec, eq + 1);
	fclose(f);
}

/* A u32 at a byte offset of a buffer argument: --set and --until. */
struct word {
	unsigned int arg;
	size_t off;
	uint32_t value;
	const char *spec;
};

/* N[@OFF]=V */
static void parse_word(struct word *w, const char *opt, const char *spec)
{
	const char *eq = strchr(spec, '=');
	char *end;
	unsigned long n;
	size_t off = 0;

	errno = 0;
	n = strtoul(spec, &end, 10);
	if (end == spec || errno || n >= MAX_ARGS || (*end != '@' && *end != '='))
		die_usage("%s '%s': expected N[@OFF]=VALUE, N an argument 0-7", opt, spec);
	if (*end == '@') {
		char num[32];

		if (!eq || (size_t)(eq - end - 1) >= sizeof(num))
			die_usage("%s '%s': expected N[@OFF]=VALUE", opt, spec);
		memcpy(num, end + 1, eq - end - 1);
		num[eq - end - 1] = 0;
		if (parse_size(num, &off) || off % 4)
			die_usage("%s '%s': '%s' is not a byte offset, a multiple of 4", opt, spec, num);
	}
	w->arg = n;
	w->off = off;
	w->spec = spec;
	if (!eq || parse_i32(eq + 1, &w->value))
		die_usage("%s '%s': the value is not an integer of 32 bits", opt, spec);
}

/* X[,Y[,Z]], each 1 or more */
static simt_dim3 parse_dim(const char *opt, const char *s)
{
	uint32_t v[3] = { 1, 1, 1 };
	const char *p = s;
	unsigned int i;
	char *end;

	for (i = 0; i < 3; i++) {
		unsigned long long x;

		if (*p < '0' || *p > '9')
			die_usage("%s '%s': expected X[,Y[,Z]], positive integers", opt, s);
		errno = 0;
		x = strtoull(p, &end, 10);
		if (errno || x == 0 || x > UINT32_MAX)
			die_usage("%s '%s': each dimension must be 1 to %u", opt, s, UINT32_MAX);
		v[i] = x;
		if (!*end)
			return (simt_dim3){ v[0], v[1], v[2] };
		if (*end != ',')
			die_usage("%s '%s': expected X[,Y[,Z]], positive integers", opt, s);
		p = end + 1;
	}
	die_usage("%s '%s': at most three dimensions", opt, s);
}

struct dump {
	unsigned int arg;
	int has_type;
	enum vtype type;
};

static void print_values(const struct arg *a, const struct dump *d, const uint8_t *data)
{
	enum vtype t = d->has_type ? d->type : a->type;
	unsigned int sz = type_size(t);
	size_t n = a->bytes / sz, i;

	printf("a%u: %s[%zu] at 0x%08x\n", d->arg, types[t].name, n, a->value);
	for (i = 0; i < n; i++) {
		const uint8_t *p = data + i * sz;
		uint32_t u = 0;
		float f;

		if (i % 8 == 0)
			printf("%8zu:", i);
		if (sz == 4)
			memcpy(&u, p, 4);
		switch (t) {
		case T_U8: printf(" %u", *p); break;
		case T_I32: printf(" %d", (int32_t)u); break;
		case T_U32: printf(" %u", u); break;
		case T_X32: printf(" 0x%08x", u); break;
		case T_F32: memcpy(&f, p, 4); printf(" %.9g", f); break;
		}
		if (i % 8 == 7 || i == n - 1)
			printf("\n");
	}
}

static void list_kernels(simt_module *m, const char *image)
{
	struct simt_kernel_attrs at;
	simt_kernel *k;
	unsigned int i;

	printf("%s: %u kernels\n", image, simt_module_kernel_count(m));
	for (i = 0; i < simt_module_kernel_count(m); i++) {
		simt_module_get_kernel(m, simt_module_kernel_name(m, i), &k);
		simt_kernel_get_attrs(k, &at);
		printf("  %-16s entry 0x%08x  %2u registers  shared %u  local %u bytes/thread  "
		       "%u instructions\n", at.name, at.entry, at.regs, at.shared_bytes,
		       at.local_bytes, at.insn_count);
	}
}

static const char *const check_names[] = { "memcheck", "racecheck", "synccheck" };

/* SIMT_CHECK_* of a comma-separated list of checker names. */
static unsigned int parse_checks(const char *v)
{
	unsigned int checks = 0, i;
	const char *p = v;

	while (*p) {
		size_t len = strcspn(p, ",");

		for (i = 0; i < 3; i++) {
			if (strlen(check_names[i]) == len && !strncmp(p, check_names[i], len))
				break;
		}
		if (i == 3)
			die_usage("--check '%s': memcheck, racecheck or synccheck", v);
		checks |= 1u << i;
		p += len + (p[len] == ',');
	}
	if (!checks)
		die_usage("--check '%s': memcheck, racecheck or synccheck", v);
	return checks;
}

/* The checkers' summary line; 1 if they found something. */
static int check_summary(simt_context *ctx, unsigned int checks)
{
	uint64_t n = simt_context_check_findings(ctx);

	if (!checks)
		return 0;
	fprintf(stderr, "========= ERROR SUMMARY: %llu error%s\n", (unsigned long long)n,
		n == 1 ? "" : "s");
	return n != 0;
}

/* --hold: wait for the end of standard input, then --release's store. */
static simt_status hold(const struct word *release, struct arg *args)
{
	void *p;
	simt_status st;

	if (isatty(0))
		fprintf(stderr, "%s: the launch is queued; end the input (Ctrl-D) to go on\n",
			prog);
	while (getchar() != EOF)
		;
	if (!release)
		return SIMT_SUCCESS;
	st = simt_buffer_map(args[release->arg].buf, &p);
	if (st)
		return st;
	*(volatile uint32_t *)((uint8_t *)p + release->off) = release->value;
	/* out of the write-combining buffer, to the kernel that polls it */
	__sync_synchronize();
	return SIMT_SUCCESS;
}

/* Report a libsimt failure and exit 1. */
static void die_simt(simt_status st, const char *what)
{
	fprintf(stderr, "%s: %s: %s (%s)\n", prog, what, simt_error_string(st),
		simt_last_error());
	exit(1);
}

/*
 * An early return from main: what main allocated goes back, so that the
 * host build runs clean under LeakSanitizer.
 */
static int finish(struct arg *args, unsigned int nargs, simt_context *ctx, simt_device *dev,
		  int ret)
{
	unsigned int i;

	for (i = 0; i < nargs; i++)
		free(args[i].init);
	simt_context_destroy(ctx);
	simt_device_close(dev);
	return ret;
}

int main(int argc, char **argv)
{
	const char *image = NULL, *kname = NULL, *node = NULL;
	simt_dim3 grid = { 1, 1, 1 }, block = { 1, 1, 1 };
	struct arg args[MAX_ARGS];
	struct dump dumps[MAX_ARGS * 4];
	struct word sets[MAX_ARGS * 4], until, release;
	struct { unsigned int arg; const char *path; } outs[MAX_ARGS];
	unsigned int nargs = 0, ndumps = 0, nsets = 0, nouts = 0, i;
	unsigned long repeat = 1, launches;
	int has_until = 0, reached = 0, want_hold = 0, has_release = 0;
	uint64_t first_start = 0;
	uint32_t argv32[MAX_ARGS];
	size_t shared = 0;
	double timeout_s = 60, t0, t1;
	int priority = SIMT_PRIORITY_NORMAL, want_time = 0, list = 0, schedule = -1;
	unsigned int checks = 0;
	uint64_t seed = 1;
	struct simt_result c;
	simt_device *dev;
	simt_context *ctx;
	simt_module *mod;
	simt_kernel *k;
	simt_status st;
	uint64_t seq;
	int a;

	for (a = 1; a < argc; a++) {
		const char *o = argv[a];
		const char *v = a + 1 < argc ? argv[a + 1] : NULL;

		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(o, "--time")) {
			want_time = 1;
			continue;
		}
		if (!strcmp(o, "--list")) {
			list = 1;
			continue;
		}
		if (!strcmp(o, "--hold")) {
			want_hold = 1;
			continue;
		}
		if (o[0] == '-' && o[1]) {
			if (strcmp(o, "--grid") && strcmp(o, "--block") && strcmp(o, "--arg") &&
			    strcmp(o, "--dump") && strcmp(o, "--shared") && strcmp(o, "--priority") &&
			    strcmp(o, "--timeout") && strcmp(o, "--device") && strcmp(o, "--in") &&
			    strcmp(o, "--out") && strcmp(o, "--repeat") && strcmp(o, "--set") &&
			    strcmp(o, "--until") && strcmp(o, "--check") && strcmp(o, "--schedule") &&
			    strcmp(o, "--seed") && strcmp(o, "--release"))
				die_usage("unknown option '%s'", o);
			if (!v)
				die_usage("%s needs a value", o);
			a++;
		}
		if (!strcmp(o, "--grid")) {
			grid = parse_dim(o, v);
		} else if (!strcmp(o, "--block")) {
			block = parse_dim(o, v);
		} else if (!strcmp(o, "--arg")) {
			if (nargs == MAX_ARGS)
				die_usage("--arg '%s': a kernel takes at most %u arguments", v, MAX_ARGS);
			parse_arg(&args[nargs++], v);
		} else if (!strcmp(o, "--in")) {
			if (nargs == MAX_ARGS)
				die_usage("--in '%s': a kernel takes at most %u arguments", v, MAX_ARGS);
			parse_in(&args[nargs], v, nargs);
			nargs++;
		} else if (!strcmp(o, "--out")) {
			const char *eq = strchr(v, '=');
			char *end;
			unsigned long n;

			errno = 0;
			n = strtoul(v, &end, 10);
			if (!eq || end != eq || end == v || errno || n >= MAX_ARGS || !eq[1])
				die_usage("--out '%s': expected N=FILE, N an argument 0-7", v);
			if (nouts == MAX_ARGS)
				die_usage("--out '%s': at most %u files", v, MAX_ARGS);
			outs[nouts].arg = n;
			outs[nouts++].path = eq + 1;
		} else if (!strcmp(o, "--repeat")) {
			char *end;

			errno = 0;
			repeat = strtoul(v, &end, 10);
			if (errno || *end || repeat < 1 || repeat > 100000000 || *v == '-')
				die_usage("--repeat '%s': 1 to 100000000 launches", v);
		} else if (!strcmp(o, "--set")) {
			if (nsets == sizeof(sets) / sizeof(sets[0]))
				die_usage("--set '%s': too many", v);
			parse_word(&sets[nsets++], o, v);
		} else if (!strcmp(o, "--until")) {
			parse_word(&until, o, v);
			has_until = 1;
		} else if (!strcmp(o, "--release")) {
			parse_word(&release, o, v);
			has_release = 1;
		} else if (!strcmp(o, "--dump")) {
			struct dump *d = &dumps[ndumps];
			const char *colon = strchr(v, ':');
			char *end;
			unsigned long n;

			if (ndumps == sizeof(dumps) / sizeof(dumps[0]))
				die_usage("--dump '%s': too many dumps", v);
			errno = 0;
			n = strtoul(v, &end, 10);
			if (end == v || errno || n >= MAX_ARGS || (*end && *end != ':'))
				die_usage("--dump '%s': expected an argument number 0-7, then :TYPE or nothing", v);
			memset(d, 0, sizeof(*d));
			d->arg = n;
			if (colon) {
				if (type_by_name(colon + 1, strlen(colon + 1), &d->type))
					die_usage("--dump '%s': unknown type '%s' (u8, i32, u32, x32, f32)",
						  v, colon + 1);
				d->has_type = 1;
			}
			ndumps++;
		} else if (!strcmp(o, "--shared")) {
			if (parse_size(v, &shared) || shared > UINT32_MAX)
				die_usage("--shared '%s': not a byte count", v);
		} else if (!strcmp(o, "--priority")) {
			static const char *const names[] = { "low", "normal", "high", "realtime" };

			for (priority = 0; priority < 4 && strcmp(v, names[priority]); priority++)
				;
			if (priority == 4)
				die_usage("--priority '%s': low, normal, high or realtime", v);
		} else if (!strcmp(o, "--timeout")) {
			char *end;

			timeout_s = strtod(v, &end);
			if (*end || !*v || !(timeout_s > 0) || timeout_s > 1e6)
				die_usage("--timeout '%s': a number of seconds above 0", v);
		} else if (!strcmp(o, "--device")) {
			node = v;
		} else if (!strcmp(o, "--check")) {
			checks |= parse_checks(v);
		} else if (!strcmp(o, "--schedule")) {
			if (!strcmp(v, "linear"))
				schedule = SIMT_SCHEDULE_LINEAR;
			else if (!strcmp(v, "random"))
				schedule = SIMT_SCHEDULE_RANDOM;
			else
				die_usage("--schedule '%s': linear or random", v);
		} else if (!strcmp(o, "--seed")) {
			char *end;

			errno = 0;
			seed = strtoull(v, &end, 0);
			if (errno || *end || !*v || *v == '-')
				die_usage("--seed '%s': a number from 0 to 2^64 - 1", v);
		} else if (!image) {
			image = o;
		} else if (!kname) {
			kname = o;
		} else {
			die_usage("unexpected '%s' (kernel arguments go in --arg)", o);
		}
	}
	if (!image)
		die_usage("no kernel image given");
	if (!kname && !list)
		die_usage("no kernel named (simt-run --list %s shows them)", image);
	for (i = 0; i < ndumps; i++) {
		if (dumps[i].arg >= nargs || !args[dumps[i].arg].is_buf)
			die_usage("--dump %u: argument %u is not a buffer (buf:...)", dumps[i].arg,
				  dumps[i].arg);
	}
	for (i = 0; i < nouts; i++) {
		if (outs[i].arg >= nargs || !args[outs[i].arg].is_buf)
			die_usage("--out %u=%s: argument %u is not a buffer", outs[i].arg, outs[i].path,
				  outs[i].arg);
	}
	if (has_release && !want_hold)
		die_usage("--release '%s': only with --hold", release.spec);
	for (i = 0; i < nsets + has_until + has_release; i++) {
		const struct word *w = i < nsets ? &sets[i] :
				       i == nsets && has_until ? &until : &release;

		if (w->arg >= nargs || !args[w->arg].is_buf)
			die_usage("'%s': argument %u is not a buffer", w->spec, w->arg);
		if (w->off + 4 > args[w->arg].bytes)
			die_usage("'%s': byte %zu is past the end of argument %u's %zu bytes", w->spec,
				  w->off + 4, w->arg, args[w->arg].bytes);
	}

	st = simt_device_open(node, &dev);
	if (st)
		die_simt(st, "cannot open the device");
	st = simt_context_create(dev, priority, SIMT_PREEMPT_DEFAULT, &ctx);
	if (st)
		die_simt(st, "cannot create a context");
	if (checks) {
		st = simt_context_set_checks(ctx, checks);
		if (st)
			die_simt(st, "--check");
	}
	if (schedule >= 0) {
		st = simt_context_set_schedule(ctx, schedule, seed);
		if (st)
			die_simt(st, "--schedule");
	}
	st = simt_module_load(ctx, image, &mod);
	if (st) {
		fprintf(stderr, "%s: %s\n", prog, simt_last_error());
		return finish(args, nargs, ctx, dev, st == SIMT_ERROR_INVALID_IMAGE ? 2 : 1);
	}
	if (list) {
		list_kernels(mod, image);
		if (!kname)
			return finish(args, nargs, ctx, dev, 0);
	}
	st = simt_module_get_kernel(mod, kname, &k);
	if (st) {
		fprintf(stderr, "%s: %s has no kernel '%s'; it has:", prog, image, kname);
		for (i = 0; i < simt_module_kernel_count(mod); i++)
			fprintf(stderr, " %s", simt_module_kernel_name(mod, i));
		fprintf(stderr, "\n");
		return finish(args, nargs, ctx, dev, 2);
	}

	for (i = 0; i < nargs; i++) {
		struct arg *ar = &args[i];

		if (ar->is_buf) {
			st = simt_mem_alloc(ctx, ar->bytes, &ar->buf);
			if (st)
				die_simt(st, ar->spec);
			ar->value = simt_buffer_addr(ar->buf);
			if (ar->init) {
				st = simt_memcpy_htod(ar->buf, 0, ar->init, ar->bytes);
				if (st)
					die_simt(st, ar->spec);
				free(ar->init);
				ar->init = NULL;
			}
		}
		argv32[i] = ar->value;
	}

	t0 = now_us();
	for (launches = 0; launches < repeat;) {
		uint32_t word;

		for (i = 0; i < nsets; i++) {
			st = simt_memcpy_htod(args[sets[i].arg].buf, sets[i].off, &sets[i].value, 4);
			if (st)
				die_simt(st, sets[i].spec);
		}
		for (i = 0; i < nargs; i++)
			if (args[i].is_iter)
				argv32[i] = launches;
		st = simt_launch(k, grid, block, shared, argv32, nargs, &seq);
		if (st)
			die_simt(st, "launch");
		if (want_hold && launches == 0) {
			st = hold(has_release ? &release : NULL, args);
			if (st)
				die_simt(st, "--release");
		}
		st = simt_wait(ctx, seq, (int64_t)(timeout_s * 1e9), &c);
		launches++;
		if (st == SIMT_ERROR_FAULT) {
			fprintf(stderr, "%s: %s faulted", prog, kname);
			if (repeat > 1)
				fprintf(stderr, " (launch %lu)", launches - 1);
			fprintf(stderr, ": device address 0x%llx", (unsigned long long)c.fault_addr);
			if (c.fault_pc)
				fprintf(stderr, ", instruction at 0x%x", c.fault_pc);
			fprintf(stderr, "\n");
#ifdef SIMT_RUN_HOST
			/* which fault, and where: block, warp and lane */
			fprintf(stderr, "%s: %s\n", prog, simt_last_error());
#endif
			check_summary(ctx, checks);
			return finish(args, nargs, ctx, dev, 1);
		}
		if (st)
			die_simt(st, kname);
		if (launches == 1)
			first_start = c.start_cycle;
		if (has_until) {
			st = simt_memcpy_dtoh(&word, args[until.arg].buf, until.off, 4);
			if (st)
				die_simt(st, until.spec);
			reached = word == until.value;
			if (reached)
				break;
		}
	}
	t1 = now_us();
	if (repeat > 1)
		printf("launches: %lu\n", launches);
	if (has_until && !reached) {
		fprintf(stderr, "%s: --until %s: not after %lu launches\n", prog, until.spec,
			launches);
		return finish(args, nargs, ctx, dev, 1);
	}
	if (want_time) {
		printf("time: %.0f us from submission to completion", t1 - t0);
		if (c.end_cycle)
			printf("; device cycles %llu..%llu (%llu)\n",
			       (unsigned long long)first_start, (unsigned long long)c.end_cycle,
			       (unsigned long long)(c.end_cycle - first_start));
		else
			printf("; device cycles not reported by the driver\n");
	}
	for (i = 0; i < ndumps; i++) {
		struct arg *ar = &args[dumps[i].arg];
		uint8_t *data = malloc(ar->bytes);

		if (!data)
			die_usage("out of memory");
		st = simt_memcpy_dtoh(data, ar->buf, 0, ar->bytes);
		if (st)
			die_simt(st, "reading the results");
		print_values(ar, &dumps[i], data);
		free(data);
	}
	for (i = 0; i < nouts; i++) {
		struct arg *ar = &args[outs[i].arg];
		uint8_t *data = malloc(ar->bytes);
		FILE *f;

		if (!data)
			die_usage("out of memory");
		st = simt_memcpy_dtoh(data, ar->buf, 0, ar->bytes);
		if (st)
			die_simt(st, "reading the results");
		f = fopen(outs[i].path, "wb");
		if (!f || fwrite(data, 1, ar->bytes, f) != ar->bytes || fclose(f)) {
			fprintf(stderr, "%s: --out %u=%s: %s\n", prog, outs[i].arg, outs[i].path,
				strerror(errno));
			return finish(args, nargs, ctx, dev, 1);
		}
		free(data);
	}
	if (check_summary(ctx, checks))
		return finish(args, nargs, ctx, dev, 1);
	st = simt_context_destroy(ctx);
	if (!st)
		st = simt_device_close(dev);
	if (st)
		die_simt(st, "closing the device");
	return 0;
}
