/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: which pending copy a copy engine moves next.
 *
 * At every chunk boundary a copy engine (simt-dma.c) asks the device's
 * copy policy, chosen with the "copy-policy" property, which copy its
 * next chunk belongs to.  Policies live in hw/simt/simt-copy-policy.c,
 * the one file a student edits to add one (docs/labs/chunks.rst).
 */
#ifndef HW_SIMT_COPY_POLICY_H
#define HW_SIMT_COPY_POLICY_H

/* A copy the engine may move next. */
typedef struct SimtCopyPending {
    unsigned queue;             /* whose copy */
    uint32_t priority;          /* its queue's, when it was submitted */
    uint64_t seq;               /* submission order: lower is older */
    uint64_t left;              /* bytes it still has to move */
    bool current;               /* the engine's last chunk was this copy's */
} SimtCopyPending;

typedef struct SimtCopyPolicy {
    const char *name;           /* the "copy-policy" property's value */
    const char *summary;        /* one line, for messages */
    /*
     * The index of the copy to move next among @n (at least one), in
     * queue order.  A pick out of range is overruled by the default
     * policy (and counted in POLICY_ERRORS).
     */
    unsigned (*next)(const SimtCopyPending *p, unsigned n);
} SimtCopyPolicy;

/* simt-policy.h's simt_copy_policy_table lists them. */
/* The default: highest priority, the current copy keeps it among equals. */
unsigned simt_copy_next_by_priority(const SimtCopyPending *p, unsigned n);

#endif
