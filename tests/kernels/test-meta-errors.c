/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt-meta as a command: files it must refuse get a message naming the
 * file (and function) with the reason and exit status 1, and no output
 * file; good files are annotated, re-annotated and dumped.
 *
 * Usage: test-meta-errors SIMT-META GOOD.elf SHARED.elf OBJECT.o BAD.elf...
 * where GOOD has no shared memory, SHARED has some, OBJECT is an
 * unlinked kernel and each BAD is named bad-<case>.elf.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "simt-elf.h"
#include "../tap.h"
#include "hw/simt/simt-le.h"

static const char *tool;
static char tmpdir[] = "/tmp/simt-meta-test.XXXXXX";

struct run {
    int status;                 /* exit status, -1 if it did not exit */
    char out[4096];             /* stdout and stderr */
};

static void run(struct run *r, const char *args)
{
    char cmd[8192];
    FILE *p;
    size_t n = 0, got;
    int st;

    snprintf(cmd, sizeof(cmd), "'%s' %s 2>&1", tool, args);
    r->out[0] = 0;
    r->status = -1;
    p = popen(cmd, "r");
    if (!p) {
        return;
    }
    while ((got = fread(r->out + n, 1, sizeof(r->out) - 1 - n, p)) > 0) {
        n += got;
    }
    r->out[n] = 0;
    while (fgetc(p) != EOF) {
        /* drain a dump longer than the buffer */
    }
    st = pclose(p);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool read_file(const char *path, uint8_t **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    long size;

    if (!f || fseek(f, 0, SEEK_END) < 0 || (size = ftell(f)) < 0) {
        if (f) {
            fclose(f);
        }
        return false;
    }
    rewind(f);
    *data = malloc(size ? size : 1);
    *len = size;
    if (!*data || fread(*data, 1, size, f) != (size_t)size) {
        fclose(f);
        return false;
    }
    fclose(f);
    return true;
}

static void write_file(const char *path, const uint8_t *data, size_t len)
{
    FILE *f = fopen(path, "wb");

    if (f) {
        fwrite(data, 1, len, f);
        fclose(f);
    }
}

/* Run simt-meta on @path; it must fail naming the file and @why. */
static void expect_refused(const char *name, const char *path,
                           const char *why)
{
    char args[2048], out[1100];
    struct run r;
    struct stat st;

    snprintf(out, sizeof(out), "%s/out.elf", tmpdir);
    unlink(out);
    snprintf(args, sizeof(args), "-o '%s' '%s'", out, path);
    run(&r, args);
    if (!tap_check(r.status == 1 && strstr(r.out, path) &&
                   strstr(r.out, why) && stat(out, &st) < 0,
                   "refuses %s", name)) {
        tap_diag("exit %d, output: %s", r.status, r.out);
        tap_diag("wanted the file name and \"%s\"", why);
    } else {
        tap_diag("%.*s", (int)strcspn(r.out, "\n"), r.out);
    }
}

/* Write @data with @val (@size bytes) at @off; expect it refused. */
static void patched(const char *name, const uint8_t *data, size_t len,
                    size_t off, uint32_t val, unsigned size, const char *why)
{
    uint8_t *copy = malloc(len);
    char path[1100];

    memcpy(copy, data, len);
    if (size == 1) {
        copy[off] = val;
    } else if (size == 2) {
        simt_put_le16(copy + off, val);
    } else {
        simt_put_le32(copy + off, val);
    }
    snprintf(path, sizeof(path), "%s/%s.elf", tmpdir, name);
    write_file(path, copy, len);
    expect_refused(name, path, why);
    free(copy);
}

/* Offset of the section header of @name in the ELF @data. */
static size_t section_header(const uint8_t *data, size_t len,
                             const char *name)
{
    struct simt_elf elf;
    uint8_t *copy = malloc(len);
    const struct simt_elf_section *s;
    char err[256];
    size_t off = 0;

    memcpy(copy, data, len);
    if (simt_elf_parse(&elf, "copy", copy, len, err, sizeof(err)) == 0 &&
        (s = simt_elf_section_by_name(&elf, name))) {
        off = simt_le32(data + 32) + (size_t)(s - elf.sections) * 40;
    }
    simt_elf_free(&elf);
    return off;
}

static void bad_kernels(int n, char **paths)
{
    static const struct {
        const char *name, *why;
    } cases[] = {
        { "fnptr", "indirect call through" },
        { "vla", "cannot bound the stack" },
        { "recursive", "recursive call chain" },
        { "floatarg", "kernel floatarg reads fa0 on entry" },
        { "nokernel", "no kernel entry symbol" },
        { "stackargs", "kernel stackargs accesses the stack above" },
        { "rvc", "compressed instructions (EF_RISCV_RVC)" },
    };
    int i;
    size_t c;

    for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        char file[64];
        const char *path = NULL;

        snprintf(file, sizeof(file), "bad-%s.elf", cases[c].name);
        for (i = 0; i < n; i++) {
            const char *base = strrchr(paths[i], '/');

            if (strcmp(base ? base + 1 : paths[i], file) == 0) {
                path = paths[i];
            }
        }
        if (!path) {
            tap_check(false, "refuses %s: no %s given", cases[c].name, file);
            continue;
        }
        expect_refused(cases[c].name, path, cases[c].why);
        if (strcmp(cases[c].name, "rvc") == 0) {
            uint8_t *data;
            size_t len;

            /* without the ELF flag, the code itself gives RVC away */
            if (read_file(path, &data, &len)) {
                patched("rvc-unflagged", data, len, 36,
                        simt_le32(data + 36) & ~1u, 4, "compressed");
                free(data);
            }
        }
    }
}

static unsigned count_sections(const struct simt_elf *elf, const char *name)
{
    unsigned i, n = 0;

    for (i = 0; i < elf->nsections; i++) {
        n += strcmp(elf->sections[i].name, name) == 0;
    }
    return n;
}

static void good_image(const char *good)
{
    char args[2048], copy[1100];
    uint8_t *data;
    size_t len;
    struct simt_image img;
    char err[256];
    struct run r;

    run(&r, "");
    tap_check(r.status == 2 && strstr(r.out, "usage"),
              "no arguments: usage, exit 2");
    snprintf(args, sizeof(args), "--dump '%s'", good);
    run(&r, args);
    tap_check(r.status == 0 && strstr(r.out, "kernel vecadd") &&
              strstr(r.out, "live registers before each instruction") &&
              strstr(r.out, "live at entry: ra a0 a1 a2 a3"),
              "--dump prints kernels and liveness");

    /* annotating in place twice leaves one valid note */
    snprintf(copy, sizeof(copy), "%s/again.elf", tmpdir);
    if (!read_file(good, &data, &len)) {
        tap_check(false, "read %s", good);
        return;
    }
    write_file(copy, data, len);
    free(data);
    snprintf(args, sizeof(args), "'%s'", copy);
    run(&r, args);
    run(&r, args);
    tap_check(r.status == 0 && simt_image_load(&img, copy, err,
                                               sizeof(err)) == 0 &&
              img.has_meta && simt_image_kernel(&img, "vecadd") &&
              count_sections(&img.elf, ".note.simt") == 1,
              "re-annotating replaces the note %s", r.out);
    simt_image_free(&img);
}

int main(int argc, char **argv)
{
    uint8_t *good, *shared;
    size_t good_len, shared_len, off;
    char path[1100];

    if (argc < 5 || !mkdtemp(tmpdir)) {
        fprintf(stderr, "usage: %s SIMT-META GOOD SHARED OBJECT BAD...\n",
                argv[0]);
        return 2;
    }
    tool = argv[1];
    if (!read_file(argv[2], &good, &good_len) ||
        !read_file(argv[3], &shared, &shared_len)) {
        fprintf(stderr, "cannot read %s or %s\n", argv[2], argv[3]);
        return 2;
    }

    good_image(argv[2]);

    snprintf(path, sizeof(path), "%s/missing.elf", tmpdir);
    expect_refused("missing file", path, "No such file");
    snprintf(path, sizeof(path), "%s/text.elf", tmpdir);
    write_file(path, (const uint8_t *)"hello\n", 6);
    expect_refused("non-ELF file", path, "not an ELF file");
    snprintf(path, sizeof(path), "%s/truncated.elf", tmpdir);
    write_file(path, good, good_len / 2);
    expect_refused("truncated file", path, "lies beyond end of file");
    patched("elf64", good, good_len, 4, 2, 1, "ELF class 2, want ELF32");
    patched("big-endian", good, good_len, 5, 2, 1, "not little-endian");
    patched("x86", good, good_len, 18, 62, 2, "machine 62, want RISC-V");
    patched("shared-object", good, good_len, 16, 3, 2,
            "want a static executable");
    patched("bad-shoff", good, good_len, 32, 0x7ffffff0, 4,
            "section headers beyond end of file");
    off = section_header(good, good_len, ".comment");
    patched("rela-section", good, good_len, off + 4, 4, 4,
            "unsupported relocation section .comment");
    off = section_header(good, good_len, ".text");
    patched("text-beyond-file", good, good_len, off + 20, 0x7fffffff, 4,
            "lies beyond end of file");
    off = section_header(shared, shared_len, ".shared");
    patched("shared-moved", shared, shared_len, off + 12, 0xb0000000, 4,
            "not at the shared window");
    expect_refused("unlinked object", argv[4], "relocatable object");

    bad_kernels(argc - 5, argv + 5);

    free(good);
    free(shared);
    snprintf(path, sizeof(path), "rm -rf '%s'", tmpdir);
    if (system(path) != 0) {
        tap_diag("could not remove %s", tmpdir);
    }
    return tap_done();
}
