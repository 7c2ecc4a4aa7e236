// SPDX-License-Identifier: MIT
/*
 * helpers.c: what several files of simt-lib-test use (lib-test.h).
 */
#include "lib-test.h"

simt_dim3 dim(uint32_t x, uint32_t y, uint32_t z)
{
	return (simt_dim3){ x, y, z };
}

uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* Queue a launch that must be accepted; 0 if it was. */
int run(simt_kernel *k, simt_dim3 grid, simt_dim3 block, uint32_t dyn,
	const uint32_t *args, unsigned int nargs)
{
	uint64_t seq = 0;
	simt_status st = simt_launch(k, grid, block, dyn, args, nargs, &seq);

	CHECK(st == SIMT_SUCCESS, "launch: %s", simt_error_string(st));
	CHECK(st || seq > 0, "launch returned sequence number 0");
	return st == SIMT_SUCCESS ? 0 : -1;
}

/* Wait for everything queued on @ctx; 0 if it all completed. */
int finish(simt_context *ctx)
{
	simt_status st = simt_context_synchronize(ctx);

	CHECK(st == SIMT_SUCCESS, "synchronize: %s", simt_error_string(st));
	return st == SIMT_SUCCESS ? 0 : -1;
}

int check_u32(const char *what, const uint32_t *got, const uint32_t *want,
	      size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (got[i] != want[i]) {
			FAIL("%s: [%zu] = %u, expected %u", what, i, got[i], want[i]);
			return -1;
		}
	}
	return 0;
}

int check_floats(const char *what, const float *got, const float *want,
		 size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (got[i] != want[i]) {
			FAIL("%s: [%zu] = %g, expected %g", what, i, got[i], want[i]);
			return -1;
		}
	}
	return 0;
}

/*
 * May this process create HIGH priority contexts?  Since interface 0.3
 * only with CAP_SYS_NICE (root here) or when the administrator set the
 * simt module's unprivileged_high parameter.
 */
int high_allowed(const struct simt_device_info *info)
{
	char v[8] = "";
	FILE *f;

	if (info->uapi_minor < 3 || geteuid() == 0)
		return 1;
	f = fopen("/sys/module/simt/parameters/unprivileged_high", "r");
	if (f) {
		if (!fgets(v, sizeof(v), f))
			v[0] = 0;
		fclose(f);
	}
	return v[0] == 'Y' || v[0] == '1';
}

/* Limit @param, at most @max; @max before interface 0.@minor. */
static unsigned int context_limit(simt_device *dev, const struct simt_device_info *info,
				  uint32_t minor, uint32_t param, unsigned int max)
{
	uint64_t v;

	if (info->uapi_minor < minor || simt_device_get_param(dev, param, &v))
		return max;
	return v < max ? (unsigned int)v : max;
}

/* Contexts one open device may hold (0.3), or @max before. */
unsigned int file_contexts(simt_device *dev, const struct simt_device_info *info,
			   unsigned int max)
{
	return context_limit(dev, info, 3, DRM_SIMT_PARAM_FILE_CONTEXTS, max);
}

/* Contexts this user may hold on the device (0.9), or @max before. */
unsigned int user_contexts(simt_device *dev, const struct simt_device_info *info,
			   unsigned int max)
{
	return context_limit(dev, info, 9, DRM_SIMT_PARAM_USER_CONTEXTS, max);
}

uint8_t pat(size_t i, unsigned int seed)
{
	uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull + seed * 0x632be59bd9b4e019ull;

	return (uint8_t)(x >> 56);
}

uint8_t *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*size = n;
	return buf;
}

/* Threads of ids' output (grid @g of blocks @bl) that are wrong. */
uint32_t check_ids(const uint32_t *ids, simt_dim3 g, simt_dim3 bl, uint32_t sm_count)
{
	uint32_t threads = bl.x * bl.y * bl.z, bad = 0;
	uint32_t gx, gy, gz, tx, ty, tz;

	for (gz = 0; gz < g.z; gz++)
	for (gy = 0; gy < g.y; gy++)
	for (gx = 0; gx < g.x; gx++)
	for (tz = 0; tz < bl.z; tz++)
	for (ty = 0; ty < bl.y; ty++)
	for (tx = 0; tx < bl.x; tx++) {
		uint32_t blk = (gz * g.y + gy) * g.x + gx;
		uint32_t lin = (tz * bl.y + ty) * bl.x + tx;
		const uint32_t *o = ids + (blk * threads + lin) * IDS_WORDS;
		uint32_t w[IDS_WORDS] = {
			tx, ty, tz, gx, gy, gz, bl.x, bl.y, bl.z, g.x, g.y, g.z,
			lin % 32, lin / 32, (threads + 31) / 32, o[15], 1,
		};

		if (o[15] >= sm_count || memcmp(o, w, sizeof(w))) {
			if (!bad++)
				check_u32("ids", o, w, IDS_WORDS);
		}
	}
	return bad;
}

simt_kernel *load_kernel(simt_context *ctx, simt_module **m, const char *file,
			 const char *name)
{
	simt_kernel *k = NULL;
	char path[256];

	snprintf(path, sizeof(path), KERNEL_DIR "/%s", file);
	if (*m)
		CHECK(simt_module_unload(*m) == SIMT_SUCCESS, "unload");
	*m = NULL;
	if (simt_module_load(ctx, path, m) || simt_module_get_kernel(*m, name, &k))
		FAIL("kernel %s of %s", name, path);
	return k;
}

/* A buffer holding @n bytes of @data. */
simt_buffer *upload(simt_context *ctx, const void *data, size_t n)
{
	simt_buffer *b = NULL;

	if (simt_mem_alloc(ctx, n, &b) || simt_memcpy_htod(b, 0, data, n)) {
		FAIL("upload of %zu bytes", n);
		return NULL;
	}
	return b;
}

/* "123", "123 KiB", "4 MiB": bytes; -1 if it is none of them. */
static long long size_value(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s)
		return -1;
	while (*end == ' ')
		end++;
	if (!strncmp(end, "KiB", 3))
		return v << 10;
	if (!strncmp(end, "MiB", 3))
		return v << 20;
	if (!strncmp(end, "GiB", 3))
		return v << 30;
	return *end && *end != '\n' ? -1 : v;
}

/* 0 if the file of this process open on @node was found and read. */
int vram_usage(const char *node, struct vram_usage *u)
{
	char path[300], line[256];
	struct stat want, st;
	struct dirent *de;
	FILE *f = NULL;
	DIR *d;

	*u = (struct vram_usage){ -1, -1, -1, -1, -1 };
	if (stat(node, &want) || !(d = opendir("/proc/self/fd")))
		return -1;
	while (!f && (de = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		if (de->d_name[0] == '.' || stat(path, &st) || !S_ISCHR(st.st_mode) ||
		    st.st_rdev != want.st_rdev)
			continue;
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%s", de->d_name);
		f = fopen(path, "r");
	}
	closedir(d);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (!v)
			continue;
		*v++ = 0;
		v += strspn(v, " \t");
		if (!strcmp(line, "simt-evictions"))
			u->evictions = strtoll(v, NULL, 10);
		else if (!strcmp(line, "simt-restores"))
			u->restores = strtoll(v, NULL, 10);
		else if (!strcmp(line, "simt-evicted-vram"))
			u->evicted = size_value(v);
		else if (!strcmp(line, "drm-resident-vram"))
			u->resident = size_value(v);
		else if (!strcmp(line, "drm-total-vram"))
			u->total = size_value(v);
	}
	fclose(f);
	return 0;
}
