#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The guest on one clock (docs/guest.rst, "One clock"), as TAP:
#   - the in-guest benchmark booted twice on the virtual clock prints the
#     same figures, and the same serial console byte for byte, the second
#     boot with load beside it, idle time skipped by the TCG thread only;
#   - a run of the driver's race test threads recorded (SIMT_RECORD) and
#     replayed (SIMT_REPLAY) gives the same console byte for byte;
#   - what cannot be recorded is refused with a message.
#
#   scripts/guest-clock.sh DIR    logs and the recording go to DIR
#
# Environment: what scripts/guest-run.sh takes (QEMU, SIMT_CACHE,
# SIMT_GUEST_DEBUG); the guest image must be built.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: guest-clock.sh DIR}
mkdir -p "$dir"
n=0 failed=0

ok() {   # condition status, description
    n=$((n + 1))
    if [ "$1" = 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        failed=$((failed + 1))
    fi
}

# The serial console as text: without carriage returns and the lines of
# guest-run.sh itself.
console() {
    tr -d '\r' < "$1" | grep -v '^guest-run: '
}

# Where two consoles first differ, as TAP diagnostics.
show_diff() {
    diff <(console "$1") <(console "$2") | head -n 8 | sed 's/^/#   /'
}

echo "1..4"

# The benchmark on a 10 MHz device: its launches take about 1 ms, so
# both vCPUs halt while they wait, and virtual time skips to the next
# timer thousands of times, a step that once followed host time on a
# loaded host (qemu-patches/icount-vcpu-warp.patch).  With "load", load
# beside the boot until it ends (scripts/guest-load.py: a busy loop on
# every host core, and QMP queries waking QEMU's main loop).
bench_boot() {   # N [load]
    local qmp rc load=''
    qmp=$(mktemp -u "${TMPDIR:-/tmp}/simt-qmp.XXXXXX")
    if [ -n "${2:-}" ]; then
        /usr/bin/python3 "$here/guest-load.py" "$qmp" "${GUEST_TIMEOUT:-300}" \
            > "$dir/bench-$1.load" 2>&1 &
        load=$!
    fi
    SIMT_GUEST_NOBUILD=1 SIMT_CLOCK=virtual SIMT_DEVICE=simt,clock-mhz=10 \
        EXTRA_QEMU_ARGS="-qmp unix:$qmp,server=on,wait=off -trace enable=icount_warp,file=$dir/bench-$1.trace" \
        "$here/guest-run.sh" bench > "$dir/bench-$1.log" 2>&1
    rc=$?
    # Stopped with the boot (it stops by itself too when QEMU exits).
    [ -n "$load" ] && { kill "$load" 2>/dev/null; wait "$load"; }
    rm -f "$qmp"
    echo "# bench boot $1: status $rc (log: $dir/bench-$1.log)${load:+, $(tail -n 1 "$dir/bench-$1.load")}"
}

# A guest on the virtual clock runs on one host thread, so two at a time
# take no longer than one on two cores: a benchmark boot beside the
# recording, the second beside the replay.
tests=simtguest.tests=threads,log_clean
bench_boot 1 &
SIMT_GUEST_NOBUILD=1 SIMT_RECORD="$dir/races.rr" GUEST_LOG="$dir/races-record.log" \
    EXTRA_APPEND="$tests" "$here/guest-run.sh" test > "$dir/races-record.out" 2>&1
rec=$?
wait
echo "# recorded: status $rec, $(tail -n 1 "$dir/races-record.out")"
bench_boot 2 load &
replay=1
if [ $rec = 0 ]; then
    SIMT_REPLAY="$dir/races.rr" "$here/guest-run.sh" test > "$dir/races-replay.log" 2>&1
    echo "# replayed: status $?"
    cmp -s <(console "$dir/races-record.log") <(console "$dir/races-replay.log")
    replay=$?
fi
wait

f1=$(console "$dir/bench-1.log" | grep '^bench guest_')
f2=$(console "$dir/bench-2.log" | grep '^bench guest_')
printf '%s\n' "$f1" | sed 's/^/# /'
[ -n "$f1" ] && [ "$f1" = "$f2" ]
ok $? "the in-guest benchmark booted twice on the virtual clock prints the same guest_* figures"
cmp -s <(console "$dir/bench-1.log") <(console "$dir/bench-2.log")
rc=$?
[ $rc = 0 ] || show_diff "$dir/bench-1.log" "$dir/bench-2.log"
# Who skipped idle time (the trace event icount_warp of the patch).
tcg=$(cat "$dir"/bench-[12].trace 2>/dev/null | grep -c 'skipped by the TCG thread')
main=$(cat "$dir"/bench-[12].trace 2>/dev/null | grep -c 'skipped by the main thread')
echo "# idle time skipped $tcg times by the TCG thread, $main by the main loop"
[ $rc = 0 ] && [ "$tcg" -gt 0 ] && [ "$main" = 0 ]
ok $? "the same two boots, the second with load beside it: the whole serial console is byte-identical, kernel timestamps included, and only the TCG thread skipped idle time, never QEMU's main loop"
[ $replay = 0 ] || [ $rec != 0 ] || show_diff "$dir/races-record.log" "$dir/races-replay.log"
ok $replay "record and replay: the driver's race test threads (SUBMIT, DESTROY, UNBIND racing) recorded on one CPU passes, and its replay's serial console is byte-identical"

out=$(SIMT_GUEST_NOBUILD=1 SIMT_RECORD="$dir/refused.rr" SIMT_SHARE="$dir" \
      "$here/guest-run.sh" test 2>&1)
rc=$?
echo "# $out"
[ $rc != 0 ] && [ ! -e "$dir/refused.rr.args" ] &&
    printf '%s\n' "$out" | grep -q "shared directory cannot be recorded"
ok $? "recording a run with a shared directory is refused with a message saying why"

echo "# guest-clock: $((n - failed)) passed, $failed failed"
echo "=== end of guest-clock ==="
[ $failed = 0 ]
