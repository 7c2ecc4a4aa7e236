#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build qemu-system-x86_64 with the simt device and its qtest.
#
# The QEMU 10.0 source comes from Debian's source package (trixie, with
# Debian's patches), unpacked once under $SIMT_CACHE/src and never
# changed there.  Each work tree gets its own copy of it, hard links made
# in a moment, in its directory of the cache (scripts/tree-cache.sh:
# $SIMT_CACHE/trees/ID/qemu-src), unless QEMU_SRC names a checkout of the
# user's own.  Our files are copied onto that copy (only when their
# content changed, so ninja rebuilds only what changed; a copied file
# replaces the link, never writes through it) and a few hook lines are
# added to QEMU's Kconfig and meson files.  So two clones sharing
# SIMT_CACHE each build their own device code, even at the same time.
#
# The build goes to QEMU_BUILD ($SIMT_CACHE/trees/ID/qemu-build by
# default); SIMT_QEMU_SANITIZE=1 adds AddressSanitizer and UBSan to the
# configure options (make check SANITIZE=1 builds so in
# $SIMT_CACHE/trees/ID/qemu-asan, from the same source tree and overlay).
# The directories of trees whose path no longer exists are removed.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${SIMT_CACHE:?SIMT_CACHE must be set}
# shellcheck source=scripts/tree-cache.sh
. "$top/scripts/tree-cache.sh"
build=$QEMU_BUILD
jobs=${JOBS:-$(nproc)}

log() { printf 'build-qemu: %s\n' "$*" >&2; }
die() { printf 'build-qemu: error: %s\n' "$*" >&2; exit 1; }

fetch_source() {
    local dir
    dir=$(ls -d "$cache"/src/qemu-10.0.*/ 2>/dev/null | sort -V | tail -1)
    if [ -z "$dir" ]; then
        log "fetching the QEMU 10.0 source package (trixie)"
        mkdir -p "$cache/src"
        (cd "$cache/src" && apt-get source -q qemu/trixie >/dev/null) ||
            die "apt-get source qemu/trixie failed (are deb-src entries set up? run scripts/setup-host.sh)"
        dir=$(ls -d "$cache"/src/qemu-10.0.*/ | sort -V | tail -1)
    fi
    echo "${dir%/}"
}

# This tree's copy of the pristine source: hard links, rebuilt when the
# source package changed.
tree_source() {   # pristine
    local copy=$simt_tree/qemu-src
    if [ "$(cat "$copy/.simt-pristine" 2>/dev/null)" != "$1" ]; then
        log "linking a copy of $1 for this tree in $copy"
        rm -rf "$copy" "$copy.new"
        mkdir -p "$simt_tree"
        cp -al "$1" "$copy.new"
        echo "$1" > "$copy.new/.simt-pristine"
        mv "$copy.new" "$copy"
    fi
    echo "$copy"
}

# Trees whose work tree is gone (a CI clone, a removed worktree).
for d in "$cache"/trees/*/; do
    [ -f "$d/path" ] && [ ! -d "$(cat "$d/path")" ] && rm -rf "$d"
done
mkdir -p "$simt_tree"
echo "$simt_tree_top" > "$simt_tree/path"

if [ -n "${QEMU_SRC:-}" ]; then
    src=$(cd "$QEMU_SRC" && pwd) || die "QEMU_SRC=$QEMU_SRC does not exist"
else
    src=$(tree_source "$(fetch_source)")
fi
[ -f "$src/VERSION" ] || die "$src is not a QEMU source tree"
case $(cat "$src/VERSION") in
    10.0.*) ;;
    *) die "$src is QEMU $(cat "$src/VERSION"); simt needs QEMU 10.0.x" ;;
esac

# Copy our files onto the tree, touching only those whose content changed.
overlay_file() {
    local from=$1 to=$2
    if ! cmp -s "$from" "$to"; then
        mkdir -p "$(dirname "$to")"
        # A new file, not a write through the link to the pristine one.
        cp --remove-destination "$from" "$to"
    fi
}
cd "$top"
manifest=$src/.simt-overlay
new_manifest=$(mktemp)
{
    git ls-files -co --exclude-standard hw/simt include/hw/simt \
        'tests/qtest/simt*' 'tests/qtest/libqos/simt*' \
        tests/qtest/libqos/x86_64_q35-machine.c
    (cd qemu-overlay && git ls-files -co --exclude-standard .)
} | sort -u > "$new_manifest"
while read -r f; do
    if [ -f "$top/$f" ]; then
        overlay_file "$top/$f" "$src/$f"
    elif [ -f "$top/qemu-overlay/$f" ]; then
        overlay_file "$top/qemu-overlay/$f" "$src/$f"
    fi
done < "$new_manifest"
# The kernel image loader (plain C, MIT) is compiled into the qtests.
for f in simt-elf.c simt-elf.h elf-defs.h; do
    overlay_file "$top/tools/simt-meta/$f" "$src/tests/qtest/$f"
    echo "tests/qtest/$f" >> "$new_manifest"
done
sort -u -o "$new_manifest" "$new_manifest"
# Files we placed before and that no longer exist here go away.
if [ -f "$manifest" ]; then
    comm -23 "$manifest" "$new_manifest" | while read -r f; do
        rm -f "$src/$f"
    done
fi
mv "$new_manifest" "$manifest"

# QEMU's own files that simt changes: the patches of qemu-patches/, in
# name order, applied to the files as they were before any patch (kept
# in $src/.simt-orig), in a scratch directory, and copied onto the tree
# like the overlay (only when the result changed).  A file that no patch
# changes any more gets its old content back.
patched=$src/.simt-patched orig=$src/.simt-orig
new_patched=$(mktemp)
scratch=$(mktemp -d)
for p in "$top"/qemu-patches/*.patch; do
    [ -e "$p" ] || continue
    for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p"); do
        [ -f "$scratch/$f" ] && continue
        if [ ! -f "$orig/$f" ]; then
            [ -f "$src/$f" ] || die "$p changes $f, which $src does not have"
            mkdir -p "$(dirname "$orig/$f")"
            cp "$src/$f" "$orig/$f"
        fi
        mkdir -p "$(dirname "$scratch/$f")"
        cp "$orig/$f" "$scratch/$f"
        echo "$f" >> "$new_patched"
    done
    patch -s -p1 -d "$scratch" --no-backup-if-mismatch < "$p" ||
        die "$p does not apply to $src"
done
sort -u -o "$new_patched" "$new_patched"
while read -r f; do
    overlay_file "$scratch/$f" "$src/$f"
done < "$new_patched"
if [ -f "$patched" ]; then
    comm -23 "$patched" "$new_patched" | while read -r f; do
        overlay_file "$orig/$f" "$src/$f"
        rm -f "$orig/$f"
    done
fi
mv "$new_patched" "$patched"
rm -rf "$scratch"

# The hook lines.  Lines mentioning simt that are not (or no longer) ours
# are dropped first, so a changed hook replaces the old one.
hook() {   # file, then pairs of: anchor line (exact), our line
    local file=$1 keep
    shift
    keep=$(printf '%s\n' "$@" | awk 'NR % 2 == 0')
    KEEP=$keep awk 'BEGIN { n = split(ENVIRON["KEEP"], k, "\n")
                            for (i = 1; i <= n; i++) ours[k[i]] = 1 }
                    !(/simt/ && !($0 in ours))' "$file" > "$file.simt"
    if cmp -s "$file" "$file.simt"; then
        rm "$file.simt"
    else
        mv "$file.simt" "$file"
    fi
    while [ $# -gt 0 ]; do
        local anchor=$1 line=$2
        shift 2
        grep -qxF "$line" "$file" && continue
        grep -qxF "$anchor" "$file" || die "cannot hook into $file: '$anchor' not found"
        awk -v a="$anchor" -v l="$line" '{ print } $0 == a { print l }' \
            "$file" > "$file.simt" && mv "$file.simt" "$file"
    done
}
hook "$src/hw/Kconfig" "source usb/Kconfig" "source simt/Kconfig"
hook "$src/hw/meson.build" "subdir('usb')" "subdir('simt')"
hook "$src/meson.build" "    'hw/sensor'," "    'hw/simt',"
# Every tests/qtest/simt*-test.c is a qtest program, but for
# simt*-qos-test.c, which register tests on the qgraph node of
# tests/qtest/libqos/simt.c and are linked into QEMU's qos-test; all but
# simt-test load kernel images and so are linked with the image loader
# and the shared helpers.
qtests=$(cd "$top/tests/qtest" && ls simt*-test.c | grep -v -- '-qos-test\.c$' |
         sed 's/\.c$//')
qos_tests=$(cd "$top/tests/qtest" && ls simt*-qos-test.c)
# QEMU's own tests every device must pass, which make check runs with the
# device in the build: device_add help and device-list-properties on every
# device with the QOM tree unchanged after, every machine's QOM readable;
# and qos-test, which holds the qgraph's tests (make check runs those on
# the simt node).
qemu_generic_qtests="device-introspect-test qom-test qos-test"
qtest_list=$(printf "'%s', " $qtests)
# Sources a qtest needs beside its own and the shared helpers.
extra_qtest_files() {   # qtest
    case $1 in
    simt-preempt-test) printf ", 'simt-rodinia.c', 'simt-user-kernels.c'" ;;
    esac
}
qtest_hooks=(
    "qtests_x86_64 = qtests_i386"
    "qtests_x86_64 += (config_all_devices.has_key('CONFIG_SIMT') ? [${qtest_list%, }] : [])"
)
for t in $qtests; do
    [ "$t" = simt-test ] && continue
    qtest_hooks+=("  'cdrom-test': files('boot-sector.c'),"
                  "  '$t': files('simt-elf.c', 'simt-qtest.c'$(extra_qtest_files $t)),")
done
for t in $qos_tests; do
    qtest_hooks+=("qos_test_ss = ss.source_set()" "qos_test_ss.add(files('$t'))")
done
hook "$src/tests/qtest/meson.build" "${qtest_hooks[@]}"
# The simt node, and a q35 machine node (QEMU's qgraph has only pc's).
hook "$src/tests/qtest/libqos/meson.build" "        'e1000e.c'," "        'simt.c'," \
    "        'x86_64_pc-machine.c'," "        'x86_64_q35-machine.c',  # simt's, not QEMU's"

# Configure once per set of options.
# shellcheck source=scripts/qemu-options.sh
. "$top/scripts/qemu-options.sh"
config_opts=("${qemu_config_opts[@]}")
# make check SANITIZE=1: AddressSanitizer and UBSan (gcc), a UBSan report
# fatal rather than a log line; only then are options added, so the
# normal build's config id stays what it was.
if [ "${SIMT_QEMU_SANITIZE:-0}" = 1 ]; then
    config_opts+=(--enable-asan --enable-ubsan
                  --extra-cflags=-fno-sanitize-recover=undefined
                  --extra-cflags=-fno-omit-frame-pointer)
fi
config_id=$(printf '%s\n' "$src" "${config_opts[@]}" "${QEMU_CONFIGURE_EXTRA:-}" | sha1sum | cut -c1-12)
if [ "$(cat "$build/.simt-config" 2>/dev/null)" != "$config_id" ]; then
    log "configuring $src in $build"
    mkdir -p "$build"
    # shellcheck disable=SC2086
    (cd "$build" && "$src/configure" "${config_opts[@]}" ${QEMU_CONFIGURE_EXTRA:-} \
        > configure.log 2>&1) || { tail -30 "$build/configure.log"; die "configure failed (log: $build/configure.log)"; }
    echo "$config_id" > "$build/.simt-config"
fi

# Run from the build tree, QEMU looks for firmware under qemu-bundle/ (the
# configured firmware path, relocated): point it at Debian's firmware.
for dir in /usr/share/seabios /usr/share/qemu; do
    mkdir -p "$build/qemu-bundle$(dirname "$dir")"
    ln -sfn "$dir" "$build/qemu-bundle$dir"
done

log "building in $build"
# shellcheck disable=SC2046
ninja -C "$build" -j "$jobs" qemu-system-x86_64 \
    $(printf 'tests/qtest/%s ' $qtests $qemu_generic_qtests)
# The work tree's way to its build: build/qemu-build (make qemu's QEMU
# for running by hand; SANITIZE=1's stays in the cache).
if [ "${SIMT_QEMU_SANITIZE:-0}" != 1 ] && [ -z "${QEMU_SRC:-}" ]; then
    mkdir -p "$top/build"
    ln -sfn "$build" "$top/build/qemu-build"
fi
log "built: $build/qemu-system-x86_64"
