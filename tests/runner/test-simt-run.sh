#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The host build of simt-run (tools/simt-run) on the sample kernels, no VM:
# results printed with --dump checked value by value, --list, --time, and
# the refusals and fault reports a student meets first.  TAP.
#
# Usage: test-simt-run.sh SIMT-RUN KERNEL-DIR OPT-DIR
#   KERNEL-DIR holds the images kernels/meson.build builds (vecadd.elf,
#   saxpy.elf, reduce.elf, histogram.elf, spin.elf, samples.elf and the
#   unannotated vecadd.linked.elf), OPT-DIR those tests/kernels builds at
#   other optimisation levels (O0-devprintf.elf...).

run=$1 k=$2 o=$3
. "$(dirname "$0")/runner-lib.sh"

t_vecadd() {
    sr 0 "$k/vecadd.elf" vecadd --grid 8 --block 128 --arg buf:f32:0..999 \
        --arg buf:f32:1000..1999 --arg buf:4000 --arg 1000 --dump 2:f32 || return 1
    # c[i] = i + (1000 + i), every one of the 1000
    awk '/^a2: f32\[1000\] at 0x/ { hdr = 1; next }
         /^ *[0-9]+:/ { for (f = 2; f <= NF; f++) { if ($f != 1000 + 2 * n) bad++; n++ } }
         END { if (!hdr || n != 1000 || bad) { printf "%d values, %d wrong\n", n, bad; exit 1 } }' \
        "$tmp/out"
}

t_saxpy() {
    # y = 2.5 x + y; options before the image, as the guest test does
    sr 0 --grid 1 --block 32 --arg 5 --arg f:2.5 --arg buf:f32:1,2,3,4,5 \
        --arg buf:f32:10,20,30,40,50 "$k/saxpy.elf" saxpy --dump 3 &&
    has '^a3: f32\[5\] at 0x[0-9a-f]{8}$' && has '^       0: 12.5 25 37.5 50 62.5$'
}

t_reduce() {
    # four blocks of 256 sum 1..1024 in shared memory, one sum per block
    sr 0 "$k/reduce.elf" reduce_tree --grid 4 --block 256 --arg buf:f32:1..1024 \
        --arg buf:16 --arg 1024 --dump 1:f32 &&
    has '^       0: 32896 98432 163968 229504$'
}

t_histogram() {
    # 256 bytes 0..255 over 4 blocks: every bin 1, added with atomics
    # from every block into the same global bins
    sr 0 "$k/histogram.elf" histogram --grid 4 --block 32 --arg buf:u8:0..255 \
        --arg 256 --arg buf:1k --dump 2 || return 1
    awk '/^ *[0-9]+:/ { for (f = 2; f <= NF; f++) { if ($f != 1) bad++; n++ } }
         END { if (n != 256 || bad) { printf "%d bins, %d not 1\n", n, bad; exit 1 } }' \
        "$tmp/out"
}

t_list() {
    sr 0 --list "$k/samples.elf" &&
    has "^$k/samples.elf: [0-9]+ kernels$" &&
    has '^  vecadd +entry 0x[0-9a-f]{8} +[0-9]+ registers  shared 0  local 0 bytes/thread  [0-9]+ instructions$' &&
    has '^  saxpy +entry 0x'
}

t_time() {
    sr 0 "$k/vecadd.elf" vecadd --grid 2 --block 64 --arg buf:512 --arg buf:512 \
        --arg buf:512 --arg 128 --time &&
    has '^time: [0-9]+ us from submission to completion; device cycles 0\.\.[1-9][0-9]* \([1-9][0-9]*\)$'
}

t_not_elf() {
    printf 'not an image' > "$tmp/bad.elf"
    sr 2 "$tmp/bad.elf" vecadd && has "^simt-run: $tmp/bad.elf: not an ELF file$"
}

t_short() {
    head -c 300 "$k/vecadd.elf" > "$tmp/short.elf"
    sr 2 "$tmp/short.elf" vecadd && has "^simt-run: $tmp/short.elf: "
}

t_missing() {
    sr 2 "$tmp/none.elf" vecadd && has "^simt-run: $tmp/none.elf: "
}

t_no_note() {
    sr 2 "$k/vecadd.linked.elf" vecadd &&
    has 'vecadd.linked.elf: no SIMT metadata note \(annotate the image with simt-meta\)$'
}

t_no_kernel() {
    sr 2 "$k/vecadd.elf" nope && has "has no kernel 'nope'; it has: vecadd$"
}

t_usage() {
    sr 2 "$k/vecadd.elf" vecadd --grid 0,1 && has "^simt-run: --grid '0,1'" &&
    sr 2 "$k/vecadd.elf" vecadd --arg buf:f16:1 && has "unknown type 'f16'" &&
    sr 2 "$k/vecadd.elf" && has "no kernel named"
}

t_fault() {
    # a store to 0x200000, where nothing is: below the buffers, above the image
    sr 1 "$k/vecadd.elf" vecadd --block 4 --arg buf:16 --arg buf:16 --arg 0x200000 --arg 4 &&
    has '^simt-run: vecadd faulted: device address 0x200000, instruction at 0x[0-9a-f]+$' &&
    has '^simt-run: page fault at pc 0x[0-9a-f]{8}, address 0x00200000: block \(0,0,0\), warp 0, lane 0$'
}

t_fault_block() {
    # 2048 threads on three buffers of 1024 floats: a, b and c lie one after
    # another from 0x400000, so threads 1024 and up read b and c as a and
    # b, and their stores to c fault just past it, first in block 32
    sr 1 "$k/vecadd.elf" vecadd --grid 64 --block 32 --arg buf:4k --arg buf:4k \
        --arg buf:4k --arg 2048 &&
    has '^simt-run: page fault at pc 0x[0-9a-f]{8}, address 0x00403000: block \(32,0,0\), warp 0, lane 0$'
}

t_timeout() {
    # 4 billion rounds would take minutes: --timeout stops it
    sr 1 "$k/spin.elf" spin --block 32 --arg buf:128 --arg 0xffffffff --timeout 0.5 &&
    has '^simt-run: spin: timed out \(block \(0,0,0\) still running after [0-9]+ warp instructions'
}

# A W x H grid graph in compressed sparse rows, as little-endian u32 files:
# $tmp/row.bin, $tmp/col.bin, and $tmp/dist.bin (0 at vertex 0, ~0 else).
grid_graph() {
    python3 - "$tmp" "$1" "$2" <<'PY'
import struct, sys
d, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
row, col = [0], []
for y in range(h):
    for x in range(w):
        for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if 0 <= nx < w and 0 <= ny < h:
                col.append(ny * w + nx)
        row.append(len(col))
for name, vals in (("row", row), ("col", col),
                   ("dist", [0] + [0xffffffff] * (w * h - 1))):
    with open("%s/%s.bin" % (d, name), "wb") as f:
        f.write(struct.pack("<%dI" % len(vals), *vals))
PY
}

t_bfs_files() {
    # 40 x 25 vertices: the distance from vertex 0 is x + y, the last 63,
    # so levels 0..63 are launched and the last one changes nothing
    grid_graph 40 25 &&
    sr 0 "$k/bfs.elf" bfs_level --grid 4 --block 256 --in 0="$tmp/row.bin" \
        --in 1="$tmp/col.bin" --in 2="$tmp/dist.bin" --arg iter --arg buf:4 \
        --arg 1000 --repeat 1000 --set 4=0 --until 4=0 --out 2="$tmp/dist.out" &&
    has '^launches: 64$' &&
    python3 - "$tmp/dist.out" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
dist = struct.unpack("<1000I", data)
bad = [v for v in range(1000) if dist[v] != v % 40 + v // 40]
sys.exit("%d of 1000 distances wrong" % len(bad) if bad else 0)
PY
}

t_in_out() {
    # c = a + b, a and b from files, c written to one: bytes as they are
    python3 -c 'import struct, sys
open(sys.argv[1], "wb").write(struct.pack("<256f", *range(256)))' "$tmp/a.bin" &&
    sr 0 "$k/vecadd.elf" vecadd --grid 1 --block 256 --in 0="$tmp/a.bin" \
        --in 1="$tmp/a.bin" --arg buf:1k --arg 256 --out 2="$tmp/c.bin" &&
    python3 -c 'import struct, sys
c = struct.unpack("<256f", open(sys.argv[1], "rb").read())
sys.exit(0 if list(c) == [2.0 * i for i in range(256)] else "c is not 2i")' "$tmp/c.bin"
}

t_repeat_refusals() {
    grid_graph 4 4 &&
    sr 2 "$k/vecadd.elf" vecadd --in 1="$tmp/row.bin" &&
    has "^simt-run: --in '1=.*': arguments come in order; this one is argument 0$" &&
    sr 2 "$k/vecadd.elf" vecadd --in 0="$tmp/none.bin" && has "none.bin: No such file" &&
    sr 2 "$k/vecadd.elf" vecadd --in 0="$tmp/row.bin" --arg 3 --set 0@68=1 &&
    has "^simt-run: '0@68=1': byte 72 is past the end of argument 0's 68 bytes$" &&
    sr 2 "$k/vecadd.elf" vecadd --arg 3 --until 0=0 &&
    has "^simt-run: '0=0': argument 0 is not a buffer$" &&
    # the flag never comes back 0: three launches, then status 1
    sr 1 "$k/bfs.elf" bfs_level --grid 1 --block 32 --in 0="$tmp/row.bin" \
        --in 1="$tmp/col.bin" --in 2="$tmp/dist.bin" --arg 0 --arg buf:4 --arg 16 \
        --repeat 3 --set 4=1 --until 4=0 &&
    has '^launches: 3$' && has "^simt-run: --until 4=0: not after 3 launches$"
}

t_limits() {
    # the default preset's SM: 32768 registers and 48 KiB of shared memory;
    # matmul takes 38 registers a thread, so 1024 threads need 38912;
    # pascal-5's SM has 96 KiB of shared memory
    sr 1 "$k/matmul.elf" matmul --block 32,32 --arg buf:4 --arg buf:4 --arg buf:4 \
        --arg 32 &&
    has "^simt-run: launch: .*launch of matmul: 38 registers per thread x 1024 threads = 38912 registers, over the default preset's 32768 per SM" &&
    sr 1 "$k/vecadd.elf" vecadd --block 32 --shared 49153 --arg buf:4 --arg buf:4 \
        --arg buf:4 --arg 0 &&
    has "launch of vecadd: shared memory per block \(49153 bytes\) exceeds the default preset's 49152 bytes \(48 KiB\) per SM" &&
    SIMT_PRESET=pascal-5 sr 0 "$k/vecadd.elf" vecadd --block 32 --shared 49153 \
        --arg buf:4 --arg buf:4 --arg buf:4 --arg 0 &&
    SIMT_PRESET=nope sr 1 "$k/vecadd.elf" vecadd &&
    has "SIMT_PRESET=nope: no such preset \(default, gtx480, pascal-5"
}

# device printf: every conversion, in thread order, after the launch
t_printf() {
    for img in "$k/devprintf.elf" "$o/O0-devprintf.elf" "$o/Os-devprintf.elf" \
               "$o/O3-devprintf.elf"; do
        sr 0 "$img" print_values --grid 1 --block 3 --arg buf:i32:-5,7,300 \
            --arg buf:f32:1.5,2.25,-3 --arg buf:u8:110,97,109,101,0 --arg buf:12 \
            --dump 3:i32 || return 1
        cat > "$tmp/want" <<'END'
0: -5 fffffffb -5  | 1.500 1.500000e+00 image name a -5000000000 0x401000 %
1: 7     7 7   | 2.250 2.250000e+00 image name b 7000000000 0x401000 %
2: 300   12c 44  | -3.000 -3.000000e+00 image name c 300000000000 0x401000 %
a3: i32[3] at 0x00403000
       0: 11 11 11
END
        diff "$tmp/want" "$tmp/out" || { echo "from $img"; return 1; }
    done
}

# 256 threads x 300 lines of 24-byte records overflow the 1 MiB buffer:
# the first 43690 are printed, printf returns -1 for the rest, and the
# runner says how many bytes were lost
# widths and precisions taken from arguments, a negative precision as none
t_printf_stars() {
    sr 0 "$k/devprintf.elf" print_stars --arg buf:i32:5,4,2,-1 &&
    has '^   42\|7   \|1\.50\|2\.250000\|  ab\|$'
}

t_printf_full() {
    sr 0 "$k/devprintf.elf" print_flood --grid 4 --block 64 --arg 300 \
        --arg buf:4 --dump 1 &&
    has '^       0: 33110$' &&
    has '^simt-run: the printf buffer \(1048576 bytes\) is full: 794640 bytes of records lost$' &&
    [ "$(grep -c -E '^[0-9]+ [0-9]+$' "$tmp/out")" = 43690 ] &&
    has '^0 0$' && has '^63 0$' && has '^0 1$'
}

t_hold() {
    # wait_word ends once the input has ended and --release stored its
    # word; with --hold alone nothing stores it, and --timeout ends it
    printf 'go\n' | sr 0 "$k/samples.elf" wait_word --arg buf:4 --arg 1 --hold \
        --release 0=1 --dump 0 &&
    has '^       0: 1$' &&
    sr 1 "$k/samples.elf" wait_word --arg buf:4 --arg 1 --hold --timeout 0.5 < /dev/null &&
    has '^simt-run: wait_word: timed out' &&
    sr 2 "$k/vecadd.elf" vecadd --arg buf:4 --release 0=1 &&
    has "^simt-run: --release '0=1': only with --hold$"
}

t_help() {
    sr 0 --help && has '^usage: simt-run ' && has '^This is the host build'
}

check "vecadd on 1000 floats, 8 blocks of 128: every c[i] = a[i] + b[i]" t_vecadd
check "saxpy with a float argument (f:2.5) and buf:f32 lists" t_saxpy
check "reduce_tree: shared memory and barriers, one sum per block of 4" t_reduce
check "histogram: global atomics from 4 blocks give every bin 1" t_histogram
check "--list shows the kernels of samples.elf and their resources" t_list
check "--time prints microseconds and interpreter cycles" t_time
check "a file that is not ELF is refused (status 2, names the file)" t_not_elf
check "a truncated image is refused (status 2)" t_short
check "a missing image is refused (status 2)" t_missing
check "an image without the metadata note is refused, pointing at simt-meta" t_no_note
check "an unknown kernel name lists the kernels the image has" t_no_kernel
check "usage errors exit 2 with the guest runner's messages" t_usage
check "a store to an unbound address is reported as a fault (status 1) with pc, block, warp and lane" t_fault
check "a fault in a later block names that block" t_fault_block
check "a kernel still running at --timeout is stopped (status 1)" t_timeout
check "bfs from files, one launch per level until the changed flag stays 0 (--in, --repeat, --set, --until, --out)" t_bfs_files
check "--in fills buffers from files and --out writes one, bytes as they are" t_in_out
check "--in out of order, a missing file, a --set past a buffer, --until on a scalar, and an --until never met are refused" t_repeat_refusals
check "a block over the preset's SM limits (registers, shared memory) is refused naming the limit; SIMT_PRESET picks the machine" t_limits
check "--hold waits for the end of the input, then --release stores the word wait_word waits for; --release without --hold is refused" t_hold
check "--help gives the usage and says this is the host build" t_help
check "device printf at -O2, -O0, -Os and -O3: integers of every width, floats, strings, a character, a pointer, printed in thread order after the kernel" t_printf
check "device printf with '*' widths and precisions from its arguments" t_printf_stars
check "device printf into a full buffer: printf returns -1, the runner prints what fits and reports the bytes lost" t_printf_full
summary
