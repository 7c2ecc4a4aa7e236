#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The labs of docs/labs/ (make lab / make lab-check):
#   scripts/lab.sh run LAB [POLICY]    the lab's experiment: prints its table
#   scripts/lab.sh check LAB [POLICY]  its grader, on POLICY (a comma list)
#                                      or on the device's own policies
# Labs: placement, preempt-choice.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
SIMT_CACHE=${SIMT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/simt}
host_build=${HOST_BUILD:-$top/build/host}
qemu_build=${QEMU_BUILD:-$SIMT_CACHE/qemu-build}

die() { echo "lab: $*" >&2; exit 2; }

[ $# -ge 2 ] || die "usage: scripts/lab.sh run|check LAB [POLICY]"
what=$1 lab=$2 policy=${3:-}
case $lab in
placement)
    test=simt-lab-test select=()
    policies=${policy:-most-room,round-robin,least-loaded} ;;
preempt-choice)
    test=simt-preempt-test select=(-r /x86_64/simt/preempt/choice)
    policies=${policy:-cheapest-in-bound,fastest,cheapest} ;;
*)
    die "unknown lab '$lab' (labs: placement, preempt-choice; see docs/labs/)" ;;
esac
[ -x "$qemu_build/tests/qtest/$test" ] || die "$test not built (run make qemu)"

run_test() {
    (cd "$qemu_build" &&
     QTEST_QEMU_BINARY=./qemu-system-x86_64 \
     SIMT_KERNEL_DIR="$host_build/kernels" SIMT_LAB_POLICIES="$policies" \
         "./tests/qtest/$test" --tap -k "$@")
}

# Seed 000's deadline experiment with the auto mode under each policy:
# late responses, the low-priority kernel's slowdown and the work lost.
preempt_choice_table() {
    local p shape us out
    echo "lab preempt-choice: auto mode, GTX480 preset, 24 high-priority kernels per run"
    printf '%-18s %-11s %6s %7s %10s %14s %s\n' policy kernel bound "late %" \
        "LP slower" "lost/event" "D/F/S/L blocks"
    for p in ${policies//,/ }; do
        for shape in pathfinder backprop; do
            out=$(cd "$qemu_build" &&
                  QTEST_QEMU_BINARY=./qemu-system-x86_64 \
                  SIMT_KERNEL_DIR="$host_build/kernels" \
                  SIMT_BENCH_PREEMPT=$shape \
                  SIMT_BENCH_MODES=auto2us,auto3us,auto4us,auto5us \
                  SIMT_PREEMPT_PROPS="preempt-choice=$p" \
                      "./tests/qtest/$test" --tap 2>&1) ||
                { printf '%s\n' "$out" >&2; die "the experiment failed for $p"; }
            for us in 2 3 4 5; do
                get() { printf '%s\n' "$out" |
                        sed -n "s/^# bench preempt_${shape}_auto${us}us_$1: \([^ ]*\).*/\1/p"; }
                printf '%-18s %-11s %4s us %7s %9s%% %14s %s\n' "$p" "$shape" "$us" \
                    "$(get "violations_${us}us")" "$(get lp_slowdown)" \
                    "$(get wasted)" "$(get mix)"
            done
        done
    done
}

case $what in
run)
    case $lab in
    placement)
        # The experiment's table is in the test's messages.
        out=$(SIMT_LAB=$lab run_test 2>&1) ||
            { printf '%s\n' "$out" >&2; die "the experiment failed"; }
        printf '%s\n' "$out" | sed -n 's/^# \(lab \|policy\| \{10,\}\|[a-z-]* \+[0-9]\)/\1/p'
        ;;
    preempt-choice)
        preempt_choice_table
        ;;
    esac
    ;;
check)
    out=$(run_test "${select[@]}" 2>&1) && rc=0 || rc=$?
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
