/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: block placement policies (which SM gets the next block).
 *
 * The scheduler (simt-sched.c) decides which kernel places a block next;
 * the device's placement policy, chosen with the "placement" property,
 * decides where.  Policies live in hw/simt/simt-placement.c, the one file
 * a student edits to add one (docs/labs/placement.rst).
 */
#ifndef HW_SIMT_PLACEMENT_H
#define HW_SIMT_PLACEMENT_H

typedef struct SimtState SimtState;

typedef struct SimtPlacement {
    const char *name;           /* the "placement" property's value */
    const char *summary;        /* one line, for the property's help */
    /*
     * The SM for the next block of queue @q's kernel.  @room[i] is how
     * many more blocks of it fit on SM i now; at least one is not 0.
     * Return an SM with room: the scheduler falls back to the first SM
     * in the preset's order with room (and says so in the log) if not.
     */
    unsigned (*pick)(SimtState *s, unsigned q, const uint32_t *room);
} SimtPlacement;

/* simt-policy.h's simt_placement_table lists them. */

#endif
