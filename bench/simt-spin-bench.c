/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * simt: the standalone half of the device-versus-core comparison.  Runs
 * the spin kernel of kernels/ (C compiled for the lanes) on the
 * interpreter alone, on one host core, over the grid that scripts/bench.sh
 * also has simt-kernel-test's bench mode run through the device; the
 * script prints both and their ratio.  Wall-clock time, best of three.
 *
 *   simt-spin-bench IMAGE.elf BLOCKS THREADS ITERS
 */

#include "qemu/osdep.h"
#include <time.h>
#include "hw/simt/simt-core.h"
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

int main(int argc, char **argv)
{
    struct simt_image img;
    const struct simt_kernel_info *k;
    char err[256];
    uint8_t *mem;
    SimtMem m = { 0 };
    SimtLaunch l = { 0 };
    SimtGridResult r;
    double best = 0;

    if (argc != 5) {
        fprintf(stderr, "usage: %s IMAGE.elf BLOCKS THREADS ITERS\n",
                argv[0]);
        return 2;
    }
    if (simt_image_load(&img, argv[1], err, sizeof(err))) {
        fprintf(stderr, "simt-spin-bench: %s\n", err);
        return 1;
    }
    k = simt_image_kernel(&img, "spin");
    if (!k) {
        fprintf(stderr, "simt-spin-bench: %s: no kernel 'spin'\n", argv[1]);
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

    for (int run = 0; run < 3; run++) {
        double t0 = now(), t;

        if (simt_run_grid(&l, &m, LOCAL, UINT64_MAX, &r)) {
            fprintf(stderr, "simt-spin-bench: kernel fault %s at 0x%x\n",
                    simt_fault_name(r.fault), r.fault_pc);
            return 1;
        }
        t = now() - t0;
        best = run && best < t ? best : t;
    }
    printf("bench core_spin_thread_insns: %" PRIu64 " thread-insns\n",
           r.thread_insns);
    printf("bench core_spin_time: %.4f s\n", best);
    printf("bench core_spin_rate: %.3g thread-insn/s\n",
           r.thread_insns / best);
    simt_image_free(&img);
    free(mem);
    return 0;
}
