#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Draw a lab's experiment table (scripts/lab.sh run LAB), or the timing
model's occupancy table (docs/specs/simt.rst), as an SVG chart.

Usage: lab-plot.py CHART [TABLE] > CHART.svg   (TABLE: a file, default stdin)

One chart per lab, each series a policy (or a mechanism, or an
optimisation level), each with a caption saying its setup:
  placement       B's cycles beside A (bars) and alone (ticks), with the
                  slowdown over each bar, per policy and B block size
  mechanisms      high-priority response, per mechanism and kernel (bars, log)
  preempt-choice  two panels against the bound: late responses, and the
                  work lost per preemption (log), per policy and kernel
  driver-sched    high-priority kernels ending before the low-priority one,
                  with the policy's holds over each bar
  chunks          high-priority copy latency against the chunk size (log-log)
  liveness        lightweight record bytes as % of full, per kernel and level
and two of the timing model, each series a preset, beside a dashed
series "PRESET published" in its colour:
  occupancy-alu   dependent-add throughput against warps per SM (log x)
  occupancy-gmem  streaming-load throughput against warps per SM (log x)
Lines are drawn a few pixels apart, each series with marks of its own
shape, so that equal series stay visible; every axis has one number
format.

A malformed table is an error with its line number.
"""

import math
import sys
from xml.sax.saxutils import escape

W, H = 1000, 540
LEFT, RIGHT, TOP, BOTTOM = 90, 260, 50, 150
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


# The setup of each chart, for its caption: what was run, so that the
# chart says it on a slide without the page around it.
CAPTIONS = {
    "placement": "Setup: turing-68 preset; A = 67 blocks of 512 threads "
                 "copying in place, then B = 8 memory-bound blocks of 32 or "
                 "33 threads; B's cycles alone and beside A, first block "
                 "placed to last retired (make lab LAB=placement).",
    "mechanisms": "Setup: GTX480 preset; one low-priority kernel per shape, "
                  "24 high-priority kernels injected at spread points, one "
                  "mechanism at a time; median cycles from injection to "
                  "the high-priority kernel's end (make lab LAB=mechanisms).",
    "preempt-choice": "Setup: GTX480 preset, auto mode; 24 high-priority "
                      "kernels injected into each low-priority kernel, one "
                      "run per bound (2 to 5 us); left: responses later "
                      "than the bound, right: warp instructions lost per "
                      "preemption (make lab LAB=preempt-choice).",
    "driver-sched": "Setup: guest on the device's clock; a stream of 30 "
                    "high-priority kernels (three on the device) and one "
                    "low-priority kernel that waits for the stream's first; "
                    "starve_ms 10, share_ms 20 (make lab LAB=driver-sched).",
    "chunks": "Setup: one copy engine; a 4 KiB copy on the highest-priority "
              "queue submitted a third into a 64 MiB low-priority copy; "
              "cycles of 1 ns from submission to end (make lab LAB=chunks).",
    "liveness": "Setup: every kernel of kernels/ at four optimisation "
                "levels, switched thousands of times; bytes of the "
                "lightweight records over a full switch's (make lab "
                "LAB=liveness).",
    "occupancy-alu": "Setup: the timing model's dependent-add kernel on "
                     "each preset, one SM, 1 to 64 warps; dashed: the "
                     "published measurements (docs/specs/simt.rst).",
    "occupancy-gmem": "Setup: the timing model's streaming-load kernel on "
                      "each preset, one SM, 1 to 64 warps; dashed: the "
                      "published measurements (docs/specs/simt.rst).",
}


def series_of(lab, text, name):
    """A chart: {title, xl, logx, bars, panels: [(y label, log y,
    {series: [(x, y)]})], notes: {(series, x): text}, ticks: {(series,
    x): y}}.  A log axis is its base (10 or 2), or False; a bar chart's
    notes are written over its bars and its ticks drawn across them."""
    panels = [{}, {}]
    notes, marks = {}, {}

    def add(key, x, y, panel=0):
        panels[panel].setdefault(key, []).append((x, y))

    for n, f in rows(text, name):
        where = "%s:%d" % (name, n)
        if lab == "placement":
            if len(f) != 8:
                fail(where, "expected 8 fields")
            cat = "B %s threads" % f[1]
            add(f[0], cat, num(f[3], where))
            marks[(f[0], cat)] = num(f[2], where)
            notes[(f[0], cat)] = "x%s" % f[4]
        elif lab == "mechanisms":
            if len(f) != 8:
                fail(where, "expected 8 fields")
            add(f[1], f[0], max(num(f[3], where), 1))
        elif lab == "preempt-choice":
            if len(f) < 9 or f[3] != "us":
                fail(where, "expected policy kernel N us ... overruled")
            key = "%s %s" % (f[0], f[1])
            add(key, num(f[2], where), num(f[4], where), 0)
            add(key, num(f[2], where), max(num(f[6], where), 1), 1)
        elif lab == "driver-sched":
            if len(f) != 3:
                fail(where, "expected 3 fields")
            add(f[0], "LP kernel", num(f[1], where))
            notes[(f[0], "LP kernel")] = "%s hold%s" % (
                f[2], "" if f[2] == "1" else "s")
        elif lab == "chunks":
            if len(f) != 6:
                fail(where, "expected 6 fields")
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
    title, xl, yl, logx, logy, bars = {
        "placement": ("Placement: B's cycles beside A (bars) and alone "
                      "(black ticks), slowdown above (seed 001)",
                      "", "B's cycles", False, False, True),
        "mechanisms": ("Mechanisms: high-priority response (seed 000)",
                       "", "median response, cycles", False, 10, True),
        "preempt-choice": ("Preemption choice: deadlines met against work "
                           "lost (seed 000)", "bound, us",
                           "late responses, %", False, False, False),
        "driver-sched": ("Driver scheduling: when the low-priority kernel "
                         "ends, and the holds it took", "",
                         "high-priority kernels ending before it (of 30)",
                         False, False, True),
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
    }[lab]
    out = [(yl, logy, panels[0])]
    if panels[1]:
        out.append(("warp instructions lost per preemption (log, 0 at 1)", 10,
                    panels[1]))
    return {"title": title, "xl": xl, "logx": logx, "bars": bars,
            "panels": out, "notes": notes, "marks": marks,
            "caption": CAPTIONS[lab]}


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


def axis_fmt(ts):
    """One number format for all of an axis's ticks: plain, or with k, M
    and G when the largest reaches 10000."""
    big = max(abs(t) for t in ts) >= 1e4 if ts else False

    def f(v):
        if big:
            for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
                if abs(v) >= div:
                    return "%g%s" % (v / div, suffix)
        return "%g" % v
    return f


def wrap(text, width):
    """@text in lines of at most @width characters, at spaces."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = "%s %s" % (line, word) if line else word
    return lines + [line] if line else lines


def marker(shape, cx, cy, r, col, tip):
    """A point's mark: circle, square, triangle or diamond, so that
    series on top of each other stay apart by shape as well as offset."""
    t = "<title>%s</title>" % escape(tip)
    if shape == 0:
        return ('<circle cx="%.1f" cy="%.1f" r="%d" fill="%s">%s</circle>'
                % (cx, cy, r, col, t))
    if shape == 1:
        return ('<rect x="%.1f" y="%.1f" width="%d" height="%d" fill="%s">'
                '%s</rect>' % (cx - r, cy - r, 2 * r, 2 * r, col, t))
    pts = ([(cx, cy - r - 1), (cx + r + 1, cy + r), (cx - r - 1, cy + r)]
           if shape == 2 else
           [(cx, cy - r - 1), (cx + r + 1, cy), (cx, cy + r + 1),
            (cx - r - 1, cy)])
    return ('<polygon points="%s" fill="%s">%s</polygon>'
            % (" ".join("%.1f,%.1f" % p for p in pts), col, t))


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


def panel(out, lab, c, p, px0, px1, style):
    """One panel of the chart between x = @px0 and @px1: its series, axes,
    ticks and y label."""
    yl, logy, s = p
    ys = [y for v in s.values() for _, y in v]
    ys += [v for v in c["marks"].values()]
    ylo = min(ys) if logy else min(0, min(ys))
    yhi = max(ys)
    if logy:
        ylo, yhi = log_bounds(ylo, yhi, logy)
    else:
        yhi = yhi * 1.15 if yhi > 0 else 1
    y = scale(ylo, yhi, logy, H - BOTTOM, TOP)
    if c["bars"]:
        cats = []
        for v in s.values():
            for cat, _ in v:
                if cat not in cats:
                    cats.append(cat)
        slot = (px1 - px0) / len(cats)
        width = slot * 0.8 / len(s)
        for i, cat in enumerate(cats):
            cx, cy = px0 + (i + 0.5) * slot, H - BOTTOM + 16
            # Many categories: labels slanted so that they do not overlap.
            tilt = (' transform="rotate(-35 %.1f %d)" text-anchor="end"'
                    % (cx, cy) if len(cats) > 6 else ' text-anchor="middle"')
            out.append('<text class="xtick" x="%.1f" y="%d"%s>%s</text>'
                       % (cx, cy, tilt, escape(cat)))
        for k, (key, v) in enumerate(s.items()):
            col = style[key][0]
            out.append('<g class="series" data-name="%s">' % escape(key))
            for cat, val in v:
                x0 = px0 + cats.index(cat) * slot + slot * 0.1 + k * width
                out.append('<rect x="%.1f" y="%.1f" width="%.1f" '
                           'height="%.1f" fill="%s"><title>%s %s: %g'
                           '</title></rect>'
                           % (x0, y(val), width, H - BOTTOM - y(val), col,
                              escape(key), escape(cat), val))
                if (key, cat) in c["marks"]:
                    m = c["marks"][(key, cat)]
                    out.append('<line class="mark" x1="%.1f" y1="%.1f" '
                               'x2="%.1f" y2="%.1f" stroke="black" '
                               'stroke-width="3"><title>%s %s alone: %g'
                               '</title></line>'
                               % (x0, y(m), x0 + width, y(m), escape(key),
                                  escape(cat), m))
                if (key, cat) in c["notes"]:
                    out.append('<text class="note" x="%.1f" y="%.1f" '
                               'text-anchor="middle" font-size="11">%s'
                               '</text>' % (x0 + width / 2,
                                            min(y(val), y(c["marks"].get(
                                                (key, cat), val))) - 4,
                                            escape(c["notes"][(key, cat)])))
            out.append('</g>')
    else:
        xs = [x for v in s.values() for x, _ in v]
        xlo, xhi = min(xs), max(xs)
        logx = c["logx"]
        if logx:
            xlo, xhi = log_bounds(xlo, xhi, logx)
        # A margin at both ends, for the series' offsets.
        x = scale(xlo, xhi, logx, px0 + 12, px1 - 12)
        xt = ticks(xlo, xhi, logx)
        xf = axis_fmt(xt)
        for t in xt:
            out.append('<text class="xtick" x="%.1f" y="%d" '
                       'text-anchor="middle">%s</text>'
                       % (x(t), H - BOTTOM + 16, xf(t)))
        for k, (key, v) in enumerate(s.items()):
            col, dash, _ = style[key]
            # Each series a few pixels to the side of the last, and its
            # own mark: equal series stay visible.
            dx = (k - (len(s) - 1) / 2) * min(3, 16 / len(s))
            pts = " ".join("%.1f,%.1f" % (x(a) + dx, y(b)) for a, b in v)
            out.append('<g class="series" data-name="%s">' % escape(key))
            out.append('<polyline points="%s" fill="none" stroke="%s" '
                       'stroke-width="2" stroke-dasharray="%s"/>'
                       % (pts, col, dash))
            for a, b in v:
                out.append(marker(k % 4, x(a) + dx, y(b), 4, col,
                                  "%s: %g, %g" % (key, a, b)))
            out.append('</g>')
    out.append('<g class="axis"><line x1="%d" y1="%d" x2="%d" y2="%d" '
               'stroke="black"/><line x1="%d" y1="%d" x2="%d" y2="%d" '
               'stroke="black"/></g>'
               % (px0, H - BOTTOM, px1, H - BOTTOM, px0, TOP, px0,
                  H - BOTTOM))
    yt = [t for t in ticks(ylo, yhi, logy) if ylo <= t <= yhi]
    yf = axis_fmt(yt)
    for t in yt:
        out.append('<text class="ytick" x="%d" y="%.1f" '
                   'text-anchor="end">%s</text>' % (px0 - 6, y(t) + 4, yf(t)))
    out.append('<text class="xlabel" x="%d" y="%d" text-anchor="middle">'
               '%s</text>' % ((px0 + px1) / 2, H - BOTTOM + 36,
                              escape(c["xl"])))
    lx = px0 - 56
    out.append('<text class="ylabel" x="%d" y="%d" transform="rotate(-90 %d '
               '%d)" text-anchor="middle">%s</text>'
               % (lx, (TOP + H - BOTTOM) / 2, lx, (TOP + H - BOTTOM) / 2,
                  escape(yl)))


def svg(lab, text, name):
    c = series_of(lab, text, name)
    keys = []
    for _, _, s in c["panels"]:
        keys += [k for k in s if k not in keys]
    style = styles(dict.fromkeys(keys))
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="12">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text class="title" x="%d" y="24" font-size="16">%s</text>'
           % (LEFT, escape(c["title"]))]
    n = len(c["panels"])
    gap = 90
    each = (W - LEFT - RIGHT - gap * (n - 1)) / n
    for i, p in enumerate(c["panels"]):
        px0 = LEFT + i * (each + gap)
        panel(out, lab, c, p, px0, px0 + each, style)
    out.append('<g class="legend">')
    for k, key in enumerate(keys):
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
    out.append('</g>')
    out.append('<g class="caption">')
    for i, line in enumerate(wrap(c["caption"], 150)):
        out.append('<text class="caption" x="%d" y="%d" font-size="11">%s'
                   '</text>' % (16, H - 40 + i * 14, escape(line)))
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
