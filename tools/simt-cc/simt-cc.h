/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt-cc: the one-step kernel compiler.  simt-cc.c drives clang, ld.lld
 * and the metadata analysis; cl-lower.c turns the bitcode clang makes of
 * an OpenCL C source into a simt kernel object's bitcode.
 */
#ifndef SIMT_CC_H
#define SIMT_CC_H

#include <stdbool.h>

struct cl_lower_options {
    const char *source;         /* the .cl file, for messages */
    const char *builtins_bc;    /* the OpenCL built-ins library */
    const char *passes;         /* new pass manager pipeline, "default<O2>" */
    bool verbose;               /* say what is done, as -v does */
};

/*
 * Read @in_bc, link the built-ins, rewrite every OpenCL kernel into a
 * simt kernel entry taking its argument block in a0 (and describe it in
 * a .simt.clargs section), put __local variables in .shared, optimise
 * and write @out_bc.  Returns 0, or -1 after printing why on stderr.
 */
int cl_lower(const char *in_bc, const char *out_bc,
             const struct cl_lower_options *opt);

#endif /* SIMT_CC_H */
