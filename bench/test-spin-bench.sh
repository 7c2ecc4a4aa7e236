#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/simt-spin-bench on small grids: its timed run (the interpreter
# driven as hw/simt/simt-sm.c drives it) must leave the same output and
# instruction count as the plain run, or the bench fails.  TAP.
#
# Usage: test-spin-bench.sh SIMT-SPIN-BENCH SAMPLES.ELF

bench=$1
image=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0

echo "1..5"
# KERNEL BLOCKS THREADS ITERS, and what the grid covers.
while read -r kernel blocks threads iters what; do
    n=$((n + 1))
    if "$bench" "$image" "$blocks" "$threads" "$iters" "$kernel" \
           >"$tmp/out" 2>&1 &&
       grep -q "^bench core_${kernel}_timed_time: " "$tmp/out"; then
        echo "ok $n - spin-bench-timed-run-matches-core-$what"
    else
        echo "not ok $n - spin-bench-timed-run-matches-core-$what"
        sed 's/^/# /' "$tmp/out"
        failed=$((failed + 1))
    fi
done <<GRIDS
spin 1 32 10 one-warp
spin 6 100 40 partial-warps
spin 3 1024 5 full-blocks
fspin 6 100 40 fp32-partial-warps
mspin 6 100 40 load-store-partial-warps
GRIDS
[ "$failed" = 0 ]
