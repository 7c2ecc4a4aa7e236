/* SPDX-License-Identifier: MIT */
/*
 * Programs and kernels.  clBuildProgram runs simt-cc on the source (the
 * build log is what it prints), linked at an address of the context's
 * image range that no other program of the context takes, and loads the
 * image into the context.  The argument layout of each kernel comes from
 * the image's .simt.clargs section (include/hw/simt/simt-clargs.h).
 *
 * simt-cc is $SIMT_CC, else the build tree's (when the runtime runs from
 * it), else simt-cc on PATH.  Where there is none (a guest has no
 * compiler), a build takes the image from $SIMT_OPENCL_CACHE, which a
 * build on the host with a compiler fills when the variable is set
 * there (the guest image has the samples' images in its default cache):
 * docs/opencl.rst, "Run-time compilation in the guest".
 *
 * Copyright the simt authors.  Licensed under the MIT licence, as
 * written out in guest/libsimt/libsimt.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hw/simt/simt-isa.h"
#include "simt-cl.h"
#include "simt-elf.h"

/* Kernel images start here (kernels/simt.ld's default base). */
#define IMAGE_RANGE_START 0x10000u
#define PAGE 4096u

/* Make @p, its source or binary in place, a live program of @ctx. */
static void program_start(cl_program p, cl_context ctx)
{
	simt_cl_head_init(&p->h, MAGIC_PROGRAM);
	p->ctx = ctx;
	p->status = CL_BUILD_NONE;
	pthread_mutex_lock(&simt_cl_lock);
	simt_cl_context_retain(ctx);
	pthread_mutex_unlock(&simt_cl_lock);
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithSource(cl_context ctx, cl_uint count, const char **strings,
			  const size_t *lengths, cl_int *errcode_ret)
{
	size_t total = 0, at = 0;
	cl_program p;

	if (!cl_valid(ctx, MAGIC_CONTEXT))
		return simt_cl_fail(errcode_ret, CL_INVALID_CONTEXT);
	if (!count || !strings)
		return simt_cl_fail(errcode_ret, CL_INVALID_VALUE);
	for (cl_uint i = 0; i < count; i++) {
		if (!strings[i])
			return simt_cl_fail(errcode_ret, CL_INVALID_VALUE);
		total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
	}
	p = calloc(1, sizeof(*p));
	if (p)
		p->source = malloc(total + 1);
	if (!p || !p->source) {
		free(p);
		return simt_cl_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
	}
	for (cl_uint i = 0; i < count; i++) {
		size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);

		memcpy(p->source + at, strings[i], n);
		at += n;
	}
	p->source[at] = '\0';
	program_start(p, ctx);
	if (errcode_ret)
		*errcode_ret = CL_SUCCESS;
	return p;
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithBinary(cl_context ctx, cl_uint num_devices,
			  const cl_device_id *device_list, const size_t *lengths,
			  const unsigned char **binaries, cl_int *binary_status,
			  cl_int *errcode_ret)
{
	struct simt_image img;
	char err[256];
	cl_program p;

	if (!cl_valid(ctx, MAGIC_CONTEXT))
		return simt_cl_fail(errcode_ret, CL_INVALID_CONTEXT);
	if (num_devices != 1 || !device_list || !lengths || !binaries)
		return simt_cl_fail(errcode_ret, CL_INVALID_VALUE);
	if (device_list[0] != ctx->device)
		return simt_cl_fail(errcode_ret, CL_INVALID_DEVICE);
	if (!lengths[0] || !binaries[0])
		return simt_cl_fail(errcode_ret, CL_INVALID_VALUE);
	/* Only what simt_module_load_data would take. */
	if (simt_image_load_mem(&img, "binary", binaries[0], lengths[0], err,
				sizeof(err))) {
		simt_cl_notify(ctx, "clCreateProgramWithBinary: %s", err);
		if (binary_status)
			binary_status[0] = CL_INVALID_BINARY;
		return simt_cl_fail(errcode_ret, CL_INVALID_BINARY);
	}
	simt_image_free(&img);
	p = calloc(1, sizeof(*p));
	if (p)
		p->binary = malloc(lengths[0]);
	if (!p || !p->binary) {
		free(p);
		return simt_cl_fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
	}
	memcpy(p->binary, binaries[0], lengths[0]);
	p->binary_size = lengths[0];
	p->from_binary = true;
	program_start(p, ctx);
	if (binary_status)
		binary_status[0] = CL_SUCCESS;
	if (errcode_ret)
		*errcode_ret = CL_SUCCESS;
	return p;
}

/* No built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty). */
CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithBuiltInKernels(cl_context ctx, cl_uint num_devices,
				  const cl_device_id *device_list,
				  const char *kernel_names, cl_int *errcode_ret)
{
	(void)num_devices;
	(void)device_list;
	(void)kernel_names;
	return simt_cl_fail(errcode_ret, cl_valid(ctx, MAGIC_CONTEXT) ?
			    CL_INVALID_VALUE : CL_INVALID_CONTEXT);
}

/* ---- the context's image range ---- */

static void range_remove(cl_context ctx, struct simt_cl_range *r)
{
	struct simt_cl_range **pp;

	for (pp = &ctx->images; *pp; pp = &(*pp)->next) {
		if (*pp == r) {
			*pp = r->next;
			break;
		}
	}
	r->start = r->end = 0;
}

static void range_insert(cl_context ctx, struct simt_cl_range *r)
{
	struct simt_cl_range **pp = &ctx->images;

	while (*pp && (*pp)->start < r->start)
		pp = &(*pp)->next;
	r->next = *pp;
	*pp = r;
}

/*
 * The first address from @from at which @size bytes meet no program of
 * the context; 0 if none is left below the device's FIXED_VA_END.
 */
static uint32_t range_find(cl_context ctx, uint32_t from, uint32_t size)
{
	uint64_t at = from;

	for (struct simt_cl_range *r = ctx->images; r; r = r->next) {
		if (r->end <= at)
			continue;
		if (at + size <= r->start)
			break;
		at = (r->end + PAGE - 1) & ~(uint64_t)(PAGE - 1);
	}
	return at + size <= ctx->device->info.fixed_va_end ? (uint32_t)at : 0;
}

/* ---- running simt-cc ---- */

/* A growing string: the build log. */
struct text {
	char *s;
	size_t len;
};

static void text_add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	char *more;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(more = realloc(t->s, t->len + n + 1)))
		return;
	t->s = more;
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, n + 1, fmt, ap);
	va_end(ap);
	t->len += n;
}

static const char *simt_cc_path(void)
{
	const char *env = getenv("SIMT_CC");

	if (env && *env)
		return env;
#ifdef SIMT_CL_BUILD_SIMT_CC
	if (!access(SIMT_CL_BUILD_SIMT_CC, X_OK))
		return SIMT_CL_BUILD_SIMT_CC;
#endif
	return "simt-cc";
}

/* An argument vector. */
struct args {
	char *v[256];
	int n;
};

static bool args_add(struct args *a, const char *s)
{
	if (a->n + 1 >= (int)(sizeof(a->v) / sizeof(a->v[0])))
		return false;
	a->v[a->n++] = strdup(s);
	a->v[a->n] = NULL;
	return a->v[a->n - 1] != NULL;
}

static void args_free(struct args *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	a->n = 0;
}

/* Options OpenCL C lets a compiler take as hints, and simt-cc does. */
static const char *const hint_options[] = {
	"-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
	"-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-denorms-are-zero",
	"-cl-single-precision-constant", "-cl-strict-aliasing",
	"-cl-kernel-arg-info", "-cl-fp32-correctly-rounded-divide-sqrt",
	"-cl-std=CL1.0", "-cl-std=CL1.1", "-cl-std=CL1.2",
};

/*
 * clBuildProgram's @options as simt-cc's arguments into @a (relative -I
 * directories made absolute: simt-cc runs in a directory of its own).
 * CL_INVALID_BUILD_OPTIONS, with the reason in @log, for what neither
 * OpenCL 1.2 nor simt-cc knows.
 */
static cl_int build_options(const char *options, struct args *a,
			    struct text *log)
{
	char *copy = strdup(options ? options : ""), *tok, *save = NULL;
	char cwd[4096];
	cl_int err = CL_SUCCESS;
	bool ok = true;

	if (!copy || !getcwd(cwd, sizeof(cwd)))
		return CL_OUT_OF_HOST_MEMORY;
	for (tok = strtok_r(copy, " \t\n", &save); tok && !err;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		bool hint = false;

		for (size_t i = 0; i < sizeof(hint_options) / sizeof(*hint_options); i++)
			hint |= !strcmp(tok, hint_options[i]);
		if (hint)
			continue;
		if (!strcmp(tok, "-cl-opt-disable")) {
			ok &= args_add(a, "-O0");
		} else if (!strcmp(tok, "-w") || !strcmp(tok, "-Werror") ||
			   !strcmp(tok, "-g") || !strcmp(tok, "-O0") ||
			   !strcmp(tok, "-O1") || !strcmp(tok, "-O2") ||
			   !strcmp(tok, "-O3") || !strcmp(tok, "-Os")) {
			ok &= args_add(a, tok);
		} else if (!strncmp(tok, "-D", 2) || !strncmp(tok, "-U", 2) ||
			   !strncmp(tok, "-I", 2)) {
			const char *v = tok[2] ? tok + 2 : strtok_r(NULL, " \t\n", &save);
			char opt[3] = { tok[0], tok[1], 0 };

			if (!v) {
				text_add(log, "build option %s needs a value\n", tok);
				err = CL_INVALID_BUILD_OPTIONS;
				break;
			}
			ok &= args_add(a, opt);
			if (opt[1] == 'I' && v[0] != '/') {
				char *abs = malloc(strlen(cwd) + strlen(v) + 2);

				ok &= abs != NULL;
				if (abs) {
					sprintf(abs, "%s/%s", cwd, v);
					ok &= args_add(a, abs);
					free(abs);
				}
			} else {
				ok &= args_add(a, v);
			}
		} else {
			text_add(log, "build option %s: not an OpenCL 1.2 option "
				 "the simt platform takes (docs/opencl.rst)\n", tok);
			err = CL_INVALID_BUILD_OPTIONS;
		}
	}
	free(copy);
	return !err && !ok ? CL_OUT_OF_HOST_MEMORY : err;
}

static uint8_t *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 &&
	    n <= SIMT_ELF_MAX_FILE && !fseek(f, 0, SEEK_SET) &&
	    (data = malloc(n)) && fread(data, 1, n, f) != (size_t)n) {
		free(data);
		data = NULL;
	}
	if (data)
		*size = n;
	fclose(f);
	return data;
}

static bool write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(data, 1, size, f) == size;

	if (f)
		ok &= !fclose(f);
	return ok;
}

/*
 * Run simt-cc in @dir: @args (the options), --image-base @base,
 * program.cl -o program.elf.  0 if it made the image, 1 if it failed
 * (its messages in @log), -1 if there is no simt-cc to run.
 */
static int run_simt_cc(const char *dir, const struct args *opts,
		       uint32_t base, struct text *log)
{
	char out_path[4200], base_s[16], buf[4096];
	const char *cc = simt_cc_path();
	struct args a = { 0 };
	int status, fd;
	ssize_t n;
	pid_t pid;

	snprintf(out_path, sizeof(out_path), "%s/simt-cc.out", dir);
	snprintf(base_s, sizeof(base_s), "0x%x", base);
	args_add(&a, cc);
	for (int i = 0; i < opts->n; i++)
		args_add(&a, opts->v[i]);
	args_add(&a, "--image-base");
	args_add(&a, base_s);
	args_add(&a, "program.cl");
	args_add(&a, "-o");
	if (!args_add(&a, "program.elf")) {
		args_free(&a);
		text_add(log, "out of host memory\n");
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || chdir(dir) || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		execvp(a.v[0], a.v);
		_exit(errno == ENOENT ? 127 : 126);
	}
	args_free(&a);
	if (pid < 0) {
		text_add(log, "fork: %s\n", strerror(errno));
		return 1;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	fd = open(out_path, O_RDONLY);
	while (fd >= 0 && (n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		text_add(log, "%s", buf);
	}
	if (fd >= 0)
		close(fd);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		if (WIFSIGNALED(status))
			text_add(log, "%s: killed by signal %d\n", cc,
				 WTERMSIG(status));
		return 1;
	}
	return 0;
}

/* ---- the image cache ---- */

/* $SIMT_OPENCL_CACHE, else the guest image's (SIMT_CL_DEFAULT_CACHE). */
static const char *cache_dir(void)
{
	const char *dir = getenv("SIMT_OPENCL_CACHE");

	if (dir && *dir)
		return dir;
#ifdef SIMT_CL_DEFAULT_CACHE
	return SIMT_CL_DEFAULT_CACHE;
#else
	return NULL;
#endif
}

/* What a cached image was built from: it must match exactly. */
static char *cache_key(const char *source, const struct args *opts,
		       uint32_t base, uint64_t *hash)
{
	struct text t = { 0 };
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */

	text_add(&t, "simt OpenCL image 1\nbase 0x%x\noptions", base);
	for (int i = 0; i < opts->n; i++)
		text_add(&t, " %s", opts->v[i]);
	text_add(&t, "\nsource\n%s", source);
	for (size_t i = 0; t.s && i < t.len; i++)
		h = (h ^ (uint8_t)t.s[i]) * 0x100000001b3ull;
	*hash = h;
	return t.s;
}

static void cache_path(char *path, size_t len, const char *dir, uint64_t hash,
		       const char *ext)
{
	snprintf(path, len, "%s/%016llx.%s", dir, (unsigned long long)hash, ext);
}

/* The cached image for @key, or NULL. */
static uint8_t *cache_get(const char *key, uint64_t hash, size_t *size,
			  char *path, size_t path_len)
{
	const char *dir = cache_dir();
	uint8_t *stored, *image;
	size_t n;

	if (!dir || !*dir || !key)
		return NULL;
	cache_path(path, path_len, dir, hash, "key");
	stored = read_file(path, &n);
	if (!stored || n != strlen(key) || memcmp(stored, key, n)) {
		free(stored);
		return NULL;
	}
	free(stored);
	cache_path(path, path_len, dir, hash, "elf");
	image = read_file(path, size);
	return image;
}

static void cache_put(const char *key, uint64_t hash, const uint8_t *image,
		      size_t size)
{
	const char *dir = cache_dir();
	char path[4200];

	if (!dir || !*dir || !key)
		return;
	mkdir(dir, 0755);
	cache_path(path, sizeof(path), dir, hash, "elf");
	if (write_file(path, image, size)) {
		cache_path(path, sizeof(path), dir, hash, "key");
		write_file(path, key, strlen(key));
	}
}

/*
 * Compile @p's source at @base into p->binary: CL_SUCCESS, or
 * CL_BUILD_PROGRAM_FAILURE / CL_INVALID_BUILD_OPTIONS with @log.
 */
static cl_int compile_at(cl_program p, const struct args *opts, uint32_t base,
			 struct text *log)
{
	char dir[4096], path[4200];
	const char *tmp = getenv("TMPDIR");
	uint64_t hash;
	char *key = cache_key(p->source, opts, base, &hash);
	cl_int err = CL_BUILD_PROGRAM_FAILURE;
	int ran;

	free(p->binary);
	p->binary = NULL;
	snprintf(dir, sizeof(dir), "%s/simt-cl-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		text_add(log, "%s: %s\n", dir, strerror(errno));
		free(key);
		return err;
	}
	snprintf(path, sizeof(path), "%s/program.cl", dir);
	ran = write_file(path, p->source, strlen(p->source)) ?
	      run_simt_cc(dir, opts, base, log) : 1;
	if (ran == 0) {
		snprintf(path, sizeof(path), "%s/program.elf", dir);
		p->binary = read_file(path, &p->binary_size);
		if (p->binary) {
			cache_put(key, hash, p->binary, p->binary_size);
			err = CL_SUCCESS;
		} else {
			text_add(log, "simt-cc made no readable program.elf\n");
		}
	} else if (ran < 0) {
		p->binary = cache_get(key, hash, &p->binary_size, path,
				      sizeof(path));
		if (p->binary) {
			text_add(log, "no simt-cc to run; the image is %s\n", path);
			err = CL_SUCCESS;
		} else {
			text_add(log, "no OpenCL C compiler here: %s was not found "
				 "(set SIMT_CC), and $SIMT_OPENCL_CACHE has no image "
				 "of this source with these options (build the "
				 "program once where simt-cc is, with the same "
				 "SIMT_OPENCL_CACHE; docs/opencl.rst)\n",
				 simt_cc_path());
		}
	}
	/* The directory's files: program.cl, program.elf, simt-cc.out. */
	for (const char *const *f = (const char *const[]){ "program.cl",
	     "program.elf", "simt-cc.out", NULL }; *f; f++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *f);
		unlink(path);
	}
	rmdir(dir);
	free(key);
	return err;
}

/* The addresses p->binary's image takes: [start, end). */
static bool image_extent(const cl_program p, struct simt_cl_range *r,
			 struct text *log)
{
	struct simt_image img;
	char err[256];

	if (simt_image_load_mem(&img, "program", p->binary, p->binary_size, err,
				sizeof(err))) {
		text_add(log, "%s\n", err);
		return false;
	}
	r->start = img.base;
	r->end = img.base + img.size;
	simt_image_free(&img);
	return true;
}

/* Build @p's image at an address no other program of its context uses. */
static cl_int compile(cl_program p, const struct args *opts, struct text *log)
{
	uint32_t size = PAGE, base;
	cl_int err;

	for (int tries = 0; tries < 64; tries++) {
		base = range_find(p->ctx, IMAGE_RANGE_START, size);
		if (!base) {
			text_add(log, "no room for a %u-byte image below 0x%llx "
				 "beside the context's other programs\n", size,
				 (unsigned long long)p->ctx->device->info.fixed_va_end);
			return CL_BUILD_PROGRAM_FAILURE;
		}
		err = compile_at(p, opts, base, log);
		if (err || !image_extent(p, &p->range, log))
			return err ? err : CL_BUILD_PROGRAM_FAILURE;
		if (range_find(p->ctx, base, p->range.end - base) == base)
			return CL_SUCCESS;
		/* Larger than the gap it was linked for: try the next. */
		size = p->range.end - base;
	}
	text_add(log, "no place found for the image\n");
	return CL_BUILD_PROGRAM_FAILURE;
}

/* Unload @p's image and forget its kernels' layout; lock held. */
static void program_unload(cl_program p)
{
	if (p->mod)
		simt_module_unload(p->mod);
	p->mod = NULL;
	if (p->range.end)
		range_remove(p->ctx, &p->range);
	if (p->have_elf) {
		simt_clargs_free(&p->clargs);
		simt_elf_free(&p->elf);
	}
	p->have_elf = false;
}

/* Load p->binary into the context, with its argument layout. */
static cl_int load(cl_program p, struct text *log)
{
	char err[256];
	uint8_t *copy;
	int found;

	if (!image_extent(p, &p->range, log))
		return CL_BUILD_PROGRAM_FAILURE;
	if (range_find(p->ctx, p->range.start, p->range.end - p->range.start) !=
	    p->range.start) {
		text_add(log, "the image at 0x%x-0x%x overlaps another program of "
			 "the context\n", p->range.start, p->range.end);
		p->range.start = p->range.end = 0;
		return CL_BUILD_PROGRAM_FAILURE;
	}
	copy = malloc(p->binary_size);
	if (!copy)
		return CL_OUT_OF_HOST_MEMORY;
	memcpy(copy, p->binary, p->binary_size);
	if (simt_elf_parse(&p->elf, "program", copy, p->binary_size, err,
			   sizeof(err)) < 0) {
		text_add(log, "%s\n", err);
		return CL_BUILD_PROGRAM_FAILURE;
	}
	found = simt_clargs_read(&p->clargs, &p->elf, err, sizeof(err));
	if (found <= 0) {
		text_add(log, "%s\n", found < 0 ? err :
			 "the image has no OpenCL kernels (no .simt.clargs "
			 "section: it was not compiled from OpenCL C)");
		simt_elf_free(&p->elf);
		return CL_BUILD_PROGRAM_FAILURE;
	}
	p->have_elf = true;
	if (simt_module_load_data(p->ctx->sctx, p->binary, p->binary_size,
				  "program", &p->mod)) {
		text_add(log, "%s\n", simt_last_error());
		program_unload(p);
		return CL_BUILD_PROGRAM_FAILURE;
	}
	range_insert(p->ctx, &p->range);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clBuildProgram(cl_program p, cl_uint num_devices, const cl_device_id *device_list,
	       const char *options,
	       void (CL_CALLBACK *pfn_notify)(cl_program, void *),
	       void *user_data)
{
	struct text log = { 0 };
	struct args opts = { 0 };
	cl_int err;

	if (!cl_valid(p, MAGIC_PROGRAM))
		return CL_INVALID_PROGRAM;
	if ((!num_devices) != (!device_list) || (!pfn_notify && user_data))
		return CL_INVALID_VALUE;
	if (num_devices && (num_devices != 1 || device_list[0] != p->ctx->device))
		return CL_INVALID_DEVICE;
	pthread_mutex_lock(&simt_cl_lock);
	if (p->kernels_alive) {
		pthread_mutex_unlock(&simt_cl_lock);
		return CL_INVALID_OPERATION;
	}
	program_unload(p);
	free(p->options);
	p->options = strdup(options ? options : "");
	err = build_options(options, &opts, &log);
	if (!err && !p->from_binary)
		err = compile(p, &opts, &log);
	if (!err)
		err = load(p, &log);
	args_free(&opts);
	free(p->log);
	p->log = log.s ? log.s : strdup("");
	p->status = err ? CL_BUILD_ERROR : CL_BUILD_SUCCESS;
	if (err && err != CL_INVALID_BUILD_OPTIONS && err != CL_OUT_OF_HOST_MEMORY)
		err = CL_BUILD_PROGRAM_FAILURE;
	pthread_mutex_unlock(&simt_cl_lock);
	if (pfn_notify)
		pfn_notify(p, user_data);
	return err;
}

/*
 * Separate compilation and linking would need the objects linked at a
 * base of the context's choosing; simt-cc does both in one step.
 */
CL_API_ENTRY cl_int CL_API_CALL
clCompileProgram(cl_program p, cl_uint num_devices,
		 const cl_device_id *device_list, const char *options,
		 cl_uint num_input_headers, const cl_program *input_headers,
		 const char **header_include_names,
		 void (CL_CALLBACK *pfn_notify)(cl_program, void *),
		 void *user_data)
{
	(void)num_devices;
	(void)device_list;
	(void)options;
	(void)num_input_headers;
	(void)input_headers;
	(void)header_include_names;
	(void)pfn_notify;
	(void)user_data;
	return cl_valid(p, MAGIC_PROGRAM) ? CL_COMPILER_NOT_AVAILABLE :
	       CL_INVALID_PROGRAM;
}

CL_API_ENTRY cl_program CL_API_CALL
clLinkProgram(cl_context ctx, cl_uint num_devices,
	      const cl_device_id *device_list, const char *options,
	      cl_uint num_input_programs, const cl_program *input_programs,
	      void (CL_CALLBACK *pfn_notify)(cl_program, void *),
	      void *user_data, cl_int *errcode_ret)
{
	(void)num_devices;
	(void)device_list;
	(void)options;
	(void)num_input_programs;
	(void)input_programs;
	(void)pfn_notify;
	(void)user_data;
	return simt_cl_fail(errcode_ret, cl_valid(ctx, MAGIC_CONTEXT) ?
			    CL_LINKER_NOT_AVAILABLE : CL_INVALID_CONTEXT);
}

void simt_cl_program_release(cl_program p)
{
	if (--p->h.refs)
		return;
	program_unload(p);
	free(p->source);
	free(p->binary);
	free(p->options);
	free(p->log);
	simt_cl_head_kill(&p->h);
	simt_cl_context_release(p->ctx);
	free(p);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program p)
{
	return simt_cl_retain(p, MAGIC_PROGRAM, CL_INVALID_PROGRAM);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program p)
{
	return simt_cl_release(p, MAGIC_PROGRAM, CL_INVALID_PROGRAM);
}

/* The kernels' names, separated by ';' (CL_PROGRAM_KERNEL_NAMES). */
static char *kernel_names(cl_program p)
{
	struct text t = { 0 };

	for (uint32_t i = 0; i < p->clargs.nkernels; i++)
		text_add(&t, "%s%s", i ? ";" : "", p->clargs.kernels[i].name);
	return t.s ? t.s : strdup("");
}

CL_API_ENTRY cl_int CL_API_CALL
clGetProgramInfo(cl_program p, cl_program_info param_name,
		 size_t param_value_size, void *param_value,
		 size_t *param_value_size_ret)
{
	cl_int err;
	char *names;

	if (!cl_valid(p, MAGIC_PROGRAM))
		return CL_INVALID_PROGRAM;
	pthread_mutex_lock(&simt_cl_lock);
	switch (param_name) {
	case CL_PROGRAM_REFERENCE_COUNT:
		err = CL_INFO_VALUE(cl_uint, p->h.refs);
		break;
	case CL_PROGRAM_CONTEXT:
		err = CL_INFO_VALUE(cl_context, p->ctx);
		break;
	case CL_PROGRAM_NUM_DEVICES:
		err = CL_INFO_VALUE(cl_uint, 1);
		break;
	case CL_PROGRAM_DEVICES:
		err = CL_INFO_VALUE(cl_device_id, p->ctx->device);
		break;
	case CL_PROGRAM_SOURCE:
		err = CL_INFO_STRING(p->source ? p->source : "");
		break;
	case CL_PROGRAM_BINARY_SIZES:
		err = CL_INFO_VALUE(size_t, p->binary ? p->binary_size : 0);
		break;
	case CL_PROGRAM_BINARIES:
		/* An array of one pointer to memory of BINARY_SIZES bytes. */
		if (!param_value) {
			err = CL_INFO_VALUE(unsigned char *, NULL);
		} else if (param_value_size < sizeof(unsigned char *)) {
			err = CL_INVALID_VALUE;
		} else {
			unsigned char *dst = *(unsigned char **)param_value;

			if (dst && p->binary)
				memcpy(dst, p->binary, p->binary_size);
			if (param_value_size_ret)
				*param_value_size_ret = sizeof(unsigned char *);
			err = CL_SUCCESS;
		}
		break;
	case CL_PROGRAM_NUM_KERNELS:
	case CL_PROGRAM_KERNEL_NAMES:
		if (p->status != CL_BUILD_SUCCESS) {
			err = CL_INVALID_PROGRAM_EXECUTABLE;
		} else if (param_name == CL_PROGRAM_NUM_KERNELS) {
			err = CL_INFO_VALUE(size_t, p->clargs.nkernels);
		} else {
			names = kernel_names(p);
			err = names ? CL_INFO_STRING(names) : CL_OUT_OF_HOST_MEMORY;
			free(names);
		}
		break;
	default:
		err = CL_INVALID_VALUE;
	}
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetProgramBuildInfo(cl_program p, cl_device_id device,
		      cl_program_build_info param_name, size_t param_value_size,
		      void *param_value, size_t *param_value_size_ret)
{
	cl_int err;

	if (!cl_valid(p, MAGIC_PROGRAM))
		return CL_INVALID_PROGRAM;
	if (device != p->ctx->device)
		return CL_INVALID_DEVICE;
	pthread_mutex_lock(&simt_cl_lock);
	switch (param_name) {
	case CL_PROGRAM_BUILD_STATUS:
		err = CL_INFO_VALUE(cl_build_status, p->status);
		break;
	case CL_PROGRAM_BUILD_OPTIONS:
		err = CL_INFO_STRING(p->options ? p->options : "");
		break;
	case CL_PROGRAM_BUILD_LOG:
		err = CL_INFO_STRING(p->log ? p->log : "");
		break;
	case CL_PROGRAM_BINARY_TYPE:
		err = CL_INFO_VALUE(cl_program_binary_type,
				    p->status == CL_BUILD_SUCCESS || p->from_binary ?
				    CL_PROGRAM_BINARY_TYPE_EXECUTABLE :
				    CL_PROGRAM_BINARY_TYPE_NONE);
		break;
	default:
		err = CL_INVALID_VALUE;
	}
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}

/* ---- kernels ---- */

static void kernel_free(cl_kernel k)
{
	free(k->block);
	free(k->local_size);
	free(k->arg_set);
	free(k->arg_mem);
	free(k);
}

static cl_kernel kernel_new(cl_program p, const struct simt_clkernel *ck,
			    cl_int *err)
{
	cl_kernel k = calloc(1, sizeof(*k));
	uint32_t n = ck->nargs ? ck->nargs : 1;

	if (!k) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return NULL;
	}
	k->block = calloc(1, ck->block_size);
	k->local_size = calloc(n, sizeof(*k->local_size));
	k->arg_set = calloc(n, sizeof(*k->arg_set));
	k->arg_mem = calloc(n, sizeof(*k->arg_mem));
	*err = !k->block || !k->local_size || !k->arg_set || !k->arg_mem ?
	       CL_OUT_OF_HOST_MEMORY :
	       simt_module_get_kernel(p->mod, ck->name, &k->kernel) ?
	       CL_INVALID_KERNEL_NAME : CL_SUCCESS;
	if (*err) {
		kernel_free(k);
		return NULL;
	}
	simt_kernel_get_attrs(k->kernel, &k->attrs);
	simt_cl_head_init(&k->h, MAGIC_KERNEL);
	k->program = p;
	k->ck = ck;
	p->h.refs++;
	p->kernels_alive++;
	return k;
}

CL_API_ENTRY cl_kernel CL_API_CALL
clCreateKernel(cl_program p, const char *kernel_name, cl_int *errcode_ret)
{
	const struct simt_clkernel *ck;
	cl_kernel k;
	cl_int err;

	if (!cl_valid(p, MAGIC_PROGRAM))
		return simt_cl_fail(errcode_ret, CL_INVALID_PROGRAM);
	if (!kernel_name)
		return simt_cl_fail(errcode_ret, CL_INVALID_VALUE);
	pthread_mutex_lock(&simt_cl_lock);
	if (p->status != CL_BUILD_SUCCESS) {
		pthread_mutex_unlock(&simt_cl_lock);
		return simt_cl_fail(errcode_ret, CL_INVALID_PROGRAM_EXECUTABLE);
	}
	ck = simt_clargs_kernel(&p->clargs, kernel_name);
	k = ck ? kernel_new(p, ck, &err) : NULL;
	if (!ck)
		err = CL_INVALID_KERNEL_NAME;
	pthread_mutex_unlock(&simt_cl_lock);
	if (errcode_ret)
		*errcode_ret = err;
	return k;
}

CL_API_ENTRY cl_int CL_API_CALL
clCreateKernelsInProgram(cl_program p, cl_uint num_kernels, cl_kernel *kernels,
			 cl_uint *num_kernels_ret)
{
	cl_int err = CL_SUCCESS;
	uint32_t n;

	if (!cl_valid(p, MAGIC_PROGRAM))
		return CL_INVALID_PROGRAM;
	pthread_mutex_lock(&simt_cl_lock);
	if (p->status != CL_BUILD_SUCCESS) {
		pthread_mutex_unlock(&simt_cl_lock);
		return CL_INVALID_PROGRAM_EXECUTABLE;
	}
	n = p->clargs.nkernels;
	if (kernels && num_kernels < n) {
		pthread_mutex_unlock(&simt_cl_lock);
		return CL_INVALID_VALUE;
	}
	for (uint32_t i = 0; kernels && i < n && !err; i++) {
		kernels[i] = kernel_new(p, &p->clargs.kernels[i], &err);
		if (err) {
			while (i--)
				simt_cl_kernel_release(kernels[i]);
		}
	}
	pthread_mutex_unlock(&simt_cl_lock);
	if (!err && num_kernels_ret)
		*num_kernels_ret = n;
	return err;
}

void simt_cl_kernel_release(cl_kernel k)
{
	if (--k->h.refs)
		return;
	for (uint32_t i = 0; i < k->ck->nargs; i++) {
		if (k->arg_mem[i])
			simt_cl_mem_release(k->arg_mem[i]);
	}
	k->program->kernels_alive--;
	simt_cl_program_release(k->program);
	simt_cl_head_kill(&k->h);
	kernel_free(k);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel k)
{
	return simt_cl_retain(k, MAGIC_KERNEL, CL_INVALID_KERNEL);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel k)
{
	return simt_cl_release(k, MAGIC_KERNEL, CL_INVALID_KERNEL);
}

/*
 * Arguments go into the kernel's block as the .simt.clargs layout says.
 * A buffer argument keeps a reference to its cl_mem while it is set, so
 * that the address in the block stays that buffer's.
 */
CL_API_ENTRY cl_int CL_API_CALL
clSetKernelArg(cl_kernel k, cl_uint arg_index, size_t arg_size,
	       const void *arg_value)
{
	const struct simt_clarg *a;
	cl_mem m = NULL;
	uint32_t addr = 0;

	if (!cl_valid(k, MAGIC_KERNEL))
		return CL_INVALID_KERNEL;
	if (arg_index >= k->ck->nargs)
		return CL_INVALID_ARG_INDEX;
	a = &k->ck->args[arg_index];
	pthread_mutex_lock(&simt_cl_lock);
	switch (a->kind) {
	case SIMT_CLARG_LOCAL:
		if (arg_value) {
			pthread_mutex_unlock(&simt_cl_lock);
			return CL_INVALID_ARG_VALUE;
		}
		if (!arg_size || arg_size > SIMT_SHARED_WINDOW) {
			pthread_mutex_unlock(&simt_cl_lock);
			return CL_INVALID_ARG_SIZE;
		}
		k->local_size[arg_index] = (uint32_t)arg_size;
		break;
	case SIMT_CLARG_POINTER:
		if (arg_size != sizeof(cl_mem)) {
			pthread_mutex_unlock(&simt_cl_lock);
			return CL_INVALID_ARG_SIZE;
		}
		m = arg_value ? *(const cl_mem *)arg_value : NULL;
		if (m && (!cl_valid(m, MAGIC_MEM) ||
			  m->ctx != k->program->ctx)) {
			pthread_mutex_unlock(&simt_cl_lock);
			return CL_INVALID_MEM_OBJECT;
		}
		if (m) {
			addr = cl_mem_addr(m, 0);
			m->h.refs++;
		}
		if (k->arg_mem[arg_index])
			simt_cl_mem_release(k->arg_mem[arg_index]);
		k->arg_mem[arg_index] = m;
		memcpy(k->block + a->offset, &addr, sizeof(addr));
		break;
	default:
		if (arg_size != a->size) {
			pthread_mutex_unlock(&simt_cl_lock);
			return CL_INVALID_ARG_SIZE;
		}
		if (!arg_value) {
			pthread_mutex_unlock(&simt_cl_lock);
			return CL_INVALID_ARG_VALUE;
		}
		memcpy(k->block + a->offset, arg_value, arg_size);
	}
	k->arg_set[arg_index] = true;
	pthread_mutex_unlock(&simt_cl_lock);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelInfo(cl_kernel k, cl_kernel_info param_name, size_t param_value_size,
		void *param_value, size_t *param_value_size_ret)
{
	if (!cl_valid(k, MAGIC_KERNEL))
		return CL_INVALID_KERNEL;
	switch (param_name) {
	case CL_KERNEL_FUNCTION_NAME:
		return CL_INFO_STRING(k->ck->name);
	case CL_KERNEL_NUM_ARGS:
		return CL_INFO_VALUE(cl_uint, k->ck->nargs);
	case CL_KERNEL_REFERENCE_COUNT:
		return CL_INFO_VALUE(cl_uint, k->h.refs);
	case CL_KERNEL_CONTEXT:
		return CL_INFO_VALUE(cl_context, k->program->ctx);
	case CL_KERNEL_PROGRAM:
		return CL_INFO_VALUE(cl_program, k->program);
	case CL_KERNEL_ATTRIBUTES:
		return CL_INFO_STRING("");
	default:
		return CL_INVALID_VALUE;
	}
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelArgInfo(cl_kernel k, cl_uint arg_index,
		   cl_kernel_arg_info param_name, size_t param_value_size,
		   void *param_value, size_t *param_value_size_ret)
{
	static const cl_kernel_arg_address_qualifier address[] = {
		CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ADDRESS_GLOBAL,
		CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_ADDRESS_LOCAL,
	};
	static const cl_kernel_arg_access_qualifier access[] = {
		CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_ACCESS_READ_ONLY,
		CL_KERNEL_ARG_ACCESS_WRITE_ONLY, CL_KERNEL_ARG_ACCESS_READ_WRITE,
	};
	const struct simt_clarg *a;
	cl_kernel_arg_type_qualifier q = CL_KERNEL_ARG_TYPE_NONE;

	if (!cl_valid(k, MAGIC_KERNEL))
		return CL_INVALID_KERNEL;
	if (arg_index >= k->ck->nargs)
		return CL_INVALID_ARG_INDEX;
	a = &k->ck->args[arg_index];
	switch (param_name) {
	case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
		return CL_INFO_VALUE(cl_kernel_arg_address_qualifier,
				     address[a->address_qual & 3]);
	case CL_KERNEL_ARG_ACCESS_QUALIFIER:
		return CL_INFO_VALUE(cl_kernel_arg_access_qualifier,
				     access[a->access_qual & 3]);
	case CL_KERNEL_ARG_TYPE_NAME:
		return CL_INFO_STRING(a->type_name);
	case CL_KERNEL_ARG_TYPE_QUALIFIER:
		if (a->type_qual & SIMT_CLARG_TYPE_CONST)
			q |= CL_KERNEL_ARG_TYPE_CONST;
		if (a->type_qual & SIMT_CLARG_TYPE_RESTRICT)
			q |= CL_KERNEL_ARG_TYPE_RESTRICT;
		if (a->type_qual & SIMT_CLARG_TYPE_VOLATILE)
			q |= CL_KERNEL_ARG_TYPE_VOLATILE;
		return CL_INFO_VALUE(cl_kernel_arg_type_qualifier, q);
	case CL_KERNEL_ARG_NAME:
		return CL_INFO_STRING(a->name);
	default:
		return CL_INVALID_VALUE;
	}
}

/* Shared memory of a block: static, then each __local argument's. */
uint32_t simt_cl_kernel_local_bytes(cl_kernel k)
{
	uint32_t bytes = 0;

	for (uint32_t i = 0; i < k->ck->nargs; i++) {
		if (k->ck->args[i].kind == SIMT_CLARG_LOCAL)
			bytes += (k->local_size[i] + SIMT_CL_LOCAL_ALIGN - 1) &
				 ~(uint32_t)(SIMT_CL_LOCAL_ALIGN - 1);
	}
	return k->attrs.shared_bytes + bytes;
}

size_t simt_cl_kernel_max_group(cl_kernel k)
{
	cl_device_id d = k->program->ctx->device;
	size_t n = d->max_work_group;

	if (k->attrs.regs && d->info.sm_regs && d->info.sm_regs / k->attrs.regs < n)
		n = d->info.sm_regs / k->attrs.regs;
	return n;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id device,
			 cl_kernel_work_group_info param_name,
			 size_t param_value_size, void *param_value,
			 size_t *param_value_size_ret)
{
	static const size_t none[3];

	if (!cl_valid(k, MAGIC_KERNEL))
		return CL_INVALID_KERNEL;
	if (device && device != k->program->ctx->device)
		return CL_INVALID_DEVICE;
	switch (param_name) {
	case CL_KERNEL_WORK_GROUP_SIZE:
		return CL_INFO_VALUE(size_t, simt_cl_kernel_max_group(k));
	case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
		return simt_cl_info(none, sizeof(none), param_value_size,
				    param_value, param_value_size_ret);
	case CL_KERNEL_LOCAL_MEM_SIZE:
		return CL_INFO_VALUE(cl_ulong, simt_cl_kernel_local_bytes(k));
	case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
		return CL_INFO_VALUE(size_t, SIMT_WARP_SIZE);
	case CL_KERNEL_PRIVATE_MEM_SIZE:
		return CL_INFO_VALUE(cl_ulong, k->attrs.local_bytes);
	default:
		return CL_INVALID_VALUE;
	}
}
