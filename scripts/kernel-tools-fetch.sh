#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Fetch the kernel's own review tools, checkpatch.pl and kernel-doc (and
# the few files the driver's patch series changes), from
# Debian's kernel source package (linux-source-6.12 of bookworm-backports,
# the release the guest kernel is built from), without installing it:
# `apt-get download`, then only the files the tools read are taken out of
# its tarball.  The package the debug kernel build keeps
# ($SIMT_CACHE/guest-debug/debs) is used when it is the same version.
#
#   scripts/kernel-tools-fetch.sh     prints the directory that holds
#                                     scripts/checkpatch.pl and the rest
#
# Result: $SIMT_CACHE/kernel-tools/<version>/, those files at their paths
# in the kernel tree.  Idempotent: the
# version is asked once (SIMT_GUEST_REFRESH=1 asks again), and the
# package is removed once its files are out.
set -euo pipefail

SIMT_CACHE=${SIMT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/simt}
suite=${SIMT_GUEST_SUITE:-bookworm-backports}
srcpkg=linux-source-6.12
tdir=$SIMT_CACHE/kernel-tools
# The review tools, and the files scripts/make-patches.sh's driver series
# changes.
files=(scripts/checkpatch.pl scripts/spelling.txt
       scripts/const_structs.checkpatch scripts/kernel-doc
       MAINTAINERS drivers/accel/Kconfig drivers/accel/Makefile
       Documentation/accel/index.rst)

log() { echo "kernel-tools-fetch: $*" >&2; }
die() { echo "kernel-tools-fetch: error: $*" >&2; exit 1; }

mkdir -p "$tdir"
if [ -f "$tdir/version" ] && [ -z "${SIMT_GUEST_REFRESH:-}" ]; then
    debver=$(cat "$tdir/version")
else
    debver=$(apt-cache show "$srcpkg/$suite" 2>/dev/null |
             sed -n 's/^Version: *//p' | head -1)
    [ -n "$debver" ] ||
        die "$srcpkg not found in $suite; run scripts/setup-host.sh (as root) first"
fi
out=$tdir/$debver
complete=1
for f in "${files[@]}"; do
    [ -f "$out/$f" ] || complete=0
done
if [ -f "$out/done" ] && [ "$complete" = 1 ]; then
    echo "$debver" > "$tdir/version"
    echo "$out"
    exit 0
fi

debname=${srcpkg}_${debver//:/%3a}_all.deb
deb=$SIMT_CACHE/guest-debug/debs/$debname
if [ ! -f "$deb" ]; then
    deb=$tdir/$debname
    if [ ! -f "$deb" ]; then
        log "downloading $srcpkg=$debver (about 150 MB)"
        # As root, apt hands the download to the _apt user, which cannot
        # write into a private cache directory: keep it as root.
        (cd "$tdir" &&
         { apt-get download -q -o APT::Sandbox::User=root "$srcpkg=$debver" >&2 ||
           apt-get download -q "$srcpkg=$debver" >&2; }) ||
            die "apt-get download $srcpkg=$debver failed"
    fi
fi
[ -f "$deb" ] || die "$deb missing after the download"

log "taking ${files[*]} out of $(basename "$deb")"
rm -rf "$out.new"
mkdir -p "$out.new"
dpkg --fsys-tarfile "$deb" |
    tar -xO "./usr/src/$srcpkg.tar.xz" |
    tar -xJ -C "$out.new" --strip-components=1 \
        "${files[@]/#/$srcpkg/}" ||
    die "$(basename "$deb") lacks one of ${files[*]}"
for f in "${files[@]}"; do
    [ -f "$out.new/$f" ] || die "$(basename "$deb") has no $f"
done
touch "$out.new/done"
rm -rf "$out"
mv "$out.new" "$out"
echo "$debver" > "$tdir/version"
# The few files are all that is kept.
rm -f "$tdir"/*.deb
echo "$out"
