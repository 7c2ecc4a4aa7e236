#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run every benchmark.  Each figure is printed on its own line as
# "bench NAME: VALUE UNIT"; comparisons are measured in the same run.
set -euo pipefail

build=${HOST_BUILD:?HOST_BUILD must be set}
# shellcheck source=scripts/tree-cache.sh
. "$(dirname "$0")/tree-cache.sh"
qemu_build=$QEMU_BUILD

# Run a qtest (simt-kernel-test unless a third argument names another) in
# the bench mode its environment variable VAR=VALUE selects and print its
# "bench" lines; stop if a check failed or no line "bench NAME..." came
# out.
kernel_bench() {   # NAME, VAR=VALUE[, TEST]
    local out
    out=$(cd "$qemu_build" &&
          env QTEST_QEMU_BINARY=./qemu-system-x86_64 \
              SIMT_KERNEL_DIR="$build/kernels" "$2" \
              "./tests/qtest/${3:-simt-kernel-test}" --tap 2>/dev/null) || true
    if printf '%s\n' "$out" | grep -q '^not ok' ||
       ! printf '%s\n' "$out" | grep -q "^# bench $1"; then
        echo "bench: the $1 run failed" >&2
        exit 1
    fi
    printf '%s\n' "$out" | sed -n 's/^# \(bench .*\)/\1/p'
    # The occupancy table of docs/specs/simt.rst, as comments.
    printf '%s\n' "$out" | sed -n 's/^# occupancy /#   /p'
}

echo "# simt-core-bench: interpreter speed, hand-assembled kernels"
"$build/bench/simt-core-bench"
echo "# the interpreter against qemu-riscv32's JIT on the same loops"
"$(dirname "$0")/setup-host.sh" bench
HOST_BUILD="$build" "$(dirname "$0")/../bench/core-vs-qemu.sh"

# The same grid of a kernel on the interpreter alone and through the
# whole device in QEMU; the ratio split in two by the interpreter run as
# the device runs it (timing model on, in bursts): what the timing model
# costs inside the interpreter, and what the device costs around it.  The
# device also with threads=2, its runs taking turns with threads=1's
# (device_KERNEL_threads2_speedup: threads=1's time over threads=2's).
# Lines named after the kernel: spin (integer, about 1e8
# thread-instructions), fspin (fp32, about 6e7) and mspin (a load and a
# store per iteration, about 7e7).
#
# A host shared with other machines has slow spells of a few seconds:
# the core's runs, best of three each, are spread over some seconds
# around the device's (best of thirty over some thirty seconds), and the
# best of them is taken.
spin_vs_core() {   # KERNEL, BLOCKS THREADS ITERS
    local kernel=$1 grid=$2 core="" device
    echo "# device versus core: $kernel kernel, grid $grid (blocks threads iters)"
    for run in 1 2 3 4; do
        if [ "$run" = 3 ]; then
            device=$(kernel_bench "device_${kernel}_time" \
                     SIMT_BENCH_SPIN="${grid// /,},$kernel")
        fi
        # shellcheck disable=SC2086 # the grid is three words
        core+=$("$build/bench/simt-spin-bench" "$build/kernels/samples.elf" \
                $grid "$kernel")$'\n'
        sleep 1
    done
    core=$(printf '%s' "$core" | awk -v k="$kernel" '
        { key = $2; v = $3 + 0 }
        key ~ /_time:$/ { if (!(key in best) || v < best[key]) best[key] = v; next }
        key == "core_" k "_thread_insns:" { insns = v }
        END {
            printf "bench core_%s_thread_insns: %d thread-insns\n", k, insns
            printf "bench core_%s_time: %.4f s\n", k, best["core_" k "_time:"]
            printf "bench core_%s_rate: %.3g thread-insn/s\n", k,
                   insns / best["core_" k "_time:"]
            printf "bench core_%s_timed_time: %.4f s\n", k,
                   best["core_" k "_timed_time:"]
        }')
    echo "$core"
    echo "$device"
    printf '%s\n%s\n' "$core" "$device" | awk -v k="$kernel" '
        $2 == "core_" k "_time:" { core = $3 }
        $2 == "core_" k "_timed_time:" { timed = $3 }
        $2 == "device_" k "_time:" { dev = $3 }
        END {
            if (!core || !timed || !dev) { print "bench: missing " k " timings" > "/dev/stderr"; exit 1 }
            printf "bench device_over_core_%s: %.2f ratio\n", k, dev / core
            printf "bench core_timed_over_core_%s: %.2f ratio\n", k, timed / core
            printf "bench device_over_core_timed_%s: %.2f ratio\n", k, dev / timed
        }'
}
spin_vs_core spin "32 256 2100"
spin_vs_core fspin "32 256 1000"
spin_vs_core mspin "32 256 1000"

# The timing model against published microbenchmarks: dependent-add and
# dependent-load latencies of a lone warp, and throughput by warps per
# SM (docs/specs/simt.rst, "Published figures", whose occupancy table
# is the lines "#   PRESET W ...": measured and predicted by the published
# figures, warp instructions and bytes per cycle per SM).
echo "# timing model: latencies and occupancy curves per preset"
kernel_bench timing_dep_alu_latency SIMT_BENCH_TIMING=1

# Seed 001's co-location (Table 4.1, compute and memory classes): B
# beside A's blocks or on the SM A left empty, against B alone
# (Turing-68 preset).
echo "# seed 001: B colocated with A or isolated on the empty SM, over serial"
kernel_bench seed001_compute_colocated_slowdown SIMT_BENCH_COLOCATE=1

# Copy engines: host-side throughput of 64 MiB copies, and the latency in
# device cycles of a high-priority 4 KiB copy behind a 64 MiB one.
echo "# copy engines: 64 MiB copies; high-priority copy latency by DMA chunk"
HOST_BUILD="$build" QEMU_BUILD="$qemu_build" "$(dirname "$0")/../bench/copy-bench.sh"

# Preemption on the GTX480 preset: latency and cost per mechanism,
# lightweight against full switches, auto and Chimera under 2-5 us
# bounds, and seed 000's comparison of the two (seed000_* lines)
# (docs/preemption-results.rst is written from the same figures).
echo "# preemption: seed 000 kernel shapes, 24 high-priority injections each"
HOST_BUILD="$build" QEMU_BUILD="$qemu_build" "$(dirname "$0")/../bench/preempt-bench.sh"

# Seed 002's Table 1 without the host: a 512x512 matmul (1024 blocks)
# split into M = 4, 16 and 64 subkernels, each LAUNCH queued behind the
# one before (no host round trip), in device time on the GTX480 preset:
# M = 4 against the unsplit kernel, M = 16 and 64 against M = 4 (the
# paper's reference row).  The paper's figures are the guest's (with a
# round trip per subkernel, bench/guest-bench.sh); these isolate the
# device's part.
echo "# seed 002: kernel splitting slowdown by subkernel size S, device only"
kernel_bench seed002_split_device SIMT_BENCH_SPLIT=512,256,64,16

# Seed 002's experiments at 1/16 of its data (tests/qtest/simt-rt-test.c):
# 4.1 (Fig. 4b), the mean response of a high-priority matmul job arriving
# 16 times over a low-priority one (1024x1024, copies included) in device
# milliseconds, with none (CUDA on launch-order hardware), chunked (RGEM),
# split (PKM) and preempt (context switches); 4.2 (Tables 2-3, Fig. 5),
# the paper's five periodic tasks over one hyperperiod: deadline misses
# and tau0's worst response per mode.
echo "# seed 002: high-priority response under a low-priority job with copies"
kernel_bench seed002_hp_response SIMT_BENCH_RT=response simt-rt-test
echo "# seed 002: the periodic task set of Table 2"
kernel_bench seed002_periodic SIMT_BENCH_RT=periodic simt-rt-test

# Launch latency and submission rate of an empty kernel, measured inside
# the guest through libsimt (boots the guest); then seed 003's
# multi-tenancy gains (Figs. 7, 10 and 11: sharing devices against
# serializing their jobs, with evictions by the copy engines for long
# jobs, the CPU fraction swept, and offloading from a group of one
# device to a group of three), in a second guest with four devices
# (simt-share-bench).
echo "# in-guest launch latency: simt-bench through libsimt, under TCG"
"$(dirname "$0")/../bench/guest-bench.sh"
