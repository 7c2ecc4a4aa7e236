/* SPDX-License-Identifier: MIT */
/*
 * simt-lines: source positions of a kernel image's instructions, read from
 * its DWARF line tables (.debug_line, versions 2 to 5), for tools that
 * report findings by file and line.
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

/* Source positions of a kernel image's instructions, from .debug_line. */
struct simt_lines {
    struct simt_lines_range *ranges;    /* sorted by start */
    uint32_t nranges;
    char **files;               /* names joined to their directories */
    uint32_t nfiles;
};

/*
 * Read @elf's .debug_line (DWARF 4 or 5; 5's strings from .debug_line_str /
 * .debug_str).  Returns 0 with an empty table when the image has no debug
 * information, 0 with the table on success, and -1 with "path: reason" in
 * @err when the section is malformed.
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

void simt_lines_free(struct simt_lines *lines);

#endif /* SIMT_LINES_H */
