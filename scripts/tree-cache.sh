# SPDX-License-Identifier: GPL-2.0-or-later
#
# Where this work tree's builds go in the shared cache, sourced by the
# scripts that build QEMU or run it.  What is built from the tree's own
# device sources (QEMU's source tree with the overlay, its builds) lives in
# $SIMT_CACHE/trees/ID, ID naming the tree's path, so that two clones
# sharing one SIMT_CACHE never mix their device code, even building at
# the same time.  Downloads (the QEMU source package, the guest kernel)
# stay shared.
#
# Sets simt_tree (that directory), unless the caller set it QEMU_BUILD
# (the normal QEMU build in it), and for the guest that SIMT_GUEST_DEBUG
# picks (1: the debug kernel, 0 or unset: Debian's): simt_guest_debug (1
# or 0), simt_guest_kernel (the shared directory of its kernel) and
# simt_guest (what this tree built for it: initramfs, module, logs).

: "${SIMT_CACHE:?SIMT_CACHE must be set}"
simt_tree_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
simt_tree=$SIMT_CACHE/trees/$(printf '%s' "$simt_tree_top" | sha1sum | cut -c1-12)
QEMU_BUILD=${QEMU_BUILD:-$simt_tree/qemu-build}
case ${SIMT_GUEST_DEBUG:-0} in
0 | '') simt_guest_debug=0 simt_guest_kernel=$SIMT_CACHE/guest ;;
1) simt_guest_debug=1 simt_guest_kernel=$SIMT_CACHE/guest-debug ;;
*) echo "error: SIMT_GUEST_DEBUG=$SIMT_GUEST_DEBUG: give 1 or 0" >&2; exit 1 ;;
esac
simt_guest=$simt_tree/${simt_guest_kernel##*/}
