/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stand-in for QEMU's qemu/osdep.h when the SIMT core is built outside
 * QEMU (unit tests, benchmark).  The core uses only standard C, so the
 * standard headers QEMU's osdep.h would pull in are all it needs.
 */
#ifndef SIMT_STANDALONE_OSDEP_H
#define SIMT_STANDALONE_OSDEP_H

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(x)           (sizeof(x) / sizeof((x)[0]))
#define QEMU_BUILD_BUG_ON(x)    _Static_assert(!(x), #x)

#endif /* SIMT_STANDALONE_OSDEP_H */
