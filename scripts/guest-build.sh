#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the guest side: the simt.ko driver (against the kernel headers that
# scripts/guest-fetch.sh extracted) and the busybox initramfs
#   ${SIMT_CACHE}/trees/ID/guest/initrd.cpio.gz (this tree's: tree-cache.sh)
# holding busybox and its applet links, drm.ko and the DRM helper modules
# simt.ko needs (decompressed), simt.ko, the 9p modules that mount a host
# directory shared with the guest, the static programs (the tools of
# guest/tools and simt-run, the benchmarks of guest/bench, the tests of
# tests/guest), the kernel images of the host build (build/host/kernels),
# the guest scripts (guest/, tests/guest/simt-test.sh) and the hardware
# contract's numbers as shell variables (simt-hw.env, generated from
# include/hw/simt/simt-hw.h).
#
# Incremental: the module is built by kbuild in a copy of guest-driver/
# under the tree's cache directory (only changed files are copied, so make rebuilds only
# what changed), and the initramfs is repacked only if an input is newer.
#
# SIMT_GUEST_DEBUG=1 (make ... DEBUG_KERNEL=1): the same for the debug
# kernel that scripts/guest-debug-build.sh builds in ${SIMT_CACHE}/guest-debug/,
# everything under the tree's guest-debug/ instead of guest/ (its own
# simt.ko, modules, programs and initrd.cpio.gz; busybox still comes from
# ${SIMT_CACHE}/guest/).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
SIMT_CACHE=${SIMT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/simt}
export SIMT_CACHE
# What is built from this tree's sources goes to the tree's directory of
# the cache (odir); the kernel it is built for stays shared (gdir).
# shellcheck source=scripts/tree-cache.sh
. "$here/tree-cache.sh"
debug=$simt_guest_debug gdir=$simt_guest_kernel odir=$simt_guest
mkdir -p "$odir"
jobs=${SIMT_JOBS:-2}

log() { echo "guest-build: $*" >&2; }
die() { echo "guest-build: error: $*" >&2; exit 1; }

for tool in make gcc ar cpio gzip xz; do
    command -v "$tool" >/dev/null || die "$tool not found (run scripts/setup-host.sh)"
done

"$here/guest-fetch.sh"
[ "$debug" = 1 ] && "$here/guest-debug-build.sh"
kver=$(cat "$gdir/kver")
kroot=$gdir/root
headers=$gdir/headers
busybox=$SIMT_CACHE/guest/root/bin/busybox
# The kernel's uapi headers, for the guest programs.
if [ "$debug" = 1 ]; then
    kuapi=$gdir/src/linux-source-6.12/include/uapi
else
    kuapi=$(readlink -f "$headers")/../linux-headers-${kver%-*}-common/include/uapi
fi
[ -d "$kuapi" ] || die "the kernel's uapi headers are not at $kuapi"

# ---- the module ----
bdir=$odir/build/driver
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
# Without the paths of this tree and its cache in the module (debug
# information, __FILE__), so that every tree builds the same simt.ko.
make -s -C "$headers" M="$bdir" -j"$jobs" \
    KCFLAGS="-ffile-prefix-map=$bdir/= -ffile-prefix-map=$repo/=" \
    SIMT_INCLUDE="$repo/include" CONFIG_DEBUG_INFO_BTF_MODULES= modules >&2
t1=$(date +%s%N)
log "simt.ko ready ($(( (t1 - t0) / 1000000 )) ms)"
[ -f "$bdir/simt.ko" ] || die "simt.ko was not built"

# ---- the hardware contract as shell variables ----
envf=$odir/build/simt-hw.env
if [ ! -f "$envf" ] || [ "$repo/include/hw/simt/simt-hw.h" -nt "$envf" ] ||
   [ "$repo/include/hw/simt/simt-isa.h" -nt "$envf" ]; then
    log "generating simt-hw.env"
    gen=$odir/build/gen-hw-env
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
    D(SIMT_BAR_DOORBELL); X(SIMT_DOORBELL_SIZE);
    X(SIMT_REGS_SIZE); D(SIMT_IRQ_NR); D(SIMT_IRQ_TEST);
    return 0;
}
EOF
    gcc -O0 -I"$repo/include" -o "$gen" "$gen.c"
    { echo "# generated from include/hw/simt/simt-hw.h by guest-build.sh"
      "$gen"; } > "$envf.tmp"
    mv "$envf.tmp" "$envf"
fi

# ---- libsimt and the guest's static programs ----
# libsimt (guest/libsimt, MIT) is the runtime the tools are built on:
# simt.c, simt-split.c, simt-status.c, simt-printf.c and the kernel image loader
# (tools/simt-meta/simt-elf.c, MIT) in a static library.  Every program includes the driver's UAPI header,
# include/uapi/drm/simt_accel.h, and links the library; the linker takes
# only what a program uses.
#
# The kernel's uapi headers as shipped in the headers package are not
# sanitized for userspace: drop the __user annotation, and let the host's
# own <linux/...> headers win over them.  __FILE__ is the path in the
# repository: a failed check in the tests names its file.
uapi=$repo/include/uapi/drm/simt_accel.h
elfsrc=$repo/tools/simt-meta/simt-elf.c
libsrc=$repo/guest/libsimt/simt.c
splitsrc=$repo/guest/libsimt/simt-split.c
statussrc=$repo/guest/libsimt/simt-status.c
printfsrc=$repo/guest/libsimt/simt-printf.c
cflags=(-static -O2 -Wall -Werror -pthread -D__user= -I"$repo/include/uapi"
        -I"$repo/include" -I"$repo/tools/simt-meta" -I"$repo/guest/libsimt"
        -iquote "$repo/tests/guest" -fmacro-prefix-map="$repo/"=
        -idirafter "$kuapi")
# The UAPI header alone, as C and as C++, warning-free and without
# implicit padding (tests/uapi/simt-uapi-alone.c says why).
uapi_alone=$repo/tests/uapi/simt-uapi-alone.c
uapi_flags=(-Wall -Wextra -Wpadded -Werror -fsyntax-only -D__user=
            -I"$repo/include/uapi" -idirafter "$kuapi")
gcc -std=c11 -pedantic "${uapi_flags[@]}" "$uapi_alone"
g++ -std=c++11 "${uapi_flags[@]}" -x c++ "$uapi_alone"

lib=$odir/build/libsimt.a
stale=0
for dep in "$libsrc" "$repo"/guest/libsimt/*.h "$splitsrc" "$uapi" "$elfsrc" \
           "${elfsrc%.c}.h" "$statussrc" "$printfsrc" "$repo/include/simt-printf-buffer.h"; do
    [ "$dep" -nt "$lib" ] && stale=1
done
if [ ! -f "$lib" ] || [ "$stale" = 1 ]; then
    log "building libsimt.a"
    gcc "${cflags[@]}" -c -o "$odir/build/libsimt-simt.o" "$libsrc"
    gcc "${cflags[@]}" -c -o "$odir/build/libsimt-elf.o" "$elfsrc"
    gcc "${cflags[@]}" -c -o "$odir/build/libsimt-status.o" "$statussrc"
    gcc "${cflags[@]}" -c -o "$odir/build/libsimt-split.o" "$splitsrc"
    gcc "${cflags[@]}" -c -o "$odir/build/libsimt-printf.o" "$printfsrc"
    rm -f "$lib.tmp"
    ar rcs "$lib.tmp" "$odir/build/libsimt-simt.o" "$odir/build/libsimt-elf.o" \
        "$odir/build/libsimt-status.o" "$odir/build/libsimt-split.o" \
        "$odir/build/libsimt-printf.o"
    mv "$lib.tmp" "$lib"
fi
# build_prog NAME SOURCE...: the program NAME from its sources, rebuilt
# when one of them, a header beside one, a header of libsimt, the UAPI
# header, simt-hw.h or libsimt.a is newer.
progs=()
build_prog() {
    local name=$1 prog=$odir/build/$1 dep src stale=0
    shift
    progs+=("$prog")
    for src in "$@"; do
        for dep in "$src" "$(dirname "$src")"/*.h; do
            [ "$dep" -nt "$prog" ] && stale=1
        done
    done
    for dep in "$uapi" "$lib" "$repo"/guest/libsimt/*.h \
               "$repo/include/hw/simt/simt-hw.h"; do
        [ "$dep" -nt "$prog" ] && stale=1
    done
    if [ ! -x "$prog" ] || [ "$stale" = 1 ]; then
        log "building $name"
        gcc "${cflags[@]}" -o "$prog.tmp" "$@" "$lib" -lm
        mv "$prog.tmp" "$prog"
    fi
}
# One program per source file of the tools (guest/tools/, and simt-run,
# whose source the host's is built from too) and of the benchmarks
# (guest/bench/); the tests' programs (tests/guest/).
for src in "$repo"/guest/tools/*.c "$repo/tools/simt-run/simt-run.c" \
           "$repo"/guest/bench/*.c "$repo/tests/guest/simt-svg-check.c" \
           "$repo/tests/guest/simt-remap-check.c" "$repo/tests/guest/simt-driver-fuzz.c"; do
    build_prog "$(basename "$src" .c)" "$src"
done
build_prog simt-ioctl-test "$repo"/tests/guest/ioctl/*.c "$repo/tests/guest/harness.c"
build_prog simt-lib-test "$repo"/tests/guest/lib/*.c "$repo/tests/guest/harness.c"

# ---- OpenCL: the platform over the device's libsimt, and its users ----
# The guest runs dynamically linked programs for OpenCL alone: the ICD
# loader (Debian's libOpenCL.so.1) loads libsimt-opencl.so by the path in
# /etc/OpenCL/vendors/simt.icd.  libsimt-opencl.so is the host build's
# sources (opencl/runtime) over the device's libsimt; clinfo is Debian's;
# the samples (opencl/samples) are built as a user builds them, against
# -lOpenCL.  The guest has no compiler: the samples' kernel images come
# from running the same samples on the host's platform with
# SIMT_OPENCL_CACHE set (docs/opencl.rst), and the guest's runtime looks
# in that cache, kept at /lib/simt/opencl-cache.
ocl_dir=$odir/build/opencl
host_build=${HOST_BUILD:-$repo/build/host}
mkdir -p "$ocl_dir"
ocl_lib=$ocl_dir/libsimt-opencl.so
ocl_srcs=("$repo"/opencl/runtime/*.c "$libsrc" "$splitsrc" "$statussrc" "$printfsrc"
          "$elfsrc" "$repo/tools/simt-meta/simt-lines.c" "$repo/tools/simt-cc/simt-clargs.c")
stale=0
for dep in "${ocl_srcs[@]}" "$repo"/opencl/runtime/*.h "$repo"/opencl/runtime/CL/*.h \
           "$repo"/guest/libsimt/*.h "$uapi" "$repo"/include/hw/simt/simt-clargs.h; do
    [ "$dep" -nt "$ocl_lib" ] && stale=1
done
if [ ! -f "$ocl_lib" ] || [ "$stale" = 1 ]; then
    log "building libsimt-opencl.so"
    gcc "${cflags[@]/-static/-fPIC}" -shared -fvisibility=hidden \
        -I"$repo/opencl/runtime" -I"$repo/tools/simt-cc" \
        -DSIMT_CL_DEFAULT_CACHE='"/lib/simt/opencl-cache"' \
        -Wl,--exclude-libs,ALL -Wl,-Bsymbolic -o "$ocl_lib.tmp" "${ocl_srcs[@]}" -lm
    mv "$ocl_lib.tmp" "$ocl_lib"
fi
ocl_samples=()
for src in "$repo"/opencl/samples/*.c; do
    name=opencl-$(basename "$src" .c)
    prog=$ocl_dir/$name
    if [ ! -x "$prog" ] || [ "$src" -nt "$prog" ] ||
       [ "$repo/opencl/samples/cl-sample.h" -nt "$prog" ]; then
        log "building $name"
        gcc -O2 -Wall -Werror -I"$repo/opencl/runtime" -o "$prog.tmp" "$src" -lOpenCL
        mv "$prog.tmp" "$prog"
    fi
    ocl_samples+=("$prog")
done
# The samples' images, from the host's platform (same sources, same
# options, same image addresses as in the guest).
ocl_cache=$ocl_dir/cache
stale=0
for dep in "$repo"/opencl/samples/*.cl "$host_build"/opencl/samples/opencl-* \
           "$host_build/tools/simt-cc/simt-cc" "$host_build/opencl/runtime/libsimt-opencl.so"; do
    [ "$dep" -nt "$ocl_cache" ] && stale=1
done
if [ ! -d "$ocl_cache" ] || [ "$stale" = 1 ]; then
    [ -e "$host_build/opencl/runtime/vendors/simt.icd" ] ||
        die "no host OpenCL platform in $host_build (run make host)"
    log "filling the OpenCL image cache from the host's platform"
    rm -rf "$ocl_cache"
    mkdir -p "$ocl_cache"
    for prog in "$host_build"/opencl/samples/opencl-*; do
        [ -x "$prog" ] && [ -f "$prog" ] || continue
        SIMT_OPENCL_CACHE=$ocl_cache OPENCL_PLATFORM=simt \
        OCL_ICD_VENDORS=$host_build/opencl/runtime/vendors "$prog" > /dev/null ||
            die "$prog failed on the host's platform"
    done
fi
# Every shared object the dynamic programs need, from the host.
ocl_libs=()
for dep in $(ldd "$ocl_lib" /usr/bin/clinfo "${ocl_samples[@]}" |
             sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' | sort -u); do
    ocl_libs+=("$dep")
done

# ---- kernel images, built by the host meson build ----
kdir=${HOST_BUILD:-$repo/build/host}/kernels
kernels=()
for k in "$kdir"/*.elf; do
    case $k in *.linked.elf) continue ;; esac
    [ -f "$k" ] && kernels+=("$k")
done
[ "${#kernels[@]}" -gt 0 ] ||
    log "warning: no kernel images in $kdir (run make host); the launch test will fail"

# ---- drm.ko and the helpers simt.ko needs, decompressed once ----
# simt.ko depends on drm_shmem_helper.ko (system memory buffer objects),
# which depends on drm_kms_helper.ko, and on gpu-sched.ko (the DRM GPU
# scheduler); all of them depend on drm.ko only.
dep_kos=()
for m in drm drm_kms_helper drm_shmem_helper scheduler/gpu-sched; do
    src_ko=$(find "$kroot/lib/modules/$kver" -path "*/drivers/gpu/drm/$m.ko*" | head -1)
    [ -n "$src_ko" ] || die "$m.ko not found in $kroot/lib/modules/$kver"
    ko=$odir/build/$(basename "$m").ko
    if [ ! -f "$ko" ] || [ "$src_ko" -nt "$ko" ]; then
        case $src_ko in
        *.xz) xz -dc "$src_ko" > "$ko.tmp" ;;
        *.zst) zstd -dcq "$src_ko" > "$ko.tmp" ;;
        *.gz) gzip -dc "$src_ko" > "$ko.tmp" ;;
        *) cp "$src_ko" "$ko.tmp" ;;
        esac
        mv "$ko.tmp" "$ko"
    fi
    dep_kos+=("$ko")
done

# ---- the 9p modules, for a host directory shared with the guest ----
# guest-run.sh with SIMT_SHARE (make run SHARE=DIR) gives the guest a
# virtio-9p device; guest/init mounts it with these.  virtio-pci is built
# into Debian's kernel; 9p.ko and 9pnet_virtio.ko are modules, and what
# they depend on (9pnet.ko, netfs.ko on 6.12) is found with modinfo, so
# that another kernel's dependencies are followed too.  They are kept
# under their paths in the module tree, decompressed, and their load
# order (dependencies first, paths relative to the module tree) goes to
# lib/simt/share-modules.
command -v modinfo >/dev/null || PATH=$PATH:/sbin
command -v modinfo >/dev/null || die "modinfo not found (install kmod: scripts/setup-host.sh)"
share_order=()
share_seen=" "
share_add() {   # module name: its dependencies first, then itself
    local name=$1 f dep
    case $share_seen in *" $name "*) return 0 ;; esac
    share_seen+="$name "
    f=$(find "$kroot/lib/modules/$kver/kernel" -name "$name.ko*" | head -1)
    [ -n "$f" ] || die "$name.ko not found in $kroot/lib/modules/$kver (needed to mount a share)"
    for dep in $(modinfo -F depends "$f" | tr , ' '); do
        share_add "$dep"
    done
    share_order+=("$f")
}
share_add 9pnet_virtio
share_add 9p
share_kos=()
for src_ko in "${share_order[@]}"; do
    rel=${src_ko#"$kroot/lib/modules/$kver/"}
    rel=${rel%.xz}; rel=${rel%.zst}; rel=${rel%.gz}
    ko=$odir/build/modules/$rel
    if [ ! -f "$ko" ] || [ "$src_ko" -nt "$ko" ]; then
        mkdir -p "$(dirname "$ko")"
        case $src_ko in
        *.xz) xz -dc "$src_ko" > "$ko.tmp" ;;
        *.zst) zstd -dcq "$src_ko" > "$ko.tmp" ;;
        *.gz) gzip -dc "$src_ko" > "$ko.tmp" ;;
        *) cp "$src_ko" "$ko.tmp" ;;
        esac
        mv "$ko.tmp" "$ko"
    fi
    share_kos+=("$rel")
done

# ---- the initramfs ----
# The scripts of guest/ and the guest test suite, in /lib/simt.
scripts=("$repo"/guest/*.sh "$repo/tests/guest/simt-test.sh")
out=$odir/initrd.cpio.gz
inputs=("$ocl_lib" "${ocl_samples[@]}" "$ocl_cache" "$bdir/simt.ko" "$envf" "${dep_kos[@]}" "${share_kos[@]/#/$odir/build/modules/}" "${progs[@]}" "${kernels[@]}" "$repo/guest/init" "${scripts[@]}" "$here/guest-build.sh")
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
stage=$odir/build/initrd
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,root,etc,lib/simt}
[ -x "$busybox" ] || die "busybox not found at $busybox"
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
for f in "${scripts[@]}"; do
    install -m 0755 "$f" "$stage/lib/simt/$(basename "$f")"
done
install -m 0644 "$envf" "$stage/lib/simt/simt-hw.env"
for prog in "${progs[@]}"; do
    install -m 0755 "$prog" "$stage/bin/$(basename "$prog")"
done
mkdir -p "$stage/lib/simt/kernels"
for k in "${kernels[@]}"; do
    install -m 0644 "$k" "$stage/lib/simt/kernels/"
done

# OpenCL: the loader's vendor file, the platform, the libraries at the
# host's paths, clinfo, and the samples with their kernel sources.
mkdir -p "$stage/etc/OpenCL/vendors" "$stage/usr/lib/simt" "$stage/lib/simt/opencl"
install -m 0755 "$ocl_lib" "$stage/usr/lib/simt/libsimt-opencl.so"
echo /usr/lib/simt/libsimt-opencl.so > "$stage/etc/OpenCL/vendors/simt.icd"
for dep in "${ocl_libs[@]}"; do
    mkdir -p "$stage$(dirname "$dep")"
    cp -L "$dep" "$stage$dep"
done
install -m 0755 /usr/bin/clinfo "$stage/usr/bin/clinfo"
for prog in "${ocl_samples[@]}"; do
    install -m 0755 "$prog" "$stage/lib/simt/opencl/"
done
install -m 0644 "$repo"/opencl/samples/*.cl "$stage/lib/simt/opencl/"
cp -r "$ocl_cache" "$stage/lib/simt/opencl-cache"

mdir=$stage/lib/modules/$kver
mkdir -p "$mdir/kernel/drivers/gpu/drm" "$mdir/extra"
for ko in "${dep_kos[@]}"; do
    cp "$ko" "$mdir/kernel/drivers/gpu/drm/"
done
cp "$bdir/simt.ko" "$mdir/extra/simt.ko"
for rel in "${share_kos[@]}"; do
    mkdir -p "$mdir/$(dirname "$rel")"
    cp "$odir/build/modules/$rel" "$mdir/$rel"
    echo "$rel"
done > "$stage/lib/simt/share-modules"
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
# root, an unprivileged user in the group that may open accel nodes
# (guest/common.sh, SIMT_USER and SIMT_GROUP), and nobody, who is not.
cat > "$stage/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
user:x:1000:1000:unprivileged simt user:/home/user:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/sh
EOF
cat > "$stage/etc/group" <<'EOF'
root:x:0:
render:x:105:user
user:x:1000:
nogroup:x:65534:
EOF

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

# The same bytes for the same files, whenever and wherever packed (times
# and inode numbers fixed): a guest on the virtual clock unpacks it in the
# same instructions, so its figures do not depend on when it was built.
find "$stage" -exec touch -h -d @0 {} +
tmp=$out.tmp
{
    newc_entry dev $((0040755)) 2 0 0
    newc_entry dev/console $((0020600)) 1 5 1
    (cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
        cpio -o -H newc --owner 0:0 --reproducible --quiet)
} | gzip -n -6 > "$tmp"
mv "$tmp" "$out"
log "initramfs: $out ($(du -h "$out" | cut -f1))"
# The work tree's way to what it built: build/guest (libsimt.a for
# programs of one's own, the demo's files, the logs).
[ "$debug" = 1 ] || { mkdir -p "$repo/build" && ln -sfn "$odir" "$repo/build/guest"; }
