#!/bin/sh
# tools/ncu-overhead.sh [SPEC] — the profiling overhead of a whole sweep
# (default experiments/fa2-paper.yaml): attnprof collecting a metric set
# against Nsight Compute collecting the same metrics for the same kernels.
#
#   none    attnprof record SPEC --metrics none    (the sweep without counters)
#   auto      attnprof record SPEC --metrics SET   (the default: replay auto, batches of 8)
#   unbatched the same with --profile-batch 1 (one config per CUPTI call)
#   kernel  attnprof record SPEC --metrics SET --replay kernel
#   ncu     ncu --metrics SET on the 'none' command, profiling each config's
#           "check" run (NVTX range) only and only attnprof's kernels: one
#           launch per kernel per config, the launches attnprof profiles
#
# All with --reps REPS --warmup 0 --copy-probe 0 (REPS=1): the overhead
# is a difference of wall times, which the timed runs do not change.  The
# cost of a tool = its wall time - none's.  Then tools/ncu_compare.py checks
# every kernel of the sweep against ncu (HBM bytes, smem wavefronts,
# occupancy) and prints the ratio.  Environment: ATTNPROF, SET, OUT, NCU,
# CACHE (all), REPS (1).
. "$(dirname "$0")/ncu-common.sh"
REPS=${REPS:-1}
ov="$OUT/$name-sweep-overhead.txt"
run() { # key, output, trace (0/1), extra args...
	key=$1 out=$2 trace=$3
	shift 3
	t0=$(now)
	ATTNPROF_CUPTI_TRACE=$trace "$ATTNPROF" record "$SPEC" -o "$OUT/$out" --force --reps "$REPS" --warmup 0 --copy-probe 0 "$@" \
		>"$OUT/$name-$key.log" 2>&1 || echo "warning: $key run failed (see $OUT/$name-$key.log)"
	echo "$key $(elapsed "$t0" "$(now)")" >>"$ov"
}
{
	echo "# spec $SPEC, metric set $SET ($metrics), --reps $REPS --warmup 0, ncu --cache-control $CACHE --clock-control none"
	echo "# wall seconds of each command; cost = wall - none"
} >"$ov"
run none "$name-none.yaml" 0 --metrics none
run auto "$name-auto.yaml" 1 --metrics "$SET"
run unbatched "$name-unbatched.yaml" 1 --metrics "$SET" --profile-batch 1
run kernel "$name-kernel.yaml" 1 --metrics "$SET" --replay kernel
regex=$(python3 "$here/ncu_compare.py" --kernel-regex "$OUT/$name-auto.yaml")
t0=$(now)
"$NCU" --clock-control none --cache-control "$CACHE" --print-kernel-base mangled --metrics "$metrics" --csv \
	--nvtx --nvtx-include "check/" --kernel-name-base mangled --kernel-name "regex:$regex" \
	--log-file "$OUT/$name-ncu.csv" \
	"$ATTNPROF" record "$SPEC" -o "$OUT/$name-ncu-run.yaml" --force --reps "$REPS" --warmup 0 --copy-probe 0 \
	--metrics none >"$OUT/$name-ncu-run.log" 2>&1 || echo "warning: ncu run failed (see $OUT/$name-ncu.csv)"
echo "ncu $(elapsed "$t0" "$(now)")" >>"$ov"
python3 "$here/ncu_compare.py" "$OUT/$name-auto.yaml" "$OUT/$name-ncu.csv" --per-config 1 \
	--csv "$OUT/$name-sweep-fidelity.csv" --sweep-overhead "$ov" | tee "$OUT/$name-sweep-compare.txt"
