# SPDX-License-Identifier: GPL-2.0-or-later
#
# QEMU's configure options for the simt build, sourced by
# scripts/build-qemu.sh (the normal build) and scripts/fuzz.sh (which adds
# clang, libFuzzer and the sanitizers): one list, so that a device the
# device set needs (simt.mak) is configured in both.
qemu_config_opts=(
    --python=/usr/bin/python3 --target-list=x86_64-softmmu
    --without-default-devices --with-devices-x86_64=simt
    --without-default-features --enable-fdt=system --enable-pixman
    --enable-virtfs --enable-attr
    --disable-docs --disable-user --disable-xen --disable-werror
    --disable-install-blobs
    --firmwarepath=/usr/share/seabios:/usr/share/qemu
)
