/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * simt-clargs: how an OpenCL C kernel compiled by simt-cc takes its
 * arguments, and the image section that describes them to a runtime.
 * Plain C, shared by simt-cc (which writes both), the reader
 * tools/simt-cc/simt-clargs.c and the host runtimes; docs/opencl.rst has
 * the same contract in prose.
 *
 * The argument block.  A launch of an OpenCL kernel passes one argument
 * word: a0 = the device address of its argument block, 16-byte aligned
 * (SIMT_CL_BLOCK_ALIGN, or the kernel's block_align if larger), which the
 * runtime writes before the launch and keeps until it ends.  The block
 * is a struct simt_cl_block_header, then each kernel argument at the
 * offset its struct simt_clargs_arg gives (natural alignment, in order):
 *
 *   by value (int, float, float4, a struct...)   its bytes, as the lanes
 *                                                lay the type out
 *   __global or __constant pointer               the 4-byte device address
 *   __local pointer                              the 4-byte address of the
 *       buffer in the block's shared-memory window: SIMT_SHARED_BASE +
 *       the kernel's static shared_bytes (metadata note) + the offset of
 *       this buffer within the launch's dynamic shared memory (buffers in
 *       argument order, each aligned to 16 bytes); the launch asks for
 *       the sum of the buffers' sizes as dynamic shared memory.
 *
 * Work-item functions read the header through tp (x4), which the
 * kernel's entry sets to a0: tp is never allocated by the compiler, is 0
 * at entry and is saved and restored with the other registers.
 */
#ifndef SIMT_CLARGS_H
#define SIMT_CLARGS_H

#include <stdint.h>

/* Alignment of the argument block, at least (see block_align). */
#define SIMT_CL_BLOCK_ALIGN         16
/* Alignment of each __local buffer within the dynamic shared memory. */
#define SIMT_CL_LOCAL_ALIGN         16

/* The start of every argument block. */
struct simt_cl_block_header {
    uint32_t work_dim;          /* 1..3, get_work_dim() */
    uint32_t global_offset[3];  /* get_global_offset(0..2) */
};

#define SIMT_CL_BLOCK_HEADER_SIZE   16

/*
 * The section.  A non-allocated (not loaded) SHT_PROGBITS section
 * SIMT_CLARGS_SECTION of the image holds one or more units, one after
 * another; each object simt-cc compiles from OpenCL C contributes one,
 * and the linker concatenates them.  A unit is a struct
 * simt_clargs_unit, then nkernels records of kernel_size bytes (struct
 * simt_clargs_kernel), then nargs records of arg_size bytes (struct
 * simt_clargs_arg), then a string table of NUL-terminated strings.
 * Every field is a little-endian uint32_t; offsets are from the start of
 * the unit, names are offsets into the string table.  Records may grow
 * in later versions: readers use kernel_size and arg_size, not sizeof.
 */
#define SIMT_CLARGS_SECTION         ".simt.clargs"
#define SIMT_CLARGS_MAGIC           0x61436c53u     /* "SlCa" */
#define SIMT_CLARGS_VERSION         1

struct simt_clargs_unit {
    uint32_t magic;             /* SIMT_CLARGS_MAGIC */
    uint32_t version;           /* SIMT_CLARGS_VERSION */
    uint32_t unit_size;         /* bytes, a multiple of 4; the next follows */
    uint32_t header_size;       /* sizeof(struct simt_clargs_unit) */
    uint32_t block_header_size; /* SIMT_CL_BLOCK_HEADER_SIZE */
    uint32_t nkernels;
    uint32_t kernel_offset;
    uint32_t kernel_size;
    uint32_t nargs;             /* argument records, all kernels */
    uint32_t arg_offset;
    uint32_t arg_size;
    uint32_t strtab_offset;
    uint32_t strtab_size;
};

struct simt_clargs_kernel {
    uint32_t name;              /* the kernel's (and its entry symbol's) name */
    uint32_t nargs;
    uint32_t first_arg;         /* index of its first argument record */
    uint32_t block_size;        /* bytes of its argument block */
    uint32_t block_align;       /* alignment of the block, >= 16 */
};

/* What the runtime puts in the block for an argument. */
enum simt_clarg_kind {
    SIMT_CLARG_VALUE = 0,       /* the value's bytes */
    SIMT_CLARG_POINTER = 1,     /* a device address (__global, __constant) */
    SIMT_CLARG_LOCAL = 2,       /* a buffer the runtime puts in shared memory */
};

/* The address qualifier (clang's OpenCL address space numbers). */
enum simt_clarg_address {
    SIMT_CLARG_ADDRESS_PRIVATE = 0,     /* by value */
    SIMT_CLARG_ADDRESS_GLOBAL = 1,
    SIMT_CLARG_ADDRESS_CONSTANT = 2,
    SIMT_CLARG_ADDRESS_LOCAL = 3,
};

enum simt_clarg_access {
    SIMT_CLARG_ACCESS_NONE = 0,
    SIMT_CLARG_ACCESS_READ_ONLY = 1,
    SIMT_CLARG_ACCESS_WRITE_ONLY = 2,
    SIMT_CLARG_ACCESS_READ_WRITE = 3,
};

/* Type qualifiers, a mask. */
#define SIMT_CLARG_TYPE_CONST       1u
#define SIMT_CLARG_TYPE_RESTRICT    2u
#define SIMT_CLARG_TYPE_VOLATILE    4u
#define SIMT_CLARG_TYPE_PIPE        8u

struct simt_clargs_arg {
    uint32_t name;              /* as in the source (-cl-kernel-arg-info) */
    uint32_t type_name;         /* "float*", "float4", "struct pair"... */
    uint32_t kind;              /* enum simt_clarg_kind */
    uint32_t address_qual;      /* enum simt_clarg_address */
    uint32_t access_qual;       /* enum simt_clarg_access */
    uint32_t type_qual;         /* SIMT_CLARG_TYPE_* */
    uint32_t offset;            /* in the argument block */
    uint32_t size;              /* bytes in the block (4 for pointers) */
    uint32_t align;
};

#endif /* SIMT_CLARGS_H */
