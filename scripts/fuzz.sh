#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make fuzz: QEMU's generic-fuzz libFuzzer target (docs/devel/testing/
# fuzzing.rst in the QEMU source) on a q35 machine with the simt device,
# built with clang, libFuzzer, AddressSanitizer and UBSan in a build
# directory of its own ($SIMT_CACHE/qemu-fuzz; the normal build is never
# touched).  It drives the device's MMIO, its PCI config space and the DMA
# the device does, guided by coverage, for FUZZ_SECONDS (600 by default)
# on both cores, and prints
#   fuzz: N executions, E edges, M crashes
# Inputs that crash are kept in $SIMT_CACHE/fuzz/crashes; the corpus grows
# in $SIMT_CACHE/fuzz/corpus from one run to the next.  Seeds made by
# scripts/fuzz-seeds.py (ring setup, doorbells, NOP, SIGNAL/WAIT, COPY,
# LAUNCH, page tables, preemption, MSI-X: the qtests' register traffic as
# generic-fuzz operations) are written afresh to $SIMT_CACHE/fuzz/seeds
# and given to libFuzzer as a second, read-only corpus directory.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
SIMT_CACHE=${SIMT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/simt}
seconds=${FUZZ_SECONDS:-600}
jobs=${FUZZ_JOBS:-2}
# shellcheck source=scripts/tree-cache.sh
. "$top/scripts/tree-cache.sh"
build=$simt_tree/qemu-fuzz
work=$SIMT_CACHE/fuzz

log() { echo "fuzz: $*" >&2; }
die() { echo "fuzz: error: $*" >&2; exit 1; }

case $seconds in ''|*[!0-9]*) die "FUZZ_SECONDS must be a number of seconds, not '$seconds'" ;; esac
command -v clang >/dev/null || die "clang not found (run scripts/setup-host.sh)"
# This tree's source with the simt overlay, as scripts/build-qemu.sh
# prepares it.
src=$simt_tree/qemu-src
[ -d "$src/hw/simt" ] || die "no QEMU source with the simt overlay (run make qemu)"

# shellcheck source=scripts/qemu-options.sh
. "$top/scripts/qemu-options.sh"
config_opts=("${qemu_config_opts[@]}"
    --cc=clang --cxx=clang++ --enable-fuzzing --enable-asan --enable-ubsan)
config_id=$(printf '%s\n' "$src" "${config_opts[@]}" | sha1sum | cut -c1-12)
if [ "$(cat "$build/.simt-config" 2>/dev/null)" != "$config_id" ]; then
    log "configuring $src in $build (clang, libFuzzer, ASan, UBSan)"
    mkdir -p "$build"
    (cd "$build" && "$src/configure" "${config_opts[@]}" > configure.log 2>&1) ||
        { tail -20 "$build/configure.log"; die "configure failed (log: $build/configure.log)"; }
    echo "$config_id" > "$build/.simt-config"
fi
# Firmware from Debian's packages, where a build tree looks (qemu-bundle).
for dir in /usr/share/seabios /usr/share/qemu; do
    mkdir -p "$build/qemu-bundle$(dirname "$dir")"
    ln -sfn "$dir" "$build/qemu-bundle$dir"
done
log "building qemu-fuzz-x86_64 in $build"
ninja -C "$build" -j "${SIMT_JOBS:-2}" qemu-fuzz-x86_64 > "$build/build.log" 2>&1 ||
    { tail -20 "$build/build.log"; die "build failed (log: $build/build.log)"; }

mkdir -p "$work/corpus" "$work/crashes" "$work/logs"
rm -f "$work/logs"/fuzz-*.log
rm -rf "$work/seeds"
python3 "$top/scripts/fuzz-seeds.py" "$work/seeds" || die "scripts/fuzz-seeds.py failed"
# Small sizes: VRAM-sized buffers stay cheap, every execution is short.
export QEMU_FUZZ_ARGS="-M q35 -nodefaults -device simt,vram-size=1M,sm-count=2,sm-blocks=4,kernel-slots=2,copy-engines=1"
export QEMU_FUZZ_OBJECTS="simt*"
log "generic-fuzz on simt for $seconds s, $jobs jobs (corpus $work/corpus, seeds $work/seeds)"
(cd "$work/logs" &&
 timeout $((seconds + 120)) "$build/qemu-fuzz-x86_64" --fuzz-target=generic-fuzz \
     -max_total_time="$seconds" -jobs="$jobs" -workers="$jobs" \
     -print_final_stats=1 -artifact_prefix="$work/crashes/" \
     "$work/corpus" "$work/seeds" > "$work/logs/driver.log" 2>&1) || true

execs=0 edges=0
for f in "$work/logs"/fuzz-*.log; do
    [ -e "$f" ] || continue
    n=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$f" | tail -1)
    e=$(grep -o 'cov: [0-9]*' "$f" | tail -1 | cut -d' ' -f2)
    execs=$((execs + ${n:-0}))
    [ "${e:-0}" -gt "$edges" ] && edges=${e:-0}
done
crashes=$(find "$work/crashes" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \) | wc -l)
[ "$execs" -gt 0 ] || { tail -20 "$work/logs"/*.log; die "the fuzzer did not run"; }
echo "fuzz: $execs executions, $edges edges, $crashes crashes (inputs in $work/crashes)"
