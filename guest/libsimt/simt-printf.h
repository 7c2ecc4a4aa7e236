/* SPDX-License-Identifier: MIT */
/*
 * Device printf's records (include/simt-printf-buffer.h) printed on
 * stdout: the code both libsimt backends share (simt-printf.c), each
 * giving its own way to read strings in device memory.  Not part of the
 * API.  Licensed under the MIT licence, as written out in libsimt.h.
 */
#ifndef SIMT_PRINTF_H
#define SIMT_PRINTF_H

#include <stdint.h>

/* The NUL-terminated string at device address @addr, or NULL. */
typedef const char *simt_printf_string_fn(void *opaque, uint32_t addr);

/*
 * Print the records of the printf buffer @buf (its SIMT_PRINTF_BYTES
 * bytes as the kernels left them) on stdout, in the order they were
 * reserved, reading format strings and %s arguments through @string;
 * then, if records were dropped, say on stderr how many bytes were lost.
 * Emptying the buffer (its first word set to 0) is the caller's.
 */
void simt_printf_print(const uint8_t *buf, simt_printf_string_fn *string, void *opaque);

#endif /* SIMT_PRINTF_H */
