/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel images a test program gets as arguments (meson passes every
 * image of the host build), found by kernel name.
 */
#ifndef SIMT_TESTS_IMAGE_ARGS_H
#define SIMT_TESTS_IMAGE_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "simt-elf.h"

/* Keep the image paths of the command line (argv[1..argc-1]). */
void image_args_set(int argc, char **argv);

/*
 * The image for kernel @name among them: NAME.elf, or PREFIX-NAME.elf
 * for builds at other optimisation levels; NULL if there is none.
 */
const char *image_args_path(const char *name);

/*
 * Read the image at @path into @img and copy it to its link address in a
 * new zeroed flat memory of @size bytes (free() it); NULL, said as a TAP
 * diagnostic, if it cannot be read, has no metadata note or does not fit.
 */
uint8_t *image_load_flat(struct simt_image *img, const char *path, size_t size);

#endif /* SIMT_TESTS_IMAGE_ARGS_H */
