#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run every benchmark.  Each figure is printed on its own line as
# "bench NAME: VALUE UNIT"; comparisons are measured in the same run.
set -euo pipefail

build=${HOST_BUILD:?HOST_BUILD must be set}
qemu_build=${QEMU_BUILD:-${SIMT_CACHE:?SIMT_CACHE must be set}/qemu-build}

echo "# simt-core-bench: interpreter speed, hand-assembled kernels"
"$build/bench/simt-core-bench"

# The same grid of the spin kernel (about 1e8 thread-instructions) on the
# interpreter alone and through the whole device in QEMU.
grid="32 256 2100"
echo "# device versus core: spin kernel, grid $grid (blocks threads iters)"
core=$("$build/bench/simt-spin-bench" "$build/kernels/samples.elf" $grid)
echo "$core"
device=$(cd "$qemu_build" &&
         QTEST_QEMU_BINARY=./qemu-system-x86_64 \
         SIMT_KERNEL_DIR="$build/kernels" SIMT_BENCH_SPIN="${grid// /,}" \
             ./tests/qtest/simt-kernel-test --tap 2>/dev/null |
         sed -n 's/^# \(bench .*\)/\1/p')
echo "$device"
printf '%s\n%s\n' "$core" "$device" | awk '
    /core_spin_time:/ { core = $3 }
    /device_spin_time:/ { dev = $3 }
    END {
        if (!core || !dev) { print "bench: missing spin timings" > "/dev/stderr"; exit 1 }
        printf "bench device_over_core_spin: %.2f ratio\n", dev / core
    }'

# Seed 001's co-location: a memory-bound B beside A's blocks or on the SM
# A left empty, against B alone (Turing-68 preset).
echo "# seed 001: B colocated with A or isolated on the empty SM, over serial"
(cd "$qemu_build" &&
 QTEST_QEMU_BINARY=./qemu-system-x86_64 \
 SIMT_KERNEL_DIR="$build/kernels" SIMT_BENCH_COLOCATE=1 \
     ./tests/qtest/simt-kernel-test --tap 2>/dev/null |
 sed -n 's/^# \(bench .*\)/\1/p')

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

# Launch latency and submission rate of an empty kernel, measured inside
# the guest through libsimt (boots the guest).
echo "# in-guest launch latency: simt-bench through libsimt, under TCG"
"$(dirname "$0")/../bench/guest-bench.sh"
