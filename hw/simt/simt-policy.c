/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: picking a swappable policy by the name a device property gives
 * (simt-placement.c, simt-preempt-choice.c, simt-copy-policy.c).
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "simt-policy.h"

static const char *entry_name(const SimtPolicyTable *t, size_t i)
{
    return *(const char *const *)((const char *)t->entries + i * t->size);
}

const void *simt_policy_pick(const SimtPolicyTable *t, const char *name,
                             Error **errp)
{
    for (size_t i = 0; i < t->count; i++) {
        if (!name || !strcmp(entry_name(t, i), name)) {
            return (const char *)t->entries + i * t->size;
        }
    }
    error_setg(errp, "simt: unknown %s '%s'", t->what, name);
    error_append_hint(errp, "Choose one of:");
    for (size_t i = 0; i < t->count; i++) {
        error_append_hint(errp, " %s", entry_name(t, i));
    }
    error_append_hint(errp, "\n");
    return NULL;
}
