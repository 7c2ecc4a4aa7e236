// SPDX-License-Identifier: GPL-2.0-or-later
/* Built with -march=rv32imafc: compressed instructions are refused. */
#include "simt.h"

KERNEL void rvc(uint32_t *out)
{
    out[globalIdx()] = globalIdx() + 1;
}
