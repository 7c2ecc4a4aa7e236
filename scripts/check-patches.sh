#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The upstream patch series of scripts/make-patches.sh, checked as their
# trees' maintainers would:
#
#   - both series are made (the QEMU one must give, file for file, the
#     tree make check builds and tests);
#   - QEMU's checkpatch.pl on each QEMU patch: no error (its warnings are
#     listed; the license notes are explained in the commit messages);
#   - the kernel series applies with `git am` to linux-source-6.12's files
#     and drivers/accel/simt/ of the result builds (W=1), as a module
#     against the guest kernel's headers, with no warning;
#   - the kernel's checkpatch.pl --strict on each kernel patch: no finding
#     (the driver's contract headers are the kernel-style copies of
#     scripts/kernel-contract.py).
#
#   scripts/check-patches.sh       TAP on stdout, then "N passed, M failed"
#
# Expects make qemu and make guest to have run.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${SIMT_CACHE:?SIMT_CACHE must be set}
headers=${KHEADERS:-$cache/guest/headers}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=scripts/tap-result.sh
. "$top/scripts/tap-result.sh"

echo "TAP version 13"
"$top/scripts/make-patches.sh" "$work/series" > "$work/out" 2>&1
st=$?
tap_result $st "make-patches: both series written, the QEMU one giving the tree make check builds" \
    "$work/out"
if [ "$st" != 0 ]; then
    tap_end
    exit 1
fi
tools=$("$top/scripts/kernel-tools-fetch.sh")
pristine=$(cd "$top" && . scripts/tree-cache.sh && cat "$simt_tree/qemu-src/.simt-pristine")

for p in "$work"/series/qemu/0*.patch; do
    case $p in */0000-cover-letter.patch) continue ;; esac
    (cd "$pristine" && perl scripts/checkpatch.pl "$p") > "$work/cp" 2>&1
    grep -E '^(ERROR|WARNING)' "$work/cp" | sort | uniq -c > "$work/out"
    grep -q '^ *[0-9]* ERROR' "$work/out" && st=1 || st=0
    tap_result "$st" "QEMU checkpatch: no error in $(basename "$p")" "$work/out"
done

# The kernel files the series changes, as a repository to apply it to.
k=$work/linux
git init -q "$k"
for f in MAINTAINERS drivers/accel/Kconfig drivers/accel/Makefile \
         Documentation/accel/index.rst; do
    mkdir -p "$k/$(dirname "$f")"
    cp "$tools/$f" "$k/$f"
done
git -C "$k" add -A
git -C "$k" -c user.name=check -c user.email=check@localhost commit -q -m base
: > "$work/out"
st=1
if git -C "$k" -c user.name=check -c user.email=check@localhost \
       am -q "$work"/series/linux/000[1-9]-*.patch > "$work/out" 2>&1; then
    # In the tree, include/uapi is on the include path; here it is added.
    make -s -C "$headers" M="$k/drivers/accel/simt" CONFIG_DRM_ACCEL_SIMT=m W=1 \
        CONFIG_DEBUG_INFO_BTF_MODULES= KCFLAGS="-I$k/include" -j2 modules \
        > "$work/build.log" 2>&1 && [ -f "$k/drivers/accel/simt/simt.ko" ] &&
        ! grep -qE 'warning:|error:' "$work/build.log" && st=0
    [ "$st" = 0 ] || cp "$work/build.log" "$work/out"
fi
tap_result "$st" "the kernel series applies to linux-source-6.12's files and drivers/accel/simt builds" \
    "$work/out"

for p in "$work"/series/linux/0*.patch; do
    case $p in */0000-cover-letter.patch) continue ;; esac
    perl "$tools/scripts/checkpatch.pl" --strict --no-tree --terse \
        --show-types --no-summary "$p" > "$work/out" 2>&1
    # A new file's MAINTAINERS entry comes with the driver's patch.
    grep -v 'FILE_PATH_CHANGES' "$work/out" > "$work/cp"
    [ -s "$work/cp" ] && st=1 || st=0
    tap_result "$st" "kernel checkpatch --strict: no finding in $(basename "$p")" "$work/cp"
done

tap_end
