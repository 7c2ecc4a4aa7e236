#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The OpenCL samples (opencl/samples), unchanged, on the platform that
# OPENCL_PLATFORM names: each checks its results against a host
# reference and prints one line, NAME: ok (...) or NAME: FAILED (...).
# TAP, one test per sample.  Usage: test-samples.sh SAMPLE...
n=0 failed=0
for sample in "$@"; do
    n=$((n + 1))
    name=$(basename "$sample")
    if out=$("$sample" 2>&1) && printf '%s\n' "$out" | grep -q ': ok ('; then
        echo "ok $n - $name on $OPENCL_PLATFORM: $(printf '%s\n' "$out" | tail -1)"
    else
        echo "not ok $n - $name on $OPENCL_PLATFORM"
        printf '%s\n' "$out" | sed 's/^/# /'
        failed=$((failed + 1))
    fi
done
echo "1..$n"
echo "# $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
