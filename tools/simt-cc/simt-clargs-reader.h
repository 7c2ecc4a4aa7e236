/* SPDX-License-Identifier: MIT */
/*
 * Read the OpenCL kernel argument descriptions (the SIMT_CLARGS_SECTION
 * of include/hw/simt/simt-clargs.h) from a kernel image, for a runtime
 * that builds argument blocks.  Every offset, size and string is checked,
 * so a damaged section gives "file: .simt.clargs ...: reason".
 */
#ifndef SIMT_CLARGS_READER_H
#define SIMT_CLARGS_READER_H

#include <stddef.h>
#include <stdint.h>

#include "hw/simt/simt-clargs.h"
#include "simt-elf.h"

struct simt_clarg {
    const char *name;
    const char *type_name;
    uint32_t kind;              /* enum simt_clarg_kind */
    uint32_t address_qual;      /* enum simt_clarg_address */
    uint32_t access_qual;       /* enum simt_clarg_access */
    uint32_t type_qual;         /* SIMT_CLARG_TYPE_* */
    uint32_t offset;
    uint32_t size;
    uint32_t align;
};

struct simt_clkernel {
    const char *name;
    uint32_t nargs;
    struct simt_clarg *args;
    uint32_t block_header_size; /* SIMT_CL_BLOCK_HEADER_SIZE */
    uint32_t block_size;
    uint32_t block_align;
};

/* Every OpenCL kernel of an image; names point into the ELF's data. */
struct simt_clargs {
    uint32_t nkernels;
    struct simt_clkernel *kernels;
    struct simt_clarg *args;    /* all kernels' arguments */
};

/*
 * Parse the section of @elf.  Returns 1 if found and well formed, 0 if
 * the image has no such section (not compiled from OpenCL C), -1 with a
 * message in @err.  @elf must outlive @ca.
 */
int simt_clargs_read(struct simt_clargs *ca, const struct simt_elf *elf,
                     char *err, size_t errlen);
void simt_clargs_free(struct simt_clargs *ca);

/* The kernel named @name, or NULL. */
const struct simt_clkernel *simt_clargs_kernel(const struct simt_clargs *ca,
                                               const char *name);

#endif /* SIMT_CLARGS_READER_H */
