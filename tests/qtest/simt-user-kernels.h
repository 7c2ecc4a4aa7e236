/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Kernels a user brings to seed 000's preemption experiment
 * (make bench-preempt KERNELS=DIR): DIR/kernels.ini describes each one's
 * launch geometry, per-block footprint and arguments, and the bench runs
 * them as it runs kernels/rodinia.c's (docs/labs/own-kernels.rst).
 */
#ifndef SIMT_USER_KERNELS_H
#define SIMT_USER_KERNELS_H

#include "simt-rodinia.h"

/* The image the bench script builds from DIR: $SIMT_KERNEL_DIR/user.elf */
#define USER_IMAGE      "user"

typedef enum UserArgKind {
    USER_ARG_NUMBER,            /* a 32-bit value */
    USER_ARG_IN,                /* a buffer the kernel reads */
    USER_ARG_OUT,               /* ... writes: a result */
    USER_ARG_INOUT,             /* ... reads and writes: a result */
} UserArgKind;

typedef enum UserFill {
    USER_FILL_ZERO,
    USER_FILL_RANDOM,           /* words of a fixed pseudo-random sequence */
    USER_FILL_FLOAT,            /* floats of [0, 1) from the same */
    USER_FILL_INDEX,            /* word i holds i */
} UserFill;

typedef enum UserScale {
    USER_PER_LAUNCH,
    USER_PER_BLOCK,
    USER_PER_THREAD,
} UserScale;

typedef struct UserArg {
    UserArgKind kind;
    uint32_t value;             /* a number's; a buffer's bytes per scale */
    UserScale scale;
    UserFill fill;
} UserArg;

typedef struct UserKernel {
    char *name;                 /* the section's: letters and digits */
    char *where;                /* "PATH:LINE" of its section */
    char *function;             /* the kernel's name in the image */
    uint32_t block[2];          /* threads per block, x and y */
    uint32_t per_sm;            /* blocks per SM */
    uint32_t shared;            /* shared bytes per block */
    uint32_t regs;              /* registers per thread, 0: the kernel's */
    bool idempotent;            /* launched with SIMT_CMDF_IDEMPOTENT */
    UserArg args[SIMT_ARG_REGS];
    unsigned nargs;
} UserKernel;

/*
 * Parse @text, the contents of the description file @path, appending its
 * kernels to @out (a GArray of UserKernel).  Returns NULL, or a message
 * "PATH:LINE: what is wrong" the caller frees.
 */
char *user_kernels_parse(const char *path, const char *text, GArray *out);

/* Free what user_kernels_parse() put in @out, and @out. */
void user_kernels_free(GArray *out);

/*
 * Put @k's inputs in VRAM and set @r up for @blocks blocks: its results
 * are its out and inout buffers, with no reference (r->want is NULL):
 * the bench compares them with the run alone.
 */
void user_setup(Dev *d, const UserKernel *k, uint32_t blocks,
                RodiniaRun *r);

#endif
