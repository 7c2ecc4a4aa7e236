# SPDX-License-Identifier: GPL-2.0-or-later
#
# What the host runner's TAP tests share (sourced by test-simt-run.sh and
# test-checkers.sh, after setting $run to the simt-run binary): a
# scratch directory, one TAP line per check, and simt-run's output
# matched line by line.

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0

# check NAME COMMAND...: one TAP line; COMMAND's output is shown on failure
check() {
    name=$1
    shift
    n=$((n + 1))
    if out=$("$@" 2>&1); then
        echo "ok $n - $name"
    else
        echo "not ok $n - $name"
        echo "$out" | sed 's/^/# /'
        failed=$((failed + 1))
    fi
}

# sr EXPECTED_STATUS ARGS...: run simt-run, output (stdout and stderr) in
# $tmp/out; fail unless it exits with EXPECTED_STATUS
sr() {
    want=$1
    shift
    "$run" "$@" > "$tmp/out" 2>&1
    rc=$?
    cat "$tmp/out"
    [ "$rc" -eq "$want" ] || { echo "exit status $rc, expected $want"; return 1; }
}

has() { grep -q -E -e "$1" "$tmp/out" || { echo "no line matches '$1'"; return 1; }; }
hasnt() { ! grep -q -E -e "$1" "$tmp/out" || { echo "a line matches '$1'"; return 1; }; }

# The plan line and the summary; exit status 0 if every check passed.
summary() {
    echo "1..$n"
    echo "# $((n - failed)) passed, $failed failed"
    [ "$failed" -eq 0 ]
}
