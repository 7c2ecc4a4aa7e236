// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernels for the device MMU qtests (simt-mem-test): plain loads and
 * stores at addresses the test chooses, so that each access goes through
 * the queue's context and can be made to hit or fault a given page;
 * and wait_word, for a look at a device whose kernel is held.
 */
#include "simt.h"

/* Thread 0 stores @val at @addr. */
KERNEL void store_word(uint32_t *addr, uint32_t val)
{
    if (globalIdx() == 0) {
        *addr = val;
    }
}

/* dst[i] = src[i] for i < n, grid-stride. */
KERNEL void copy_words(const uint32_t *src, uint32_t *dst, uint32_t n)
{
    uint32_t stride = gridDim.x * blockDim.x;

    for (uint32_t i = globalIdx(); i < n; i += stride) {
        dst[i] = src[i];
    }
}

/*
 * Every thread t of the grid adds t + 1 to p[t % n] and raises p[n] to t,
 * atomically: the results do not depend on the order.
 */
KERNEL void atomic_words(uint32_t *p, uint32_t n)
{
    uint32_t t = globalIdx();

    atomicAdd(&p[t % n], t + 1);
    atomicMax(&p[n], t);
}

/*
 * Every thread loads @word until it holds @value, which the host stores
 * while the kernel runs (simt-run --hold --release): a kernel that keeps
 * its queue busy for exactly as long as someone looks.
 */
KERNEL void wait_word(const uint32_t *word, uint32_t value)
{
    const volatile uint32_t *w = word;

    while (*w != value) {
        /* wait */
    }
}
