#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The host side of the guest's "share:" tests (scripts/check.sh): fill
# DIR, the directory the test guest mounts on /share, with what a student
# or a driver developer brings, built with the commands docs/guest.rst
# gives ("Bringing your own"):
#
#   square.c        a kernel written here, out[i] = i * i + K, with a K
#                   drawn at random for this run (so a stale image from
#                   an earlier run cannot pass), and K in square.k
#   square.elf      its image: clang, ld.lld with kernels/simt.ld and the
#                   kernel C library, simt-meta
#   square.expect   what the host's simt-run (the interpreter) dumps for
#                   it, for the guest to compare the device's run with
#   square-prog.c   a program on libsimt that runs the kernel and checks
#   square-prog     every value, built static against the guest's libsimt.a
#                   (and on the host against libsimt-interp.a, run there
#                   first: one program, two backends)
#   simt.ko         the module scripts/guest-build.sh built
#
# and make it all readable by others (the guest sees the host's modes).
#
#   tests/share/share-prepare.sh DIR
#
# Needs make host (HOST_BUILD) and make guest (SIMT_CACHE) first.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
S=$top
B=${HOST_BUILD:-$top/build/host}
# The guest this tree built (scripts/tree-cache.sh), or the debug
# kernel's (SIMT_GUEST_DEBUG=1).
: "${SIMT_CACHE:?SIMT_CACHE must be set}"
# shellcheck source=scripts/tree-cache.sh
. "$top/scripts/tree-cache.sh"
G=$simt_guest/build
die() { echo "share-prepare: error: $*" >&2; exit 1; }

[ $# = 1 ] && [ -d "$1" ] || die "usage: $0 DIR (an existing directory)"
dir=$(cd "$1" && pwd)
for f in "$B/kernels/simt-libc.o" "$B/tools/simt-meta/simt-meta" \
         "$B/tools/simt-run/simt-run"; do
    [ -e "$f" ] || die "$f missing (run make host)"
done
for f in "$G/libsimt.a" "$G/driver/simt.ko"; do
    [ -e "$f" ] || die "$f missing (run make guest)"
done

k=$(( (RANDOM % 9000) + 1000 ))
echo "$k" > "$dir/square.k"
cat > "$dir/square.c" <<EOF
#include "simt.h"

/* out[i] = i * i + $k for the first n threads of the grid */
KERNEL void square(uint32_t *out, uint32_t n)
{
    uint32_t i = globalIdx();

    if (i < n) {
        out[i] = i * i + $k;
    }
}
EOF

cd "$dir"
# The kernel: the commands of docs/guest.rst, "Bringing your own".
clang --target=riscv32-unknown-elf -march=rv32imaf -mabi=ilp32f -O2 \
    -nostdlib -ffreestanding -fno-jump-tables -msmall-data-limit=0 \
    -mno-relax -ffp-contract=off -fno-math-errno \
    -Xclang -fconvergent-functions -Wall -Wextra -Werror \
    -Werror=implicit-function-declaration -Werror=double-promotion \
    -Werror=implicit-float-conversion \
    -I"$S/kernels/include" -I"$S/include" -c square.c -o square.o
ld.lld -T "$S/kernels/simt.ld" square.o "$B/kernels/simt-libc.o" \
    -o square.linked.elf
"$B/tools/simt-meta/simt-meta" -o square.elf square.linked.elf

# The interpreter's answer, the values only (addresses may differ).
"$B/tools/simt-run/simt-run" square.elf square --grid 8 --block 128 \
    --arg buf:4000 --arg 1000 --dump 0 | grep -E '^ *[0-9]+:' > square.expect
[ "$(wc -l < square.expect)" -gt 0 ] || die "the host's simt-run dumped nothing"

cat > square-prog.c <<'EOF'
/* Runs "square" of the image argv[1] on 1000 threads through libsimt and
 * checks out[i] = i * i + argv[2]; status 0 and "square-prog: 1000 values
 * right" if every value is. */
#include <stdio.h>
#include <stdlib.h>
#include "libsimt.h"

#define N 1000

static int check(simt_status s, const char *what)
{
    if (s != SIMT_SUCCESS) {
        fprintf(stderr, "square-prog: %s: %s (%s)\n", what,
                simt_error_string(s), simt_last_error());
        exit(1);
    }
    return 0;
}

int main(int argc, char **argv)
{
    simt_device *dev;
    simt_context *ctx;
    simt_module *mod;
    simt_kernel *kernel;
    simt_buffer *out;
    struct simt_result res;
    static uint32_t host[N];
    uint32_t args[2], k, bad = 0;
    uint64_t seq;

    if (argc != 3) {
        fprintf(stderr, "usage: square-prog IMAGE K\n");
        return 2;
    }
    k = strtoul(argv[2], NULL, 0);
    check(simt_device_open(NULL, &dev), "open");
    check(simt_context_create(dev, SIMT_PRIORITY_NORMAL, SIMT_PREEMPT_DEFAULT,
                              &ctx), "context");
    check(simt_module_load(ctx, argv[1], &mod), "module");
    check(simt_module_get_kernel(mod, "square", &kernel), "kernel");
    check(simt_mem_alloc(ctx, sizeof(host), &out), "alloc");
    args[0] = simt_buffer_addr(out);
    args[1] = N;
    check(simt_launch(kernel, (simt_dim3){ 8, 1, 1 }, (simt_dim3){ 128, 1, 1 },
                      0, args, 2, &seq), "launch");
    check(simt_wait(ctx, seq, 30000000000LL, &res), "wait");
    check(res.status, "kernel");
    check(simt_memcpy_dtoh(host, out, 0, sizeof(host)), "copy");
    for (uint32_t i = 0; i < N; i++) {
        if (host[i] != i * i + k) {
            if (bad++ < 5) {
                fprintf(stderr, "square-prog: out[%u] = %u, expected %u\n",
                        i, host[i], i * i + k);
            }
        }
    }
    check(simt_context_destroy(ctx), "destroy");
    check(simt_device_close(dev), "close");
    if (bad) {
        fprintf(stderr, "square-prog: %u of %u values wrong\n", bad, N);
        return 1;
    }
    printf("square-prog: %u values right\n", N);
    return 0;
}
EOF
# The program: static, against the guest's libsimt (make guest).
gcc -static -O2 -Wall -Werror -pthread -I"$S/guest/libsimt" \
    -o square-prog square-prog.c "$G/libsimt.a" -lm

# The same source on the host, against libsimt's interpreter backend with
# the compile line of docs/toolchain.rst ("A host program"): it must pass
# there before the guest runs it on the device.
# shellcheck disable=SC2046
gcc -O2 -Wall -Werror -o square-prog-host square-prog.c \
    $(PKG_CONFIG_PATH="$B/meson-uninstalled" pkg-config --cflags --libs simt-interp)
./square-prog-host square.elf "$k" > square-prog-host.out ||
    die "square-prog failed on the host: $(cat square-prog-host.out)"
grep -qx "square-prog: 1000 values right" square-prog-host.out ||
    die "square-prog on the host: $(cat square-prog-host.out)"

# The driver developer's module.
cp "$G/driver/simt.ko" simt.ko

chmod -R a+rX "$dir"
echo "share-prepare: $dir ready (K = $k)"
