#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The host runner's checkers (simt-run --check memcheck, racecheck,
# synccheck) and its random block order (--schedule random --seed N):
# each finds the bug planted in planted.c, named with its source line,
# thread and block, and says nothing of the kernel's twin without the bug
# or of the sample kernels.  TAP.
#
# Usage: test-checkers.sh SIMT-RUN KERNEL-DIR PLANTED-ELF PLANTED-C

run=$1 k=$2 img=$3 src=$4
. "$(dirname "$0")/runner-lib.sh"

# The line of planted.c whose comment is exactly /* MARK */
line() { grep -n -F "/* $1 */" "$src" | cut -d: -f1; }
at() { echo "([^ ]*/)?planted\\.c:$(line "$1") "; }

clean() { has '^========= ERROR SUMMARY: 0 errors$' && hasnt 'memcheck:|racecheck:|synccheck:'; }

t_mem_global() {
    # 128 threads, a buffer of 100 floats: thread 36 of block 1 is the
    # first past its end.  Without the checker nothing shows.
    sr 0 "$img" fill_unguarded --grid 2 --block 64 --arg buf:400 --arg 100 &&
    sr 1 "$img" fill_unguarded --grid 2 --block 64 --arg buf:400 --arg 100 \
        --check memcheck &&
    has '^========= memcheck: invalid __global__ write of 4 bytes at 0x[0-9a-f]{8}$' &&
    has "^=========     at $(at 'memcheck: global')" && hasnt '/\.\./' &&
    has 'in kernel fill_unguarded$' &&
    has '^=========     by thread \(36,0,0\) of block \(1,0,0\)$' &&
    has '^=========     0x[0-9a-f]{8} is 0 bytes past the end of the 400-byte buffer at 0x' &&
    has '^========= ERROR SUMMARY: 1 error$'
}

t_mem_no_debug() {
    # vecadd.elf is built without -g: the pc and the function instead
    sr 1 "$k/vecadd.elf" vecadd --block 64 --arg buf:16 --arg buf:16 --arg buf:16 \
        --arg 64 --check memcheck &&
    has '^========= memcheck: invalid __global__ read of 4 bytes at 0x[0-9a-f]{8}$' &&
    has '^=========     at pc 0x[0-9a-f]{8} \(vecadd\+0x[0-9a-f]+\) in kernel vecadd$' &&
    has '^=========     by thread \(4,0,0\) of block \(0,0,0\)$' &&
    has 'is 0 bytes past the end of the 16-byte buffer at 0x'
}

t_mem_shared() {
    # 64 words of dynamic shared memory after the image's 256 bytes of
    # static: thread 63 writes word 64
    sr 1 "$img" reverse_overrun --block 64 --shared 256 --arg buf:u32:0..63 \
        --arg buf:256 --check memcheck &&
    has '^========= memcheck: invalid __shared__ write of 4 bytes at 0xc0000200$' &&
    has "^=========     at $(at 'memcheck: shared')" &&
    has '^=========     by thread \(63,0,0\) of block \(0,0,0\)$' &&
    has 'shared offset 512 is past the block.s 512 bytes of shared memory' &&
    has '^simt-run: reverse_overrun faulted'
}

t_mem_misaligned() {
    sr 1 "$img" read_misaligned --block 4 --arg buf:32 --arg buf:16 --check memcheck &&
    has '^========= memcheck: invalid __global__ read of 4 bytes at 0x[0-9a-f]{7}[13579bdf]$' &&
    has "^=========     at $(at 'memcheck: misaligned')" &&
    has 'is not a multiple of 4$'
}

t_mem_local() {
    # thread 1's index 8 is one word past its 8-word array, at the top of
    # its local memory; index 7 is the twin
    sr 0 "$img" local_index --block 2 --arg buf:u32:7,7 --arg buf:8 --check memcheck \
        --dump 1 && has '^       0: 1 2$' && clean &&
    sr 1 "$img" local_index --block 2 --arg buf:u32:0,8 --arg buf:8 --check memcheck &&
    has '^========= memcheck: invalid __local__ write of 4 bytes at 0xd[0-9a-f]{7}$' &&
    has "^=========     at $(at 'memcheck: local')" &&
    has '^=========     by thread \(1,0,0\) of block \(0,0,0\)$' &&
    has "past the thread's [0-9]+ bytes of local memory \\(its stack\\)$"
}

t_race() {
    sr 1 "$img" rotate_racy --block 64 --arg buf:i32:1..64 --arg buf:256 \
        --check racecheck &&
    has '^========= racecheck: (read-after-write|write-after-read) hazard on __shared__ 0xc00000[0-9a-f]{2} in block \(0,0,0\) of kernel rotate_racy$' &&
    has "^=========     write by thread \([0-9]+,0,0\) at $(at 'racecheck: write')" &&
    has "^=========     read by threads? .* at $(at 'racecheck: read')" &&
    has '^========= ERROR SUMMARY: [12] errors?$'
}

t_sync() {
    sr 1 "$img" neighbour_plain --block 32 --arg buf:i32:1..32 --arg buf:128 \
        --check synccheck &&
    has "^========= synccheck: __shfl_down without _sync run by 16 of the warp's 32 live lanes \(lanes 0x0000ffff of 0xffffffff\)$" &&
    has "^=========     at $(at synccheck)\(neighbour_plain\+0x[0-9a-f]+, inlined from [^ ]*/simt\.h:[0-9]+\) in kernel neighbour_plain, warp 0 of block \(0,0,0\)$" &&
    has '^========= ERROR SUMMARY: 1 error$'
}

t_twins() {
    all=memcheck,racecheck,synccheck
    sr 0 "$img" fill_guarded --grid 2 --block 64 --arg buf:400 --arg 100 --check $all &&
    clean &&
    sr 0 "$img" reverse_within --block 64 --shared 256 --arg buf:u32:0..63 --arg buf:256 \
        --check $all --dump 1 && clean && has '^       0: 63 62 61 60 59 58 57 56$' &&
    sr 0 "$img" rotate_synced --block 64 --arg buf:i32:1..64 --arg buf:256 \
        --check $all --dump 1 && clean && has '^       0: 33 34 35 36 37 38 39 40$' &&
    sr 0 "$img" neighbour_sync --block 32 --arg buf:i32:1..32 --arg buf:128 \
        --check $all --dump 1 && clean && has '^       0: 3 5 7 9 11 13 15 17$'
}

t_samples() {
    # Every checker, in both block orders, on kernels with shared memory,
    # barriers, shuffles, votes, atomics and printf
    for order in linear random; do
        c="--check memcheck,racecheck,synccheck --schedule $order"
        sr 0 "$k/vecadd.elf" vecadd --grid 8 --block 128 --arg buf:f32:0..999 \
            --arg buf:f32:0..999 --arg buf:4000 --arg 1000 $c && clean &&
        sr 0 "$k/reduce.elf" reduce_tree --grid 4 --block 256 --arg buf:f32:1..1024 \
            --arg buf:16 --arg 1024 --dump 1:f32 $c && clean &&
        has '^       0: 32896 98432 163968 229504$' &&
        sr 0 "$k/histogram.elf" histogram --grid 4 --block 32 --arg buf:u8:0..255 \
            --arg 256 --arg buf:1k $c && clean &&
        sr 0 "$k/dynshared.elf" dynshared --grid 2 --block 64 --shared 256 \
            --arg buf:u32:0..127 --arg buf:512 $c && clean &&
        sr 0 "$k/matmul.elf" matmul --grid 2,2 --block 16,16 --arg buf:f32:0..1023 \
            --arg buf:f32:0..1023 --arg buf:4k --arg 32 $c && clean &&
        sr 0 "$k/vote.elf" vote --grid 2 --block 64 --arg buf:1536 --arg 100 $c && clean &&
        sr 0 "$k/cuda.elf" cuda_spellings --grid 2 --block 64 --arg buf:10240 \
            --arg buf:i32:-60..67 $c && clean &&
        sr 0 "$k/devprintf.elf" print_values --block 3 --arg buf:i32:-5,7,300 \
            --arg buf:f32:1.5,2.25,-3 --arg buf:u8:110,97,109,101,0 --arg buf:12 $c &&
        clean || return 1
    done
}

t_bfs() {
    # BFS on a ring of 1000 nodes, one launch per level, checked
    python3 - "$tmp" <<'PY' || return 1
import struct, sys
d = sys.argv[1]
n = 1000
row = [2 * i for i in range(n + 1)]
col = [x for i in range(n) for x in ((i + 1) % n, (i - 1) % n)]
open(d + "/row.bin", "wb").write(struct.pack("<%di" % len(row), *row))
open(d + "/col.bin", "wb").write(struct.pack("<%di" % len(col), *col))
open(d + "/dist.bin", "wb").write(struct.pack("<%di" % n, *([0] + [-1] * (n - 1))))
PY
    sr 0 "$k/bfs.elf" bfs_level --grid 4 --block 256 --in 0="$tmp/row.bin" \
        --in 1="$tmp/col.bin" --in 2="$tmp/dist.bin" --arg iter --arg buf:4 \
        --arg 1000 --repeat 1000 --set 4=0 --until 4=0 \
        --check memcheck,racecheck,synccheck --schedule random --seed 7 &&
    has '^launches: 501$' && clean
}

t_schedule() {
    # 64 blocks each add one to a counter without an atomic: one after
    # another none is lost; interleaved, some are, the same ones for the
    # same seed; with atomicAdd none is, in any order.
    sr 0 "$img" count_blocks_racy --grid 64 --block 32 --arg buf:4 --dump 0 &&
    has '^       0: 64$' &&
    sr 0 "$img" count_blocks_racy --grid 64 --block 32 --arg buf:4 --dump 0 \
        --schedule random --seed 3 && hasnt '^       0: 64$' &&
    grep '^       0:' "$tmp/out" > "$tmp/first" &&
    sr 0 "$img" count_blocks_racy --grid 64 --block 32 --arg buf:4 --dump 0 \
        --schedule random --seed 3 && grep -q -x -F -f "$tmp/first" "$tmp/out" &&
    for seed in 1 2 3 4; do
        sr 0 "$img" count_blocks_atomic --grid 64 --block 32 --arg buf:4 --dump 0 \
            --schedule random --seed $seed && has '^       0: 64$' || return 1
    done
}

t_usage() {
    sr 2 "$img" fill_guarded --check memcheck,bogus &&
    has "^simt-run: --check 'memcheck,bogus': memcheck, racecheck or synccheck$" &&
    sr 2 "$img" fill_guarded --schedule shuffled &&
    has "^simt-run: --schedule 'shuffled': linear or random$" &&
    sr 2 "$img" fill_guarded --seed -1 &&
    sr 0 --help && has '^  --check TOOL ' && has '^  --schedule ORDER '
}

check "memcheck: an unguarded write past a 400-byte buffer, named with planted.c's line (its path without ..), thread (36,0,0) and block (1,0,0); silent without --check" t_mem_global
check "memcheck on an image built without -g: the finding named by pc and function" t_mem_no_debug
check "memcheck: a shared write one word past the block's shared memory stops the kernel with the line and thread" t_mem_shared
check "memcheck: a word read at an odd address is named misaligned with its line" t_mem_misaligned
check "memcheck: a local array written one word past its end (past the thread's stack) is named with its line and thread" t_mem_local
check "racecheck: two warps exchanging through shared memory with no barrier: the hazard with both lines" t_race
check "synccheck: a plain __shfl_down by 16 of 32 lanes, with its line and lane masks" t_sync
check "the planted kernels' twins without the bugs: all three checkers silent, results right" t_twins
check "all three checkers silent on the sample kernels, blocks linear and random" t_samples
check "BFS over a 1000-node ring from files, 501 launches, checked in random block order: silent" t_bfs
check "--schedule random: interleaved blocks lose non-atomic updates (the same for the same seed), atomicAdd none" t_schedule
check "--check, --schedule and --seed refuse bad values; --help lists them" t_usage

summary
