# no silent cap in the PDF's layout: a page past the 1024th that draws
# records of two days says so in its footer (pages from the 1024th said
# nothing), and the contents list every section, its 257th to 300th too
# (they were left out), with the page each heading is on
needs: render
setup: python3 tests/fixtures/results-subset.py tests/fixtures/results-small.yaml flash2 2026-12-05T10:00:00Z $TMP/p1100-newer.yaml
setup: { printf 'template: attnprof-template/1\nname: many-pages\nlayout: article\nsections:\n  - blocks:\n      - contents: Contents\n'; i=1; while [ $i -le 300 ]; do printf '  - title: "Part %d"\n    blocks:\n      - text: "Part %d."\n' $i $i; i=$((i+1)); done; printf '  - title: Speed\n    blocks:\n'; i=0; while [ $i -lt 1100 ]; do printf '      - page_break: true\n      - text: "Page."\n'; i=$((i+1)); done; printf '      - table: speedup\n'; } >$TMP/p1100.yaml
args: report $TMP/p1100-newer.yaml tests/fixtures/results-small.yaml -t $TMP/p1100.yaml -o $TMP/p1100.pdf -q
exit: 0
check: last=$(grep -c '^page ' $TMP/p1100.layout) && test "$last" -gt 1100 && grep "^text $last " $TMP/p1100.layout | grep -q "this page: records of 2026-11-29 and 2026-12-05"
check: pdftotext -layout $TMP/p1100.pdf - | grep -Eq '^300 Part 300 +[0-9]+$'
check: pg=$(pdftotext -layout $TMP/p1100.pdf - | sed -n 's/^300 Part 300  *\([0-9][0-9]*\)$/\1/p') && pdftotext -f $pg -l $pg $TMP/p1100.pdf - | grep -q '^300 Part 300$'
