#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The device's sources and the host programs compiled with clang, every
# warning an error (make check's unit suite runs this; gcc builds them in
# the normal builds).  TAP on stdout, one test per file or target:
#
#  - every hw/simt/*.c as QEMU compiles it, in a QEMU build configured
#    with clang and --enable-werror ($SIMT_CACHE/trees/ID/qemu-clang, on
#    the source tree and overlay scripts/build-qemu.sh prepared; only the
#    device's objects and the headers they need are built), so that the
#    flags are those QEMU's meson.build picks for clang;
#  - every C target of the host build (the core on include/standalone,
#    the tools, the tests, the benchmarks, the examples) in a meson build
#    with CC=clang and werror ($CLANG_HOST_BUILD, build/host-clang by
#    default); the RISC-V kernels, built by clang either way, are left
#    out.
#
# Both builds are incremental: a file compiles again only when it or what
# it includes changed.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
: "${SIMT_CACHE:?SIMT_CACHE must be set}"
# shellcheck source=scripts/tree-cache.sh
. "$top/scripts/tree-cache.sh"
src=$simt_tree/qemu-src
qbuild=$simt_tree/qemu-clang
hbuild=${CLANG_HOST_BUILD:-$top/build/host-clang}
jobs=${SIMT_JOBS:-2}
n=0

tap() {   # status (0: ok), description, log to quote when not ok
    n=$((n + 1))
    if [ "$1" = 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        [ -f "${3:-}" ] && sed 's/^/# /' "$3" | tail -40
    fi
}

out=$(mktemp -d "${TMPDIR:-/tmp}/simt-clang.XXXXXX")
trap 'rm -rf "$out"' EXIT

# QEMU's build of the device with clang.
# shellcheck source=scripts/qemu-options.sh
. "$top/scripts/qemu-options.sh"
config_opts=()
for o in "${qemu_config_opts[@]}"; do
    [ "$o" = --disable-werror ] || config_opts+=("$o")
done
config_opts+=(--cc=clang --cxx=clang++ --enable-werror)
config_id=$(printf '%s\n' "$src" "${config_opts[@]}" | sha1sum | cut -c1-12)
rc=0
if [ ! -d "$src/hw/simt" ]; then
    echo "no QEMU source with the simt overlay in $src (run make qemu)" > "$out/configure"
    rc=1
elif [ "$(cat "$qbuild/.simt-config" 2>/dev/null)" != "$config_id" ]; then
    rm -rf "$qbuild"
    mkdir -p "$qbuild"
    (cd "$qbuild" && "$src/configure" "${config_opts[@]}") > "$out/configure" 2>&1 &&
        echo "$config_id" > "$qbuild/.simt-config" || rc=1
fi
tap $rc "QEMU configures with clang and --enable-werror ($qbuild)" "$out/configure"
# Each file's object, from the build's compile_commands.json; a file that
# QEMU's build does not compile fails.
objs=$( [ $rc = 0 ] && /usr/bin/python3 -c '
import json, sys
for e in json.load(open(sys.argv[1])):
    if "/hw/simt/" in e["file"]:
        print("hw/simt/" + e["file"].rsplit("/", 1)[1], e["output"])' \
    "$qbuild/compile_commands.json")
for f in "$top"/hw/simt/*.c; do
    f=hw/simt/${f##*/}
    obj=$(printf '%s\n' "$objs" | awk -v f="$f" '$1 == f { print $2 }')
    if [ -z "$obj" ]; then
        echo "not in $qbuild/compile_commands.json" > "$out/obj"
        tap 1 "clang -Werror compiles $f as QEMU builds it" "$out/obj"
        continue
    fi
    ninja -C "$qbuild" -j "$jobs" "$obj" > "$out/obj" 2>&1
    tap $? "clang -Werror compiles $f as QEMU builds it" "$out/obj"
done

# The host programs with clang.
rc=0
if [ ! -f "$hbuild/build.ninja" ]; then
    CC=clang meson setup -Dwerror=true "$hbuild" "$top" > "$out/setup" 2>&1 || rc=1
fi
tap $rc "meson sets up the host build with CC=clang and werror ($hbuild)" "$out/setup"
# Every executable and library: their C sources, not the kernels.
targets=$( [ $rc = 0 ] && meson introspect --targets "$hbuild" |
    /usr/bin/python3 -c '
import json, os, sys
top = sys.argv[1]
for t in json.load(sys.stdin):
    if t["type"] in ("executable", "static library", "shared library"):
        srcs = sorted({os.path.relpath(s, top) for g in t["target_sources"]
                       for s in g.get("sources", [])})
        out = os.path.relpath(t["filename"][0], sys.argv[2])
        print(out, " ".join(srcs))' "$top" "$hbuild")
while read -r target sources; do
    [ -n "$target" ] || continue
    ninja -C "$hbuild" -j "$jobs" "$target" > "$out/target" 2>&1
    tap $? "clang -Werror builds host target $target ($sources)" "$out/target"
done <<< "$targets"
echo "1..$n"
