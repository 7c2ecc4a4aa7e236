/* SPDX-License-Identifier: MIT */
/*
 * The driver's UAPI header stands alone: included first, with nothing
 * before it, in C11 and in C++11, it compiles without a warning, and
 * -Wpadded finds no padding the compiler would insert in its structs
 * (so that their layout is the same for 32-bit and 64-bit userspace).
 * scripts/guest-build.sh compiles this file both ways with -Werror.
 */
#include <drm/simt_accel.h>

int main(void)
{
    return 0;
}
