#!/bin/sh
# tools/ncu-compare.sh [SPEC] — check attnprof's CUPTI numbers against Nsight
# Compute on the same kernels and configs, and time the profiling overhead.
#
#   1. attnprof record SPEC --metrics none      (baseline wall time)
#   2. attnprof record SPEC --metrics SET       (our counters; wall time)
#   3. ncu --clock-control none --metrics SET'  attnprof record SPEC --metrics none --reps 1
#      (ncu's counters for every kernel launch; wall time)
#   4. tools/ncu_compare.py: per kernel, HBM bytes and shared-memory wavefronts
#      within 2 %, achieved occupancy within 2 points; table on stdout, CSV in $OUT.
#
# Kernels are matched by (name, grid, block): attnprof reports CUPTI's mangled
# names, so ncu prints mangled ones too.  A key that several configs share
# (e.g. a runtime causal flag) is reported as ambiguous, not compared.
# Environment: ATTNPROF (./attnprof), SET (default), OUT (./out), NCU (ncu).
# Needs a GPU whose counters are readable; ncu and our CUPTI session cannot
# profile one process at the same time, hence --metrics none under ncu.
set -u
SPEC=${1:-experiments/fa2-paper.yaml}
ATTNPROF=${ATTNPROF:-./attnprof}
SET=${SET:-default}
OUT=${OUT:-out}
NCU=${NCU:-ncu}
# ncu flushes caches before each kernel by default (all); CUPTI does not, so
# HBM writes of a kernel that follows a writer can differ (docs/metrics.md).
CACHE=${CACHE:-all}
mkdir -p "$OUT"
here=$(dirname "$0")
name=$(basename "$SPEC" .yaml)

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# The metric names of the set, as attnprof knows them (one per line).
metrics=$("$ATTNPROF" info --metrics "$SET" 2>/dev/null | grep -E '^[a-z0-9_]+__[a-z0-9_.]+$' | paste -sd, -)
if [ -z "$metrics" ]; then
	# fallback: the default set as of docs/metrics.md
	metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_ldsm.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second
fi

t0=$(now)
"$ATTNPROF" record "$SPEC" -o "$OUT/$name-none.yaml" --force --metrics none >"$OUT/$name-none.log" 2>&1 || echo "warning: baseline record failed (see $OUT/$name-none.log)"
t1=$(now)
"$ATTNPROF" record "$SPEC" -o "$OUT/$name-cupti.yaml" --force --metrics "$SET" >"$OUT/$name-cupti.log" 2>&1 || echo "warning: CUPTI record failed (see $OUT/$name-cupti.log)"
t2=$(now)
"$ATTNPROF" record "$SPEC" -o "$OUT/$name-reps1.yaml" --force --metrics none --reps 1 >/dev/null 2>&1
t3=$(now)
"$NCU" --clock-control none --cache-control "$CACHE" --print-kernel-base mangled --metrics "$metrics" --csv \
	--log-file "$OUT/$name-ncu.csv" \
	"$ATTNPROF" record "$SPEC" -o "$OUT/$name-ncu-run.yaml" --force --metrics none --reps 1 >/dev/null 2>&1 ||
	echo "warning: ncu run failed (see $OUT/$name-ncu.csv)"
t4=$(now)

cat >"$OUT/$name-overhead.txt" <<EOT
spec $SPEC, metric set $SET
attnprof --metrics none           $(elapsed "$t0" "$t1") s
attnprof --metrics $SET        $(elapsed "$t1" "$t2") s
attnprof --metrics none --reps 1  $(elapsed "$t2" "$t3") s
ncu + attnprof --reps 1           $(elapsed "$t3" "$t4") s
EOT
python3 "$here/ncu_compare.py" "$OUT/$name-cupti.yaml" "$OUT/$name-ncu.csv" \
	--csv "$OUT/$name-fidelity.csv" --overhead "$OUT/$name-overhead.txt"
