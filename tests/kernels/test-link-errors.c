/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernels using operations the lanes lack must fail to link with a
 * message naming the operation (simt.ld's PROVIDEs), not the name of a
 * compiler-rt helper.
 *
 * Usage: test-link-errors LD.LLD SIMT.LD link-<case>.o...
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../tap.h"

static const struct {
    const char *name, *message;
} cases[] = {
    { "div64", "64-bit division is not supported on simt lanes" },
    { "double", "double is not supported on simt lanes" },
};

static void check(const char *ld, const char *script, const char *obj)
{
    const char *base = strrchr(obj, '/');
    char cmd[4096], out[4096];
    size_t n = 0, got, i;
    FILE *p;
    int st;

    base = base ? base + 1 : obj;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        size_t len = strlen(cases[i].name);

        if (strncmp(base, "link-", 5) == 0 &&
            strncmp(base + 5, cases[i].name, len) == 0 &&
            strcmp(base + 5 + len, ".o") == 0) {
            break;
        }
    }
    if (i == sizeof(cases) / sizeof(cases[0])) {
        tap_check(false, "%s: not a known case", base);
        return;
    }
    snprintf(cmd, sizeof(cmd), "'%s' -T '%s' '%s' -o /dev/null 2>&1",
             ld, script, obj);
    p = popen(cmd, "r");
    if (!p) {
        tap_check(false, "%s: cannot run the linker", base);
        return;
    }
    while ((got = fread(out + n, 1, sizeof(out) - 1 - n, p)) > 0) {
        n += got;
    }
    out[n] = 0;
    while (fgetc(p) != EOF) {
        /* drain */
    }
    st = pclose(p);
    if (!tap_check(WIFEXITED(st) && WEXITSTATUS(st) != 0 &&
                   strstr(out, cases[i].message) &&
                   !strstr(out, "undefined symbol"),
                   "%s: the link fails with \"%s\"", cases[i].name,
                   cases[i].message)) {
        tap_diag("linker said: %s", out);
    }
}

int main(int argc, char **argv)
{
    int i;

    if (argc < 4) {
        fprintf(stderr, "usage: %s LD.LLD SIMT.LD link-CASE.o...\n", argv[0]);
        return 2;
    }
    for (i = 3; i < argc; i++) {
        check(argv[1], argv[2], argv[i]);
    }
    return tap_done();
}
