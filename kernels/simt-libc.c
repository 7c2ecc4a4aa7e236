// SPDX-License-Identifier: MIT
/*
 * The few C library functions clang may call on its own (struct copies,
 * zeroing loops), linked into every kernel image.  Kept simple: kernels
 * rarely need them and the metadata tool analyses them like any code.
 */
#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    while (n--) {
        *d++ = *s++;
    }
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    if (d < s) {
        return memcpy(dst, src, n);
    }
    while (n--) {
        d[n] = s[n];
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;

    while (n--) {
        *d++ = (unsigned char)c;
    }
    return dst;
}
