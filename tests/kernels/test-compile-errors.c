/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernels using what the lanes lack must fail to compile with a message
 * naming the line and the cause (the flags of kernels/meson.build and the
 * poisoned double of simt.h), at every optimisation level.
 *
 * Usage: test-compile-errors CLANG SRCDIR FLAGS... -- CASE.c...
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../tap.h"

static const struct {
    const char *name;
    int line;
    const char *message;
} cases[] = {
    { "implicit", 7, "implicit declaration of function 'rsqrtff'" },
    { "promote", 7, "implicit conversion increases floating-point "
                    "precision: 'float' to 'double'" },
    { "narrow", 7, "implicit conversion loses floating-point precision: "
                   "'double' to 'float'" },
    { "dbl", 7, "attempt to use a poisoned identifier" },
    { "printf_double", 7, "passing 'double' to parameter of incompatible "
                          "type 'const volatile void *'" },
};

static const char *const levels[] = { "-O0", "-Os", "-O3" };

int main(int argc, char **argv)
{
    char flags[8192] = "", cmd[12288], out[8192], where[256];
    int i, first_case = 0;

    if (argc < 4) {
        fprintf(stderr, "usage: %s CLANG SRCDIR FLAGS... -- CASE...\n",
                argv[0]);
        return 2;
    }
    for (i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            first_case = i + 1;
            break;
        }
        strncat(flags, " '", sizeof(flags) - strlen(flags) - 1);
        strncat(flags, argv[i], sizeof(flags) - strlen(flags) - 1);
        strncat(flags, "'", sizeof(flags) - strlen(flags) - 1);
    }
    for (i = first_case; first_case && i < argc; i++) {
        size_t c;

        for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
            if (strcmp(argv[i], cases[c].name) == 0) {
                break;
            }
        }
        if (c == sizeof(cases) / sizeof(cases[0])) {
            tap_check(false, "%s: not a known case", argv[i]);
            continue;
        }
        for (size_t l = 0; l < sizeof(levels) / sizeof(levels[0]); l++) {
            size_t n = 0, got;
            FILE *p;
            int st;

            snprintf(cmd, sizeof(cmd),
                     "'%s'%s %s -c '%s/%s.c' -o /dev/null 2>&1",
                     argv[1], flags, levels[l], argv[2], cases[c].name);
            p = popen(cmd, "r");
            if (!p) {
                tap_check(false, "%s: cannot run the compiler",
                          cases[c].name);
                continue;
            }
            while ((got = fread(out + n, 1, sizeof(out) - 1 - n, p)) > 0) {
                n += got;
            }
            out[n] = 0;
            while (fgetc(p) != EOF) {
                /* drain */
            }
            st = pclose(p);
            snprintf(where, sizeof(where), "%s.c:%d:", cases[c].name,
                     cases[c].line);
            if (!tap_check(WIFEXITED(st) && WEXITSTATUS(st) != 0 &&
                           strstr(out, where) &&
                           strstr(out, cases[c].message),
                           "%s at %s: the compile fails at %s with \"%s\"",
                           cases[c].name, levels[l], where,
                           cases[c].message)) {
                tap_diag("compiler said: %s", out);
            }
        }
    }
    return tap_done();
}
