/* SPDX-License-Identifier: MIT */
/*
 * simt-lines: the DWARF line-number programs of a kernel image, run into
 * sorted address ranges.
 *
 * Each unit of .debug_line (one per compilation unit: the kernel's .c,
 * simt-libc.c, ...) has a header with its file table and a program of
 * opcodes that drives the state machine of the DWARF standard (section
 * 6.2); every row it appends covers the addresses up to the next row of
 * its sequence.  Fields are read byte by byte through a bounded cursor,
 * as little-endian, so nothing is read outside the section.
 */
#include "simt-lines.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf-defs.h"
#include "hw/simt/simt-le.h"

#define DW_LNS_copy                 1
#define DW_LNS_advance_pc           2
#define DW_LNS_advance_line         3
#define DW_LNS_set_file             4
#define DW_LNS_set_column           5
#define DW_LNS_negate_stmt          6
#define DW_LNS_set_basic_block      7
#define DW_LNS_const_add_pc         8
#define DW_LNS_fixed_advance_pc     9
#define DW_LNS_set_prologue_end     10
#define DW_LNS_set_epilogue_begin   11
#define DW_LNS_set_isa              12

#define DW_LNE_end_sequence         1
#define DW_LNE_set_address          2

#define DW_LNCT_path                1
#define DW_LNCT_directory_index     2

#define DW_FORM_block2              0x03
#define DW_FORM_block4              0x04
#define DW_FORM_data2               0x05
#define DW_FORM_data4               0x06
#define DW_FORM_data8               0x07
#define DW_FORM_string              0x08
#define DW_FORM_block               0x09
#define DW_FORM_block1              0x0a
#define DW_FORM_data1               0x0b
#define DW_FORM_strp                0x0e
#define DW_FORM_udata               0x0f
#define DW_FORM_data16              0x1e
#define DW_FORM_line_strp           0x1f

/*
 * Bytes [p, end) of a section.  A read past @end sets @bad and yields
 * zeros, so a run of fields is read first and checked once.
 */
struct cursor {
    const uint8_t *p;
    const uint8_t *end;
    bool bad;
};

/* One call of simt_lines_read: the sections and the unit being read. */
struct reader {
    const struct simt_elf *elf;
    const struct simt_elf_section *line_str;    /* DW_FORM_line_strp */
    const struct simt_elf_section *str;         /* DW_FORM_strp */
    struct simt_lines *lines;
    uint32_t ranges_cap;
    uint32_t files_cap;
    char *err;
    size_t errlen;

    /* the unit */
    uint32_t unit;              /* offset in .debug_line, for messages */
    unsigned version;
    unsigned offset_size;       /* 4, or 8 in the 64-bit DWARF format */
    char **dirs;                /* joined as the unit's files use them */
    uint32_t ndirs;
    uint32_t dirs_cap;
    uint32_t file_base;         /* the unit's first entry in lines->files */
};

/* The registers of the line-number state machine that rows use. */
struct line_state {
    uint64_t address;
    uint64_t op_index;
    uint64_t file;
    int64_t line;
};

/* The last row of the open sequence, which covers up to the next one. */
struct pending_row {
    bool open;
    uint32_t address;
    uint32_t file;
    uint32_t line;
};

static int bad_unit(struct reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int bad_unit(struct reader *r, const char *fmt, ...)
{
    char why[200];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    return simt_elf_error(r->err, r->errlen, "%s: .debug_line unit at 0x%x: %s",
                          r->elf->path, r->unit, why);
}

static bool take(struct cursor *c, uint64_t n, const uint8_t **at)
{
    if (c->bad || n > (uint64_t)(c->end - c->p)) {
        c->bad = true;
        return false;
    }
    *at = c->p;
    c->p += n;
    return true;
}

static uint8_t get_u8(struct cursor *c)
{
    const uint8_t *p;

    return take(c, 1, &p) ? p[0] : 0;
}

static uint16_t get_u16(struct cursor *c)
{
    const uint8_t *p;

    return take(c, 2, &p) ? simt_le16(p) : 0;
}

static uint32_t get_u32(struct cursor *c)
{
    const uint8_t *p;

    return take(c, 4, &p) ? simt_le32(p) : 0;
}

static uint64_t get_u64(struct cursor *c)
{
    const uint8_t *p;

    return take(c, 8, &p) ? simt_le64(p) : 0;
}

static void skip(struct cursor *c, uint64_t n)
{
    const uint8_t *p;

    take(c, n, &p);
}

/* An offset into a string section: 4 or 8 bytes by the unit's format. */
static uint64_t get_offset(struct cursor *c, unsigned offset_size)
{
    return offset_size == 8 ? get_u64(c) : get_u32(c);
}

/* Unsigned LEB128; more than 64 bits of value is malformed. */
static uint64_t get_uleb(struct cursor *c)
{
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b;

    do {
        b = get_u8(c);
        if (c->bad || (shift == 63 && (b & 0x7e)) || shift > 63) {
            c->bad = true;
            return 0;
        }
        v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    return v;
}

/* Signed LEB128 of at most 64 bits. */
static int64_t get_sleb(struct cursor *c)
{
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b;

    do {
        b = get_u8(c);
        if (c->bad || shift > 63) {
            c->bad = true;
            return 0;
        }
        v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    if (shift < 64 && (b & 0x40)) {
        v |= ~(uint64_t)0 << shift;
    }
    return (int64_t)v;
}

/* A NUL-terminated string in the cursor's bytes. */
static const char *get_cstr(struct cursor *c)
{
    const uint8_t *nul;
    const char *s = (const char *)c->p;

    if (c->bad || !(nul = memchr(c->p, '\0', c->end - c->p))) {
        c->bad = true;
        return NULL;
    }
    c->p = nul + 1;
    return s;
}

/*
 * A debug section the reader may use: NULL and 0 if the image has none,
 * -1 if it has one whose bytes are not plainly in the file.
 */
static int debug_section(struct reader *r, const char *name,
                         const struct simt_elf_section **sec)
{
    *sec = simt_elf_section_by_name(r->elf, name);
    if (!*sec) {
        return 0;
    }
    if ((*sec)->type != ELF_SHT_PROGBITS) {
        return simt_elf_error(r->err, r->errlen,
                              "%s: %s is not a PROGBITS section",
                              r->elf->path, name);
    }
    if ((*sec)->flags & ELF_SHF_COMPRESSED) {
        return simt_elf_error(r->err, r->errlen,
                              "%s: %s is compressed; link without "
                              "--compress-debug-sections",
                              r->elf->path, name);
    }
    return 0;
}

/* The string at @off of a string section, or NULL with the message set. */
static const char *section_str(struct reader *r,
                               const struct simt_elf_section *sec,
                               const char *name, uint64_t off)
{
    const char *s;

    if (!sec) {
        bad_unit(r, "a string in %s, which the image does not have", name);
        return NULL;
    }
    if (off >= sec->size) {
        bad_unit(r, "string offset 0x%llx outside %s",
                 (unsigned long long)off, name);
        return NULL;
    }
    s = (const char *)r->elf->data + sec->offset + off;
    if (!memchr(s, '\0', sec->size - off)) {
        bad_unit(r, "string at 0x%llx of %s not terminated",
                 (unsigned long long)off, name);
        return NULL;
    }
    return s;
}

/* @name joined to @dir unless absolute or @dir is NULL or empty. */
static char *join_path(const char *dir, const char *name)
{
    size_t ld, ln;
    char *s;

    if (name[0] == '/' || !dir || !dir[0]) {
        return strdup(name);
    }
    ld = strlen(dir);
    ln = strlen(name);
    s = malloc(ld + ln + 2);
    if (s) {
        memcpy(s, dir, ld);
        if (dir[ld - 1] != '/') {
            s[ld++] = '/';
        }
        memcpy(s + ld, name, ln + 1);
    }
    return s;
}

/* Grow @*array of @*cap elements of @size bytes to hold @n. */
static bool grow(void **array, uint32_t *cap, uint32_t n, size_t size)
{
    uint32_t want;
    void *p;

    if (n <= *cap) {
        return true;
    }
    want = *cap ? *cap : 16;
    while (want < n) {
        if (want > UINT32_MAX / 2) {
            return false;
        }
        want *= 2;
    }
    p = realloc(*array, (size_t)want * size);
    if (!p) {
        return false;
    }
    *array = p;
    *cap = want;
    return true;
}

/* Take ownership of @dir (NULL: out of memory) as the unit's next one. */
static int add_dir(struct reader *r, char *dir)
{
    if (!dir || !grow((void **)&r->dirs, &r->dirs_cap, r->ndirs + 1,
                      sizeof(*r->dirs))) {
        free(dir);
        return bad_unit(r, "out of memory");
    }
    r->dirs[r->ndirs++] = dir;
    return 0;
}

/* Take ownership of @file (NULL: out of memory) as the next file name. */
static int add_file(struct reader *r, char *file)
{
    struct simt_lines *l = r->lines;

    if (!file || !grow((void **)&l->files, &r->files_cap, l->nfiles + 1,
                       sizeof(*l->files))) {
        free(file);
        return bad_unit(r, "out of memory");
    }
    l->files[l->nfiles++] = file;
    return 0;
}

static void free_dirs(struct reader *r)
{
    uint32_t i;

    for (i = 0; i < r->ndirs; i++) {
        free(r->dirs[i]);
    }
    free(r->dirs);
    r->dirs = NULL;
    r->ndirs = 0;
    r->dirs_cap = 0;
}

/* DWARF 2 to 4: include_directories, then file_names, each ended by "". */
static int read_tables_v4(struct reader *r, struct cursor *h)
{
    const char *s;

    while ((s = get_cstr(h)) && s[0]) {
        if (add_dir(r, strdup(s)) < 0) {
            return -1;
        }
    }
    while ((s = get_cstr(h)) && s[0]) {
        uint64_t dir = get_uleb(h);

        get_uleb(h);            /* modification time */
        get_uleb(h);            /* length */
        if (h->bad) {
            break;
        }
        /* Directory 0 is the compilation directory, not in this table. */
        if (dir > r->ndirs) {
            return bad_unit(r, "file %s in directory %llu of %u", s,
                            (unsigned long long)dir, r->ndirs);
        }
        if (add_file(r, join_path(dir ? r->dirs[dir - 1] : NULL, s)) < 0) {
            return -1;
        }
    }
    if (h->bad) {
        return bad_unit(r, "directory or file table runs past the header");
    }
    return 0;
}

static bool is_string_form(uint64_t form)
{
    return form == DW_FORM_string || form == DW_FORM_line_strp ||
           form == DW_FORM_strp;
}

static bool is_constant_form(uint64_t form)
{
    return form == DW_FORM_data1 || form == DW_FORM_data2 ||
           form == DW_FORM_data4 || form == DW_FORM_data8 ||
           form == DW_FORM_udata;
}

static bool is_skipped_form(uint64_t form)
{
    return form == DW_FORM_data16 || form == DW_FORM_block ||
           form == DW_FORM_block1 || form == DW_FORM_block2 ||
           form == DW_FORM_block4;
}

/*
 * One value of @form: *@str for the string forms (NULL on an error, with
 * the message set), *@num for the constant forms.
 */
static int read_form(struct reader *r, struct cursor *h, uint64_t form,
                     const char **str, uint64_t *num)
{
    *str = NULL;
    *num = 0;
    switch (form) {
    case DW_FORM_string:
        *str = get_cstr(h);
        return 0;
    case DW_FORM_line_strp:
    case DW_FORM_strp: {
        uint64_t off = get_offset(h, r->offset_size);

        if (h->bad) {
            return 0;
        }
        *str = form == DW_FORM_strp ?
               section_str(r, r->str, ".debug_str", off) :
               section_str(r, r->line_str, ".debug_line_str", off);
        return *str ? 0 : -1;
    }
    case DW_FORM_data1:
        *num = get_u8(h);
        return 0;
    case DW_FORM_data2:
        *num = get_u16(h);
        return 0;
    case DW_FORM_data4:
        *num = get_u32(h);
        return 0;
    case DW_FORM_data8:
        *num = get_u64(h);
        return 0;
    case DW_FORM_udata:
        *num = get_uleb(h);
        return 0;
    case DW_FORM_data16:
        skip(h, 16);
        return 0;
    case DW_FORM_block:
        skip(h, get_uleb(h));
        return 0;
    case DW_FORM_block1:
        skip(h, get_u8(h));
        return 0;
    case DW_FORM_block2:
        skip(h, get_u16(h));
        return 0;
    case DW_FORM_block4:
        skip(h, get_u32(h));
        return 0;
    }
    return bad_unit(r, "unknown form 0x%llx", (unsigned long long)form);
}

/*
 * DWARF 5: the directory or file entries (@what) described by their
 * entry format; each entry's path and directory index go to @paths and
 * @dir_index, allocated here with one slot per entry.
 */
static int read_entries_v5(struct reader *r, struct cursor *h,
                           const char *what, const char ***paths,
                           uint64_t **dir_index, uint64_t *count)
{
    uint64_t format[255][2];
    unsigned nformat = get_u8(h), f;
    bool has_path = false;
    uint64_t i;

    *paths = NULL;
    *dir_index = NULL;
    for (f = 0; f < nformat; f++) {
        format[f][0] = get_uleb(h);
        format[f][1] = get_uleb(h);
        if (h->bad) {
            return bad_unit(r, "%s entry format runs past the header", what);
        }
        if (format[f][0] == DW_LNCT_path) {
            if (!is_string_form(format[f][1])) {
                return bad_unit(r, "%s path in form 0x%llx, not a string",
                                what, (unsigned long long)format[f][1]);
            }
            has_path = true;
        } else if (format[f][0] == DW_LNCT_directory_index) {
            if (!is_constant_form(format[f][1])) {
                return bad_unit(r, "%s directory index in form 0x%llx, not "
                                "a constant", what,
                                (unsigned long long)format[f][1]);
            }
        } else if (!is_string_form(format[f][1]) &&
                   !is_constant_form(format[f][1]) &&
                   !is_skipped_form(format[f][1])) {
            return bad_unit(r, "unknown form 0x%llx in the %s entry format",
                            (unsigned long long)format[f][1], what);
        }
    }
    *count = get_uleb(h);
    if (h->bad) {
        return bad_unit(r, "%s count runs past the header", what);
    }
    if (*count && !has_path) {
        return bad_unit(r, "%s entries without a path", what);
    }
    /* Each entry has a path of one byte or more. */
    if (*count > (uint64_t)(h->end - h->p)) {
        return bad_unit(r, "%llu %s entries run past the header",
                        (unsigned long long)*count, what);
    }
    *paths = calloc(*count ? *count : 1, sizeof(**paths));
    *dir_index = calloc(*count ? *count : 1, sizeof(**dir_index));
    if (!*paths || !*dir_index) {
        return bad_unit(r, "out of memory");
    }
    for (i = 0; i < *count; i++) {
        for (f = 0; f < nformat; f++) {
            const char *s;
            uint64_t v;

            if (read_form(r, h, format[f][1], &s, &v) < 0) {
                return -1;
            }
            if (h->bad) {
                return bad_unit(r, "%s entry %llu runs past the header",
                                what, (unsigned long long)i);
            }
            if (format[f][0] == DW_LNCT_path) {
                (*paths)[i] = s;
            } else if (format[f][0] == DW_LNCT_directory_index) {
                (*dir_index)[i] = v;
            }
        }
    }
    return 0;
}

/*
 * DWARF 5: directories (entry 0 is the compilation directory; the others
 * are relative to it when relative) and files (each in its directory).
 */
static int read_tables_v5(struct reader *r, struct cursor *h)
{
    const char **paths;
    uint64_t *dir_index, count, i;
    int ret;

    ret = read_entries_v5(r, h, "directory", &paths, &dir_index, &count);
    for (i = 0; ret == 0 && i < count; i++) {
        ret = add_dir(r, join_path(i ? r->dirs[0] : NULL, paths[i]));
    }
    free(paths);
    free(dir_index);
    if (ret < 0) {
        return -1;
    }
    ret = read_entries_v5(r, h, "file", &paths, &dir_index, &count);
    for (i = 0; ret == 0 && i < count; i++) {
        if (dir_index[i] >= r->ndirs) {
            ret = bad_unit(r, "file %s in directory %llu of %u", paths[i],
                           (unsigned long long)dir_index[i], r->ndirs);
        } else {
            ret = add_file(r, join_path(r->dirs[dir_index[i]], paths[i]));
        }
    }
    free(paths);
    free(dir_index);
    return ret;
}

/* Instructions [@start, @end) come from @line of @file. */
static int add_range(struct reader *r, uint32_t start, uint32_t end,
                     uint32_t file, uint32_t line)
{
    struct simt_lines *l = r->lines;
    struct simt_lines_range *last = l->nranges ? &l->ranges[l->nranges - 1] :
                                    NULL;

    if (last && last->end == start && last->file == file &&
        last->line == line) {
        last->end = end;
        return 0;
    }
    if (!grow((void **)&l->ranges, &r->ranges_cap, l->nranges + 1,
              sizeof(*l->ranges))) {
        return bad_unit(r, "out of memory");
    }
    l->ranges[l->nranges++] = (struct simt_lines_range) {
        .start = start, .end = end, .file = file, .line = line,
    };
    return 0;
}

/*
 * Append the state machine's row: the open sequence's last row now ends
 * here; @end_sequence closes the sequence.  Line 0 rows cover code that
 * has no source line, and give no range.
 */
static int append_row(struct reader *r, const struct line_state *st,
                      struct pending_row *pend, bool end_sequence)
{
    uint32_t nfiles = r->lines->nfiles - r->file_base;
    uint32_t address = (uint32_t)st->address;
    uint32_t file;

    if (pend->open && address < pend->address) {
        return bad_unit(r, "address 0x%x goes back before 0x%x in its "
                        "sequence", address, pend->address);
    }
    if (pend->open && address > pend->address && pend->line &&
        add_range(r, pend->address, address, pend->file, pend->line) < 0) {
        return -1;
    }
    if (end_sequence) {
        pend->open = false;
        return 0;
    }
    /* DWARF 5 numbers files from 0, earlier versions from 1. */
    if (r->version >= 5 ? st->file >= nfiles :
        st->file == 0 || st->file > nfiles) {
        return bad_unit(r, "row in file %llu of %u",
                        (unsigned long long)st->file, nfiles);
    }
    file = r->file_base + (uint32_t)st->file - (r->version >= 5 ? 0 : 1);
    *pend = (struct pending_row) {
        .open = true, .address = address, .file = file,
        .line = (uint32_t)st->line,
    };
    return 0;
}

/* The unit's header fields that drive its program. */
struct line_header {
    uint8_t min_inst_length;
    uint8_t max_ops;
    int8_t line_base;
    uint8_t line_range;
    uint8_t opcode_base;
    const uint8_t *std_lengths;     /* opcode_base - 1 operand counts */
};

/* Advance the address by @adv operations (DWARF 5, 6.2.5.1). */
static int advance(struct reader *r, const struct line_header *lh,
                   struct line_state *st, uint64_t adv)
{
    uint64_t ops;

    if (adv > UINT32_MAX) {
        return bad_unit(r, "address advance of %llu operations",
                        (unsigned long long)adv);
    }
    ops = st->op_index + adv;
    st->address += lh->min_inst_length * (ops / lh->max_ops);
    st->op_index = ops % lh->max_ops;
    if (st->address > UINT32_MAX) {
        return bad_unit(r, "address beyond 32 bits");
    }
    return 0;
}

static void reset_state(struct line_state *st)
{
    *st = (struct line_state) { .file = 1, .line = 1 };
}

/* Run the line-number program in @c. */
static int run_program(struct reader *r, const struct line_header *lh,
                       struct cursor *c)
{
    const uint8_t *start = c->p;
    struct pending_row pend = { .open = false };
    struct line_state st;
    int ret = 0;

    reset_state(&st);
    while (ret == 0 && c->p < c->end) {
        const uint8_t *at = c->p;
        uint8_t op = get_u8(c);
        int64_t delta;

        if (op >= lh->opcode_base) {
            uint8_t adj = op - lh->opcode_base;

            ret = advance(r, lh, &st, adj / lh->line_range);
            st.line += lh->line_base + adj % lh->line_range;
            if (ret == 0 && (st.line < 0 || st.line > UINT32_MAX)) {
                ret = bad_unit(r, "line out of range at program offset 0x%x",
                               (unsigned)(at - start));
            }
            if (ret == 0) {
                ret = append_row(r, &st, &pend, false);
            }
            continue;
        }
        switch (op) {
        case 0: {
            uint64_t len = get_uleb(c);
            struct cursor e = { .p = c->p };
            uint8_t sub;

            if (c->bad || len == 0 || len > (uint64_t)(c->end - c->p)) {
                c->bad = true;
                break;
            }
            e.end = c->p + len;
            c->p += len;
            sub = get_u8(&e);
            if (sub == DW_LNE_end_sequence) {
                ret = append_row(r, &st, &pend, true);
                reset_state(&st);
            } else if (sub == DW_LNE_set_address) {
                if (len != 5) {
                    ret = bad_unit(r, "DW_LNE_set_address of %llu bytes at "
                                   "program offset 0x%x; addresses have 4",
                                   (unsigned long long)len - 1,
                                   (unsigned)(at - start));
                }
                st.address = get_u32(&e);
                st.op_index = 0;
            }
            /* Others (define_file, set_discriminator, vendors') are
             * skipped whole: they do not move rows. */
            break;
        }
        case DW_LNS_copy:
            ret = append_row(r, &st, &pend, false);
            break;
        case DW_LNS_advance_pc:
            ret = advance(r, lh, &st, get_uleb(c));
            break;
        case DW_LNS_advance_line:
            delta = get_sleb(c);
            if (delta > (int64_t)UINT32_MAX || delta < -(int64_t)UINT32_MAX ||
                st.line + delta < 0 || st.line + delta > UINT32_MAX) {
                ret = bad_unit(r, "line %lld%+lld out of range at program "
                               "offset 0x%x", (long long)st.line,
                               (long long)delta, (unsigned)(at - start));
            }
            st.line += delta;
            break;
        case DW_LNS_set_file:
            st.file = get_uleb(c);
            break;
        case DW_LNS_const_add_pc:
            ret = advance(r, lh, &st, (255 - lh->opcode_base) /
                                      lh->line_range);
            break;
        case DW_LNS_fixed_advance_pc:
            st.address += get_u16(c);
            st.op_index = 0;
            if (st.address > UINT32_MAX) {
                ret = bad_unit(r, "address beyond 32 bits");
            }
            break;
        case DW_LNS_negate_stmt:
        case DW_LNS_set_basic_block:
        case DW_LNS_set_prologue_end:
        case DW_LNS_set_epilogue_begin:
            break;
        default: {
            /* set_column, set_isa and opcodes of later versions: skip
             * their operands, as many as the header says. */
            unsigned n;

            for (n = 0; n < lh->std_lengths[op - 1]; n++) {
                get_uleb(c);
            }
            break;
        }
        }
        if (ret == 0 && c->bad) {
            ret = bad_unit(r, "opcode 0x%02x at program offset 0x%x runs "
                           "past the end of the unit", op,
                           (unsigned)(at - start));
        }
    }
    if (ret == 0 && pend.open) {
        ret = bad_unit(r, "sequence not ended by DW_LNE_end_sequence");
    }
    return ret;
}

/*
 * Read the unit at @data, the rest of .debug_line being @size bytes;
 * *@unit_size is the unit's size with its length field.
 */
static int read_unit(struct reader *r, const uint8_t *data, uint64_t size,
                     uint64_t *unit_size)
{
    struct cursor c = { .p = data, .end = data + size };
    struct cursor h;
    struct line_header lh;
    uint64_t length, header_length;
    int ret;

    length = get_u32(&c);
    r->offset_size = 4;
    if (length == 0xffffffffu) {
        length = get_u64(&c);
        r->offset_size = 8;
    } else if (length >= 0xfffffff0u) {
        return bad_unit(r, "reserved unit length 0x%llx",
                        (unsigned long long)length);
    }
    if (c.bad) {
        return bad_unit(r, "unit length runs past the end of the section");
    }
    if (length > (uint64_t)(c.end - c.p)) {
        return bad_unit(r, "unit length %llu runs past the end of the "
                        "section", (unsigned long long)length);
    }
    c.end = c.p + length;
    *unit_size = (uint64_t)(c.end - data);

    r->version = get_u16(&c);
    if (!c.bad && (r->version < 2 || r->version > 5)) {
        return bad_unit(r, "DWARF version %u; this reader knows 2 to 5",
                        r->version);
    }
    if (r->version >= 5) {
        uint8_t address_size = get_u8(&c);
        uint8_t seg_size = get_u8(&c);

        if (!c.bad && (address_size != 4 || seg_size != 0)) {
            return bad_unit(r, "address size %u, segment selector size %u; "
                            "want 4 and 0", address_size, seg_size);
        }
    }
    header_length = get_offset(&c, r->offset_size);
    if (c.bad) {
        return bad_unit(r, "header runs past the end of the unit");
    }
    if (header_length > (uint64_t)(c.end - c.p)) {
        return bad_unit(r, "header length %llu runs past the end of the unit",
                        (unsigned long long)header_length);
    }
    h = (struct cursor) { .p = c.p, .end = c.p + header_length };
    c.p = h.end;

    lh.min_inst_length = get_u8(&h);
    lh.max_ops = r->version >= 4 ? get_u8(&h) : 1;
    get_u8(&h);                 /* default_is_stmt: every row counts */
    lh.line_base = (int8_t)get_u8(&h);
    lh.line_range = get_u8(&h);
    lh.opcode_base = get_u8(&h);
    lh.std_lengths = h.p;
    skip(&h, lh.opcode_base ? lh.opcode_base - 1 : 0);
    if (h.bad) {
        return bad_unit(r, "header fields run past its length");
    }
    if (lh.max_ops == 0 || lh.line_range == 0 || lh.opcode_base == 0) {
        return bad_unit(r, "maximum_operations_per_instruction %u, "
                        "line_range %u, opcode_base %u: none may be 0",
                        lh.max_ops, lh.line_range, lh.opcode_base);
    }

    r->file_base = r->lines->nfiles;
    ret = r->version >= 5 ? read_tables_v5(r, &h) : read_tables_v4(r, &h);
    free_dirs(r);
    if (ret < 0) {
        return -1;
    }
    return run_program(r, &lh, &c);
}

static int compare_ranges(const void *a, const void *b)
{
    const struct simt_lines_range *x = a, *y = b;

    if (x->start != y->start) {
        return x->start < y->start ? -1 : 1;
    }
    return x->end < y->end ? -1 : x->end > y->end;
}

int simt_lines_read(struct simt_lines *lines, const struct simt_elf *elf,
                    char *err, size_t errlen)
{
    const struct simt_elf_section *sec;
    struct reader r = {
        .elf = elf, .lines = lines, .err = err, .errlen = errlen,
    };
    uint64_t off = 0, unit_size = 0;

    memset(lines, 0, sizeof(*lines));
    if (debug_section(&r, ".debug_line", &sec) < 0) {
        return -1;
    }
    if (!sec) {
        return 0;
    }
    if (debug_section(&r, ".debug_line_str", &r.line_str) < 0 ||
        debug_section(&r, ".debug_str", &r.str) < 0) {
        return -1;
    }
    while (off < sec->size) {
        r.unit = (uint32_t)off;
        if (read_unit(&r, elf->data + sec->offset + off, sec->size - off,
                      &unit_size) < 0) {
            free_dirs(&r);
            simt_lines_free(lines);
            return -1;
        }
        off += unit_size;
    }
    if (lines->nranges) {
        qsort(lines->ranges, lines->nranges, sizeof(*lines->ranges),
              compare_ranges);
    }
    return 0;
}

bool simt_lines_find(const struct simt_lines *lines, uint32_t pc,
                     const char **file, unsigned int *line)
{
    uint32_t lo = 0, hi = lines->nranges;
    const struct simt_lines_range *range;

    /* The last range starting at or before @pc. */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;

        if (lines->ranges[mid].start <= pc) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == 0) {
        return false;
    }
    range = &lines->ranges[lo - 1];
    if (pc >= range->end) {
        return false;
    }
    *file = lines->files[range->file];
    *line = range->line;
    return true;
}

void simt_lines_free(struct simt_lines *lines)
{
    uint32_t i;

    for (i = 0; i < lines->nfiles; i++) {
        free(lines->files[i]);
    }
    free(lines->files);
    free(lines->ranges);
    memset(lines, 0, sizeof(*lines));
}
