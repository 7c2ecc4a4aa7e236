/* SPDX-License-Identifier: MIT */
/*
 * simt-lines: source positions of a kernel image's instructions, read from
 * its DWARF line tables (.debug_line, versions 2 to 5), for tools that
 * report findings by file and line; and, from .debug_info, the call sites
 * of inlined code, so that a finding in simt.h's inline functions points
 * at the line of the kernel that called them.
 *
 * Kernel images are linked at their load address, so an ELF address is
 * the pc the lanes execute.  Every offset and length in the debug sections
 * is checked: a hostile file gives an error message, never a crash.
 */
#ifndef SIMT_LINES_H
#define SIMT_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simt-elf.h"

/* Instructions [start, end) come from line @line of file @file. */
struct simt_lines_range {
    uint32_t start;
    uint32_t end;
    uint32_t file;              /* index into simt_lines.files */
    uint32_t line;              /* 1-based */
};

/*
 * Instructions [start, end) were inlined into their function by a call on
 * line @call_line of file @call_file: the outermost inlined call, whose
 * position is in the function's own source.
 */
struct simt_lines_inlined {
    uint32_t start;
    uint32_t end;
    uint32_t call_file;         /* index into simt_lines.files */
    uint32_t call_line;         /* 1-based */
};

/*
 * Source positions of a kernel image's instructions, from .debug_line,
 * and the call sites of its inlined code, from .debug_info.
 */
struct simt_lines {
    struct simt_lines_range *ranges;    /* sorted by start */
    uint32_t nranges;
    char **files;               /* names joined to their directories */
    uint32_t nfiles;
    struct simt_lines_inlined *inlined; /* sorted by start */
    uint32_t ninlined;
};

/*
 * Read @elf's .debug_line (DWARF 2 to 5; 5's strings from .debug_line_str /
 * .debug_str) and the DW_TAG_inlined_subroutine entries of its .debug_info
 * (DWARF 2 to 5, with .debug_abbrev, and .debug_rnglists, .debug_ranges
 * and .debug_addr as the entries use them).  Returns 0 with an empty
 * table when the image has no debug information, 0 with the table on
 * success, and -1 with "path: reason" in @err when a section is malformed.
 */
int simt_lines_read(struct simt_lines *lines, const struct simt_elf *elf,
                    char *err, size_t errlen);

/*
 * The source position of the instruction at @pc: true with *@file (the
 * file name as the compiler recorded it, joined to its directory when
 * relative; valid while @lines lives) and *@line (1-based); false when no
 * row covers @pc (no debug info, or pc outside every sequence, or line 0).
 */
bool simt_lines_find(const struct simt_lines *lines, uint32_t pc,
                     const char **file, unsigned int *line);

/*
 * Like simt_lines_find, but when @pc lies in code inlined into its
 * function, *@file and *@line are the position of the outermost inlined
 * call instead: the line of the function's own source that brought the
 * code in.  *@inlined_file and *@inlined_line (either may be NULL) then
 * get simt_lines_find's answer, the position inside the inlined code,
 * when there is one and it differs; otherwise NULL and 0.  False when
 * neither table has a position for @pc.
 */
bool simt_lines_find_call(const struct simt_lines *lines, uint32_t pc,
                          const char **file, unsigned int *line,
                          const char **inlined_file,
                          unsigned int *inlined_line);

void simt_lines_free(struct simt_lines *lines);

#endif /* SIMT_LINES_H */
