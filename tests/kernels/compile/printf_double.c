// SPDX-License-Identifier: GPL-2.0-or-later
/* printf converts by type: a double argument has no conversion. */
#include "simt.h"

KERNEL void printf_double(void)
{
    printf("%f\n", 1.5);
}
