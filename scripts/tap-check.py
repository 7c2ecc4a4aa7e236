#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check a TAP log (e.g. a guest's serial console) and print a summary.

    tap-check.py --name NAME [options] LOGFILE

Fails (exit status 1) on any "not ok" (except TODO), an "ok" marked TODO
(the known failure is fixed: drop the directive), a missing, repeated or
mismatched plan, missing or out-of-order test numbers, "Bail out!", a kernel
report anywhere in the log, or a missing end marker (the run was cut short,
e.g. by a timeout).  Lines that are not TAP (kernel messages, boot noise)
are ignored, so the log may be a whole serial console capture.

Unless --no-kernel-check, the kernel log (the whole capture) is one more
test, numbered after the log's own, counted in the summary like the others:
    ok N - kernel log of the boot has no BUG/WARNING/Oops/KASAN/lockdep/list
           corruption/RCU stall lines
It fails on any line that KERNEL_RE matches (an oops, BUG, WARNING, panic,
call trace, KASAN or UBSAN report, lockdep splat, list corruption, RCU
stall, soft lockup or hung task); it is printed, as "not ok N - ...", with
each offending line as a TAP diagnostic ("#   line L: TEXT"), only when it
fails.

The last line printed is always the summary:
    NAME: P passed, F failed
where F counts "not ok" tests plus tests the plan announced but that never
reported (known failures, "not ok # TODO", are in neither P nor F but get
a line of their own) plus a failed kernel log test, and is at least 1
whenever the check fails for another reason (no plan, missing end
marker), so that F is 0 exactly when the check passes.  Each problem is printed first as "NAME: FAIL: ...".
Exit status: 0 when everything is fine, 1 otherwise, 2 on usage errors.
"""

import argparse
import re
import sys

TEST_RE = re.compile(r'^\s*(not ok|ok)\b\s*(\d+)?\s*-?\s*([^#]*)(#\s*(\w+).*)?$')
PLAN_RE = re.compile(r'^\s*1\.\.(\d+)\s*(#.*)?$')
BAIL_RE = re.compile(r'^\s*Bail out!(.*)$')

# Kernel (and sanitizer) reports that fail a run wherever they appear:
# oopses, BUG and WARNING splats (lockdep's, debugobjects' and DMA-API's
# are WARNINGs), KASAN and UBSAN reports, list corruption (DEBUG_LIST),
# RCU stalls, lockups and hung tasks.
KERNEL_RE = re.compile(
    r'(\bBUG:|\bOops\b|\bWARNING:|Call Trace:|Kernel panic|'
    r'general protection fault|\bUBSAN:|\bKASAN\b|Unable to handle kernel|'
    r'possible circular locking|possible recursive locking|'
    r'inconsistent lock state|suspicious RCU usage|'
    r'list_add corruption|list_del corruption|'
    r'hung_task|blocked for more than \d+ seconds|soft lockup|RCU stall|'
    r'detected stalls on CPUs|self-detected stall|INFO: rcu)')

KERNEL_TEST = ('kernel log of the boot has no BUG/WARNING/Oops/KASAN/lockdep/'
               'list corruption/RCU stall lines')


def check(lines, end_marker, kernel_check):
    problems = []
    plans = []
    results = []          # (number, ok, description, directive)
    bailed = None
    end_seen = False
    kernel_hits = []

    for lineno, raw in enumerate(lines, 1):
        line = raw.rstrip('\r\n').replace('\r', '')
        if kernel_check and KERNEL_RE.search(line):
            kernel_hits.append((lineno, line.strip()))
        if end_marker and line.strip() == end_marker:
            end_seen = True
            continue
        m = PLAN_RE.match(line)
        if m:
            plans.append((lineno, int(m.group(1))))
            continue
        m = BAIL_RE.match(line)
        if m:
            bailed = (lineno, m.group(1).strip())
            continue
        m = TEST_RE.match(line)
        if m:
            ok = m.group(1) == 'ok'
            num = int(m.group(2)) if m.group(2) else len(results) + 1
            directive = (m.group(5) or '').upper()
            results.append((num, ok, m.group(3).strip(), directive))

    passed = 0
    failed = 0
    todo = 0
    for num, ok, desc, directive in results:
        if ok and directive == 'TODO':
            passed += 1
            problems.append('ok %d - %s is marked TODO but passes: remove '
                            'the TODO' % (num, desc))
        elif ok:
            passed += 1
        elif directive == 'TODO':
            todo += 1
        else:
            failed += 1
            problems.append('not ok %d - %s' % (num, desc))

    expected = None
    if not plans:
        problems.append('no plan line (1..N)')
    elif len(plans) > 1:
        problems.append('%d plan lines (lines %s)'
                        % (len(plans), ', '.join(str(p[0]) for p in plans)))
    else:
        expected = plans[0][1]

    numbers = [r[0] for r in results]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append('test numbers are not 1..%d in order: %s'
                        % (len(numbers), ' '.join(map(str, numbers))))
    if expected is not None and len(results) != expected:
        problems.append('plan says %d tests, %d reported'
                        % (expected, len(results)))
        if len(results) < expected:
            failed += expected - len(results)

    if bailed:
        problems.append('bailed out at line %d: %s' % bailed)

    # The kernel log as one more test, numbered after the log's own.
    kernel_test = None
    if kernel_check:
        num = max(expected or 0, len(results)) + 1
        kernel_test = (num, kernel_hits)
        if kernel_hits:
            failed += 1
        else:
            passed += 1

    if end_marker and not end_seen:
        problems.append('end marker "%s" missing (run cut short or timed out)'
                        % end_marker)
    if not results and not problems:
        problems.append('no test results')

    return passed, failed, todo, problems, kernel_test


def main():
    ap = argparse.ArgumentParser(
        description='Check a TAP log and print "NAME: P passed, F failed".')
    ap.add_argument('--name', required=True,
                    help='suite name for the summary line')
    ap.add_argument('--end-marker', default='# end of tests',
                    help='line that must appear once the run finished '
                         '(default: "%(default)s"; empty: not required)')
    ap.add_argument('--no-kernel-check', dest='kernel_check',
                    action='store_false',
                    help='no kernel log test (no scan for oops, BUG, '
                         'WARNING, KASAN, lockdep, ... lines)')
    ap.add_argument('--boot', action='store_true',
                    help='the log is a guest\'s serial console: a log '
                         'without a plan or a result is reported as a '
                         'guest that did not boot')
    ap.add_argument('logfile', help='the log, or - for stdin')
    args = ap.parse_args()

    try:
        if args.logfile == '-':
            lines = sys.stdin.readlines()
        else:
            with open(args.logfile, encoding='utf-8',
                      errors='replace') as f:
                lines = f.readlines()
    except OSError as e:
        print('%s: cannot read %s: %s' % (args.name, args.logfile, e),
              file=sys.stderr)
        print('%s: 0 passed, 1 failed' % args.name)
        return 1

    passed, failed, todo, problems, kernel_test = check(
        lines, args.end_marker, args.kernel_check)
    if args.boot and not any(PLAN_RE.match(l) or TEST_RE.match(l)
                             for l in lines):
        # Nothing of the tests: not "0 passed", a machine that never ran.
        problems = ['the guest did not boot: no TAP plan and no result in '
                    'its console (the end of the log says why)']
    for p in problems:
        print('%s: FAIL: %s' % (args.name, p))
    kernel_failed = bool(kernel_test and kernel_test[1])
    if kernel_failed:
        num, hits = kernel_test
        print('%s: not ok %d - %s' % (args.name, num, KERNEL_TEST))
        for lineno, text in hits[:40]:
            print('%s: #   line %d: %s' % (args.name, lineno, text))
        if len(hits) > 40:
            print('%s: #   ... and %d more such lines'
                  % (args.name, len(hits) - 40))
    if todo:
        print('%s: %d known failures (not ok # TODO), counted neither as '
              'passed nor as failed' % (args.name, todo))
    if problems and failed == 0:
        # Something went wrong outside the tests themselves (no plan, a
        # timeout): still count it as a failure.
        failed = 1
    if (problems or kernel_failed) and args.logfile != '-':
        print('%s: log: %s' % (args.name, args.logfile))
    print('%s: %d passed, %d failed' % (args.name, passed, failed))
    return 1 if problems or kernel_failed else 0


if __name__ == '__main__':
    sys.exit(main())
