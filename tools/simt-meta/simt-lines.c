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
 *
 * Then .debug_info: each unit's tree of entries (DIEs), decoded with the
 * unit's abbreviation table from .debug_abbrev, is walked for the
 * outermost DW_TAG_inlined_subroutine entries; their address ranges
 * (low_pc/high_pc, or a range list in .debug_rnglists or .debug_ranges)
 * and their call_file/call_line, a file of the line-table unit that the
 * compilation unit's DW_AT_stmt_list names, make the table of call sites.
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

#define DW_FORM_addr                0x01
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
#define DW_FORM_flag                0x0c
#define DW_FORM_sdata               0x0d
#define DW_FORM_ref_addr            0x10
#define DW_FORM_ref1                0x11
#define DW_FORM_ref2                0x12
#define DW_FORM_ref4                0x13
#define DW_FORM_ref8                0x14
#define DW_FORM_ref_udata           0x15
#define DW_FORM_indirect            0x16
#define DW_FORM_sec_offset          0x17
#define DW_FORM_exprloc             0x18
#define DW_FORM_flag_present        0x19
#define DW_FORM_strx                0x1a
#define DW_FORM_addrx               0x1b
#define DW_FORM_ref_sup4            0x1c
#define DW_FORM_strp_sup            0x1d
#define DW_FORM_data16              0x1e
#define DW_FORM_line_strp           0x1f
#define DW_FORM_ref_sig8            0x20
#define DW_FORM_implicit_const      0x21
#define DW_FORM_loclistx            0x22
#define DW_FORM_rnglistx            0x23
#define DW_FORM_ref_sup8            0x24
#define DW_FORM_strx1               0x25
#define DW_FORM_strx2               0x26
#define DW_FORM_strx3               0x27
#define DW_FORM_strx4               0x28
#define DW_FORM_addrx1              0x29
#define DW_FORM_addrx2              0x2a
#define DW_FORM_addrx3              0x2b
#define DW_FORM_addrx4              0x2c
#define DW_FORM_GNU_addr_index      0x1f01
#define DW_FORM_GNU_str_index       0x1f02
#define DW_FORM_GNU_ref_alt         0x1f20
#define DW_FORM_GNU_strp_alt        0x1f21

#define DW_TAG_inlined_subroutine   0x1d

#define DW_AT_stmt_list             0x10
#define DW_AT_low_pc                0x11
#define DW_AT_high_pc               0x12
#define DW_AT_ranges                0x55
#define DW_AT_call_file             0x58
#define DW_AT_call_line             0x59
#define DW_AT_addr_base             0x73
#define DW_AT_rnglists_base         0x74

#define DW_UT_compile               0x01
#define DW_UT_partial               0x03

#define DW_RLE_end_of_list          0
#define DW_RLE_base_addressx        1
#define DW_RLE_startx_endx          2
#define DW_RLE_startx_length        3
#define DW_RLE_offset_pair          4
#define DW_RLE_base_address         5
#define DW_RLE_start_end            6
#define DW_RLE_start_length         7

/* Deeper DIE trees than this are refused rather than followed. */
#define MAX_DIE_DEPTH               256

/*
 * Bytes [p, end) of a section.  A read past @end sets @bad and yields
 * zeros, so a run of fields is read first and checked once.
 */
struct cursor {
    const uint8_t *p;
    const uint8_t *end;
    bool bad;
};

/* A unit of .debug_line, for the DW_AT_stmt_list that names it. */
struct line_unit {
    uint32_t offset;
    uint32_t file_base;         /* its first entry in simt_lines.files */
    uint32_t nfiles;
    unsigned version;           /* 5 numbers files from 0, others from 1 */
};

/* One call of simt_lines_read: the sections and the unit being read. */
struct reader {
    const struct simt_elf *elf;
    const struct simt_elf_section *line_str;    /* DW_FORM_line_strp */
    const struct simt_elf_section *str;         /* DW_FORM_strp */
    struct simt_lines *lines;
    uint32_t ranges_cap;
    uint32_t files_cap;
    uint32_t inlined_cap;
    struct line_unit *units;
    uint32_t nunits;
    uint32_t units_cap;
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
    if (!grow((void **)&r->units, &r->units_cap, r->nunits + 1,
              sizeof(*r->units))) {
        return bad_unit(r, "out of memory");
    }
    r->units[r->nunits++] = (struct line_unit) {
        .offset = r->unit, .file_base = r->file_base,
        .nfiles = r->lines->nfiles - r->file_base, .version = r->version,
    };
    return run_program(r, &lh, &c);
}

/* ---- .debug_info: the call sites of inlined code ---- */

/* One attribute of an abbreviation: its name and form. */
struct abbrev_attr {
    uint64_t name;
    uint64_t form;
    int64_t implicit_const;     /* the value of DW_FORM_implicit_const */
};

/* An abbreviation: a DIE's tag and the attributes that follow its code. */
struct abbrev {
    uint64_t code;
    uint64_t tag;
    bool children;
    uint32_t first_attr;        /* index into info_unit.attrs */
    uint32_t nattrs;
};

/* An attribute's value as read: its form and its number. */
struct attr_value {
    uint64_t form;              /* 0: the DIE has no such attribute */
    uint64_t value;
};

/* The attributes of a DIE that the reader uses. */
struct die {
    uint64_t tag;
    struct attr_value low_pc, high_pc, ranges, call_file, call_line;
    struct attr_value stmt_list, addr_base, rnglists_base;
};

/* The .debug_info unit being read. */
struct info_unit {
    struct reader *r;
    const struct simt_elf_section *info, *abbrev, *addr, *rnglists;
    const struct simt_elf_section *ranges;
    uint32_t offset;            /* in .debug_info, for messages */
    unsigned version;
    unsigned offset_size;
    unsigned address_size;
    struct abbrev *abbrevs;
    uint32_t nabbrevs, abbrevs_cap;
    struct abbrev_attr *attrs;
    uint32_t nattrs, attrs_cap;

    /* from the unit's DIE */
    const struct line_unit *lines;
    uint64_t base;              /* DW_AT_low_pc: the base of range lists */
    struct attr_value addr_base, rnglists_base;
};

static int bad_info(struct info_unit *u, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int bad_info(struct info_unit *u, const char *fmt, ...)
{
    char why[200];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    return simt_elf_error(u->r->err, u->r->errlen,
                          "%s: .debug_info unit at 0x%x: %s",
                          u->r->elf->path, u->offset, why);
}

/* The bytes of @sec from @off on, or false if @off is outside it. */
static bool section_cursor(const struct reader *r,
                           const struct simt_elf_section *sec, uint64_t off,
                           struct cursor *c)
{
    if (!sec || off > sec->size) {
        return false;
    }
    *c = (struct cursor) {
        .p = r->elf->data + sec->offset + off,
        .end = r->elf->data + sec->offset + sec->size,
    };
    return true;
}

/* Read the abbreviation table at @off of .debug_abbrev. */
static int read_abbrevs(struct info_unit *u, uint64_t off)
{
    struct cursor c;
    uint64_t code;

    if (!section_cursor(u->r, u->abbrev, off, &c)) {
        return bad_info(u, "abbreviation table at 0x%llx outside "
                        ".debug_abbrev", (unsigned long long)off);
    }
    while ((code = get_uleb(&c)) != 0 && !c.bad) {
        struct abbrev a = {
            .code = code, .tag = get_uleb(&c), .first_attr = u->nattrs,
        };
        uint64_t name, form;

        a.children = get_u8(&c) != 0;
        while (!c.bad) {
            name = get_uleb(&c);
            form = get_uleb(&c);
            if (name == 0 && form == 0) {
                break;
            }
            if (!grow((void **)&u->attrs, &u->attrs_cap, u->nattrs + 1,
                      sizeof(*u->attrs))) {
                return bad_info(u, "out of memory");
            }
            u->attrs[u->nattrs++] = (struct abbrev_attr) {
                .name = name, .form = form,
                .implicit_const = form == DW_FORM_implicit_const ?
                                  get_sleb(&c) : 0,
            };
            a.nattrs++;
        }
        if (!grow((void **)&u->abbrevs, &u->abbrevs_cap, u->nabbrevs + 1,
                  sizeof(*u->abbrevs))) {
            return bad_info(u, "out of memory");
        }
        u->abbrevs[u->nabbrevs++] = a;
    }
    if (c.bad) {
        return bad_info(u, "abbreviation table at 0x%llx runs past the end "
                        "of .debug_abbrev", (unsigned long long)off);
    }
    return 0;
}

static const struct abbrev *find_abbrev(const struct info_unit *u,
                                        uint64_t code)
{
    uint32_t i;

    /* Compilers number abbreviations 1, 2, ...: try that first. */
    if (code <= u->nabbrevs && u->abbrevs[code - 1].code == code) {
        return &u->abbrevs[code - 1];
    }
    for (i = 0; i < u->nabbrevs; i++) {
        if (u->abbrevs[i].code == code) {
            return &u->abbrevs[i];
        }
    }
    return NULL;
}

/*
 * One attribute's value of @form into *@value: addresses, constants,
 * indexes, offsets and references as numbers; strings, blocks and
 * expressions skipped.  False for a form this reader does not know.
 */
static bool read_value(struct info_unit *u, struct cursor *c, uint64_t form,
                       int64_t implicit_const, uint64_t *value)
{
    const uint8_t *p;

    *value = 0;
    switch (form) {
    case DW_FORM_addr:
        *value = get_u32(c);
        return true;
    case DW_FORM_data1:
    case DW_FORM_ref1:
    case DW_FORM_flag:
    case DW_FORM_strx1:
    case DW_FORM_addrx1:
        *value = get_u8(c);
        return true;
    case DW_FORM_data2:
    case DW_FORM_ref2:
    case DW_FORM_strx2:
    case DW_FORM_addrx2:
        *value = get_u16(c);
        return true;
    case DW_FORM_strx3:
    case DW_FORM_addrx3:
        *value = take(c, 3, &p) ? p[0] | p[1] << 8 | (uint32_t)p[2] << 16 : 0;
        return true;
    case DW_FORM_data4:
    case DW_FORM_ref4:
    case DW_FORM_ref_sup4:
    case DW_FORM_strx4:
    case DW_FORM_addrx4:
        *value = get_u32(c);
        return true;
    case DW_FORM_data8:
    case DW_FORM_ref8:
    case DW_FORM_ref_sig8:
    case DW_FORM_ref_sup8:
        *value = get_u64(c);
        return true;
    case DW_FORM_data16:
        skip(c, 16);
        return true;
    case DW_FORM_sdata:
        *value = (uint64_t)get_sleb(c);
        return true;
    case DW_FORM_udata:
    case DW_FORM_ref_udata:
    case DW_FORM_strx:
    case DW_FORM_addrx:
    case DW_FORM_loclistx:
    case DW_FORM_rnglistx:
    case DW_FORM_GNU_addr_index:
    case DW_FORM_GNU_str_index:
        *value = get_uleb(c);
        return true;
    case DW_FORM_ref_addr:
        /* DWARF 2 wrote it address-sized, later versions offset-sized. */
        *value = get_offset(c, u->version == 2 ? u->address_size :
                               u->offset_size);
        return true;
    case DW_FORM_strp:
    case DW_FORM_line_strp:
    case DW_FORM_sec_offset:
    case DW_FORM_strp_sup:
    case DW_FORM_GNU_ref_alt:
    case DW_FORM_GNU_strp_alt:
        *value = get_offset(c, u->offset_size);
        return true;
    case DW_FORM_string:
        get_cstr(c);
        return true;
    case DW_FORM_block1:
        skip(c, get_u8(c));
        return true;
    case DW_FORM_block2:
        skip(c, get_u16(c));
        return true;
    case DW_FORM_block4:
        skip(c, get_u32(c));
        return true;
    case DW_FORM_block:
    case DW_FORM_exprloc:
        skip(c, get_uleb(c));
        return true;
    case DW_FORM_flag_present:
        *value = 1;
        return true;
    case DW_FORM_implicit_const:
        *value = (uint64_t)implicit_const;
        return true;
    }
    return false;
}

/* The slot of @die for attribute @name, or NULL if the reader skips it. */
static struct attr_value *die_slot(struct die *die, uint64_t name)
{
    switch (name) {
    case DW_AT_low_pc:
        return &die->low_pc;
    case DW_AT_high_pc:
        return &die->high_pc;
    case DW_AT_ranges:
        return &die->ranges;
    case DW_AT_call_file:
        return &die->call_file;
    case DW_AT_call_line:
        return &die->call_line;
    case DW_AT_stmt_list:
        return &die->stmt_list;
    case DW_AT_addr_base:
        return &die->addr_base;
    case DW_AT_rnglists_base:
        return &die->rnglists_base;
    }
    return NULL;
}

/* The DIE of abbreviation @a at @c, its attributes read into @die. */
static int read_die(struct info_unit *u, struct cursor *c,
                    const struct abbrev *a, struct die *die)
{
    uint32_t i;

    memset(die, 0, sizeof(*die));
    die->tag = a->tag;
    for (i = 0; i < a->nattrs; i++) {
        const struct abbrev_attr *at = &u->attrs[a->first_attr + i];
        struct attr_value *slot = die_slot(die, at->name);
        uint64_t form = at->form, value;

        if (form == DW_FORM_indirect) {
            form = get_uleb(c);
            if (form == DW_FORM_indirect || form == DW_FORM_implicit_const) {
                return bad_info(u, "DW_FORM_indirect to form 0x%llx",
                                (unsigned long long)form);
            }
        }
        if (!read_value(u, c, form, at->implicit_const, &value)) {
            return bad_info(u, "unknown form 0x%llx of attribute 0x%llx",
                            (unsigned long long)form,
                            (unsigned long long)at->name);
        }
        if (slot && form) {
            *slot = (struct attr_value) { .form = form, .value = value };
        }
    }
    return 0;
}

static bool is_addrx_form(uint64_t form)
{
    return form == DW_FORM_addrx || form == DW_FORM_GNU_addr_index ||
           (form >= DW_FORM_addrx1 && form <= DW_FORM_addrx4);
}

/* Entry @index of .debug_addr, from the unit's DW_AT_addr_base. */
static int indexed_address(struct info_unit *u, uint64_t index,
                           uint64_t *address)
{
    struct cursor c;
    uint64_t off;

    if (!u->addr_base.form) {
        return bad_info(u, "an indexed address without DW_AT_addr_base");
    }
    if (index > UINT32_MAX ||
        !section_cursor(u->r, u->addr, u->addr_base.value, &c)) {
        return bad_info(u, "address %llu of .debug_addr at 0x%llx outside "
                        "the section", (unsigned long long)index,
                        (unsigned long long)u->addr_base.value);
    }
    off = index * 4;
    skip(&c, off);
    *address = get_u32(&c);
    if (c.bad) {
        return bad_info(u, "address %llu of .debug_addr at 0x%llx outside "
                        "the section", (unsigned long long)index,
                        (unsigned long long)u->addr_base.value);
    }
    return 0;
}

/* The address that attribute @v holds. */
static int address_value(struct info_unit *u, const struct attr_value *v,
                         uint64_t *address)
{
    if (v->form == DW_FORM_addr) {
        *address = v->value;
        return 0;
    }
    if (is_addrx_form(v->form)) {
        return indexed_address(u, v->value, address);
    }
    return bad_info(u, "an address in form 0x%llx",
                    (unsigned long long)v->form);
}

/* Code [@start, @end) was inlined by a call at @die's call_file:call_line. */
static int add_inlined(struct info_unit *u, const struct die *die,
                       uint64_t start, uint64_t end)
{
    const struct line_unit *lu = u->lines;
    struct simt_lines *l = u->r->lines;
    uint64_t file = die->call_file.value;

    if (end < start || end > (uint64_t)UINT32_MAX + 1) {
        return bad_info(u, "inlined code at [0x%llx, 0x%llx)",
                        (unsigned long long)start, (unsigned long long)end);
    }
    if (end == start) {
        return 0;
    }
    if (!lu) {
        return bad_info(u, "inlined code in a unit without DW_AT_stmt_list");
    }
    if (lu->version >= 5 ? file >= lu->nfiles :
        file == 0 || file > lu->nfiles) {
        return bad_info(u, "call in file %llu of %u",
                        (unsigned long long)file, lu->nfiles);
    }
    if (die->call_line.value > UINT32_MAX) {
        return bad_info(u, "call on line %llu",
                        (unsigned long long)die->call_line.value);
    }
    if (!grow((void **)&l->inlined, &u->r->inlined_cap, l->ninlined + 1,
              sizeof(*l->inlined))) {
        return bad_info(u, "out of memory");
    }
    /* An end of 2^32 is kept as the last address. */
    l->inlined[l->ninlined++] = (struct simt_lines_inlined) {
        .start = (uint32_t)start,
        .end = end > UINT32_MAX ? UINT32_MAX : (uint32_t)end,
        .call_file = lu->file_base + (uint32_t)file -
                     (lu->version >= 5 ? 0 : 1),
        .call_line = (uint32_t)die->call_line.value,
    };
    return 0;
}

/* A range list's length, which add_inlined checks against the start. */
static int check_length(struct info_unit *u, uint64_t length)
{
    if (length > UINT32_MAX) {
        return bad_info(u, "range list length 0x%llx",
                        (unsigned long long)length);
    }
    return 0;
}

/* DWARF 5: the range list of @die in .debug_rnglists. */
static int add_rnglist(struct info_unit *u, const struct die *die)
{
    uint64_t off = die->ranges.value, base = u->base, a, b;
    struct cursor c;
    int ret = 0;

    if (die->ranges.form == DW_FORM_rnglistx) {
        if (!u->rnglists_base.form) {
            return bad_info(u, "DW_FORM_rnglistx without "
                            "DW_AT_rnglists_base");
        }
        if (off > UINT32_MAX ||
            !section_cursor(u->r, u->rnglists, u->rnglists_base.value, &c)) {
            return bad_info(u, "range list %llu outside .debug_rnglists",
                            (unsigned long long)off);
        }
        skip(&c, off * u->offset_size);
        off = get_offset(&c, u->offset_size);
        if (c.bad || off > UINT64_MAX - u->rnglists_base.value) {
            return bad_info(u, "range list %llu outside .debug_rnglists",
                            (unsigned long long)die->ranges.value);
        }
        off += u->rnglists_base.value;
    }
    if (!section_cursor(u->r, u->rnglists, off, &c)) {
        return bad_info(u, "range list at 0x%llx outside .debug_rnglists",
                        (unsigned long long)off);
    }
    for (;;) {
        uint8_t kind = get_u8(&c);

        if (c.bad || kind == DW_RLE_end_of_list) {
            break;
        }
        switch (kind) {
        case DW_RLE_base_addressx:
            ret = indexed_address(u, get_uleb(&c), &base);
            break;
        case DW_RLE_startx_endx:
            a = get_uleb(&c);
            b = get_uleb(&c);
            if (!c.bad && (ret = indexed_address(u, a, &a)) == 0 &&
                (ret = indexed_address(u, b, &b)) == 0) {
                ret = add_inlined(u, die, a, b);
            }
            break;
        case DW_RLE_startx_length:
            a = get_uleb(&c);
            b = get_uleb(&c);
            if (!c.bad && (ret = check_length(u, b)) == 0 &&
                (ret = indexed_address(u, a, &a)) == 0) {
                ret = add_inlined(u, die, a, a + b);
            }
            break;
        case DW_RLE_offset_pair:
            a = get_uleb(&c);
            b = get_uleb(&c);
            if (!c.bad) {
                if (a > UINT32_MAX || b > UINT32_MAX) {
                    ret = bad_info(u, "range list offset beyond 32 bits");
                } else {
                    ret = add_inlined(u, die, base + a, base + b);
                }
            }
            break;
        case DW_RLE_base_address:
            base = get_u32(&c);
            break;
        case DW_RLE_start_end:
            a = get_u32(&c);
            b = get_u32(&c);
            if (!c.bad) {
                ret = add_inlined(u, die, a, b);
            }
            break;
        case DW_RLE_start_length:
            a = get_u32(&c);
            b = get_uleb(&c);
            if (!c.bad && (ret = check_length(u, b)) == 0) {
                ret = add_inlined(u, die, a, a + b);
            }
            break;
        default:
            return bad_info(u, "range list entry kind %u", kind);
        }
        if (ret < 0) {
            return -1;
        }
    }
    if (c.bad) {
        return bad_info(u, "range list at 0x%llx runs past the end of "
                        ".debug_rnglists", (unsigned long long)off);
    }
    return 0;
}

/* DWARF 2 to 4: the range list of @die in .debug_ranges. */
static int add_ranges_v4(struct info_unit *u, const struct die *die)
{
    uint64_t base = u->base;
    struct cursor c;

    if (!section_cursor(u->r, u->ranges, die->ranges.value, &c)) {
        return bad_info(u, "range list at 0x%llx outside .debug_ranges",
                        (unsigned long long)die->ranges.value);
    }
    for (;;) {
        uint32_t a = get_u32(&c), b = get_u32(&c);

        if (c.bad) {
            return bad_info(u, "range list at 0x%llx runs past the end of "
                            ".debug_ranges",
                            (unsigned long long)die->ranges.value);
        }
        if (a == 0 && b == 0) {
            return 0;
        }
        if (a == UINT32_MAX) {
            base = b;
        } else if (add_inlined(u, die, base + a, base + b) < 0) {
            return -1;
        }
    }
}

static bool is_offset_form(uint64_t form)
{
    return form == DW_FORM_sec_offset || form == DW_FORM_data4 ||
           form == DW_FORM_data8;
}

/* The ranges of the outermost inlined call @die. */
static int add_inlined_die(struct info_unit *u, const struct die *die)
{
    uint64_t low, high;

    /* Without a call position there is no line to report. */
    if (!die->call_file.form || !die->call_line.form ||
        !die->call_line.value) {
        return 0;
    }
    if (die->ranges.form) {
        if (die->ranges.form != DW_FORM_rnglistx &&
            !is_offset_form(die->ranges.form)) {
            return bad_info(u, "DW_AT_ranges in form 0x%llx",
                            (unsigned long long)die->ranges.form);
        }
        return u->version >= 5 ? add_rnglist(u, die) : add_ranges_v4(u, die);
    }
    if (!die->low_pc.form || !die->high_pc.form) {
        return 0;
    }
    if (address_value(u, &die->low_pc, &low) < 0) {
        return -1;
    }
    if (die->high_pc.form == DW_FORM_addr || is_addrx_form(die->high_pc.form)) {
        if (address_value(u, &die->high_pc, &high) < 0) {
            return -1;
        }
    } else if (is_constant_form(die->high_pc.form) ||
               die->high_pc.form == DW_FORM_sdata ||
               die->high_pc.form == DW_FORM_implicit_const) {
        if (die->high_pc.value > UINT32_MAX) {
            return bad_info(u, "DW_AT_high_pc offset 0x%llx",
                            (unsigned long long)die->high_pc.value);
        }
        high = low + die->high_pc.value;
    } else {
        return bad_info(u, "DW_AT_high_pc in form 0x%llx",
                        (unsigned long long)die->high_pc.form);
    }
    return add_inlined(u, die, low, high);
}

/* The unit's own DIE: its line-table unit, address and range-list bases. */
static int read_unit_die(struct info_unit *u, const struct die *die)
{
    uint32_t i;

    u->addr_base = die->addr_base;
    u->rnglists_base = die->rnglists_base;
    if (die->stmt_list.form) {
        if (!is_offset_form(die->stmt_list.form)) {
            return bad_info(u, "DW_AT_stmt_list in form 0x%llx",
                            (unsigned long long)die->stmt_list.form);
        }
        for (i = 0; i < u->r->nunits; i++) {
            if (u->r->units[i].offset == die->stmt_list.value) {
                u->lines = &u->r->units[i];
            }
        }
        if (!u->lines) {
            return bad_info(u, "DW_AT_stmt_list 0x%llx is no unit of "
                            ".debug_line",
                            (unsigned long long)die->stmt_list.value);
        }
    }
    if (die->low_pc.form && address_value(u, &die->low_pc, &u->base) < 0) {
        return -1;
    }
    return 0;
}

/*
 * The DIE tree in @c: the first DIE is the unit's; each outermost
 * DW_TAG_inlined_subroutine adds its ranges.
 */
static int read_die_tree(struct info_unit *u, struct cursor *c)
{
    /* inlined[d]: how many inlined calls enclose the DIEs at depth d */
    uint32_t inlined[MAX_DIE_DEPTH + 1];
    unsigned depth = 0;
    bool first = true;

    inlined[0] = 0;
    while (c->p < c->end) {
        uint32_t at = (uint32_t)(c->p - (u->r->elf->data + u->info->offset));
        uint64_t code = get_uleb(c);
        const struct abbrev *a;
        struct die die;

        if (c->bad) {
            break;
        }
        if (code == 0) {
            /* The end of a list of children; padding at the top. */
            if (depth) {
                depth--;
            }
            continue;
        }
        a = find_abbrev(u, code);
        if (!a) {
            return bad_info(u, "DIE at 0x%x has abbreviation %llu, which "
                            "is not defined", at, (unsigned long long)code);
        }
        if (read_die(u, c, a, &die) < 0) {
            return -1;
        }
        if (c->bad) {
            break;
        }
        if (first) {
            if (read_unit_die(u, &die) < 0) {
                return -1;
            }
            first = false;
        } else if (die.tag == DW_TAG_inlined_subroutine &&
                   inlined[depth] == 0 && add_inlined_die(u, &die) < 0) {
            return -1;
        }
        if (a->children) {
            if (depth == MAX_DIE_DEPTH) {
                return bad_info(u, "DIE tree deeper than %u", MAX_DIE_DEPTH);
            }
            inlined[depth + 1] = inlined[depth] +
                                 (die.tag == DW_TAG_inlined_subroutine);
            depth++;
        }
    }
    if (c->bad || depth) {
        return bad_info(u, "DIE tree runs past the end of its unit");
    }
    return 0;
}

/*
 * Read the unit at @off of .debug_info; *@unit_size is its size with its
 * length field.
 */
static int read_info_unit(struct info_unit *u, uint64_t off,
                          uint64_t *unit_size)
{
    struct cursor c;
    uint64_t length, abbrev_off;
    const uint8_t *start;
    unsigned unit_type = DW_UT_compile;

    section_cursor(u->r, u->info, off, &c);
    start = c.p;
    length = get_u32(&c);
    u->offset_size = 4;
    if (length == 0xffffffffu) {
        length = get_u64(&c);
        u->offset_size = 8;
    } else if (length >= 0xfffffff0u) {
        return bad_info(u, "reserved unit length 0x%llx",
                        (unsigned long long)length);
    }
    if (c.bad || length > (uint64_t)(c.end - c.p)) {
        return bad_info(u, "unit length runs past the end of the section");
    }
    c.end = c.p + length;
    *unit_size = (uint64_t)(c.end - start);

    u->version = get_u16(&c);
    if (!c.bad && (u->version < 2 || u->version > 5)) {
        return bad_info(u, "DWARF version %u; this reader knows 2 to 5",
                        u->version);
    }
    if (u->version >= 5) {
        unit_type = get_u8(&c);
        u->address_size = get_u8(&c);
        abbrev_off = get_offset(&c, u->offset_size);
    } else {
        abbrev_off = get_offset(&c, u->offset_size);
        u->address_size = get_u8(&c);
    }
    if (c.bad) {
        return bad_info(u, "header runs past the end of the unit");
    }
    /* Type and split units hold no code of this image. */
    if (unit_type != DW_UT_compile && unit_type != DW_UT_partial) {
        return 0;
    }
    if (u->address_size != 4) {
        return bad_info(u, "address size %u; want 4", u->address_size);
    }
    if (read_abbrevs(u, abbrev_off) < 0) {
        return -1;
    }
    return read_die_tree(u, &c);
}

/* The inlined calls of every unit of .debug_info. */
static int read_inlined(struct reader *r)
{
    const struct simt_elf_section *info;
    struct info_unit u = { .r = r };
    uint64_t off = 0, unit_size = 0;
    int ret = 0;

    if (debug_section(r, ".debug_info", &info) < 0) {
        return -1;
    }
    if (!info) {
        return 0;
    }
    if (debug_section(r, ".debug_abbrev", &u.abbrev) < 0 ||
        debug_section(r, ".debug_addr", &u.addr) < 0 ||
        debug_section(r, ".debug_rnglists", &u.rnglists) < 0 ||
        debug_section(r, ".debug_ranges", &u.ranges) < 0) {
        return -1;
    }
    while (ret == 0 && off < info->size) {
        u = (struct info_unit) {
            .r = r, .info = info, .abbrev = u.abbrev, .addr = u.addr,
            .rnglists = u.rnglists, .ranges = u.ranges,
            .offset = (uint32_t)off, .abbrevs = u.abbrevs,
            .abbrevs_cap = u.abbrevs_cap, .attrs = u.attrs,
            .attrs_cap = u.attrs_cap,
        };
        ret = read_info_unit(&u, off, &unit_size);
        off += unit_size;
    }
    free(u.abbrevs);
    free(u.attrs);
    return ret;
}

static int compare_inlined(const void *a, const void *b)
{
    const struct simt_lines_inlined *x = a, *y = b;

    if (x->start != y->start) {
        return x->start < y->start ? -1 : 1;
    }
    return x->end < y->end ? -1 : x->end > y->end;
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
            free(r.units);
            simt_lines_free(lines);
            return -1;
        }
        off += unit_size;
    }
    if (read_inlined(&r) < 0) {
        free(r.units);
        simt_lines_free(lines);
        return -1;
    }
    free(r.units);
    if (lines->nranges) {
        qsort(lines->ranges, lines->nranges, sizeof(*lines->ranges),
              compare_ranges);
    }
    if (lines->ninlined) {
        qsort(lines->inlined, lines->ninlined, sizeof(*lines->inlined),
              compare_inlined);
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

bool simt_lines_find_call(const struct simt_lines *lines, uint32_t pc,
                          const char **file, unsigned int *line,
                          const char **inlined_file,
                          unsigned int *inlined_line)
{
    uint32_t lo = 0, hi = lines->ninlined;
    const struct simt_lines_inlined *call;
    const char *in_file = NULL;
    unsigned int in_line = 0;
    bool found;

    if (inlined_file) {
        *inlined_file = NULL;
    }
    if (inlined_line) {
        *inlined_line = 0;
    }
    found = simt_lines_find(lines, pc, &in_file, &in_line);
    /* The last inlined call starting at or before @pc. */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;

        if (lines->inlined[mid].start <= pc) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    call = lo ? &lines->inlined[lo - 1] : NULL;
    if (!call || pc >= call->end) {
        if (found) {
            *file = in_file;
            *line = in_line;
        }
        return found;
    }
    *file = lines->files[call->call_file];
    *line = call->call_line;
    if (found && (in_line != *line || strcmp(in_file, *file) != 0)) {
        if (inlined_file) {
            *inlined_file = in_file;
        }
        if (inlined_line) {
            *inlined_line = in_line;
        }
    }
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
    free(lines->inlined);
    memset(lines, 0, sizeof(*lines));
}
