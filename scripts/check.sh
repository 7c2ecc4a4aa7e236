#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run every test suite and print one summary line for all of them.
#
#   scripts/check.sh [docs] [driver] [patches] [unit] [qtest] [guest] [labs]
#                                                  (default: all)
#
# Each suite's TAP output is checked by scripts/tap-check.py, which prints
# "NAME: P passed, F failed"; the last line of this script is the total,
# "P passed, F failed".  Exit status 0 only if every suite passed.
# Expects the builds to be done (make check does them first).
#
# SIMT_SANITIZE=1 (make check SANITIZE=1): the builds in QEMU_BUILD and
# HOST_BUILD have AddressSanitizer and UBSan; any report (ASan, UBSan, or
# a leak) ends the program with an error, so the test fails.  The guest suite is skipped (it boots the guest on
# the normal QEMU build; under TCG an ASan one would be far too slow).
#
# SIMT_GUEST_DEBUG=1 (make check DEBUG_KERNEL=1): the guest suite only,
# booted on the debug kernel (scripts/guest-debug-build.sh: lockdep,
# KASAN, debug objects, ...) with its own initramfs; results in
# build/results-debug.  The other suites boot no kernel: plain make
# check runs them.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${SIMT_CACHE:?SIMT_CACHE must be set}
host_build=${HOST_BUILD:-$top/build/host}
# shellcheck source=scripts/tree-cache.sh
. "$top/scripts/tree-cache.sh"
qemu_build=$QEMU_BUILD
results=$top/build/results
tapcheck=(/usr/bin/python3 "$top/scripts/tap-check.py")
suites=${*:-docs driver patches unit qtest guest labs}

sanitize=${SIMT_SANITIZE:-0}
debug=${SIMT_GUEST_DEBUG:-0}
[ "$debug" = 1 ] || debug=0
# The qtest programs run two at a time (QTEST_JOBS): they run on the
# virtual clock, so load does not change what they see, and they mostly
# wait on QEMU's replies (54 s against 95 s one at a time).
qtest_jobs=${QTEST_JOBS:-2} qtest_timeout=900
if [ "$sanitize" = 1 ]; then
    results=$top/build/results-asan
    # The sanitized device runs kernels about ten times slower: a longer
    # limit.
    qtest_timeout=2700
    # A report ends the program with status 1.  LeakSanitizer runs at
    # every exit, QEMU's included: QEMU 10.0 on the qtest accelerator
    # frees what it allocated well enough that no suppression is needed.
    export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1:print_summary=1
    export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:print_summary=1
    case " $suites " in
    *" guest "*)
        suites=$(printf '%s\n' $suites | grep -vx guest | tr '\n' ' ')
        echo "== guest: skipped under SANITIZE=1 (make check runs it)" ;;
    esac
    # They need the guest kernel's headers, which this build does not fetch.
    for s in driver patches; do
        case " $suites " in
        *" $s "*)
            suites=$(printf '%s\n' $suites | grep -vx "$s" | tr '\n' ' ')
            echo "== $s: skipped under SANITIZE=1 (make check runs it)" ;;
        esac
    done
    echo "== sanitizers: ASan and UBSan in $qemu_build and $host_build"
fi

if [ "$debug" = 1 ]; then
    results=$top/build/results-debug
    kept=$(printf '%s\n' $suites | grep -x guest | tr '\n' ' ')
    skipped=$(printf '%s\n' $suites | grep -vx guest | tr '\n' ' ')
    [ -n "$skipped" ] &&
        echo "== ${skipped% }: skipped under DEBUG_KERNEL=1 (they boot no kernel; make check runs them)"
    suites=$kept
    echo "== debug kernel: $(cat "$cache/guest-debug/kver" 2>/dev/null || echo '(not built)')"
fi

rm -rf "$results"
mkdir -p "$results"
status=0

# Check one TAP log, remember its summary line.
check_tap() {   # name, log, extra tap-check options...
    local name=$1 log=$2
    shift 2
    "${tapcheck[@]}" --name "$name" "$@" "$log" | tee "$results/$name.summary" |
        sed "s/^/  /"
    [ "${PIPESTATUS[0]}" = 0 ] || status=1
}

run_docs() {
    echo "== docs (reStructuredText pages parse cleanly, design.rst true to the code)"
    /usr/bin/python3 "$top/scripts/check-docs.py" "$top/docs" \
        > "$results/docs.tap" 2>&1
    check_tap docs "$results/docs.tap" --end-marker= --no-kernel-check
    # docs/design.rst held against the code: the names it gives exist,
    # its picture and call table are the calls hw/simt makes.
    /usr/bin/python3 "$top/scripts/check-design.py" "$top" \
        > "$results/design.tap" 2>&1
    check_tap design "$results/design.tap" --end-marker= --no-kernel-check
    # The charts of the labs and of the timing model, drawn from the
    # tables their pages quote (and written to build/docs, as make docs).
    /usr/bin/python3 "$top/scripts/check-charts.py" "$top/docs" \
        "$top/build/docs" > "$results/charts.tap" 2>&1
    check_tap charts "$results/charts.tap" --end-marker= --no-kernel-check
}

run_driver() {
    echo "== driver (the kernel's checkpatch --strict, sparse, W=1, kernel-doc, Kconfig)"
    KHEADERS=$cache/guest/headers "$top/scripts/check-driver.sh" \
        > "$results/driver-tools.tap" 2>&1
    check_tap driver-tools "$results/driver-tools.tap" --end-marker= \
        --no-kernel-check
}

run_patches() {
    echo "== patches (the upstream series of make patches: QEMU's and the kernel's checkpatch, applied, built)"
    KHEADERS=$cache/guest/headers "$top/scripts/check-patches.sh" \
        > "$results/patches.tap" 2>&1
    check_tap patches "$results/patches.tap" --end-marker= --no-kernel-check
}

run_unit() {
    echo "== unit tests (SIMT core and toolchain, no VM; clang builds)"
    # The programs' limits (meson's 30 s unless meson.build says) only
    # stop a test that hangs: ten times them, so that a loaded host or
    # the sanitizers never turn a slow run into a failure.
    meson test -C "$host_build" --num-processes 2 --print-errorlogs \
        --timeout-multiplier 10 > "$results/unit-meson.log" 2>&1
    local rc=$?
    grep -E '^ *[0-9]+/[0-9]+ ' "$results/unit-meson.log" | sed 's/^/  /'
    # One TAP log per test program, from meson's JSON log.
    /usr/bin/python3 - "$host_build/meson-logs/testlog.json" "$results" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    t = json.loads(line)
    name = t['name'].split('/')[-1].strip().replace(' ', '_')
    with open('%s/unit-%s.tap' % (sys.argv[2], name), 'w') as f:
        f.write(t.get('stdout') or '')
PY
    for log in "$results"/unit-*.tap; do
        [ -e "$log" ] || { echo "  no unit test ran"; status=1; return; }
        check_tap "$(basename "$log" .tap)" "$log" --end-marker= \
            --no-kernel-check
    done
    [ $rc = 0 ] || { echo "  meson test failed (log: $results/unit-meson.log)"; status=1; }
    # The device's sources and the host programs compiled with clang too,
    # every warning an error (scripts/check-clang.sh).
    "$top/scripts/check-clang.sh" > "$results/clang.tap" 2>&1
    check_tap clang "$results/clang.tap" --end-marker= --no-kernel-check
}

# One qtest program: its TAP in $results/NAME.tap, its exit status in
# $results/NAME.rc.
run_qtest_program() {   # name
    local t=$1 mode=()
    case $t in
    # Its slow mode adds every machine's concrete devices: the device
    # added on q35 too.
    device-introspect-test) mode=(-m slow) ;;
    # Of QEMU's qgraph tests, those of the simt node, on every machine of
    # the build with a PCI bus (pc and q35; none may be missing).
    qos-test)
        local path
        for path in $(cd "$qemu_build" &&
                      QTEST_QEMU_BINARY=./qemu-system-x86_64 \
                          ./tests/qtest/qos-test -l | grep '/pci-bus/simt/'); do
            mode+=(-p "$path")
        done
        if ! printf '%s\n' "${mode[@]}" | grep -q '^/x86_64/pc/' ||
           ! printf '%s\n' "${mode[@]}" | grep -q '^/x86_64/q35/'; then
            echo "Bail out! qos-test has no simt tests on pc or on q35" \
                > "$results/$t.tap"
            echo 1 > "$results/$t.rc"
            return
        fi ;;
    esac
    (cd "$qemu_build" &&
     QTEST_QEMU_BINARY=./qemu-system-x86_64 \
     SIMT_KERNEL_DIR="$host_build/kernels" timeout "$qtest_timeout" \
         "./tests/qtest/$t" --tap -k "${mode[@]}") > "$results/$t.tap" 2>&1
    echo $? > "$results/$t.rc"
    if [ "$t" = qos-test ]; then
        # GLib prints a plan after each -p's tests, counting on from the
        # one before: the last is the whole run's, the others go.
        awk -v last="$(grep -n '^1\.\.[0-9]*$' "$results/$t.tap" |
                       tail -1 | cut -d: -f1)" \
            '!/^1\.\.[0-9]+$/ || NR == last' "$results/$t.tap" \
            > "$results/$t.tap.one" && mv "$results/$t.tap.one" "$results/$t.tap"
    fi
}

run_qtest() {
    echo "== qtest (device at register level, kernels from the host build)"
    local t rc tests running=0
    # With QEMU's own tests every device must pass (scripts/build-qemu.sh).
    # (simt*-qos-test.c are linked into qos-test: scripts/build-qemu.sh.)
    tests="$(cd "$top/tests/qtest" && ls simt*-test.c |
             grep -v -- '-qos-test\.c$' | sed 's/\.c$//')
device-introspect-test qom-test qos-test"
    if [ "$qtest_jobs" -gt 1 ]; then
        # All at once, $qtest_jobs at a time, simt-preempt-test (the
        # longest) first; checked below in the usual order.
        for t in $(printf '%s\n' $tests | grep -x simt-preempt-test) \
                 $(printf '%s\n' $tests | grep -vx simt-preempt-test); do
            if [ "$running" -ge "$qtest_jobs" ]; then
                wait -n
                running=$((running - 1))
            fi
            run_qtest_program "$t" &
            running=$((running + 1))
        done
        wait
    fi
    for t in $tests; do
        [ -f "$results/$t.rc" ] || run_qtest_program "$t"
        rc=$(cat "$results/$t.rc")
        check_tap "$t" "$results/$t.tap" --end-marker= --no-kernel-check
        [ "$rc" = 0 ] || { echo "  $t exited with status $rc"; status=1; }
        # A skipped test here means a broken setup, not a pass.
        if grep -q '# SKIP' "$results/$t.tap"; then
            echo "  $t skipped tests:"; grep '# SKIP' "$results/$t.tap"
            status=1
        fi
    done
    if [ "$sanitize" = 1 ]; then
        echo "  lab-mechanisms: skipped under SANITIZE=1 (the priority tests above, on three more kernel shapes)"
        return
    fi
    # The mechanisms lab's grader: every kernel shape of the preemption
    # bench under each mechanism, results as alone (docs/labs/).
    "$top/scripts/lab.sh" check mechanisms > "$results/lab-mechanisms.tap" 2>&1
    rc=$?
    check_tap lab-mechanisms "$results/lab-mechanisms.tap" --end-marker= \
        --no-kernel-check
    [ $rc = 0 ] || { echo "  the mechanisms lab's grader failed"; status=1; }
}

# Guest tests that assert on times: the fair-share policy's holds, the
# preemption demo's response times and the watchdog's (hang, hang2,
# progress, bystander: timeouts of 5 to 40 ms), all sized in device
# time, and the launch latency benchmark's bounds (launch_latency,
# userq_latency).  preempt_pictures reads the demo's pictures, which
# show a preemption only where a high-priority kernel came within the
# picture's 5 ms of device time; on host time that depends on how fast
# the guest runs, and one CI run on a loaded machine drew none.
# opencl_priority's normal-priority kernel must come while the low one
# runs: on one time line, the guest's launch path is far shorter.
# watchdog_destroy stays on host time: it is a race, and host
# time varies where its destroys land.
vclock_tests=fair,fair_userq,preempt,preempt_pictures,hang,progress,hang2,bystander,launch_latency,userq_latency,opencl_priority

# One guest boot: NAME names its logs, WHAT its failure; the rest are
# VAR=VALUE settings for guest-run.sh (EXTRA_APPEND picks the tests).
# guest_boot_start starts it in the background (its pid in boot_pid) and
# guest_boot_check waits for it and checks its log; guest_boot does both.
guest_boot_start() {   # name, VAR=VALUE...
    local name=$1
    shift
    env GUEST_LOG="$results/$name.log" SIMT_GUEST_NOBUILD=1 "$@" \
        "$top/scripts/guest-run.sh" test > "$results/$name-run.out" 2>&1 &
    boot_pid=$!
}

guest_boot_check() {   # name, what, pid
    local name=$1 what=$2 rc=0
    wait "$3" || rc=$?
    check_tap "$name" "$results/$name.log" --boot
    [ $rc = 0 ] || { echo "  ${what}guest run failed (log: $results/$name-run.out)"; status=1; }
}

guest_boot() {   # name, what, VAR=VALUE...
    local name=$1 what=$2
    shift 2
    guest_boot_start "$name" "$@"
    guest_boot_check "$name" "$what" "$boot_pid"
}

run_guest() {
    echo "== guest (Linux driver and in-guest tests, booted under TCG)"
    # The tests whose figures are times run on the virtual clock, where
    # they are the same every run (docs/guest.rst, "One clock"); the rest
    # on host time, which is faster.
    guest_boot guest "" EXTRA_APPEND="simtguest.skip=$vclock_tests"
    # Fault injection, which only the debug kernel has: every allocation
    # of a SUBMIT failed in turn.
    [ "$debug" = 1 ] && guest_boot guest-faults "fault injection " \
        EXTRA_APPEND="simtguest.tests=fence_fd_nomem,log_clean"
    # The same guest with three devices: each works, libsimt picks the
    # least loaded, the driver's log stays clean.
    guest_boot guest-3dev "3-device " SIMT_DEVICES=3 \
        EXTRA_APPEND="simtguest.tests=lib_multi_device,smi_user,remap_race,log_clean"
    # Oversubscribed VRAM on a device with 64 MiB of it (the least that leaves
    # kernel images their 4 MiB below the objects): processes that
    # together allocate several times the VRAM, every result checked,
    # simt-smi's view of the evictions, and every byte of evicted objects
    # moved by the copy engines.  On the virtual clock: its kernels over
    # 48 MiB objects run seconds of host time, and on host time a loaded
    # host made the watchdog's 10 s of running time run out (the
    # watchdog counts guest time); on the one clock it counts the
    # device's, the same on every host.
    guest_boot guest-osub "oversubscription " SIMT_CLOCK=virtual \
        SIMT_DEVICE=simt,vram-size=64M \
        EXTRA_APPEND="simtguest.tests=oversub_tenants,oversub_single,oversub_smi,evict_copy_engine,log_clean"
    # The driver fuzzer (tests/guest/simt-driver-fuzz.c), briefly and from
    # one seed: 20 s, 60 s on the debug kernel (make fuzz-driver runs it
    # longer, from new seeds).  64 MiB of VRAM, so that it evicts.
    guest_boot guest-fuzz "driver fuzzer " SIMT_DEVICE=simt,vram-size=64M \
        EXTRA_APPEND="simtguest.tests=fuzz_driver,log_clean simtguest.fuzz_seconds=$([ "$debug" = 1 ] && echo 60 || echo 20) simtguest.fuzz_seed=1"
    # The device removed from its PCIe slot under work in flight, and
    # plugged in again (scripts/guest-hotplug.py).
    guest_boot guest-hotplug "hot-plugging " SIMT_HOTPLUG=1 \
        EXTRA_APPEND="simtguest.tests=hot_unplug,log_clean"
    # The whole VM migrated into a second QEMU in the middle of a kernel
    # (scripts/guest-migrate.py): the kernel's result is still right.
    guest_boot guest-migrate "migrating " SIMT_MIGRATE=1 \
        EXTRA_APPEND="simtguest.tests=migrate_resume,log_clean"
    # The timing tests on the virtual clock; and one clock: the benchmark
    # booted twice on the virtual clock prints the same console, and a
    # recorded run of a race test replays byte for byte
    # (scripts/guest-clock.sh), a property of QEMU and the harness, which
    # the debug kernel would only make three times slower.  A guest on the
    # virtual clock is one host thread, so the timing tests' boot runs
    # beside guest-clock's (two at a time).
    local vclock=(SIMT_CLOCK=virtual
                  EXTRA_APPEND="simtguest.tests=$vclock_tests,log_clean")
    if [ "$debug" = 1 ]; then
        guest_boot guest-vclock "virtual-clock " "${vclock[@]}"
    else
        guest_boot_start guest-vclock "${vclock[@]}"
        local vclock_pid=$boot_pid
        "$top/scripts/guest-clock.sh" "$results/guest-clock" \
            > "$results/guest-clock.tap" 2>&1
        guest_boot_check guest-vclock "virtual-clock " "$vclock_pid"
        check_tap guest-clock "$results/guest-clock.tap" --end-marker= \
            --no-kernel-check
    fi
    # A host directory shared with the guest (make run SHARE=DIR): a
    # kernel and a libsimt program compiled now on the host and the
    # module guest-build.sh built, run and loaded from /share.
    local share
    share=$(mktemp -d "${TMPDIR:-/tmp}/simt-share.XXXXXX")
    # share-prepare.sh takes libsimt.a and simt.ko from the guest this
    # tree built, the debug kernel's under SIMT_GUEST_DEBUG=1 (exported).
    if "$top/tests/share/share-prepare.sh" "$share" \
           > "$results/guest-share-prepare.out" 2>&1; then
        guest_boot guest-share "shared-directory " SIMT_SHARE="$share" \
            EXTRA_APPEND="simtguest.tests=share_mounted,share_run,share_program,share_reload,share_run_reloaded,log_clean"
    else
        cat "$results/guest-share-prepare.out"
        echo "guest-share (preparing the shared directory failed): 0 passed, 1 failed" |
            tee "$results/guest-share.summary" | sed "s/^/  /"
        status=1
    fi
    rm -rf "$share"
}

# The labs' graders as make grade runs them, on the student files of
# tests/labs/LAB/: each right-*.c must get every point and each wrong-*.c
# (a plausible wrong attempt, a hole an earlier grader let through) must
# lose some, with the seed fixed so that the run is the same every time.
# They run in a grading tree of this tree's own ($simt_tree/grade), at its
# commit.
run_labs() {
    echo "== labs (make grade on tests/labs/: right files pass, wrong ones fail)"
    local f lab n=0 score max expect log=$results/labs.tap
    if [ "$sanitize" = 1 ] || [ "$debug" = 1 ]; then
        echo "  labs: skipped (make check runs them)"
        return
    fi
    : > "$log"
    for f in "$top"/tests/labs/*/*.c; do
        lab=$(basename "$(dirname "$f")")
        n=$((n + 1))
        GRADE_DIR=$simt_tree/grade SEED=29 \
            "$top/scripts/grade.sh" "$lab" "$f" "$results/labs-$n.json" \
            > "$results/labs-$n.out" 2>&1
        read -r score max < <(python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); print(r["score"], r["max_score"])' \
            "$results/labs-$n.json" 2>/dev/null || echo "- -")
        case $(basename "$f") in
        right-*) expect="gets every point" ;;
        *) expect="loses points" ;;
        esac
        if [ "$score" != - ] && [ "$max" -gt 0 ] &&
           { { [ "$expect" = "gets every point" ] && [ "$score" = "$max" ]; } ||
             { [ "$expect" = "loses points" ] && [ "$score" -lt "$max" ]; }; }; then
            echo "ok $n - $lab: ${f#"$top"/} $expect ($score of $max)" >> "$log"
        else
            echo "not ok $n - $lab: ${f#"$top"/} $expect ($score of $max; $results/labs-$n.out)" >> "$log"
        fi
        sed 's/^/# /' "$results/labs-$n.out" >> "$log"
    done
    echo "1..$n" >> "$log"
    check_tap labs "$log" --end-marker= --no-kernel-check
}

for s in $suites; do
    "run_$s"
done

cat "$results"/*.summary 2>/dev/null |
    sed -n 's/.* \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1 \2/p' |
    awk '{ passed += $1; failed += $2 }
         END { printf "%d passed, %d failed\n", passed, failed }' |
    tee "$results/total"
grep -q ' 0 failed$' "$results/total" || status=1
exit $status
