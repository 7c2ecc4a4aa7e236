// SPDX-License-Identifier: GPL-2.0-or-later
// A dense switch, which clang turns into a jump table unless told not to
// (simt-meta refuses indirect jumps it cannot resolve).
__kernel void dense_switch(__global int *x)
{
    int r;

    switch (x[get_global_id(0)]) {
    case 0: r = 11; break;
    case 1: r = 7; break;
    case 2: r = 99; break;
    case 3: r = x[3] + 5; break;
    case 4: r = 123; break;
    case 5: r = x[1] * 3; break;
    case 6: r = 77; break;
    case 7: r = x[2] - 1; break;
    default: r = 0;
    }
    x[get_global_id(0) + 8] = r;
}
