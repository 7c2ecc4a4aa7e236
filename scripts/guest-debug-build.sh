#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the debug guest kernel (make check DEBUG_KERNEL=1) from Debian's
# own kernel source package, linux-source-6.12 of bookworm-backports,
# fetched with `apt-get download` and unpacked with `dpkg -x` (never
# installed on the host).  Configured from tinyconfig plus
# scripts/guest-debug.config (merge_config.sh, then olddefconfig); every
# option of the fragment is checked afterwards.  Result, under
# ${SIMT_CACHE}/guest-debug/ (laid out like guest-fetch.sh's guest/, so
# that guest-build.sh treats both alike):
#
#   kver          the kernel release, e.g. 6.12.95-simt-debug
#   vmlinuz       symlink to the kernel image
#   headers       symlink to the kernel build tree (make -C headers M=...)
#   root/lib/modules/<kver>/   the modules (make modules_install)
#   src/linux-source-6.12/     the unpacked source, with the local Kconfig
#                              entry below
#   obj/          the build tree (O=), build.log its last build's output
#
# The source package has no driver that selects DRM_SCHED (gpu-sched)
# and DRM_GEM_SHMEM_HELPER on x86 short of a whole GPU driver (amdgpu,
# nouveau, xe), and both have no prompt: the script appends a local
# Kconfig entry, DRM_ACCEL_SIMT_DEPS, to drivers/accel/Kconfig, which
# selects them (and drm_kms_helper), as simt's own entry would upstream;
# and a second one, DRM_ACCEL_SIMT_BUILTIN_DEPS, which builds in
# DRM_PANEL_ORIENTATION_QUIRKS (no prompt either), which drm.ko needs and
# guest/common.sh's insmod would not load.  No source file is changed.
#
# Incremental: a stamp records the source version and a hash of the
# fragment and of this script; a second run with the same ones does
# nothing, a changed fragment reconfigures and rebuilds (kbuild rebuilds
# only what the changed options touch).  SIMT_GUEST_REFRESH=1 asks the
# archive again for a newer source package.  SIMT_JOBS sets make -j
# (default 2); the build runs under nice -n 10.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
SIMT_CACHE=${SIMT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/simt}
ddir=$SIMT_CACHE/guest-debug
suite=${SIMT_GUEST_SUITE:-bookworm-backports}
srcpkg=linux-source-6.12
fragment=$here/guest-debug.config
jobs=${SIMT_JOBS:-2}

log() { echo "guest-debug-build: $*" >&2; }
die() { echo "guest-debug-build: error: $*" >&2; exit 1; }

[ -f "$fragment" ] || die "$fragment missing"

# What building a kernel needs beyond scripts/setup-host.sh's packages:
# bc (timeconst.h) and libelf (objtool, for the ORC unwinder).  Checked
# every run; installed from Debian when missing.
need_pkgs=()
command -v bc >/dev/null || need_pkgs+=(bc)
[ -f /usr/include/gelf.h ] || need_pkgs+=(libelf-dev)
if [ ${#need_pkgs[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] ||
        die "building the kernel needs ${need_pkgs[*]}: install them (as root: apt-get install ${need_pkgs[*]})"
    log "installing ${need_pkgs[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "${need_pkgs[@]}" >&2 || die "apt-get install ${need_pkgs[*]} failed"
fi
for tool in make gcc bc flex bison perl xz dpkg apt-get; do
    command -v "$tool" >/dev/null || die "$tool not found (run scripts/setup-host.sh)"
done

key=$(cat "$fragment" "$0" | sha256sum | cut -d' ' -f1)

# ---- the source package's version: asked once, then kept ----
src_root=$ddir/src
if [ -f "$src_root/version" ] && [ -z "${SIMT_GUEST_REFRESH:-}" ]; then
    debver=$(cat "$src_root/version")
else
    debver=$(apt-cache show "$srcpkg/$suite" 2>/dev/null | sed -n 's/^Version: *//p' | head -1)
    [ -n "$debver" ] ||
        die "$srcpkg not found in $suite; run scripts/setup-host.sh (as root) first"
fi

stamp=$ddir/build.stamp
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$debver $key" ] &&
   [ -e "$ddir/vmlinuz" ] && [ -d "$ddir/headers/" ] && [ -f "$ddir/kver" ]; then
    exit 0
fi
log "debug kernel from $srcpkg $debver ($suite)"

# ---- download and unpack the source ----
src=$src_root/$srcpkg
if [ "$(cat "$src_root/version" 2>/dev/null)" != "$debver" ] || [ ! -f "$src/Makefile" ]; then
    debs=$ddir/debs
    mkdir -p "$debs"
    deb=$(ls "$debs/${srcpkg}_${debver//:/%3a}_"*.deb 2>/dev/null | head -1 || true)
    if [ -z "$deb" ]; then
        log "downloading $srcpkg=$debver (about 150 MB)"
        # As root, apt hands the download to the _apt user, which cannot
        # write into a private cache directory: keep it as root.
        (cd "$debs" &&
         { apt-get download -q -o APT::Sandbox::User=root "$srcpkg=$debver" >&2 ||
           apt-get download -q "$srcpkg=$debver" >&2; }) ||
            die "apt-get download $srcpkg=$debver failed"
        deb=$(ls "$debs/${srcpkg}_${debver//:/%3a}_"*.deb | head -1)
    fi
    log "unpacking $(basename "$deb")"
    rm -rf "$src_root.new"
    mkdir -p "$src_root.new/deb"
    dpkg -x "$deb" "$src_root.new/deb"
    tarball=$src_root.new/deb/usr/src/$srcpkg.tar.xz
    [ -f "$tarball" ] || die "$(basename "$deb") has no usr/src/$srcpkg.tar.xz"
    tar -xf "$tarball" -C "$src_root.new"
    rm -rf "$src_root.new/deb"
    [ -f "$src_root.new/$srcpkg/Makefile" ] || die "the tarball has no $srcpkg/Makefile"
    echo "$debver" > "$src_root.new/version"
    rm -rf "$src_root" "$ddir/obj" "$ddir/root" "$stamp"
    mv "$src_root.new" "$src_root"
    # Only this version's package is kept.
    for f in "$debs"/*.deb; do
        case $(basename "$f") in "${srcpkg}_${debver//:/%3a}_"*) ;; *) rm -f "$f" ;; esac
    done
fi

# ---- the local Kconfig entries (see the top of this file) ----
# Written anew on every run onto a copy of the file as unpacked.
kc=$src/drivers/accel/Kconfig
[ -f "$kc.orig" ] || cp "$kc" "$kc.orig"
{
    cat "$kc.orig"
    cat <<'EOF'

# Added by simt's scripts/guest-debug-build.sh: what the out-of-tree
# simt.ko needs and no x86 driver of this tree selects on its own.
config DRM_ACCEL_SIMT_DEPS
	tristate "Helpers for the out-of-tree simt accel driver"
	depends on DRM && DRM_ACCEL && MMU
	select DRM_SCHED
	select DRM_GEM_SHMEM_HELPER
	select DRM_KMS_HELPER
	help
	  Builds gpu-sched, drm_shmem_helper and drm_kms_helper for the
	  simt driver, which is built out of tree.

# The simt guest loads drm.ko with insmod, which loads no dependency:
# what drm.ko needs besides is built in, as in Debian's kernel (where
# the EFI and simple framebuffer drivers select this one).  No
# "depends on DRM": with DRM=m it would make the select a module too.
config DRM_ACCEL_SIMT_BUILTIN_DEPS
	bool "Built-in parts drm.ko needs in the simt guest"
	select DRM_PANEL_ORIENTATION_QUIRKS
EOF
} > "$kc.new"
if cmp -s "$kc.new" "$kc"; then rm -f "$kc.new"; else mv "$kc.new" "$kc"; fi

# ---- configure: tinyconfig + the fragment, then olddefconfig ----
obj=$ddir/obj
mkdir -p "$obj"
kmake() { make -C "$src" O="$obj" "$@"; }
log "configuring (tinyconfig + $(basename "$fragment"))"
kmake -s tinyconfig >&2 || die "make tinyconfig failed"
(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "$fragment") \
    > "$ddir/merge.log" 2>&1 || { cat "$ddir/merge.log" >&2; die "merge_config.sh failed"; }
kmake -s olddefconfig >&2 || die "make olddefconfig failed"

# Every option of the fragment as written, or a clear error naming it.
bad=0
while IFS= read -r line; do
    case $line in
    CONFIG_*=*)
        opt=${line%%=*}
        if ! grep -qxF "$line" "$obj/.config"; then
            got=$(grep -E "^$opt=|^# $opt is not set" "$obj/.config" || echo "absent (its dependencies are not met)")
            echo "guest-debug-build: error: $opt: wanted '${line#*=}', got: $got" >&2
            bad=1
        fi
        ;;
    "# CONFIG_"*" is not set")
        opt=${line#\# }
        opt=${opt%% *}
        if grep -qE "^$opt=" "$obj/.config"; then
            echo "guest-debug-build: error: $opt: wanted not set, got: $(grep -E "^$opt=" "$obj/.config")" >&2
            bad=1
        fi
        ;;
    esac
done < "$fragment"
[ "$bad" = 0 ] || die "the configuration lacks options of $fragment (see above; $obj/.config)"
log "configuration checked: every option of $(basename "$fragment") is set"

# ---- build ----
log "building with make -j$jobs under nice (log: $ddir/build.log)"
t0=$(date +%s)
if ! nice -n 10 make -C "$src" O="$obj" -j"$jobs" bzImage modules > "$ddir/build.log" 2>&1; then
    grep -E 'error|Error' "$ddir/build.log" | head -20 >&2 || true
    tail -20 "$ddir/build.log" >&2
    die "the kernel build failed (log: $ddir/build.log)"
fi
log "built in $(( $(date +%s) - t0 )) s"
kver=$(cat "$obj/include/config/kernel.release")
case $kver in *-simt-debug) ;; *) die "kernel release '$kver' lacks -simt-debug" ;; esac

# ---- install: modules under root/, the image beside them ----
rm -rf "$ddir/root.new"
kmake -s INSTALL_MOD_PATH="$ddir/root.new" modules_install > "$ddir/install.log" 2>&1 ||
    { cat "$ddir/install.log" >&2; die "make modules_install failed"; }
mkdir -p "$ddir/root.new/boot"
cp "$obj/arch/x86/boot/bzImage" "$ddir/root.new/boot/vmlinuz-$kver"
cp "$obj/.config" "$ddir/root.new/boot/config-$kver"
# guest/common.sh loads these with insmod, in this order: each may
# depend only on the ones before it.
loaded=" "
for m in drm drm_kms_helper drm_shmem_helper scheduler/gpu-sched; do
    ko=$ddir/root.new/lib/modules/$kver/kernel/drivers/gpu/drm/$m.ko
    [ -f "$ko" ] || die "$m.ko was not built"
    for dep in $(PATH=$PATH:/sbin modinfo -F depends "$ko" | tr , ' '); do
        case $loaded in
        *" $dep "*) ;;
        *) die "$m.ko depends on $dep.ko, which the guest does not load before it: build it in" ;;
        esac
    done
    loaded+="$(basename "$m" | tr - _) "
done
rm -rf "$ddir/root"
mv "$ddir/root.new" "$ddir/root"
ln -sfn "root/boot/vmlinuz-$kver" "$ddir/vmlinuz"
ln -sfn obj "$ddir/headers"
echo "$kver" > "$ddir/kver"
echo "$debver $key" > "$stamp"
log "done: $ddir ($kver)"
