#!/bin/sh
# tests/gpu-test.sh (make gpu-test): every variant × dtype × head dim ×
# causal × odd N through `attnprof record`'s fp64 reference check
# (experiments/gpu-test.yaml).  Prints one line per failing config and a
# summary; exits 0 when all pass, 1 otherwise.  Without a GPU (`attnprof
# info --quiet` exits 3) it prints "skipped: no GPU" and exits 0.
#
#   GPU_TEST_OUT=FILE   keep the results file there (default: a temp dir)
#   GPU_TEST_FORCE=1    run even when info --quiet says 3 (a GPU whose
#                       counters are restricted still runs the checks)
#   GPU_TEST_SPEC=FILE  another spec (default experiments/gpu-test.yaml)
#   GPU_TEST_PLANT=V    the test of this test: variant V's output is
#                       overwritten before the check (the record test hook
#                       ATTNPROF_TEST_PLANT_WRONG_RESULT), so V's configs
#                       must show as FAIL and this script must exit 1
cd "$(dirname "$0")/.." || exit 1
bin=./attnprof
spec=${GPU_TEST_SPEC:-experiments/gpu-test.yaml}

$bin info --quiet >/dev/null 2>&1
rc=$?
if [ $rc -eq 3 ] && [ "${GPU_TEST_FORCE:-0}" != 1 ]; then
	echo "skipped: no GPU"
	exit 0
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
out=${GPU_TEST_OUT:-$tmp/gpu-test.yaml}
if [ -n "${GPU_TEST_PLANT:-}" ]; then
	ATTNPROF_TEST_PLANT_WRONG_RESULT="corrupt-$GPU_TEST_PLANT-output"
	export ATTNPROF_TEST_PLANT_WRONG_RESULT
fi
$bin record "$spec" -o "$out" --force --metrics none --copy-probe 0 2>&1 | tee "$tmp/record.log" | grep -v '^attnprof: note:'
# record's own summary: "FILE: N configs recorded, W wrong, F failed"
summary=$(grep -E 'configs recorded' "$tmp/record.log" | tail -1)
if ! $bin export "$out" --csv -o "$tmp/flat.csv" 2>"$tmp/export.err"; then
	echo "gpu-test: could not flatten $out ($(head -1 "$tmp/export.err")); using record's summary"
	echo "${summary:-gpu-test: record printed no summary}"
	echo "$summary" | grep -qE 'configs recorded, 0 wrong, 0 failed'
	exit $?
fi
# One line per failing config, then the count.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ n++; ok = $col["correct"]
	  if (ok == "true") pass++
	  else { fail++; printf "FAIL %s %s %s %s B=%s H=%s Hkv=%s Nq=%s Nkv=%s d=%s causal=%s rel_l2=%s max_abs=%s\n",
		$col["variant"], $col["phase"], ("pass" in col ? $col["pass"] : "fwd"), $col["dtype"], $col["batch"], $col["heads"], $col["kv_heads"],
		$col["seqlen_q"], $col["seqlen_kv"], $col["head_dim"], $col["causal"], $col["rel_l2_err"], $col["max_abs_err"] } }
	END { printf "gpu-test: %d configs, %d correct, %d failing\n", n, pass, fail; exit fail > 0 || n == 0 }' "$tmp/flat.csv"
