// SPDX-License-Identifier: MIT
/*
 * Device printf's records printed on stdout, as CUDA prints them at a
 * synchronisation: the formatting both libsimt backends share (the
 * device's, guest/libsimt/simt.c, and the interpreter's,
 * tools/simt-run/simt-interp.c).  The layout of the buffer is
 * include/simt-printf-buffer.h.
 *
 * Copyright the simt authors.  Licensed under the MIT licence, as
 * written out in libsimt.h.
 */
#include <stdio.h>
#include <string.h>

#include "simt-printf-buffer.h"
#include "simt-printf.h"

/*
 * Print one record: @fmt with the arguments @args (@nargs 64-bit words),
 * converted as the conversion's length modifier says; a float argument
 * is its 32-bit pattern.  %n is not supported (it would write device
 * memory) and prints nothing.
 */
static void print_record(simt_printf_string_fn *string, void *opaque, const char *fmt,
			 uint32_t nargs, const uint8_t *args)
{
	uint32_t next = 0;

	while (*fmt) {
		char spec[64], len[3] = "";
		size_t n = 0;
		uint64_t v = 0;
		const char *s;
		char conv, ptr[16];

		if (*fmt != '%') {
			putchar(*fmt++);
			continue;
		}
		spec[n++] = *fmt++;
		while (*fmt && strchr("-+ #0", *fmt) && n < 8)
			spec[n++] = *fmt++;
		for (int part = 0; part < 2; part++) {
			if (part == 1) {
				if (*fmt != '.')
					break;
				spec[n++] = *fmt++;
			}
			if (*fmt == '*') {
				int value;

				/* Written into the spec: one printf per type below. */
				fmt++;
				v = 0;
				if (next < nargs)
					memcpy(&v, args + 8 * next++, 8);
				value = (int)(uint32_t)v;
				if (part == 1 && value < 0)
					n--;	/* a negative precision is none */
				else
					n += snprintf(spec + n, 12, "%d", value);
			} else {
				while (*fmt >= '0' && *fmt <= '9' && n < 40)
					spec[n++] = *fmt++;
			}
		}
		while (*fmt && strchr("hljztL", *fmt) && strlen(len) < 2)
			strncat(len, fmt++, 1);
		conv = *fmt;
		if (!conv)
			break;
		fmt++;
		if (conv == '%') {
			putchar('%');
			continue;
		}
		if (!strchr("diouxXcfFeEgGaAsp", conv)) {
			fwrite(spec, 1, n, stdout);	/* not a conversion: as written */
			fputs(len, stdout);
			putchar(conv);
			continue;
		}
		v = 0;
		if (next < nargs)
			memcpy(&v, args + 8 * next++, 8);
		if (strchr("di", conv)) {
			long long x = !strcmp(len, "ll") || !strcmp(len, "j") ? (long long)v :
				      !strcmp(len, "hh") ? (signed char)v :
				      !strcmp(len, "h") ? (short)v : (int32_t)v;

			memcpy(spec + n, "lld", 4);
			spec[n + 2] = conv;
			printf(spec, x);
			continue;
		}
		if (strchr("ouxX", conv)) {
			unsigned long long x = !strcmp(len, "ll") || !strcmp(len, "j") ? v :
					       !strcmp(len, "hh") ? (unsigned char)v :
					       !strcmp(len, "h") ? (unsigned short)v : (uint32_t)v;

			memcpy(spec + n, "llu", 4);
			spec[n + 2] = conv;
			printf(spec, x);
			continue;
		}
		if (strchr("fFeEgGaA", conv)) {
			uint32_t bits = (uint32_t)v;
			float f;

			memcpy(&f, &bits, 4);
			spec[n] = conv;
			spec[n + 1] = 0;
			printf(spec, (double)f);
			continue;
		}
		if (conv == 'c') {
			spec[n] = 'c';
			spec[n + 1] = 0;
			printf(spec, (int)(unsigned char)v);
			continue;
		}
		/* %s and %p: a device string, or the address as 0x... */
		snprintf(ptr, sizeof(ptr), "0x%x", (uint32_t)v);
		s = conv == 'p' ? ptr : string(opaque, (uint32_t)v);
		if (!s)
			s = "(not a device string)";
		spec[n] = 's';
		spec[n + 1] = 0;
		printf(spec, s);
	}
}

void simt_printf_print(const uint8_t *buf, simt_printf_string_fn *string, void *opaque)
{
	uint32_t used, at = SIMT_PRINTF_HEADER;

	memcpy(&used, buf, 4);
	while (at - SIMT_PRINTF_HEADER < used && at + 8 <= SIMT_PRINTF_BYTES) {
		uint32_t fmt_addr, nargs;
		const char *fmt;

		memcpy(&fmt_addr, buf + at, 4);
		memcpy(&nargs, buf + at + 4, 4);
		/* 0: reserved but not written (dropped, or the thread faulted) */
		if (!fmt_addr || nargs > SIMT_PRINTF_MAX_ARGS ||
		    at + 8 + 8 * nargs > SIMT_PRINTF_BYTES)
			break;
		fmt = string(opaque, fmt_addr);
		if (fmt)
			print_record(string, opaque, fmt, nargs, buf + at + 8);
		else
			printf("(printf: no format string at 0x%08x)\n", fmt_addr);
		at += 8 + 8 * nargs;
	}
	fflush(stdout);
	if (used > SIMT_PRINTF_BYTES - SIMT_PRINTF_HEADER)
		fprintf(stderr, "simt-run: the printf buffer (%u bytes) is full: %u bytes of records lost\n",
			SIMT_PRINTF_BYTES, used - (at - SIMT_PRINTF_HEADER));
}
