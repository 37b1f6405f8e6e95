#!/bin/sh
# tests/slurm/run.sh BINARY — the Slurm scripts' logic without Slurm
# (experiments/slurm/): a fake array task (SLURM_ARRAY_TASK_ID,
# SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT) against a stub attnprof that
# logs its arguments; the local run (shards in sequence, then the merge); the
# submission (a stub sbatch); and an end to end run whose shard "records" are
# the fixtures' parts, merged by the real binary into the single run's records.
# Ends with "# slurm: N passed, N failed, N skipped".
bin=${1:?usage: tests/slurm/run.sh BINARY}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
S=experiments/slurm
F=tests/fixtures/shards
passed=0 failed=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

ok() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

# the stub: logs "attnprof ARGS" and writes the -o file (record: the fixture part, when STUB_PARTS is set)
cat >"$T/attnprof" <<'STUB'
#!/bin/sh
echo "attnprof $*" >>"$STUB_LOG"
out=""; prev=""; shard=""
for a in "$@"; do
	[ "$prev" = -o ] && out=$a
	[ "$prev" = --shard ] && shard=$a
	prev=$a
done
case "$1" in
record)
	if [ -n "${STUB_PARTS:-}" ]; then k=${shard%/*}; n=${shard#*/}; cp "$STUB_PARTS/tiny.shard-$k-of-$n.yaml" "$out"
	else : >"$out"; fi
	exit "${STUB_RC:-0}" ;;
merge)
	[ -n "${STUB_REAL:-}" ] && exec "$STUB_REAL" "$@"
	: >"$out" ;;
esac
STUB
chmod +x "$T/attnprof"
export STUB_LOG="$T/log" ATTNPROF="$T/attnprof"

# 1. array task 2 of 3 (--array=1-3): shard 2/3, its own file, --resume
: >"$T/log"
SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=3 sh $S/sweep.sbatch $F/tiny.yaml "$T/o1" 2>/dev/null
want="attnprof record $F/tiny.yaml --shard 2/3 -o $T/o1/tiny.shard-2-of-3.yaml --resume"
if [ "$(cat "$T/log")" = "$want" ]; then ok array-task; else fail array-task "ran '$(cat "$T/log")', expected '$want'"; fi

# 2. an array from 0 (--array=0-3): task 0 is shard 1/4; RECORD_OPTS reach record
: >"$T/log"
SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_COUNT=4 RECORD_OPTS="--metrics none" sh $S/sweep.sbatch $F/tiny.yaml "$T/o2" 2>/dev/null
if grep -q -- "--shard 1/4 -o $T/o2/tiny.shard-1-of-4.yaml --resume --metrics none$" "$T/log"; then ok array-from-zero
else fail array-from-zero "ran '$(cat "$T/log")'"; fi

# 3. a task beyond the count (a sparse --array) is refused, nothing run
: >"$T/log"
if SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=3 sh $S/sweep.sbatch $F/tiny.yaml "$T/o3" 2>"$T/err"; then
	fail array-sparse "exit 0"
elif [ -s "$T/log" ] || ! grep -q "contiguous range" "$T/err"; then fail array-sparse "ran '$(cat "$T/log")', said '$(cat "$T/err")'"
else ok array-sparse; fi

# 4. without Slurm: the shards in sequence, then one merge of all their files
: >"$T/log"
SHARDS=3 sh $S/sweep.sbatch $F/tiny.yaml "$T/o4" 2>/dev/null
exp="attnprof record $F/tiny.yaml --shard 1/3 -o $T/o4/tiny.shard-1-of-3.yaml --resume
attnprof record $F/tiny.yaml --shard 2/3 -o $T/o4/tiny.shard-2-of-3.yaml --resume
attnprof record $F/tiny.yaml --shard 3/3 -o $T/o4/tiny.shard-3-of-3.yaml --resume
attnprof merge $T/o4/tiny.shard-1-of-3.yaml $T/o4/tiny.shard-2-of-3.yaml $T/o4/tiny.shard-3-of-3.yaml -o $T/o4/tiny.yaml"
if [ "$(cat "$T/log")" = "$exp" ]; then ok local-sequence; else fail local-sequence "ran:
$(cat "$T/log")"; fi

# 5. without Slurm and without SHARDS: says how
if sh $S/sweep.sbatch $F/tiny.yaml "$T/o5" 2>"$T/err" || ! grep -q "SHARDS=N" "$T/err"; then fail local-needs-shards "$(cat "$T/err")"
else ok local-needs-shards; fi

# 6. the merge job skips a shard file that was never written (merge names what is missing)
: >"$T/log"; mkdir -p "$T/o6"; : >"$T/o6/tiny.shard-1-of-3.yaml"; : >"$T/o6/tiny.shard-3-of-3.yaml"
sh $S/merge.sbatch $F/tiny.yaml "$T/o6" 3 2>"$T/err"
if [ "$(cat "$T/log")" = "attnprof merge $T/o6/tiny.shard-1-of-3.yaml $T/o6/tiny.shard-3-of-3.yaml -o $T/o6/tiny.yaml" ] &&
   grep -q "tiny.shard-2-of-3.yaml was not written" "$T/err"; then ok merge-skips-missing
else fail merge-skips-missing "ran '$(cat "$T/log")', said '$(cat "$T/err")'"; fi

# 7. submit.sh with sbatch: an array of N tasks with one GPU each, then a merge after all of them
mkdir -p "$T/bin"
cat >"$T/bin/sbatch" <<'SB'
#!/bin/sh
echo "sbatch $*" >>"$STUB_LOG"
case "$*" in *--array=*) echo "4242;cluster" ;; *) echo 4243 ;; esac
SB
chmod +x "$T/bin/sbatch"
: >"$T/log"
PATH="$T/bin:$PATH" sh $S/submit.sh $F/tiny.yaml 3 "$T/o7" >"$T/out"
l1=$(sed -n 1p "$T/log") l2=$(sed -n 2p "$T/log")
case "$l1" in *"--array=1-3 "*"$S/sweep.sbatch $F/tiny.yaml $T/o7") a=1 ;; *) a=0 ;; esac
case "$l2" in *"--dependency=afterany:4242 "*"$S/merge.sbatch $F/tiny.yaml $T/o7 3") b=1 ;; *) b=0 ;; esac
if [ $a = 1 ] && [ $b = 1 ] && grep -q '^#SBATCH --gres=gpu:1$' $S/sweep.sbatch && grep -q "job array 4242" "$T/out"; then ok submit
else fail submit "sbatch calls:
$(cat "$T/log")"; fi

# 8. submit.sh --local runs the same scripts here
: >"$T/log"
PATH="$T/bin:$PATH" sh $S/submit.sh --local $F/tiny.yaml 2 "$T/o8" 2>/dev/null
if [ "$(grep -c '^attnprof record' "$T/log")" = 2 ] && grep -q "^attnprof merge .*-o $T/o8/tiny.yaml$" "$T/log" && ! grep -q sbatch "$T/log"
then ok submit-local; else fail submit-local "ran:
$(cat "$T/log")"; fi

# 9. end to end: the parts (fixtures) merged by the real binary hold the single run's records
: >"$T/log"
STUB_PARTS=$(pwd)/$F STUB_REAL=$bin SHARDS=3 sh $S/sweep.sbatch $F/tiny.yaml "$T/o9" 2>"$T/err"
"$bin" export "$T/o9/tiny.yaml" --csv >"$T/a.csv" 2>/dev/null
"$bin" export $F/whole.yaml --csv >"$T/w.csv"
if cmp -s "$T/a.csv" "$T/w.csv" && grep -q "12 records from 3 files, 0 superseded, 0 configs missing" "$T/err"; then ok end-to-end
else fail end-to-end "$(tail -3 "$T/err")"; fi

# 10. a shard that failed (exit 1: a wrong config, recorded) still merges; the run exits 1
: >"$T/log"
if STUB_RC=1 SHARDS=2 sh $S/sweep.sbatch $F/tiny.yaml "$T/o10" 2>/dev/null; then fail local-failed-shard "exit 0"
elif grep -q "^attnprof merge" "$T/log"; then ok local-failed-shard; else fail local-failed-shard "no merge"; fi

echo "# slurm: $passed passed, $failed failed, 0 skipped"
[ $failed = 0 ]
