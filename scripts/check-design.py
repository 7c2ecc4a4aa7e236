#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hold docs/design.rst against the code (TAP).

The functions and files the page names must exist.  Its "What talks to
what" section has a picture that puts each hw/simt/*.c on a floor and
draws every call that runs sideways or back up and every event a file
posts (simt_event_post), and a table of every file's callees; they are
compared with the events the device's sources post and the calls they
make to each other's functions (a call through a policy table's
function pointer, such as the placement policy's pick, counts as a call
into the policy's file).  A failure names the page's line.

    check-design.py TOP
"""

import pathlib
import re
import sys

SECTION = 'What talks to what'
FILE_RE = r'simt-[a-z0-9-]+\.c'


def strip_c(text):
    """C source without comments and string literals, lines kept."""
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'),
                  text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def device_calls(hw):
    """The .c files of hw/simt, which file defines each external
    function, and for each file the functions of other files it calls."""
    sources = {p.name: strip_c(p.read_text()) for p in sorted(hw.glob('*.c'))}
    defs = {}
    for name, text in sources.items():
        for m in re.finditer(r'^(?!static\b)[A-Za-z_][\w \t*]*?\b([A-Za-z_]\w*)'
                             r'\s*\([^;{}]*\)\s*\{', text, re.M):
            defs.setdefault(m.group(1), name)
    # The policies' function pointers: a call through one enters the
    # policy's file.
    members = {}
    for header in sorted(hw.glob('*.h')):
        source = header.with_suffix('.c').name
        if source in sources:
            for m in re.finditer(r'\(\*(\w+)\)\s*\(', header.read_text()):
                members[m.group(1)] = source
    calls = {name: {} for name in sources}
    for name, text in sources.items():
        for m in re.finditer(r'(->|\.)?\b([A-Za-z_]\w*)\s*\(', text):
            callee = members.get(m.group(2)) if m.group(1) else \
                defs.get(m.group(2))
            if callee and callee != name:
                calls[name].setdefault(callee, set()).add(m.group(2))
    return sources, defs, calls


def section(lines):
    """The first and last line index of the section SECTION."""
    start = lines.index(SECTION)
    end = start + 2
    while end + 1 < len(lines) and not (
            lines[end + 1] and set(lines[end + 1]) == {'-'} and
            len(lines[end + 1]) == len(lines[end])):
        end += 1
    return start, end


def device_events(sources):
    """For each file, the event kinds it posts."""
    return {name: set(re.findall(r'simt_event_post\([^;]*?\.kind\s*=\s*'
                                 r'(SIMT_EVENT_\w+)', text, re.S))
            for name, text in sources.items()}


def parse_picture(lines, start, end):
    """Floors {file: (floor, line)}, arrows [(from, to, names, line)]
    and events [(file, kind, line)]."""
    floors, arrows, events = {}, [], []
    floor = None
    for i in range(start, end):
        line = lines[i]
        m = re.match(r'\s*floor (\d+)\s(.*)', line)
        if m:
            floor = int(m.group(1))
            names = re.findall(FILE_RE, m.group(2))
        elif floor is not None and '|' not in line and '-->' not in line \
                and '==>' not in line:
            names = re.findall(FILE_RE, line)
            if not names:
                floor = None
        else:
            floor, names = None, []
        for name in names:
            floors.setdefault(name, []).append((floor, i + 1))
        m = re.match(r'\s*(%s)\s+-->\s+(%s)\s+\(([^)]*)\)' % (FILE_RE, FILE_RE),
                     line)
        if m:
            arrows.append((m.group(1), m.group(2),
                           re.findall(r'\w+', m.group(3)), i + 1))
        m = re.match(r'\s*(%s)\s+==>\s+(SIMT_EVENT_\w+)' % FILE_RE, line)
        if m:
            events.append((m.group(1), m.group(2), i + 1))
    return floors, arrows, events


def split_top(text):
    """Split at the commas outside parentheses."""
    items, depth, cur = [], 0, ''
    for ch in text:
        depth += {'(': 1, ')': -1}.get(ch, 0)
        if ch == ',' and depth == 0:
            items.append(cur.strip())
            cur = ''
        else:
            cur += ch
    items.append(cur.strip())
    return [item for item in items if item]


def parse_table(page, lines, start, end):
    """Rows [(files, {callee file: (names, line)}, line)] of the table
    whose header says 'calls into'."""
    head = next(i for i in range(start, end)
                if re.match(r'file +calls into$', lines[i]))
    col = lines[head].index('calls into')
    rows = []
    last = None
    for i in range(head + 2, end):
        line = lines[i]
        if line.startswith('='):
            break
        left, right = line[:col].strip(), line[col:].strip()
        if left and not (last and last[0].endswith(',')):
            last = [left, right, i + 1]
            rows.append(last)
        else:
            last[0] += ' ' + left
            last[1] += ' ' + right
    parsed = []
    for left, right, at in rows:
        files = re.findall(r'``(%s)``' % FILE_RE, left)
        callees = {}
        for item in split_top(right.strip()):
            if item == 'nothing else':
                continue
            block = re.match(r'[a-z][a-z-]*', item)
            if not block:
                raise SystemExit('%s:%d: "%s" does not start with a file\'s '
                                 'short name' % (page, at, item))
            callees['simt-%s.c' % block.group(0)] = (
                re.findall(r'``(simt_\w+)``', item), at)
        parsed.append((files, callees, at))
    return parsed


def tree_files(top):
    skip = {'.git', 'build'}
    return [p for p in top.rglob('*')
            if p.is_file() and not skip & set(p.relative_to(top).parts)]


def main():
    top = pathlib.Path(sys.argv[1])
    page = top / 'docs' / 'design.rst'
    text = page.read_text()
    lines = text.split('\n')
    sources, defs, calls = device_calls(top / 'hw' / 'simt')
    files = tree_files(top)
    c_text = '\n'.join(p.read_text(errors='replace') for p in files
                       if p.suffix in ('.c', '.h'))
    c_words = set(re.findall(r'\b\w+\b', c_text))
    rel = {str(p.relative_to(top)) for p in files}
    base = {p.name for p in files}

    def where(what):
        n = text[:text.index(what)].count('\n') + 1
        return '%s:%d' % (page, n)

    tests = []

    bad = [where('``%s``' % f) + ': ' + f
           for f in sorted(set(re.findall(r'``(simt_[a-z0-9_]+)``', text)))
           if f not in c_words]
    tests.append(('design.rst: every simt_ function it names is in the '
                  'C sources', bad))

    bad = []
    for f in sorted(set(re.findall(r'``([\w./-]*simt[\w./-]*\.[ch])``', text))):
        if not (any(r == f or r.endswith('/' + f) for r in rel)
                if '/' in f else f in base):
            bad.append(where('``%s``' % f) + ': ' + f)
    tests.append(('design.rst: every simt .c and .h file it names exists',
                  bad))

    start, end = section(lines)
    floors, arrows, events = parse_picture(lines, start, end)
    bad = ['%s: %s on no floor' % (page, f) for f in sources
           if f not in floors]
    bad += ['%s:%d: %s is no hw/simt source' % (page, at[0][1], f)
            for f, at in floors.items() if f not in sources]
    bad += ['%s:%d: %s on two floors' % (page, at[1][1], f)
            for f, at in floors.items() if len(at) > 1]
    tests.append(('design.rst picture: every hw/simt source on one floor',
                  bad))

    floor = {f: at[0][0] for f, at in floors.items()}
    bad = []
    drawn = {(a, b) for a, b, _, _ in arrows}
    for a in sorted(calls):
        for b in sorted(calls[a]):
            if a in floor and b in floor and floor[b] >= floor[a] and \
                    (a, b) not in drawn:
                bad.append('%s: %s calls %s (%s), floor %d to %d, not drawn'
                           % (page, a, b, ', '.join(sorted(calls[a][b])),
                              floor[a], floor[b]))
    for a, b, names, at in arrows:
        if b not in calls.get(a, {}):
            bad.append('%s:%d: %s --> %s drawn; no such call' %
                       (page, at, a, b))
        elif floor.get(b, -1) < floor.get(a, -1):
            bad.append('%s:%d: %s --> %s runs down; not a sideways call' %
                       (page, at, a, b))
        for n in names:
            if n not in calls.get(a, {}).get(b, ()):
                bad.append('%s:%d: %s does not call %s of %s' %
                           (page, at, a, n, b))
    tests.append(('design.rst picture: the calls sideways and back up '
                  'between hw/simt files are the ones drawn', bad))

    posted = device_events(sources)
    drawn = {(f, kind) for f, kind, _ in events}
    bad = ['%s: %s posts %s, not drawn' % (page, f, kind)
           for f in sorted(posted) for kind in sorted(posted[f])
           if (f, kind) not in drawn]
    bad += ['%s:%d: %s ==> %s drawn; it posts no such event' %
            (page, at, f, kind) for f, kind, at in events
            if kind not in posted.get(f, ())]
    tests.append(('design.rst picture: the events each hw/simt file posts '
                  'are the ones drawn', bad))

    rows = parse_table(page, lines, start, end)
    listed = [f for files_, _, _ in rows for f in files_]
    bad = ['%s: %s has no row' % (page, f) for f in sources
           if f not in listed]
    bad += ['%s: %s has %d rows' % (page, f, listed.count(f))
            for f in sorted(set(listed)) if listed.count(f) > 1]
    bad += ['%s: %s is no hw/simt source' % (page, f) for f in listed
            if f not in sources]
    tests.append(('design.rst call table: one row for every hw/simt source',
                  bad))

    bad = []
    for files_, callees, at in rows:
        for f in files_:
            have, said = set(calls.get(f, {})), set(callees)
            for b in sorted(have - said):
                bad.append('%s:%d: %s calls %s (%s), not listed' %
                           (page, at, f, b, ', '.join(sorted(calls[f][b]))))
            for b in sorted(said - have):
                bad.append('%s:%d: %s listed as calling %s; it does not' %
                           (page, at, f, b))
    tests.append(('design.rst call table: each file\'s callees are the '
                  'files it calls', bad))

    bad = []
    for files_, callees, at in rows:
        for f in files_:
            for b, (names, _) in callees.items():
                for n in names:
                    if defs.get(n) != b:
                        bad.append('%s:%d: %s is not defined in %s' %
                                   (page, at, n, b))
                    elif n not in calls[f].get(b, ()):
                        bad.append('%s:%d: %s does not call %s' %
                                   (page, at, f, n))
    tests.append(('design.rst call table: every function named is defined '
                  'in the file named before it and called by the row\'s file',
                  bad))

    print('1..%d' % len(tests))
    failed = 0
    for n, (name, problems) in enumerate(tests, 1):
        print('%s %d - %s' % ('not ok' if problems else 'ok', n, name))
        for p in problems:
            print('# ' + p)
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
