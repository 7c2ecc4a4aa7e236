/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Dead-register scrambling runs for the kernel tests; see scramble.h.
 */
#include "scramble.h"

#include <stdlib.h>
#include <string.h>

static void scramble(SimtWarp *w, scramble_live_fn live_at,
                     const void *opaque, uint32_t salt)
{
    unsigned lane, r;

    for (lane = 0; lane < SIMT_WARP_SIZE; lane++) {
        uint64_t live;

        if (w->exited & (1u << lane)) {
            continue;
        }
        live = live_at(opaque, w->pc[lane]);
        for (r = 0; r < 32; r++) {
            if (r && !(live & ((uint64_t)1 << r))) {
                w->x[r][lane] = 0xdead0000u ^ (salt * 0x9e3779b9u) ^ r;
            }
            if (!(live & ((uint64_t)1 << (32 + r)))) {
                w->f[r][lane] = 0x7f800001u + (salt ^ r);
            }
        }
    }
}

int run_scrambled(const SimtLaunch *l, const SimtMem *mem,
                  uint32_t local_addr, uint64_t max_warp_insns,
                  scramble_live_fn live, const void *opaque,
                  SimtGridResult *res)
{
    unsigned nwarps = simt_launch_warps(l);
    SimtWarp *warps = calloc(nwarps, sizeof(*warps));
    uint8_t *shared = malloc(l->shared_size ? l->shared_size : 1);
    SimtBlockDesc desc = { .local_addr = local_addr };
    uint32_t nblocks = l->grid_dim[0] * l->grid_dim[1] * l->grid_dim[2];
    uint32_t blk, salt = 1;
    uint64_t steps = 0;
    SimtCode code;
    SimtBlock b;
    int ret = -1;

    memset(res, 0, sizeof(*res));
    if (!warps || !shared || simt_launch_check(l) ||
        simt_code_init(&code, l->code_base, l->code_size) < 0) {
        free(warps);
        free(shared);
        return -1;
    }
    for (blk = 0; blk < nblocks; blk++) {
        unsigned w;

        desc.block_idx[0] = blk % l->grid_dim[0];
        desc.block_idx[1] = blk / l->grid_dim[0] % l->grid_dim[1];
        desc.block_idx[2] = blk / l->grid_dim[0] / l->grid_dim[1];
        simt_block_init(&b, l, &desc, &code, mem, warps, shared);
        for (w = 0; w < nwarps; w++) {
            scramble(&warps[w], live, opaque, salt++);
        }
        while (b.st.status == SIMT_RUNNING && steps < max_warp_insns) {
            uint64_t progress = 0;

            for (w = 0; w < nwarps; w++) {
                uint64_t n = simt_warp_run(&b, w, 1);

                if (n) {
                    scramble(&warps[w], live, opaque, salt++);
                }
                progress += n;
            }
            steps += progress;
            if (!progress) {
                break;
            }
        }
        res->warp_insns += b.st.warp_insns;
        res->thread_insns += b.st.thread_insns;
        if (b.st.status != SIMT_DONE) {
            res->fault = b.st.status == SIMT_FAULTED ? b.st.fault :
                                                       SIMT_FAULT_WATCHDOG;
            res->fault_pc = b.st.fault_pc;
            goto out;
        }
    }
    ret = 0;
out:
    simt_code_destroy(&code);
    free(warps);
    free(shared);
    return ret;
}
