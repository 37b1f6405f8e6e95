# tools/ncu-common.sh — sourced by tools/ncu-compare.sh and tools/ncu-overhead.sh:
# their settings (environment, defaults), the spec's name, a wall clock, and
# the metric names of set $SET as attnprof knows them (comma separated, for
# ncu --metrics).
set -u
SPEC=${1:-experiments/fa2-paper.yaml}
ATTNPROF=${ATTNPROF:-./attnprof}
SET=${SET:-default}
OUT=${OUT:-out}
NCU=${NCU:-ncu}
CACHE=${CACHE:-all}
mkdir -p "$OUT"
here=$(dirname "$0")
name=$(basename "$SPEC" .yaml)
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
metrics=$("$ATTNPROF" info --metrics "$SET" | grep -E '^[a-z0-9_]+__[a-z0-9_.]+$' | paste -sd, -)
if [ -z "$metrics" ]; then
	echo "$(basename "$0"): no metric names for set '$SET' from '$ATTNPROF info --metrics $SET'" >&2
	exit 2
fi
