#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The labs of docs/labs/ (make lab / make lab-check):
#   scripts/lab.sh run LAB [POLICY]    the lab's experiment: prints its table
#                                      and draws it in build/labs/LAB.svg
#   scripts/lab.sh check LAB [POLICY]  its grader, on POLICY (a comma list)
#                                      or on the device's own policies
# Labs: placement, mechanisms, preempt-choice, driver-sched, chunks, liveness.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
SIMT_CACHE=${SIMT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/simt}
host_build=${HOST_BUILD:-$top/build/host}
# shellcheck source=scripts/tree-cache.sh
. "$top/scripts/tree-cache.sh"
qemu_build=$QEMU_BUILD

die() { echo "lab: $*" >&2; exit 2; }

[ $# -ge 2 ] || die "usage: scripts/lab.sh run|check LAB [POLICY]"
what=$1 lab=$2 policy=${3:-}
case $lab in
placement)
    test=simt-lab-test select=/x86_64/simt/lab/placement
    policies=${policy:-most-room,round-robin,least-loaded} ;;
chunks)
    test=simt-lab-test select=/x86_64/simt/lab/chunks
    policies=${policy:-priority,fifo,round-robin} ;;
mechanisms)
    # POLICY here names low-priority kernel shapes (simt-preempt-test.c).
    test=simt-preempt-test
    policies=${policy:-pathfinder,streamcluster,backprop} ;;
preempt-choice)
    test=simt-preempt-test select=/x86_64/simt/preempt/choice
    policies=${policy:-cheapest-in-bound,fastest,cheapest} ;;
driver-sched)
    # In the guest: the driver's policy against priority (simt_fair.c).
    test= policies=${policy:-fair-share} ;;
liveness)
    # POLICY names the kernel graded here; all of kernels/ are run.
    test= policies=${policy:-kernels} ;;
*)
    die "unknown lab '$lab' (labs: placement, mechanisms, preempt-choice, driver-sched, chunks, liveness; see docs/labs/)" ;;
esac
if [ -n "$test" ]; then
    [ -x "$qemu_build/tests/qtest/$test" ] || die "$test not built (run make qemu)"
fi
save_kernels=$host_build/tests/kernels/test-save-kernels

run_test() {
    (cd "$qemu_build" &&
     QTEST_QEMU_BINARY=./qemu-system-x86_64 \
     SIMT_KERNEL_DIR="$host_build/kernels" SIMT_LAB_POLICIES="$policies" \
     SIMT_LAB_COPY_POLICIES="$policies" \
         "./tests/qtest/$test" --tap -k "$@")
}

# Seed 000's deadline experiment with the auto mode under each policy:
# late responses, the low-priority kernel's slowdown and the work lost.
preempt_choice_table() {
    local p shape us out
    echo "lab preempt-choice: auto mode, GTX480 preset, 24 high-priority kernels per run"
    printf '%-18s %-11s %6s %7s %10s %14s %-16s %s\n' policy kernel bound "late %" \
        "LP slower" "lost/event" "D/F/S/L blocks" overruled
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
                printf '%-18s %-11s %4s us %7s %9s%% %14s %-16s %s\n' "$p" "$shape" "$us" \
                    "$(get "violations_${us}us")" "$(get lp_slowdown)" \
                    "$(get wasted)" "$(get mix)" "$(get policy_errors)"
            done
        done
    done
}

# Seed 000's mechanisms, one at a time, per low-priority kernel shape:
# how soon the high-priority kernel starts and ends, how much is saved or
# lost per event, and what the low-priority kernel pays.
mechanisms_table() {
    local shape mode out
    echo "lab mechanisms: GTX480 preset, 24 high-priority kernels per run; cycles at 1400 MHz"
    printf '%-14s %-7s %9s %9s %7s %10s %10s %8s\n' kernel mode dispatch response \
        "late 2us" "saved B" "lost insns" "LP slower"
    for shape in ${policies//,/ }; do
        out=$(cd "$qemu_build" &&
              QTEST_QEMU_BINARY=./qemu-system-x86_64 \
              SIMT_KERNEL_DIR="$host_build/kernels" SIMT_BENCH_PREEMPT=$shape \
              SIMT_BENCH_MODES=none,drain,flush,switch,light \
                  "./tests/qtest/$test" --tap 2>&1) ||
            { printf '%s\n' "$out" >&2; die "the experiment failed for $shape"; }
        [ -n "$(printf '%s\n' "$out" | grep "bench preempt_${shape}_")" ] ||
            die "no kernel shape '$shape' in simt-preempt-test.c's shapes[]"
        for mode in none drain flush switch light; do
            get() { printf '%s\n' "$out" |
                    sed -n "s/^# bench preempt_${shape}_${mode}_$1: \([^ ]*\).*/\1/p"; }
            printf '%-14s %-7s %9s %9s %7s%% %10s %10s %7s%%\n' "$shape" "$mode" \
                "$(get dispatch)" "$(get response)" "$(get violations_2us)" \
                "$(get saved)" "$(get wasted)" "$(get lp_slowdown)"
        done
    done
}

# The guest's fair test: priority against $policies, in a booted guest
# on the virtual clock (docs/guest.rst, "One clock"), so that the figures
# do not depend on how busy the host is.
driver_sched_boot() {
    local log=$top/build/labs/driver-sched.tap fair_ms=
    mkdir -p "$top/build/labs"
    # The grader's starve_ms and share_ms: 10 and 20, or with
    # SIMT_LAB_SEED (make grade) drawn from it, 5 to 15 and 10 to 30.
    if [ -n "${SIMT_LAB_SEED:-}" ]; then
        fair_ms=" simtguest.fair_ms=$((SIMT_LAB_SEED % 11 + 5)),$((SIMT_LAB_SEED / 11 % 21 + 10))"
    fi
    GUEST_LOG="$log" SIMT_GUEST_NOBUILD=1 SIMT_CLOCK=virtual \
        EXTRA_APPEND="simtguest.tests=fair,log_clean simtguest.sched_policy=$policies$fair_ms" \
        "$top/scripts/guest-run.sh" test > "$log.out" 2>&1 || true
    [ -s "$log" ] || die "the guest did not run (log: $log.out)"
    tr -d '\r' < "$log"
}

driver_sched_table() {
    local out
    out=$(driver_sched_boot)
    echo "lab driver-sched: a low-priority kernel behind a stream of 30 high-priority ones"
    printf '%-16s %10s %6s\n' policy "LP behind" holds
    printf '%s\n' "$out" |
        sed -n 's/^# lab driver-sched: policy \([^ ]*\) behind \([0-9]*\) holds \(-\?[0-9]*\)$/\1 \2 \3/p' |
        while read -r p behind holds; do
            printf '%-16s %10s %6s\n' "$p" "$behind" "$holds"
        done
    printf '%s\n' "$out" | grep -q '^ok 1 ' ||
        { printf '%s\n' "$out" | grep -E '^(not ok|# FAIL)' >&2; die "the guest's fair test failed"; }
}

# Seed 004's saving, per kernel and optimisation level: the lightweight
# records' bytes as a share of full ones over thousands of switches.
liveness_table() {
    local opt col
    local -a sets=("O0:$host_build/tests/kernels/O0-*.elf"
                   "O2:$host_build/kernels/*.elf"
                   "Os:$host_build/tests/kernels/Os-*.elf"
                   "O3:$host_build/tests/kernels/O3-*.elf")
    [ -x "$save_kernels" ] || die "test-save-kernels not built (run make host)"
    echo "lab liveness: lightweight record bytes as % of a full switch's, per kernel"
    for col in "${sets[@]}"; do
        opt=${col%%:*}
        # shellcheck disable=SC2086
        "$save_kernels" ${col#*:} 2>&1 |
            sed -n 's/^# \([a-z_]*\): [0-9]* switches.*light records \([0-9.]*\)% of full$/\1 \2/p' |
            awk -v opt="$opt" '{ print NR, opt, $1, $2 }'
    done | awk '
        { name[$1] = $3; pct[$1, $2] = $4; if ($1 > n) n = $1 }
        END {
            printf "%-3s %-16s %7s %7s %7s %7s\n", "#", "kernel", "-O0", "-O2", "-Os", "-O3"
            for (i = 1; i <= n; i++)
                printf "%-3d %-16s %6s%% %6s%% %6s%% %6s%%\n", i, name[i],
                    pct[i, "O0"], pct[i, "O2"], pct[i, "Os"], pct[i, "O3"]
        }'
}

# Where QEMU's build prints our sources: its copy of them.  A student
# reads paths into this repository (the guest's tests print theirs).
repo_paths() {
    sed -E -e 's#[^ :]*/(tests/qtest/simt[^ :/]*\.[ch])#\1#g'
}

# What a student needs from a failed run: the failing property's
# sentence, the device's and QEMU's messages about the policy (a pick
# overruled, an unknown name with the known ones), assertions and the
# guest's failures (not the guest kernel's lines, such as its taint
# notice, which only look like the device's).
explain() {
    repo_paths | awk '
        /^# property: / { print "property: " substr($0, 13); next }
        /\[ *[0-9]+\.[0-9]+\]/ { next }
        /^Bail out!/ { next }
        /^not ok|simt:|Choose one of|ERROR:|assertion|FAIL / { sub(/^# /, ""); print }'
}

# One graded property: its line, its explanation if it failed, and with
# LAB_RESULTS=DIR (scripts/grade.sh) a file DIR/POLICY/PROPERTY.ok or
# .fail holding that explanation.
record() {   # policy, property, passed (0/1), output
    local p=$1 prop=$2 ok=$3 out=$4 why
    why=$(printf '%s\n' "$out" | explain)
    graded=$((graded + 1))
    if [ "$ok" = 1 ]; then
        echo "ok $graded - $p: $prop"
        total_pass=$((total_pass + 1))
    else
        echo "not ok $graded - $p: $prop"
        [ -n "$why" ] && printf '%s\n' "$why" | sed 's/^/#   /'
        total_fail=$((total_fail + 1))
    fi
    if [ -n "${LAB_RESULTS:-}" ]; then
        mkdir -p "$LAB_RESULTS/$p"
        printf '%s\n' "$why" > "$LAB_RESULTS/$p/$prop.$([ "$ok" = 1 ] && echo ok || echo fail)"
    fi
}

# One policy (for mechanisms, one kernel shape), each of its properties
# in a QEMU of its own, so that a failed assertion, which ends the
# program, hides no other property.
grade_one() {   # policy
    local p=$1 out rc path prop paths
    echo "# $lab: policy $p"
    case $lab in
    mechanisms)
        # The shape preempted by every mechanism: the bench asserts that
        # the low-priority results equal a run alone (the device's own
        # priority tests are in make check's qtest suite).
        out=$(cd "$qemu_build" &&
              QTEST_QEMU_BINARY=./qemu-system-x86_64 \
              SIMT_KERNEL_DIR="$host_build/kernels" SIMT_BENCH_PREEMPT=$p \
              SIMT_BENCH_MODES=drain,flush,switch,light \
                  "./tests/qtest/$test" --tap 2>&1) || true
        if printf '%s\n' "$out" | grep -q "bench preempt_${p}_light_"; then
            record "$p" results-as-alone 1 "$out"
        else
            record "$p" results-as-alone 0 "$out
# property: results identical to a run alone under drain, flush, switch and light (a shape of shapes[] in tests/qtest/simt-preempt-test.c)"
        fi
        ;;
    driver-sched)
        out=$(policies=$p driver_sched_boot 2>&1) || true
        # The boot's two tests, in this order: fair, then log_clean.
        if printf '%s\n' "$out" | grep -q '^ok 1 '; then
            record "$p" holds-and-lets-low-priority-in 1 "$out"
        else
            record "$p" holds-and-lets-low-priority-in 0 "$out
# property: priority never holds and leaves the low-priority kernel behind all 30 high-priority ones; $p holds at least once and lets it end behind fewer than 15; every result right"
        fi
        if printf '%s\n' "$out" | grep -q '^ok 2 '; then
            record "$p" kernel-log-clean 1 "$out"
        else
            record "$p" kernel-log-clean 0 "$out
# property: no warning, error or lockdep report in the guest's kernel log"
        fi
        ;;
    liveness)
        # Every kernel's results identical with and without switches.
        [ -x "$save_kernels" ] || die "test-save-kernels not built (run make host)"
        out=$("$save_kernels" "$host_build"/kernels/*.elf 2>&1) && rc=0 || rc=$?
        record "$p" results-identical-with-switches \
            "$([ "$rc" = 0 ] && echo 1 || echo 0)" "$out
# property: every kernel leaves memory and counters bit-identical with and without switches"
        # A rewrite must still compute what the kernel computed: every
        # kernel's results against the host's reference.
        out=$("$host_build/tests/kernels/test-c-kernels" "$host_build"/kernels/*.elf 2>&1) &&
            rc=0 || rc=$?
        record "$p" results-as-the-reference \
            "$([ "$rc" = 0 ] && echo 1 || echo 0)" "$(printf '%s\n' "$out" | grep -A3 '^not ok')
# property: every kernel's results equal the host's reference (tests/kernels/test-c-kernels.c)"
        ;;
    *)
        # The policy's properties as the grader lists them.
        paths=$(policies=$p run_test -l | grep -E "^${select}/$p/[^/]+$" || true)
        if [ -z "$paths" ]; then
            out=$(policies=$p run_test -l 2>&1 || true)
            record "$p" graded 0 "$out
# property: the grader lists the policy's properties ($qemu_build/tests/qtest/$test -l)"
            return
        fi
        for path in $paths; do
            out=$(policies=$p run_test -p "$path" 2>&1) && rc=0 || rc=$?
            if [ "$rc" = 0 ] && printf '%s\n' "$out" | grep -q '^ok ' &&
               ! printf '%s\n' "$out" | grep -qE '^(not ok|Bail out!)'; then
                record "$p" "${path##*/}" 1 "$out"
            else
                record "$p" "${path##*/}" 0 "$out"
            fi
        done
        ;;
    esac
}

case $what in
run)
    mkdir -p "$top/build/labs"
    table=$top/build/labs/$lab.txt
    "$0" table "$lab" "$policy" | tee "$table"
    python3 "$top/scripts/lab-plot.py" "$lab" "$table" > "$top/build/labs/$lab.svg"
    echo "picture: build/labs/$lab.svg (table: build/labs/$lab.txt)"
    ;;
table)
    case $lab in
    liveness)
        liveness_table
        ;;
    mechanisms)
        mechanisms_table
        ;;
    driver-sched)
        driver_sched_table
        ;;
    placement|chunks)
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
    # Each policy of the list in a run of its own, so that one failure
    # hides no other policy's; the report names the policy, the failing
    # property's sentence and what the device and QEMU said about it.
    total_pass=0 total_fail=0 graded=0
    for p in ${policies//,/ }; do
        before=$total_fail
        grade_one "$p"
        echo "# policy $p: $([ "$total_fail" = "$before" ] && echo passed || echo FAILED)"
    done
    echo "1..$graded"
    echo "lab $lab: $total_pass passed, $total_fail failed"
    [ "$total_fail" = 0 ] && [ "$total_pass" -gt 0 ]
    ;;
*)
    die "usage: scripts/lab.sh run|check LAB [POLICY]"
    ;;
esac
