/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the auto mode's per-block choice of preemption mechanism.
 *
 * In the auto mode (SIMT_PMODE_AUTO) the preemption engine estimates,
 * for each victim block, what each mechanism would cost; the device's
 * choice policy, chosen with the "preempt-choice" property, picks one.
 * Policies live in hw/simt/simt-preempt-choice.c, the one file a student
 * edits to add one (docs/labs/preempt-choice.rst).
 */
#ifndef HW_SIMT_PREEMPT_CHOICE_H
#define HW_SIMT_PREEMPT_CHOICE_H

/* The most options a policy is offered: flush, light, switch, drain. */
#define SIMT_PREEMPT_OPTIONS    4

/* One mechanism for one victim block, as the engine estimates it. */
typedef struct SimtPreemptOption {
    unsigned mode;      /* SIMT_PMODE_FLUSH, _LIGHT, _SWITCH or _DRAIN */
    uint64_t lat;       /* cycles until the block is off its SM */
    double ovh;         /* warp instructions the low-priority work loses */
    bool usable;        /* false: not allowed for this block now */
} SimtPreemptOption;

typedef struct SimtPreemptChoice {
    const char *name;           /* the "preempt-choice" property's value */
    const char *summary;        /* one line, for messages */
    /*
     * The index of the option to use among @n, at least one of them
     * usable; @bound is PREEMPT_BOUND, the latency the preemptor asked
     * for, in cycles.  A pick out of range or not usable is overruled
     * by the default policy (and counted in POLICY_ERRORS).
     */
    unsigned (*choose)(const SimtPreemptOption *opt, unsigned n,
                       uint32_t bound);
} SimtPreemptChoice;

/* simt-policy.h's simt_preempt_choice_table lists them. */
/* Seed 000's rule, the default: also Chimera's, whatever the property. */
unsigned simt_preempt_choose_in_bound(const SimtPreemptOption *opt,
                                      unsigned n, uint32_t bound);

#endif
