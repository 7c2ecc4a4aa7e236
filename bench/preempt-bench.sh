#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Preemption measurements, run through simt-preempt-test's bench mode in
# the QEMU build: on the GTX480 preset, low-priority kernels with the
# per-block footprint of seed 000's benchmarks and a stream of short
# high-priority kernels at points spread over their run, once per
# mechanism (auto and Chimera once per bound of 2 to 5 us).  Prints
# every figure as "bench NAME: VALUE UNIT", and with every shape seed
# 000's comparison of auto and Chimera (seed000_*).
#
#   bench/preempt-bench.sh [--write-docs] [SHAPE]
#
# --write-docs also rewrites docs/preemption-results.rst from the figures.
# SHAPE limits the run to one kernel shape (pathfinder, dynproc, ...), or
# with "seed000" to the kernels of seed 000's comparison (kernels/rodinia.c).
set -euo pipefail

build=${HOST_BUILD:?HOST_BUILD must be set}
# shellcheck source=scripts/tree-cache.sh
. "$(dirname "$0")/../scripts/tree-cache.sh"
qemu_build=$QEMU_BUILD
top=$(cd "$(dirname "$0")/.." && pwd)
write_docs=
if [ "${1:-}" = --write-docs ]; then
    write_docs=1
    shift
fi
shape=${1:-1}

out=$(cd "$qemu_build" &&
      QTEST_QEMU_BINARY=./qemu-system-x86_64 \
      SIMT_KERNEL_DIR="$build/kernels" SIMT_BENCH_PREEMPT="$shape" \
          ./tests/qtest/simt-preempt-test --tap 2>/dev/null)
figures=$(printf '%s\n' "$out" | sed -n 's/^# \(bench .*\)/\1/p')
if [ -z "$figures" ] || printf '%s\n' "$out" | grep -q '^not ok'; then
    echo "preempt-bench: the bench run failed" >&2
    printf '%s\n' "$out" | grep -E '^(not ok|ERROR|Bail)' >&2 || true
    exit 1
fi
printf '%s\n' "$figures"
if [ -n "$write_docs" ]; then
    printf '%s\n' "$figures" |
        python3 "$top/bench/preempt-results.py" > "$top/docs/preemption-results.rst"
    echo "# wrote docs/preemption-results.rst"
fi
