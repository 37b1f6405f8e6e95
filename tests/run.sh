#!/bin/sh
# tests/run.sh BUILD_DIR — run every unit test binary and every CLI case,
# then print one summary line "N passed, N failed, N skipped" (last line).
# Tests run from the repository root.
build=${1:?usage: tests/run.sh BUILD_DIR}
passed=0 failed=0 skipped=0
failed_names=""

add_counts() { # parse "# file: N passed, N failed, N skipped"
	set -- $(printf '%s\n' "$1" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped.*/\1 \2 \3/p')
	passed=$((passed + ${1:-0})); failed=$((failed + ${2:-0})); skipped=$((skipped + ${3:-0}))
}

for t in "$build"/tests/unit/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	echo "== $name"
	out=$("$t" 2>&1); rc=$?
	printf '%s\n' "$out" | grep -v '^ok ' 
	last=$(printf '%s\n' "$out" | grep '^# ' | tail -1)
	if [ -z "$last" ]; then
		echo "FAIL $name: crashed or printed no summary (exit $rc)"
		failed=$((failed + 1)); failed_names="$failed_names $name"
		continue
	fi
	add_counts "$last"
	[ $rc -eq 0 ] || failed_names="$failed_names $name"
done

echo "== CLI cases"
out=$(sh tests/cli/run.sh ./attnprof); printf '%s\n' "$out"
last=$(printf '%s\n' "$out" | tail -1)
add_counts "$last"

echo "== Python helper (src/python, with a fake torch)"
if command -v python3 >/dev/null 2>&1; then
	out=$(python3 tests/python/test_hook.py ./attnprof 2>&1); printf '%s\n' "$out"
	last=$(printf '%s\n' "$out" | grep '^# python:' | tail -1)
	if [ -n "$last" ]; then add_counts "$last"; else failed=$((failed + 1)); failed_names="$failed_names python"; fi
	case "$last" in *" 0 failed"*) ;; *) failed_names="$failed_names python" ;; esac
else
	echo "skip python: skipped: no python3"; skipped=$((skipped + 1))
fi

echo "== fuzz (short run; 'make fuzz' runs longer)"
out=$(sh tests/fuzz/run.sh "${FUZZ_SECONDS:-10}"); printf '%s\n' "$out"
last=$(printf '%s\n' "$out" | tail -1)
add_counts "$last"
case "$last" in *" 0 failed"*) ;; *) failed_names="$failed_names fuzz" ;; esac

echo "== GPU"
if ./attnprof info --quiet >/dev/null 2>&1; then
	out=$(sh tests/gpu-test.sh); printf '%s\n' "$out"
	last=$(printf '%s\n' "$out" | tail -1)
	add_counts "$last"
else
	echo "skip gpu-test: skipped: no GPU (run 'make gpu-test' on a GPU machine)"
	skipped=$((skipped + 1))
fi

if [ -n "$failed_names" ]; then echo "failing:$failed_names"; fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
