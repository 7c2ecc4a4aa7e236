#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In-guest benchmarks: boots the guest with simtguest.mode=bench, where
# simt-bench (guest/bench/simt-bench.c) runs as the unprivileged user through
# libsimt: the submission-to-completion latency of an empty kernel
# (median, guest microseconds, and device cycles from the cycle counter
# before the launch to the launch's end) and the launches per second queued
# back to back.  The guest CPU runs on the device's virtual clock (one
# instruction per ns; docs/guest.rst, "One clock"), so the microseconds
# are those of a 1 GHz machine beside the device, and the same every run.
#
# Then seed 003's multi-tenancy figures (guest/bench/simt-share-bench.c, the
# bench seed003_* lines): a second guest with four devices (a group of
# three and a group of one, the seed's unbalanced pair of nodes) of
# 64 MiB of VRAM (the least with room for kernel images, so that jobs of
# 3/8 of it conflict three to a device) clocked at 10 MHz, so that the
# jobs' kernels and copies are long against the guest's work of
# submitting them; makespans are guest time on the same clock.  Each
# device has 5 queues: the driver keeps one for its evictions and
# restores (docs/driver.rst), which leaves the 4 contexts of the seed's
# 4 vGPUs per GPU.  SEED003_ONLY=1 runs only this part.
#
# Each figure is printed on its own line as "bench NAME: VALUE UNIT",
# with the programs' comments before them.
#
# Needs the guest image (scripts/guest-build.sh, run here) and QEMU with
# the device ($QEMU, as for scripts/guest-run.sh).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/guest-build.sh" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Boot a bench guest (environment: what guest-run.sh takes) and print the
# comments and the "bench PATTERN" lines of its benchmark; stop if it
# failed or printed none.
guest_bench() {   # PATTERN
    local rc=0 out figures
    SIMT_GUEST_NOBUILD=1 GUEST_TIMEOUT=${GUEST_TIMEOUT:-300} \
        "$top/scripts/guest-run.sh" bench > "$log" 2>&1 || rc=$?
    out=$(tr -d '\r' < "$log" | sed -n '/^=== simt bench ===/,/^=== simt bench done/p')
    figures=$(printf '%s\n' "$out" | grep "^bench $1" || true)
    if [ "$rc" != 0 ] || [ -z "$figures" ]; then
        echo "guest-bench: the in-guest benchmark failed; the end of its log:" >&2
        tr -d '\r' < "$log" | tail -n 30 >&2
        exit 1
    fi
    printf '%s\n' "$out" | grep '^# ' || true
    printf '%s\n' "$figures"
}

if [ -z "${SEED003_ONLY:-}" ]; then
    guest_bench guest_
    # Seed 002's Table 1 on the GTX480 preset (guest/bench/simt-bench.c --split).
    echo "# seed 002: kernel splitting through libsimt, a round trip per subkernel"
    SIMT_DEVICE=simt,preset=gtx480 \
        EXTRA_APPEND="simtguest.bench=split ${EXTRA_APPEND:-}" \
        guest_bench seed002_split
fi
echo "# seed 003: multi-tenancy, serialized against shared, offload on against off"
SIMT_DEVICES=4 SIMT_DEVICE=simt,vram-size=64M,clock-mhz=10,queues=5 \
    EXTRA_APPEND="simtguest.bench=share ${EXTRA_APPEND:-}" GUEST_TIMEOUT=1500 \
    guest_bench seed003_
