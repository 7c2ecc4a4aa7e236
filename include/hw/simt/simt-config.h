/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the machine being modelled (SM limits, clock, memory, queues),
 * from a named preset with per-field overrides.
 */
#ifndef HW_SIMT_CONFIG_H
#define HW_SIMT_CONFIG_H

#include "hw/simt/simt-hw.h"
#include "hw/simt/simt-core.h"

/* Order in which the block scheduler breaks ties between SMs. */
typedef enum SimtTieBreak {
    SIMT_TIEBREAK_ASCENDING,        /* 0, 1, 2, ... */
    SIMT_TIEBREAK_EVENS_ODDS,       /* 0, 2, 4, ..., 1, 3, 5, ... */
} SimtTieBreak;

/* The fields a user may override, in property order. */
typedef enum SimtConfigField {
    SIMT_CFG_SM_COUNT,
    SIMT_CFG_SM_THREADS,
    SIMT_CFG_SM_WARPS,
    SIMT_CFG_SM_BLOCKS,
    SIMT_CFG_SM_REGS,
    SIMT_CFG_SM_SHARED,
    SIMT_CFG_KERNEL_SLOTS,
    SIMT_CFG_CLOCK_MHZ,
    SIMT_CFG_MEM_BW,
    SIMT_CFG_ISSUE_RATE,
    SIMT_CFG_QUEUES,
    SIMT_CFG_CONTEXTS,
    SIMT_CFG_COPY_ENGINES,
    SIMT_CFG_COPY_BW,
    SIMT_CFG_NR,
} SimtConfigField;

typedef struct SimtConfig {
    uint32_t field[SIMT_CFG_NR];
    SimtTieBreak tiebreak;
} SimtConfig;

/*
 * A burst, the instructions one warp runs before its SM's issue port
 * moves on (hw/simt/simt-sm.c): at most this many, issued less than
 * SIMT_BURST_CYCLES after it began, so that warps' clocks stay near their
 * ports' and take the memory pipe in about the order of time.
 * bench/simt-spin-bench.c drives the interpreter the same way.
 */
#define SIMT_BURST_INSNS        128
#define SIMT_BURST_CYCLES       256

typedef struct SimtConfigFieldInfo {
    const char *name;           /* QOM property name */
    const char *description;
    uint32_t min, max;
} SimtConfigFieldInfo;

extern const SimtConfigFieldInfo simt_config_fields[SIMT_CFG_NR];

/* Preset by name ("default", "gtx480", ...), or -1. */
int simt_preset_lookup(const char *name);
const char *simt_preset_name(int preset);
/* A preset's configuration. */
void simt_preset_config(int preset, SimtConfig *cfg);
/* A preset's instruction costs and latencies (bandwidth: the caller's). */
void simt_preset_timing(int preset, SimtTiming *t);
/* The SM ids in tie-break order: order[0] is tried first. */
void simt_config_sm_order(const SimtConfig *cfg, uint32_t *order);

#endif /* HW_SIMT_CONFIG_H */
