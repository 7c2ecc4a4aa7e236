/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hardware contract headers (include/hw/simt/) are plain C and include
 * <stdint.h>, which a kernel build (-nostdinc) does not have.  This file is
 * found first on the module's include path and maps it to the kernel's
 * fixed-width types, so the driver includes the contract unchanged.
 */
#ifndef SIMT_COMPAT_STDINT_H
#define SIMT_COMPAT_STDINT_H

#include <linux/types.h>

#endif /* SIMT_COMPAT_STDINT_H */
