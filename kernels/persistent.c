// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Persistent threads: a fixed grid pulls work items from a global queue
 * head with atomicAdd until it is empty, so blocks live as long as the
 * whole job and re-running one would redo taken items.  The kind of
 * kernel seed 004 shows draining and flushing cannot preempt.  Each item
 * gets a result that does not depend on which thread took it.
 */
#include "simt.h"

KERNEL void persistent(unsigned *head, uint32_t nitems, uint32_t *out,
                       uint32_t rounds)
{
    for (;;) {
        uint32_t item = atomicAdd(head, 1);
        uint32_t x = item;

        if (item >= nitems) {
            return;
        }
        for (uint32_t k = 0; k < rounds; k++) {
            x = x * 747796405u + 2891336453u;
            x ^= x >> 16;
        }
        out[item] = x;
    }
}
