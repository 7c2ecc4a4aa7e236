/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the device's swappable policies (block placement, preemption
 * choice, copies), chosen by name with a device property.  Each policy
 * file has a table whose entries start with the name.
 */
#ifndef HW_SIMT_POLICY_H
#define HW_SIMT_POLICY_H

typedef struct SimtPolicyTable {
    const char *what;           /* "placement policy", for messages */
    const void *entries;        /* each starts with its const char *name */
    size_t count;
    size_t size;                /* of an entry */
} SimtPolicyTable;

/*
 * The entry of @t named @name, or its first (the default) if @name is
 * NULL; NULL, with @errp saying which names there are, if none is.
 */
const void *simt_policy_pick(const SimtPolicyTable *t, const char *name,
                             Error **errp);

extern const SimtPolicyTable simt_placement_table;
extern const SimtPolicyTable simt_preempt_choice_table;
extern const SimtPolicyTable simt_copy_policy_table;

#endif
