#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the guest side: the simt.ko driver (against the kernel headers that
# scripts/guest-fetch.sh extracted) and the busybox initramfs
#   ${SIMT_CACHE}/guest/initrd.cpio.gz
# holding busybox and its applet links, drm.ko (decompressed), simt.ko,
# the guest scripts (guest/) and the hardware contract's numbers as shell
# variables (simt-hw.env, generated from include/hw/simt/simt-hw.h).
#
# Incremental: the module is built by kbuild in a copy of guest-driver/
# under the cache (only changed files are copied, so make rebuilds only
# what changed), and the initramfs is repacked only if an input is newer.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
SIMT_CACHE=${SIMT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/simt}
export SIMT_CACHE
gdir=$SIMT_CACHE/guest
jobs=${SIMT_JOBS:-2}

log() { echo "guest-build: $*" >&2; }
die() { echo "guest-build: error: $*" >&2; exit 1; }

for tool in make gcc cpio gzip xz; do
    command -v "$tool" >/dev/null || die "$tool not found (run scripts/setup-host.sh)"
done

"$here/guest-fetch.sh"
kver=$(cat "$gdir/kver")
kroot=$gdir/root
headers=$gdir/headers

# ---- the module ----
bdir=$gdir/build/driver
mkdir -p "$bdir"
# Copy the sources (Kbuild, *.c, *.h, in subdirectories too), each only if
# it changed, keeping its time stamp, so that kbuild rebuilds only what
# changed; drop sources that are gone from the repository.
(
    cd "$repo/guest-driver"
    find . -type f \( -name Kbuild -o -name '*.[ch]' \) ! -name '*.mod.c' |
    while read -r f; do
        mkdir -p "$bdir/$(dirname "$f")"
        cmp -s "$f" "$bdir/$f" || cp -p "$f" "$bdir/$f"
    done
)
(
    cd "$bdir"
    find . -type f -name '*.[ch]' ! -name '*.mod.c' |
    while read -r f; do
        [ -e "$repo/guest-driver/$f" ] || rm -f "$f"
    done
)

log "building simt.ko for $kver"
t0=$(date +%s%N)
make -s -C "$headers" M="$bdir" -j"$jobs" \
    SIMT_INCLUDE="$repo/include" CONFIG_DEBUG_INFO_BTF_MODULES= modules >&2
t1=$(date +%s%N)
log "simt.ko ready ($(( (t1 - t0) / 1000000 )) ms)"
[ -f "$bdir/simt.ko" ] || die "simt.ko was not built"

# ---- the hardware contract as shell variables ----
envf=$gdir/build/simt-hw.env
if [ ! -f "$envf" ] || [ "$repo/include/hw/simt/simt-hw.h" -nt "$envf" ] ||
   [ "$repo/include/hw/simt/simt-isa.h" -nt "$envf" ]; then
    log "generating simt-hw.env"
    gen=$gdir/build/gen-hw-env
    cat > "$gen.c" <<'EOF'
#include <stdio.h>
#include "hw/simt/simt-hw.h"
#define X(n) printf("%s=0x%llx\n", #n, (unsigned long long)(n))
#define D(n) printf("%s=%llu\n", #n, (unsigned long long)(n))
int main(void)
{
    X(SIMT_PCI_VENDOR_ID); X(SIMT_PCI_DEVICE_ID); X(SIMT_PCI_CLASS_CODE);
    X(SIMT_PCI_REVISION); X(SIMT_ID_MAGIC);
    D(SIMT_VERSION_MAJOR); D(SIMT_VERSION_MINOR);
    D(SIMT_BAR_REGS); D(SIMT_BAR_VRAM); D(SIMT_BAR_MSIX);
    X(SIMT_REGS_SIZE); D(SIMT_IRQ_NR); D(SIMT_IRQ_TEST);
    return 0;
}
EOF
    gcc -O0 -I"$repo/include" -o "$gen" "$gen.c"
    { echo "# generated from include/hw/simt/simt-hw.h by guest-build.sh"
      "$gen"; } > "$envf.tmp"
    mv "$envf.tmp" "$envf"
fi

# ---- simt-query, a static userspace probe of the accel node ----
query=$gdir/build/simt-query
if [ ! -x "$query" ] || [ "$repo/guest/simt-query.c" -nt "$query" ] ||
   [ "$repo/guest-driver/uapi/simt_accel.h" -nt "$query" ]; then
    log "building simt-query"
    # The kernel's uapi headers as shipped in the headers package are not
    # sanitized for userspace: drop the __user annotation, and let the
    # host's own <linux/...> headers win over them.
    gcc -static -O2 -Wall -D__user= -I"$repo/guest-driver/uapi" \
        -idirafter "$(readlink -f "$headers")/../linux-headers-${kver%-*}-common/include/uapi" \
        -o "$query.tmp" "$repo/guest/simt-query.c"
    mv "$query.tmp" "$query"
fi

# ---- drm.ko, decompressed once ----
drm_src=$(find "$kroot/lib/modules/$kver" -path '*/drivers/gpu/drm/drm.ko*' | head -1)
[ -n "$drm_src" ] || die "drm.ko not found in $kroot/lib/modules/$kver"
drm_ko=$gdir/build/drm.ko
if [ ! -f "$drm_ko" ] || [ "$drm_src" -nt "$drm_ko" ]; then
    case $drm_src in
    *.xz) xz -dc "$drm_src" > "$drm_ko.tmp" ;;
    *.zst) zstd -dcq "$drm_src" > "$drm_ko.tmp" ;;
    *.gz) gzip -dc "$drm_src" > "$drm_ko.tmp" ;;
    *) cp "$drm_src" "$drm_ko.tmp" ;;
    esac
    mv "$drm_ko.tmp" "$drm_ko"
fi

# ---- the initramfs ----
out=$gdir/initrd.cpio.gz
inputs=("$bdir/simt.ko" "$envf" "$drm_ko" "$query" "$repo"/guest/* "$here/guest-build.sh")
if [ -f "$out" ]; then
    stale=0
    for f in "${inputs[@]}"; do
        if [ "$f" -nt "$out" ]; then stale=1; fi
    done
    if [ "$stale" = 0 ]; then
        log "initramfs up to date: $out"
        exit 0
    fi
fi

log "packing the initramfs"
stage=$gdir/build/initrd
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,root,etc,lib/simt}
busybox=$kroot/bin/busybox
[ -x "$busybox" ] || die "busybox not found in $kroot"
cp "$busybox" "$stage/bin/busybox"
# Applet links: bin/sh -> busybox and so on.  The list comes from the
# static binary itself (it runs on the host too).
while read -r applet; do
    case $applet in
    */*) link=$stage/$applet ;;
    *) link=$stage/bin/$applet ;;
    esac
    [ -e "$link" ] || ln -s /bin/busybox "$link"
done < <("$busybox" --list-full 2>/dev/null || "$busybox" --list | sed 's|^|bin/|')

install -m 0755 "$repo/guest/init" "$stage/init"
for f in "$repo"/guest/*.sh; do
    install -m 0755 "$f" "$stage/lib/simt/$(basename "$f")"
done
install -m 0644 "$envf" "$stage/lib/simt/simt-hw.env"
install -m 0755 "$query" "$stage/bin/simt-query"

mdir=$stage/lib/modules/$kver
mkdir -p "$mdir/kernel/drivers/gpu/drm" "$mdir/extra"
cp "$drm_ko" "$mdir/kernel/drivers/gpu/drm/drm.ko"
cp "$bdir/simt.ko" "$mdir/extra/simt.ko"
for f in modules.order modules.builtin modules.builtin.modinfo; do
    [ -f "$kroot/lib/modules/$kver/$f" ] && cp "$kroot/lib/modules/$kver/$f" "$mdir/"
done
# modules.dep so that "modprobe simt" works in the shell (optional).
if command -v depmod >/dev/null || [ -x /sbin/depmod ]; then
    PATH=$PATH:/sbin depmod -b "$stage" "$kver" 2>/dev/null ||
        log "depmod failed (modprobe will not work in the guest; insmod does)"
fi

cat > "$stage/etc/profile" <<'EOF'
PS1='simt-guest# '
export PS1
. /lib/simt/common.sh
EOF
echo "root:x:0:0:root:/root:/bin/sh" > "$stage/etc/passwd"

# /dev/console must exist before init runs (the kernel opens it for init's
# stdin/stdout).  Making a device node needs root, so write its cpio entry
# directly: newc header fields are 8 hex digits.
newc_entry() {  # name mode nlink rdevmajor rdevminor
    local name=$1 mode=$2 nlink=$3 rmaj=$4 rmin=$5
    local namesize=$(( ${#name} + 1 ))
    printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
        0 "$mode" 0 0 "$nlink" 0 0 0 0 "$rmaj" "$rmin" "$namesize" 0
    printf '%s\0' "$name"
    local pad=$(( (4 - (110 + namesize) % 4) % 4 ))
    head -c "$pad" /dev/zero
}

tmp=$out.tmp
{
    newc_entry dev $((0040755)) 2 0 0
    newc_entry dev/console $((0020600)) 1 5 1
    (cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
        cpio -o -H newc --owner 0:0 --quiet)
} | gzip -n -6 > "$tmp"
mv "$tmp" "$out"
log "initramfs: $out ($(du -h "$out" | cut -f1))"
