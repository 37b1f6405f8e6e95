# a heading keeps the first piece of what follows it (a paragraph up to its first blank
# line, a table with its caption, a figure at its smallest, a subheading and what that
# keeps): tests/fixtures/templates/heading-keep.yaml ends page 1 with room for the heading
# and six lines, not for the paragraph after it, which moves to page 2 whole; the heading
# stood alone at page 1's foot (review '12 Correctness' above Table 11, jax-attention 'Where
# the work is partitioned', the patent's 'DETAILED DESCRIPTION OF THE DRAWINGS')
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/heading-keep.yaml -o $TMP/h.pdf -q
exit: 0
check: ! pdftotext -f 1 -l 1 $TMP/h.pdf - | grep -q 'Kept heading'
check: pdftotext -f 2 -l 2 $TMP/h.pdf - | grep -A1 '2 Kept heading' | grep -q '^The paragraph after the heading'
check: ./attnprof lint $TMP/h.pdf
