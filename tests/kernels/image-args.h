/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel images a test program gets as arguments (meson passes every
 * image of the host build), found by kernel name.
 */
#ifndef SIMT_TESTS_IMAGE_ARGS_H
#define SIMT_TESTS_IMAGE_ARGS_H

/* Keep the image paths of the command line (argv[1..argc-1]). */
void image_args_set(int argc, char **argv);

/*
 * The image for kernel @name among them: NAME.elf, or PREFIX-NAME.elf
 * for builds at other optimisation levels; NULL if there is none.
 */
const char *image_args_path(const char *name);

#endif /* SIMT_TESTS_IMAGE_ARGS_H */
