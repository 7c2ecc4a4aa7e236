#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The labs of docs/labs/ (make lab / make lab-check):
#   scripts/lab.sh run LAB            the lab's experiment: prints its table
#   scripts/lab.sh check LAB [POLICY] its grader, on POLICY (a comma list)
#                                     or on the device's own policies
# Labs: placement.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
SIMT_CACHE=${SIMT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/simt}
host_build=${HOST_BUILD:-$top/build/host}
qemu_build=${QEMU_BUILD:-$SIMT_CACHE/qemu-build}

die() { echo "lab: $*" >&2; exit 2; }

[ $# -ge 2 ] || die "usage: scripts/lab.sh run|check LAB [POLICY]"
what=$1 lab=$2 policy=${3:-}
case $lab in
placement) test=simt-lab-test ;;
*) die "unknown lab '$lab' (labs: placement; see docs/labs/)" ;;
esac
[ -x "$qemu_build/tests/qtest/$test" ] || die "$test not built (run make qemu)"

run_test() {
    (cd "$qemu_build" &&
     QTEST_QEMU_BINARY=./qemu-system-x86_64 \
     SIMT_KERNEL_DIR="$host_build/kernels" SIMT_LAB_POLICIES="$policy" \
         "./tests/qtest/$test" --tap -k "$@")
}

case $what in
run)
    # The experiment's table is in the test's messages.
    out=$(SIMT_LAB=$lab run_test 2>&1) || { printf '%s\n' "$out" >&2; die "the experiment failed"; }
    printf '%s\n' "$out" | sed -n 's/^# \(lab \|policy\| \{10,\}\|[a-z-]* \+[0-9]\)/\1/p'
    ;;
check)
    out=$(run_test 2>&1) && rc=0 || rc=$?
    printf '%s\n' "$out" | grep -E '^(ok|not ok)|ERROR|assertion' || true
    pass=$(printf '%s\n' "$out" | grep -c '^ok' || true)
    # A failed assertion ends the program: its "Bail out!" is a failure too.
    fail=$(printf '%s\n' "$out" | grep -c -E '^(not ok|Bail out!)' || true)
    echo "lab $lab: $pass passed, $fail failed"
    [ "$rc" = 0 ] && [ "$fail" = 0 ] && [ "$pass" -gt 0 ]
    ;;
*)
    die "usage: scripts/lab.sh run|check LAB [POLICY]"
    ;;
esac
