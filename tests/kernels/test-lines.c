/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The DWARF line-table reader (tools/simt-meta/simt-lines.c): images of
 * lines-kernel.c built with -g as DWARF 5 and 4 map their functions to the
 * tagged source lines and agree with llvm-dwarfdump at every pc; an image
 * without -g gives an empty table; hand-made units drive the state
 * machine's every opcode; the calls of simt.h's inline functions map to
 * the kernel's line through .debug_info's inlined subroutines; and damaged
 * sections (every prefix of a real one, hand-made faults) give an error
 * naming the file, never a crash.
 *
 * Usage: test-lines LINES-KERNEL.c LLVM-DWARFDUMP SIMT-META NODEBUG.elf
 *                   DWARF5.elf DWARF4.elf
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt-lines.h"
#include "../tap.h"
#include "hw/simt/simt-le.h"

#define FAKE_PATH   "fake.elf"

static const char *basename_of(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash ? slash + 1 : path;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t ls = strlen(s), lt = strlen(tail);

    return ls >= lt && strcmp(s + ls - lt, tail) == 0;
}

/* A section of a hand-made ELF. */
struct fake_section {
    const char *name;
    const uint8_t *bytes;
    size_t size;
};

/*
 * An ELF of just @n sections laid out back to back in a buffer of exactly
 * their size, so that a read past the last one is a heap overflow the
 * sanitizers see.
 */
static void fake_elf(struct simt_elf *elf, const struct fake_section *secs,
                     unsigned n)
{
    size_t total = 0, at = 0;
    unsigned i;

    memset(elf, 0, sizeof(*elf));
    for (i = 0; i < n; i++) {
        total += secs[i].size;
    }
    elf->path = FAKE_PATH;
    elf->data = malloc(total ? total : 1);
    elf->size = total;
    elf->sections = calloc(n, sizeof(*elf->sections));
    elf->nsections = n;
    if (!elf->data || !elf->sections) {
        abort();
    }
    for (i = 0; i < n; i++) {
        elf->sections[i] = (struct simt_elf_section) {
            .name = secs[i].name, .type = 1 /* PROGBITS */,
            .offset = (uint32_t)at, .size = (uint32_t)secs[i].size,
        };
        memcpy(elf->data + at, secs[i].bytes, secs[i].size);
        at += secs[i].size;
    }
}

/* ---- tagged functions of lines-kernel.c ---- */

struct tag {
    char name[64];
    unsigned line;
};

/* The "// @NAME" tags of @path; returns how many (at most @max). */
static unsigned read_tags(const char *path, struct tag *tags, unsigned max)
{
    FILE *f = fopen(path, "r");
    char text[256];
    unsigned n = 0, line = 0;

    if (!f) {
        tap_diag("cannot open %s", path);
        return 0;
    }
    while (fgets(text, sizeof(text), f) && n < max) {
        const char *at = strstr(text, "// @");

        line++;
        if (at && sscanf(at + 4, "%63[A-Za-z0-9_:]", tags[n].name) == 1) {
            tags[n++].line = line;
        }
    }
    fclose(f);
    return n;
}

/* ---- llvm-dwarfdump as the reference ---- */

struct dump_row {
    uint32_t address;
    unsigned line;
    bool end_sequence;
};

/* The rows of `llvm-dwarfdump --debug-line @image`, or NULL. */
static struct dump_row *dump_rows(const char *dwarfdump, const char *image,
                                  unsigned *nrows)
{
    char cmd[1024], text[512];
    struct dump_row *rows = NULL;
    unsigned cap = 0;
    FILE *p;

    *nrows = 0;
    snprintf(cmd, sizeof(cmd), "'%s' --debug-line '%s'", dwarfdump, image);
    p = popen(cmd, "r");
    if (!p) {
        return NULL;
    }
    while (fgets(text, sizeof(text), p)) {
        unsigned long long address;
        unsigned line;

        /* "0x0000000000010000     18      0      0   0   0  is_stmt" */
        if (sscanf(text, "0x%16llx %u", &address, &line) != 2) {
            continue;
        }
        if (*nrows == cap) {
            cap = cap ? cap * 2 : 256;
            rows = realloc(rows, cap * sizeof(*rows));
            if (!rows) {
                abort();
            }
        }
        rows[*nrows] = (struct dump_row) {
            .address = (uint32_t)address, .line = line,
            .end_sequence = strstr(text, "end_sequence") != NULL,
        };
        ++*nrows;
    }
    if (pclose(p) != 0) {
        free(rows);
        *nrows = 0;
        return NULL;
    }
    return rows;
}

/*
 * Every pc a dumped row covers (up to the next row of its sequence) maps
 * to that row's line, or to nothing for line 0.
 */
static void check_against_dump(const struct simt_lines *lines,
                               const char *dwarfdump, const char *image,
                               const char *name)
{
    struct dump_row *rows;
    unsigned nrows, i, pcs = 0, wrong = 0;

    rows = dump_rows(dwarfdump, image, &nrows);
    if (!tap_check(rows && nrows > 0, "%s: llvm-dwarfdump lists its rows",
                   name)) {
        free(rows);
        return;
    }
    for (i = 0; i + 1 < nrows; i++) {
        uint32_t pc;

        if (rows[i].end_sequence) {
            continue;
        }
        for (pc = rows[i].address; pc < rows[i + 1].address; pc += 2) {
            const char *file = NULL;
            unsigned line = 0;
            bool found = simt_lines_find(lines, pc, &file, &line);

            pcs++;
            if (found != (rows[i].line != 0) ||
                (found && line != rows[i].line)) {
                if (wrong++ < 5) {
                    tap_diag("pc 0x%x: dwarfdump says line %u, reader %s:%u",
                             pc, rows[i].line, found ? file : "nothing",
                             line);
                }
            }
        }
    }
    tap_check(pcs > 0 && wrong == 0, "%s: each of %u pcs of %u rows maps to "
              "the line llvm-dwarfdump gives (%u differ)", name, pcs, nrows,
              wrong);
    free(rows);
}

/* `simt-meta --lines` prints one "0xADDR file:line" row per range. */
static void check_cli(const char *simt_meta, const char *image,
                      const struct simt_lines *lines, const char *name)
{
    char cmd[1024], text[1024], want[1024];
    unsigned n = 0, wrong = 0, inlined_rows = 0;
    FILE *p;

    snprintf(cmd, sizeof(cmd), "'%s' --lines '%s'", simt_meta, image);
    p = popen(cmd, "r");
    if (!p) {
        tap_check(false, "%s: simt-meta --lines runs", name);
        return;
    }
    while (fgets(text, sizeof(text), p)) {
        if (n < lines->nranges) {
            const struct simt_lines_range *r = &lines->ranges[n];
            const char *call_file, *inlined_file;
            unsigned call_line, inlined_line;
            int at;

            at = snprintf(want, sizeof(want), "0x%08x %s:%u", r->start,
                          lines->files[r->file], r->line);
            if (simt_lines_find_call(lines, r->start, &call_file, &call_line,
                                     &inlined_file, &inlined_line) &&
                inlined_file) {
                at += snprintf(want + at, sizeof(want) - at,
                               " (inlined at %s:%u)", call_file, call_line);
                inlined_rows++;
            }
            snprintf(want + at, sizeof(want) - at, "\n");
            wrong += strcmp(text, want) != 0;
        }
        n++;
    }
    tap_check(pclose(p) == 0 && n == lines->nranges && wrong == 0 &&
              inlined_rows > 0,
              "%s: simt-meta --lines prints the %u ranges as 0xADDR "
              "file:line, with \"(inlined at file:line)\" on the %u of "
              "inlined code (%u printed, %u differ)", name, lines->nranges,
              inlined_rows, n, wrong);
}

/* ---- the built images ---- */

/*
 * The pc of the first instruction of the function @func matching @mask
 * and @match, or 0.
 */
static uint32_t find_insn(const struct simt_image *img, const char *func,
                          uint32_t mask, uint32_t match)
{
    const struct simt_elf_symbol *sym =
        simt_elf_symbol_by_name(&img->elf, func);
    uint32_t pc;

    if (!sym || sym->value < img->base ||
        sym->value + sym->size > img->base + img->size) {
        return 0;
    }
    for (pc = sym->value; pc + 4 <= sym->value + sym->size; pc += 4) {
        if ((simt_le32(img->bytes + pc - img->base) & mask) == match) {
            return pc;
        }
    }
    return 0;
}

/*
 * The instruction at @pc, inlined from simt.h's @inline_name by the call
 * tagged "// @call:@tag": simt_lines_find_call gives the tagged line of
 * lines-kernel.c and simt.h's position as the inlined one, which is what
 * simt_lines_find gives.
 */
static void check_call(const struct simt_lines *lines, const char *name,
                       uint32_t pc, const char *what, const char *tag,
                       const struct tag *tags, unsigned ntags)
{
    const char *file = NULL, *in_file = NULL, *plain_file = NULL;
    unsigned line = 0, in_line = 0, plain_line = 0, want = 0, i;
    bool found, plain;

    for (i = 0; i < ntags; i++) {
        if (strncmp(tags[i].name, "call:", 5) == 0 &&
            strcmp(tags[i].name + 5, tag) == 0) {
            want = tags[i].line;
        }
    }
    found = pc && simt_lines_find_call(lines, pc, &file, &line, &in_file,
                                       &in_line);
    plain = pc && simt_lines_find(lines, pc, &plain_file, &plain_line);
    tap_check(want && found && ends_with(file, "/tests/kernels/lines-kernel.c")
              && line == want,
              "%s: the %s at 0x%x, inlined from simt.h, is called at "
              "lines-kernel.c:%u (got %s:%u)", name, what, pc, want,
              found ? file : "nothing", line);
    tap_check(plain && ends_with(plain_file, "kernels/include/simt.h") &&
              in_file && strcmp(in_file, plain_file) == 0 &&
              in_line == plain_line,
              "%s: the %s maps to simt.h:%u by the line table, the inlined "
              "position simt_lines_find_call gives (%s:%u)", name, what,
              plain_line, in_file ? in_file : "none", in_line);
}

/* The call sites of inlined code, and pcs not inlined. */
static void check_inlined(const struct simt_image *img,
                          const struct simt_lines *lines, const char *name,
                          const struct tag *tags, unsigned ntags)
{
    /* custom-0 SHFL, and AMOADD.W (opcode 0x2f, funct3 2, funct5 0) */
    uint32_t shfl = find_insn(img, "inlined", 0x707f, 0x300b);
    uint32_t amoadd = find_insn(img, "inlined", 0xf800707f, 0x0000202f);
    const struct simt_elf_symbol *sym;
    unsigned i, same = 0, total = 0;
    const char *file;

    tap_check(lines->ninlined > 0, "%s: .debug_info gives %u inlined calls",
              name, lines->ninlined);
    check_call(lines, name, shfl, "SHFL of __shfl_down", "shfl", tags, ntags);
    check_call(lines, name, amoadd, "AMOADD.W of atomicAdd", "atomic", tags,
               ntags);
    for (i = 0; i < ntags; i++) {
        const char *f1 = NULL, *f2 = NULL, *in_file = NULL;
        unsigned l1 = 0, l2 = 0, in_line = 1;

        sym = simt_elf_symbol_by_name(&img->elf, tags[i].name);
        if (!sym) {
            continue;
        }
        total++;
        same += simt_lines_find(lines, sym->value, &f1, &l1) &&
                simt_lines_find_call(lines, sym->value, &f2, &l2, &in_file,
                                     &in_line) &&
                f1 == f2 && l1 == l2 && !in_file && in_line == 0;
    }
    tap_check(total == 2 && same == total,
              "%s: the pcs of twice() and halve(), not inlined, give "
              "simt_lines_find's answer and no inlined position (%u of %u)",
              name, same, total);
    tap_check(!simt_lines_find_call(lines, 0, &file, &i, NULL, NULL),
              "%s: pc 0 maps to nothing through simt_lines_find_call", name);
}

static void check_debug_image(const char *path, unsigned version,
                              const struct tag *tags, unsigned ntags,
                              const char *dwarfdump, const char *simt_meta)
{
    const char *name = basename_of(path);
    const struct simt_elf_section *sec;
    const struct simt_elf_symbol *sym;
    struct simt_lines lines;
    struct simt_image img;
    const char *file;
    unsigned line, i;
    char err[512] = "";
    bool found;
    int ret;

    if (!tap_check(simt_image_load(&img, path, err, sizeof(err)) == 0 &&
                   img.has_meta, "%s: loads, with its SIMT note %s", name,
                   err)) {
        return;
    }
    sec = simt_elf_section_by_name(&img.elf, ".debug_line");
    tap_check(sec && sec->size >= 6 &&
              simt_le16(img.elf.data + sec->offset + 4) == version,
              "%s: simt-meta kept .debug_line, of DWARF %u", name, version);
    ret = simt_lines_read(&lines, &img.elf, err, sizeof(err));
    if (!tap_check(ret == 0 && lines.nranges > 0,
                   "%s: line table read, %u ranges of %u files %s", name,
                   lines.nranges, lines.nfiles, err)) {
        simt_image_free(&img);
        return;
    }
    for (i = 0; i < ntags; i++) {
        if (strchr(tags[i].name, ':')) {
            continue;
        }
        sym = simt_elf_symbol_by_name(&img.elf, tags[i].name);
        file = NULL;
        line = 0;
        found = sym && simt_lines_find(&lines, sym->value, &file, &line);
        tap_check(found && ends_with(file, "/tests/kernels/lines-kernel.c") &&
                  line == tags[i].line,
                  "%s: %s() at 0x%x maps to lines-kernel.c:%u (got %s:%u)",
                  name, tags[i].name, sym ? sym->value : 0, tags[i].line,
                  found ? file : "nothing", line);
    }
    sym = simt_elf_symbol_by_name(&img.elf, "memset");
    file = NULL;
    found = sym && simt_lines_find(&lines, sym->value, &file, &line);
    tap_check(found && ends_with(file, "kernels/simt-libc.c") && line > 0,
              "%s: memset() maps to kernels/simt-libc.c, the second unit "
              "(got %s)", name, found ? file : "nothing");
    tap_check(!simt_lines_find(&lines, img.code_end, &file, &line) &&
              !simt_lines_find(&lines, 0, &file, &line) &&
              !simt_lines_find(&lines, img.code_start - 4, &file, &line) &&
              !simt_lines_find(&lines, UINT32_MAX, &file, &line),
              "%s: pcs outside every sequence map to nothing", name);
    check_against_dump(&lines, dwarfdump, path, name);
    check_inlined(&img, &lines, name, tags, ntags);
    check_cli(simt_meta, path, &lines, name);
    simt_lines_free(&lines);
    simt_image_free(&img);
}

static void check_nodebug_image(const char *path, const char *simt_meta)
{
    const char *name = basename_of(path);
    struct simt_lines lines;
    struct simt_image img;
    const char *file;
    unsigned line;
    char err[512] = "", cmd[1024], text[1024];
    bool said;
    FILE *p;
    int ret;

    if (!tap_check(simt_image_load(&img, path, err, sizeof(err)) == 0,
                   "%s: loads %s", name, err)) {
        return;
    }
    ret = simt_lines_read(&lines, &img.elf, err, sizeof(err));
    tap_check(ret == 0 && lines.nranges == 0 && lines.nfiles == 0 &&
              !simt_lines_find(&lines, img.elf.entry, &file, &line),
              "%s (no -g): empty line table, its entry maps to nothing %s",
              name, err);
    simt_lines_free(&lines);
    simt_image_free(&img);
    snprintf(cmd, sizeof(cmd), "'%s' --lines '%s' 2>&1", simt_meta, path);
    p = popen(cmd, "r");
    said = p && fgets(text, sizeof(text), p) && strstr(text, path) &&
           strstr(text, "no line table (build the kernel with -g)");
    tap_check(p && pclose(p) != 0 && said, "%s: simt-meta --lines fails, "
              "saying there is no line table", name);
}

/*
 * Read @section as the .debug_line of a fake image (with the real
 * .debug_line_str and .debug_str of @img).
 */
static int read_fake(const struct simt_image *img, const uint8_t *section,
                     size_t size, struct simt_lines *lines, char *err,
                     size_t errlen)
{
    struct fake_section secs[3];
    unsigned n = 0;
    const char *names[] = { ".debug_line_str", ".debug_str" };
    struct simt_elf elf;
    unsigned i;
    int ret;

    for (i = 0; i < 2; i++) {
        const struct simt_elf_section *s =
            simt_elf_section_by_name(&img->elf, names[i]);

        if (s) {
            secs[n++] = (struct fake_section) {
                names[i], img->elf.data + s->offset, s->size,
            };
        }
    }
    secs[n++] = (struct fake_section) { ".debug_line", section, size };
    fake_elf(&elf, secs, n);
    ret = simt_lines_read(lines, &elf, err, errlen);
    simt_elf_free(&elf);
    return ret;
}

/* A built image and a copy of one of its sections, to damage. */
struct section_copy {
    struct simt_image img;
    const struct simt_elf_section *sec;
    uint8_t *copy;
};

/*
 * Load the image at @path and copy its section @secname, of at least
 * @min_size bytes; or fail a check saying it has none.
 */
static bool load_section(struct section_copy *s, const char *path,
                         const char *secname, size_t min_size)
{
    char err[512] = "";

    if (simt_image_load(&s->img, path, err, sizeof(err)) < 0 ||
        !(s->sec = simt_elf_section_by_name(&s->img.elf, secname)) ||
        s->sec->size < min_size) {
        tap_check(false, "%s: has a %s %s", basename_of(path), secname, err);
        simt_image_free(&s->img);
        return false;
    }
    s->copy = malloc(s->sec->size);
    if (!s->copy) {
        abort();
    }
    memcpy(s->copy, s->img.elf.data + s->sec->offset, s->sec->size);
    return true;
}

static void free_section(struct section_copy *s)
{
    free(s->copy);
    simt_image_free(&s->img);
}

/*
 * Every prefix of the image's .debug_line is an error naming the file,
 * except those that end at a unit boundary; every shortened unit length
 * of the first unit is an error when it cuts the header.
 */
static void check_truncations(const char *path)
{
    const char *name = basename_of(path);
    struct section_copy s;
    struct simt_lines lines;
    char err[512] = "";
    size_t n, next_unit = 0, header_end, unit_length;
    unsigned wrong = 0, boundaries = 0;

    if (!load_section(&s, path, ".debug_line", 0)) {
        return;
    }
    for (n = 0; n <= s.sec->size; n++) {
        bool boundary = n == next_unit;
        int ret = read_fake(&s.img, s.copy, n, &lines, err, sizeof(err));

        if (boundary) {
            boundaries++;
            if (n + 4 <= s.sec->size) {
                next_unit = n + 4 + simt_le32(s.copy + n);
            }
        }
        if (boundary ? ret != 0 :
            ret != -1 || strncmp(err, FAKE_PATH ": ", 10) != 0) {
            if (wrong++ < 5) {
                tap_diag("prefix of %zu bytes: %d %s", n, ret,
                         ret ? err : "");
            }
        }
        simt_lines_free(&lines);
    }
    tap_check(wrong == 0 && boundaries > 2,
              "%s: each of the %u prefixes of .debug_line is an error naming "
              "the file, but for the %u ending at a unit boundary (%u wrong)",
              name, s.sec->size + 1, boundaries, wrong);

    /* The first unit alone, its length cut to every shorter one. */
    header_end = 4 + 2 + (simt_le16(s.copy + 4) >= 5 ? 2 : 0);
    header_end += 4 + simt_le32(s.copy + header_end);
    unit_length = simt_le32(s.copy);
    wrong = 0;
    for (n = 0; n < unit_length; n++) {
        int ret;

        simt_put_le32(s.copy, n);
        ret = read_fake(&s.img, s.copy, n + 4, &lines, err, sizeof(err));
        if (ret == 0 ? n + 4 < header_end :
            strncmp(err, FAKE_PATH ": ", 10) != 0) {
            if (wrong++ < 5) {
                tap_diag("unit length %zu: %d %s", n, ret, ret ? err : "");
            }
        }
        simt_lines_free(&lines);
    }
    tap_check(wrong == 0, "%s: the first unit with each shorter unit length "
              "reads or fails naming the file, and fails when the header "
              "is cut (%u wrong)", name, wrong);
    free_section(&s);
}

/* ---- hand-made units ---- */

struct bytes {
    uint8_t b[512];
    size_t n;
};

static void put(struct bytes *o, const void *p, size_t n)
{
    if (o->n + n > sizeof(o->b)) {
        abort();
    }
    if (n) {
        memcpy(o->b + o->n, p, n);
    }
    o->n += n;
}

static void put_u8(struct bytes *o, unsigned v)
{
    uint8_t b = v;

    put(o, &b, 1);
}

static void put_u16(struct bytes *o, unsigned v)
{
    put_u8(o, v & 0xff);
    put_u8(o, v >> 8);
}

static void put_u32(struct bytes *o, uint32_t v)
{
    put_u16(o, v & 0xffff);
    put_u16(o, v >> 16);
}

static void put_u64(struct bytes *o, uint64_t v)
{
    put_u32(o, (uint32_t)v);
    put_u32(o, v >> 32);
}

static void put_uleb(struct bytes *o, uint64_t v)
{
    do {
        put_u8(o, (v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
}

static void put_sleb(struct bytes *o, int64_t v)
{
    bool more;

    do {
        uint8_t b = v & 0x7f;

        v >>= 7;
        more = !((v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40)));
        put_u8(o, b | (more ? 0x80 : 0));
    } while (more);
}

static void put_str(struct bytes *o, const char *s)
{
    put(o, s, strlen(s) + 1);
}

/* Extended opcode @sub with @n operand bytes. */
static void put_ext(struct bytes *o, unsigned sub, const void *operands,
                    size_t n)
{
    put_u8(o, 0);
    put_uleb(o, n + 1);
    put_u8(o, sub);
    put(o, operands, n);
}

static void set_address(struct bytes *o, uint32_t address)
{
    uint8_t a[4];

    simt_put_le32(a, address);
    put_ext(o, 2, a, 4);
}

static void end_sequence(struct bytes *o)
{
    put_ext(o, 1, NULL, 0);
}

/* The header fields of a hand-made unit after header_length. */
struct unit_shape {
    unsigned version;
    bool dwarf64;
    unsigned min_inst_length;
    unsigned max_ops;
    int line_base;
    unsigned line_range;
    unsigned opcode_base;
    const uint8_t *std_lengths;     /* opcode_base - 1 of them */
};

static const uint8_t std_lengths_v4[12] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0,
                                            0, 1 };

/* A unit of @shape with file tables @tables and program @prog. */
static void put_unit(struct bytes *o, const struct unit_shape *shape,
                     const struct bytes *tables, const struct bytes *prog)
{
    struct bytes body = { .n = 0 }, hdr = { .n = 0 };

    put_u8(&hdr, shape->min_inst_length);
    if (shape->version >= 4) {
        put_u8(&hdr, shape->max_ops);
    }
    put_u8(&hdr, 1);
    put_u8(&hdr, (uint8_t)shape->line_base);
    put_u8(&hdr, shape->line_range);
    put_u8(&hdr, shape->opcode_base);
    put(&hdr, shape->std_lengths, shape->opcode_base - 1);
    put(&hdr, tables->b, tables->n);

    put_u16(&body, shape->version);
    if (shape->version >= 5) {
        put_u8(&body, 4);
        put_u8(&body, 0);
    }
    if (shape->dwarf64) {
        put_u64(&body, hdr.n);
    } else {
        put_u32(&body, hdr.n);
    }
    put(&body, hdr.b, hdr.n);
    put(&body, prog->b, prog->n);
    if (shape->dwarf64) {
        put_u32(o, 0xffffffffu);
        put_u64(o, body.n);
    } else {
        put_u32(o, body.n);
    }
    put(o, body.b, body.n);
}

/* DWARF 4 tables: directories, then files as (name, directory). */
static void tables_v4(struct bytes *t, const char *const *dirs,
                      const char *const *files, const unsigned *file_dirs)
{
    for (; *dirs; dirs++) {
        put_str(t, *dirs);
    }
    put_u8(t, 0);
    for (; *files; files++, file_dirs++) {
        put_str(t, *files);
        put_uleb(t, *file_dirs);
        put_uleb(t, 0);
        put_uleb(t, 0);
    }
    put_u8(t, 0);
}

/* What simt_lines_find should say at @pc: @file NULL for nothing. */
struct want {
    uint32_t pc;
    const char *file;
    unsigned line;
};

static bool lines_match(const struct simt_lines *lines,
                        const struct want *want, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        const char *file = NULL;
        unsigned line = 0;
        bool found = simt_lines_find(lines, want[i].pc, &file, &line);

        if (found != (want[i].file != NULL) ||
            (found && (strcmp(file, want[i].file) != 0 ||
                       line != want[i].line))) {
            tap_diag("pc 0x%x: want %s:%u, got %s:%u", want[i].pc,
                     want[i].file ? want[i].file : "nothing", want[i].line,
                     found ? file : "nothing", line);
            return false;
        }
    }
    return true;
}

static int read_units(const struct bytes *section, const struct bytes *line_str,
                      struct simt_lines *lines, char *err, size_t errlen)
{
    struct fake_section secs[2] = {
        { ".debug_line_str", line_str ? line_str->b : NULL,
          line_str ? line_str->n : 0 },
        { ".debug_line", section->b, section->n },
    };
    struct simt_elf elf;
    int ret;

    if (line_str) {
        fake_elf(&elf, secs, 2);
    } else {
        fake_elf(&elf, secs + 1, 1);
    }
    ret = simt_lines_read(lines, &elf, err, errlen);
    simt_elf_free(&elf);
    return ret;
}

/*
 * The hand-made @unit in @sec (with @line_str as .debug_line_str) reads,
 * and simt_lines_find gives @want at each of its pcs, which shows
 * @features.
 */
static void check_unit_lines(const char *unit, const struct bytes *sec,
                             const struct bytes *line_str,
                             const struct want *want, unsigned nwant,
                             const char *features)
{
    struct simt_lines lines;
    char err[256] = "";

    if (tap_check(read_units(sec, line_str, &lines, err, sizeof(err)) == 0,
                  "hand-made %s read %s", unit, err)) {
        tap_check(lines_match(&lines, want, nwant), "%s", features);
        simt_lines_free(&lines);
    }
}

/*
 * DWARF 4, opcode_base 10 (DWARF 2's, so opcodes 10 to 12 are special),
 * instructions of 4 bytes: every standard opcode that moves the address
 * or the line, an unknown extended opcode, line 0, two sequences and
 * files in directory 0 and 1.
 */
static void check_v4_program(void)
{
    static const char *const dirs[] = { "/src/k", NULL };
    static const char *const files[] = { "a.c", "b.h", "/abs/c.c", NULL };
    static const unsigned file_dirs[] = { 0, 1, 1 };
    const struct unit_shape shape = {
        .version = 4, .min_inst_length = 4, .max_ops = 1, .line_base = -3,
        .line_range = 12, .opcode_base = 10, .std_lengths = std_lengths_v4,
    };
    static const struct want want[] = {
        { 0x0fffc, NULL, 0 }, { 0x10000, "a.c", 1 },
        { 0x10004, "a.c", 1 }, { 0x10008, "a.c", 3 },
        { 0x10010, "a.c", 3 }, { 0x10014, "/src/k/b.h", 43 },
        { 0x10060, "/src/k/b.h", 43 }, { 0x10064, NULL, 0 },
        { 0x1007c, NULL, 0 }, { 0x10080, "/abs/c.c", 6 },
        { 0x10084, "/abs/c.c", 6 }, { 0x10088, NULL, 0 },
        { 0x1fffc, NULL, 0 }, { 0x20000, "a.c", 100 },
        { 0x20003, "a.c", 100 }, { 0x20004, NULL, 0 },
    };
    struct bytes tables = { .n = 0 }, prog = { .n = 0 }, sec = { .n = 0 };
    const uint8_t discriminator[1] = { 3 };

    tables_v4(&tables, dirs, files, file_dirs);
    set_address(&prog, 0x10000);
    put_u8(&prog, 1);                       /* copy: a.c:1 at 0x10000 */
    /* special: adj = 10 + 2*12 + 5 -> address + 2 insns, line + 2 */
    put_u8(&prog, 10 + 2 * 12 + 5);         /* a.c:3 at 0x10008 */
    put_u8(&prog, 3);
    put_sleb(&prog, 40);                    /* line 43 */
    put_u8(&prog, 2);
    put_uleb(&prog, 3);                     /* advance 3 insns */
    put_u8(&prog, 4);
    put_uleb(&prog, 2);                     /* file b.h */
    put_u8(&prog, 1);                       /* b.h:43 at 0x10014 */
    put_u8(&prog, 8);                       /* const_add_pc: 245/12 = 20 */
    put_u8(&prog, 3);
    put_sleb(&prog, -43);                   /* line 0 */
    put_u8(&prog, 1);                       /* line 0 at 0x10064 */
    put_u8(&prog, 9);
    put_u16(&prog, 0x1c);                   /* fixed_advance_pc: bytes */
    put_u8(&prog, 4);
    put_uleb(&prog, 3);
    put_u8(&prog, 3);
    put_sleb(&prog, 7);
    put_ext(&prog, 0x80, "vendor", 6);      /* skipped */
    put_ext(&prog, 4, discriminator, 1);    /* set_discriminator */
    put_u8(&prog, 1);                       /* /abs/c.c:7 at 0x10080 */
    put_u8(&prog, 5);
    put_uleb(&prog, 9);                     /* set_column */
    put_u8(&prog, 12);                      /* special: +0 insns, line - 1 */
    put_u8(&prog, 2);
    put_uleb(&prog, 2);
    end_sequence(&prog);                    /* ends at 0x10088 */
    set_address(&prog, 0x20000);
    put_u8(&prog, 3);
    put_sleb(&prog, 99);
    put_u8(&prog, 1);                       /* a.c:100 at 0x20000 */
    put_u8(&prog, 2);
    put_uleb(&prog, 1);
    end_sequence(&prog);                    /* ends at 0x20004 */
    put_unit(&sec, &shape, &tables, &prog);
    check_unit_lines("DWARF 4 unit", &sec, NULL, want,
                     sizeof(want) / sizeof(want[0]),
                     "DWARF 4: copy, special opcodes with opcode_base 10, "
                     "advance_pc, advance_line, set_file, const_add_pc, "
                     "fixed_advance_pc, line 0, skipped extended opcodes, two "
                     "sequences, directories 0 and 1");
}

/*
 * DWARF 5 in the 64-bit format: strings in .debug_line_str, an MD5 and a
 * vendor block per file, file 0, a relative directory under the
 * compilation directory, an unknown standard opcode with two operands,
 * and VLIW op_index arithmetic (2 operations per instruction).
 */
static void check_v5_program(void)
{
    static const uint8_t std_lengths[13] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0,
                                             0, 1, 2 };
    const struct unit_shape shape = {
        .version = 5, .dwarf64 = true, .min_inst_length = 4, .max_ops = 2,
        .line_base = -5, .line_range = 14, .opcode_base = 14,
        .std_lengths = std_lengths,
    };
    static const struct want want[] = {
        { 0x30000, "/build/k.c", 1 }, { 0x30004, "/build/include/v.h", 5 },
        { 0x3000c, "/build/include/v.h", 5 }, { 0x30010, NULL, 0 },
    };
    struct bytes strs = { .n = 0 }, tables = { .n = 0 }, prog = { .n = 0 };
    struct bytes sec = { .n = 0 };
    uint8_t md5[16] = { 0 };

    put_str(&strs, "/build");               /* 0 */
    put_str(&strs, "include");              /* 7 */
    /* directories: path as line_strp */
    put_u8(&tables, 1);
    put_uleb(&tables, 1);
    put_uleb(&tables, 0x1f);
    put_uleb(&tables, 2);
    put_u64(&tables, 0);
    put_u64(&tables, 7);
    /* files: path (line_strp or string), directory (udata), MD5, vendor */
    put_u8(&tables, 4);
    put_uleb(&tables, 1);
    put_uleb(&tables, 0x08);
    put_uleb(&tables, 2);
    put_uleb(&tables, 0x0f);
    put_uleb(&tables, 5);
    put_uleb(&tables, 0x1e);
    put_uleb(&tables, 0x2001);
    put_uleb(&tables, 0x09);
    put_uleb(&tables, 2);
    put_str(&tables, "k.c");
    put_uleb(&tables, 0);
    put(&tables, md5, 16);
    put_uleb(&tables, 3);
    put(&tables, "src", 3);
    put_str(&tables, "v.h");
    put_uleb(&tables, 1);
    put(&tables, md5, 16);
    put_uleb(&tables, 0);

    set_address(&prog, 0x30000);
    put_u8(&prog, 4);
    put_uleb(&prog, 0);                     /* file 0: k.c */
    put_u8(&prog, 1);                       /* /build/k.c:1 at 0x30000 */
    put_u8(&prog, 13);
    put_uleb(&prog, 300);
    put_uleb(&prog, 1);                     /* unknown opcode 13, skipped */
    put_u8(&prog, 2);
    put_uleb(&prog, 3);                     /* op 3: 1 insn, op_index 1 */
    put_u8(&prog, 4);
    put_uleb(&prog, 1);
    put_u8(&prog, 3);
    put_sleb(&prog, 4);
    put_u8(&prog, 1);                       /* v.h:5 at 0x30004 */
    put_u8(&prog, 2);
    put_uleb(&prog, 1);                     /* op_index 2: next insn */
    put_u8(&prog, 1);                       /* v.h:5 at 0x30008 */
    put_u8(&prog, 2);
    put_uleb(&prog, 4);                     /* 2 insns */
    end_sequence(&prog);                    /* ends at 0x30010 */
    put_unit(&sec, &shape, &tables, &prog);
    check_unit_lines("64-bit DWARF 5 unit", &sec, &strs, want,
                     sizeof(want) / sizeof(want[0]),
                     "DWARF 5: line_strp and string paths, file 0, a relative "
                     "directory joined to the compilation directory, MD5 and "
                     "vendor fields skipped, an unknown standard opcode "
                     "skipped, op_index with 2 operations per instruction");
}

/* A damaged unit: what it is, its bytes, the phrase the error must hold. */
static void check_refused(const char *what, const struct bytes *sec,
                          const struct bytes *line_str, const char *phrase)
{
    struct simt_lines lines;
    char err[256] = "";
    int ret = read_units(sec, line_str, &lines, err, sizeof(err));

    tap_check(ret == -1 && strncmp(err, FAKE_PATH ": ", 10) == 0 &&
              strstr(err, phrase) && lines.nranges == 0,
              "damaged unit, %s: refused naming the file (%s)", what, err);
    simt_lines_free(&lines);
}

/* A small valid DWARF 4 unit's program, for the damaged units to vary. */
static void good_program(struct bytes *prog)
{
    set_address(prog, 0x10000);
    put_u8(prog, 1);
    put_u8(prog, 2);
    put_uleb(prog, 4);
    end_sequence(prog);
}

/* The DWARF numbers the damaged units' bytes below are spelled with. */
enum {
    DW_LNS_copy = 1, DW_LNS_advance_pc, DW_LNS_advance_line, DW_LNS_set_file,
    DW_LNS_fixed_advance_pc = 9,
    DW_LNE_end_sequence = 1, DW_LNE_set_address,
    DW_LNCT_path = 1, DW_LNCT_directory_index,
    DW_FORM_string = 0x08, DW_FORM_data1 = 0x0b, DW_FORM_line_strp = 0x1f,
};

/* A damaged part of a unit: what it is, its bytes, what its error says. */
struct damage {
    const char *what;
    const uint8_t *bytes;
    size_t n;
    const char *phrase;
    const char *line_str;   /* the one string of .debug_line_str, or none */
};

#define BYTES(...)      .bytes = (const uint8_t[]){ __VA_ARGS__ }, \
                        .n = sizeof((const uint8_t[]){ __VA_ARGS__ })
#define LE32(v)         (v) & 0xff, ((v) >> 8) & 0xff, ((v) >> 16) & 0xff, \
                        ((v) >> 24) & 0xff
/* A ULEB128 of two bytes, for 0x80 <= v < 0x4000. */
#define ULEB2(v)        0x80 | ((v) & 0x7f), (v) >> 7
/* Extended opcodes: 0, their length, then the sub-opcode and operands. */
#define SET_ADDRESS(a)  0, 5, DW_LNE_set_address, LE32(a)
#define END_SEQUENCE    0, 1, DW_LNE_end_sequence

/* Programs of the damaged DWARF 4 unit that break the state machine. */
static const struct damage damaged_programs[] = {
    { .what = "an extended opcode longer than the rest of the unit",
      BYTES(SET_ADDRESS(0x10000), 0, 9 /* length */, DW_LNE_set_address),
      .phrase = "runs past the end of the unit" },
    { .what = "a LEB128 operand cut by the unit's end",
      BYTES(SET_ADDRESS(0x10000), DW_LNS_advance_pc, 0x80 /* more: */),
      .phrase = "runs past the end of the unit" },
    { .what = "a fixed_advance_pc operand cut by the unit's end",
      BYTES(SET_ADDRESS(0x10000), DW_LNS_fixed_advance_pc, 0x10),
      .phrase = "opcode 0x09" },
    { .what = "a sequence without DW_LNE_end_sequence",
      BYTES(SET_ADDRESS(0x10000), DW_LNS_copy),
      .phrase = "not ended" },
    { .what = "a row in file 7 of 1",
      BYTES(SET_ADDRESS(0x10000), DW_LNS_set_file, 7, DW_LNS_copy,
            END_SEQUENCE),
      .phrase = "file 7 of 1" },
    { .what = "an address going backwards",
      BYTES(SET_ADDRESS(0x10010), DW_LNS_copy, SET_ADDRESS(0x10000),
            DW_LNS_copy, END_SEQUENCE),
      .phrase = "goes back" },
    { .what = "an address advanced past 32 bits",
      BYTES(SET_ADDRESS(0xfffffff0u), DW_LNS_advance_pc, 0x20, END_SEQUENCE),
      .phrase = "beyond 32 bits" },
    { .what = "a line below 1",
      BYTES(SET_ADDRESS(0x10000), DW_LNS_advance_line, 0x7e /* -2 */,
            DW_LNS_copy, END_SEQUENCE),
      .phrase = "out of range" },
};

/*
 * File tables of the damaged DWARF 5 unit. Each is a count of directory
 * entry formats, those (content type, form) pairs, a count of directories
 * and their fields; then the same for files.
 */
static const struct damage damaged_tables[] = {
    { .what = "a directory path of form 0x99",
      BYTES(1, DW_LNCT_path, ULEB2(0x99), 0, 0, 0),
      .phrase = "form 0x99" },
    { .what = "a vendor field of unknown form 0x99",
      BYTES(1, ULEB2(0x2001) /* DW_LNCT_lo_user + 1 */, ULEB2(0x99), 0, 0, 0),
      .phrase = "unknown form 0x99" },
    { .what = "a directory path in a constant form",
      BYTES(1, DW_LNCT_path, DW_FORM_data1, 1, 0, 0, 0),
      .phrase = "not a string" },
    { .what = "2^40 directories",
      BYTES(1, DW_LNCT_path, DW_FORM_string,
            0x80, 0x80, 0x80, 0x80, 0x80, 0x20 /* 2^40 as ULEB128 */),
      .phrase = "run past the header" },
    { .what = "a line_strp past .debug_line_str",
      BYTES(1, DW_LNCT_path, DW_FORM_line_strp, 1, LE32(0x1000), 0, 0),
      .phrase = "outside .debug_line_str", .line_str = "/build" },
    { .what = "a line_strp without .debug_line_str",
      BYTES(1, DW_LNCT_path, DW_FORM_line_strp, 1, LE32(0x1000), 0, 0),
      .phrase = "does not have" },
    { .what = "a file in directory 5 of 1",
      BYTES(1, DW_LNCT_path, DW_FORM_string, 1, '/', 'b', 'u', 'i', 'l', 'd', 0,
            2, DW_LNCT_path, DW_FORM_string,
            DW_LNCT_directory_index, DW_FORM_data1, 1, 'k', '.', 'c', 0, 5),
      .phrase = "directory 5 of 1" },
};

/*
 * The unit of @shape with @d's bytes as its file tables (@tables NULL) or
 * its program (@prog NULL) is refused with @d's phrase.
 */
static void check_damage(const struct damage *d,
                         const struct unit_shape *shape,
                         const struct bytes *tables, const struct bytes *prog)
{
    struct bytes part = { .n = 0 }, sec = { .n = 0 }, strs = { .n = 0 };

    put(&part, d->bytes, d->n);
    if (d->line_str) {
        put_str(&strs, d->line_str);
    }
    put_unit(&sec, shape, tables ? tables : &part, prog ? prog : &part);
    check_refused(d->what, &sec, d->line_str ? &strs : NULL, d->phrase);
}

static void check_damaged(void)
{
    static const char *const dirs[] = { NULL };
    static const char *const files[] = { "a.c", NULL };
    static const unsigned file_dirs[] = { 0 };
    struct unit_shape shape = {
        .version = 4, .min_inst_length = 1, .max_ops = 1, .line_base = -5,
        .line_range = 14, .opcode_base = 13, .std_lengths = std_lengths_v4,
    };
    struct bytes tables = { .n = 0 }, prog = { .n = 0 }, sec = { .n = 0 };
    struct simt_lines lines;
    char err[256];
    unsigned i;

    tables_v4(&tables, dirs, files, file_dirs);
    good_program(&prog);
    put_unit(&sec, &shape, &tables, &prog);
    tap_check(read_units(&sec, NULL, &lines, err, sizeof(err)) == 0 &&
              lines.nranges == 1, "the damaged units' base unit reads");
    simt_lines_free(&lines);

    sec.n = 2;
    check_refused("a unit length of 2 bytes", &sec, NULL, "unit length");

    sec.n = 0;
    put_u32(&sec, 0xfffffff0u);
    check_refused("a reserved unit length", &sec, NULL, "reserved");

    sec.n = 0;
    put_u32(&sec, 100);
    put_u16(&sec, 4);
    check_refused("a unit length past the section", &sec, NULL,
                  "unit length 100");

    sec.n = 0;
    put_unit(&sec, &shape, &tables, &prog);
    simt_put_le32(sec.b + 6, 0x1000);
    check_refused("a header_length past the unit", &sec, NULL,
                  "header length 4096");

    sec.n = 0;
    put_unit(&sec, &shape, &tables, &prog);
    simt_put_le16(sec.b + 4, 6);
    check_refused("DWARF version 6", &sec, NULL, "version 6");

    sec.n = 0;
    shape.line_range = 0;
    put_unit(&sec, &shape, &tables, &prog);
    shape.line_range = 14;
    check_refused("line_range 0", &sec, NULL, "line_range 0");

    for (i = 0; i < sizeof(damaged_programs) / sizeof(damaged_programs[0]);
         i++) {
        check_damage(&damaged_programs[i], &shape, &tables, NULL);
    }
    shape.version = 5;
    for (i = 0; i < sizeof(damaged_tables) / sizeof(damaged_tables[0]); i++) {
        check_damage(&damaged_tables[i], &shape, NULL, &prog);
    }
}

/* ---- inlined calls: damaged real sections ---- */

/*
 * Read the debug sections of @img as a fake image, with section @name
 * replaced by @size bytes at @bytes.
 */
static int read_replaced(const struct simt_image *img, const char *name,
                         const uint8_t *bytes, size_t size,
                         struct simt_lines *lines, char *err, size_t errlen)
{
    struct fake_section secs[32];
    struct simt_elf elf;
    unsigned n = 0, i;
    int ret;

    for (i = 0; i < img->elf.nsections && n < 32; i++) {
        const struct simt_elf_section *s = &img->elf.sections[i];

        if (strncmp(s->name, ".debug_", 7) != 0) {
            continue;
        }
        secs[n++] = strcmp(s->name, name) == 0 ?
                    (struct fake_section) { s->name, bytes, size } :
                    (struct fake_section) { s->name,
                                            img->elf.data + s->offset,
                                            s->size };
    }
    fake_elf(&elf, secs, n);
    ret = simt_lines_read(lines, &elf, err, errlen);
    simt_elf_free(&elf);
    return ret;
}

/*
 * Every prefix of the image's section @name is an error naming the file,
 * but for those ending at a unit boundary when @units (32-bit unit
 * lengths) and for the whole section.
 */
static void check_info_prefixes(const struct simt_image *img,
                                const char *image, const char *name,
                                bool units)
{
    const struct simt_elf_section *sec =
        simt_elf_section_by_name(&img->elf, name);
    const uint8_t *bytes;
    struct simt_lines lines;
    char err[512] = "";
    size_t n, next_unit = 0;
    unsigned wrong = 0, boundaries = 0;

    if (!tap_check(sec != NULL, "%s: has a %s", image, name)) {
        return;
    }
    bytes = img->elf.data + sec->offset;
    for (n = 0; n <= sec->size; n++) {
        bool boundary = n == sec->size || (units && n == next_unit);
        int ret = read_replaced(img, name, bytes, n, &lines, err,
                                sizeof(err));

        if (units && n == next_unit && n + 4 <= sec->size) {
            next_unit = n + 4 + simt_le32(bytes + n);
        }
        boundaries += boundary;
        if (boundary ? ret != 0 :
            ret != -1 || strncmp(err, FAKE_PATH ": ", 10) != 0) {
            if (wrong++ < 5) {
                tap_diag("%s prefix of %zu bytes: %d %s", name, n, ret,
                         ret ? err : "");
            }
        }
        simt_lines_free(&lines);
    }
    tap_check(wrong == 0, "%s: each of the %u prefixes of %s is an error "
              "naming the file, but for the %u ending at a unit boundary or "
              "the section's end (%u wrong)", image, sec->size + 1, name,
              boundaries, wrong);
}

/*
 * A copy of the image's section @name with @edit applied at @at reads
 * as an error naming the file that says @phrase.
 */
static void check_info_edit(const struct simt_image *img, const char *image,
                            const char *name, size_t at, uint8_t value,
                            const char *what, const char *phrase)
{
    const struct simt_elf_section *sec =
        simt_elf_section_by_name(&img->elf, name);
    struct simt_lines lines;
    char err[512] = "";
    uint8_t *copy;
    int ret = 0;

    if (sec && at < sec->size && (copy = malloc(sec->size))) {
        memcpy(copy, img->elf.data + sec->offset, sec->size);
        copy[at] = value;
        ret = read_replaced(img, name, copy, sec->size, &lines, err,
                            sizeof(err));
        simt_lines_free(&lines);
        free(copy);
    }
    tap_check(ret == -1 && strncmp(err, FAKE_PATH ": ", 10) == 0 &&
              strstr(err, phrase),
              "%s: %s is refused naming the file (%s)", image, what, err);
}

/*
 * Damaged .debug_info and .debug_abbrev of a real image: every prefix,
 * every shorter length of the first unit (its DIE tree then runs past
 * the unit), an undefined abbreviation code, an unknown form.
 */
static void check_info_damage(const char *path)
{
    const char *name = basename_of(path);
    struct section_copy s;
    struct simt_lines lines;
    char err[512] = "";
    size_t n, length, header;
    unsigned wrong = 0;

    if (!load_section(&s, path, ".debug_info", 12)) {
        return;
    }
    check_info_prefixes(&s.img, name, ".debug_info", true);
    check_info_prefixes(&s.img, name, ".debug_abbrev", false);

    length = simt_le32(s.copy);
    header = simt_le16(s.copy + 4) >= 5 ? 8 : 7;
    /* A unit of just its header has no DIE tree to cut. */
    for (n = header + 1; n < length; n++) {
        int ret;

        simt_put_le32(s.copy, n);
        ret = read_replaced(&s.img, ".debug_info", s.copy, n + 4, &lines,
                            err, sizeof(err));
        if (ret != -1 || strncmp(err, FAKE_PATH ": ", 10) != 0) {
            if (wrong++ < 5) {
                tap_diag("unit length %zu: %d %s", n, ret, ret ? err : "");
            }
        }
        simt_lines_free(&lines);
    }
    tap_check(wrong == 0, "%s: the first .debug_info unit with each shorter "
              "length is an error naming the file (%u wrong)", name, wrong);

    /* The unit's DIE is at the end of the header: code 0x7f. */
    check_info_edit(&s.img, name, ".debug_info", header + 4, 0x7f,
                    "the first DIE with an undefined abbreviation code",
                    "is not defined");
    /* The first abbreviation: code, tag, children, then name and form. */
    check_info_edit(&s.img, name, ".debug_abbrev", 4, 0x7e,
                    "the first attribute in form 0x7e", "unknown form 0x7e");
    free_section(&s);
}

/* ---- inlined calls: hand-made sections ---- */

#define DW_TAG_compile_unit         0x11
#define DW_TAG_subprogram           0x2e
#define DW_TAG_inlined_subroutine   0x1d

/* One hand-made image's debug sections. */
struct debug_set {
    struct bytes line, info, abbrev, addr, rnglists, ranges;
};

/* An abbreviation: code, tag, children, then (attribute, form) pairs. */
static void put_abbrev(struct bytes *o, unsigned code, unsigned tag,
                       bool children, const unsigned *specs, unsigned n)
{
    unsigned i;

    put_uleb(o, code);
    put_uleb(o, tag);
    put_u8(o, children);
    for (i = 0; i < n; i++) {
        put_uleb(o, specs[i]);
    }
    put_u8(o, 0);
    put_u8(o, 0);
}

/* A DWARF 4 line unit of files /src/k.c (1) and /src/h.h (2). */
static void put_line_unit(struct bytes *o)
{
    static const char *const dirs[] = { "/src", NULL };
    static const char *const files[] = { "k.c", "h.h", NULL };
    static const unsigned file_dirs[] = { 1, 1 };
    const struct unit_shape shape = {
        .version = 4, .min_inst_length = 1, .max_ops = 1, .line_base = -5,
        .line_range = 14, .opcode_base = 13, .std_lengths = std_lengths_v4,
    };
    struct bytes tables = { .n = 0 }, prog = { .n = 0 };

    tables_v4(&tables, dirs, files, file_dirs);
    set_address(&prog, 0x1000);
    end_sequence(&prog);
    put_unit(o, &shape, &tables, &prog);
}

/* A .debug_info unit of @version around the DIEs @dies. */
static void put_info_unit(struct bytes *o, unsigned version,
                          const struct bytes *dies)
{
    put_u32(o, dies->n + (version >= 5 ? 8 : 7));
    put_u16(o, version);
    if (version >= 5) {
        put_u8(o, 1);           /* DW_UT_compile */
        put_u8(o, 4);
        put_u32(o, 0);          /* abbreviations at 0 */
    } else {
        put_u32(o, 0);
        put_u8(o, 4);
    }
    put(o, dies->b, dies->n);
}

/*
 * DWARF 5: the unit names its line table, addresses and range lists by
 * base; inlined calls with a range list by index (whose nested call is
 * not the outermost), by offset, and with low_pc/high_pc in other forms.
 */
static void make_v5(struct debug_set *d)
{
    static const unsigned cu[] = {
        0x10, 0x17, 0x11, 0x01, 0x73, 0x17, 0x74, 0x17,
    };
    static const unsigned sub[] = {
        0x03, 0x08, 0x11, 0x1b, 0x12, 0x06, 0x40, 0x18,
    };
    static const unsigned by_index[] = {
        0x55, 0x23, 0x58, 0x0b, 0x59, 0x0f, 0x57, 0x21, 7,
    };
    static const unsigned by_addr[] = {
        0x11, 0x01, 0x12, 0x01, 0x58, 0x0b, 0x59, 0x05, 0x3f, 0x19,
        0x1c, 0x1e, 0x02, 0x0a,
    };
    static const unsigned by_addrx[] = {
        0x11, 0x29, 0x12, 0x0f, 0x58, 0x0b, 0x59, 0x0f, 0x3a, 0x16,
    };
    static const unsigned by_offset[] = {
        0x55, 0x17, 0x58, 0x0b, 0x59, 0x0f,
    };
    struct bytes dies = { .n = 0 };
    uint8_t zero16[16] = { 0 };
    size_t list1;

    memset(d, 0, sizeof(*d));
    put_line_unit(&d->line);
    put_abbrev(&d->abbrev, 1, DW_TAG_compile_unit, true, cu, 8);
    put_abbrev(&d->abbrev, 2, DW_TAG_subprogram, true, sub, 8);
    put_abbrev(&d->abbrev, 3, DW_TAG_inlined_subroutine, true, by_index, 9);
    put_abbrev(&d->abbrev, 4, DW_TAG_inlined_subroutine, false, by_addr, 14);
    put_abbrev(&d->abbrev, 5, DW_TAG_inlined_subroutine, false, by_addrx,
               10);
    put_abbrev(&d->abbrev, 6, DW_TAG_inlined_subroutine, false, by_offset, 6);
    put_u8(&d->abbrev, 0);

    /* .debug_addr: a header, then 0x1000, 0x1080, 0x1088, 0x10a0 */
    put_u32(&d->addr, 4 + 16);
    put_u16(&d->addr, 5);
    put_u8(&d->addr, 4);
    put_u8(&d->addr, 0);
    put_u32(&d->addr, 0x1000);
    put_u32(&d->addr, 0x1080);
    put_u32(&d->addr, 0x1088);
    put_u32(&d->addr, 0x10a0);

    /* .debug_rnglists: a header, one offset, list 0, then list 1. */
    put_u32(&d->rnglists, 0);           /* length, set below */
    put_u16(&d->rnglists, 5);
    put_u8(&d->rnglists, 4);
    put_u8(&d->rnglists, 0);
    put_u32(&d->rnglists, 1);           /* offset_entry_count */
    put_u32(&d->rnglists, 4);           /* list 0, from the base at 12 */
    put_u8(&d->rnglists, 4);            /* offset_pair [0x10, 0x20) */
    put_uleb(&d->rnglists, 0x10);
    put_uleb(&d->rnglists, 0x20);
    put_u8(&d->rnglists, 7);            /* start_length 0x1040, 8 */
    put_u32(&d->rnglists, 0x1040);
    put_uleb(&d->rnglists, 8);
    put_u8(&d->rnglists, 2);            /* startx_endx 1, 2 */
    put_uleb(&d->rnglists, 1);
    put_uleb(&d->rnglists, 2);
    put_u8(&d->rnglists, 0);
    list1 = d->rnglists.n;
    put_u8(&d->rnglists, 5);            /* base_address 0x10c0 */
    put_u32(&d->rnglists, 0x10c0);
    put_u8(&d->rnglists, 4);            /* offset_pair [0, 4) */
    put_uleb(&d->rnglists, 0);
    put_uleb(&d->rnglists, 4);
    put_u8(&d->rnglists, 6);            /* start_end [0x10d0, 0x10d2) */
    put_u32(&d->rnglists, 0x10d0);
    put_u32(&d->rnglists, 0x10d2);
    put_u8(&d->rnglists, 0);
    simt_put_le32(d->rnglists.b, d->rnglists.n - 4);

    put_uleb(&dies, 1);                 /* the unit */
    put_u32(&dies, 0);
    put_u32(&dies, 0x1000);
    put_u32(&dies, 8);
    put_u32(&dies, 12);
    put_uleb(&dies, 2);                 /* f: 0x1000 + 0x100 */
    put_str(&dies, "f");
    put_uleb(&dies, 0);
    put_u32(&dies, 0x100);
    put_uleb(&dies, 1);
    put_u8(&dies, 0x9c);
    put_uleb(&dies, 3);                 /* by list 0, k.c:10 */
    put_uleb(&dies, 0);
    put_u8(&dies, 1);
    put_uleb(&dies, 10);
    put_uleb(&dies, 4);                 /* nested: [0x1012, 0x1014) */
    put_u32(&dies, 0x1012);
    put_u32(&dies, 0x1014);
    put_u8(&dies, 2);
    put_u16(&dies, 99);
    put(&dies, zero16, 16);
    put_u8(&dies, 2);
    put_u16(&dies, 0);
    put_u8(&dies, 0);                   /* end of list 0's children */
    put_uleb(&dies, 5);                 /* [0x10a0, +4), h.h:20 */
    put_u8(&dies, 3);
    put_uleb(&dies, 4);
    put_u8(&dies, 2);
    put_uleb(&dies, 20);
    put_uleb(&dies, 0x05);              /* decl_file: indirect data2 */
    put_u16(&dies, 1);
    put_uleb(&dies, 6);                 /* by offset: list 1, k.c:30 */
    put_u32(&dies, list1);
    put_u8(&dies, 1);
    put_uleb(&dies, 30);
    put_u8(&dies, 0);                   /* end of f's children */
    put_u8(&dies, 0);                   /* end of the unit's */
    put_info_unit(&d->info, 5, &dies);
}

/* DWARF 4: a range list in .debug_ranges, low_pc with an offset high_pc. */
static void make_v4(struct debug_set *d)
{
    static const unsigned cu[] = { 0x10, 0x06, 0x11, 0x01 };
    static const unsigned by_ranges[] = { 0x55, 0x17, 0x58, 0x0b, 0x59, 0x0b };
    static const unsigned by_pc[] = {
        0x11, 0x01, 0x12, 0x06, 0x58, 0x0b, 0x59, 0x0b,
    };
    struct bytes dies = { .n = 0 };

    memset(d, 0, sizeof(*d));
    put_line_unit(&d->line);
    put_abbrev(&d->abbrev, 1, DW_TAG_compile_unit, true, cu, 4);
    put_abbrev(&d->abbrev, 2, DW_TAG_inlined_subroutine, false, by_ranges,
               6);
    put_abbrev(&d->abbrev, 3, DW_TAG_inlined_subroutine, false, by_pc, 8);
    put_u8(&d->abbrev, 0);

    put_u32(&d->ranges, 0x10);          /* [0x1010, 0x1020) */
    put_u32(&d->ranges, 0x20);
    put_u32(&d->ranges, UINT32_MAX);    /* base 0x2000 */
    put_u32(&d->ranges, 0x2000);
    put_u32(&d->ranges, 0);             /* [0x2000, 0x2004) */
    put_u32(&d->ranges, 4);
    put_u32(&d->ranges, 0);
    put_u32(&d->ranges, 0);

    put_uleb(&dies, 1);
    put_u32(&dies, 0);
    put_u32(&dies, 0x1000);
    put_uleb(&dies, 2);                 /* by ranges: k.c:10 */
    put_u32(&dies, 0);
    put_u8(&dies, 1);
    put_u8(&dies, 10);
    put_uleb(&dies, 3);                 /* [0x1100, +8): h.h:40 */
    put_u32(&dies, 0x1100);
    put_u32(&dies, 8);
    put_u8(&dies, 2);
    put_u8(&dies, 40);
    put_u8(&dies, 0);
    put_info_unit(&d->info, 4, &dies);
}

static int read_set(const struct debug_set *d, struct simt_lines *lines,
                    char *err, size_t errlen)
{
    const struct fake_section secs[] = {
        { ".debug_line", d->line.b, d->line.n },
        { ".debug_info", d->info.b, d->info.n },
        { ".debug_abbrev", d->abbrev.b, d->abbrev.n },
        { ".debug_addr", d->addr.b, d->addr.n },
        { ".debug_rnglists", d->rnglists.b, d->rnglists.n },
        { ".debug_ranges", d->ranges.b, d->ranges.n },
    };
    struct simt_elf elf;
    int ret;

    fake_elf(&elf, secs, 6);
    ret = simt_lines_read(lines, &elf, err, errlen);
    simt_elf_free(&elf);
    return ret;
}

/* The call sites @want (file NULL: not inlined) of the set @d. */
static void check_set(const char *what, const struct debug_set *d,
                      const struct want *want, unsigned nwant)
{
    struct simt_lines lines;
    char err[256] = "";
    unsigned i, wrong = 0;
    int ret = read_set(d, &lines, err, sizeof(err));

    for (i = 0; ret == 0 && i < nwant; i++) {
        const char *file = NULL;
        unsigned line = 0;
        bool found = simt_lines_find_call(&lines, want[i].pc, &file, &line,
                                          NULL, NULL);

        if (found != (want[i].file != NULL) ||
            (found && (strcmp(file, want[i].file) || line != want[i].line))) {
            if (wrong++ < 5) {
                tap_diag("pc 0x%x: want %s:%u, got %s:%u", want[i].pc,
                         want[i].file ? want[i].file : "nothing",
                         want[i].line, found ? file : "nothing", line);
            }
        }
    }
    tap_check(ret == 0 && wrong == 0, "hand-made %s: each of %u pcs maps to "
              "its outermost call site, or to nothing (%u wrong) %s", what,
              nwant, wrong, err);
    simt_lines_free(&lines);
}

/*
 * Every nonempty prefix of @d's @sec (but the whole) is an error naming
 * the file.
 */
static void check_set_prefixes(const char *what, const struct debug_set *d,
                               struct bytes *sec, const char *name)
{
    struct debug_set cut = *d;
    struct bytes *s = (struct bytes *)((uint8_t *)&cut +
                                       ((uint8_t *)sec - (uint8_t *)d));
    struct simt_lines lines;
    char err[256] = "";
    unsigned wrong = 0;
    size_t n;

    for (n = 1; n < sec->n; n++) {
        int ret;

        s->n = n;
        ret = read_set(&cut, &lines, err, sizeof(err));
        if (ret != -1 || strncmp(err, FAKE_PATH ": ", 10) != 0) {
            if (wrong++ < 5) {
                tap_diag("%s prefix of %zu bytes: %d %s", name, n, ret,
                         ret ? err : "");
            }
        }
        simt_lines_free(&lines);
    }
    tap_check(wrong == 0, "hand-made %s: each of the %zu shorter nonempty "
              "prefixes of %s is an error naming the file (%u wrong)", what,
              sec->n - 1, name, wrong);
}

static void check_hand_made_inlined(void)
{
    static const struct want v5[] = {
        { 0x100f, NULL, 0 }, { 0x1010, "/src/k.c", 10 },
        { 0x1012, "/src/k.c", 10 }, { 0x101f, "/src/k.c", 10 },
        { 0x1020, NULL, 0 }, { 0x1040, "/src/k.c", 10 },
        { 0x1047, "/src/k.c", 10 }, { 0x1048, NULL, 0 },
        { 0x1080, "/src/k.c", 10 }, { 0x1088, NULL, 0 },
        { 0x10a0, "/src/h.h", 20 }, { 0x10a4, NULL, 0 },
        { 0x10c0, "/src/k.c", 30 }, { 0x10c4, NULL, 0 },
        { 0x10d1, "/src/k.c", 30 }, { 0x10d2, NULL, 0 },
    };
    static const struct want v4[] = {
        { 0x1010, "/src/k.c", 10 }, { 0x1020, NULL, 0 },
        { 0x2000, "/src/k.c", 10 }, { 0x2004, NULL, 0 },
        { 0x1107, "/src/h.h", 40 }, { 0x1108, NULL, 0 },
    };
    struct debug_set d;
    struct simt_lines lines;
    char err[256] = "";
    int ret;

    make_v5(&d);
    check_set("DWARF 5 (rnglistx, sec_offset, addrx, indirect)", &d, v5,
              sizeof(v5) / sizeof(v5[0]));
    check_set_prefixes("DWARF 5", &d, &d.rnglists, ".debug_rnglists");
    check_set_prefixes("DWARF 5", &d, &d.addr, ".debug_addr");
    check_set_prefixes("DWARF 5", &d, &d.info, ".debug_info");
    check_set_prefixes("DWARF 5", &d, &d.abbrev, ".debug_abbrev");

    /*
     * The last call's file (before its line and the two ends of children)
     * from 1 to 3, of a DWARF 4 line table of 2 files.
     */
    d.info.b[d.info.n - 4] = 3;
    ret = read_set(&d, &lines, err, sizeof(err));
    tap_check(ret == -1 && strstr(err, FAKE_PATH ": ") &&
              strstr(err, "call in file 3 of 2"),
              "hand-made DWARF 5: a call in file 3 of 2 is refused (%s)", err);
    simt_lines_free(&lines);

    make_v4(&d);
    check_set("DWARF 4 (.debug_ranges, offset high_pc)", &d, v4,
              sizeof(v4) / sizeof(v4[0]));
    check_set_prefixes("DWARF 4", &d, &d.ranges, ".debug_ranges");
    check_set_prefixes("DWARF 4", &d, &d.info, ".debug_info");
}

int main(int argc, char **argv)
{
    struct tag tags[8];
    unsigned ntags;

    if (argc != 7) {
        fprintf(stderr, "usage: test-lines LINES-KERNEL.c LLVM-DWARFDUMP "
                "SIMT-META NODEBUG.elf DWARF5.elf DWARF4.elf\n");
        return 2;
    }
    ntags = read_tags(argv[1], tags, 8);
    tap_check(ntags == 4, "lines-kernel.c has its 2 tagged functions and 2 "
              "tagged calls");
    check_nodebug_image(argv[4], argv[3]);
    check_debug_image(argv[5], 5, tags, ntags, argv[2], argv[3]);
    check_debug_image(argv[6], 4, tags, ntags, argv[2], argv[3]);
    check_truncations(argv[5]);
    check_truncations(argv[6]);
    check_v4_program();
    check_v5_program();
    check_damaged();
    check_info_damage(argv[5]);
    check_info_damage(argv[6]);
    check_hand_made_inlined();
    return tap_done();
}
