#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Copy engine benchmark, run through simt-mem-test's bench mode in the
# QEMU build: the host-side throughput (bytes per host second) of 64 MiB
# copies host to device, device to host and device to device, and the
# latency in device cycles of a high-priority 4 KiB copy submitted just
# after a chunk of a low-priority 64 MiB copy began, on one engine, for
# DMA chunks of 64 KiB, 1 MiB and 4 MiB.  Each figure is printed on its
# own line as "bench NAME: VALUE UNIT".
set -euo pipefail

build=${HOST_BUILD:?HOST_BUILD must be set}
# shellcheck source=scripts/tree-cache.sh
. "$(dirname "$0")/../scripts/tree-cache.sh"
qemu_build=$QEMU_BUILD

out=$(cd "$qemu_build" &&
      QTEST_QEMU_BINARY=./qemu-system-x86_64 \
      SIMT_KERNEL_DIR="$build/kernels" SIMT_BENCH_COPY=1 \
          ./tests/qtest/simt-mem-test --tap 2>/dev/null)
figures=$(printf '%s\n' "$out" | sed -n 's/^# \(bench .*\)/\1/p')
if [ -z "$figures" ] || printf '%s\n' "$out" | grep -q '^not ok'; then
    echo "copy-bench: the bench run failed" >&2
    exit 1
fi
printf '%s\n' "$figures"
