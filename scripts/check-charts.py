#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check scripts/lab-plot.py on the tables the docs quote (TAP).

Each docs/labs/LAB.rst quotes its experiment's table under "What to look
at", and docs/specs/simt.rst its occupancy table under "Occupancy
curves"; every chart drawn from them must be well-formed SVG with a
title, both axes with ticks, a legend entry and a drawn series for every
policy (or mechanism, level, preset and its published figures) in the
table, and a caption saying the experiment's setup ("Setup: ...").  A
table with a row cut short must be refused with its line number.  With OUT_DIR, the charts are also written there as CHART.svg.

    check-charts.py DOCS_DIR [OUT_DIR]
"""

import pathlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
# chart: (page, the text its table follows)
CHARTS = {lab: ("labs/%s.rst" % lab, "What to look at")
          for lab in ["placement", "mechanisms", "preempt-choice",
                      "driver-sched", "chunks", "liveness"]}
CHARTS.update({chart: ("specs/simt.rst", "Occupancy curves")
               for chart in ["occupancy-alu", "occupancy-gmem"]})
plot = pathlib.Path(__file__).with_name("lab-plot.py")
docs = pathlib.Path(sys.argv[1])
out_dir = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else None
n = failed = 0


def check(ok, what, why=""):
    global n, failed
    n += 1
    failed += not ok
    print("%s %d - %s%s" % ("ok" if ok else "not ok", n, what,
                             "" if ok else ": " + why))


def quoted_table(chart):
    """The indented literal block after the chart's marker, dedented."""
    page, marker = CHARTS[chart]
    part = (docs / page).read_text().split(marker, 1)[1]
    block = re.search(r"::\n\n((?:    .*\n|\n)+)", part).group(1)
    return "\n".join(line[4:] for line in block.splitlines()) + "\n"


def series_expected(lab, table):
    rows = [l.split() for l in table.splitlines()
            if l.strip() and l.split() != ["..."] and
            not l.startswith(("lab ", "policy", "kernel", "preset", "#",
                              " "))]
    if lab == "mechanisms":
        return {r[1] for r in rows}
    if lab == "preempt-choice":
        return {"%s %s" % (r[0], r[1]) for r in rows}
    if lab == "liveness":
        return {"-O0", "-O2", "-Os", "-O3"}
    if lab.startswith("occupancy-"):
        return {r[0] + s for r in rows for s in ("", " published")}
    return {r[0] for r in rows}


for lab in CHARTS:
    table = quoted_table(lab)
    r = subprocess.run([sys.executable, str(plot), lab], input=table,
                       capture_output=True, text=True)
    if r.returncode:
        check(False, "%s: chart drawn from the page's table" % lab,
              r.stderr.strip())
        continue
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / (lab + ".svg")).write_text(r.stdout)
    try:
        root = ET.fromstring(r.stdout)
    except ET.ParseError as e:
        check(False, "%s: chart is well-formed SVG" % lab, str(e))
        continue
    want = series_expected(lab, table)
    got = {g.get("data-name") for g in root.iter(NS + "g")
           if g.get("class") == "series" and
           any(True for _ in g.iter(NS + "rect")) +
           any(True for _ in g.iter(NS + "polyline"))}
    texts = [t for t in root.iter(NS + "text")]
    legend = [g for g in root.iter(NS + "g") if g.get("class") == "legend"]
    legend_names = {t.text for g in legend for t in g.iter(NS + "text")}
    problems = []
    if not any(t.get("class") == "title" and t.text for t in texts):
        problems.append("no title")
    if not any(t.get("class") == "caption" and t.text and
               t.text.startswith("Setup:") for t in texts):
        problems.append("no caption with the setup")
    if not any(g.get("class") == "axis" for g in root.iter(NS + "g")):
        problems.append("no axes")
    if sum(t.get("class") == "ytick" for t in texts) < 3:
        problems.append("fewer than 3 y ticks")
    if not any(t.get("class") == "xtick" for t in texts):
        problems.append("no x ticks")
    if got != want:
        problems.append("series %s, the table has %s" % (sorted(got),
                                                          sorted(want)))
    if legend_names != want:
        problems.append("legend %s" % sorted(legend_names))
    check(not problems, "%s: the page's table drawn with title, caption, "
          "axes, ticks, legend and its %d series" % (lab, len(want)),
          "; ".join(problems))

# A row cut short is refused, with its line number.
table = [l for l in quoted_table("chunks").splitlines() if l.strip()]
cut = "\n".join(table[:-1] + [" ".join(table[-1].split()[:3])]) + "\n"
r = subprocess.run([sys.executable, str(plot), "chunks"], input=cut,
                   capture_output=True, text=True)
check(r.returncode != 0 and re.search(r":\d+: expected", r.stderr),
      "a table row cut short is refused with its line number",
      "exit %d, %r" % (r.returncode, r.stderr.strip()))
print("1..%d" % n)
print("# %d passed, %d failed" % (n - failed, failed))
sys.exit(1 if failed else 0)
