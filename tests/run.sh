#!/bin/sh
# tests/run.sh BUILD_DIR — run every unit test binary and every CLI case,
# then print one summary line "N passed, N failed, N skipped" (last line).
# Tests run from the repository root.
#
#   RUN_STEPS="unit cli slurm kill python browser fuzz gpu"   the steps to run (default all);
#   the GPU machine runs "unit cli gpu" (tools/gpu-run.sh testrunner)
#
# A step that exits non-zero fails even when its summary says 0 failed (a
# sanitizer's report after the summary, a crash): exit codes are honoured.
build=${1:?usage: tests/run.sh BUILD_DIR}
# the sanitizer build (make SAN=1 test): third-party caches suppressed, each
# named with why in tests/lsan.supp; every other leak fails the test it is in
LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
passed=0 failed=0 skipped=0
failed_names=""
want() { case " ${RUN_STEPS:-unit cli slurm kill python browser fuzz gpu} " in *" $1 "*) return 0 ;; esac; return 1; }
# a step's exit status against its summary: non-zero with "0 failed" is one failure more
honour() { # NAME RC SUMMARY
	[ "$2" -eq 0 ] && return
	case "$3" in *" 0 failed"*) echo "FAIL $1: exit $2 after a summary of 0 failed"; failed=$((failed + 1)) ;; esac
	failed_names="$failed_names $1"
}

add_counts() { # parse "# file: N passed, N failed, N skipped"
	set -- $(printf '%s\n' "$1" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped.*/\1 \2 \3/p')
	passed=$((passed + ${1:-0})); failed=$((failed + ${2:-0})); skipped=$((skipped + ${3:-0}))
}

for t in "$build"/tests/unit/test_*; do
	want unit || break
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
	honour "$name" $rc "$last"
done

if want cli; then
echo "== CLI cases"
out=$(sh tests/cli/run.sh ./attnprof); rc=$?; printf '%s\n' "$out"
last=$(printf '%s\n' "$out" | tail -1)
add_counts "$last"
honour cli $rc "$last"
fi

if want cli; then
echo "== every drawn value is its record (tests/records-check.sh)"
out=$(sh tests/records-check.sh ./attnprof); rc=$?; printf '%s\n' "$out"
last=$(printf '%s\n' "$out" | tail -1)
add_counts "$last"
honour records $rc "$last"
fi

if want kill; then
echo "== kill loop (SIGKILL while report (PDF and HTML sets), figure, export, merge and a results save write)"
out=$(sh tests/kill/run.sh ./attnprof "${KILL_ROUNDS:-8}"); rc=$?; printf '%s\n' "$out"
last=$(printf '%s\n' "$out" | tail -1)
add_counts "$last"
honour kill $rc "$last"
fi

if want python; then
echo "== Python helper (src/capture/python, with a fake torch)"
if command -v python3 >/dev/null 2>&1; then
	out=$(python3 tests/python/test_hook.py ./attnprof 2>&1); printf '%s\n' "$out"
	last=$(printf '%s\n' "$out" | grep '^# python:' | tail -1)
	if [ -n "$last" ]; then add_counts "$last"; else failed=$((failed + 1)); failed_names="$failed_names python"; fi
	case "$last" in *" 0 failed"*) ;; *) failed_names="$failed_names python" ;; esac
	# export --trace against the trace-event format; attnprof_results.load against export --csv
	for t in trace results_reader; do
		echo "== tests/python/test_$t.py"
		out=$(python3 tests/python/test_$t.py ./attnprof 2>&1); printf '%s\n' "$out" | grep -v '^ok '
		last=$(printf '%s\n' "$out" | grep '^# [a-z]*: [0-9]* passed' | tail -1)
		if [ -n "$last" ]; then add_counts "$last"; else failed=$((failed + 1)); fi
		case "$last" in *" 0 failed"*) ;; *) failed_names="$failed_names $t" ;; esac
	done
else
	echo "skip python: skipped: no python3"; skipped=$((skipped + 1))
fi
fi

if want browser; then
echo "== the HTML documents in headless Chromium (tests/browser/run.sh)"
out=$(sh tests/browser/run.sh); rc=$?; printf '%s\n' "$out"
last=$(printf '%s\n' "$out" | tail -1)
add_counts "$last"
honour browser $rc "$last"
fi

if want fuzz; then
echo "== fuzz (short run; 'make fuzz' runs longer)"
out=$(sh tests/fuzz/run.sh "${FUZZ_SECONDS:-10}"); rc=$?; printf '%s\n' "$out"
last=$(printf '%s\n' "$out" | tail -1)
add_counts "$last"
case "$last" in *" 0 failed"*) ;; *) failed_names="$failed_names fuzz" ;; esac
honour fuzz $rc "$last"
fi

if want slurm; then
echo "== Slurm scripts (experiments/slurm, a fake array task and stubs, no Slurm)"
out=$(sh tests/slurm/run.sh ./attnprof); rc=$?; printf '%s\n' "$out"
last=$(printf '%s\n' "$out" | tail -1)
add_counts "$last"
honour slurm $rc "$last"
fi

if want gpu; then
echo "== GPU"
if ./attnprof info --quiet >/dev/null 2>&1; then
	# gpu-test.sh ends with "gpu-test: N configs, P correct, F failing" and
	# exits 1 when any config is wrong; both count, and a run that printed
	# no summary (a crash) is a failure too
	out=$(sh tests/gpu-test.sh); rc=$?; printf '%s\n' "$out"
	set -- $(printf '%s\n' "$out" | sed -n 's/^gpu-test: \([0-9]*\) configs, \([0-9]*\) correct, \([0-9]*\) failing$/\1 \2 \3/p' | tail -1)
	if [ $# -eq 3 ] && [ "$1" -gt 0 ]; then
		passed=$((passed + $2)); failed=$((failed + $3))
	else
		echo "FAIL gpu-test: printed no summary (exit $rc)"
		failed=$((failed + 1))
	fi
	if [ $rc -ne 0 ]; then
		[ $# -eq 3 ] && [ "$3" -eq 0 ] && failed=$((failed + 1)) # failed without a failing config
		failed_names="$failed_names gpu-test"
	fi
else
	echo "skip gpu-test: skipped: no GPU (run 'make gpu-test' on a GPU machine)"
	skipped=$((skipped + 1))
fi
fi

if [ -n "$failed_names" ]; then echo "failing:$failed_names"; fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ -z "$failed_names" ]
