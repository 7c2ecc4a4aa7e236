/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * simt: presets, named configurations of the GPUs the seed papers used.
 *
 * Figures are the papers' (seed 000/004 Table 4.1 and Table I for the
 * GTX480; seed 001 Table A.1 for the others) where they give them, and
 * the public specifications of those parts otherwise.  docs/specs/simt.rst
 * lists them with their sources.
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "hw/simt/simt-config.h"

const SimtConfigFieldInfo simt_config_fields[SIMT_CFG_NR] = {
    [SIMT_CFG_SM_COUNT] = { "sm-count", "number of SMs", 1, 256 },
    [SIMT_CFG_SM_THREADS] = { "sm-threads", "threads per SM", 32, 4096 },
    [SIMT_CFG_SM_WARPS] = { "sm-warps", "warps per SM", 1, 128 },
    [SIMT_CFG_SM_BLOCKS] = { "sm-blocks", "thread blocks per SM", 1, 64 },
    [SIMT_CFG_SM_REGS] = { "sm-regs", "32-bit registers per SM",
                           64, 262144 },
    [SIMT_CFG_SM_SHARED] = { "sm-shared", "shared memory bytes per SM",
                             0, 256 * KiB },
    [SIMT_CFG_KERNEL_SLOTS] = { "kernel-slots",
                                "kernels resident per SM at once", 1, 8 },
    [SIMT_CFG_CLOCK_MHZ] = { "clock-mhz", "device clock in MHz", 1, 10000 },
    [SIMT_CFG_MEM_BW] = { "mem-bandwidth",
                          "VRAM bandwidth in bytes per device cycle",
                          1, 65536 },
    [SIMT_CFG_ISSUE_RATE] = { "issue-rate",
                              "warp instructions an SM issues per cycle",
                              1, 8 },
    [SIMT_CFG_QUEUES] = { "queues", "hardware queues", 1, SIMT_MAX_QUEUES },
    [SIMT_CFG_CONTEXTS] = { "contexts", "hardware contexts (address spaces)",
                            1, SIMT_MAX_CONTEXTS },
    [SIMT_CFG_COPY_ENGINES] = { "copy-engines", "copy (DMA) engines",
                                1, SIMT_MAX_COPY_ENGINES },
    [SIMT_CFG_COPY_BW] = { "copy-bandwidth",
                           "bytes a copy engine moves per device cycle",
                           1, 65536 },
};

#define PRESET(sms, thr, warps, blocks, regs, shared, mhz, bw, issue, \
               queues, copy_bw, tb)                                   \
    {                                                                 \
        .field = {                                                    \
            [SIMT_CFG_SM_COUNT] = (sms),                              \
            [SIMT_CFG_SM_THREADS] = (thr),                            \
            [SIMT_CFG_SM_WARPS] = (warps),                            \
            [SIMT_CFG_SM_BLOCKS] = (blocks),                          \
            [SIMT_CFG_SM_REGS] = (regs),                              \
            [SIMT_CFG_SM_SHARED] = (shared),                          \
            [SIMT_CFG_KERNEL_SLOTS] = 2,                              \
            [SIMT_CFG_CLOCK_MHZ] = (mhz),                             \
            [SIMT_CFG_MEM_BW] = (bw),                                 \
            [SIMT_CFG_ISSUE_RATE] = (issue),                          \
            [SIMT_CFG_QUEUES] = (queues),                             \
            [SIMT_CFG_CONTEXTS] = 16,                                 \
            [SIMT_CFG_COPY_ENGINES] = 2,                              \
            [SIMT_CFG_COPY_BW] = (copy_bw),                           \
        },                                                            \
        .tiebreak = (tb),                                             \
    }

static const struct simt_preset_name simt_preset_names[] = {
    SIMT_PRESET_NAMES(SIMT_PRESET_NAME)
};
QEMU_BUILD_BUG_ON(ARRAY_SIZE(simt_preset_names) != SIMT_PRESET_NR);

static const SimtConfig simt_presets[SIMT_PRESET_NR] = {
    [SIMT_PRESET_DEFAULT] =
        PRESET(4, 1024, 32, 8, 32768, 48 * KiB, 1000, 64, 1, 4, 8,
               SIMT_TIEBREAK_ASCENDING),
    /* 177.4 GB/s at 1.4 GHz: 127 bytes per cycle; two warp schedulers. */
    [SIMT_PRESET_GTX480] =
        PRESET(15, 1536, 48, 8, 32768, 48 * KiB, 1400, 127, 2, 8, 4,
               SIMT_TIEBREAK_ASCENDING),
    /*
     * Seed 001 runs its Pascal experiments on a 5-SM part: a GTX 1080's
     * SMs, each with its share of the card's 320 GB/s (20 SMs, 1607 MHz).
     */
    [SIMT_PRESET_PASCAL5] =
        PRESET(5, 2048, 64, 32, 65536, 96 * KiB, 1607, 50, 4, 8, 8,
               SIMT_TIEBREAK_ASCENDING),
    /* Seed 001 does not report Volta's order; ascending is assumed. */
    [SIMT_PRESET_VOLTA80] =
        PRESET(80, 2048, 64, 32, 65536, 96 * KiB, 1380, 652, 4, 8, 8,
               SIMT_TIEBREAK_ASCENDING),
    [SIMT_PRESET_TURING68] =
        PRESET(68, 1024, 32, 16, 65536, 64 * KiB, 1350, 456, 4, 8, 8,
               SIMT_TIEBREAK_EVENS_ODDS),
    /*
     * Seed 001's table gives 64 warps, which 1536 threads cannot fill;
     * warps = threads / 32 as its digest advises.  Order not reported:
     * evens then odds like its predecessor Turing is assumed.
     */
    [SIMT_PRESET_AMPERE82] =
        PRESET(82, 1536, 48, 16, 65536, 100 * KiB, 1395, 671, 4, 8, 16,
               SIMT_TIEBREAK_EVENS_ODDS),
};

int simt_preset_lookup(const char *name)
{
    for (int i = 0; i < SIMT_PRESET_NR; i++) {
        if (!strcmp(name, simt_preset_names[i].name)) {
            return simt_preset_names[i].preset;
        }
    }
    return -1;
}

const char *simt_preset_name(int preset)
{
    for (int i = 0; i < SIMT_PRESET_NR; i++) {
        if (simt_preset_names[i].preset == preset) {
            return simt_preset_names[i].name;
        }
    }
    return NULL;
}

void simt_preset_config(int preset, SimtConfig *cfg)
{
    *cfg = simt_presets[preset];
}

void simt_config_sm_order(const SimtConfig *cfg, uint32_t *order)
{
    uint32_t n = cfg->field[SIMT_CFG_SM_COUNT];
    uint32_t i = 0;

    switch (cfg->tiebreak) {
    case SIMT_TIEBREAK_EVENS_ODDS:
        for (uint32_t sm = 0; sm < n; sm += 2) {
            order[i++] = sm;
        }
        for (uint32_t sm = 1; sm < n; sm += 2) {
            order[i++] = sm;
        }
        break;
    case SIMT_TIEBREAK_ASCENDING:
        for (uint32_t sm = 0; sm < n; sm++) {
            order[i++] = sm;
        }
        break;
    }
}

/*
 * The latency model per preset (docs/specs/simt.rst, "Timing model"):
 * issue cycles per warp instruction on one port (32 lanes over the
 * port's share of the class's units), result latencies, global memory
 * latency.  Published figures where they exist, cited in the docs.
 */
#define LAT(alu, mul, div, fpu, fdiv, shm, shatom, gmem, gatom)         \
    .latency = {                                                        \
        [SIMT_IC_ALU] = (alu), [SIMT_IC_BRANCH] = 1,                    \
        [SIMT_IC_MUL] = (mul), [SIMT_IC_DIV] = (div),                   \
        [SIMT_IC_FPU] = (fpu), [SIMT_IC_FDIV] = (fdiv),                 \
        [SIMT_IC_MEM] = (shm), [SIMT_IC_ATOMIC] = (shatom),             \
        [SIMT_IC_SYNC] = (alu),                                         \
    },                                                                  \
    .global_latency = (gmem), .global_atomic_latency = (gatom)
#define ISSUE(alu, mul, div, fpu, fdiv, mem, atom)                      \
    .cost = {                                                           \
        [SIMT_IC_ALU] = (alu), [SIMT_IC_BRANCH] = (alu),                \
        [SIMT_IC_MUL] = (mul), [SIMT_IC_DIV] = (div),                   \
        [SIMT_IC_FPU] = (fpu), [SIMT_IC_FDIV] = (fdiv),                 \
        [SIMT_IC_MEM] = (mem), [SIMT_IC_ATOMIC] = (atom),               \
        [SIMT_IC_SYNC] = (alu),                                         \
    }

static const SimtTiming simt_preset_timings[SIMT_PRESET_NR] = {
    [SIMT_PRESET_DEFAULT] = {
        ISSUE(1, 1, 8, 1, 4, 1, 2),
        LAT(4, 5, 100, 4, 201, 19, 25, 375, 411),
    },
    [SIMT_PRESET_GTX480] = {
        ISSUE(2, 4, 32, 2, 16, 4, 8),
        LAT(22, 22, 150, 22, 40, 30, 40, 600, 600),
    },
    [SIMT_PRESET_PASCAL5] = {
        ISSUE(1, 4, 32, 1, 8, 4, 8),
        LAT(6, 86, 150, 6, 408, 23, 39, 482, 508),
    },
    [SIMT_PRESET_VOLTA80] = {
        ISSUE(2, 2, 32, 2, 8, 4, 8),
        LAT(4, 5, 100, 4, 201, 19, 25, 375, 411),
    },
    [SIMT_PRESET_TURING68] = {
        ISSUE(2, 2, 32, 2, 8, 8, 16),
        LAT(4, 5, 100, 4, 227, 22, 28, 424, 460),
    },
    [SIMT_PRESET_AMPERE82] = {
        ISSUE(2, 2, 32, 2, 8, 4, 8),
        LAT(4, 4, 66, 4, 525, 23, 29, 466, 502),
    },
};

void simt_preset_timing(int preset, SimtTiming *t)
{
    *t = simt_preset_timings[preset];
}
