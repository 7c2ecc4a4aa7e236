#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# docs/toolchain.rst's limits table (between ".. limits-table-start" and
# ".. limits-table-end", indented as a block quote) is what print-limits
# prints from the presets: one TAP test.
#
# Usage: test-limits-doc.sh PRINT-LIMITS TOOLCHAIN.RST
want=$("$1") || { echo "not ok 1 - print-limits failed"; echo "1..1"; exit 1; }
# The lines between the markers, unindented, without the blank lines
# that open and close the block.
got=$(sed -n '/^\.\. limits-table-start/,/^\.\. limits-table-end/p' "$2" |
      sed '1d;$d' | sed 's/^   //' |
      awk 'NF { started = 1 } started { lines[n++] = $0; if (NF) last = n }
           END { for (i = 0; i < last; i++) print lines[i] }')
if [ "$got" = "$want" ]; then
    echo "ok 1 - docs/toolchain.rst's limits table is the presets' (hw/simt/simt-preset.c)"
else
    echo "not ok 1 - docs/toolchain.rst's limits table is the presets' (hw/simt/simt-preset.c)"
    printf '%s\n' "$want" | sed 's/^/# expected: /'
    printf '%s\n' "$got" | sed 's/^/# the page: /'
fi
echo "1..1"
[ "$got" = "$want" ]
