/* SPDX-License-Identifier: GPL-2.0-or-later OR MIT */
/*
 * The buffer of device printf, shared by the kernel side (printf in
 * kernels/include/simt.h) and libsimt, which prints the records at the
 * wait for a launch (guest/libsimt/simt-printf.c, for both backends).
 *
 * An image whose kernels call printf has the buffer in its .bss, as the
 * symbol SIMT_PRINTF_SYMBOL of SIMT_PRINTF_BYTES bytes.  Its first word
 * counts the bytes of records reserved so far; it keeps counting past the
 * capacity, so the printer knows records were dropped.  Records start at
 * byte SIMT_PRINTF_HEADER, each a multiple of 8 bytes, in the order they
 * were reserved:
 *
 *   word 0        the address of the format string
 *   word 1        n, the number of arguments (at most SIMT_PRINTF_MAX_ARGS)
 *   words 2..     n 64-bit arguments, low word first: integers extended to
 *                 64 bits as their type says, floats as their 32-bit
 *                 pattern, pointers as their address
 */
#ifndef SIMT_PRINTF_BUFFER_H
#define SIMT_PRINTF_BUFFER_H

#define SIMT_PRINTF_SYMBOL      "__simt_printf_buffer"
#define SIMT_PRINTF_BYTES       0x100000        /* an assembler constant */
#define SIMT_PRINTF_HEADER      8
#define SIMT_PRINTF_MAX_ARGS    12

#endif /* SIMT_PRINTF_BUFFER_H */
