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
#   bench/preempt-bench.sh --kernels DIR
#
# --write-docs also rewrites docs/preemption-results.rst from the figures.
# SHAPE limits the run to one kernel shape (pathfinder, dynproc, ...), or
# with "seed000" to the kernels of seed 000's comparison (kernels/rodinia.c).
# --kernels runs seed 000's comparison on a user's kernels instead: every
# .c and .cl file of DIR built into one image with simt-cc, described by
# DIR/kernels.ini (docs/labs/own-kernels.rst); the tables go to
# DIR/results.rst.
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
kernel_dir=$build/kernels
own=()
if [ "${1:-}" = --kernels ]; then
    dir=${2:?"preempt-bench: --kernels needs a directory"}
    [ -z "$write_docs" ] ||
        { echo "preempt-bench: --write-docs is for the built-in kernels" >&2
          exit 1; }
    [ -f "$dir/kernels.ini" ] ||
        { echo "preempt-bench: $dir/kernels.ini: no such file" >&2; exit 1; }
    shopt -s nullglob
    sources=("$dir"/*.c "$dir"/*.cl)
    shopt -u nullglob
    [ ${#sources[@]} -gt 0 ] ||
        { echo "preempt-bench: $dir has no .c or .cl file" >&2; exit 1; }
    kernel_dir=$(mktemp -d)
    trap 'rm -rf "$kernel_dir"' EXIT
    # The qtest finds its other images there too.
    ln -s "$build"/kernels/*.elf "$kernel_dir/"
    # The high-priority kernel (kernels/hp.c) goes into the same image.
    "$build/tools/simt-cc/simt-cc" -o "$kernel_dir/user.elf" \
        "${sources[@]}" "$top/kernels/hp.c"
    own=(SIMT_BENCH_KERNELS="$(cd "$dir" && pwd)/kernels.ini")
    set -- seed000
fi
shape=${1:-1}

out=$(cd "$qemu_build" &&
      env QTEST_QEMU_BINARY=./qemu-system-x86_64 \
      SIMT_KERNEL_DIR="$kernel_dir" SIMT_BENCH_PREEMPT="$shape" "${own[@]}" \
          ./tests/qtest/simt-preempt-test --tap 2>&1) || failed=1
figures=$(printf '%s\n' "$out" | sed -n 's/^# \(bench .*\)/\1/p')
if [ -n "${failed:-}" ] || [ -z "$figures" ] ||
   printf '%s\n' "$out" | grep -q '^not ok'; then
    echo "preempt-bench: the bench run failed" >&2
    printf '%s\n' "$out" | grep -E '^(not ok|ERROR|Bail|\*\*)' >&2 || true
    exit 1
fi
printf '%s\n' "$figures"
if [ ${#own[@]} -gt 0 ]; then
    printf '%s\n' "$figures" |
        python3 "$top/bench/preempt-results.py" --own > "$dir/results.rst"
    echo "# wrote $dir/results.rst"
fi
if [ -n "$write_docs" ]; then
    printf '%s\n' "$figures" |
        python3 "$top/bench/preempt-results.py" > "$top/docs/preemption-results.rst"
    echo "# wrote docs/preemption-results.rst"
fi
