#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run every benchmark program of the host build.  Each prints its figures
# one per line as "bench NAME: VALUE UNIT".
set -euo pipefail

build=${HOST_BUILD:?HOST_BUILD must be set}
found=0
for prog in "$build"/bench/*-bench; do
    [ -x "$prog" ] || continue
    found=1
    echo "# $(basename "$prog")"
    "$prog"
done
[ $found = 1 ] || { echo "bench: no benchmark programs in $build/bench" >&2; exit 1; }
