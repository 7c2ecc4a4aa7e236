/* SPDX-License-Identifier: MIT */
/*
 * harness.h: what the guest's test programs (simt-ioctl-test in ioctl/,
 * simt-lib-test in lib/) share: the device node, the failed checks and
 * the main() that runs one group of tests by name:
 *
 *   PROGRAM GROUP [NODE [...]]
 */
#ifndef SIMT_TEST_HARNESS_H
#define SIMT_TEST_HARNESS_H

#include <stddef.h>

struct test_group {
	const char *name;
	void (*fn)(void);
};

extern const char *node;	/* the device node, argv[2]; /dev/accel/accel0 */
extern int failures;		/* the checks failed so far */

/*
 * What fail() adds to each failure in parentheses (libsimt's last error
 * for simt-lib-test), or NULL.
 */
extern const char *(*fail_note)(void);

/* One line "FAIL FILE:LINE: message"; safe from several threads. */
void fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* CLOCK_MONOTONIC in seconds. */
double now_s(void);

#define FAIL(...) fail(__FILE__, __LINE__, __VA_ARGS__)
#define CHECK(cond, ...) do { if (!(cond)) FAIL(__VA_ARGS__); } while (0)

/*
 * The programs' main(): runs the group argv[1] of @groups on the node
 * argv[2] (if given), @before(group) before it and @after() after it
 * (either may be NULL).  Returns the exit status: 0 if every check
 * passed, 1 if one failed, 2 for a bad command line.
 */
int test_main(int argc, char **argv, const char *prog,
	      const struct test_group *groups, size_t ngroups,
	      void (*before)(const char *group), void (*after)(void));

#endif /* SIMT_TEST_HARNESS_H */
