/* SPDX-License-Identifier: MIT */
/*
 * simt-clock.h: the host-time helpers the guest programs that measure
 * share (simt-bench, simt-preempt-demo, simt-run, simt-share-bench).
 */
#ifndef SIMT_CLOCK_H
#define SIMT_CLOCK_H

#include <time.h>

/* CLOCK_MONOTONIC in microseconds. */
static inline double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* qsort's comparison for doubles, ascending. */
static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#endif /* SIMT_CLOCK_H */
