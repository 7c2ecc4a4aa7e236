/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Run a launch on the warp interpreter one warp instruction at a time,
 * overwriting after every step each register a live table calls dead at
 * a lane's pc, as a context switch that saves only live registers would.
 * If the table is right, results do not change.
 */
#ifndef SIMT_TESTS_SCRAMBLE_H
#define SIMT_TESTS_SCRAMBLE_H

#include "hw/simt/simt-core.h"

/* Live registers at @pc (bit n: xn, bit 32 + n: fn), all ones if unknown */
typedef uint64_t (*scramble_live_fn)(const void *opaque, uint32_t pc);

/*
 * Like simt_run_grid(): 0 when every block finished, else the fault (or
 * SIMT_FAULT_WATCHDOG after @max_warp_insns) in @res and -1.
 */
int run_scrambled(const SimtLaunch *l, const SimtMem *mem,
                  uint32_t local_addr, uint64_t max_warp_insns,
                  scramble_live_fn live, const void *opaque,
                  SimtGridResult *res);

#endif /* SIMT_TESTS_SCRAMBLE_H */
