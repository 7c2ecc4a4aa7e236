/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: the timeline ring (simt-timeline.c).
 */
#ifndef HW_SIMT_SIMT_TIMELINE_H
#define HW_SIMT_SIMT_TIMELINE_H

#include "exec/hwaddr.h"
#include "migration/vmstate.h"

/* The guest's timeline ring: TRACE_LO/HI, TRACE_SIZE and TRACE_COUNT. */
typedef struct SimtTimeline {
    uint64_t base;
    uint32_t size;              /* records, 0: off */
    uint32_t count;             /* records written */
} SimtTimeline;

typedef struct SimtState SimtState;

/* Append a struct simt_trace_record (type: enum simt_trace_type). */
void simt_timeline_record(SimtState *s, unsigned type, unsigned q,
                          unsigned sm, uint32_t block, uint64_t cycle);
/* The TRACE_* registers; false if @addr is not one of them. */
bool simt_timeline_reg_read(SimtState *s, hwaddr addr, uint32_t *val);
bool simt_timeline_reg_write(SimtState *s, hwaddr addr, uint32_t val);
void simt_timeline_reset(SimtState *s);
extern const VMStateDescription vmstate_simt_timeline;

#endif /* HW_SIMT_SIMT_TIMELINE_H */
