#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The guest on one clock (docs/guest.rst, "One clock"), as TAP:
#   - the in-guest benchmark booted twice on the virtual clock prints the
#     same figures, and the same serial console byte for byte;
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

bench_boot() {   # N
    SIMT_GUEST_NOBUILD=1 SIMT_CLOCK=virtual "$here/guest-run.sh" bench \
        > "$dir/bench-$1.log" 2>&1
    echo "# bench boot $1: status $? (log: $dir/bench-$1.log)"
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
bench_boot 2 &
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
ok $rc "the same two boots: the whole serial console is byte-identical, kernel timestamps included"
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
