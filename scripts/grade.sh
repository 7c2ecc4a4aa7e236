#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Grade one student's file for a lab (make grade LAB=name FILE=path;
# docs/labs/grading.rst):
#
#   scripts/grade.sh LAB FILE [RESULTS]
#
# The file is copied, alone, into a grading tree: a clone of this tree's
# commit (HEAD) in $GRADE_DIR/tree (default $SIMT_CACHE/grade/tree), reset
# to that commit before every submission, with a cache of its own
# ($GRADE_DIR/cache: its QEMU build, host build and guest module; only the
# downloads, the QEMU source package and the guest kernel, are shared).
# Nothing is built in or read from the tree make grade runs in, beyond its
# commit, so what a student changed elsewhere (a grader, a test) does not
# count, and the first submission builds QEMU (minutes) while the next
# ones rebuild only the student's file.
#
# The grader runs with settings drawn from a seed (SEED=N, else a random
# one, printed for reproduction; docs/labs/grading.rst lists the ranges)
# on every policy the file adds to the lab's table (for mechanisms, every
# shape of its shapes[]; for liveness, its kernel).  Each property of each
# policy is worth POINTS points (10); the table goes to stdout and
# RESULTS (default results.json) gets Gradescope's format: score,
# max_score, and per property a test with name, score, max_score, output.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
SIMT_CACHE=${SIMT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/simt}
grade_dir=${GRADE_DIR:-$SIMT_CACHE/grade}
points=${POINTS:-10}

die() { echo "grade: $*" >&2; exit 2; }
# The grading tree's own builds, whatever the calling tree's make set.
unset HOST_BUILD QEMU_BUILD SIMT_QEMU_SANITIZE SIMT_SANITIZE SIMT_GUEST_DEBUG

[ $# -ge 2 ] || die "usage: scripts/grade.sh LAB FILE [RESULTS]"
lab=$1 file=$2 results=${3:-results.json}
[ -f "$file" ] || die "no file '$file'"
file=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")
case $results in /*) ;; *) results=$PWD/$results ;; esac
# Where the student's file goes, and how its policies are named there.
case $lab in
placement) dest=hw/simt/simt-placement.c ;;
chunks) dest=hw/simt/simt-copy-policy.c ;;
preempt-choice) dest=hw/simt/simt-preempt-choice.c ;;
driver-sched) dest=guest-driver/simt_fair.c ;;
mechanisms) dest=tests/qtest/simt-preempt-test.c ;;
liveness)
    # The kernels/ file that defines the submitted file's first kernel.
    kernel=$(sed -n 's/^KERNEL void \([A-Za-z_0-9]*\)(.*/\1/p' "$file" | head -1)
    dest=$(cd "$top" && grep -l "^KERNEL void $kernel(" kernels/*.c 2>/dev/null | head -1) ||
        true
    [ -n "$kernel" ] && [ -n "$dest" ] ||
        die "liveness grades a kernel of kernels/; '$file' defines none of them" ;;
*) die "unknown lab '$lab' (labs: placement, mechanisms, preempt-choice, driver-sched, chunks, liveness)" ;;
esac

seed=${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
case $seed in '' | *[!0-9]*) die "SEED must be a number" ;; esac
echo "grade: lab $lab, file $file, seed $seed (SEED=$seed reproduces)"

# The grading tree, at this tree's commit, and its own cache.
tree=$grade_dir/tree cache=$grade_dir/cache
commit=$(git -C "$top" rev-parse HEAD)
mkdir -p "$grade_dir" "$cache"
if [ ! -d "$tree/.git" ]; then
    git clone -q --no-checkout "$top" "$tree"
fi
git -C "$tree" fetch -q "$top" HEAD
git -C "$tree" checkout -q -f --detach "$commit"
git -C "$tree" clean -q -fdx -e /build/
for shared in src guest; do
    if [ -e "$SIMT_CACHE/$shared" ] && [ ! -e "$cache/$shared" ]; then
        ln -s "$SIMT_CACHE/$shared" "$cache/$shared"
    fi
done

# The student's file, and only it.  For mechanisms, only its shapes[]
# table goes into the grader's file (the rest of that file is the
# grader's own).
if [ "$lab" = mechanisms ]; then
    python3 - "$file" "$tree/$dest" <<'PY'
import re, sys
pat = re.compile(r'static const Shape shapes\[\] = \{.*?\n\};\n', re.S)
student, grader = (open(p).read() for p in sys.argv[1:])
table = pat.search(student)
if not table:
    sys.exit('grade: no "static const Shape shapes[] = { ... };" in the file')
open(sys.argv[2], 'w').write(pat.sub(lambda m: table.group(0), grader, 1))
PY
else
    cp "$file" "$tree/$dest"
fi

# The policies the student added: names in the file's table that the
# lab's own file does not have.
names() {   # file
    case $lab in
    driver-sched)
        sed -n 's/^\s*\[SIMT_SCHED_[A-Z_0-9]*\] = "\([^"]*\)",.*/\1/p' "$1" ;;
    mechanisms)
        python3 - "$1" <<'PY'
import re, sys
m = re.search(r'static const Shape shapes\[\] = \{(.*?)\n\};', open(sys.argv[1]).read(), re.S)
print('\n'.join(re.findall(r'\{\s*"([^"]+)"', m.group(1)) if m else []))
PY
        ;;
    liveness)
        sed -n 's/^KERNEL void \([A-Za-z_0-9]*\)(.*/\1/p' "$1" | head -1 ;;
    *)
        sed -n 's/^\s*{ "\([a-z0-9_-]*\)",.*/\1/p' "$1" ;;
    esac
}
if [ "$lab" = liveness ]; then
    policies=$(names "$file")
else
    policies=$(comm -13 <(git -C "$tree" show "$commit:$dest" > "$grade_dir/ref.c" &&
                          names "$grade_dir/ref.c" | sort -u) \
                        <(names "$tree/$dest" | sort -u) | paste -sd, -)
fi

log=$grade_dir/build.log
build() {
    (cd "$tree" && export SIMT_CACHE="$cache" &&
     scripts/build-qemu.sh &&
     { [ -f build/host/build.ninja ] || meson setup build/host . ; } &&
     ninja -C build/host &&
     if [ "$lab" = driver-sched ]; then
         scripts/guest-fetch.sh && scripts/guest-build.sh
     fi) > "$log" 2>&1
}

# One test of results.json.
json_tests=()
add_test() {   # name, score, max, output
    json_tests+=("$(python3 -c 'import json, sys
print(json.dumps({"name": sys.argv[1], "score": int(sys.argv[2]),
                  "max_score": int(sys.argv[3]), "output": sys.argv[4]}))' "$@")")
}

start=$(date +%s)
if [ -z "$policies" ]; then
    add_test "$lab: a policy added to the table of $dest" 0 "$points" \
        "The file adds no name to the table of $dest (docs/labs/$lab.rst, \"What you edit\")."
elif ! build; then
    add_test "$lab: the file builds" 0 "$points" "$(tail -30 "$log")"
else
    out=$(mktemp -d)
    (cd "$tree" && SIMT_CACHE="$cache" SIMT_LAB_SEED=$seed LAB_RESULTS=$out \
         scripts/lab.sh check "$lab" "$policies") > "$grade_dir/check.log" 2>&1 || true
    for p in ${policies//,/ }; do
        for f in "$out/$p"/*; do
            [ -e "$f" ] || continue
            prop=$(basename "$f")
            case $prop in
            *.ok) add_test "$p: ${prop%.ok}" "$points" "$points" "passed" ;;
            *.fail) add_test "$p: ${prop%.fail}" 0 "$points" "$(cat "$f")" ;;
            esac
        done
        [ -d "$out/$p" ] || add_test "$p: graded" 0 "$points" \
            "$(tail -20 "$grade_dir/check.log")"
    done
    rm -rf "$out"
fi

printf '%s\n' "${json_tests[@]}" |
python3 -c 'import json, sys
seed, lab, secs, results = sys.argv[1:]
tests = [json.loads(l) for l in sys.stdin if l.strip()]
score = sum(t["score"] for t in tests)
top = sum(t["max_score"] for t in tests)
print("%-60s %5s %5s" % ("property", "score", "of"))
for t in tests:
    print("%-60s %5d %5d" % (t["name"], t["score"], t["max_score"]))
    if t["score"] < t["max_score"]:
        for line in t["output"].splitlines():
            print("    " + line)
print("%-60s %5d %5d" % ("total", score, top))
json.dump({"score": score, "max_score": top, "execution_time": int(secs),
           "output": "lab %s, seed %s (SEED=%s make grade reproduces)" %
                     (lab, seed, seed),
           "tests": tests}, open(results, "w"), indent=2)
print("grade: %s written" % results)' "$seed" "$lab" "$(($(date +%s) - start))" "$results"
