#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The interpreter against QEMU's own JIT on the same instruction stream:
# the ALU and fp32 loops of simt-core-bench, built by the same clang as
# static riscv32 Linux programs that run one thread after another, under
# Debian's qemu-riscv32 (package qemu-user, installed by
# scripts/setup-host.sh bench).  Prints, from one run,
#   bench core_alu_qemu: R insn/s        bench core_alu_vs_qemu: R ratio
#   bench core_fp_qemu: R insn/s         bench core_fp_vs_qemu: R ratio
# (simt thread-insn/s over QEMU insn/s; both are CPU time of one core).
# Each side runs three times, the two taking turns a second apart, and
# each keeps its best: a host shared with other machines has slow spells
# of a few seconds, which would otherwise fall on one side only.
set -euo pipefail

build=${HOST_BUILD:?HOST_BUILD must be set}
core=$build/bench/simt-core-bench
tmp=$(mktemp -d "${TMPDIR:-/tmp}/simt-vs-qemu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

command -v qemu-riscv32 >/dev/null ||
    { echo "bench: qemu-riscv32 not found (scripts/setup-host.sh bench installs it)" >&2; exit 1; }

# NAME THREADS: threads for about a second under QEMU
for run in "core_alu 100000" "core_fp 30000"; do
    set -- $run
    name=$1 threads=$2
    "$core" --riscv-linux "$name" "$threads" > "$tmp/$name.S"
    per=$(sed -n 's/^# insns_per_thread \([0-9]*\)$/\1/p' "$tmp/$name.S")
    clang --target=riscv32-unknown-linux-gnu -march=rv32imaf -mabi=ilp32f \
        -nostdlib -static -fuse-ld=lld "$tmp/$name.S" -o "$tmp/$name.elf"
    simt="" secs=""
    for turn in 1 2 3; do
        rate=$("$core" "$name" |
               sed -n "s/^bench $name: \([0-9.e+]*\) thread-insn\/s$/\1/p")
        sleep 1
        # user CPU seconds of the QEMU process
        took=$( { TIMEFORMAT=%3U; time qemu-riscv32 "$tmp/$name.elf" > /dev/null; } 2>&1 )
        sleep 1
        [ -n "$rate" ] && [ -n "$took" ] ||
            { echo "bench: the $name comparison failed" >&2; exit 1; }
        simt=$(awk -v a="$simt" -v b="$rate" 'BEGIN { print (a == "" || b + 0 > a + 0) ? b : a }')
        secs=$(awk -v a="$secs" -v b="$took" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
    done
    [ -n "$simt" ] && [ -n "$per" ] && [ -n "$secs" ] ||
        { echo "bench: the $name comparison failed" >&2; exit 1; }
    awk -v name="$name" -v simt="$simt" -v n="$per" -v t="$threads" -v s="$secs" 'BEGIN {
        if (s <= 0) s = 0.001
        q = n * t / s
        printf "bench %s_qemu: %.3e insn/s\n", name, q
        printf "bench %s_vs_qemu: %.2f ratio\n", name, simt / q
    }'
done
