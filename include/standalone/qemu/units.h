/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stand-in for QEMU's qemu/units.h outside QEMU (see osdep.h here). */
#ifndef SIMT_STANDALONE_UNITS_H
#define SIMT_STANDALONE_UNITS_H

#define KiB     (INT64_C(1) << 10)
#define MiB     (INT64_C(1) << 20)
#define GiB     (INT64_C(1) << 30)

#endif /* SIMT_STANDALONE_UNITS_H */
