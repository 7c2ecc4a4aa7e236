/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt: the standalone half of the device-versus-core comparison.  Runs
 * the spin kernel of kernels/ (C compiled for the lanes), or another
 * kernel of the same arguments such as fspin, on the interpreter alone,
 * on one host core, over the grid that scripts/bench.sh also has
 * simt-kernel-test's bench mode run through the device; the script
 * prints both and their ratio.  Wall-clock time, best of three.
 *
 * Also timed: the same grid on the interpreter driven as the device
 * drives it (run_timed()), which splits the device's overhead into the
 * timing model's, inside the interpreter, and the device's own around it.
 * Both runs must leave the same output and count the same instructions.
 *
 *   simt-spin-bench IMAGE.elf BLOCKS THREADS ITERS [KERNEL]
 *
 * Its lines are named after the kernel: core_spin_time, core_fspin_time.
 */

#include "qemu/osdep.h"
#include <time.h>
#include "hw/simt/simt-core.h"
#include "hw/simt/simt-config.h"
#include "simt-elf.h"

#define MEM_SIZE    (64u << 20)
#define OUT         0x1000000u
#define LOCAL       0x2000000u

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * The grid as hw/simt/simt-sm.c runs it, without the device: the default
 * preset's timing model on, every warp of a block in turn running a burst
 * of at most SIMT_BURST_INSNS instructions issued within
 * SIMT_BURST_CYCLES on one issue port, one block after the other.  False
 * if a block faulted or stopped making progress.
 */
static bool run_timed(const SimtLaunch *l, const SimtMem *m,
                      uint64_t *thread_insns)
{
    unsigned nwarps = simt_launch_warps(l);
    SimtWarp *warps = calloc(nwarps, sizeof(*warps));
    SimtWarpTiming *wt = calloc(nwarps, sizeof(*wt));
    uint8_t *shared = malloc(l->shared_size ? l->shared_size : 1);
    SimtBlockDesc desc = { .local_addr = LOCAL };
    SimtConfig cfg;
    SimtTiming timing;
    SimtCode code;
    SimtBlock b;
    uint64_t pipe = 0, port = 0;
    bool ok = warps && wt && shared &&
              !simt_code_init(&code, l->code_base, l->code_size);

    simt_preset_config(SIMT_PRESET_DEFAULT, &cfg);
    simt_preset_timing(SIMT_PRESET_DEFAULT, &timing);
    /* The SM's share of the bandwidth, as simt_sm_timing_init() sets. */
    timing.byte_cost_fx16 =
        (((uint64_t)cfg.field[SIMT_CFG_SM_COUNT] << 16) +
         cfg.field[SIMT_CFG_MEM_BW] - 1) / cfg.field[SIMT_CFG_MEM_BW];
    *thread_insns = 0;
    for (uint32_t x = 0; ok && x < l->grid_dim[0]; x++) {
        desc.block_idx[0] = x;
        simt_block_init(&b, l, &desc, &code, m, warps, shared);
        memset(wt, 0, nwarps * sizeof(*wt));
        code.timing = &timing;
        b.wtiming = wt;
        b.mem_pipe = &pipe;
        while (ok && b.st.status == SIMT_RUNNING) {
            uint64_t ran = 0;

            for (unsigned w = 0; w < nwarps; w++) {
                if ((warps[w].exited | warps[w].waiting) == SIMT_FULL_MASK) {
                    continue;
                }
                /* The port idles until the warp is ready, if it must. */
                port = port > wt[w].ready ? port : wt[w].ready;
                b.st.cycle = port;
                b.issue_limit = port + SIMT_BURST_CYCLES;
                b.issue_cycles = 0;
                ran += simt_warp_run(&b, w, SIMT_BURST_INSNS);
                port += b.issue_cycles ? b.issue_cycles : 1;
                wt[w].ready = b.st.cycle;
            }
            ok = ran || b.st.status != SIMT_RUNNING;
        }
        ok = ok && b.st.status == SIMT_DONE;
        *thread_insns += b.st.thread_insns;
    }
    if (warps && wt && shared) {
        simt_code_destroy(&code);
    }
    free(shared);
    free(wt);
    free(warps);
    return ok;
}

int main(int argc, char **argv)
{
    struct simt_image img;
    const struct simt_kernel_info *k;
    const char *name;
    char err[256];
    uint8_t *mem;
    SimtMem m = { 0 };
    SimtLaunch l = { 0 };
    SimtGridResult r;
    double best = 0, best_timed = 0;
    uint64_t timed_insns;
    size_t out_bytes;
    uint8_t *out;

    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: %s IMAGE.elf BLOCKS THREADS ITERS [KERNEL]\n",
                argv[0]);
        return 2;
    }
    name = argc == 6 ? argv[5] : "spin";
    if (simt_image_load(&img, argv[1], err, sizeof(err))) {
        fprintf(stderr, "simt-spin-bench: %s\n", err);
        return 1;
    }
    k = simt_image_kernel(&img, name);
    if (!k) {
        fprintf(stderr, "simt-spin-bench: %s: no kernel '%s'\n", argv[1],
                name);
        return 1;
    }
    mem = calloc(1, MEM_SIZE);
    if (!mem || img.base + img.size > OUT) {
        fprintf(stderr, "simt-spin-bench: image does not fit\n");
        return 1;
    }
    memcpy(mem + img.base, img.bytes, img.size);
    m.flat = mem;
    m.flat_size = MEM_SIZE;
    l.entry = k->m.entry;
    l.code_base = img.code_start;
    l.code_size = img.code_end - img.code_start;
    l.grid_dim[0] = strtoul(argv[2], NULL, 0);
    l.block_dim[0] = strtoul(argv[3], NULL, 0);
    l.block_dim[1] = l.block_dim[2] = 1;
    l.grid_dim[1] = l.grid_dim[2] = 1;
    l.local_size = k->m.local_bytes;
    l.args[0] = OUT;
    l.args[1] = strtoul(argv[4], NULL, 0);
    if (simt_launch_check(&l) ||
        (uint64_t)l.grid_dim[0] * l.block_dim[0] * 4 > LOCAL - OUT) {
        fprintf(stderr, "simt-spin-bench: bad grid %s x %s\n",
                argv[2], argv[3]);
        return 2;
    }

    out_bytes = (size_t)l.grid_dim[0] * l.block_dim[0] * 4;
    out = malloc(out_bytes);
    if (!out) {
        fprintf(stderr, "simt-spin-bench: out of memory\n");
        return 1;
    }
    for (int run = 0; run < 3; run++) {
        double t0 = now(), t;

        if (simt_run_grid(&l, &m, LOCAL, UINT64_MAX, &r)) {
            fprintf(stderr, "simt-spin-bench: kernel fault %s at 0x%x\n",
                    simt_fault_name(r.fault), r.fault_pc);
            return 1;
        }
        t = now() - t0;
        best = run && best < t ? best : t;

        memcpy(out, mem + OUT, out_bytes);
        memset(mem + OUT, 0, out_bytes);
        t0 = now();
        if (!run_timed(&l, &m, &timed_insns)) {
            fprintf(stderr, "simt-spin-bench: the timed run failed\n");
            return 1;
        }
        t = now() - t0;
        best_timed = run && best_timed < t ? best_timed : t;
        if (timed_insns != r.thread_insns ||
            memcmp(out, mem + OUT, out_bytes)) {
            fprintf(stderr, "simt-spin-bench: the timed run computed "
                    "otherwise (%" PRIu64 " thread-insns, not %" PRIu64
                    ")\n", timed_insns, r.thread_insns);
            return 1;
        }
    }
    printf("bench core_%s_thread_insns: %" PRIu64 " thread-insns\n", name,
           r.thread_insns);
    printf("bench core_%s_time: %.4f s\n", name, best);
    printf("bench core_%s_rate: %.3g thread-insn/s\n", name,
           r.thread_insns / best);
    printf("bench core_%s_timed_time: %.4f s\n", name, best_timed);
    simt_image_free(&img);
    free(out);
    free(mem);
    return 0;
}
