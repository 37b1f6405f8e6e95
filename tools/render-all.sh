#!/bin/sh
# tools/render-all.sh — render the committed H200 evidence into reports/.
#
#   experiments/results/{fa2-paper,decode,ablation}.yaml (merged in the order recorded)
#   + experiments/results/repeats/*.yaml (run-to-run spread only)
#   + experiments/results/workload/{workload,stalls}.yaml (--counters: the memory
#     workload and warp-state counters of the same configurations, never drawn)
#       -> reports/h200/{review,patent,slides}.pdf, reports/h200/review.html (+ review_files/)
#          reports/h200/figures/*.svg, *.png          (the review's figures, colour)
#          reports/h200/figures/patent/*.svg, *.png   (the patent sheets' figures)
#
# One set of documents tells the whole story.  A record identity present in
# two files (ablation.yaml repeats fa2-paper's flash1 and flash2 at the
# sweep's N = 2k and 8k) is drawn from fa2-paper.yaml (--primary): the FA2
# sweep's tables and charts then compare records of one call, SDPA's among
# them; the other record counts as another run (attnprof report lists what
# was superseded), and the ablation ladder draws every rung from its own
# run.  Any other top-level results file is merged too.  With no results committed it renders the
# synthetic test fixture into reports/fixture/ and says so: those documents
# carry a "not measured" banner on every page.
# Environment: ATTNPROF (default ./attnprof), DPI (default 200), OUT (default reports/h200),
# PYTORCH_OUT (default reports/h200-pytorch), WORKLOAD_OUT (default reports/workload), TRACE_DIR (if set: every report's
# value lookups into TRACE_DIR/NAME.trace and its input files into NAME.inputs,
# for tests/records-check.py).
set -u
bin=${ATTNPROF:-./attnprof}
dpi=${DPI:-200}
if ! "$bin" --version 2>/dev/null | grep -q "renderer: yes"; then
	echo "render-all: $bin was built without the renderer: run 'make deps' then 'make RENDER=1'" >&2
	exit 1
fi

. tools/review-inputs.sh
out=${OUT:-reports/h200}
if [ -z "$files" ]; then
	echo "render-all: no results in experiments/results/ yet: rendering the synthetic fixture" \
	     "tests/fixtures/results-small.yaml into reports/fixture/ (NOT measurements)" >&2
	files=tests/fixtures/results-small.yaml
	repeats=""
	counters=""
	out=reports/fixture
fi

# trace NAME FILES...: the --trace-records option for document NAME, its inputs noted
trace() {
	[ -n "${TRACE_DIR:-}" ] || return 0
	name=$1
	shift
	echo "$*" >"$TRACE_DIR/$name.inputs"
	echo "--trace-records $TRACE_DIR/$name.trace"
}


status=0
mkdir -p "$out/figures/patent"
rm -f "$out"/figures/*.svg "$out"/figures/*.png "$out"/figures/patent/*
for t in review patent slides; do
	figs=""
	# the figures of the review (colour) and of the patent sheets (black and white)
	case $t in review) figs="--figures-dir $out/figures --dpi $dpi" ;;
		   patent) figs="--figures-dir $out/figures/patent --dpi $dpi" ;; esac
	# shellcheck disable=SC2086 # word splitting of the file lists is intended
	if "$bin" report $files $repeats $counters $primary -t "templates/$t.yaml" -o "$out/$t.pdf" -q $figs $(trace "$t" $primary $files); then
		:
	else
		echo "render-all: failed: templates/$t.yaml" >&2
		status=1
	fi
done
# the review as one HTML page beside its PDF (its figures as SVG in review_files/),
# the page tests/browser/run.sh opens in Chromium
rm -rf "$out/review_files"
# shellcheck disable=SC2086 # word splitting of the file lists is intended
"$bin" report $files $repeats $counters $primary -t templates/review.yaml -o "$out/review.html" -q ||
	{ echo "render-all: failed: templates/review.yaml as HTML" >&2; status=1; }
# The attention of PyTorch programs captured with `attnprof record -- CMD`
# (experiments/results/capture/), each beside attnprof's own references:
#   capture-sdpa.yaml  + fa2-paper.yaml              -> reports/h200-pytorch/sdpa-backends.pdf
#   capture-llama.yaml + fa2-paper.yaml, decode.yaml -> reports/h200-pytorch/llama-generate.pdf
#   capture-flex{,-eager,-unmarked}.yaml + fa2-paper.yaml -> reports/h200-pytorch/flex-attention.pdf
#   capture-jax.yaml + capture-pallas{,-unmarked}.yaml, capture-unmarked.yaml + fa2-paper.yaml -> reports/h200-pytorch/{jax,unmarked}-attention.pdf
# (figures of the first in reports/h200-pytorch/figures/).  Only when the
# H200 evidence itself is rendered, not for the fixture.
cap=experiments/results/capture
capdocs="review slides patent"
pout=${PYTORCH_OUT:-reports/h200-pytorch}
if [ "$out" != reports/fixture ] && [ -e "$cap/capture-sdpa.yaml" ]; then
	mkdir -p "$pout/figures"
	rm -f "$pout"/figures/*.svg "$pout"/figures/*.png
	for pair in "sdpa-backends:capture-sdpa:fa2-paper" "llama-generate:capture-llama:fa2-paper decode" \
		"flex-attention:capture-flex capture-flex-eager capture-flex-unmarked:fa2-paper" \
		"jax-attention:capture-jax capture-pallas capture-pallas-unmarked:fa2-paper" "unmarked-attention:capture-unmarked:fa2-paper"; do
		name=${pair%%:*} rest=${pair#*:}
		caps=${rest%%:*} refs=${rest#*:}
		capfiles=""
		for c in $caps; do
			[ -e "$cap/$c.yaml" ] && capfiles="$capfiles $cap/$c.yaml"
		done
		[ -n "$capfiles" ] || continue
		reffiles=""
		for r in $refs; do
			[ -e "experiments/results/$r.yaml" ] && reffiles="$reffiles experiments/results/$r.yaml"
		done
		figs=""
		[ "$name" = sdpa-backends ] && figs="--figures-dir $pout/figures --dpi $dpi"
		# shellcheck disable=SC2086 # word splitting of the file lists is intended
		if ! "$bin" report $capfiles $reffiles -t templates/impl-review.yaml -o "$pout/$name.pdf" -q $figs \
			$(trace "$name" $capfiles $reffiles); then
			echo "render-all: failed: templates/impl-review.yaml on$capfiles" >&2
			status=1
		fi
	done
	# attnprof's own documents with the SDPA capture among their inputs: the captured
	# implementations in their sections, beside attnprof's variants (with the workload
	# and stalls counters of SDPA's FLASH and cuDNN calls at the focus shape)
	capcounters=""
	for f in experiments/results/workload/capture-workload.yaml experiments/results/workload/capture-stalls.yaml; do
		[ -e "$f" ] && capcounters="$capcounters --counters $f"
	done
	#   the H200 evidence + capture-sdpa.yaml -> reports/h200-pytorch/{review,slides,patent}-with-capture.pdf
	for t in $capdocs; do
		# shellcheck disable=SC2086 # word splitting of the file lists is intended
		if ! "$bin" report $files $repeats $counters $capcounters $primary "$cap/capture-sdpa.yaml" -t "templates/$t.yaml" -o "$pout/$t-with-capture.pdf" -q \
			$(trace "$t-with-capture" $primary $files "$cap/capture-sdpa.yaml"); then
			echo "render-all: failed: templates/$t.yaml with $cap/capture-sdpa.yaml" >&2
			status=1
		fi
	done
fi
# a captured program recorded with --workload on, alone (any GPU: no references merged):
#   experiments/results/capture/workload-NAME.yaml -> reports/workload/workload-NAME.pdf
# (impl-review's whole-program section: its GPU time per phase, attention's share, the bound)
wout=${WORKLOAD_OUT:-reports/workload}
if [ "$out" != reports/fixture ]; then
	for f in experiments/results/capture/workload-*.yaml; do
		[ -e "$f" ] || continue
		name=$(basename "$f" .yaml)
		mkdir -p "$wout"
		# shellcheck disable=SC2046 # the trace option's words
		if ! "$bin" report "$f" -t templates/impl-review.yaml -o "$wout/$name.pdf" -q $(trace "$name" "$f"); then
			echo "render-all: failed: templates/impl-review.yaml on $f" >&2
			status=1
		fi
	done
fi
# the README's headline numbers, quoted from the same records (tools/readme-results.sh)
if [ "$out" = reports/h200 ] && [ -z "${TRACE_DIR:-}" ]; then
	ATTNPROF=$bin sh tools/readme-results.sh || status=1
fi
exit $status
