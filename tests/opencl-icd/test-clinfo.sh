#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Debian's clinfo on the simt platform (OCL_ICD_VENDORS set by meson):
# it lists the platform and its device, reports what is true of them,
# and meets no error on the way.  TAP.
clinfo=${1:?usage: test-clinfo.sh CLINFO}
out=$("$clinfo" 2>&1)
status=$?
n=0 failed=0
check() {   # check DESCRIPTION COMMAND...
    desc=$1
    shift
    n=$((n + 1))
    if "$@"; then
        echo "ok $n - $desc"
    else
        echo "not ok $n - $desc"
        failed=$((failed + 1))
    fi
}
has() { printf '%s\n' "$out" | grep -Eq "$1"; }
lacks() { ! printf '%s\n' "$out" | grep -Eiq "$1"; }

check "clinfo exits 0" [ "$status" = 0 ]
check "clinfo lists one platform named simt" has '^ *Platform Name +simt$'
check "its version is OpenCL 1.2" has '^ *Platform Version +OpenCL 1\.2 simt'
check "the platform has one device, a GPU" has '^ *Device Type +GPU$'
check "the device's OpenCL C is 1.2" has '^ *Device OpenCL C Version +OpenCL C 1\.2'
check "no image support is reported" has '^ *Image support +No$'
check "the 32-bit atomics extensions are reported" \
    has 'cl_khr_global_int32_base_atomics.*cl_khr_local_int32_extended_atomics'
check "no double precision is reported" has 'Double-precision Floating-point support +\(n/a\)'
check "clinfo meets no error (no CL_INVALID_*, CL_*_FAILURE or 'failed' in its output)" \
    lacks 'CL_[A-Z_]*(INVALID|FAILURE|NOT_AVAILABLE|OUT_OF)|failed|<error'
check "clCreateContextFromType(NULL, GPU) succeeds on simt" \
    has 'clCreateContextFromType\(NULL, CL_DEVICE_TYPE_GPU\) +Success'
[ "$failed" = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
echo "1..$n"
echo "# $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
