#!/bin/sh
# tools/ncu-compare.sh [SPEC] — check attnprof's CUPTI numbers against Nsight
# Compute on the same kernels and configs, and time the profiling overhead.
#
#   1. attnprof record SPEC --metrics none            (baseline wall time)
#   2. attnprof record SPEC --metrics SET             (replay auto: user replay,
#      L2 flushed before each kernel; ATTNPROF_CUPTI_TRACE=1 puts the phase
#      times in the log)
#   3. the same with --replay kernel                  (CUPTI's kernel replay;
#      KERNEL_REPLAY=0 skips it)
#   4. attnprof record SPEC --metrics none --reps 1 --warmup 0   (ncu's baseline)
#   5. ncu on 4, profiling only the kernels attnprof profiled (--kernel-name
#      regex of their mangled names: no input fills), --launch-count 1
#      (ncu's fixed cost), then
#   6. ncu on 4, all launches of those kernels (each config's check launch and
#      its one timed launch)
#   7. tools/ncu_compare.py, for 2 and for 3: launches matched in order within
#      each config (attnprof's n-th profiled kernel of config c <-> the n-th
#      kernel of c's timed launch under ncu); HBM bytes and shared-memory
#      wavefronts within 2 %, achieved occupancy within 2 points; table on
#      stdout, CSV in $OUT; overhead per profiled kernel and the ratio.
#
# Environment: ATTNPROF (./attnprof), SET (default), OUT (./out), NCU (ncu),
# CACHE (all: ncu's default cache flush before each kernel; none: no flush),
# KERNEL_REPLAY (1).  Needs a GPU whose counters are readable; ncu and our
# CUPTI session cannot profile one process at the same time, hence
# --metrics none under ncu.  tools/ncu-overhead.sh times a whole sweep.
. "$(dirname "$0")/ncu-common.sh"
KERNEL_REPLAY=${KERNEL_REPLAY:-1}
ov="$OUT/$name-overhead.txt"

{
	echo "# spec $SPEC, metric set $SET, ncu --cache-control $CACHE; wall seconds of each command"
	echo "# none: record --metrics none; cupti: record --metrics $SET (replay auto);"
	echo "# cupti_kernel: the same with --replay kernel; reps1: record --metrics none --reps 1 --warmup 0;"
	echo "# ncu1: ncu on reps1 profiling the first of attnprof's kernels; ncu: ncu on reps1 profiling all launches of them"
} >"$ov"

t0=$(now)
"$ATTNPROF" record "$SPEC" -o "$OUT/$name-none.yaml" --force --metrics none >"$OUT/$name-none.log" 2>&1 || echo "warning: baseline record failed (see $OUT/$name-none.log)"
t1=$(now)
echo "none $(elapsed "$t0" "$t1")" >>"$ov"
ATTNPROF_CUPTI_TRACE=1 "$ATTNPROF" record "$SPEC" -o "$OUT/$name-cupti.yaml" --force --metrics "$SET" >"$OUT/$name-cupti.log" 2>&1 || echo "warning: CUPTI record failed (see $OUT/$name-cupti.log)"
t2=$(now)
echo "cupti $(elapsed "$t1" "$t2")" >>"$ov"
if [ "$KERNEL_REPLAY" = 1 ]; then
	ATTNPROF_CUPTI_TRACE=1 "$ATTNPROF" record "$SPEC" -o "$OUT/$name-cupti-kernel.yaml" --force --metrics "$SET" --replay kernel >"$OUT/$name-cupti-kernel.log" 2>&1 || echo "warning: kernel-replay CUPTI record failed (see $OUT/$name-cupti-kernel.log)"
	t3=$(now)
	echo "cupti_kernel $(elapsed "$t2" "$t3")" >>"$ov"
fi
t3=$(now)
"$ATTNPROF" record "$SPEC" -o "$OUT/$name-reps1.yaml" --force --metrics none --reps 1 --warmup 0 >/dev/null 2>&1
t4=$(now)
echo "reps1 $(elapsed "$t3" "$t4")" >>"$ov"

# ncu profiles exactly the kernels attnprof profiled (by mangled name)
regex=$(python3 "$here/ncu_compare.py" --kernel-regex "$OUT/$name-cupti.yaml")
if [ "$regex" = '^()$' ] && [ -f "$OUT/$name-cupti-kernel.yaml" ]; then
	regex=$(python3 "$here/ncu_compare.py" --kernel-regex "$OUT/$name-cupti-kernel.yaml")
fi
echo "# ncu --kernel-name-base mangled --kernel-name regex:'$regex'" >>"$ov"
filter=1
ncu_run() { # extra ncu args
	if [ "$filter" = 1 ]; then set -- --kernel-name-base mangled --kernel-name "regex:$regex" "$@"; fi
	"$NCU" --clock-control none --cache-control "$CACHE" --print-kernel-base mangled \
		--metrics "$metrics" --csv "$@" \
		"$ATTNPROF" record "$SPEC" -o "$OUT/$name-ncu-run.yaml" --force --metrics none --reps 1 --warmup 0 >/dev/null 2>&1
}
t4=$(now)
ncu_run --launch-count 1 --log-file "$OUT/$name-ncu1.csv" || echo "warning: ncu (1 launch) failed (see $OUT/$name-ncu1.csv)"
t5=$(now)
echo "ncu1 $(elapsed "$t4" "$t5")" >>"$ov"
ncu_run --log-file "$OUT/$name-ncu.csv" || echo "warning: ncu run failed (see $OUT/$name-ncu.csv)"
t6=$(now)
echo "ncu $(elapsed "$t5" "$t6")" >>"$ov"
if ! grep -q '"dram__bytes_read.sum"' "$OUT/$name-ncu.csv" 2>/dev/null; then
	# the name filter matched nothing: profile every launch (fills too) so the
	# fidelity check still runs; the overhead numbers then count every launch
	echo "warning: ncu's kernel-name filter matched nothing; profiling every launch"
	echo "# the kernel-name filter matched nothing: ncu and ncu1 below profiled every launch" >>"$ov"
	sed -i '/^ncu1\{0,1\} /d' "$ov"
	filter=0
	t5=$(now)
	ncu_run --launch-count 1 --log-file "$OUT/$name-ncu1.csv"
	t6=$(now)
	echo "ncu1 $(elapsed "$t5" "$t6")" >>"$ov"
	ncu_run --log-file "$OUT/$name-ncu.csv"
	t7=$(now)
	echo "ncu $(elapsed "$t6" "$t7")" >>"$ov"
fi

echo "== replay auto (user replay, L2 flushed before each kernel)" | tee "$OUT/$name-compare.txt"
python3 "$here/ncu_compare.py" "$OUT/$name-cupti.yaml" "$OUT/$name-ncu.csv" --per-config 2 \
	--csv "$OUT/$name-fidelity.csv" --overhead "$ov" | tee -a "$OUT/$name-compare.txt"
if [ -f "$OUT/$name-cupti-kernel.yaml" ]; then
	echo "== replay kernel (CUPTI kernel replay, no flush)" | tee -a "$OUT/$name-compare.txt"
	python3 "$here/ncu_compare.py" "$OUT/$name-cupti-kernel.yaml" "$OUT/$name-ncu.csv" --per-config 2 \
		--csv "$OUT/$name-fidelity-kernel.csv" | tee -a "$OUT/$name-compare.txt"
fi
# the trace's per-phase times, summed over the calls (where the per-call time goes)
for log in "$OUT/$name-cupti.log" "$OUT/$name-cupti-kernel.log"; do
	[ -f "$log" ] || continue
	echo "-- CUPTI phases, $(basename "$log")"
	awk '/attnprof: cupti: / && / ms$/ && !/cupti: call / { n = $0; sub(/^attnprof: cupti: /, "", n); v = $(NF - 1); sub(/ +[0-9.]+ ms$/, "", n); s[n] += v; c[n]++ }
	     END { for (k in s) printf "  %-28s %4d x, %9.1f ms total, %7.1f ms each\n", k, c[k], s[k], s[k] / c[k] }' "$log" | sort
	grep -E 'cupti: (session|call)' "$log" | tail -12
done | tee -a "$OUT/$name-compare.txt"
