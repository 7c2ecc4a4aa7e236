/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel images a test program gets as arguments (image-args.h).
 */
#include <stdlib.h>
#include <string.h>

#include "image-args.h"
#include "../tap.h"

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

uint8_t *image_load_flat(struct simt_image *img, const char *path, size_t size)
{
    char err[256];
    uint8_t *mem;

    if (simt_image_load(img, path, err, sizeof(err)) < 0) {
        tap_diag("%s", err);
        return NULL;
    }
    if (!img->has_meta || (uint64_t)img->base + img->size > size) {
        tap_diag("%s: no metadata note, or image outside test memory", path);
        simt_image_free(img);
        return NULL;
    }
    mem = calloc(1, size);
    if (!mem) {
        simt_image_free(img);
        return NULL;
    }
    memcpy(mem + img->base, img->bytes, img->size);
    return mem;
}
