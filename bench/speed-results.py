#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write docs/speed-results.rst: how fast the interpreter, the device and
the guest's launch path are, from one make bench log.

    make bench | tee bench.log
    bench/speed-results.py --machine "2-core Xeon 2.8 GHz, quiet" \\
        bench.log > docs/speed-results.rst

Reads the "bench NAME: VALUE UNIT" lines of the figures below (other lines
are ignored) and prints the page.  The README and the other pages quote
no speed figure of their own: they point here, so that a figure is never
older than the last run written out.  A figure the log lacks is an error
(the page would be half one run, half another).
"""

import argparse
import re
import sys
import textwrap

LINE = re.compile(r"^bench ([A-Za-z0-9_]+): (\S+) (.*)$")

# (section, [(name, what it measures, the goal, if one is set)])
FIGURES = [
    ("The interpreter, one host core (host time)", [
        ("core_alu", "ALU-bound loop, thread-instructions per second", ""),
        ("core_mem", "4 loads and a store per 10 instructions", ""),
        ("core_mem_mmu_slowdown", "the same through a page table, "
         "slowdown", ""),
        ("core_divergent", "per-lane trip counts, an if/else on data", ""),
        ("core_fp", "fp32 fused multiply-adds", ""),
        ("core_alu_vs_qemu", "core_alu over qemu-riscv32 (QEMU's JIT) on "
         "the same loop, best of 3 turns each", ">= 2"),
        ("core_fp_vs_qemu", "core_fp over qemu-riscv32 on the same loop",
         ">= 10"),
    ]),
    ("The device in QEMU (host time)", [
        ("device_over_core_spin", "a 1e8 thread-instruction kernel through "
         "the device (the clock steps it runs in) over the interpreter "
         "alone", "<= 1.2"),
        ("device_spin_wall_time", "the device's run seen by the test, from "
         "the launch to the poll that sees it done", ""),
        ("core_timed_over_core_spin", "the interpreter run as the device "
         "runs it (timing model, bursts) over the plain run: the timing "
         "model's part", ""),
        ("device_over_core_timed_spin", "the device over that timed run: "
         "the part around the interpreter", ""),
        ("device_spin_threads2_speedup", "the device's spin with threads=1 "
         "over threads=2 (its SMs running ahead), runs taking turns",
         ">= 1.7"),
        ("host_spin_threads2_speedup", "what the host gives a second "
         "thread meanwhile: a plain integer loop on one thread over two, "
         "in turns with those runs", ""),
        ("device_over_core_fspin", "the same comparison on fspin, an fp32 "
         "loop of some 6e7 thread-instructions", ""),
        ("core_timed_over_core_fspin", "fspin: the timing model's part", ""),
        ("device_over_core_timed_fspin", "fspin: the part around the "
         "interpreter", ""),
        ("device_fspin_threads2_speedup", "fspin with threads=1 over "
         "threads=2", ""),
        ("device_over_core_mspin", "the same comparison on mspin, a "
         "load-store loop of some 7e7 thread-instructions", ""),
        ("core_timed_over_core_mspin", "mspin: the timing model's part", ""),
        ("device_over_core_timed_mspin", "mspin: the part around the "
         "interpreter", ""),
        ("device_mspin_threads2_speedup", "mspin with threads=1 over "
         "threads=2", ""),
        ("copy_h2d_64m_rate", "64 MiB copied host to device", ""),
        ("copy_d2h_64m_rate", "64 MiB copied device to host", ""),
        ("copy_d2d_64m_rate", "64 MiB copied within the device", ""),
    ]),
    ("Launches in the guest, on the one virtual clock (guest time)", [
        ("guest_launch_latency", "an empty kernel, launch to completion "
         "seen by the process", "<= 10 us"),
        ("guest_launch_cycles", "the same in device cycles", ""),
        ("guest_submit_rate", "empty launches queued back to back",
         ">= 100,000 /s"),
        ("guest_userq_launch_latency", "the same launch through a user "
         "queue, launch to the process seeing its SIGNAL", "<= 10 us"),
        ("guest_userq_submit_rate", "empty launches through a user queue, "
         "the ring kept full", ">= 100,000 /s"),
    ]),
]


def read_log(path):
    figures = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = LINE.match(line.rstrip("\n"))
            if m:
                figures[m.group(1)] = (m.group(2), m.group(3))
    return figures


def table(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    rule = "  ".join("=" * w for w in widths)
    out = [rule]
    for i, r in enumerate(rows):
        out.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if i == 0:
            out.append(rule)
    out.append(rule)
    return out


def page(figures, machine, log):
    intro = ("Measured by ``make bench`` (``bench/``), each figure a "
             "``bench NAME: VALUE UNIT`` line of one run on one machine: "
             + machine + ".  Host-time figures vary with the machine and "
             "its load; guest-time figures are read on the guest's virtual "
             "clock (``-icount``), so they do not, but they move by a few "
             "per cent with any change to the guest's programs or kernel "
             "(the same build gives the same figures).  ``docs/isa.rst`` says "
             "what the interpreter's loops are, ``docs/specs/simt.rst`` the "
             "device's spin kernel, ``docs/driver.rst`` the launch path.")
    out = [".. Written by bench/speed-results.py from a make bench log; "
           "do not edit.", "",
           "Speed: the last make bench", "=" * 26, ""]
    out += textwrap.wrap(intro, 72) + [""]
    missing = []
    for title, rows in FIGURES:
        out += [title, "-" * len(title), ""]
        cells = [("figure", "what", "value", "goal")]
        for name, what, goal in rows:
            if name not in figures:
                missing.append(name)
                continue
            value, unit = figures[name]
            cells.append(("``%s``" % name, what, value + " " + unit,
                          goal or "-"))
        out += table(cells) + [""]
    if missing:
        sys.exit("%s: no figure for %s (is it a whole make bench log?)"
                 % (log, ", ".join(missing)))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--machine", required=True,
                    help="the machine and whether it was quiet")
    ap.add_argument("log")
    args = ap.parse_args()
    print(page(read_log(args.log), args.machine, args.log))


if __name__ == "__main__":
    main()
