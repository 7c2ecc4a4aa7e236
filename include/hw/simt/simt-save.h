/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt: the save-area codec of the preemption engine.
 *
 * Turns one block's architectural state (SimtBlockState, its warps and
 * its shared memory) into a save record as laid down in simt-hw.h
 * ("Save area records"), and back.  Plain C with no QEMU types, like the
 * warp interpreter, so that the device and the unit tests share it.
 *
 * Record layout details the simt-hw.h comment leaves open:
 *  - all fields and words are little-endian; a UNIFORM entry is one word
 *    per group, a STRIDED entry is per group its base then its stride,
 *    groups in lane order; RAW is the 32 lanes in lane order;
 *  - pattern bits of entries above 64 are zero, pc and fcsr are never
 *    DEAD, a FULL record has only RAW and DEAD entries;
 *  - reserved fields and the final padding are zero.
 */
#ifndef HW_SIMT_SAVE_H
#define HW_SIMT_SAVE_H

#include "hw/simt/simt-core.h"
#include "hw/simt/simt-hw.h"

typedef struct SimtSaveSpec {
    uint16_t format;            /* SIMT_SAVE_FULL or SIMT_SAVE_LIGHT */
    uint32_t int_regs, fp_regs; /* registers the kernel uses; both 0: all */
    /*
     * LIGHT: the kernel image's live table (simt-isa.h), NULL: every used
     * register counts as live.  A pc outside it or misaligned counts as
     * all registers live.
     */
    const uint64_t *live;
    uint32_t live_base;         /* address of live[0] */
    uint32_t live_count;        /* entries in live[] */
    uint32_t pag;               /* lanes per group: LIGHT simt_save_pag() */
    bool keep_shared;           /* shared memory stays on the SM */
} SimtSaveSpec;

typedef struct SimtSaveStats {
    uint32_t entries[4];        /* entries per enum simt_save_pattern */
    uint32_t reg_bytes;         /* bytes of encoded entries + reservations */
    uint32_t live_bytes;        /* what they would take uncompressed */
    uint32_t shared_bytes;      /* bytes of shared memory stored */
} SimtSaveStats;

/*
 * Lanes per compression group for launch @l: block_dim[0] if it is a
 * power of two from 2 to 16, else 32.  Lane i of a warp then holds thread
 * x = i % block_dim[0] of a row, so values derived from threadIdx.y/z or
 * the block are uniform per group and those derived from threadIdx.x
 * strided.  With rows of 32 threads or more (or of odd sizes) a whole
 * warp is the natural group; with rows of one thread, groups of one lane
 * would store every lane, and a whole-warp group still finds strides in
 * y-derived values.  (Seed 004's pattern analysing group, min(32,
 * smallest block dimension), adapted to the x-major thread order.)
 */
uint32_t simt_save_pag(const SimtLaunch *l);

/*
 * Exact number of bytes simt_save_encode() writes for @b, or 0 if @spec
 * is invalid (unknown format, pag not a power of two from 1 to 32).
 */
size_t simt_save_size(const SimtBlock *b, const SimtSaveSpec *spec);

/*
 * Write @b's record (linear block index @block) to @out.  Returns the
 * bytes written, 0 if @cap is too small or @spec invalid.  @stats may be
 * NULL.  Call it between simt_warp_run() calls of a block that is still
 * running (neither faulted nor done).
 */
size_t simt_save_encode(const SimtBlock *b, uint32_t block,
                        const SimtSaveSpec *spec, uint8_t *out, size_t cap,
                        SimtSaveStats *stats);

/*
 * Restore the record @in of @len bytes into @b, which the caller has set
 * up with simt_block_init() for the same launch (warps, shared buffer,
 * desc with the new SM and local address).  The record is treated as
 * hostile: besides its layout, its counts must agree with its warps and
 * the block must have a runnable thread.  Returns NULL on success, else
 * a short reason; on failure @b holds garbage that is safe to free but
 * must not run.  st.desc and st.cycle are the caller's and are left
 * alone.  A record that kept shared memory on the SM leaves b->shared
 * untouched; as simt_block_init() zeroes that buffer, the kept bytes
 * must be put back (or b->shared pointed at them) after it.
 */
const char *simt_save_decode(SimtBlock *b, uint32_t block, const uint8_t *in,
                             size_t len);

#endif /* HW_SIMT_SAVE_H */
