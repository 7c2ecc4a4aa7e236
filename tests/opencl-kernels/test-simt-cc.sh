#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# simt-cc (tools/simt-cc) as a command: a C sample kernel compiled by it
# gives the results of the image kernels/meson.build builds; compile-only
# and linking objects; several sources into one image; the support files
# from $SIMT_CC_DATADIR (an installed layout); temporaries removed or
# kept; no gp-relative code; and the messages of a double, a built-in
# simt lacks and bad options; --image-base.  TAP.
#
# Usage: test-simt-cc.sh SIMT-CC SIMT-RUN SOURCE-DIR KERNEL-BUILD-DIR

cc=$(realpath "$1") run=$(realpath "$2") src=$3 kb=$4
here=$src/tests/opencl-kernels
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0

check() {
    n=$((n + 1))
    if "$@" >"$tmp/log" 2>&1; then
        echo "ok $n - $desc"
    else
        echo "not ok $n - $desc"
        sed 's/^/# /' "$tmp/log"
        failed=$((failed + 1))
    fi
}

# vecadd on 1000 floats; prints the dump of c
vecadd_run() {
    "$run" "$1" vecadd --grid 8 --block 128 --arg buf:f32:0..999 \
        --arg buf:f32:1000..1999 --arg buf:4000 --arg 1000 --dump 2:f32
}

t_c_same() {
    "$cc" "$src/kernels/vecadd.c" -o "$tmp/vecadd.elf" &&
    vecadd_run "$tmp/vecadd.elf" >"$tmp/cc.out" &&
    vecadd_run "$kb/vecadd.elf" >"$tmp/meson.out" &&
    grep -q '^       0: 1000 1002 1004' "$tmp/cc.out" &&
    cmp "$tmp/cc.out" "$tmp/meson.out"
}
desc="C: kernels/vecadd.c by simt-cc runs as the image kernels/meson.build builds"
check t_c_same

t_c_objects() {
    (cd "$tmp" && "$cc" -c "$src/kernels/vecadd.c" && [ -f vecadd.o ] &&
     "$cc" -Os -c "$src/kernels/saxpy.c" -o sx.o &&
     "$cc" vecadd.o sx.o -o two.elf) &&
    "$run" --list "$tmp/two.elf" >"$tmp/list" &&
    grep -q '^  vecadd ' "$tmp/list" && grep -q '^  saxpy ' "$tmp/list" &&
    vecadd_run "$tmp/two.elf" | cmp - "$tmp/meson.out"
}
desc="C: -c gives FILE.o (and -o), objects link into one image"
check t_c_objects

t_several() {
    "$cc" -O1 -g -DUNUSED=4 -I"$here" -w "$here/vadd.cl" "$here/reduce.cl" \
        "$src/kernels/saxpy.c" -o "$tmp/mix.elf" &&
    "$run" --list "$tmp/mix.elf" >"$tmp/list" &&
    grep -q '^  vadd ' "$tmp/list" && grep -q '^  reduce ' "$tmp/list" &&
    grep -q '^  saxpy ' "$tmp/list" && grep -q ': 3 kernels$' "$tmp/list"
}
desc="two .cl and one .c source, -O1 -g -D -I -w, into one image of 3 kernels"
check t_several

t_x_lang() {
    cp "$here/vadd.cl" "$tmp/vadd.kernel" &&
    "$cc" -x cl "$tmp/vadd.kernel" -x none "$src/kernels/saxpy.c" \
        -o "$tmp/x.elf" && "$run" --list "$tmp/x.elf" | grep -q '^  vadd '
}
desc="-x cl compiles a file of another extension as OpenCL C"
check t_x_lang

t_datadir() {
    d=$tmp/share-simt
    mkdir -p "$d/include/hw/simt" &&
    cp "$src/kernels/include/simt.h" "$src/kernels/include/math.h" \
       "$src/include/simt-printf-buffer.h" "$d/include/" &&
    cp "$src/include/hw/simt/simt-isa.h" "$d/include/hw/simt/" &&
    cp "$src/kernels/simt.ld" "$kb/simt-libc.o" "$kb/libsimt-math.a" \
       "$kb/opencl/simt-opencl.bc" "$d/" &&
    SIMT_CC_DATADIR=$d "$cc" -v "$src/kernels/vecadd.c" "$here/vadd.cl" \
        -o "$tmp/dd.elf" 2>"$tmp/v" &&
    grep -q -- "-I $d/include " "$tmp/v" &&
    grep -q "^ld.lld -T $d/simt.ld " "$tmp/v" &&
    grep -q "LLVM link $d/simt-opencl.bc" "$tmp/v" &&
    rm "$d/simt-libc.o" &&
    ! SIMT_CC_DATADIR=$d "$cc" "$here/vadd.cl" -o "$tmp/dd2.elf" 2>"$tmp/e" &&
    grep -q "missing support file $d/simt-libc.o" "$tmp/e"
}
desc="SIMT_CC_DATADIR: an installed layout is used (-v shows it), a missing file named"
check t_datadir

t_temps() {
    mkdir "$tmp/t" &&
    TMPDIR=$tmp/t "$cc" "$here/vadd.cl" -o "$tmp/t.elf" &&
    [ -z "$(ls "$tmp/t")" ] &&
    ! TMPDIR=$tmp/t "$cc" "$here/bad-builtin.cl" -o "$tmp/t.elf" 2>/dev/null &&
    [ -z "$(ls "$tmp/t")" ] && [ ! -e "$tmp/t.elf" ] &&
    TMPDIR=$tmp/t "$cc" -save-temps "$here/vadd.cl" -o "$tmp/t.elf" \
        2>"$tmp/e" &&
    grep -q "temporaries kept in $tmp/t/simt-cc-" "$tmp/e" &&
    ls "$tmp"/t/simt-cc-*/0-vadd.lowered.bc >/dev/null
}
desc="temporaries removed after success and failure (no output left), kept with -save-temps"
check t_temps

t_no_gp() {
    command -v llvm-objdump >/dev/null || return 0
    "$cc" -O3 "$here/switch.cl" -o "$tmp/switch.elf" &&
    llvm-objdump -d "$tmp/switch.elf" >"$tmp/dis" &&
    ! sed -n '/<dense_switch>:/,/^$/p' "$tmp/dis" | grep -E 'jr|jalr' || return 1
    for k in matmul mathfn histogram; do
        "$cc" -O3 "$here/$k.cl" -o "$tmp/$k.elf" &&
        llvm-objdump -d "$tmp/$k.elf" >"$tmp/dis" || return 1
        if grep -E '\(gp\)|[ ,]gp(,|$)' "$tmp/dis"; then
            return 1
        fi
    done
}
desc="OpenCL at -O3: a dense switch without a jump table, no gp-relative access"
check t_no_gp

t_double() {
    ! "$cc" "$here/bad-double.cl" -o "$tmp/bad.elf" 2>"$tmp/e" &&
    grep -q "bad-double.cl:6:5: error: use of type 'double' requires cl_khr_fp64 support" "$tmp/e" &&
    [ ! -e "$tmp/bad.elf" ]
}
desc="a .cl using double fails with clang's message at file:line:col"
check t_double

t_half() {
    printf '__kernel void h(__global float *x) { half v; x[0] = 1.0f; }\n' >"$tmp/h.cl" &&
    ! "$cc" "$tmp/h.cl" -o "$tmp/h.elf" 2>"$tmp/e" &&
    grep -q "h.cl:1:43: error: declaring variable of type '__private half' is not allowed" "$tmp/e"
}
desc="a .cl declaring a half variable fails at its line"
check t_half

t_builtin() {
    ! "$cc" "$here/bad-builtin.cl" -o "$tmp/bad.elf" 2>"$tmp/e" &&
    grep -q "^simt-cc: unsupported OpenCL built-in lgamma(float) used in $here/bad-builtin.cl$" "$tmp/e"
}
desc="a .cl calling a built-in simt lacks fails naming it, demangled, and the file"
check t_builtin

t_options() {
    ! "$cc" --frob "$here/vadd.cl" 2>"$tmp/e" &&
    grep -q "^simt-cc: unknown option --frob (simt-cc --help lists the options)$" "$tmp/e" &&
    ! "$cc" "$here/vadd.cl" -o 2>"$tmp/e" &&
    grep -q "^simt-cc: option -o needs a value$" "$tmp/e" &&
    ! "$cc" -x fortran "$here/vadd.cl" 2>"$tmp/e" &&
    grep -q "^simt-cc: -x fortran: unknown language (c, cl or none)$" "$tmp/e" &&
    ! "$cc" "$here/meson.build" 2>"$tmp/e" &&
    grep -q "meson.build: unknown kind of file" "$tmp/e" &&
    ! "$cc" 2>"$tmp/e" && grep -q "no input files" "$tmp/e" &&
    ! "$cc" -c a.c b.c -o x.o 2>"$tmp/e" &&
    grep -q "needs exactly one source file, not 2" "$tmp/e" &&
    "$cc" --help | grep -q '^usage: simt-cc '
}
desc="bad options, files and combinations give clear errors; --help"
check t_options

t_image_base() {
    "$cc" --image-base 0x40000 "$src/kernels/vecadd.c" -o "$tmp/based.elf" &&
    readelf -lW "$tmp/based.elf" | grep -q 'LOAD .* 0x00040000 0x00040000 ' &&
    vecadd_run "$tmp/based.elf" | cmp - "$tmp/meson.out" &&
    ! "$cc" --image-base 0x40001 "$src/kernels/vecadd.c" -o "$tmp/x.elf" \
        2>"$tmp/e" && grep -q "image-base 0x40001: not a multiple of 4096" "$tmp/e"
}
desc="--image-base links the image at 0x40000, where it runs alike; an unaligned base is refused"
check t_image_base

t_analysis_error() {
    printf 'int fib(int n) { return n <= 1 ? n : fib(n - 1) + fib(n - 2); }\n__kernel void r(__global int *x) { x[0] = fib(x[1]); }\n' >"$tmp/rec.cl" &&
    ! "$cc" "$tmp/rec.cl" -o "$tmp/rec.elf" 2>"$tmp/e" &&
    grep -q "^simt-cc: $tmp/rec.elf: fib: recursive call chain: cannot bound the stack$" "$tmp/e" &&
    [ ! -e "$tmp/rec.elf" ]
}
desc="what simt-meta's analysis refuses (recursion) is reported with the image, which is removed"
check t_analysis_error

echo "1..$n"
[ "$failed" = 0 ]
