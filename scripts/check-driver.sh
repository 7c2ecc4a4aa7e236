#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel's own review tools on the guest driver and its UAPI header,
# as an upstream maintainer's CI runs them, every finding a failure:
#
#   - checkpatch.pl --strict on each source file, the Kconfig and the UAPI
#     header (the scripts of the guest kernel's release, from
#     scripts/kernel-tools-fetch.sh);
#   - a W=1 build of simt.ko with sparse on every file (C=2), against the
#     guest kernel's headers: no compiler or sparse warning;
#   - kernel-doc -Wall on the same files, and kernel-doc present on every
#     struct and every non-static function (scripts/check-kdoc.py);
#   - the Kconfig entry read by the kernel's own Kconfig parser: on a
#     little-endian configuration it selects what the driver needs, on a
#     big-endian one it is not offered.
#
#   scripts/check-driver.sh        TAP on stdout, then "N passed, M failed"
#
# Expects make guest to have fetched the kernel headers
# (KHEADERS, default $SIMT_CACHE/guest/headers) and sparse to be
# installed (scripts/setup-host.sh).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${SIMT_CACHE:?SIMT_CACHE must be set}
headers=${KHEADERS:-$cache/guest/headers}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "TAP version 13"
if ! tools=$("$top/scripts/kernel-tools-fetch.sh"); then
    echo "Bail out! the kernel's checkpatch.pl and kernel-doc could not be fetched"
    exit 1
fi
[ -d "$headers/" ] ||
    { echo "Bail out! no kernel headers in $headers (make guest)"; exit 1; }
command -v sparse >/dev/null ||
    { echo "Bail out! sparse is not installed (scripts/setup-host.sh)"; exit 1; }

cd "$top" || exit 1
sources=(guest-driver/*.c guest-driver/*.h)
uapi=include/uapi/drm/simt_accel.h
# shellcheck source=scripts/tap-result.sh
. "$top/scripts/tap-result.sh"

for f in "${sources[@]}" guest-driver/Kconfig "$uapi"; do
    perl "$tools/scripts/checkpatch.pl" --strict --no-tree --terse \
        --show-types --no-summary -f "$f" > "$work/out" 2>&1
    # Clean means no finding line at all, whatever the exit status says.
    [ -s "$work/out" ] && st=1 || st=0
    tap_result "$st" "checkpatch --strict: no error, warning or check in $f" \
        "$work/out"
done

# A fresh copy, so that every file is compiled and checked.
mkdir -p "$work/build"
cp guest-driver/Kbuild "${sources[@]}" "$work/build/"
make -s -C "$headers" M="$work/build" -j2 W=1 C=2 CHECK=sparse \
    SIMT_INCLUDE="$top/include" CONFIG_DEBUG_INFO_BTF_MODULES= modules \
    > "$work/build.log" 2>&1
st=$?
grep -E 'warning:|error:' "$work/build.log" > "$work/out"
if [ "$st" != 0 ] || [ -s "$work/out" ] || [ ! -f "$work/build/simt.ko" ]; then
    [ -s "$work/out" ] || cp "$work/build.log" "$work/out"
    st=1
fi
tap_result "$st" "W=1 build of simt.ko with sparse on every file: no compiler or sparse warning" \
    "$work/out"

perl "$tools/scripts/kernel-doc" -Wall -none "${sources[@]}" "$uapi" \
    > "$work/out" 2>&1
[ -s "$work/out" ] && st=1 || st=0
tap_result "$st" "kernel-doc -Wall: every comment of the driver and the UAPI well formed" \
    "$work/out"

python3 "$top/scripts/check-kdoc.py" "${sources[@]}" "$uapi" > "$work/out" 2>&1
tap_result $? "kernel-doc on every struct and non-static function of the driver and the UAPI" \
    "$work/out"

# The Kconfig entry in a tree of its own, with the symbols it uses.
mkdir -p "$work/kconfig"
cp guest-driver/Kconfig "$work/kconfig/Kconfig.simt"
cat > "$work/kconfig/Kconfig" <<'EOF'
config MODULES
	bool
	default y
	modules
config BIG_ENDIAN_HOST
	bool "big-endian"
config CPU_BIG_ENDIAN
	def_bool BIG_ENDIAN_HOST
config DRM
	tristate
	default m
config DRM_ACCEL
	def_bool y
config PCI
	def_bool y
config MMU
	def_bool y
config DRM_SCHED
	tristate
config DRM_GEM_SHMEM_HELPER
	tristate
source "Kconfig.simt"
EOF
kconfig() {   # config file, lines to start from...
    local cfg=$1
    shift
    printf '%s\n' "$@" > "$cfg"
    (cd "$work/kconfig" && srctree=. KCONFIG_CONFIG="$cfg" \
        "$headers/scripts/kconfig/conf" -s --olddefconfig Kconfig) \
        > "$work/out" 2>&1 || return 1
    # What it resolved to, shown should a check below fail.
    cat "$cfg" >> "$work/out"
}
le=$work/kconfig/le.config be=$work/kconfig/be.config
kconfig "$le" CONFIG_DRM_ACCEL_SIMT=m &&
    grep -qx CONFIG_DRM_ACCEL_SIMT=m "$le" &&
    grep -qx CONFIG_DRM_SCHED=m "$le" &&
    grep -qx CONFIG_DRM_GEM_SHMEM_HELPER=m "$le"
tap_st=$?
[ "$st" = 0 ] && : > "$work/out"
tap_result "$st" "Kconfig: DRM_ACCEL_SIMT=m selects DRM_SCHED and DRM_GEM_SHMEM_HELPER" \
    "$work/out"
kconfig "$be" CONFIG_DRM_ACCEL_SIMT=m CONFIG_BIG_ENDIAN_HOST=y &&
    ! grep -q '^CONFIG_DRM_ACCEL_SIMT=' "$be"
st=$?
[ "$st" = 0 ] && : > "$work/out"
tap_result "$st" "Kconfig: DRM_ACCEL_SIMT is not offered on a big-endian CPU" \
    "$work/out"

tap_end
