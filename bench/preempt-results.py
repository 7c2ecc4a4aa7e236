#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Turn the "bench preempt_*" lines of bench/preempt-bench.sh (on stdin)
# into docs/preemption-results.rst (on stdout).

import re
import sys

MHZ = 1400
MODES = ["none", "drain", "flush", "switch", "light"]
BOUNDS = [2, 3, 4, 5]
SHAPES = {
    "pathfinder": "256 threads, 2048 B shared, 16 registers, idempotent",
    "hotspot": "256 threads, 3072 B shared, 36 registers, idempotent",
    "streamcluster": "512 threads, no shared memory, 12 registers, "
                     "idempotent",
    "backprop": "256 threads, 1088 B shared, 20 registers, atomics",
}

LINE = re.compile(r"^bench preempt_([a-z]+)_([a-z0-9]+)_([a-z0-9_]+): "
                  r"(\S+) (.*)$")


def parse(lines):
    fig = {}
    for n, line in enumerate(lines, 1):
        m = LINE.match(line.strip())
        if not m:
            sys.exit("preempt-results: stdin:%d: not a preemption figure: %s"
                     % (n, line.strip()))
        shape, mode, metric, value, _unit = m.groups()
        fig.setdefault(shape, {}).setdefault(mode, {})[metric] = value
    return fig


def num(v):
    return float(v.split("/")[0])


def us(cycles):
    return "%.2f" % (cycles / MHZ)


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows)
              for i in range(len(header))]
    rule = "  ".join("=" * w for w in widths)
    out = [rule, "  ".join(str(h).ljust(w) for h, w in zip(header, widths)),
           rule]
    for r in rows:
        out.append("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))
    out.append(rule)
    return "\n".join(out)


def main():
    fig = parse([l for l in sys.stdin if l.strip()])
    shapes = [s for s in SHAPES if s in fig]
    if not shapes:
        sys.exit("preempt-results: no figures on stdin")
    print(HEAD)

    print("Kernels\n-------\n")
    rows = []
    for s in shapes:
        rows.append([s, SHAPES[s], fig[s]["lp"]["alone"],
                     fig[s]["hp"]["alone"]])
    print(table(["kernel", "per block", "alone (cycles)",
                 "HP alone (cycles)"], rows))
    print()

    print(PER_MECHANISM)
    for s in shapes:
        print("%s\n%s\n" % (s, "~" * len(s)))
        rows = []
        for mode in MODES + ["auto%dus" % b for b in BOUNDS]:
            f = fig[s].get(mode)
            if not f:
                continue
            mix = f["mix"].split("/")
            rows.append([mode, f["dispatch"], us(num(f["dispatch"])),
                         f["response"], us(num(f["response"])),
                         f["violations_2us"], f["events"],
                         "/".join(mix), f["saved"], f["wasted"],
                         f["lp_slowdown"]])
        print(table(["mechanism", "dispatch", "us", "response", "us",
                     "late 2us %", "events", "D/F/S/L blocks",
                     "saved B/event", "wasted/event", "LP slower %"], rows))
        print()

    print(LIGHT)
    rows = []
    for s in shapes:
        sw, li = fig[s].get("switch"), fig[s].get("light")
        if not sw or not li or not num(sw["saved"]) or not num(li["saved"]):
            continue
        full_b, light_b = num(sw["saved"]), num(li["saved"])
        full_l, light_l = num(sw["save_latency"]), num(li["save_latency"])
        rows.append([s, "%d" % full_b, "%d" % light_b,
                     "%.1f" % (100 * (1 - light_b / full_b)),
                     "%d" % full_l, "%d" % light_l,
                     "%.1f" % (100 * (1 - light_l / full_l))])
    print(table(["kernel", "full B/event", "light B/event", "less %",
                 "full latency", "light latency", "lower %"], rows))
    print()

    print(AUTO)
    for s in shapes:
        print("%s\n%s\n" % (s, "~" * len(s)))
        rows = []
        for b in BOUNDS:
            row = ["%d us" % b]
            for mode in ["drain", "flush", "switch", "light",
                         "auto%dus" % b]:
                f = fig[s][mode]
                row.append("%s / %s" % (f["violations_%dus" % b],
                                        f["lp_slowdown"]))
            row.append(fig[s]["auto%dus" % b]["mix"])
            rows.append(row)
        print(table(["bound", "drain", "flush", "switch", "light", "auto",
                     "auto D/F/S/L"], rows))
        print()
    print(NOTES)


HEAD = """\
================================
Preemption: measured results
================================

.. This page is written by ``bench/preempt-bench.sh --write-docs``; edit
   bench/preempt-results.py, not this file.

These figures come from the device model itself, on the ``gtx480`` preset
(15 SMs at 1400 MHz, 127 bytes of memory bandwidth per cycle shared
equally by the SMs, seeds 000 and 004's configuration).  Rerun them with::

    make qemu host
    bench/preempt-bench.sh --write-docs

``make bench`` prints the same figures without rewriting this page.

How they are measured (``bench_preempt`` in
``tests/qtest/simt-preempt-test.c``):

- A low-priority kernel with the per-block footprint of one of seed 000's
  benchmarks (threads, shared memory and registers per block; the
  registers are declared in the launch, the shared memory is allocated
  per block) runs four waves of blocks.
- A high-priority kernel shaped like seed 000's synthetic one (30 blocks
  of 256 threads, 2048 shared bytes and 16 registers each) is submitted
  24 times at points spread uniformly over the low-priority kernel's
  run, each time after the previous one finished.
- *dispatch* and *response* are medians, in device cycles and
  microseconds, from the doorbell write to the high-priority kernel's
  first block and to its last block's end.  A response is *late* for a
  bound L when it exceeds the high-priority kernel's time alone plus L
  (seed 000's deadline).
- *D/F/S/L blocks* counts the low-priority blocks that left by drain,
  flush, context switch and lightweight switch; *saved* is the bytes
  written to the save area per event (registers, shared memory, block
  and warp headers, local memory); *wasted* the warp instructions lost to
  flushes per event; *LP slower* the low-priority kernel's run time
  against its run alone (the high-priority kernels' own time included).
- The low-priority results of every preempted run are compared with the
  run alone, bit for bit.
"""

PER_MECHANISM = """\
Latency and cost per mechanism
------------------------------

``none`` is a context whose mode is NONE: the high-priority kernel waits
at the head of the dispatch queue for blocks to finish, which in this
device is what ``drain`` does too, without an event.  Where a kernel
leaves room for the high-priority blocks beside its own (hotspot is
limited by registers and leaves threads, block slots and shared memory
free, the complementary mix seed 000 also observes), nothing is
preempted and every mechanism gives the same figures.
"""

LIGHT = """\
Lightweight against full context switch
---------------------------------------

Per event, the bytes written by a full context switch (every register
the kernel uses, all lanes) and by a lightweight one (only registers live
at each warp's pcs, uniform and strided ones compressed, seed 004), and
the median latency from the request until the last victim block is off
its SM.  Seed 004 reports 91.5 % less register context and 59.7 % lower
latency; the figures here count the whole record, shared memory
included, which liveness cannot shrink.
"""

AUTO = """\
Auto against single mechanisms under latency bounds
---------------------------------------------------

For each bound L, the share of late responses and the low-priority
slowdown (``late % / slower %``) of each mechanism, and the technique mix
auto chose with its latency bound register set to L.  Seed 000 reports,
for 2, 3, 4 and 5 us, violation rates of 8.4, 1.3, 0 and 0 % for its
scheme against 14.0, 8.0, 1.9 and 1.3 % for Chimera.
"""

NOTES = """\
Differences from the seeds
--------------------------

- The kernels are synthetic: they have the footprint of the seeds'
  benchmarks, not their instruction mix or memory behaviour.  Seed 000's
  results come from GPGPU-Sim's cycle model; this device's timing model
  is coarser (docs/specs/simt.rst, "Timing model").
- Preemption latency here includes up to one 100-cycle slice between a
  block leaving and the next dispatch, and the high-priority launch is
  seen at a slice boundary.
- Auto chooses among flush, drain, full and lightweight switching with
  seed 000's cost model; the lightweight switch is the fourth technique
  the digest suggests (part C.2).
"""

if __name__ == "__main__":
    main()
