#!/bin/sh
# tests/cli/run.sh BINARY — run the declarative CLI cases in tests/cli/cases/*.t.
#
# A case file holds lines "key: value":
#   args:   the command line after the binary (word-split by the shell; run from the repo root)
#   exit:   the expected exit status
#   stdout: a substring that must appear on stdout (repeatable)
#   stderr: a substring that must appear on stderr (repeatable)
#   not-stderr: a substring that must not appear on stderr
#   not-stdout: a substring that must not appear on stdout
#   needs:  gpu | no-gpu | render | cuda-build | nocuda-build | cupti-host, one or more —
#           skip the case when one is missing
#   file:   a path that must exist afterwards (repeatable)
#   setup:  a shell command run before (repeatable), e.g. to copy an input into $TMP
#   check:  a shell command that must succeed afterwards (repeatable), e.g. cmp
# Lines starting with '#' describe the case.  Output files go in $TMP.
#
# No case asserts a time: speed is 'make bench'.  Every command runs under a
# hang guard (CLI_HANG_GUARD seconds, default 600, far above any case's run
# on a loaded or sanitizer build), so a hang fails its case instead of the
# suite never ending; a 'seconds:' line is refused.
bin=${1:?usage: tests/cli/run.sh BINARY}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
passed=0 failed=0 skipped=0
TMP=$(mktemp -d); export TMP
trap 'rm -rf "$TMP"' EXIT

has_gpu() { "$bin" info --quiet >/dev/null 2>&1; }
# CUPTI's profiler host library is opened with RTLD_DEEPBIND, which
# AddressSanitizer refuses: a SAN=1 build says so, and its cases are skipped
has_cupti_host() {
	if [ -z "${cupti_host:-}" ]; then
		cupti_host=yes
		"$bin" check experiments/smoke.yaml 2>&1 >/dev/null | grep -q "cannot load in an AddressSanitizer build" && cupti_host=no
	fi
	[ $cupti_host = yes ]
}
built_with() { "$bin" --version | grep -q "$1: yes"; }

# CLI_CASES="tests/cli/cases/a.t ..." runs only those
for case in ${CLI_CASES:-tests/cli/cases/*.t}; do
	name=$(basename "$case" .t)
	args=$(sed -n 's/^args: //p' "$case")
	want_exit=$(sed -n 's/^exit: //p' "$case")
	needs=$(sed -n 's/^needs: //p' "$case")
	skip=""
	for need in $needs; do
		case "$need" in
		gpu) has_gpu || skip="skipped: no GPU" ;;
		no-gpu) has_gpu && skip="skipped: a GPU is visible (the case is about having none)" ;;
		cupti-host) has_cupti_host || skip="skipped: CUPTI's host library cannot load under AddressSanitizer (a SAN=1 build)" ;;
		render) built_with renderer || skip="skipped: built without the renderer" ;;
		cuda-build) built_with "GPU half" || skip="skipped: built without the GPU half" ;;
		nocuda-build) built_with "GPU half" && skip="skipped: built with the GPU half" ;;
		*) skip="" ; echo "FAIL $name: unknown need '$need'"; failed=$((failed + 1)); continue 2 ;;
		esac
		[ -n "$skip" ] && break
	done
	if [ -n "$skip" ]; then
		echo "skip $name: $skip"; skipped=$((skipped + 1)); continue
	fi
	ok=1 why=""
	while IFS= read -r line; do
		case "$line" in
		"setup: "*) eval "${line#setup: }" </dev/null || { ok=0; why="$why; setup '${line#setup: }' failed"; } ;;
		esac
	done <"$case"
	if grep -q '^seconds:' "$case"; then
		echo "FAIL $name: 'seconds:' is a timing assertion: tests assert no time (use 'make bench')"
		failed=$((failed + 1)); continue
	fi
	eval "timeout -s KILL ${CLI_HANG_GUARD:-600} \"\$bin\" $args" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc = 137 ]; then ok=0; why="hung: killed by the ${CLI_HANG_GUARD:-600} s hang guard"; fi
	if [ -n "$want_exit" ] && [ "$rc" != "$want_exit" ]; then ok=0; why="exit $rc, expected $want_exit"; fi
	while IFS= read -r line; do
		case "$line" in
		"stdout: "*) s=${line#stdout: }; grep -qF -- "$s" "$TMP/out" || { ok=0; why="$why; stdout lacks '$s'"; } ;;
		"stderr: "*) s=${line#stderr: }; grep -qF -- "$s" "$TMP/err" || { ok=0; why="$why; stderr lacks '$s'"; } ;;
		"not-stderr: "*) s=${line#not-stderr: }; grep -qF -- "$s" "$TMP/err" && { ok=0; why="$why; stderr has '$s'"; } ;;
		"not-stdout: "*) s=${line#not-stdout: }; grep -qF -- "$s" "$TMP/out" && { ok=0; why="$why; stdout has '$s'"; } ;;
		"file: "*) f=$(eval echo "${line#file: }"); [ -e "$f" ] || { ok=0; why="$why; no file $f"; } ;;
		"check: "*) eval "${line#check: }" </dev/null >/dev/null 2>&1 || { ok=0; why="$why; check '${line#check: }' failed"; } ;;
		esac
	done <"$case"
	if [ $ok = 1 ]; then
		echo "ok   $name"; passed=$((passed + 1))
	else
		echo "FAIL $name: $why"
		sed 's/^/    stderr: /' "$TMP/err" | head -5
		failed=$((failed + 1))
	fi
done
echo "# cli: $passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
