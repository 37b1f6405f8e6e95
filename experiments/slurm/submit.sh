#!/bin/sh
# experiments/slurm/submit.sh [--local] SPEC N [OUTDIR] — a sweep as N shards:
# a Slurm job array of N tasks (one GPU each, experiments/slurm/sweep.sbatch)
# and a merge job that runs after all of them (merge.sbatch); prints the two
# job ids.  Without sbatch on PATH, or with --local, the same scripts run
# here: the N shards in sequence, then the merge.
#
#   experiments/slurm/submit.sh experiments/fa2-paper.yaml 8 runs/fa2
#   SBATCH_OPTS="--partition=gpu --account=perf" experiments/slurm/submit.sh experiments/fa2-paper.yaml 8
#
# SBATCH_OPTS: more sbatch options for both jobs; ATTNPROF, RECORD_OPTS as
# sweep.sbatch reads them (exported to the jobs).
set -u
here=$(dirname "$0")
local=0
[ "${1:-}" = --local ] && { local=1; shift; }
spec=${1:?usage: submit.sh [--local] SPEC N [OUTDIR]}
n=${2:?usage: submit.sh [--local] SPEC N [OUTDIR]}
outdir=${3:-experiments/results/slurm}
case "$n" in ''|*[!0-9]*|0) echo "submit.sh: error: N must be a number of shards from 1, not '$n'" >&2; exit 2 ;; esac
[ -f "$spec" ] || { echo "submit.sh: error: no spec '$spec'" >&2; exit 2; }
if [ $local = 1 ] || ! command -v sbatch >/dev/null 2>&1; then
	[ $local = 1 ] || echo "submit.sh: no sbatch on PATH: running the $n shards here, in sequence" >&2
	SHARDS=$n exec sh "$here/sweep.sbatch" "$spec" "$outdir"
fi
mkdir -p "$outdir" || exit 1
export ATTNPROF="${ATTNPROF:-}" RECORD_OPTS="${RECORD_OPTS:-}"
# SBATCH_OPTS is split into words on purpose
# shellcheck disable=SC2086
array=$(sbatch --parsable --export=ALL --array=1-"$n" ${SBATCH_OPTS:-} "$here/sweep.sbatch" "$spec" "$outdir") || exit 1
array=${array%%;*} # "jobid;cluster"
# shellcheck disable=SC2086
merge=$(sbatch --parsable --export=ALL --dependency=afterany:"$array" ${SBATCH_OPTS:-} "$here/merge.sbatch" "$spec" "$outdir" "$n") || exit 1
echo "shards: job array $array (tasks 1-$n), merge: job ${merge%%;*} -> $outdir/$(basename "$spec" .yaml).yaml"
