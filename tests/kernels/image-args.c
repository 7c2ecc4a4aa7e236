/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel images a test program gets as arguments (image-args.h).
 */
#include <string.h>

#include "image-args.h"

static const char *const *images;
static int nimages;

void image_args_set(int argc, char **argv)
{
    images = (const char *const *)argv + 1;
    nimages = argc - 1;
}

const char *image_args_path(const char *name)
{
    size_t len = strlen(name);
    int i;

    for (i = 0; i < nimages; i++) {
        const char *base = strrchr(images[i], '/');
        const char *dash;

        base = base ? base + 1 : images[i];
        dash = strrchr(base, '-');
        base = dash ? dash + 1 : base;
        if (strncmp(base, name, len) == 0 && strcmp(base + len, ".elf") == 0) {
            return images[i];
        }
    }
    return NULL;
}
