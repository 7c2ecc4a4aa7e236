/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt-meta: binary analysis of simt kernels (control flow, register
 * liveness, stack bound, idempotence hint) and the SIMT metadata note.
 *
 * The analysis works on a struct sm_program, which comes either from a
 * kernel ELF (sm_program_from_image) or, in tests, from hand-assembled
 * instruction words.
 */
#ifndef SIMT_META_H
#define SIMT_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simt-elf.h"

struct sm_func {
    const char *name;
    uint32_t start;             /* [start, end), 4-byte aligned */
    uint32_t end;
    bool kernel;                /* an entry point */
};

struct sm_program {
    const char *file;           /* for messages */
    uint32_t base;              /* address of insns[0] */
    uint32_t ninsns;
    const uint32_t *insns;
    uint32_t nfuncs;
    struct sm_func *funcs;      /* sorted by start, not overlapping */
    uint32_t shared_bytes;      /* static shared memory of the image */
    bool shared_pointers_in_data;   /* data words that may point there */
    uint32_t pp_interval;       /* K for preemption points, 0: default */
};

/* Seed 004's K: its results barely changed between 100 and 1000. */
#define SM_PP_INTERVAL_DEFAULT  1000

struct sm_kernel {
    const char *name;
    struct simt_meta_kernel m;  /* m.name unused: the note has the name */
};

struct sm_result {
    uint64_t *live;             /* ninsns masks, live before each insn */
    uint32_t nkernels;
    struct sm_kernel *kernels;
    uint32_t *pp;               /* preemption points, ascending pcs */
    uint32_t npp;
    uint32_t pp_interval;       /* the K used */
};

/*
 * Analyse @prog.  Returns 0, or -1 with "file: function+off (pc): reason"
 * in @err for code it cannot describe soundly.
 */
int sm_analyze(const struct sm_program *prog, struct sm_result *res,
               char *err, size_t errlen);
void sm_result_free(struct sm_result *res);

/*
 * Build the program of a kernel image: its executable section, function
 * symbols and kernel entries.  Also rejects ELF features simt kernels
 * cannot have (relocations, dynamic linking, TLS, constructors, RVC).
 * Names point into @img; free the rest with sm_program_free().
 */
int sm_program_from_image(const struct simt_image *img,
                          struct sm_program *prog, char *err, size_t errlen);
void sm_program_free(struct sm_program *prog);

/*
 * Serialise the metadata note (note header, name and descriptor) for
 * @prog / @res into a malloc'ed buffer.
 */
int sm_note_build(const struct sm_program *prog, const struct sm_result *res,
                  uint8_t **note, size_t *len);

/*
 * Write @elf to @out with a SIMT_NOTE_SECTION section holding @note,
 * replacing any previous one.  Writes a temporary file and renames it.
 */
int sm_elf_write_note(const struct simt_elf *elf, const uint8_t *note,
                      size_t len, const char *out, char *err, size_t errlen);

#endif /* SIMT_META_H */
