/* SPDX-License-Identifier: MIT */
/*
 * simt-clargs: the reader of the OpenCL kernel argument section
 * (include/hw/simt/simt-clargs.h).  Two passes over the units: count,
 * then fill, so that the result is two arrays.
 */
#include "simt-clargs-reader.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hw/simt/simt-le.h"

/* The fields of struct simt_clargs_unit, by index of their word. */
enum {
    U_MAGIC, U_VERSION, U_UNIT_SIZE, U_HEADER_SIZE, U_BLOCK_HEADER_SIZE,
    U_NKERNELS, U_KERNEL_OFFSET, U_KERNEL_SIZE, U_NARGS, U_ARG_OFFSET,
    U_ARG_SIZE, U_STRTAB_OFFSET, U_STRTAB_SIZE, U_WORDS
};
enum { K_NAME, K_NARGS, K_FIRST_ARG, K_BLOCK_SIZE, K_BLOCK_ALIGN, K_WORDS };
enum {
    A_NAME, A_TYPE_NAME, A_KIND, A_ADDRESS, A_ACCESS, A_TYPE_QUAL,
    A_OFFSET, A_SIZE, A_ALIGN, A_WORDS
};

struct unit {
    const uint8_t *p;
    uint32_t w[U_WORDS];
};

/* Does [off, off + len) lie within @size bytes? */
static bool in_bounds(uint32_t size, uint64_t off, uint64_t len)
{
    return off <= size && len <= size - off;
}

/* Check the unit at @at of the section's @left bytes. */
static int check_unit(struct unit *u, const char *path, uint32_t at,
                      const uint8_t *p, uint32_t left, char *err,
                      size_t errlen)
{
    uint32_t i;

    if (left < 4 * U_WORDS) {
        return simt_elf_error(err, errlen, "%s: " SIMT_CLARGS_SECTION
                              " unit at %u: truncated header", path, at);
    }
    u->p = p;
    for (i = 0; i < U_WORDS; i++) {
        u->w[i] = simt_le32(p + 4 * i);
    }
    if (u->w[U_MAGIC] != SIMT_CLARGS_MAGIC) {
        return simt_elf_error(err, errlen, "%s: " SIMT_CLARGS_SECTION
                              " unit at %u: bad magic 0x%08x", path, at,
                              u->w[U_MAGIC]);
    }
    if (u->w[U_VERSION] != SIMT_CLARGS_VERSION) {
        return simt_elf_error(err, errlen, "%s: " SIMT_CLARGS_SECTION
                              " unit at %u: version %u, this reader knows %u",
                              path, at, u->w[U_VERSION], SIMT_CLARGS_VERSION);
    }
    if (u->w[U_UNIT_SIZE] < 4 * U_WORDS || (u->w[U_UNIT_SIZE] & 3) ||
        u->w[U_UNIT_SIZE] > left || u->w[U_HEADER_SIZE] < 4 * U_WORDS ||
        u->w[U_KERNEL_SIZE] < 4 * K_WORDS || u->w[U_ARG_SIZE] < 4 * A_WORDS ||
        u->w[U_BLOCK_HEADER_SIZE] < SIMT_CL_BLOCK_HEADER_SIZE) {
        return simt_elf_error(err, errlen, "%s: " SIMT_CLARGS_SECTION
                              " unit at %u: bad sizes", path, at);
    }
    if (!in_bounds(u->w[U_UNIT_SIZE], u->w[U_KERNEL_OFFSET],
                   (uint64_t)u->w[U_NKERNELS] * u->w[U_KERNEL_SIZE]) ||
        !in_bounds(u->w[U_UNIT_SIZE], u->w[U_ARG_OFFSET],
                   (uint64_t)u->w[U_NARGS] * u->w[U_ARG_SIZE]) ||
        !in_bounds(u->w[U_UNIT_SIZE], u->w[U_STRTAB_OFFSET],
                   u->w[U_STRTAB_SIZE]) ||
        u->w[U_STRTAB_SIZE] == 0 ||
        p[u->w[U_STRTAB_OFFSET] + u->w[U_STRTAB_SIZE] - 1] != '\0') {
        return simt_elf_error(err, errlen, "%s: " SIMT_CLARGS_SECTION
                              " unit at %u: a table lies outside the unit",
                              path, at);
    }
    return 0;
}

static const char *unit_string(const struct unit *u, uint32_t off)
{
    if (off >= u->w[U_STRTAB_SIZE]) {
        return NULL;
    }
    return (const char *)u->p + u->w[U_STRTAB_OFFSET] + off;
}

/* The unit's argument records into @args, checked one by one. */
static int fill_args(struct simt_clarg *args, const struct unit *u,
                     const char *path, char *err, size_t errlen)
{
    uint32_t a;

    for (a = 0; a < u->w[U_NARGS]; a++) {
        const uint8_t *ap = u->p + u->w[U_ARG_OFFSET] +
                            (size_t)a * u->w[U_ARG_SIZE];
        struct simt_clarg *arg = &args[a];

        arg->name = unit_string(u, simt_le32(ap + 4 * A_NAME));
        arg->type_name = unit_string(u, simt_le32(ap + 4 * A_TYPE_NAME));
        arg->kind = simt_le32(ap + 4 * A_KIND);
        arg->address_qual = simt_le32(ap + 4 * A_ADDRESS);
        arg->access_qual = simt_le32(ap + 4 * A_ACCESS);
        arg->type_qual = simt_le32(ap + 4 * A_TYPE_QUAL);
        arg->offset = simt_le32(ap + 4 * A_OFFSET);
        arg->size = simt_le32(ap + 4 * A_SIZE);
        arg->align = simt_le32(ap + 4 * A_ALIGN);
        if (!arg->name || !arg->type_name || arg->kind > SIMT_CLARG_LOCAL ||
            arg->address_qual > SIMT_CLARG_ADDRESS_LOCAL ||
            arg->access_qual > SIMT_CLARG_ACCESS_READ_WRITE ||
            !arg->align || (arg->align & (arg->align - 1)) ||
            (arg->offset & (arg->align - 1))) {
            return simt_elf_error(err, errlen, "%s: " SIMT_CLARGS_SECTION
                                  ": argument record %u is damaged", path, a);
        }
    }
    return 0;
}

/*
 * Kernel record @index of @u, whose arguments are among @args (the
 * unit's records): they must lie in order inside the block.
 */
static int fill_kernel(struct simt_clkernel *k, struct simt_clarg *args,
                       const struct unit *u, uint32_t index, const char *path,
                       char *err, size_t errlen)
{
    const uint8_t *kp = u->p + u->w[U_KERNEL_OFFSET] +
                        (size_t)index * u->w[U_KERNEL_SIZE];
    uint32_t first = simt_le32(kp + 4 * K_FIRST_ARG), end, a;

    k->name = unit_string(u, simt_le32(kp + 4 * K_NAME));
    k->nargs = simt_le32(kp + 4 * K_NARGS);
    k->block_header_size = u->w[U_BLOCK_HEADER_SIZE];
    k->block_size = simt_le32(kp + 4 * K_BLOCK_SIZE);
    k->block_align = simt_le32(kp + 4 * K_BLOCK_ALIGN);
    if (!k->name || !in_bounds(u->w[U_NARGS], first, k->nargs) ||
        k->block_align < SIMT_CL_BLOCK_ALIGN ||
        (k->block_align & (k->block_align - 1)) ||
        k->block_size < k->block_header_size) {
        return simt_elf_error(err, errlen, "%s: " SIMT_CLARGS_SECTION
                              ": kernel record %u is damaged", path, index);
    }
    k->args = args + first;
    end = k->block_header_size;
    for (a = 0; a < k->nargs; a++) {
        const struct simt_clarg *arg = &k->args[a];

        if (arg->align > k->block_align || arg->offset < end ||
            !in_bounds(k->block_size, arg->offset, arg->size)) {
            return simt_elf_error(err, errlen, "%s: " SIMT_CLARGS_SECTION
                                  ": kernel %s: argument %u lies outside "
                                  "its block", path, k->name, a);
        }
        end = arg->offset + arg->size;
    }
    return 0;
}

int simt_clargs_read(struct simt_clargs *ca, const struct simt_elf *elf,
                     char *err, size_t errlen)
{
    const struct simt_elf_section *s;
    const uint8_t *p;
    uint32_t at, nkernels = 0, nargs = 0, k, a;
    struct unit u = { 0 };
    int pass;

    memset(ca, 0, sizeof(*ca));
    s = simt_elf_section_by_name(elf, SIMT_CLARGS_SECTION);
    if (!s) {
        return 0;
    }
    if ((uint64_t)s->offset + s->size > elf->size || (s->size & 3)) {
        return simt_elf_error(err, errlen, "%s: " SIMT_CLARGS_SECTION
                              " lies outside the file or is not made of "
                              "words", elf->path);
    }
    p = elf->data + s->offset;
    for (pass = 0; pass < 2; pass++) {
        k = a = 0;
        for (at = 0; at < s->size; at += u.w[U_UNIT_SIZE]) {
            uint32_t i;

            if (check_unit(&u, elf->path, at, p + at, s->size - at,
                           err, errlen) < 0) {
                simt_clargs_free(ca);
                return -1;
            }
            if (pass == 0) {
                nkernels += u.w[U_NKERNELS];
                nargs += u.w[U_NARGS];
                continue;
            }
            if (fill_args(ca->args + a, &u, elf->path, err, errlen) < 0) {
                simt_clargs_free(ca);
                return -1;
            }
            for (i = 0; i < u.w[U_NKERNELS]; i++, k++) {
                if (fill_kernel(&ca->kernels[k], ca->args + a, &u, i,
                                elf->path, err, errlen) < 0) {
                    simt_clargs_free(ca);
                    return -1;
                }
            }
            a += u.w[U_NARGS];
        }
        if (pass == 0) {
            ca->kernels = calloc(nkernels ? nkernels : 1,
                                 sizeof(*ca->kernels));
            ca->args = calloc(nargs ? nargs : 1, sizeof(*ca->args));
            if (!ca->kernels || !ca->args) {
                simt_clargs_free(ca);
                return simt_elf_error(err, errlen, "%s: out of memory",
                                      elf->path);
            }
            ca->nkernels = nkernels;
        }
    }
    return 1;
}

void simt_clargs_free(struct simt_clargs *ca)
{
    free(ca->kernels);
    free(ca->args);
    memset(ca, 0, sizeof(*ca));
}

const struct simt_clkernel *simt_clargs_kernel(const struct simt_clargs *ca,
                                               const char *name)
{
    uint32_t k;

    for (k = 0; k < ca->nkernels; k++) {
        if (!strcmp(ca->kernels[k].name, name)) {
            return &ca->kernels[k];
        }
    }
    return NULL;
}
