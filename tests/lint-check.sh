#!/bin/sh
# tests/lint-check.sh BINARY — run 'attnprof lint' over the committed
# reports (reports/h200/*.pdf) and over fresh renders of the fixtures
# (every template on the small fixture, and the collision templates in
# tests/fixtures/lint/ on it), and fail on any finding.
#
# tests/lint-known-failures lists documents not clean yet, one name a line
# with the reason: each is reported as a known failure (skipped) while it
# still has findings, and FAILS once it is clean so that the list shrinks.
# Prints "# lint-check: N passed, N failed, N skipped".
bin=${1:?usage: tests/lint-check.sh BINARY}
pass=0 fail=0 skip=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
known=tests/lint-known-failures

if ! command -v pdftotext >/dev/null 2>&1; then
	echo "skip lint-check: pdftotext is not installed (apt-get install poppler-utils)"
	echo "# lint-check: 0 passed, 0 failed, 1 skipped"
	exit 0
fi

is_known() { grep -q "^$1 " "$known" 2>/dev/null; }

# lint NAME PDF: one check
lint() {
	name=$1 pdf=$2
	"$bin" lint "$pdf" >"$T/out" 2>"$T/err"; rc=$?
	n=$(wc -l <"$T/out")
	if [ $rc -eq 0 ]; then
		if is_known "$name"; then
			echo "FAIL lint $name: clean now: remove it from $known"; fail=$((fail + 1))
		else
			echo "ok   lint $name"; pass=$((pass + 1))
		fi
	elif [ $rc -eq 1 ] && is_known "$name"; then
		echo "skip lint $name: known failure, $n findings ($(grep "^$name " "$known" | cut -d' ' -f2-))"
		skip=$((skip + 1))
	else
		echo "FAIL lint $name: $n findings"; sed 's/^/    /' "$T/out" | head -15; sed 's/^/    /' "$T/err" | head -3
		fail=$((fail + 1))
	fi
}

# ---- the committed reports ----------------------------------------------------
for f in reports/h200/*.pdf reports/h200-pytorch/*.pdf; do
	[ -e "$f" ] || continue
	lint "$f" "$f"
done

# ---- fixture renders --------------------------------------------------------------
if "$bin" --version | grep -q "renderer: yes"; then
	for t in review patent slides; do
		if "$bin" report tests/fixtures/results-small.yaml -t templates/$t.yaml -o "$T/$t.pdf" -q 2>"$T/err"; then
			lint "fixture:$t" "$T/$t.pdf"
		else
			echo "FAIL render fixture:$t: $(head -2 "$T/err")"; fail=$((fail + 1))
		fi
	done
	# the review of a captured program: the capture fixture beside its reference fixture
	if "$bin" report tests/fixtures/capture-small.yaml tests/fixtures/capture-reference.yaml \
		-t templates/impl-review.yaml -o "$T/impl-review.pdf" -q 2>"$T/err"; then
		lint "fixture:impl-review" "$T/impl-review.pdf"
	else
		echo "FAIL render fixture:impl-review: $(head -2 "$T/err")"; fail=$((fail + 1))
	fi
	if "$bin" report tests/fixtures/capture-small.yaml tests/fixtures/capture-reference.yaml \
		-t templates/impl-review.yaml --style print -o "$T/impl-review-print.pdf" -q 2>"$T/err"; then
		lint "fixture:impl-review-print" "$T/impl-review-print.pdf"
	else
		echo "FAIL render fixture:impl-review-print: $(head -2 "$T/err")"; fail=$((fail + 1))
	fi
	# attnprof's own documents with the capture fixture among their inputs (captured sections);
	# results-small's records drawn (--primary): the reference fixture repeats two of them, and a
	# sentence's ratio of one file's flash2 to the other's flash1 is refused (doc/claim.h)
	for t in review slides patent; do
		if "$bin" report tests/fixtures/results-small.yaml tests/fixtures/capture-small.yaml tests/fixtures/capture-reference.yaml \
			--primary tests/fixtures/results-small.yaml -t templates/$t.yaml -o "$T/$t-capture.pdf" -q 2>"$T/err"; then
			lint "fixture:$t-capture" "$T/$t-capture.pdf"
		else
			echo "FAIL render fixture:$t-capture: $(head -2 "$T/err")"; fail=$((fail + 1))
		fi
	done
	# every figure kind of captured calls in the slides style, over the fixture and the committed capture
	cs=tests/fixtures/templates/capture-kinds-slides.yaml
	for in in "fixture:tests/fixtures/capture-small.yaml tests/fixtures/capture-reference.yaml" \
		  "sdpa:experiments/results/capture/capture-sdpa.yaml experiments/results/fa2-paper.yaml"; do
		n=${in%%:*} files=${in#*:}
		[ -e "${files%% *}" ] || continue
		# shellcheck disable=SC2086 # the file list is word-split on purpose
		if "$bin" report $files -t $cs -o "$T/capture-kinds-$n.pdf" -q 2>"$T/err"; then
			lint "$n:capture-kinds-slides" "$T/capture-kinds-$n.pdf"
		else
			echo "FAIL render $n:capture-kinds-slides: $(head -2 "$T/err")"; fail=$((fail + 1))
		fi
	done
	# values and names chosen to provoke collisions (tests/fixtures/results-fixtures.py):
	# edge, twelve series in a chart, nine with long names, 0.01 to 5000 TFLOP/s;
	# one, a single series at a single shape (the review renders, its gaps n/a)
	# counters: the memory-workload and warp-states figures, the stalls and dq-traffic tables, gradient rows
	for fx in edge:review edge:slides one:review one:slides one:patent counters:review counters:slides; do
		f=${fx%%:*} t=${fx#*:}
		if "$bin" report tests/fixtures/results-$f.yaml -t templates/$t.yaml -o "$T/$f-$t.pdf" -q 2>"$T/err"; then
			lint "fixture:$f-$t" "$T/$f-$t.pdf"
		else
			echo "FAIL render fixture:$f-$t: $(head -2 "$T/err")"; fail=$((fail + 1))
		fi
	done
	# the H200 review in the print style: its serif type is wider, and the
	# tables must still fit the margins (headings break after '_')
	R=experiments/results
	if [ -e $R/fa2-paper.yaml ] && [ -e $R/decode.yaml ] && [ -e $R/ablation.yaml ]; then
		if "$bin" report $R/fa2-paper.yaml $R/decode.yaml $R/ablation.yaml -t templates/review.yaml --style print \
			-o "$T/h200-review-print.pdf" -q 2>"$T/err"; then
			lint "h200:review-print" "$T/h200-review-print.pdf"
		else
			echo "FAIL render h200:review-print: $(head -2 "$T/err")"; fail=$((fail + 1))
		fi
	fi
	# templates made to provoke collisions (each says what), over the small fixture
	for r in tests/fixtures/lint/*.yaml; do
		[ -e "$r" ] || continue
		b=$(basename "$r" .yaml)
		if "$bin" report tests/fixtures/results-small.yaml -t "$r" -o "$T/$b.pdf" -q 2>"$T/err"; then
			lint "fixture:$b" "$T/$b.pdf"
		else
			echo "FAIL render fixture:$b: $(head -2 "$T/err")"; fail=$((fail + 1))
		fi
	done
else
	echo "skip lint fixtures: built without the renderer"; skip=$((skip + 1))
fi

echo "# lint-check: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
