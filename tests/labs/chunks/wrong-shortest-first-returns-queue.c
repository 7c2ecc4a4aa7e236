/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: which pending copy a copy engine moves next.
 *
 * A copy engine moves copies in chunks of DMA_CHUNK bytes (simt-dma.c).
 * Between two chunks it may go on with the same copy or switch to another
 * pending one; the policy the "copy-policy" property names decides
 * (default "priority", seed 002's chunked copies, with which every figure
 * in docs/ was measured).
 *
 * To add a policy (docs/labs/chunks.rst): write a next function below,
 * add it to simt_copy_policies[], rebuild, and run the device with
 * copy-policy=NAME.  A policy sees only its arguments.
 */

#include "qemu/osdep.h"
#include "simt-copy-policy.h"
#include "simt-policy.h"

/*
 * Seed 002: the highest queue priority first, so that a high-priority
 * copy waits at most one chunk; among equals the current copy keeps the
 * engine, else the oldest goes first.
 */
unsigned simt_copy_next_by_priority(const SimtCopyPending *p, unsigned n)
{
    unsigned best = 0;

    for (unsigned i = 1; i < n; i++) {
        if (p[i].priority > p[best].priority ||
            (p[i].priority == p[best].priority && !p[best].current &&
             (p[i].current || p[i].seq < p[best].seq))) {
            best = i;
        }
    }
    return best;
}

/*
 * First come, first served: a copy keeps the engine until it is done,
 * then the oldest pending one goes; priority plays no part, as with an
 * engine that cannot be interrupted.
 */
static unsigned next_fifo(const SimtCopyPending *p, unsigned n)
{
    unsigned best = 0;

    for (unsigned i = 0; i < n; i++) {
        if (p[i].current) {
            return i;
        }
        if (p[i].seq < p[best].seq) {
            best = i;
        }
    }
    return best;
}

/*
 * Round robin by chunks: every chunk goes to another pending copy than
 * the last one if there is one (the oldest of them), whatever the
 * priorities, so the engine's time is shared equally.
 */
static unsigned next_round_robin(const SimtCopyPending *p, unsigned n)
{
    int best = -1;

    for (unsigned i = 0; i < n; i++) {
        if (!p[i].current && (best < 0 || p[i].seq < p[best].seq)) {
            best = i;
        }
    }
    return best < 0 ? 0 : best;
}

/* Shortest first: the copy with the fewest bytes left moves next. */
static unsigned next_shortest_first(const SimtCopyPending *p, unsigned n)
{
    unsigned best = 0;

    for (unsigned i = 1; i < n; i++) {
        if (p[i].left < p[best].left) {
            best = i;
        }
    }
    return p[best].queue;
}

/* ---- the policies the "copy-policy" property can name ---- */
static const SimtCopyPolicy simt_copy_policies[] = {
    { "priority", "highest priority at every chunk boundary (seed 002)",
      simt_copy_next_by_priority },
    { "fifo", "one copy at a time, oldest first", next_fifo },
    { "round-robin", "chunks in turn among the pending copies",
      next_round_robin },
    { "shortest-first", "least bytes left first", next_shortest_first },
};

const SimtPolicyTable simt_copy_policy_table = {
    "copy policy", simt_copy_policies, ARRAY_SIZE(simt_copy_policies),
    sizeof(simt_copy_policies[0]),
};
