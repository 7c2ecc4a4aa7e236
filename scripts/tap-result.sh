# SPDX-License-Identifier: GPL-2.0-or-later
#
# TAP lines for the check scripts that run tools and judge their output
# (scripts/check-driver.sh, scripts/check-patches.sh); sourced.
#
#   tap_result STATUS TITLE FILE   one "ok"/"not ok" line (STATUS 0 passes),
#                                  then FILE's lines as comments: the
#                                  findings, or what was noted
#   tap_end                        the plan and "N passed, M failed";
#                                  returns 1 if any failed

tap_n=0 tap_passed=0 tap_failed=0

tap_result() {   # status, title, file
    tap_n=$((tap_n + 1))
    if [ "$1" = 0 ]; then
        tap_passed=$((tap_passed + 1))
        echo "ok $tap_n - $2"
    else
        tap_failed=$((tap_failed + 1))
        echo "not ok $tap_n - $2"
    fi
    if [ -s "$3" ]; then
        sed 's/^/# /' "$3"
    fi
}

tap_end() {
    echo "1..$tap_n"
    echo "# $tap_passed passed, $tap_failed failed"
    [ "$tap_failed" = 0 ]
}
