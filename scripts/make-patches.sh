#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Write simt as two `git format-patch` series, as it would be sent
# upstream (make patches):
#
#   OUT/qemu/    against the QEMU 10.0 source the build uses: QEMU's own
#                files that simt changes (qemu-patches/), the q35 qgraph
#                machine node, the device, its qtests
#   OUT/linux/   against Debian's linux-source-6.12 (the guest kernel's
#                release): the UAPI header, the driver as
#                drivers/accel/simt/ with its Kconfig and Makefile hooked
#                into drivers/accel/, its documentation page
#
#   scripts/make-patches.sh [OUT]          (default: build/patches)
#
# The QEMU series is made from the tree scripts/build-qemu.sh builds (make
# qemu first): each patch is the difference, for its files, between the
# pristine source and that tree, so the series is what make check builds
# and tests.  The kernel series is made from guest-driver/ and include/:
# the hardware contract headers go beside the driver in the kernel's style,
# with what the driver does not use left out (scripts/kernel-contract.py),
# and the driver's includes of them and of the UAPI are rewritten for the
# kernel tree.  Each series is made in a git repository of only
# the files it touches; its patches carry the blob ids of the full trees'
# files, so `git am` applies them to either tree.  Every patch is signed
# off by this repository's author.  scripts/check-patches.sh checks both.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build/patches}
cache=${SIMT_CACHE:?SIMT_CACHE must be set}
# shellcheck source=scripts/tree-cache.sh
. "$top/scripts/tree-cache.sh"
qemu_src=${QEMU_SRC:-$simt_tree/qemu-src}

die() { echo "make-patches: error: $*" >&2; exit 1; }

[ -f "$qemu_src/.simt-pristine" ] ||
    die "no QEMU tree built from this checkout in $qemu_src (make qemu)"
pristine=$(cat "$qemu_src/.simt-pristine")
[ -d "$pristine" ] || die "the pristine QEMU source $pristine is gone (make qemu)"
kernel_tools=$("$top/scripts/kernel-tools-fetch.sh")
author=$(cd "$top" && git log -1 --format='%an <%ae>')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A repository holding @base's copies of the files FILES... that exist
# there, committed as the starting point.
start_repo() {   # dir, base, files...
    local dir=$1 base=$2 f
    shift 2
    git init -q "$dir"
    git -C "$dir" config user.name "${author% <*}"
    git -C "$dir" config user.email "$(printf '%s' "${author##*<}" | tr -d '>')"
    for f in "$@"; do
        if [ -f "$base/$f" ]; then
            mkdir -p "$dir/$(dirname "$f")"
            cp "$base/$f" "$dir/$f"
        fi
    done
    git -C "$dir" add -A
    git -C "$dir" commit -q --allow-empty -m base
}

# The starting point start_repo committed in @dir.
base_of() {   # dir
    git -C "$1" rev-list --max-parents=0 HEAD
}

# Commit FILES... of @dir as they are in @from (missing there: deleted),
# with the message of file @msg, signed off.
commit_from() {   # dir, from, msg, files...
    local dir=$1 from=$2 msg=$3 f
    shift 3
    for f in "$@"; do
        mkdir -p "$dir/$(dirname "$f")"
        cp "$from/$f" "$dir/$f"
        git -C "$dir" add "$f"
    done
    git -C "$dir" commit -q -s -F "$msg"
}

# ---- QEMU ----
q=$work/qemu
overlay=$(grep -v '^configs/' "$qemu_src/.simt-overlay")
device_files=$(printf '%s\n' $overlay | grep -E '^(hw|include)/')
test_files=$(printf '%s\n' $overlay |
             grep -E '^tests/qtest/' | grep -vx 'tests/qtest/libqos/x86_64_q35-machine.c')
hooked_device="hw/Kconfig hw/meson.build meson.build"
hooked_tests="tests/qtest/meson.build tests/qtest/libqos/meson.build"
patched=$(cat "$qemu_src/.simt-patched")
# shellcheck disable=SC2086
start_repo "$q" "$pristine" $hooked_device $hooked_tests $patched MAINTAINERS

# QEMU's own files simt changes: each patch of qemu-patches/, its first
# paragraphs its message.
for p in "$top"/qemu-patches/*.patch; do
    sed '/^--- a\//,$d' "$p" > "$work/msg"
    git -C "$q" apply -p1 "$p" || die "$p does not apply to $pristine"
    git -C "$q" add -A
    git -C "$q" commit -q -s -F "$work/msg"
done
# Those files now as the tree has them: the series is what is built.
for f in $patched; do
    cmp -s "$q/$f" "$qemu_src/$f" ||
        die "$f: qemu-patches/ applied in order do not give the built tree's file"
done

# The q35 machine node, with its line of libqos/meson.build alone.
cat > "$work/msg" <<'EOF'
tests/qtest/libqos: add a q35 machine node

The qgraph has a machine node for pc only, so tests of PCI devices
registered with qos_add_test() never run on q35.  q35's host bridge
reaches its PCI Express root bus through the same configuration ports
as i440FX, so the node reuses pci-bus-pc.
EOF
awk '{ print } $0 == "F: include/hw/pci-host/q35.h" {
         print "F: tests/qtest/libqos/x86_64_q35-machine.c" }' \
    "$pristine/MAINTAINERS" > "$q/MAINTAINERS"
grep -q 'x86_64_q35-machine' "$q/MAINTAINERS" || die "MAINTAINERS has no PC entry to follow"
git -C "$q" add MAINTAINERS
grep -vxF "        'simt.c'," "$qemu_src/tests/qtest/libqos/meson.build" |
    sed "s|  # simt's, not QEMU's$||" > "$q/tests/qtest/libqos/meson.build"
git -C "$q" add tests/qtest/libqos/meson.build
commit_from "$q" "$qemu_src" "$work/msg" tests/qtest/libqos/x86_64_q35-machine.c

# The device, and its entry in MAINTAINERS.
cat > "$work/msg" <<'EOF'
hw/simt: add simt, an emulated preemptible SIMT accelerator

simt is a PCI Express GPU-like device whose lanes run RV32IMAF kernels
in warps: dual-kernel SMs, a preemption engine (drain, flush, context
switch, lightweight switch), chunked DMA copy engines, a device MMU with
per-context page tables, user-mode queues with doorbells, and a timing
model on the virtual clock.  One hardware block per file; the hardware
contract (registers, command formats, CSRs, kernel metadata) is
include/hw/simt/simt-hw.h, shared with the guest driver and the tests.
Every guest-controlled value is checked: errors become a status and an
interrupt.

The hardware contract headers (include/hw/simt/simt-hw.h, simt-isa.h)
are GPL-2.0-or-later OR MIT: the guest driver (GPL-2.0) and MIT
userspace (the kernels' runtime, the host tools) include the same files.
EOF
awk -v who="$author" '
    { print }
    $0 == "F: docs/specs/edu.rst" && !done {
        print ""
        print "simt"
        print "M: " who
        print "S: Maintained"
        print "F: hw/simt/"
        print "F: include/hw/simt/"
        done = 1
    }' "$q/MAINTAINERS" > "$work/MAINTAINERS"
cp "$work/MAINTAINERS" "$q/MAINTAINERS"
grep -q '^F: hw/simt/$' "$q/MAINTAINERS" || die "MAINTAINERS has no edu entry to follow"
git -C "$q" add MAINTAINERS
# shellcheck disable=SC2086
commit_from "$q" "$qemu_src" "$work/msg" $device_files $hooked_device

cat > "$work/msg" <<'EOF'
tests/qtest: add the simt device's tests

Register-level tests on the qgraph (simt-qos-test.c, through the
driver node libqos/simt.c, on every machine with a PCI bus), and qtest
programs on q35 that run kernels: queues, scheduler, SMs and timing,
copy engines, contexts and the MMU, preemption, real-time scheduling,
migration, hostile commands, and property, QOM and hot-unplug checks.
The kernels' images come from SIMT_KERNEL_DIR; the tests that need
them are skipped without it.  The kernel image loader (simt-elf.c,
simt-elf.h, elf-defs.h) is MIT, shared with the project's host tools.
EOF
awk '{ print } $0 == "F: include/hw/simt/" {
         print "F: tests/qtest/simt*"
         print "F: tests/qtest/libqos/simt.*" }' \
    "$q/MAINTAINERS" > "$work/MAINTAINERS"
cp "$work/MAINTAINERS" "$q/MAINTAINERS"
git -C "$q" add MAINTAINERS
# shellcheck disable=SC2086
commit_from "$q" "$qemu_src" "$work/msg" $test_files $hooked_tests

# The series gives the built tree's files (MAINTAINERS aside, and the
# note on the q35 node's meson line).
for f in $(git -C "$q" diff --name-only "$(base_of "$q")" HEAD); do
    case $f in MAINTAINERS | tests/qtest/libqos/meson.build) continue ;; esac
    cmp -s "$q/$f" "$qemu_src/$f" ||
        die "$f: the QEMU series does not give the built tree's file"
done

# ---- Linux ----
l=$work/linux
k=drivers/accel/simt
start_repo "$l" "$kernel_tools" MAINTAINERS drivers/accel/Kconfig \
    drivers/accel/Makefile Documentation/accel/index.rst

cat > "$work/msg" <<'EOF'
accel/simt: add the UAPI header

The userspace interface of the simt accel driver: contexts, buffer
objects, VM_BIND, SUBMIT and WAIT, user-mode queues, parameters.
MIT-licensed, so that any userspace may include it.
EOF
mkdir -p "$l/include/uapi/drm"
commit_from "$l" "$top" "$work/msg" include/uapi/drm/simt_accel.h

cat > "$work/msg" <<'EOF'
accel/simt: add the simt driver

A DRM accel driver for simt, the preemptible SIMT accelerator QEMU
emulates: per-context hardware queues behind gpu-sched, user-mode
queues with doorbells, VRAM and system buffer objects with eviction,
per-context device page tables, the preemption engine's policy, a
watchdog with queue and device recovery, fair-share scheduling between
contexts.  simt-hw.h is the hardware contract, shared with the device
model.
EOF
mkdir -p "$l/$k"
for f in "$top"/guest-driver/*.[ch]; do
    sed -e 's|^#include "hw/simt/simt-hw.h"|#include "simt-hw.h"|' \
        -e 's|^#include "uapi/drm/simt_accel.h"|#include <uapi/drm/simt_accel.h>|' \
        "$f" > "$l/$k/$(basename "$f")"
done
for h in simt-hw.h simt-isa.h; do
    python3 "$top/scripts/kernel-contract.py" "$top/include/hw/simt/$h" \
        "$top/guest-driver" > "$l/$k/$h" || die "kernel-contract.py failed on $h"
done
cp "$top/guest-driver/Kconfig" "$l/$k/Kconfig"
# The object list of Kbuild, under the Kconfig symbol.
{
    echo "# SPDX-License-Identifier: GPL-2.0-only"
    echo
    echo "obj-\$(CONFIG_DRM_ACCEL_SIMT) := simt.o"
    echo
    sed -n '/^simt-y := /,/^$/p' "$top/guest-driver/Kbuild" | sed '/^$/d'
} > "$l/$k/Makefile"
grep -q 'simt_drv.o' "$l/$k/Makefile" || die "guest-driver/Kbuild has no simt-y list"
# Hooked in after the last driver of the 6.12 tree.
awk '{ print } $0 == "source \"drivers/accel/qaic/Kconfig\"" {
         print "source \"drivers/accel/simt/Kconfig\"" }' \
    "$kernel_tools/drivers/accel/Kconfig" > "$l/drivers/accel/Kconfig"
awk '{ print } /^obj-\$\(CONFIG_DRM_ACCEL_QAIC\)/ {
         print "obj-$(CONFIG_DRM_ACCEL_SIMT)\t\t+= simt/" }' \
    "$kernel_tools/drivers/accel/Makefile" > "$l/drivers/accel/Makefile"
grep -q 'accel/simt/Kconfig' "$l/drivers/accel/Kconfig" &&
    grep -q '+= simt/' "$l/drivers/accel/Makefile" ||
    die "drivers/accel/Kconfig or Makefile has no qaic line to follow"
awk -v who="$author" '
    { print }
    /^DRM ACCEL DRIVERS FOR INTEL VPU$/ { seen = 1 }
    seen && /^$/ && !done {
        print "DRM ACCEL DRIVER FOR SIMT"
        print "M:\t" who
        print "L:\tdri-devel@lists.freedesktop.org"
        print "S:\tMaintained"
        print "F:\tDocumentation/accel/simt/"
        print "F:\tdrivers/accel/simt/"
        print "F:\tinclude/uapi/drm/simt_accel.h"
        print ""
        done = 1
    }' "$kernel_tools/MAINTAINERS" > "$l/MAINTAINERS"
grep -q '^F:	drivers/accel/simt/$' "$l/MAINTAINERS" ||
    die "MAINTAINERS has no Intel VPU entry to follow"
git -C "$l" add -A
git -C "$l" commit -q -s -F "$work/msg"

cat > "$work/msg" <<'EOF'
Documentation/accel: add a page for simt

The driver's overview, its locking (the DOC: Locking section of
simt_device.h) and its UAPI, from the kernel-doc comments.
EOF
mkdir -p "$l/Documentation/accel/simt"
cp "$top/guest-driver/Documentation/simt.rst" "$l/Documentation/accel/simt/index.rst"
awk '{ print } /^   qaic\/index$/ { print "   simt/index" }' \
    "$kernel_tools/Documentation/accel/index.rst" > "$l/Documentation/accel/index.rst"
grep -q '^   simt/index$' "$l/Documentation/accel/index.rst" ||
    die "Documentation/accel/index.rst has no qaic entry to follow"
git -C "$l" add -A
git -C "$l" commit -q -s -F "$work/msg"

rm -rf "$out"
mkdir -p "$out"
git -C "$q" format-patch -q --cover-letter -o "$out/qemu" "$(base_of "$q")"
git -C "$l" format-patch -q --cover-letter -o "$out/linux" "$(base_of "$l")"
for s in qemu linux; do
    sed -i -e 's/^\*\*\* SUBJECT HERE \*\*\*$/simt, an emulated preemptible SIMT accelerator/' \
        -e 's/^\*\*\* BLURB HERE \*\*\*$/Generated by simt'"'"'s scripts\/make-patches.sh./' \
        "$out/$s/0000-cover-letter.patch"
done
echo "make-patches: $(ls "$out/qemu" | wc -l) QEMU and $(ls "$out/linux" | wc -l) Linux patches (cover letters included) in $out"
