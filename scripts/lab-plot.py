#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Draw a lab's experiment table (scripts/lab.sh run LAB), or the timing
model's occupancy table (docs/specs/simt.rst), as an SVG chart.

Usage: lab-plot.py CHART [TABLE] > CHART.svg   (TABLE: a file, default stdin)

One chart per lab, each series a policy (or a mechanism, or an
optimisation level):
  placement       B's slowdown beside A, per policy and B block size (bars)
  mechanisms      high-priority response, per mechanism and kernel (bars, log)
  preempt-choice  late responses against the bound, per policy and kernel
  driver-sched    high-priority kernels ending before the low-priority one
  chunks          high-priority copy latency against the chunk size (log-log)
  liveness        lightweight record bytes as % of full, per kernel and level
and two of the timing model, each series a preset, beside a dashed
series "PRESET published" in its colour:
  occupancy-alu   dependent-add throughput against warps per SM (log x)
  occupancy-gmem  streaming-load throughput against warps per SM (log x)

A malformed table is an error with its line number.
"""

import math
import sys
from xml.sax.saxutils import escape

W, H = 1000, 500
LEFT, RIGHT, TOP, BOTTOM = 80, 260, 50, 110
DASHES = ["", "8 4", "2 3", "12 3 2 3", "4 4"]
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
           "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]


def fail(where, msg):
    sys.exit("lab-plot: %s: %s" % (where, msg))


def rows(text, name):
    """The table's data rows as lists of fields, with their line numbers."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        f = line.split()
        # Headers, and the "..." of a table quoted in part (docs/labs/).
        if not f or f == ["..."] or line.startswith(
                ("lab ", "policy", "kernel", "preset", "#", " ")):
            continue
        out.append((n, f))
    if not out:
        fail(name, "no data rows")
    return out


def num(v, where):
    try:
        return float(v.rstrip("%"))
    except ValueError:
        fail(where, "not a number: %r" % v)


def series_of(lab, text, name):
    """(title, x label, y label, log x, log y, bars, {series: [(x, y)]}):
    a log axis is its base (10 or 2), or False."""
    s = {}

    def add(key, x, y):
        s.setdefault(key, []).append((x, y))

    for n, f in rows(text, name):
        where = "%s:%d" % (name, n)
        if lab == "placement":
            if len(f) != 7:
                fail(where, "expected 7 fields")
            add(f[0], "B %s threads" % f[1], num(f[4], where))
        elif lab == "mechanisms":
            if len(f) != 8:
                fail(where, "expected 8 fields")
            add(f[1], f[0], max(num(f[3], where), 1))
        elif lab == "preempt-choice":
            if len(f) < 7 or f[3] != "us":
                fail(where, "expected policy kernel N us ...")
            add("%s %s" % (f[0], f[1]), num(f[2], where), num(f[4], where))
        elif lab == "driver-sched":
            if len(f) != 3:
                fail(where, "expected 3 fields")
            add(f[0], "LP kernel", num(f[1], where))
        elif lab == "chunks":
            if len(f) != 5:
                fail(where, "expected 5 fields")
            add(f[0], num(f[1], where), num(f[2], where))
        elif lab == "liveness":
            if len(f) != 6:
                fail(where, "expected 6 fields")
            for level, v in zip(("-O0", "-O2", "-Os", "-O3"), f[2:]):
                add(level, "%s %s" % (f[0], f[1]), num(v, where))
        elif lab in ("occupancy-alu", "occupancy-gmem"):
            if len(f) != 6:
                fail(where, "expected 6 fields")
            col = 2 if lab == "occupancy-alu" else 4
            add(f[0], num(f[1], where), num(f[col], where))
            add(f[0] + " published", num(f[1], where),
                num(f[col + 1], where))
        else:
            fail(name, "unknown lab %r" % lab)
    return {
        "placement": ("Placement: B's slowdown beside A (seed 001)",
                      "", "slowdown (x)", False, False, True),
        "mechanisms": ("Mechanisms: high-priority response (seed 000)",
                       "", "median response, cycles", False, 10, True),
        "preempt-choice": ("Preemption choice: late responses",
                           "bound, us", "late, %", False, False, False),
        "driver-sched": ("Driver scheduling: high-priority kernels ending "
                         "before the low-priority one", "",
                         "of 40", False, False, True),
        "chunks": ("Chunked copies: 4 KiB high-priority copy latency",
                   "chunk, KiB", "latency, cycles", 10, 10, False),
        "liveness": ("Liveness: lightweight record bytes (seed 004)",
                     "", "% of a full switch", False, False, True),
        "occupancy-alu": ("Dependent adds: throughput by warps per SM",
                          "warps per SM", "warp instructions / cycle / SM",
                          2, False, False),
        "occupancy-gmem": ("Streaming loads: throughput by warps per SM",
                           "warps per SM", "bytes / cycle / SM",
                           2, False, False),
    }[lab] + (s,)


def scale(lo, hi, log, a, b):
    if log:
        lo, hi = math.log(lo, log), math.log(hi, log)
    if hi == lo:
        hi = lo + 1

    def f(v):
        v = math.log(v, log) if log else v
        return a + (v - lo) * (b - a) / (hi - lo)
    return f


def log_bounds(lo, hi, log):
    """lo and hi widened to powers of the axis's base."""
    return (log ** math.floor(round(math.log(lo, log), 9)),
            log ** math.ceil(round(math.log(hi, log), 9)))


def ticks(lo, hi, log):
    if log:
        lo, hi = log_bounds(lo, hi, log)
        return [log ** e for e in range(round(math.log(lo, log)),
                                        round(math.log(hi, log)) + 1)]
    if hi <= lo:
        return [lo]
    step = 10 ** math.floor(math.log10(hi - lo))
    while (hi - lo) / step > 8:
        step *= 2
    while (hi - lo) / step < 4:
        step /= 2
    t, v = [], math.floor(lo / step) * step
    while v <= hi + step / 2:
        t.append(v)
        v += step
    return t


def fmt(v):
    if v >= 1e4:
        return "%.0e" % v
    return "%g" % v


def styles(s):
    """{series: (colour, dashes, published)}: a series "X published" is
    drawn dashed in X's colour, X solid; without such series, each in a
    colour and dashes of its own."""
    own = [k for k in s if not (k.endswith(" published") and
                                k[:-len(" published")] in s)]
    solid = len(own) < len(s)   # dashes are for the published ones
    out = {k: (COLOURS[i % len(COLOURS)],
               "" if solid else DASHES[i % len(DASHES)], False)
           for i, k in enumerate(own)}
    for k in s:
        if k not in out:
            out[k] = (out[k[:-len(" published")]][0], "6 4", True)
    return out


def svg(lab, text, name):
    title, xl, yl, logx, logy, bars, s = series_of(lab, text, name)
    style = styles(s)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="12">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text class="title" x="%d" y="24" font-size="16">%s</text>'
           % (LEFT, escape(title))]
    ys = [y for v in s.values() for _, y in v]
    ylo = min(ys) if logy else min(0, min(ys))
    yhi = max(ys)
    if logy:
        ylo, yhi = log_bounds(ylo, yhi, logy)
    else:
        yhi = yhi * 1.1 if yhi > 0 else 1
    y = scale(ylo, yhi, logy, H - BOTTOM, TOP)
    if bars:
        cats = []
        for v in s.values():
            for c, _ in v:
                if c not in cats:
                    cats.append(c)
        slot = (W - LEFT - RIGHT) / len(cats)
        width = slot * 0.8 / len(s)
        for i, c in enumerate(cats):
            cx, cy = LEFT + (i + 0.5) * slot, H - BOTTOM + 16
            # Many categories: labels slanted so that they do not overlap.
            tilt = (' transform="rotate(-35 %.1f %d)" text-anchor="end"'
                    % (cx, cy) if len(cats) > 6 else ' text-anchor="middle"')
            out.append('<text class="xtick" x="%.1f" y="%d"%s>%s</text>'
                       % (cx, cy, tilt, escape(c)))
        for k, (key, v) in enumerate(s.items()):
            col = style[key][0]
            out.append('<g class="series" data-name="%s">' % escape(key))
            for c, val in v:
                x0 = LEFT + cats.index(c) * slot + slot * 0.1 + k * width
                out.append('<rect x="%.1f" y="%.1f" width="%.1f" '
                           'height="%.1f" fill="%s"><title>%s %s: %g'
                           '</title></rect>'
                           % (x0, y(val), width, H - BOTTOM - y(val), col,
                              escape(key), escape(c), val))
            out.append('</g>')
    else:
        xs = [x for v in s.values() for x, _ in v]
        xlo, xhi = min(xs), max(xs)
        if logx:
            xlo, xhi = log_bounds(xlo, xhi, logx)
        x = scale(xlo, xhi, logx, LEFT, W - RIGHT)
        for t in ticks(xlo, xhi, logx):
            out.append('<text class="xtick" x="%.1f" y="%d" '
                       'text-anchor="middle">%s</text>'
                       % (x(t), H - BOTTOM + 16, fmt(t)))
        for k, (key, v) in enumerate(s.items()):
            col, dash, _ = style[key]
            pts = " ".join("%.1f,%.1f" % (x(a), y(b)) for a, b in v)
            out.append('<g class="series" data-name="%s">' % escape(key))
            # Dashes and shrinking marks keep equal series visible.
            out.append('<polyline points="%s" fill="none" stroke="%s" '
                       'stroke-width="2" stroke-dasharray="%s"/>'
                       % (pts, col, dash))
            for a, b in v:
                out.append('<circle cx="%.1f" cy="%.1f" r="%d" fill="%s">'
                           '<title>%s: %g, %g</title></circle>'
                           % (x(a), y(b), max(5 - k, 2), col, escape(key),
                              a, b))
            out.append('</g>')
    # Axes, y ticks, labels, legend.
    out.append('<g class="axis"><line x1="%d" y1="%d" x2="%d" y2="%d" '
               'stroke="black"/><line x1="%d" y1="%d" x2="%d" y2="%d" '
               'stroke="black"/></g>'
               % (LEFT, H - BOTTOM, W - RIGHT, H - BOTTOM,
                  LEFT, TOP, LEFT, H - BOTTOM))
    for t in ticks(ylo, yhi, logy):
        if ylo <= t <= yhi:
            out.append('<text class="ytick" x="%d" y="%.1f" '
                       'text-anchor="end">%s</text>'
                       % (LEFT - 6, y(t) + 4, fmt(t)))
    out.append('<text class="xlabel" x="%d" y="%d" text-anchor="middle">'
               '%s</text>' % ((LEFT + W - RIGHT) / 2, H - 24, escape(xl)))
    out.append('<text class="ylabel" x="16" y="%d" transform="rotate(-90 16 '
               '%d)" text-anchor="middle">%s</text>'
               % ((TOP + H - BOTTOM) / 2, (TOP + H - BOTTOM) / 2,
                  escape(yl)))
    out.append('<g class="legend">')
    for k, key in enumerate(s):
        ly = TOP + 10 + k * 18
        col, _, published = style[key]
        if published:
            out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" '
                       'stroke-width="2" stroke-dasharray="3 2"/>'
                       % (W - RIGHT + 14, ly + 6, W - RIGHT + 28, ly + 6,
                          col))
        else:
            out.append('<rect x="%d" y="%d" width="12" height="12" '
                       'fill="%s"/>' % (W - RIGHT + 16, ly, col))
        out.append('<text x="%d" y="%d">%s</text>'
                   % (W - RIGHT + 34, ly + 11, escape(key)))
    out.append('</g></svg>')
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: lab-plot.py LAB [TABLE] > LAB.svg")
    name = sys.argv[2] if len(sys.argv) == 3 else "<stdin>"
    text = open(name).read() if len(sys.argv) == 3 else sys.stdin.read()
    sys.stdout.write(svg(sys.argv[1], text, name))


if __name__ == "__main__":
    main()
