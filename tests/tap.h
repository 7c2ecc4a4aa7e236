/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Minimal TAP output for the host tests (unit, kernel toolchain): one
 * line per check, the plan at the end, exit status 1 if anything failed.
 */
#ifndef SIMT_TESTS_TAP_H
#define SIMT_TESTS_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static unsigned tap_count, tap_failed;

static inline bool tap_check(bool ok, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void tap_diag(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static inline bool tap_check(bool ok, const char *fmt, ...)
{
    va_list ap;

    printf("%s %u - ", ok ? "ok" : "not ok", ++tap_count);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    tap_failed += !ok;
    return ok;
}

/* Diagnostics go to stdout as TAP comments. */
static inline void tap_diag(const char *fmt, ...)
{
    va_list ap;

    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

static inline int tap_done(void)
{
    printf("1..%u\n", tap_count);
    if (tap_failed) {
        printf("# %u of %u tests failed\n", tap_failed, tap_count);
    }
    return tap_failed ? 1 : 0;
}

#endif /* SIMT_TESTS_TAP_H */
