# The memory-workload figure (review Fig. 22) drew an arrow of the 8-unit gap's size, 6 pt long,
# against the heads 'L2' and 'DRAM': a reader saw stray marks there (issue 47 item 7); the heads'
# order says the way the bytes go and nothing is drawn in the heads' band but their text
needs: render
args: report tests/fixtures/results-counters.yaml -t tests/fixtures/templates/memory-workload-only.yaml -o $TMP/mwheads.pdf -q
exit: 0
file: $TMP/mwheads.layout
check: grep -q 'figure.* L2 (50.0 MiB)$' $TMP/mwheads.layout && grep -q 'figure.* DRAM (HBM)$' $TMP/mwheads.layout
check: awk 'NR==FNR { if ($1=="text" && $4=="figure" && / L2 \(50.0 MiB\)$/) { lo = $8 - 1; hi = $12 + 1; f = $3 } next } ($1=="line" || $1=="fill") && $3==f && $6 >= lo && $6 <= hi && $8 >= lo && $8 <= hi { bad++ } END { exit !(lo != "" && bad == 0) }' $TMP/mwheads.layout $TMP/mwheads.layout
