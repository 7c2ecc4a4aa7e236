#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/speed-results.py, which writes docs/speed-results.rst from a make
# bench log: every figure of a whole log on the page with its value, and
# a log that lacks one refused by name.  TAP.
#
# Usage: test-speed-results.sh SPEED-RESULTS.PY

gen=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0

result() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        sed 's/^/# /' "$tmp/out"
        failed=$((failed + 1))
    fi
}

names="core_alu core_mem core_mem_mmu_slowdown core_divergent core_fp
core_alu_vs_qemu core_fp_vs_qemu device_over_core_spin
device_spin_wall_time core_timed_over_core_spin device_over_core_timed_spin
device_spin_threads2_speedup host_spin_threads2_speedup device_over_core_fspin
core_timed_over_core_fspin device_over_core_timed_fspin
device_fspin_threads2_speedup device_over_core_mspin
core_timed_over_core_mspin device_over_core_timed_mspin
device_mspin_threads2_speedup copy_h2d_64m_rate
copy_d2h_64m_rate copy_d2d_64m_rate guest_launch_latency
guest_launch_cycles guest_submit_rate guest_userq_launch_latency
guest_userq_submit_rate"
i=0
for name in $names; do
    i=$((i + 1))
    echo "bench $name: $i.5 units"
done > "$tmp/log"
echo "bench seed002_other: 9 ms" >> "$tmp/log"

python3 "$gen" --machine "a test machine, quiet" "$tmp/log" > "$tmp/page" 2> "$tmp/out"
rc=$?
cat "$tmp/page" >> "$tmp/out"
ok=$rc
i=0
for name in $names; do
    i=$((i + 1))
    grep -q "^\`\`$name\`\` .* $i\.5 units " "$tmp/page" || ok=1
done
grep -q "seed002_other" "$tmp/page" && ok=1
grep -q "a test machine, quiet" "$tmp/page" || ok=1
result $ok "every figure of a whole log on the page with its value and the machine, nothing else"

grep -v "^bench core_fp_vs_qemu:" "$tmp/log" > "$tmp/part"
if python3 "$gen" --machine x "$tmp/part" > /dev/null 2> "$tmp/out"; then
    ok=1
else
    grep -q "no figure for core_fp_vs_qemu" "$tmp/out"
    ok=$?
fi
result $ok "a log without core_fp_vs_qemu is refused, naming it"

echo "1..$n"
echo "# $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
