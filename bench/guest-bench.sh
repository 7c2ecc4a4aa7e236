#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# In-guest benchmark: boots the guest with simtguest.mode=bench, where
# simt-bench (guest/simt-bench.c) runs as the unprivileged user through
# libsimt: the submission-to-completion latency of an empty kernel
# (median, guest microseconds, and device cycles from the cycle counter
# before the launch to the launch's end) and the launches per second queued
# back to back.  The guest runs under TCG, so the microseconds are those
# of an emulated machine.  Each figure is printed on its own line as
# "bench NAME: VALUE UNIT", with simt-bench's comments before them.
#
# Needs the guest image (scripts/guest-build.sh, run here) and QEMU with
# the device ($QEMU, as for scripts/guest-run.sh).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/guest-build.sh" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
rc=0
SIMT_GUEST_NOBUILD=1 GUEST_TIMEOUT=${GUEST_TIMEOUT:-300} \
    "$top/scripts/guest-run.sh" bench > "$log" 2>&1 || rc=$?
out=$(tr -d '\r' < "$log" | sed -n '/^=== simt bench ===/,/^=== simt bench done/p')
figures=$(printf '%s\n' "$out" | grep '^bench guest_' || true)
if [ "$rc" != 0 ] || [ -z "$figures" ]; then
    echo "guest-bench: the in-guest benchmark failed; the end of its log:" >&2
    tr -d '\r' < "$log" | tail -n 30 >&2
    exit 1
fi
printf '%s\n' "$out" | grep '^# ' || true
printf '%s\n' "$figures"
