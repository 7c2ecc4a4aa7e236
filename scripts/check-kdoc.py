#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every struct and every non-static function of the guest driver has a
# kernel-doc comment: kernel-doc itself checks the comments it finds
# (scripts/check-driver.sh runs it with -Wall), not the ones missing.
#
#   scripts/check-kdoc.py FILE...
#
# A definition counts as documented when the comment right above it
# opens with "/**" and names it ("name() - ..." or "struct name - ...").
# Prints each undocumented definition as FILE:LINE: ..., and exits 1 if
# there is one.
import re
import sys

STRUCT = re.compile(r'^struct (\w+) \{')
# A function definition starts at column 0, is not static, and its
# parameter list is followed by a line that is only "{".
FUNC = re.compile(r'^(?!static\b|typedef\b|struct \w+ \{|#)'
                  r'[A-Za-z_][\w \t*]*?\b(\w+)\(')


def doc_above(lines, i):
    """The kernel-doc comment ending right above line i, or None."""
    j = i - 1
    if j < 0 or not lines[j].rstrip().endswith('*/'):
        return None
    while j >= 0 and not lines[j].lstrip().startswith('/*'):
        j -= 1
    if j < 0 or not lines[j].lstrip().startswith('/**'):
        return None
    return '\n'.join(lines[j:i])


def definitions(lines):
    """(line number, kind, name) of each struct and non-static function."""
    for i, line in enumerate(lines):
        m = STRUCT.match(line)
        if m:
            yield i, 'struct', m.group(1)
            continue
        m = FUNC.match(line)
        if not m:
            continue
        # The definition's body opens on its own line at column 0, after
        # the parameters; a prototype ends in ';' first.
        for k in range(i, min(i + 12, len(lines))):
            if lines[k].rstrip().endswith(';'):
                break
            if lines[k].rstrip() == '{':
                yield i, 'function', m.group(1)
                break


def missing(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    for i, kind, name in definitions(lines):
        doc = doc_above(lines, i)
        want = ('struct %s' % name) if kind == 'struct' else ('%s()' % name)
        if doc is None or want not in doc.split('\n')[0] + \
                (doc.split('\n')[1] if '\n' in doc else ''):
            yield i + 1, kind, name


def main(paths):
    gaps = 0
    for path in paths:
        for line, kind, name in missing(path):
            print('%s:%d: %s %s has no kernel-doc comment'
                  % (path, line, kind, name))
            gaps += 1
    return 1 if gaps else 0


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit('usage: check-kdoc.py FILE...')
    sys.exit(main(sys.argv[1:]))
