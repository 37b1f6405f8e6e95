#!/bin/sh
# tests/kill/run.sh BINARY [ROUNDS] — every writer killed (SIGKILL) at moments
# spread over its run, and two writers at once on one output: the output must
# be the previous file, untouched, or the new one complete (byte for byte the
# output of an uninterrupted run) — never anything else.  Writers: report
# (PDF), figure (SVG and PNG), export -o (CSV), a results save
# (export --yaml, results_save) and merge -o.  Prints "# kill: N passed, N failed, N skipped".
bin=${1:?usage: tests/kill/run.sh BINARY [ROUNDS]}
rounds=${2:-10}
passed=0 failed=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
R=tests/fixtures/results-small.yaml
now_ms() { date +%s%3N; }

writer() { # NAME EXT ARGS... (ARGS write to $o)
	name=$1 ext=$2; shift 2
	o=$tmp/out.$ext
	rm -f "$o"
	t0=$(now_ms)
	o=$tmp/ref.$ext eval "\"$bin\" $*" >/dev/null 2>&1 || { echo "FAIL $name: the uninterrupted run failed"; failed=$((failed + 1)); return; }
	t1=$(now_ms)
	dur=$((t1 - t0 + 5))
	o=$tmp/ref2.$ext eval "\"$bin\" $*" >/dev/null 2>&1
	if ! cmp -s "$tmp/ref.$ext" "$tmp/ref2.$ext"; then
		echo "skip $name: two uninterrupted runs differ, so 'complete' cannot be checked byte for byte"; return
	fi
	old=0 new=0 bad=0
	i=0
	while [ $i -lt "$rounds" ]; do
		printf 'the previous output of round %d\n' "$i" >"$tmp/prev"
		cp "$tmp/prev" "$tmp/out.$ext"
		o=$tmp/out.$ext eval "\"$bin\" $*" >/dev/null 2>&1 &
		pid=$!
		# moments from the start to a little past the end of a run
		ms=$((dur * (i + 1) * 11 / (10 * rounds)))
		sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		if cmp -s "$tmp/out.$ext" "$tmp/prev"; then old=$((old + 1))
		elif cmp -s "$tmp/out.$ext" "$tmp/ref.$ext"; then new=$((new + 1))
		else bad=$((bad + 1)); cp "$tmp/out.$ext" "$tmp/bad-$name-$i.$ext"
		fi
		i=$((i + 1))
	done
	# two writers at once: the result is one of them whole
	cp "$tmp/prev" "$tmp/out.$ext"
	o=$tmp/out.$ext eval "\"$bin\" $*" >/dev/null 2>&1 &
	p1=$!
	o=$tmp/out.$ext eval "\"$bin\" $*" >/dev/null 2>&1 &
	p2=$!
	wait $p1; r1=$?; wait $p2; r2=$?
	cmp -s "$tmp/out.$ext" "$tmp/ref.$ext" && [ $r1 = 0 ] && [ $r2 = 0 ] || bad=$((bad + 1))
	if [ $bad -eq 0 ]; then
		echo "ok   $name: $old kept the previous file, $new complete, 0 corrupt, two at once whole (run $dur ms)"
		passed=$((passed + 1))
	else
		echo "FAIL $name: $bad corrupt of $rounds kills + 1 concurrent pair ($old kept, $new complete)"
		failed=$((failed + 1))
	fi
}

writer report pdf "report $R -t templates/review.yaml -o \"\$o\" -q"
writer figure-svg svg "figure tflops $R -o \"\$o\""
writer figure-png png "figure partition-grid $R -o \"\$o\" --dpi 100"
writer export csv "export experiments/results/fa2-paper.yaml --csv -o \"\$o\""
writer results-save yaml "export experiments/results/fa2-paper.yaml --yaml -o \"\$o\""
writer merge yaml "merge --quiet tests/fixtures/shards/tiny.shard-1-of-3.yaml tests/fixtures/shards/tiny.shard-2-of-3.yaml tests/fixtures/shards/tiny.shard-3-of-3.yaml tests/fixtures/shards/rerun-2-of-3.yaml -o \"\$o\""
echo "# kill: $passed passed, $failed failed, 0 skipped"
[ $failed = 0 ]
