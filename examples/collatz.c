/* SPDX-License-Identifier: MIT */
/*
 * Deep data-dependent divergence: for every start value, the Collatz
 * steps to 1 (a loop whose trip count is the lane's own), with nested
 * data-dependent branches inside it: odd/even, and on the odd path a
 * second branch on the value mod 3 and an inner loop (the trailing zeros
 * of 3x + 1, divided out at once) of its own data-dependent length.
 * Every lane also walks a second nested path afterwards: the decimal
 * digits of its peak, summed, squaring the odd digits.
 *
 * out[4 * i ...] = steps, peak, odd steps where x % 3 == 1, digit score.
 */
#include <simt.h>

KERNEL void collatz(const uint32_t *start, uint32_t *out, uint32_t n)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i >= n)
        return;
    uint32_t x = start[i], steps = 0, peak = x, odd1 = 0, score = 0;

    while (x != 1) {
        if (x & 1) {
            if (x % 3 == 1)
                odd1++;
            x = 3 * x + 1;
            steps++;
            if (x > peak)
                peak = x;
            /* halve while even: a data-dependent inner loop */
            while (!(x & 1)) {
                x >>= 1;
                steps++;
            }
        } else {
            x >>= 1;
            steps++;
        }
    }
    for (uint32_t p = peak; p; p /= 10) {
        uint32_t d = p % 10;
        if (d & 1)
            score += d * d;
        else if (d)
            score += d;
        else
            score += 100;
    }
    out[4 * i] = steps;
    out[4 * i + 1] = peak;
    out[4 * i + 2] = odd1;
    out[4 * i + 3] = score;
}
