#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write docs/seed-results.rst: every seed's headline figure beside ours.

    make bench | tee bench.log
    bench/seed-results.py bench.log > docs/seed-results.rst

or, after running only some of the benchmarks (say SEED003_ONLY=1
bench/guest-bench.sh), keeping the other figures of the page as it is:

    bench/seed-results.py --previous docs/seed-results.rst part.log > new.rst

Reads the "bench seedNNN_*: VALUE UNIT" lines of a make bench log (other
lines are ignored) and prints the page; with --previous, a figure the log
lacks is taken from that page (a page this script wrote).  Each figure the seeds report is
a row with ours beside it; one make bench did not print says so.  Where
ours differs from the seed's by more than 25 % the row must carry the
reason (WHY below): a figure that does so without one is an error, so
that the page never shows an unexplained gap.
"""

import re
import sys
import textwrap

LINE = re.compile(r"^bench (seed00[0-4]_[A-Za-z0-9_]+): (\S+) (.*)$")

# name: (the seed's value, unit, what it is, where the seed says it)
SEED = {
    "seed000_violations_2us_paper": (8.36, "%", "deadline violations at "
                                     "2 us, the seed's per-block choice "
                                     "(drain, flush, switch)",
                                     "000 Fig. 4.5"),
    "seed000_violations_3us_paper": (1.30, "%", "... at 3 us",
                                     "000 Fig. 4.5"),
    "seed000_violations_4us_paper": (0.0, "%", "... at 4 us", "000 Fig. 4.5"),
    "seed000_violations_5us_paper": (0.0, "%", "... at 5 us", "000 Fig. 4.5"),
    "seed000_violations_2us_auto": (8.36, "%", "... at 2 us, the same with "
                                    "this device's lightweight switch",
                                    "000 Fig. 4.5"),
    "seed000_violations_3us_auto": (1.30, "%", "... at 3 us", "000 Fig. 4.5"),
    "seed000_violations_4us_auto": (0.0, "%", "... at 4 us", "000 Fig. 4.5"),
    "seed000_violations_5us_auto": (0.0, "%", "... at 5 us", "000 Fig. 4.5"),
    "seed000_violations_2us_chimera": (14.03, "%", "deadline violations at "
                                       "2 us, Chimera", "000 Fig. 4.5"),
    "seed000_violations_3us_chimera": (7.95, "%", "... at 3 us",
                                       "000 Fig. 4.5"),
    "seed000_violations_4us_chimera": (1.93, "%", "... at 4 us",
                                       "000 Fig. 4.5"),
    "seed000_violations_5us_chimera": (1.28, "%", "... at 5 us",
                                       "000 Fig. 4.5"),
    "seed000_overhead_auto_vs_chimera": (25.3, "%", "less wasted work than "
                                         "Chimera at 2 us", "000 Fig. 4.3"),
    "seed001_isolated_33_over_32_alone": (1.0, "ratio", "B of 33 threads "
                                          "over B of 32, alone (the seed: "
                                          "negligible)", "001 4.3"),
    "seed001_compute_colocated_slowdown": (1.85, "ratio", "compute-bound B "
                                           "colocated over serial (32 "
                                           "threads)", "001 Table 4.1"),
    "seed001_compute_isolated_slowdown": (1.45, "ratio", "... isolated on "
                                          "the empty SM (33 threads)",
                                          "001 Table 4.1"),
    "seed001_memory_colocated_slowdown": (96.1, "ratio", "memory-bound B "
                                          "colocated over serial (32 "
                                          "threads)", "001 Table 4.1"),
    "seed001_memory_isolated_slowdown": (22.4, "ratio", "... isolated on "
                                         "the empty SM (33 threads)",
                                         "001 Table 4.1"),
    "seed002_hp_response_none": (600000.0, "us", "high-priority response, "
                                 "no preemption", "002 Fig. 4(b)"),
    "seed002_hp_response_chunked": (100000.0, "us", "... chunked copies only",
                                    "002 Fig. 4(b)"),
    "seed002_hp_response_split": (6000.0, "us", "... kernel splitting and "
                                  "chunked copies", "002 Fig. 4(b)"),
    "seed002_split_slowdown_S256": (0.0, "%", "matmul in 4 subkernels, "
                                    "slowdown", "002 Table 1"),
    "seed002_split_slowdown_S64": (26.0, "%", "... in 16 subkernels",
                                   "002 Table 1"),
    "seed002_split_slowdown_S16": (340.0, "%", "... in 64 subkernels",
                                   "002 Table 1"),
    "seed003_gain_short": (28.0, "%", "sharing over serialized, short jobs",
                           "003 Fig. 10"),
    "seed003_gain_long": (50.0, "%", "sharing over serialized, long jobs "
                          "with swaps", "003 Fig. 11"),
    "seed003_offload_gain": (18.0, "%", "offload to the less loaded GPU, on "
                             "top of sharing", "003 Figs. 10-11"),
    # Fig. 7 gives no gains, only that the serialized makespan grows
    # linearly with the CPU fraction F (as 1 + F, the GPU work held
    # constant) while the shared one stays roughly flat: a gain of
    # F / (1 + F).
    "seed003_gain_long_cpu0": (0.0, "%", "sharing over serialized, MM-L, "
                               "CPU fraction 0", "003 Fig. 7, implied"),
    "seed003_gain_long_cpu05": (33.3, "%", "... CPU fraction 0.5",
                                "003 Fig. 7, implied"),
    "seed003_gain_long_cpu1": (50.0, "%", "... CPU fraction 1",
                               "003 Fig. 7, implied"),
    "seed003_gain_long_cpu15": (60.0, "%", "... CPU fraction 1.5",
                                "003 Fig. 7, implied"),
    "seed003_gain_long_cpu2": (66.7, "%", "... CPU fraction 2",
                               "003 Fig. 7, implied"),
    "seed004_register_reduction": (91.5, "%", "register context, light "
                                   "against full switch", "004 Fig. 6"),
    "seed004_latency_reduction": (59.7, "%", "preemption latency, light "
                                  "against full switch", "004 Fig. 15"),
    "seed004_worst_over_average_full": (0.4, "ratio", "worst event's "
                                        "latency above the mean, over the "
                                        "mean: full switch", "004 Fig. 16"),
    "seed004_worst_over_average_light": (0.6, "ratio", "... lightweight "
                                         "switch (the paper's selective "
                                         "scheme)", "004 Fig. 16"),
}

# Why ours differs from the seed's by more than 25 %, by figure.
WHY = {
    "seed000_violations_2us_paper":
        "two causes, each with its line: drains past the bound of blocks "
        "that may not be flushed, whose lengths vary (b+tree, srad; "
        "seed000_latency_over_bound_2us_paper), estimated done when they "
        "outlast the mean (seed000_drain_estimate_error_paper), and the "
        "high-priority "
        "kernel running several times its time alone once placed, where "
        "the deadline allows its time alone "
        "(seed000_hp_run_over_alone_2us_paper; "
        "docs/preemption-results.rst)",
    "seed000_violations_3us_paper":
        "as at 2 us (seed000_latency_over_bound_3us_paper, "
        "seed000_hp_run_over_alone_3us_paper)",
    "seed000_violations_4us_paper":
        "as at 2 us (seed000_latency_over_bound_4us_paper, "
        "seed000_hp_run_over_alone_4us_paper)",
    "seed000_violations_5us_paper":
        "as at 2 us (seed000_latency_over_bound_5us_paper, "
        "seed000_hp_run_over_alone_5us_paper)",
    "seed000_violations_2us_auto":
        "as the paper's scheme (seed000_latency_over_bound_2us_auto, "
        "seed000_hp_run_over_alone_2us_auto), with fewer drains: a "
        "lightweight switch is cheaper",
    "seed000_violations_3us_auto":
        "as at 2 us",
    "seed000_violations_4us_auto":
        "as at 2 us",
    "seed000_violations_5us_auto":
        "as at 2 us",
    "seed000_violations_2us_chimera":
        "whole-SM choices spend the bound on the slowest leaver (a "
        "pathfinder SM's switch takes 1.77 us), drains of blocks that may "
        "not be flushed pass it (seed000_latency_over_bound_2us_chimera), "
        "and the high-priority kernel runs several times its time alone "
        "once placed (seed000_hp_run_over_alone_2us_chimera; "
        "docs/preemption-results.rst)",
    "seed000_violations_3us_chimera":
        "as at 2 us, though the pathfinder switch and the high-priority "
        "kernel fit 3 us",
    "seed000_violations_4us_chimera":
        "as at 2 us; two switches queued on one SM take 3.5 us",
    "seed000_violations_5us_chimera":
        "as at 2 us; a looser bound also lets Chimera switch blocks it "
        "flushed under 4 us",
    "seed004_worst_over_average_full":
        "the spread comes here from how many victims an event takes and "
        "the saves queued before it, on six kernel shapes of 24 events; "
        "the paper's from 12 longer kernels of 15 or more signals",
    "seed004_worst_over_average_light":
        "the paper's selective scheme also drains warps to preemption "
        "points (55.8 % of its latency), whose worst case is long; the "
        "device preempts at any instruction",
    "seed002_hp_response_none":
        "a waiting higher-priority kernel gets every block slot the "
        "low-priority kernel frees (block level, even in mode none), and "
        "the low-priority job is scaled down from the seed's 750 ms matmul "
        "to about 1.1 ms (docs/driver.rst)",
    "seed002_hp_response_chunked":
        "as none; the 1 MiB chunks, about 190 us each, dominate",
    "seed002_hp_response_split":
        "as none",
    "seed002_split_slowdown_S256":
        "ours is against the unsplit kernel; the seed's reference is this "
        "4-subkernel row itself",
    "seed002_split_slowdown_S64":
        "a 512 x 512 matmul (1024 blocks) against the seed's 1024 x 1024 "
        "(4096), the subkernels queued on the device with no host round "
        "trip between them (docs/driver.rst)",
    "seed002_split_slowdown_S16":
        "as with 16; the seed also pays a launch and a synchronisation per "
        "subkernel, which grow with their number",
    "seed000_overhead_auto_vs_chimera":
        "wasted work here is the low-priority kernel's lost time, which "
        "also holds the high-priority kernels' own time "
        "(docs/preemption-results.rst)",
    "seed001_compute_colocated_slowdown":
        "B's one warp per SM takes its turn with A's 16 warps of dependent "
        "multiply-adds, which ask twice what the SM issues; the seed's A "
        "took most of the units and still left B more",
    "seed001_compute_isolated_slowdown":
        "B's 16 warps on one SM ask twice the multiply-adds its ports "
        "issue, so B runs at half speed plus its loop; the seed measured "
        "less contention within B (docs/labs/placement.rst)",
    "seed001_memory_colocated_slowdown":
        "each SM has a fixed equal share of the bandwidth, so B contends "
        "only with A's block on its own SM, not with A's traffic on the "
        "other 66; the model also counts bytes, not the 32-byte sectors "
        "the seed's uncoalesced writes cost (docs/specs/simt.rst)",
    "seed001_memory_isolated_slowdown":
        "B's 8 blocks share one SM's share of the bandwidth (at most 8x); "
        "the seed's also contend for that SM's L1 and its uncoalesced "
        "sectors",
    "seed003_gain_long_cpu0":
        "the seed's serialized and shared makespans meet without CPU "
        "phases, counting GPU work only; an MM-L job alone here spends "
        "15 % of its time outside its GPU phases (seed003_mml_gpu_share: "
        "84.5 %), loading its kernels, uploading, downloading and "
        "checking its 24 MiB, which sharing overlaps with the other "
        "jobs' kernels; the swaps take back part of it",
    "seed003_offload_gain":
        "offload here sends a job that finds its group full to the other "
        "group's least loaded device at no cost, the four devices being in "
        "one machine, where the seed's offload forwarded a job's GPU calls "
        "and their data to another node over TCP; so the busiest device's "
        "jobs halve (seed003_offload_balance_gain: 16 of the 32 on the "
        "group of one without offload, 8 on each device with it) and the "
        "makespan nearly with them",
}

HEAD = """\
=======================================
The seeds' headline results beside ours
=======================================

.. This page is written by ``bench/seed-results.py`` from a ``make bench``
   log; edit that script, not this file.  To regenerate it::

       make bench | tee bench.log
       bench/seed-results.py bench.log > docs/seed-results.rst

One table per seed, after the experiment as it runs here in one line.
Each row is a figure one of the five research documents (``seed 000`` to
``seed 004``, see ``docs/design.rst``) reports, the same
figure measured on this device by ``make bench`` (the line
``bench NAME: VALUE UNIT`` it prints), and, where the two differ by more
than 25 %, why, with the bench line that isolates the cause where
there is one.  The seeds' numbers come from their papers' hardware or
simulators; ours from the device model, whose limits
``docs/specs/simt.rst`` states.  The detailed tables behind the seed 000
and 004 rows are in ``docs/preemption-results.rst``.  What the seeds
claim that the device cannot test (seed 001's transfer-bandwidth row
among it) is listed after the tables.
"""


def fmt(v):
    return "%.2f" % v if abs(v) < 10 else "%.1f" % v


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows)
              for i in range(len(header))]
    rule = "  ".join("=" * w for w in widths)
    out = [rule, "  ".join(h.ljust(w) for h, w in zip(header, widths)), rule]
    out += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths))
            for r in rows]
    out.append(rule)
    return "\n".join(l.rstrip() for l in out)


def differs(ours, seed):
    if seed == 0:
        return abs(ours) > 0.25
    return abs(ours - seed) / abs(seed) > 0.25


def previous(path):
    """The figures measured on a page this script wrote, by name."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
    except OSError as e:
        sys.exit("seed-results: %s: %s" % (path, e.strerror))
    found = {}
    for line in lines:
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) >= 4 and cells[0] in SEED:
            try:
                found[cells[0]] = float(cells[3])
            except ValueError:
                pass    # "not measured"
    return found


# Each seed's section: its title and the experiment here, in one line.
SEEDS = {
    "000": ("Seed 000: per-block preemption under a latency bound",
            "GTX480 preset (15 SMs, 1.4 GHz); six low-priority kernels with "
            "seed 000's Table 4.2 footprints (b+tree and srad irregular and "
            "non-idempotent), each preempted by 24 high-priority kernels of "
            "30 blocks injected uniformly over its run "
            "(docs/preemption-results.rst)."),
    "001": ("Seed 001: where thread blocks go, and what colocation costs",
            "Turing-68 preset; A of 67 blocks of 512 threads, then B of 8 "
            "blocks of 32 or 33 threads, compute-bound (fused multiply-adds) "
            "or memory-bound (strided stores); B alone, isolated on the "
            "empty SM, and colocated with A (docs/labs/placement.rst)."),
    "002": ("Seed 002: a high-priority job under a long low-priority one",
            "GTX480 preset, one copy engine; a low-priority job (2 MiB up, a "
            "256x256 matmul, 2 MiB down) and a high-priority one (64 KiB up, "
            "a 64x64 matmul, 64 KiB down) arriving at 8 points of it; a "
            "512x512 matmul split into subkernels queued on the device "
            "(scripts/bench.sh)."),
    "003": ("Seed 003: sharing devices between tenants",
            "A guest on the virtual clock with four devices of 64 MiB at "
            "10 MHz, a group of three and a group of one; 32 short jobs "
            "and 16 long ones (BS-L and MM-L at 25/75, each MM-L job 3/8 "
            "of the VRAM, so three conflict) split evenly between the "
            "groups, 1 or 4 at once per device, and offload from the full "
            "group to the other; 16 MM-L jobs on all four devices with "
            "the CPU fraction swept from 0 to 2; evictions by the copy "
            "engines (bench/guest-bench.sh)."),
    "004": ("Seed 004: the lightweight context switch",
            "The seed 000 experiment's kernels with the registers they use "
            "declared, light against full switches, per event "
            "(docs/preemption-results.rst)."),
}

# What the seeds claim that this device cannot test, one line each.
UNMEASURABLE = """\
Not measurable here
-------------------

What the seeds claim that this device cannot test, and why:

- Seed 000, absolute latencies in microseconds of GPGPU-Sim's Fermi:
  the device's timing model is an interval model (docs/specs/simt.rst,
  "Timing model"), so only comparisons within one run carry over.
- Seed 000, "within about 2 % of Oracle": an oracle knows each block's
  remaining time in advance; the device has no such scheme.
- Seed 001, the transfer-bandwidth row: its B is bound by page faults
  over PCIe (unified memory), which the device does not have.
- Seed 001, the L1 row and cache contention between colocated kernels:
  the timing model has no caches.
- Seed 001, the block scheduler's order on Volta and Ampere: the seed
  does not report it; the presets assume one.
- Seed 002, the GTX 460's driver and PCIe stack of 2012 (launch and
  copy setup costs on the host): the guest's driver and the device's
  copy engines are this project's own.
- Seed 003, TORQUE's cluster of three nodes and its network: the guest
  is one machine; several devices in one guest stand for a node's GPUs.
- Seed 004, the hardware costs (160 bytes of in-place tables, a
  compressor of 2 cycles, chip area): the device models the mechanism,
  not its circuits.
- Seed 004, draining to preemption points (55.8 % of the paper's
  latency): the device preempts at any instruction, so its latency
  reduction compares saves alone.
"""


def main():
    args = sys.argv[1:]
    ours = {}
    if len(args) == 3 and args[0] == "--previous":
        ours = previous(args[1])
        args = args[2:]
    if len(args) != 1:
        sys.exit("usage: bench/seed-results.py [--previous PAGE] BENCH-LOG")
    try:
        with open(args[0], encoding="utf-8") as f:
            lines = f.readlines()
    except OSError as e:
        sys.exit("seed-results: %s: %s" % (args[0], e.strerror))
    for n, line in enumerate(lines, 1):
        m = LINE.match(line.strip())
        if not m:
            continue
        try:
            ours[m.group(1)] = float(m.group(2))
        except ValueError:
            sys.exit("seed-results: %s:%d: not a number: %s"
                     % (args[0], n, line.strip()))
    rows, missing, unexplained = [], [], []
    for name, (seed, unit, what, where) in SEED.items():
        if name not in ours:
            missing.append(name)
            rows.append([name, what, fmt(seed), "not measured", unit, where,
                         ""])
            continue
        why = ""
        if differs(ours[name], seed):
            why = WHY.get(name, "")
            if not why:
                unexplained.append(name)
        rows.append([name, what, fmt(seed), fmt(ours[name]), unit, where,
                     why])
    if unexplained:
        sys.exit("seed-results: ours differs from the seed's by more than "
                 "25 %% without a reason in WHY: %s" % ", ".join(unexplained))
    print(HEAD)
    for seed_id, (title, shape) in SEEDS.items():
        part = [r for r in rows if r[0].startswith("seed%s_" % seed_id)]
        if not part:
            continue
        print("%s\n%s\n" % (title, "-" * len(title)))
        print(textwrap.fill(shape, 72) + "\n")
        print(table(["figure", "what", "seed", "here", "unit", "source",
                     "why they differ"], part))
        print()
    if missing:
        print("Not measured by this log: %s." %
              ", ".join("``%s``" % m for m in missing))
        print()
    print(UNMEASURABLE)


if __name__ == "__main__":
    main()
