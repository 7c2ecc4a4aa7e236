#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install every host package the build, the tests and the guest image need,
# from Debian only.  The extra suites (bookworm-backports for meson >= 1.5,
# trixie deb-src for the QEMU 10.0 source package) are added by deriving a
# new sources file from the machine's own apt configuration, so that no
# archive address is written in this repository.
#
#   scripts/setup-host.sh          what make check, make run and make lab need
#   scripts/setup-host.sh bench    that, and what make bench needs besides:
#                                  qemu-riscv32 (qemu-user, from
#                                  bookworm-backports: QEMU 10, as the device)
set -euo pipefail

case ${1:-} in
'') bench=0 ;;
bench) bench=1 ;;
*) echo "setup-host: unknown argument '$1' (none, or bench)" >&2; exit 2 ;;
esac

stamp_dir=${SIMT_CACHE:?SIMT_CACHE must be set}
stamp=$stamp_dir/host-setup.v3
pkgs=(
    build-essential dpkg-dev ca-certificates git perl xz-utils zstd cpio
    ninja-build pkg-config python3 python3-venv python3-docutils flex bison
    libglib2.0-dev libfdt-dev libpixman-1-dev
    clang lld llvm libclang-rt-14-dev llvm-14-dev
    ocl-icd-opencl-dev opencl-headers ocl-icd-libopencl1 clinfo
    seabios qemu-system-data
    kmod sparse
)
backport_pkgs=(meson python3-pycotap)
[ "$bench" = 1 ] && backport_pkgs+=(qemu-user)

if [ -f "$stamp" ] && dpkg -s "${pkgs[@]}" "${backport_pkgs[@]}" >/dev/null 2>&1; then
    exit 0
fi

if [ "$(id -u)" != 0 ]; then
    echo "setup-host: installing packages needs root (run as root or install:" >&2
    echo "  ${pkgs[*]} ${backport_pkgs[*]} from bookworm-backports)" >&2
    exit 1
fi

src=/etc/apt/sources.list.d/debian.sources
extra=/etc/apt/sources.list.d/simt-extra.sources
if [ ! -f "$extra" ]; then
    if [ -f "$src" ]; then
        uri=$(sed -n 's/^URIs:[[:space:]]*//p' "$src" | head -1)
        key=$(sed -n 's/^Signed-By:[[:space:]]*//p' "$src" | head -1)
    else
        # One-line format: take the first main-archive entry.
        uri=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++)
              if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' /etc/apt/sources.list)
        key=/usr/share/keyrings/debian-archive-keyring.gpg
    fi
    if [ -z "$uri" ]; then
        echo "setup-host: cannot find the Debian archive in the apt configuration" >&2
        exit 1
    fi
    {
        printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\n' "$uri"
        [ -n "$key" ] && printf 'Signed-By: %s\n' "$key"
        printf '\nTypes: deb-src\nURIs: %s\nSuites: trixie\nComponents: main\n' "$uri"
        [ -n "$key" ] && printf 'Signed-By: %s\n' "$key"
    } > "$extra.tmp"
    mv "$extra.tmp" "$extra"
fi

# Never let trixie binaries in: only its sources are listed, but keep the
# preference explicit in case a user's configuration lists more.
pref=/etc/apt/preferences.d/simt-trixie
if [ ! -f "$pref" ]; then
    printf 'Package: *\nPin: release n=trixie\nPin-Priority: 50\n' > "$pref"
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${pkgs[@]}"
apt-get install -y -q --no-install-recommends -t bookworm-backports "${backport_pkgs[@]}"
mkdir -p "$stamp_dir"
touch "$stamp"
