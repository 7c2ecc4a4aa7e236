#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Fetch the guest kernel, its build headers and busybox from Debian, without
# installing anything on the host: `apt-get download` then `dpkg -x` into
# ${SIMT_CACHE}/guest/.  The kernel is whatever bookworm-backports'
# linux-image-amd64 metapackage points at (6.12.x).  The apt sources are set
# up by scripts/setup-host.sh.
#
# Result (printed as shell variables on stdout with --print):
#   $SIMT_CACHE/guest/kver            the kernel release, e.g. 6.12.95+deb12-amd64
#   $SIMT_CACHE/guest/root/           the extracted packages
#   $SIMT_CACHE/guest/vmlinuz         symlink to the kernel image
#   $SIMT_CACHE/guest/headers         symlink to the kbuild tree (make -C)
#
# Idempotent: a second run finds the stamp and does nothing.  Set
# SIMT_GUEST_REFRESH=1 to ask the archive again for a newer kernel.
set -euo pipefail

SIMT_CACHE=${SIMT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/simt}
gdir=$SIMT_CACHE/guest
suite=${SIMT_GUEST_SUITE:-bookworm-backports}
flavour=amd64

log() { echo "guest-fetch: $*" >&2; }
die() { echo "guest-fetch: error: $*" >&2; exit 1; }

print=0
[ "${1:-}" = --print ] && print=1

print_vars() {
    [ "$print" = 1 ] || return 0
    printf 'KVER=%s\nVMLINUZ=%s\nKHEADERS=%s\n' \
        "$(cat "$gdir/kver")" "$gdir/vmlinuz" "$gdir/headers"
}

if [ -f "$gdir/fetch.stamp" ] && [ -z "${SIMT_GUEST_REFRESH:-}" ] &&
   [ -e "$gdir/vmlinuz" ] && [ -d "$gdir/headers/" ]; then
    print_vars
    exit 0
fi

command -v apt-get >/dev/null || die "apt-get not found (a Debian host is needed)"
command -v dpkg >/dev/null || die "dpkg not found"

# Resolve the metapackage: linux-image-amd64 (in $suite) depends on
# linux-image-<abi>-amd64 (= <debian version>).
meta=$(apt-cache show "linux-image-$flavour/$suite" 2>/dev/null) ||
    die "linux-image-$flavour not found in $suite; run scripts/setup-host.sh (as root) first"
dep=$(printf '%s\n' "$meta" | sed -n 's/^Depends: *//p' | head -1 | tr ',' '\n' |
      grep -o "linux-image-[^ ]*-$flavour *(= *[^)]*)" | head -1)
[ -n "$dep" ] || die "cannot parse the dependency of linux-image-$flavour/$suite"
abi=$(printf '%s\n' "$dep" | sed -E "s/^linux-image-(.*)-$flavour .*/\1/")
debver=$(printf '%s\n' "$dep" | sed -E 's/.*\(= *([^)]*)\).*/\1/')
kver=$abi-$flavour
log "kernel $kver (Debian $debver, $suite)"

if [ -f "$gdir/fetch.stamp" ] && [ "$(cat "$gdir/kver" 2>/dev/null)" = "$kver" ]; then
    log "already fetched"
    print_vars
    exit 0
fi

# busybox-static: take the newest version in the configured suites.
bbver=$(apt-cache policy busybox-static | sed -n 's/^ *Candidate: *//p')
[ -n "$bbver" ] && [ "$bbver" != "(none)" ] || die "busybox-static not available from apt"

pkgs=(
    "linux-image-$kver-unsigned=$debver"
    "linux-headers-$kver=$debver"
    "linux-headers-$abi-common=$debver"
    "linux-kbuild-${abi}=$debver"
    "busybox-static=$bbver"
)

debs=$gdir/debs
mkdir -p "$debs"
(
    cd "$debs"
    need=()
    for p in "${pkgs[@]}"; do
        name=${p%%=*} ver=${p#*=}
        # dpkg file names encode ':' in versions as %3a
        f=$(ls "${name}_${ver//:/%3a}_"*.deb 2>/dev/null | head -1 || true)
        [ -n "$f" ] || need+=("$p")
    done
    if [ ${#need[@]} -gt 0 ]; then
        log "downloading ${need[*]}"
        # As root, apt would hand the download to the _apt user, which
        # cannot write into a private cache directory: keep it as root.
        apt-get download -q -o APT::Sandbox::User=root "${need[@]}" >&2 ||
            apt-get download -q "${need[@]}" >&2 ||
            die "apt-get download failed"
    fi
)

root=$gdir/root.new
rm -rf "$root"
mkdir -p "$root"
for p in "${pkgs[@]}"; do
    name=${p%%=*} ver=${p#*=}
    f=$(ls "$debs/${name}_${ver//:/%3a}_"*.deb | head -1)
    log "extracting $(basename "$f")"
    dpkg -x "$f" "$root"
done

# The headers packages point at /usr/src/... and /usr/lib/linux-kbuild-...
# with absolute symlinks; make every absolute link that resolves inside the
# extraction relative, so the tree works where it is (and if it is moved).
fixed=0
while IFS= read -r -d '' l; do
    t=$(readlink "$l")
    case $t in
    /*)
        if [ -e "$root$t" ] || [ -L "$root$t" ]; then
            rel=$(realpath -m --relative-to="$(dirname "$l")" "$root$t")
            ln -sfn "$rel" "$l"
            fixed=$((fixed + 1))
        fi
        ;;
    esac
done < <(find "$root" -type l -print0)
log "made $fixed absolute symlinks relative"

# The flavour's Makefile includes the common tree's Makefile by absolute
# path: point it at the extracted copy, found relative to the file itself.
for mk in "$root"/usr/src/linux-headers-*-"$flavour"/Makefile; do
    sed -i -E 's|^include /usr/src/(linux-headers-[^/]*)/Makefile$|include $(dir $(realpath $(lastword $(MAKEFILE_LIST))))../\1/Makefile|' "$mk"
    grep -q '^include /' "$mk" && die "cannot relocate $mk"
done

hdr=$root/usr/src/linux-headers-$kver
img=$root/boot/vmlinuz-$kver
[ -f "$hdr/Makefile" ] || die "headers not found at $hdr"
[ -f "$img" ] || die "kernel image not found at $img"
[ -d "$root/lib/modules/$kver" ] || [ -d "$root/usr/lib/modules/$kver" ] ||
    die "modules for $kver not found"

rm -rf "$gdir/root"
mv "$root" "$gdir/root"
ln -sfn "root/boot/vmlinuz-$kver" "$gdir/vmlinuz"
ln -sfn "root/usr/src/linux-headers-$kver" "$gdir/headers"
echo "$kver" > "$gdir/kver"
# Keep only the .debs of this version.
for f in "$debs"/*.deb; do
    keep=0
    for p in "${pkgs[@]}"; do
        name=${p%%=*} ver=${p#*=}
        case $(basename "$f") in "${name}_${ver//:/%3a}_"*) keep=1 ;; esac
    done
    [ "$keep" = 1 ] || rm -f "$f"
done
touch "$gdir/fetch.stamp"
log "done: $gdir"
print_vars
