#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make fuzz-driver: the driver fuzzer (tests/guest/simt-driver-fuzz.c) in a
# guest on the debug kernel (KASAN, lockdep, debug objects; built by
# scripts/guest-debug-build.sh the first time), on a device with 64 MiB of
# VRAM so that the fuzzer's objects are evicted, for FUZZ_SECONDS (600 by
# default) from FUZZ_SEED (the time by default).  Prints
#   fuzz-driver: N executions, E coverage, M findings
# where E is the distinct edges of simt.ko's code that KCOV traced (the
# debug kernel has KCOV; the fuzzer steers by them), and a finding is a
# distinct bad kernel log line (warning, BUG, KASAN or lockdep report,
# hung task), a fuzzer process that died, or a guest that did not
# finish.  The run's console is build/results/fuzz-driver.log; a run
# with findings is also kept, with them, in
# build/results/fuzz-driver/SEED/, and programs.txt there holds the
# programs each fuzzer thread was running at each report.  Exit status 1
# if there was a finding.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
seconds=${FUZZ_SECONDS:-600}
seed=${FUZZ_SEED:-$(date +%s)}

die() { echo "fuzz-driver: error: $*" >&2; exit 1; }
case $seconds in ''|*[!0-9]*|0) die "FUZZ_SECONDS must be a number of seconds above 0, not '$seconds'" ;; esac
case $seed in ''|*[!0-9]*) die "FUZZ_SEED must be a number, not '$seed'" ;; esac

results=$top/build/results
out=$results/fuzz-driver/$seed
mkdir -p "$results"
log=$results/fuzz-driver.log
export SIMT_GUEST_DEBUG=1
"$top/scripts/guest-fetch.sh"
"$top/scripts/guest-build.sh"
rc=0
# guest-run.sh gives the debug kernel three times this limit.
SIMT_GUEST_NOBUILD=1 GUEST_LOG=$log SIMT_DEVICE=simt,vram-size=64M \
    GUEST_TIMEOUT=$((seconds + 600)) \
    EXTRA_APPEND="simtguest.tests=fuzz_driver simtguest.fuzz_seconds=$seconds simtguest.fuzz_seed=$seed" \
    "$top/scripts/guest-run.sh" test > "$results/fuzz-driver-run.out" 2>&1 || rc=$?

summary=$(sed -n 's/^# fuzz-driver: \([0-9]*\) executions, \([0-9]*\) coverage.*/\1 \2/p' "$log" | tail -n 1)
executions=${summary% *} coverage=${summary#* }
[ -n "$summary" ] || executions=0 coverage=0
# Distinct bad lines of the kernel log, without their time stamps (the
# fuzzer's watcher, which prints the programs running at each, looks for
# the same marks).
bad='WARNING:|BUG:|Oops|general protection fault|Kernel panic|UBSAN:|KASAN|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|list_add corruption|list_del corruption|RCU stall|detected stalls|blocked for more than|ODEBUG'
list=$results/fuzz-driver-findings.txt
grep -E "$bad" "$log" | sed 's/^# \(kernel: \)\?//; s/^\[ *[0-9.]*\] //' |
    sed 's/task \([^:]*\):[0-9]*/task \1/' | sort -u > "$list" || true
findings=$(wc -l < "$list")
if grep -q "^# process [0-9]* ended with status" "$log"; then
    grep "^# process [0-9]* ended with status" "$log" >> "$list"
    findings=$((findings + 1))
fi
if [ -z "$summary" ] || ! grep -q "^# end of tests" "$log"; then
    echo "the guest did not finish (QEMU status $rc, $results/fuzz-driver-run.out)" >> "$list"
    findings=$((findings + 1))
fi
echo "fuzz-driver: seed $seed, $seconds s, console $log"
if [ "$findings" -gt 0 ]; then
    mkdir -p "$out"
    cp "$log" "$list" "$results/fuzz-driver-run.out" "$out/"
    sed -n 's/^# \(programs running at\|program [0-9]\)/\1/p' "$log" > "$out/programs.txt"
    echo "fuzz-driver: findings (kept in $out):"
    sed 's/^/  /' "$list"
fi
echo "fuzz-driver: $executions executions, $coverage coverage, $findings findings"
[ "$findings" = 0 ]
