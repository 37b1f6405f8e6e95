#!/bin/sh
# tools/bench.sh BINARY — render speed, printed, never asserted ('make bench').
#
# The test suite holds no wall-clock threshold (a busy or sanitizer build
# machine must not fail a correct change); the figures it used to assert
# are measured here, for docs/benchmarks.md:
#   - the review of the small fixture, and of the committed H200 results
#   - a 100 000-character word laid out (Pango alone is quadratic)
#   - report's cost per record at 1 000, 4 000, 16 000 and 60 000 records
#     (flat: linear; synthetic records, tools/bench_records.py, never kept)
# Times are wall-clock medians of 3 runs, in ms.
bin=${1:-./attnprof}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ms() { # command...: median wall ms of 3 runs
	for i in 1 2 3; do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		echo $(( (t1 - t0) / 1000000 ))
	done | sort -n | sed -n 2p
}
small=tests/fixtures/results-small.yaml
echo "bench: review of $small: $(ms "$bin" report $small -t templates/review.yaml -o "$T/r.pdf" -q) ms"
R=experiments/results
if [ -e $R/fa2-paper.yaml ] && [ -e $R/decode.yaml ] && [ -e $R/ablation.yaml ]; then
	rep=""
	for f in $R/repeats/*.yaml; do [ -e "$f" ] && rep="$rep --repeat $f"; done
	# shellcheck disable=SC2086
	echo "bench: H200 review (3 files + repeats): $(ms "$bin" report $R/fa2-paper.yaml $R/decode.yaml $R/ablation.yaml $rep -t templates/review.yaml -o "$T/h.pdf" -q) ms"
fi
echo "bench: a 100 000-character word: $(ms "$bin" report $small -t tests/fixtures/templates/long-word.yaml -o "$T/w.pdf" -q) ms"
# records: the small fixture's records repeated at other batch sizes (synthetic)
if command -v python3 >/dev/null 2>&1; then
	# the cost of each further record (the step's added time over its added
	# records): flat when report is linear in records
	pn=0 pt=0
	for n in 1000 4000 16000 60000; do
		python3 tools/bench_records.py $small $n >"$T/rec$n.yaml" || break
		t=$(ms "$bin" report "$T/rec$n.yaml" -t templates/review.yaml -o "$T/rec.pdf" -q)
		if [ $pn -gt 0 ]; then
			echo "bench: review of $n records: $t ms ($(( (t - pt) * 1000 / (n - pn) )) us a record from $pn to $n)"
		else
			echo "bench: review of $n records: $t ms"
		fi
		pn=$n pt=$t
	done
fi
# one record of 100 000 metric names: export is linear in the names (it was quadratic: 113 s)
if command -v python3 >/dev/null 2>&1; then
	python3 - tests/fixtures/results-export.yaml >"$T/metrics.yaml" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
head, body = s.split('\nrecords:\n', 1)
r = '  - source:' + body.split('  - source:')[1]
names = ", ".join("m%06d.sum: %d" % (i, i) for i in range(100000))
print(head + '\nrecords:\n' + re.sub(r'totals: \{[^}]*\}', 'totals: {' + names + '}', r, count=1), end='')
PY
	echo "bench: export of one record with 100 000 metric names: $(ms "$bin" export "$T/metrics.yaml" --csv -o "$T/m.csv") ms"
fi
