#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Seed inputs for make fuzz: QEMU's generic-fuzz target on the simt device.

A generic-fuzz input is a byte stream of operations separated by "FUZZ";
the first byte of each is its opcode (tests/qtest/fuzz/generic_fuzz.c in
the QEMU source):

  2 READ   size, region, pad[2], offset u32          (MMIO read)
  3 WRITE  size, region, pad[2], offset u32, value u64
  5 PCI_WRITE size, device, offset u8, pad, value u32 (config space)
  7 ADD_DMA_PATTERN index, stride, bytes...   fills guest RAM when the
    device reads it by DMA: the n-th read gets the n-th pattern (cycling)
  9 CLOCK_STEP                                 to the next timer deadline

Sizes: 0 byte, 1 word, 2 long, 3 quad.  Regions are the fuzzed MMIO
ranges in address order, modulo their number: with QEMU_FUZZ_OBJECTS=simt*
0 is BAR0 (registers), 1 BAR1 (the doorbells), 2 the MSI-X table, 3 the
PBA.  Guest memory is
never written directly: rings, commands, semaphores and copy sources come
from DMA patterns, in the order the device reads them.

The seeds drive the device's real paths the way the qtests do (ring
setup, doorbells, NOP, SIGNAL and WAIT, COPY both ways, LAUNCH of small
hand-assembled kernels, page tables, user queues rung through BAR1,
preemption requests and its event and trace rings, MSI-X), so that the fuzzer starts from inputs that get
past the register checks.  The device configuration is the one of
scripts/fuzz.sh (1 MiB VRAM, 2 SMs of 4 block slots, 1 copy engine).

Usage: fuzz-seeds.py OUTDIR   (writes one file per seed, named seed-*)
"""

import os
import struct
import sys

SEP = b"FUZZ"
LONG = 2
REGS, DOORBELL, MSIX_TABLE, MSIX_PBA = range(4)     # regions

# Registers (include/hw/simt/simt-hw.h)
SCRATCH, RESET, IRQ_STATUS, IRQ_MASK, IRQ_RAISE = 0x18, 0x1c, 0x20, 0x24, 0x28
DMA_CHUNK, TLB_INV_CTX, TLB_INV_ADDR, TLB_INV = 0x70, 0x78, 0x7c, 0x80
PREEMPT_BOUND, PREEMPT_REQ, PREEMPT_STATUS, TIMESLICE = 0x90, 0x94, 0x98, 0x9c
PEV_LOG_LO, PEV_LOG_HI, PEV_LOG_SIZE = 0xa4, 0xa8, 0xac
TRACE_LO, TRACE_HI, TRACE_SIZE = 0xb0, 0xb4, 0xb8
RESET_MAGIC = 0x52534554


def qreg(q, r):
    return 0x1000 + q * 0x40 + r


def creg(c, r):
    return 0x2000 + c * 0x40 + r


def ereg(e, r):
    return 0x3000 + e * 0x20 + r


Q_BASE_LO, Q_BASE_HI, Q_SIZE, Q_HEAD, Q_TAIL = 0x00, 0x04, 0x08, 0x0c, 0x10
Q_PRIORITY, Q_CONTROL, Q_STATUS, Q_ERROR_CMD = 0x14, 0x18, 0x1c, 0x20
Q_COMPLETED, Q_CONTEXT, Q_RESIDENT, Q_ACTIVE = 0x24, 0x28, 0x2c, 0x30
C_PT, C_PRIORITY, C_SAVE_BASE, C_SAVE_SIZE = 0x00, 0x04, 0x08, 0x0c
C_FAULT, C_FAULT_ADDR, C_PREEMPT_MODE, C_PSTATE, C_SAVE_USED = \
    0x10, 0x14, 0x20, 0x24, 0x28

Q_ENABLE, Q_RESET, Q_USER = 1, 2, 4
DB_STRIDE, DB_TAIL, DB_HEAD = 0x1000, 0x00, 0x04

NOP, LAUNCH, SIGNAL, WAIT, COPY = range(5)
F_IRQ, F_SRC_HOST, F_DST_HOST = 1, 2, 4


class Seed:
    def __init__(self):
        self.ops = []

    def op(self, data):
        assert SEP not in data, data
        self.ops.append(data)

    def wr(self, reg, val, region=0):
        self.op(bytes([3]) + struct.pack("<BBxxIQ", LONG, region, reg, val))

    def rd(self, reg, region=0):
        self.op(bytes([2]) + struct.pack("<BBxxI", LONG, region, reg))

    def pci_wr(self, off, val):
        self.op(bytes([5]) + struct.pack("<BBBxI", LONG, 0, off, val))

    def pci_rd(self, off):
        self.op(bytes([4]) + struct.pack("<BBB", LONG, 0, off))

    def pattern(self, data):
        self.op(bytes([7, 0, 0]) + data)

    def clear(self):
        self.op(bytes([8]))

    def step(self, n=1):
        for _ in range(n):
            self.op(bytes([9]))

    def ring(self, q, base, size=16, ctx=0, prio=0, control=Q_ENABLE):
        self.wr(qreg(q, Q_CONTROL), Q_RESET)
        self.wr(qreg(q, Q_BASE_LO), base)
        self.wr(qreg(q, Q_BASE_HI), 0)
        self.wr(qreg(q, Q_SIZE), size)
        self.wr(qreg(q, Q_PRIORITY), prio)
        self.wr(qreg(q, Q_CONTEXT), ctx)
        self.wr(qreg(q, Q_CONTROL), control)

    def status(self, q):
        for r in (Q_STATUS, Q_HEAD, Q_COMPLETED, Q_ERROR_CMD, Q_RESIDENT,
                  Q_ACTIVE):
            self.rd(qreg(q, r))
        self.rd(IRQ_STATUS)

    def data(self):
        return SEP.join(self.ops)


def cmd(words):
    b = b"".join(struct.pack("<I", w) for w in words)
    assert len(b) <= 128
    return b + bytes(128 - len(b))


def signal(op, addr, value, flags=F_IRQ):
    return cmd([op, flags, addr & 0xffffffff, addr >> 32,
                value & 0xffffffff, value >> 32])


def copy(src, dst, size, flags):
    return cmd([COPY, flags, src & 0xffffffff, src >> 32, dst & 0xffffffff,
                dst >> 32, size & 0xffffffff, size >> 32])


def launch(code, size, entry, grid, block, args, record, regs=8,
           shared=0, local=0, local_base=0, flags=F_IRQ, first=0, count=0):
    args = list(args) + [0] * (8 - len(args))
    return cmd([LAUNCH, flags, record & 0xffffffff, record >> 32, code, size,
                entry] + list(grid) + list(block) +
               [shared, local, regs, local_base] + args +
               [0, 0, 0, first, count, 0, 0])


def insns(*words):
    return b"".join(struct.pack("<I", w) for w in words)


def blt(rs1, rs2, off):
    i = off & 0x1fff
    return ((i >> 12) << 31 | ((i >> 5) & 0x3f) << 25 | rs2 << 20 |
            rs1 << 15 | 4 << 12 | ((i >> 1) & 0xf) << 8 |
            ((i >> 11) & 1) << 7 | 0x63)


RET = 0x00008067                        # jalr x0, ra: to SIMT_EXIT_RA
# x5 = 1; sw x5, 0(a0); ret
STORE_KERNEL = insns(0x00100293, 0x00552023, RET)
# x5 = 0; do x5++ while (x5 < a1); ret  (a block that runs a while)
SPIN_KERNEL = insns(0x00000293, 0x00128293, blt(5, 11, -4), RET)

RING = 0x100000                         # guest physical
RECORD = 0x180000
SEM = 0x1c0000
BUF = 0x200000
CODE = 0x1000                           # VRAM


def seed_nop_ring():
    s = Seed()
    s.rd(SCRATCH)
    s.wr(SCRATCH, 0x5eed)
    s.wr(IRQ_MASK, 0x3f)
    s.ring(0, RING)
    s.pattern(cmd([NOP, F_IRQ]))
    s.wr(qreg(0, Q_TAIL), 5)
    s.step(3)
    s.status(0)
    s.wr(IRQ_STATUS, 0x3f)
    s.wr(qreg(0, Q_TAIL), 15)
    s.step(2)
    s.status(0)
    return s


def seed_signal_wait():
    s = Seed()
    s.ring(1, RING + 0x1000, size=8, prio=2)
    s.pattern(signal(SIGNAL, SEM, 7))
    s.pattern(signal(WAIT, SEM + 8, 3))
    s.pattern(struct.pack("<Q", 2))     # not there yet: WAITING
    s.wr(qreg(1, Q_TAIL), 2)
    s.step(3)
    s.status(1)
    s.clear()
    s.pattern(signal(WAIT, SEM + 8, 3))
    s.pattern(struct.pack("<Q", 9))
    s.step(3)
    s.status(1)
    return s


def seed_copy():
    s = Seed()
    s.wr(DMA_CHUNK, 4096)
    s.ring(0, RING, size=32)
    s.pattern(copy(BUF, 0x8000, 0x3000, F_IRQ | F_SRC_HOST))
    s.pattern(bytes(range(1, 65)))      # the copy's source
    s.pattern(copy(0x8000, BUF + 0x10000, 0x3000, F_IRQ | F_DST_HOST))
    s.pattern(copy(0x8000, 0x9001, 0x777, F_IRQ))
    s.wr(qreg(0, Q_TAIL), 3)
    s.step(8)
    s.status(0)
    for r in range(0, 0x14, 4):
        s.rd(ereg(0, r))
    return s


def seed_launch():
    s = Seed()
    s.ring(0, RING, size=16)
    s.pattern(copy(BUF, CODE, len(STORE_KERNEL), F_SRC_HOST))
    s.pattern(STORE_KERNEL)
    s.pattern(launch(CODE, len(STORE_KERNEL), CODE, (4, 1, 1), (32, 1, 1),
                     [0x10000], RECORD))
    s.wr(qreg(0, Q_TAIL), 2)
    s.step(6)
    s.status(0)
    s.rd(0x60)                          # BLOCKS_RESIDENT, BLOCKS_DONE
    s.rd(0x64)
    return s


def seed_two_queues():
    s = Seed()
    s.ring(0, RING, size=16, prio=0)
    s.ring(1, RING + 0x1000, size=16, prio=3)
    s.pattern(copy(BUF, CODE, len(SPIN_KERNEL), F_SRC_HOST))
    s.pattern(SPIN_KERNEL)
    s.pattern(launch(CODE, len(SPIN_KERNEL), CODE, (8, 1, 1), (64, 1, 1),
                     [0, 2000], RECORD))
    s.wr(qreg(0, Q_TAIL), 2)
    s.step(2)
    s.clear()
    s.pattern(launch(CODE, len(SPIN_KERNEL), CODE, (2, 1, 1), (32, 1, 1),
                     [0, 50], RECORD + 64, first=1, count=1))
    s.wr(qreg(1, Q_TAIL), 1)
    s.step(6)
    s.status(0)
    s.status(1)
    return s


def seed_preempt():
    s = Seed()
    s.wr(PEV_LOG_LO, BUF + 0x20000)
    s.wr(PEV_LOG_HI, 0)
    s.wr(PEV_LOG_SIZE, 8)
    s.wr(TRACE_LO, BUF + 0x30000)
    s.wr(TRACE_HI, 0)
    s.wr(TRACE_SIZE, 64)
    s.wr(PREEMPT_BOUND, 5000)
    s.wr(creg(0, C_SAVE_BASE), 0x40000)
    s.wr(creg(0, C_SAVE_SIZE), 0x40000)
    s.wr(creg(0, C_PREEMPT_MODE), 3)    # switch
    s.ring(0, RING, size=16)
    s.pattern(copy(BUF, CODE, len(SPIN_KERNEL), F_SRC_HOST))
    s.pattern(SPIN_KERNEL)
    s.pattern(launch(CODE, len(SPIN_KERNEL), CODE, (4, 1, 1), (64, 1, 1),
                     [0, 100000], RECORD, flags=F_IRQ))
    s.wr(qreg(0, Q_TAIL), 2)
    s.step(3)
    s.wr(PREEMPT_REQ, 0 | 1 << 8 | 3 << 12)     # preempt ctx 0, switch
    s.step(3)
    s.rd(PREEMPT_STATUS)
    s.rd(creg(0, C_PSTATE))
    s.rd(creg(0, C_SAVE_USED))
    s.wr(PREEMPT_REQ, 0 | 2 << 8)               # resume
    s.step(2)
    s.wr(PREEMPT_REQ, 0 | 1 << 8 | 4 << 12)     # lightweight
    s.step(2)
    s.wr(PREEMPT_REQ, 0 | 2 << 8)
    s.wr(TIMESLICE, 2000)
    s.step(4)
    for r in range(0xa0, 0xf4, 4):
        s.rd(r)
    s.status(0)
    return s


def map_context1(s, extra):
    """Context 1: an Sv32 root table at VRAM 0x20000, a leaf table at
    0x21000 mapping VAs 0 to 0xf000 to VRAM (read and write) and the
    leaves @extra (index: PTE), put there by copies from patterns."""
    root = bytearray(4096)
    leaf = bytearray(4096)
    struct.pack_into("<I", root, 0, (0x21 << 10) | 1)
    for i in range(16):
        struct.pack_into("<I", leaf, i * 4,
                         ((0x30 + i) << 10) | 0x7)  # V R W
    for i, pte in extra.items():
        struct.pack_into("<I", leaf, i * 4, pte)
    s.ring(0, RING, size=16)
    s.pattern(copy(BUF, 0x20000, 4096, F_SRC_HOST))
    s.pattern(bytes(root[:64]))
    s.pattern(copy(BUF, 0x21000, 4096, F_SRC_HOST))
    s.pattern(bytes(leaf[:128]))
    s.wr(qreg(0, Q_TAIL), 2)
    s.step(4)
    s.wr(creg(1, C_PT), 0x80000000 | 0x20)
    s.wr(TLB_INV_CTX, 1)
    s.wr(TLB_INV, 2)


def seed_mmu():
    s = Seed()
    map_context1(s, {16: (0x100 << 10) | 0x103})  # a system page
    s.ring(2, RING + 0x2000, size=16, ctx=1)
    s.clear()
    s.pattern(copy(0x1000, BUF + 0x8000, 0x2000, F_DST_HOST))
    s.pattern(copy(0x400000, BUF + 0x8000, 0x10, F_DST_HOST))  # unmapped
    s.wr(qreg(2, Q_TAIL), 2)
    s.step(4)
    s.status(2)
    for r in (C_FAULT, C_FAULT_ADDR, 0x18, 0x1c):
        s.rd(creg(1, r))
    s.rd(0x84)
    s.rd(0x88)
    s.rd(0x8c)
    s.wr(creg(1, C_FAULT), 1)
    s.wr(TLB_INV_ADDR, 0x1000)
    s.wr(TLB_INV, 3)
    return s


def seed_user_queue():
    s = Seed()
    # VA 0x10000 a system page (read and write) holding a user queue's
    # ring, and VA 0x11000 one read-only
    map_context1(s, {16: (0x100 << 10) | 0x107, 17: (0x1c0 << 10) | 0x103})
    s.ring(2, 0x10000, size=16, ctx=1, control=Q_ENABLE | Q_USER)
    s.clear()
    s.pattern(signal(SIGNAL, 0x1000, 5))
    s.pattern(signal(WAIT, 0x11008, 1))
    s.pattern(struct.pack("<Q", 1))
    s.pattern(signal(SIGNAL, 0x11000, 6))               # read-only: faults
    s.wr(2 * DB_STRIDE + DB_TAIL, 3, region=DOORBELL)
    s.wr(0 * DB_STRIDE + DB_TAIL, 1, region=DOORBELL)   # a kernel queue's
    s.step(4)
    s.rd(2 * DB_STRIDE + DB_HEAD, region=DOORBELL)
    s.rd(2 * DB_STRIDE + DB_TAIL, region=DOORBELL)
    s.status(2)
    for r in (C_FAULT, C_FAULT_ADDR, 0x1c):
        s.rd(creg(1, r))
    s.wr(creg(1, C_FAULT), 1)
    s.ring(2, 0x10000, size=16, ctx=1, control=Q_ENABLE | Q_USER)
    s.clear()
    s.pattern(copy(BUF, 0x1000, 64, F_SRC_HOST))       # refused: privileged
    s.wr(2 * DB_STRIDE + DB_TAIL, 1, region=DOORBELL)
    s.step(2)
    s.status(2)
    s.ring(3, RING + 0x4000, size=16, ctx=0, control=Q_ENABLE | Q_USER)
    s.status(3)
    return s


def seed_msix_reset():
    s = Seed()
    s.pci_rd(0x34)
    for off in range(0x40, 0x100, 4):
        s.pci_rd(off)
    s.pci_wr(0x7c, 0x80000000)          # MSI-X enable, if the cap is there
    for v in range(6):
        s.wr(v * 16 + 0, 0xfee00000 + v * 16, region=MSIX_TABLE)
        s.wr(v * 16 + 4, 0, region=MSIX_TABLE)
        s.wr(v * 16 + 8, 0x30 + v, region=MSIX_TABLE)
        s.wr(v * 16 + 12, 0, region=MSIX_TABLE)
    s.wr(IRQ_MASK, 0x3f)
    s.wr(IRQ_RAISE, 1 << 5)
    s.rd(IRQ_STATUS)
    s.rd(0x2c)
    s.rd(0, region=MSIX_PBA)
    s.wr(IRQ_STATUS, 0x3f)
    for r in range(0, 0x60, 4):
        s.rd(r)
    s.wr(RESET, RESET_MAGIC)
    s.rd(SCRATCH)
    return s


SEEDS = {
    "nop-ring": seed_nop_ring,
    "signal-wait": seed_signal_wait,
    "copy": seed_copy,
    "launch": seed_launch,
    "two-queues": seed_two_queues,
    "preempt": seed_preempt,
    "mmu": seed_mmu,
    "user-queue": seed_user_queue,
    "msix-reset": seed_msix_reset,
}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, make in SEEDS.items():
        with open(os.path.join(out, "seed-" + name), "wb") as f:
            f.write(make().data())


if __name__ == "__main__":
    main()
