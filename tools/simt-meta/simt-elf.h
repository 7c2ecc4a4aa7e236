/* SPDX-License-Identifier: MIT */
/*
 * simt-elf: read simt kernel images (ELF32, RISC-V, little-endian
 * executables linked with kernels/simt.ld) and their SIMT metadata note.
 *
 * Used by the metadata tool, the tests, the benchmark, and meant for the
 * device qtests and the guest runtime.  Every offset and size in the file
 * is checked, so a hostile file gives an error message, never a crash.
 * Functions return 0 on success and -1 with a message in @err.
 */
#ifndef SIMT_ELF_H
#define SIMT_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/simt/simt-isa.h"

/* Largest file and loaded image accepted, a guard against absurd sizes */
#define SIMT_ELF_MAX_FILE           (64u << 20)
#define SIMT_ELF_MAX_IMAGE          (64u << 20)

struct simt_elf_section {
    const char *name;
    uint32_t type;
    uint32_t flags;
    uint32_t addr;
    uint32_t offset;
    uint32_t size;
    uint32_t link;
    uint32_t entsize;
};

struct simt_elf_segment {
    uint32_t type;
    uint32_t flags;
    uint32_t offset;
    uint32_t vaddr;
    uint32_t filesz;
    uint32_t memsz;
};

struct simt_elf_symbol {
    const char *name;
    uint32_t value;
    uint32_t size;
    uint8_t type;               /* STT_* */
    uint8_t bind;               /* STB_* */
    uint16_t shndx;
};

/* A parsed ELF file; names point into @data. */
struct simt_elf {
    const char *path;           /* for messages; not owned */
    uint8_t *data;              /* the whole file, owned */
    size_t size;
    uint16_t type;              /* ET_* */
    uint32_t flags;             /* e_flags */
    uint32_t entry;
    uint32_t nsections;
    struct simt_elf_section *sections;
    uint32_t nsegments;
    struct simt_elf_segment *segments;
    uint32_t nsymbols;
    struct simt_elf_symbol *symbols;
};

/* One kernel of the metadata note, in host byte order. */
struct simt_kernel_info {
    const char *name;
    struct simt_meta_kernel m;
};

/* The parsed metadata note. */
struct simt_meta {
    struct simt_meta_header h;
    struct simt_kernel_info *kernels;   /* h.nkernels entries */
    uint64_t *live;                     /* one mask per instruction */
    uint32_t nlive;
    uint32_t *pp;                       /* h.pp_count preemption points */
    char *strtab;
};

/* A loadable kernel image. */
struct simt_image {
    struct simt_elf elf;
    uint32_t base;              /* address of bytes[0] */
    uint32_t size;              /* loadable bytes, .bss zeroed */
    uint8_t *bytes;
    uint32_t code_start;        /* the executable section */
    uint32_t code_end;
    uint32_t shared_bytes;      /* size of .shared, 0 if none */
    bool has_meta;              /* false if no SIMT note was found */
    struct simt_meta meta;
};

/* Format an error into @err (@errlen bytes) and return -1. */
int simt_elf_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Parse an ELF file held in @data (@size bytes, ownership passes to @elf
 * even on failure).  Checks the identification (ELF32, little-endian,
 * EM_RISCV, executable) and the bounds of every header, section and
 * symbol.  @path is only used in messages and must outlive @elf.
 */
int simt_elf_parse(struct simt_elf *elf, const char *path, uint8_t *data,
                   size_t size, char *err, size_t errlen);
int simt_elf_read_file(struct simt_elf *elf, const char *path,
                       char *err, size_t errlen);
void simt_elf_free(struct simt_elf *elf);

const struct simt_elf_section *simt_elf_section_by_name(
    const struct simt_elf *elf, const char *name);
const struct simt_elf_symbol *simt_elf_symbol_by_name(
    const struct simt_elf *elf, const char *name);

/*
 * Find the SIMT metadata note in @elf and return its descriptor.
 * Returns 1 and sets *@desc / *@len if found, 0 if the file has no
 * SIMT note section, -1 if the note section is malformed.
 */
int simt_elf_find_meta(const struct simt_elf *elf, const uint8_t **desc,
                       uint32_t *len, char *err, size_t errlen);

/* Parse a metadata note descriptor (as written by simt-meta). */
int simt_meta_parse(struct simt_meta *meta, const uint8_t *desc,
                    uint32_t len, char *err, size_t errlen);
void simt_meta_free(struct simt_meta *meta);

/*
 * Live registers at @pc (bits 0..31 x0..x31, 32..63 f0..f31).  Outside
 * the table every register counts as live, the safe answer.
 */
uint64_t simt_meta_live_at(const struct simt_meta *meta, uint32_t pc);

/* Is @pc one of the image's preemption points? */
bool simt_meta_is_pp(const struct simt_meta *meta, uint32_t pc);

/*
 * Load a kernel image: the PT_LOAD segments outside the shared memory
 * window, copied into one buffer from the lowest to the highest address,
 * plus the executable section's range, the shared memory size and the
 * metadata note if there is one.
 */
int simt_image_load(struct simt_image *img, const char *path,
                    char *err, size_t errlen);
int simt_image_load_mem(struct simt_image *img, const char *name,
                        const void *buf, size_t len,
                        char *err, size_t errlen);
void simt_image_free(struct simt_image *img);

/* The kernel named @name in the image's note, or NULL. */
const struct simt_kernel_info *simt_image_kernel(const struct simt_image *img,
                                                 const char *name);

#endif /* SIMT_ELF_H */
