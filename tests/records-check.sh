#!/bin/sh
# tests/records-check.sh BIN — every value of every committed document is
# the record it names: renders all of them (tools/render-all.sh) into a
# temporary folder with their value lookups traced, then checks each trace
# against the results files by identity (tests/records-check.py).  Also
# checks that the checker fails on a partial selection (a decode.yaml
# prefill record drawn where the FA2 sweep's was meant).
# Prints "# records-check: N passed, N failed, N skipped" last.
set -u
bin=${1:-./attnprof}
if ! "$bin" --version 2>/dev/null | grep -q "renderer: yes" || ! command -v python3 >/dev/null 2>&1; then
	echo "skip records-check: skipped: needs the renderer build and python3"
	echo "# records-check: 0 passed, 0 failed, 1 skipped"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/trace"
if ! ATTNPROF=$bin DPI=20 OUT="$tmp/h200" PYTORCH_OUT="$tmp/pytorch" WORKLOAD_OUT="$tmp/workload" TRACE_DIR="$tmp/trace" \
	sh tools/render-all.sh >"$tmp/render.log" 2>&1; then
	cat "$tmp/render.log"
	echo "FAIL records-check: tools/render-all.sh failed"
	echo "# records-check: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
if grep -q "named no one record" "$tmp/render.log"; then
	grep "named no one record" "$tmp/render.log"
	echo "FAIL records-check: a document read 'not measured' where its conditions named several records"
	echo "# records-check: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
status=0
n=0 ok=0 bad=0
for t in "$tmp"/trace/*.trace; do
	name=$(basename "$t" .trace)
	# shellcheck disable=SC2046 # the input list is words
	if python3 tests/records-check.py "$bin" "$t" $(cat "$tmp/trace/$name.inputs") >"$tmp/out" 2>&1; then
		echo "ok records-check $name: $(tail -1 "$tmp/out" | sed 's/^records-check: [^:]*: //')"
		ok=$((ok + 1))
	else
		cat "$tmp/out"
		echo "FAIL records-check $name"
		status=1 bad=$((bad + 1))
	fi
	n=$((n + 1))
done
[ "$n" -ge 8 ] || { echo "FAIL records-check: $n traces, expected one per document (8)"; status=1 bad=$((bad + 1)); }
# a planted wrong value in a sentence: the review's first claim of a time,
# its value changed, must fail; so must a ratio of two files' records the
# template did not name a cross-run comparison (the ablation step the patent
# description once divided: fa2-paper's flash1 by ablation's flash1+seqpar)
claim=$(grep -m1 -P '^claim\t.*quantity=time_ms ' "$tmp/trace/review.trace")
printf '%s\n' "$claim" | sed 's/value=[^ ]*/value=12345/' >"$tmp/planted.trace"
printf 'claim\ttemplates/patent.yaml:57:14\tflash1+seqpar.speedup_vs.flash1@B=8,N=2048\trule=ratio value=2.31 quantity=speedup_vs arg=flash1 cross_run=0 runs=2\tattnprof/flash1+seqpar/prefill/fp16/B8/H16/Hkv16/Nq2048/Nkv2048/d128/c0|attnprof/flash1/prefill/fp16/B8/H16/Hkv16/Nq2048/Nkv2048/d128/c0\tablation.yaml|fa2-paper.yaml\t2.31\n' >>"$tmp/planted.trace"
# shellcheck disable=SC2046 # the input list is words
if [ -z "$claim" ] || python3 tests/records-check.py "$bin" "$tmp/planted.trace" $(cat "$tmp/trace/review.inputs") >"$tmp/out" 2>&1 ||
	[ "$(grep -c -e 'but its records give' -e 'not named a cross-run' "$tmp/out")" -ne 2 ]; then
	cat "$tmp/out"
	echo "FAIL records-check: the checker passed a planted wrong value in a sentence or a ratio of two runs"
	status=1 bad=$((bad + 1))
else
	echo "ok records-check: the checker refuses a planted wrong value in a sentence and a ratio of two runs (2 cases)"
	ok=$((ok + 1))
fi
# a planted wrong value in a figure: the review's first TFLOP/s bar, its
# value changed, must fail; so must a point drawn from a superseded file
fig=$(grep -m1 -P '^figure\ttflops#.*quantity=tflops .*state=value' "$tmp/trace/review.trace")
printf '%s\n' "$fig" | sed 's/value=[^ ]*/value=12345/' >"$tmp/planted-fig.trace"
printf '%s\n' "$fig" | awk -F'\t' 'BEGIN { OFS = "\t" } { $6 = ($6 == "ablation.yaml" ? "fa2-paper.yaml" : "ablation.yaml"); print }' >>"$tmp/planted-fig.trace"
# shellcheck disable=SC2046 # the input list is words
if [ -z "$fig" ] || python3 tests/records-check.py "$bin" "$tmp/planted-fig.trace" $(cat "$tmp/trace/review.inputs") >"$tmp/out" 2>&1 ||
	[ "$(grep -c -e 'but its record gives' -e 'which that file does not hold' -e 'but the newest record is' "$tmp/out")" -ne 2 ]; then
	cat "$tmp/out"
	echo "FAIL records-check: the checker passed a planted wrong value in a figure or a point of another file"
	status=1 bad=$((bad + 1))
else
	echo "ok records-check: the checker refuses a planted wrong value in a figure and a point of another file (2 cases)"
	ok=$((ok + 1))
fi
# a planted wrong value in a diagram: the first captured call's DRAM read
# bytes a capture data flow draws (review-with-capture), its value changed,
# must fail; so must a part naming a call its file does not hold
part=$(grep -m1 -P '^figure\tcapture-dataflow#.*\titem/read/.*state=value' "$tmp/trace/review-with-capture.trace")
if [ -n "$part" ]; then
	printf '%s\n' "$part" | sed 's/value=[^ ]*/value=12345/' >"$tmp/planted-part.trace"
	printf '%s\n' "$part" | sed 's#/call[0-9]*\t#/call99999\t#' >>"$tmp/planted-part.trace"
fi
# shellcheck disable=SC2046 # the input list is words
if [ -z "$part" ] || python3 tests/records-check.py "$bin" "$tmp/planted-part.trace" $(cat "$tmp/trace/review-with-capture.inputs") >"$tmp/out" 2>&1 ||
	[ "$(grep -c -e 'but its record gives' -e 'which that file does not hold' "$tmp/out")" -ne 2 ]; then
	cat "$tmp/out"
	echo "FAIL records-check: the checker passed a planted wrong value in a diagram or a call its file does not hold"
	status=1 bad=$((bad + 1))
else
	echo "ok records-check: the checker refuses a planted wrong value in a diagram and a call its file does not hold (2 cases)"
	ok=$((ok + 1))
fi
# a sentence against its figure: a ratio claim of the review whose two
# records a figure draws as TFLOP/s, with one of those bars planted 10 %
# higher, must fail the comparison (its ratio is no longer the figure's)
python3 - "$tmp/trace/review.trace" >"$tmp/planted-claimfig.trace" <<'PY'
import re, sys
lines = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")]
bars = {}
for l in lines:
    if l[0] == "figure" and " quantity=tflops " in " " + l[3] + " " and "state=value" in l[3] and "|" not in l[4]:
        bars.setdefault(l[4], []).append(l)
for l in lines:
    q = re.search(r"quantity=(\S+)", l[3]) if l[0] == "claim" else None
    if q and q.group(1) in ("speedup_vs", "tflops_vs") and "|" in l[4]:
        a, b = l[4].split("|")
        for fa in bars.get(a, []):
            fb = [x for x in bars.get(b, []) if x[1] == fa[1]]
            if fb:
                v = float(re.search(r"value=(\S+)", fa[3]).group(1)) * 1.1
                fa = fa[:3] + [re.sub(r"value=\S+", "value=%.17g" % v, fa[3])] + fa[4:]
                for x in (l, fa, fb[0]):
                    print("\t".join(x))
                sys.exit(0)
PY
# shellcheck disable=SC2046 # the input list is words
if [ ! -s "$tmp/planted-claimfig.trace" ] || python3 tests/records-check.py "$bin" "$tmp/planted-claimfig.trace" $(cat "$tmp/trace/review.inputs") >"$tmp/out" 2>&1 ||
	[ "$(grep -c 'but its figure' "$tmp/out")" -ne 1 ]; then
	cat "$tmp/out"
	echo "FAIL records-check: the checker passed a sentence whose ratio its figure does not draw"
	status=1 bad=$((bad + 1))
else
	echo "ok records-check: the checker refuses a sentence whose ratio its figure does not draw (1 case)"
	ok=$((ok + 1))
fi
# the checker itself: a partial selection (no B, H) that drew decode.yaml's
# prefill record (B=1, H=32) for the FA2 sweep's N=4096 causal row must fail
printf 'found\ttable speedup\tflash2\tN=4096 Nq=-1 d=128 causal=1 B=-1 H=-1 Hkv=-1 BN=-1 Hd=-1 dtype=- phase=prefill pass=fwd\tattnprof/flash2/prefill/fp16/B1/H32/Hkv32/Nq4096/Nkv4096/d128/c1\tdecode.yaml\t-\n' >"$tmp/partial.trace"
if python3 tests/records-check.py "$bin" "$tmp/partial.trace" experiments/results/fa2-paper.yaml \
	experiments/results/decode.yaml >"$tmp/out" 2>&1; then
	cat "$tmp/out"
	echo "FAIL records-check: the checker passed a partial selection"
	status=1 bad=$((bad + 1))
else
	echo "ok records-check: the checker refuses a partial selection ($(grep -c 'conditions name' "$tmp/out") case)"
	ok=$((ok + 1))
fi
# and a captured call other than its identity's last (capture-sdpa's sdpa-cudnn
# at N = 4k ran as calls 20 and 21: a value of the series is call 21's)
if [ -e experiments/results/capture/capture-sdpa.yaml ]; then
	printf 'found\t-\tcapture:sdpa-cudnn\tN=4096 Nq=-1 d=128 causal=0 B=-1 H=-1 Hkv=-1 BN=16384 Hd=2048 dtype=fp16 phase=prefill pass=fwd\tcapture/sdpa-cudnn/prefill/fp16/B4/H16/Hkv16/Nq4096/Nkv4096/d128/c0/pid1248/call20\tcapture-sdpa.yaml\t-\n' >"$tmp/call.trace"
	if python3 tests/records-check.py "$bin" "$tmp/call.trace" experiments/results/capture/capture-sdpa.yaml >"$tmp/out" 2>&1; then
		cat "$tmp/out"
		echo "FAIL records-check: the checker passed a captured call that is not its identity's last"
		status=1 bad=$((bad + 1))
	else
		echo "ok records-check: the checker refuses a captured call not its identity's last ($(grep -c 'not the identity' "$tmp/out") case)"
		ok=$((ok + 1))
	fi
fi
echo "# records-check: $ok passed, $bad failed, 0 skipped"
exit $status
