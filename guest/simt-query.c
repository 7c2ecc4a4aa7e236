// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * simt-query: open an accel device node and print what the DRM core and
 * the driver report through DRM_IOCTL_VERSION.  Used by the in-guest tests
 * to check that /dev/accel/accel0 is really the simt driver's node and that
 * an ioctl round trip works.  Built static by scripts/guest-build.sh.
 *
 *   simt-query [NODE]        default /dev/accel/accel0
 *
 * Prints "name=<name> version=<major>.<minor>.<patch> desc=<desc>";
 * exit status 0 on success, 1 on error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm/drm.h>

int main(int argc, char **argv)
{
	const char *node = argc > 1 ? argv[1] : "/dev/accel/accel0";
	char name[64] = "", date[64] = "", desc[256] = "";
	struct drm_version v;
	int fd;

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
	close(fd);

	printf("name=%s version=%d.%d.%d desc=%s\n", name, v.version_major,
	       v.version_minor, v.version_patchlevel, desc);
	return 0;
}
