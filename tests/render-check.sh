#!/bin/sh
# tests/render-check.sh BINARY — render every template in every style and
# every figure kind from the committed fixtures, then inspect the output:
# page count and size, text extracted from the PDFs (figure labels, numbers
# from the fixture, the synthetic banner), rasterised pages (patent: no
# coloured pixel; no figure blank), SVGs well formed, a results file
# without counters renders and states the gap.  No wall-clock threshold:
# render speed is 'make bench' (tools/bench.sh).  Prints "# render-check: N passed, N failed, N skipped".
# Needs pdfinfo, pdftotext, pdftoppm (poppler-utils) and python3.
bin=${1:?usage: tests/render-check.sh BINARY}
pass=0 fail=0 skip=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1${2:+: $2}"; fail=$((fail + 1)); }
check() { name=$1; shift; if "$@"; then ok "$name"; else bad "$name"; fi; }

for tool in pdfinfo pdftotext pdftoppm python3; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "skip render-check: $tool is not installed (apt-get install poppler-utils python3)"
		echo "# render-check: 0 passed, 0 failed, 1 skipped"
		exit 0
	fi
done
if ! "$bin" --version | grep -q "renderer: yes"; then
	echo "skip render-check: $bin was built without the renderer"
	echo "# render-check: 0 passed, 0 failed, 1 skipped"
	exit 0
fi
# the interpreter itself, not a version manager's shim (those cost 0.3 s a call)
py=$(python3 -c 'import sys; print(sys.executable)')
small=tests/fixtures/results-small.yaml
nomet=tests/fixtures/results-nometrics.yaml

# A PPM check in python: "grey" fails on any pixel whose channels differ;
# "ink FRACTION" fails when fewer than FRACTION of the pixels are not white.
cat >"$T/ppm.py" <<'PY'
import sys
def read(path):
    data = open(path, 'rb').read()
    parts, i = [], 0
    while len(parts) < 4:
        while data[i:i+1].isspace(): i += 1
        if data[i:i+1] == b'#':
            while data[i:i+1] != b'\n': i += 1
            continue
        j = i
        while not data[j:j+1].isspace(): j += 1
        parts.append(data[i:j]); i = j
    i += 1
    w, h = int(parts[1]), int(parts[2])
    return w, h, data[i:i + 3 * w * h]
mode, path = sys.argv[1], sys.argv[2]
w, h, px = read(path)
if mode == 'grey':
    r, g, b = px[0::3], px[1::3], px[2::3]
    if not (r == g == b):
        bad = sum(1 for k in range(w * h) if abs(r[k] - g[k]) > 2 or abs(g[k] - b[k]) > 2)
        if bad:
            print('%s: %d coloured pixels' % (path, bad)); sys.exit(1)
else:
    frac = float(sys.argv[3])
    dark = bytes(1 if i < 200 else 0 for i in range(256))
    ink = px.translate(dark).count(1) / 3.0
    if ink < frac * w * h:
        print('%s: only %d of %d pixels drawn' % (path, ink, w * h)); sys.exit(1)
PY

# The per-step bytes of the loop-steps figure, computed here from a results
# file's records (DRAM read + write and L2 bytes over the model's tile pairs,
# 3 significant digits as the renderer prints bytes): one expected line a value,
# "flash1, DRAM measured 40.4 KiB".  Args: results file(s); N; d.
cat >"$T/steps.py" <<'PY'
import csv, io, math, subprocess, sys
binary, n, d, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
out = subprocess.run([binary, "export", "--csv"] + files, capture_output=True, text=True).stdout
def fmt(v):
    units, u = ["B", "KiB", "MiB", "GiB"], 0
    while u < 3 and v >= 1024 * 0.9995: v, u = v / 1024, u + 1
    digits = max(0, 2 - int(math.floor(math.log10(abs(v))))) if v else 0
    return "%.*f %s" % (digits, v, units[u])
seen = set()
for r in csv.DictReader(io.StringIO(out)):
    if (r["source"], r["phase"], r["pass"], r["seqlen_kv"], r["head_dim"], r["causal"]) != ("attnprof", "prefill", "fwd", n, d, "false"):
        continue
    if r["variant"] not in ("flash1", "flash2") or r["variant"] in seen or not r.get("model.tile_pairs"):
        continue
    seen.add(r["variant"])
    pairs = float(r["model.tile_pairs"])
    dram = float(r["dram__bytes_read.sum"]) + float(r["dram__bytes_write.sum"])
    print("%s, DRAM measured %s" % (r["variant"], fmt(dram / pairs)))
    print("%s, L2 measured %s" % (r["variant"], fmt(float(r["lts__t_bytes.sum"]) / pairs)))
PY
# has_steps PDF RESULTS...: the figure's per-step bytes are in the PDF's text
has_steps() {
	pdf=$1; shift
	"$py" "$T/steps.py" "$bin" 4096 128 "$@" >"$T/steps.want"
	[ "$(wc -l <"$T/steps.want")" -eq 4 ] || { echo "    expected 4 per-step values from $*"; return 1; }
	while IFS= read -r want; do has_text "$pdf" "$want" || return 1; done <"$T/steps.want"
}

pages() { pdfinfo "$1" 2>/dev/null | sed -n 's/^Pages: *//p'; }
size_is() { # file "W x H" (rounded points)
	s=$(pdfinfo "$1" 2>/dev/null | sed -n 's/^Page size: *\([0-9.]*\) x \([0-9.]*\).*/\1 \2/p')
	set -- $s "$2" "$3"
	[ "$(printf '%.0f %.0f' "$1" "$2")" = "$3 $4" ] || { echo "    page size $1 x $2, expected $3 x $4"; return 1; }
}
has_text() { pdftotext -layout "$1" - 2>/dev/null | tr -s ' \n' '  ' | grep -qF -- "$2" || { echo "    '$2' not in $1"; return 1; }; }

# ---- every template in every style ---------------------------------------------
for t in review patent slides; do
	for s in color print patent slides; do
		out=$T/$t-$s.pdf
		if "$bin" report $small -t templates/$t.yaml --style $s -o "$out" -q 2>"$T/err"; then
			n=$(pages "$out")
			check "$t/$s: pages" [ "${n:-0}" -ge 3 ]
			if [ $t = slides ]; then check "$t/$s: 16:9" size_is "$out" 960 540
			elif [ $s = slides ]; then check "$t/$s: 16:9" size_is "$out" 960 540
			else check "$t/$s: A4" size_is "$out" 595 842; fi
			check "$t/$s: synthetic banner" has_text "$out" "SYNTHETIC TEST FIXTURE"
			check "$t/$s: GPU from the fixture" has_text "$out" "NVIDIA H200"
		else
			bad "$t/$s: render" "$(head -3 "$T/err")"
		fi
	done
done

# ---- content -------------------------------------------------------------------
r=$T/review-color.pdf p=$T/patent-patent.pdf
check "review: figure labels" has_text $r "Figure 1."
check "review: table labels" has_text $r "Table 1."
check "review: S, P bytes from the fixture" has_text $r "2.00 GiB"
check "review: flash2 buffers from the descriptor" has_text $r "Q, K, V, O, L"
check "review: absent matrix caption" has_text $r "not stored in HBM"
check "review: caveat on L2" has_text $r "not counted as DRAM writes"
check "review: decode section (fixture has decode)" has_text $r "Prefill and decode"
check "review: ablation section (fixture has rungs)" has_text $r "Ablation ladder"
check "review: the loop-steps figure" has_text $r "Step by step at N=4096, d=128, flash1 against flash2 (records of results-small.yaml)"
check "review: loop-steps bytes per step from the fixture records" has_steps $r $small
check "review: the data-sheet peak quoted for a GPU the table knows" has_text $r "data sheet's dense fp16 peak of this GPU, 990 TFLOP/s"
sed 's/name: NVIDIA H200,/name: NVIDIA A100-SXM4-80GB,/' $small >"$T/other-gpu.yaml"
"$bin" report "$T/other-gpu.yaml" -t templates/review.yaml -o "$T/other-gpu.pdf" -q 2>/dev/null
check "review: no data-sheet peak for a GPU the table does not know" sh -c "[ -s '$T/other-gpu.pdf' ] && ! pdftotext '$T/other-gpu.pdf' - | grep -q \"data sheet's dense\""
check "patent: FIG. labels" has_text $p "FIG. 1"
nfig=$(pdftotext -layout $p - 2>/dev/null | grep -cE '^ *FIG\. [0-9]+[A-Z]? *$')
check "patent: sheet numbers n/m" has_text $p "1/$nfig"
check "patent: brief description" has_text $p "BRIEF DESCRIPTION OF THE DRAWINGS"
check "patent: numerals listed" has_text $p "REFERENCE NUMERALS"
check "patent: numeral list entry" has_text $p "10 — memory"

# ---- patent style: black and white only ------------------------------------------
pdftoppm -r 40 "$p" "$T/pat" 2>/dev/null
allgrey=1
for f in "$T"/pat-*.ppm; do "$py" "$T/ppm.py" grey "$f" || allgrey=0; done
check "patent: no coloured pixel on any page" [ $allgrey = 1 ]
pdftoppm -r 40 "$T/review-patent.pdf" "$T/rpat" 2>/dev/null
allgrey=1
for f in "$T"/rpat-*.ppm; do "$py" "$T/ppm.py" grey "$f" || allgrey=0; done
check "review in patent style: no coloured pixel" [ $allgrey = 1 ]
n=$(pages $p)
check "patent: one sheet per figure after the text" [ "${n:-0}" -ge 10 ]

# ---- every figure kind: not blank, SVG well formed ----------------------------------
# (the kinds of captured calls over the capture fixture and its references)
for k in $("$bin" figure --list); do
	f=$(echo "$k" | tr ':' '_')
	case $k in
	*capture*) in="tests/fixtures/capture-small.yaml tests/fixtures/capture-reference.yaml" ;;
	memory-workload|warp-states) in=tests/fixtures/results-counters.yaml ;; # the workload and stalls sets' counters
	*) in=$small ;;
	esac
	# shellcheck disable=SC2086 # the input list is word-split on purpose
	if "$bin" figure "$k" $in -o "$T/$f.pdf" 2>"$T/err" && "$bin" figure "$k" $in -o "$T/$f.svg" 2>>"$T/err"; then
		pdftoppm -r 30 "$T/$f.pdf" "$T/$f" 2>/dev/null
		check "figure $k: not blank" "$py" "$T/ppm.py" ink "$(ls "$T/$f"-*.ppm | head -1)" 0.02
		check "figure $k: SVG well formed" "$py" -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" "$T/$f.svg"
	else
		bad "figure $k: render" "$(head -3 "$T/err")"
	fi
	# shellcheck disable=SC2086
	"$bin" figure "$k" $in --style patent -o "$T/$f-pat.pdf" 2>/dev/null && pdftoppm -r 30 "$T/$f-pat.pdf" "$T/$f-pat" 2>/dev/null
	check "figure $k, patent: black and white" "$py" "$T/ppm.py" grey "$(ls "$T/$f-pat"-*.ppm | head -1)"
done
check "figure: PNG at 300 dpi" "$bin" figure tflops $small --dpi 300 -o "$T/t.png"
check "figure: PNG size follows --dpi" "$py" -c "
import struct,sys; d=open(sys.argv[1],'rb').read(24); w,h=struct.unpack('>II',d[16:24]); sys.exit(0 if w > 2000 else 1)" "$T/t.png"

# ---- a results file without counters: renders, states the gap -------------------------
if "$bin" report $nomet -t templates/review.yaml -o "$T/nomet.pdf" -q 2>"$T/err"; then
	ok "no counters: review renders"
	check "no counters: the gap is stated" has_text "$T/nomet.pdf" "have no hardware counters"
	check "no counters: charts say so" has_text "$T/nomet.pdf" "no hardware counters for this chart"
	check "no counters: failed run named" has_text "$T/nomet.pdf" "1 failed"
	check "no counters: no decode section" sh -c "! pdftotext '$T/nomet.pdf' - | grep -q 'Prefill and decode'"
else
	bad "no counters: review renders" "$(head -3 "$T/err")"
fi
for t in patent slides; do
	check "no counters: $t renders" "$bin" report $nomet -t templates/$t.yaml -o "$T/nomet-$t.pdf" -q
done

# ---- figures dir ------------------------------------------------------------------
"$bin" report $small -t templates/review.yaml -o "$T/fd.pdf" -q --figures-dir "$T/figs" --dpi 60 2>/dev/null
check "--figures-dir: SVG and PNG per figure" [ "$(ls "$T"/figs/*.svg | wc -l)" -ge 10 ] && [ "$(ls "$T"/figs/*.png | wc -l)" -ge 10 ]

# ---- several results files: merged, duplicates named once, repeats give spread ----------
# a second run: the same records, one time changed (a copy of $small is not one: refused)
sed "s/time_ms: 1.24945, time_ms_min: 1.21196/time_ms: 1.25811, time_ms_min: 1.22003/" $small >"$T/small-run2.yaml"
if "$bin" report $small $nomet --repeat "$T/small-run2.yaml" -t templates/review.yaml -o "$T/merge.pdf" -q 2>"$T/merr"; then
	ok "merge: two files and a repeat render"
	check "merge: duplicate keys named once on stderr" [ "$(grep -c 'appear in more than one results file' "$T/merr")" -eq 1 ]
	# in the order they were recorded, whatever the command line's
	check "merge: both files named in the document" has_text "$T/merge.pdf" "results-nometrics.yaml, results-small.yaml"
	check "merge: the repeat named" has_text "$T/merge.pdf" "repeat run: small-run2.yaml"
	check "merge: ablation spread from the repeat" has_text "$T/merge.pdf" "0.0 %"
else
	bad "merge: two files and a repeat render" "$(head -3 "$T/merr")"
fi
check "merge: a missing file is an error" sh -c "! '$bin' report $small /nonexistent.yaml -t templates/review.yaml -o '$T/x.pdf' 2>/dev/null"
check "figure: several files" "$bin" figure ablation $small $nomet --repeat "$T/small-run2.yaml" -o "$T/abl.svg"

# ---- the committed H200 evidence (when present): no gaps, every section -----------------
R=experiments/results
if [ -e $R/fa2-paper.yaml ] && [ -e $R/decode.yaml ] && [ -e $R/ablation.yaml ]; then
	rep=""
	for f in $R/repeats/*.yaml; do [ -e "$f" ] && rep="$rep --repeat $f"; done
	# the inputs of tools/render-all.sh: the Hopper run too, the FA2 sweep's records first
	[ -e $R/hopper.yaml ] && rep="$rep $R/hopper.yaml"
	for f in $R/workload/workload.yaml $R/workload/stalls.yaml; do [ -e "$f" ] && rep="$rep --counters $f"; done
	rep="$rep --primary $R/fa2-paper.yaml"
	h=$T/h200.pdf
	# shellcheck disable=SC2086
	"$bin" report $R/fa2-paper.yaml $R/decode.yaml $R/ablation.yaml $rep -t templates/review.yaml -o $h -q 2>/dev/null
	check "h200 review: renders" [ -s $h ]
	# the same files in another order: the same document, byte for byte
	# shellcheck disable=SC2086
	"$bin" report $R/ablation.yaml $R/decode.yaml $R/fa2-paper.yaml $rep -t templates/review.yaml -o $T/h200-rev.pdf -q 2>/dev/null
	pdftotext $h $T/h200.txt 2>/dev/null; pdftotext $T/h200-rev.pdf $T/h200-rev.txt 2>/dev/null
	check "h200 review: files in another order, the same text" cmp -s $T/h200.txt $T/h200-rev.txt
	check "h200 review: files in another order, the same bytes" cmp -s $h $T/h200-rev.pdf
	# the captured implementations enter only under when: has:capture… — without a capture among
	# the inputs the review is the committed one, byte for byte ('make report' re-renders it)
	check "h200 review: without a capture, the committed reports/h200/review.pdf" cmp -s $h reports/h200/review.pdf
	if [ -e $R/capture/capture-sdpa.yaml ]; then
		# shellcheck disable=SC2086
		"$bin" report $R/fa2-paper.yaml $R/decode.yaml $R/ablation.yaml $rep $R/capture/capture-sdpa.yaml \
			-t templates/review.yaml -o $T/h200-cap.pdf -q 2>/dev/null
		check "h200 review with a capture: the captured sections" has_text $T/h200-cap.pdf "Data flow and partition: sdpa-cudnn, captured"
		check "h200 review with a capture: backward calls beside attnprof's" has_text $T/h200-cap.pdf "references. Backward calls."
	fi
	check "h200 review: the ladder from one run" has_text $h "every rung from one run"
	# the contents line of section 2 names the page its heading is on (the page moves with the data)
	toc_page=$(pdftotext -layout $h - 2>/dev/null | tr -s ' \n' '  ' | sed -n 's/.*Contents 1 Summary 1 2 Conditions and methodology \([0-9][0-9]*\) 3 .*/\1/p')
	check "h200 review: a table of contents" sh -c "[ -n '$toc_page' ] && pdftotext -f '$toc_page' -l '$toc_page' '$h' - | grep -qx '2 Conditions and methodology'"
	check "h200 review: PDF bookmarks, one per section" [ "$(grep -a -c '/Title (' $h)" -ge 15 ]
	check "h200 review: bookmarks form an outline" sh -c "grep -a -q '/Type /Outlines' '$h'"
	check "h200 review: no n/a" sh -c "! pdftotext '$h' - | grep -q 'n/a'"
	check "h200 review: decode-splitkv" has_text $h "decode-splitkv"
	check "h200 review: decode bandwidth as % of copy" sh -c "pdftotext '$h' - | tr -s ' \n' '  ' | grep -qE '[0-9.]+ % of the measured copy bandwidth'"
	check "h200 review: SMs busy" has_text $h "SMs busy"
	for rung in flash1+seqpar flash1+seqpar+splitq flash1+splitq flash1+lazyrescale; do
		check "h200 review: ablation names $rung" has_text $h "$rung"
	done
	check "h200 review: evidence for the rescale" has_text $h "MUFU inst."
	check "h200 review: evidence for split-Q" has_text $h "barrier stalls"
	check "h200 review: run-to-run spread" has_text $h "run-to-run spread"
	check "h200 review: L2 gap explained" has_text $h "absorbs K/V re-reads"
	check "h200 review: loop-steps bytes per step from the fa2-paper records" has_steps $h $R/fa2-paper.yaml
	# the share of the data sheet's dense peak (src/doc/datasheet.c: 989.5 for the H200) is flash2's TFLOP/s over it
	ds=$("$bin" export $R/fa2-paper.yaml --csv 2>/dev/null | "$py" -c "
import csv, sys
for r in csv.DictReader(sys.stdin):
    if (r['source'], r['variant'], r['pass'], r['seqlen_q'], r['head_dim'], r['causal']) == ('attnprof', 'flash2', 'fwd', '4096', '128', 'false'):
        print('flash2 runs at %.1f %%' % (float(r['tflops']) / 989.5 * 100))")
	check "h200 review: flash2's share of the data-sheet tensor peak" sh -c "[ -n '$ds' ] && pdftotext -layout '$h' - | tr -s ' \n' '  ' | grep -qF '$ds'"
	# issue 15's examples: a warp split or a library named twice
	# the HTML back end reads the same model: as many figures and tables as the PDF
	# shellcheck disable=SC2086
	"$bin" report $R/fa2-paper.yaml $R/decode.yaml $R/ablation.yaml $rep -t templates/review.yaml -o $T/h200.html 2>"$T/html.err"
	# shellcheck disable=SC2086
	"$bin" report $R/fa2-paper.yaml $R/decode.yaml $R/ablation.yaml $rep -t templates/review.yaml -o $T/h200-again.pdf 2>"$T/pdf.err"
	counts() { sed -n 's/.*page[s]*, \([0-9]* figures*, [0-9]* tables*\).*/\1/p' "$1"; }
	check "h200 review as HTML: the PDF's figures and tables" sh -c "[ -n \"$(counts $T/pdf.err)\" ] && [ \"$(counts $T/html.err)\" = \"$(counts $T/pdf.err)\" ]"
	check "h200 review: the warp split named once" sh -c "! pdftotext '$h' - | grep -q 'split-K: split-K\|split-Q: split-Q'"
	check "h200 review: CUPTI named once" sh -c "! pdftotext '$h' - | grep -q 'CUPTI CUPTI'"
	check "h200 review: the warp split is named" has_text $h "flash1 — split-K: each warp owns"
	for t in patent slides; do
		# shellcheck disable=SC2086
		"$bin" report $R/fa2-paper.yaml $R/decode.yaml $R/ablation.yaml $rep -t templates/$t.yaml -o $T/h200-$t.pdf -q 2>/dev/null
		check "h200 $t: no n/a" sh -c "! pdftotext '$T/h200-$t.pdf' - | grep -q 'n/a'"
	done
	check "h200 slides: decode slide" has_text $T/h200-slides.pdf "Decode is a different problem"
	check "h200 slides: loop-steps bytes per step" sh -c "pdftotext '$T/h200-slides.pdf' - | grep -q 'DRAM per step: flash1'"
else
	skip=$((skip + 1))
	echo "skip h200 evidence: experiments/results/{fa2-paper,decode,ablation}.yaml not present"
fi

echo "# render-check: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
