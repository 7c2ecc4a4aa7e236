// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Device printf (simt.h): records in the image's buffer, printed by the
 * runner after the launch.  tests/runner/test-simt-run.sh checks the
 * output of each kernel.
 */
#include "simt.h"

/*
 * Thread i prints its values with integers of each width, floats, strings
 * from the image and from a buffer, a character and a pointer, and stores
 * printf's result (the number of arguments) in ret[i].
 */
__global__ void print_values(const int *in, const float *f, const char *name,
                             int *ret)
{
    uint32_t i = globalIdx();

    ret[i] = printf("%u: %d %5x %-4hhd| %.3f %e %s %s %c %lld %p %%\n",
                    i, in[i], (unsigned)in[i], (signed char)in[i], f[i],
                    f[i], "image", name, 'a' + (int)i,
                    (long long)in[i] * 1000000000LL, (const void *)f);
}

/*
 * Every thread prints @n lines; *@lost counts the calls that found the
 * buffer full (printf returned -1).
 */
__global__ void print_flood(uint32_t n, unsigned *lost)
{
    for (uint32_t k = 0; k < n; k++) {
        if (printf("%u %u\n", globalIdx(), k) < 0) {
            atomicAdd(lost, 1u);
        }
    }
}

/* Widths and precisions from arguments ('*'), a negative one among them. */
__global__ void print_stars(const int *w)
{
    printf("%*d|%-*d|%.*f|%.*f|%*s|\n", w[0], 42, w[1], 7, w[2], 1.5f, w[3],
           2.25f, w[1], "ab");
}
