/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the auto mode's per-block choice of preemption mechanism.
 *
 * For each victim block the preemption engine (simt-preempt.c) estimates
 * four options: flush (no latency, loses the work done), lightweight and
 * full context switch (the save's bytes at the SM's bandwidth share,
 * after what is queued there; lose the work the SM could have done
 * meanwhile) and drain (the block's expected remaining time; loses
 * nothing).  The policy the "preempt-choice" property names picks one
 * (default "cheapest-in-bound", seed 000's rule over all four, with
 * which the auto figures in docs/ were measured; "seed000" is that rule
 * without the lightweight switch, as the paper ran it).  Chimera keeps
 * seed 000's rule whatever the property says.
 *
 * To add a policy (docs/labs/preempt-choice.rst): write a choose function
 * below, add it to simt_preempt_choices[], rebuild, and run the device
 * with preempt-choice=NAME.  A policy sees only its arguments (the
 * options' modes are simt-hw.h's SIMT_PMODE_*).
 */

#include "qemu/osdep.h"
#include "hw/simt/simt-hw.h"
#include "simt-preempt-choice.h"
#include "simt-policy.h"

/*
 * Seed 000: the cheapest usable option whose latency meets @bound, else
 * the fastest.
 */
unsigned simt_preempt_choose_in_bound(const SimtPreemptOption *opt,
                                      unsigned n, uint32_t bound)
{
    int best = -1;

    for (unsigned i = 0; i < n; i++) {
        bool fits = opt[i].lat <= bound;
        bool best_fits = best >= 0 && opt[best].lat <= bound;

        if (!opt[i].usable) {
            continue;
        }
        if (best < 0 || (fits && !best_fits) ||
            (fits && best_fits && opt[i].ovh < opt[best].ovh) ||
            (!fits && !best_fits && opt[i].lat < opt[best].lat)) {
            best = i;
        }
    }
    return best;
}

/* The usable option that is off its SM soonest; ties: the cheaper. */
static unsigned choose_fastest(const SimtPreemptOption *opt, unsigned n,
                               uint32_t bound)
{
    int best = -1;

    for (unsigned i = 0; i < n; i++) {
        if (opt[i].usable &&
            (best < 0 || opt[i].lat < opt[best].lat ||
             (opt[i].lat == opt[best].lat && opt[i].ovh < opt[best].ovh))) {
            best = i;
        }
    }
    return best;
}

/* The usable option that loses the least work, whatever its latency. */
static unsigned choose_cheapest(const SimtPreemptOption *opt, unsigned n,
                                uint32_t bound)
{
    int best = -1;

    for (unsigned i = 0; i < n; i++) {
        if (opt[i].usable &&
            (best < 0 || opt[i].ovh < opt[best].ovh ||
             (opt[i].ovh == opt[best].ovh && opt[i].lat < opt[best].lat))) {
            best = i;
        }
    }
    return best;
}

/*
 * Seed 000's scheme as its paper ran it: the same rule over flush,
 * context switch and drain only; the lightweight switch (seed 004's) is
 * this device's addition.
 */
static unsigned choose_seed000(const SimtPreemptOption *opt, unsigned n,
                               uint32_t bound)
{
    SimtPreemptOption without_light[SIMT_PREEMPT_OPTIONS];

    n = MIN(n, SIMT_PREEMPT_OPTIONS);
    for (unsigned i = 0; i < n; i++) {
        without_light[i] = opt[i];
        without_light[i].usable &= opt[i].mode != SIMT_PMODE_LIGHT;
    }
    return simt_preempt_choose_in_bound(without_light, n, bound);
}

/*
 * Never drain unless nothing else is usable: the usable option that
 * loses the least work, drain only when it is the one usable option.
 */
static unsigned choose_no_drain(const SimtPreemptOption *opt, unsigned n,
                                uint32_t bound)
{
    int best = -1, drain = -1;

    for (unsigned i = 0; i < n; i++) {
        if (!opt[i].usable) {
            continue;
        }
        if (opt[i].mode == SIMT_PMODE_DRAIN) {
            drain = i;
        } else if (best < 0 || opt[i].ovh < opt[best].ovh) {
            best = i;
        }
    }
    return best >= 0 ? best : drain;
}

/* ---- the policies the "preempt-choice" property can name ---- */
static const SimtPreemptChoice simt_preempt_choices[] = {
    { "cheapest-in-bound", "least lost work within the bound, else fastest "
      "(seed 000)", simt_preempt_choose_in_bound },
    { "fastest", "least latency", choose_fastest },
    { "cheapest", "least lost work, ignoring the bound", choose_cheapest },
    { "seed000", "cheapest-in-bound over flush, switch and drain only, as "
      "seed 000's paper ran it", choose_seed000 },
    { "no-drain", "least lost work, drain only if nothing else is usable",
      choose_no_drain },
};

const SimtPolicyTable simt_preempt_choice_table = {
    "preemption choice", simt_preempt_choices,
    ARRAY_SIZE(simt_preempt_choices), sizeof(simt_preempt_choices[0]),
};
