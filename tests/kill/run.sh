#!/bin/sh
# tests/kill/run.sh BINARY [ROUNDS] — every writer killed (SIGKILL) at moments
# spread over its run, and two writers at once on one output: the output must
# be the previous file, untouched, or the new one complete (byte for byte the
# output of an uninterrupted run) — never anything else.  Writers: report
# (PDF), figure (SVG and PNG), export -o (CSV), a results save
# (export --yaml: results_save, which record's save is too; record itself
# needs a GPU: 'record -- CMD' on a program without CUDA captures nothing and
# writes nothing) and merge -o; a report's set (PDF, layout, figures) and an
# HTML report's set (the page and its _files/).
# Prints "# kill: N passed, N failed, N skipped".
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
		sleep "$(kill_at $dur $i "$rounds")"
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

# A report's set: the PDF, the layout beside it (its style, the PDF's byte
# count and hash, which lint checks) and its --figures-dir.  Two styles of
# one template write the same names with other bytes.  After a kill at any
# moment, and after two reports of the two styles to one -o at once, the set
# must be one writer's whole: the layout describes the PDF beside it and the
# figures are that style's, never a mix.
set_ok() { # DIR
	st=$(sed -n 's/^style //p' "$1/out.layout" 2>/dev/null)
	[ "$(sed -n 's/^pdf \([0-9]*\) .*/\1/p' "$1/out.layout" 2>/dev/null)" = "$(stat -c %s "$1/out.pdf" 2>/dev/null)" ] &&
		[ -n "$st" ] && (cd "$1/figs" && md5sum * 2>/dev/null) | cmp -s - "$tmp/figs-$st.md5"
}
set_why() { # DIR WHEN: what is mixed
	st=$(sed -n 's/^style //p' "$1/out.layout" 2>/dev/null)
	echo "    mixed ($2): layout of style '$st' for $(sed -n 's/^pdf \([0-9]*\) .*/\1/p' "$1/out.layout" 2>/dev/null) bytes," \
		"PDF of $(stat -c %s "$1/out.pdf" 2>/dev/null) bytes, $( (cd "$1/figs" && md5sum * 2>/dev/null) |
		diff - "$tmp/figs-$st.md5" | grep -c '^<') figure files not of that style"
}
report_set() {
	s=$tmp/set
	for st in color print; do
		rm -rf "$s"; mkdir -p "$s"
		"$bin" report $R -t templates/review.yaml --style $st -o "$s/out.pdf" -q --figures-dir "$s/figs" --dpi 20 >/dev/null 2>&1 ||
			{ echo "FAIL report-set: the uninterrupted run failed"; failed=$((failed + 1)); return; }
		(cd "$s/figs" && md5sum *) >"$tmp/figs-$st.md5"
	done
	t0=$(now_ms)
	"$bin" report $R -t templates/review.yaml --style print -o "$s/out.pdf" -q --figures-dir "$s/figs" --dpi 20 >/dev/null 2>&1
	dur=$(($(now_ms) - t0 + 5))
	bad=0 i=0
	while [ $i -lt "$rounds" ]; do
		"$bin" report $R -t templates/review.yaml --style color -o "$s/out.pdf" -q --figures-dir "$s/figs" --dpi 20 >/dev/null 2>&1 &
		pid=$!
		# moments over the run's second half, where the PDF is done and the
		# layout and figures are being written (where a set can mix)
		ms=$((dur * (5 * rounds + 6 * i) / (10 * rounds)))
		sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		# a writer killed once it began renaming its set into place leaves a
		# child that finishes the renames, holding the folder's lock: wait for it
		if command -v flock >/dev/null 2>&1; then flock "$s" true; else sleep 0.5; fi
		set_ok "$s" || { bad=$((bad + 1)); set_why "$s" "killed at $ms ms"; }
		"$bin" report $R -t templates/review.yaml --style print -o "$s/out.pdf" -q --figures-dir "$s/figs" --dpi 20 >/dev/null 2>&1 &
		p1=$!
		"$bin" report $R -t templates/review.yaml --style color -o "$s/out.pdf" -q --figures-dir "$s/figs" --dpi 20 >/dev/null 2>&1 &
		p2=$!
		wait $p1; wait $p2
		set_ok "$s" || { bad=$((bad + 1)); set_why "$s" "two at once"; }
		i=$((i + 1))
	done
	if [ $bad -eq 0 ]; then
		echo "ok   report-set: PDF, layout and figures of one writer after $rounds kills and $rounds concurrent pairs"
		passed=$((passed + 1))
	else
		echo "FAIL report-set: $bad of $((2 * rounds)) sets mixed (a PDF beside another writer's layout or figures)"
		failed=$((failed + 1))
	fi
}

# A moment in [0, 1.1 * DUR) ms for kill I of ROUNDS: random within the
# I-th of ROUNDS equal slices, so the kills cover the whole run, and a
# little past it, at times no two runs of the loop repeat.
kill_at() { # DUR I ROUNDS -> "S.mmm"
	awk -v d="$1" -v i="$2" -v n="$3" -v seed="$$$2" 'BEGIN { srand(seed);
		ms = int(d * 1.1 * (i + rand()) / n); printf "%d.%03d\n", ms / 1000, ms % 1000 }'
}

# An HTML report's set: the page and its NAME_files/ figures (issue 33: a
# kill left the old page beside partly new figures).  Styles color and
# print write the same names with other figure bytes; after a kill at any
# moment, and after two reports of the two styles at once, the page and
# every figure must be one style's whole.
html_sum() { (cd "$1" && md5sum x.html x_files/* 2>/dev/null); }
html_set() {
	s=$tmp/html
	for st in color print; do
		rm -rf "$s"; mkdir -p "$s"
		"$bin" report $R -t templates/review.yaml --style $st -o "$s/x.html" -q --dpi 20 >/dev/null 2>&1 ||
			{ echo "FAIL report-html: the uninterrupted run failed"; failed=$((failed + 1)); return; }
		html_sum "$s" >"$tmp/html-$st.md5"
	done
	if cmp -s "$tmp/html-color.md5" "$tmp/html-print.md5"; then
		echo "skip report-html: the two styles write the same bytes, so a mix cannot be seen"; return
	fi
	t0=$(now_ms)
	"$bin" report $R -t templates/review.yaml --style print -o "$s/x.html" -q --dpi 20 >/dev/null 2>&1
	dur=$(($(now_ms) - t0 + 5))
	bad=0 i=0 old=0 new=0
	while [ $i -lt "$rounds" ]; do
		"$bin" report $R -t templates/review.yaml --style color -o "$s/x.html" -q --dpi 20 >/dev/null 2>&1 &
		pid=$!
		sleep "$(kill_at $dur $i "$rounds")"
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		# a writer killed while renaming leaves a child that finishes, holding
		# the lock of the first output's folder (the figures'): wait for it
		if command -v flock >/dev/null 2>&1; then flock "$s/x_files" true; else sleep 0.5; fi
		html_sum "$s" >"$tmp/html-now.md5"
		if cmp -s "$tmp/html-now.md5" "$tmp/html-print.md5"; then old=$((old + 1))
		elif cmp -s "$tmp/html-now.md5" "$tmp/html-color.md5"; then new=$((new + 1))
		else bad=$((bad + 1)); echo "    mixed (killed at $i of $rounds): $(diff "$tmp/html-now.md5" "$tmp/html-print.md5" | grep -c '^<') files not of the previous set"
		fi
		# back to the previous set (print) for the next kill
		"$bin" report $R -t templates/review.yaml --style print -o "$s/x.html" -q --dpi 20 >/dev/null 2>&1
		i=$((i + 1))
	done
	# two writers at once, of the two styles: one of them whole
	"$bin" report $R -t templates/review.yaml --style print -o "$s/x.html" -q --dpi 20 >/dev/null 2>&1 &
	p1=$!
	"$bin" report $R -t templates/review.yaml --style color -o "$s/x.html" -q --dpi 20 >/dev/null 2>&1 &
	p2=$!
	wait $p1; wait $p2
	html_sum "$s" >"$tmp/html-now.md5"
	cmp -s "$tmp/html-now.md5" "$tmp/html-print.md5" || cmp -s "$tmp/html-now.md5" "$tmp/html-color.md5" ||
		{ bad=$((bad + 1)); echo "    mixed (two at once)"; }
	if [ $bad -eq 0 ]; then
		echo "ok   report-html: page and figures of one writer after $rounds kills ($old kept the previous set, $new complete) and a concurrent pair (run $dur ms)"
		passed=$((passed + 1))
	else
		echo "FAIL report-html: $bad of $((rounds + 1)) sets mixed (a page beside another writer's figures)"
		failed=$((failed + 1))
	fi
}

writer report pdf "report $R -t templates/review.yaml -o \"\$o\" -q"
html_set
report_set
writer figure-svg svg "figure tflops $R -o \"\$o\""
writer figure-png png "figure partition-grid $R -o \"\$o\" --dpi 100"
writer export csv "export experiments/results/fa2-paper.yaml --csv -o \"\$o\""
writer results-save yaml "export experiments/results/fa2-paper.yaml --yaml -o \"\$o\""
writer merge yaml "merge --quiet tests/fixtures/shards/tiny.shard-1-of-3.yaml tests/fixtures/shards/tiny.shard-2-of-3.yaml tests/fixtures/shards/tiny.shard-3-of-3.yaml tests/fixtures/shards/rerun-2-of-3.yaml -o \"\$o\""
echo "# kill: $passed passed, $failed failed, 0 skipped"
[ $failed = 0 ]
