#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The hardware contract headers (include/hw/simt/simt-hw.h, simt-isa.h)
# as a kernel tree has them, for scripts/make-patches.sh's driver series.
# The headers are written once, in QEMU's style, for the device and the
# driver alike; the kernel's copy is made from them mechanically:
#
#   - what the driver does not use goes: function-like macros and static
#     inline functions it never names (the X-macro register lists and the
#     block-fit check are the device's and the tests'), then the structs
#     and enums that neither it nor what is left names, each with the
#     comment right above it;
#   - the integer types become the kernel's (uint32_t -> u32, ...), the
#     choice of <stdint.h> or <linux/types.h> becomes the latter,
#     single-bit shifts become BIT() and BIT_ULL(), _Static_assert
#     static_assert;
#   - indentation by four spaces becomes tabs (a remainder that aligns a
#     continuation line stays spaces after tabs of eight), and a
#     declaration's closing "};" gets a blank line after it.
#
#   scripts/kernel-contract.py HEADER DRIVER_DIR > KERNEL_HEADER
#
# Exits with a message naming the header and line if it meets a block it
# cannot take out whole.
import os
import re
import sys

TYPES = [('uint64_t', 'u64'), ('uint32_t', 'u32'), ('uint16_t', 'u16'),
         ('uint8_t', 'u8'), ('int64_t', 's64'), ('int32_t', 's32'),
         ('int16_t', 's16'), ('int8_t', 's8')]


def driver_words(driver_dir):
    words = set()
    for name in os.listdir(driver_dir):
        if name.endswith(('.c', '.h')):
            with open(os.path.join(driver_dir, name), encoding='utf-8') as f:
                words |= set(re.findall(r'\b\w+\b', f.read()))
    return words


def comment_above(lines, i):
    """Index where the comment ending right above line i starts, or i."""
    j = i - 1
    if j < 0 or not lines[j].rstrip().endswith('*/'):
        return i
    while j >= 0 and not lines[j].lstrip().startswith('/*'):
        j -= 1
    return j if j >= 0 else i


def drop_unused(path, lines, used):
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        macro = re.match(r'#define (\w+)\(', line)
        func = re.match(r'static inline .*?\b(\w+)\(', line)
        name = (macro or func).group(1) if (macro or func) else None
        if name is None or name in used:
            out.append(line)
            i += 1
            continue
        # The item's own comment goes with it.
        start = comment_above(lines, i)
        del out[len(out) - (i - start):]
        if macro:
            while lines[i].rstrip().endswith('\\'):
                i += 1
            i += 1
        else:
            while i < len(lines) and lines[i] != '}':
                if lines[i].startswith('#'):
                    sys.exit('%s:%d: a preprocessor line inside %s()'
                             % (path, i + 1, name))
                i += 1
            if i == len(lines):
                sys.exit('%s:%d: %s() has no closing brace at column 0'
                         % (path, start + 1, name))
            i += 1
    return out


def drop_unused_types(lines, used):
    """Structs and enums neither the driver nor the rest names, until none."""
    while True:
        for i, line in enumerate(lines):
            m = re.match(r'(struct|enum) (\w+) \{', line)
            if not m:
                continue
            end = lines.index('};', i)
            names = {m.group(2)}
            if m.group(1) == 'enum':
                names |= set(re.findall(r'^\s*(\w+)', '\n'.join(lines[i + 1:end]),
                                        re.M))
            start = comment_above(lines, i)
            rest = set(re.findall(r'\b\w+\b',
                                  '\n'.join(lines[:start] + lines[end + 1:])))
            if not names & (used | rest):
                del lines[start:end + 1]
                break
        else:
            return lines


def kernel_style(lines):
    out = []
    text = '\n'.join(lines)
    # The includes of simt-isa.h: the kernel's, always.
    text = re.sub(r'#ifdef __KERNEL__\n#include <linux/types.h>[^\n]*\n'
                  r'#else\n#include <stdint.h>\n#endif\n',
                  '#include <linux/bits.h>\n#include <linux/build_bug.h>\n'
                  '#include <linux/types.h>\n', text)
    text = re.sub(r'\b_Static_assert\(', 'static_assert(', text)
    for old, new in TYPES:
        text = re.sub(r'\b%s\b' % old, new, text)
    text = re.sub(r'\(1ull << (\w+|\([^()]*\))\)', r'BIT_ULL(\1)', text)
    text = re.sub(r'\(1u << (\w+|\([^()]*\))\)', r'BIT(\1)', text)
    for line in text.split('\n'):
        m = re.match(r'( +)(\S.*)', line)
        if m:
            n = len(m.group(1))
            rest = m.group(2)
            if rest.startswith('*'):
                # A comment block's " * " lines: its indent, then one space.
                n -= 1
                rest = ' ' + rest
            if n % 4 == 0:
                line = '\t' * (n // 4) + rest
            else:
                line = '\t' * max(n // 8, 1) + ' ' * (n % 8) + rest
        # No two blank lines in a row; one after a declaration.
        if line == '' and out and out[-1] == '':
            continue
        if line != '' and out and out[-1] == '};':
            out.append('')
        out.append(line)
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: kernel-contract.py HEADER DRIVER_DIR')
    path, driver_dir = sys.argv[1:]
    with open(path, encoding='utf-8') as f:
        lines = f.read().rstrip('\n').split('\n')
    used = driver_words(driver_dir)
    lines = drop_unused_types(drop_unused(path, lines, used), used)
    print('\n'.join(kernel_style(lines)))


if __name__ == '__main__':
    main()
