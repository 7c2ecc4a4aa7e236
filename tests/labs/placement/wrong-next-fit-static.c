/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: block placement policies.
 *
 * Where the next block goes.  The scheduler has picked the kernel (the
 * head, simt-sched.c) and worked out how many more of its blocks fit on
 * each SM; a policy picks one of the SMs with room.  The device uses the
 * one named by its "placement" property (default "most-room", seed 001's
 * policy, which every figure in docs/ was measured with).
 *
 * To add a policy (docs/labs/placement.rst): write a pick function below,
 * add it to simt_placements[], rebuild, and run the device with
 * placement=NAME.  What a policy may read: the SMs (s->sms[i], their
 * room: what is free, blocks_of[q], kernels), the kernel
 * (s->queues[q].kernel), the preset's SM order (s->sm_order) and the
 * configuration (simt_cfg).
 * It must not change them; s->place_next is its own state, reset with
 * the device.
 */

#include "qemu/osdep.h"
#include "simt.h"
#include "simt-placement.h"
#include "simt-policy.h"

/*
 * Seed 001's "most room": the SM with room for the most further blocks
 * of the kernel; ties go to the first SM in the preset's order.
 */
static unsigned pick_most_room(SimtState *s, unsigned q, const uint32_t *room)
{
    unsigned best = s->sm_order[0];

    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        unsigned sm = s->sm_order[i];

        if (room[sm] > room[best]) {
            best = sm;
        }
    }
    return best;
}

/*
 * Round robin: the next SM in the preset's order after the one that got
 * the last block, skipping SMs without room.
 */
static unsigned pick_round_robin(SimtState *s, unsigned q, const uint32_t *room)
{
    uint32_t n = simt_cfg(s, SIMT_CFG_SM_COUNT);

    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = (s->place_next + i) % n;

        if (room[s->sm_order[at]]) {
            s->place_next = (at + 1) % n;
            return s->sm_order[at];
        }
    }
    return s->sm_order[0];
}

/*
 * Least loaded: the SM with the fewest warps resident, of any kernel,
 * among those with room; ties go to the first in the preset's order.
 * Unlike most room it spreads by load, not by what fits of this kernel.
 */
static unsigned pick_least_loaded(SimtState *s, unsigned q,
                                  const uint32_t *room)
{
    int best = -1;

    for (uint32_t i = 0; i < simt_cfg(s, SIMT_CFG_SM_COUNT); i++) {
        unsigned sm = s->sm_order[i];

        if (room[sm] && (best < 0 || s->sms[sm].room.warps >
                                     s->sms[best].room.warps)) {
            best = sm;
        }
    }
    return best < 0 ? s->sm_order[0] : best;
}

/*
 * Next fit: go on from the SM the last search ended at, so that a search
 * does not start over from SM 0 every time.
 */
static unsigned pick_next_fit(SimtState *s, unsigned q, const uint32_t *room)
{
    static uint32_t start;
    uint32_t n = simt_cfg(s, SIMT_CFG_SM_COUNT);

    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = (start + i) % n;

        if (room[s->sm_order[at]]) {
            start = at;
            return s->sm_order[at];
        }
    }
    return s->sm_order[0];
}

/* ---- the policies the "placement" property can name ---- */
static const SimtPlacement simt_placements[] = {
    { "most-room", "most room for the kernel's blocks (seed 001)",
      pick_most_room },
    { "round-robin", "next SM in order after the last one used",
      pick_round_robin },
    { "least-loaded", "fewest resident warps", pick_least_loaded },
    { "next-fit", "first SM with room from where the last search ended",
      pick_next_fit },
};

const SimtPolicyTable simt_placement_table = {
    "placement policy", simt_placements, ARRAY_SIZE(simt_placements),
    sizeof(simt_placements[0]),
};
