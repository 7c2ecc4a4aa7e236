// SPDX-License-Identifier: MIT
/*
 * harness.c: the guest test programs' failures and main() (harness.h).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "harness.h"

const char *node = "/dev/accel/accel0";
int failures;
const char *(*fail_note)(void);
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void fail(const char *file, int line, const char *fmt, ...)
{
	const char *note = fail_note ? fail_note() : NULL;
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&fail_lock);
	if (note)
		printf("FAIL %s:%d: %s (%s)\n", file, line, msg, note);
	else
		printf("FAIL %s:%d: %s\n", file, line, msg);
	failures++;
	pthread_mutex_unlock(&fail_lock);
}

int test_main(int argc, char **argv, const char *prog,
	      const struct test_group *groups, size_t ngroups,
	      void (*before)(const char *group), void (*after)(void))
{
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: %s GROUP [NODE]\n", prog);
		return 2;
	}
	if (argc > 2)
		node = argv[2];
	for (i = 0; i < ngroups; i++) {
		if (strcmp(argv[1], groups[i].name) == 0) {
			if (before)
				before(argv[1]);
			groups[i].fn();
			if (after)
				after();
			printf("%s: %d failed checks\n", argv[1], failures);
			return failures ? 1 : 0;
		}
	}
	fprintf(stderr, "%s: unknown group '%s'\n", prog, argv[1]);
	return 2;
}
