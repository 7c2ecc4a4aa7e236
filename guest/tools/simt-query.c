// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simt-query: open an accel device node and print what the DRM core
 * (DRM_IOCTL_VERSION) and the driver (DRM_IOCTL_SIMT_GET_PARAM) report.
 * Used by the in-guest tests to check that /dev/accel/accel0 is the simt
 * driver's node and that ioctls round-trip.  Built static by
 * scripts/guest-build.sh.
 *
 *   simt-query [NODE]        default /dev/accel/accel0
 *
 * Prints "name=<name> version=<major>.<minor>.<patch> desc=<desc>" then one
 * "<param>=<value>" line per device parameter; exit status 0 on success,
 * 1 on any error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm/drm.h>

#include <drm/simt_accel.h>

static const struct {
	const char *name;
	unsigned int param;
} params[] = {
	{ "device_version", DRM_SIMT_PARAM_DEVICE_VERSION },
	{ "caps", DRM_SIMT_PARAM_CAPS },
	{ "sm_count", DRM_SIMT_PARAM_SM_COUNT },
	{ "vram_size", DRM_SIMT_PARAM_VRAM_SIZE },
	{ "irq_test_count", DRM_SIMT_PARAM_IRQ_TEST_COUNT },
	{ "max_contexts", DRM_SIMT_PARAM_MAX_CONTEXTS },
	{ "max_submit_cmds", DRM_SIMT_PARAM_MAX_SUBMIT_CMDS },
	{ "sm_blocks", DRM_SIMT_PARAM_SM_BLOCKS },
	{ "fixed_va_end", DRM_SIMT_PARAM_FIXED_VA_END },
};

int main(int argc, char **argv)
{
	const char *node = argc > 1 ? argv[1] : "/dev/accel/accel0";
	char name[64] = "", date[64] = "", desc[256] = "";
	struct drm_version v;
	unsigned int i;
	int fd, ret = 0;

	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "simt-query: open %s: %s\n", node, strerror(errno));
		return 1;
	}

	memset(&v, 0, sizeof(v));
	v.name = name;
	v.name_len = sizeof(name) - 1;
	v.date = date;
	v.date_len = sizeof(date) - 1;
	v.desc = desc;
	v.desc_len = sizeof(desc) - 1;
	if (ioctl(fd, DRM_IOCTL_VERSION, &v) < 0) {
		fprintf(stderr, "simt-query: DRM_IOCTL_VERSION on %s: %s\n", node,
			strerror(errno));
		close(fd);
		return 1;
	}
	printf("name=%s version=%d.%d.%d desc=%s\n", name, v.version_major,
	       v.version_minor, v.version_patchlevel, desc);

	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		struct drm_simt_get_param p = { .param = params[i].param };

		if (ioctl(fd, DRM_IOCTL_SIMT_GET_PARAM, &p) < 0) {
			fprintf(stderr, "simt-query: GET_PARAM %s: %s\n",
				params[i].name, strerror(errno));
			ret = 1;
			continue;
		}
		printf("%s=%llu\n", params[i].name, (unsigned long long)p.value);
	}

	/* An unknown parameter must be refused. */
	{
		struct drm_simt_get_param p = { .param = ~0u };

		if (ioctl(fd, DRM_IOCTL_SIMT_GET_PARAM, &p) == 0 || errno != EINVAL) {
			fprintf(stderr, "simt-query: an unknown parameter was not refused with EINVAL\n");
			ret = 1;
		}
	}

	close(fd);
	return ret;
}
