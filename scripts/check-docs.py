#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Parse every reStructuredText page under docs/ and report TAP: a page
with a markup error (a malformed table, a broken reference) fails.

    check-docs.py DOCS_DIR
"""

import pathlib
import sys

import docutils.core
import docutils.utils


def main():
    pages = sorted(pathlib.Path(sys.argv[1]).rglob('*.rst'))
    print('1..%d' % len(pages))
    failed = 0
    for n, page in enumerate(pages, 1):
        try:
            docutils.core.publish_string(
                page.read_text(), source_path=str(page), writer_name='null',
                settings_overrides={'report_level': 5, 'halt_level': 2})
            print('ok %d - %s' % (n, page))
        except docutils.utils.SystemMessage as e:
            failed += 1
            print('not ok %d - %s: %s' % (n, page, str(e).splitlines()[0]))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
