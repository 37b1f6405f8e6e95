# report -o NAME.md: the document as GitHub-flavoured Markdown (issue 28's third
# writer): headings, a pipe table with its alignment row, each figure an SVG in
# NAME_files/ linked as an image with its caption, the same numbers as the PDF
needs: render
setup: rm -rf $TMP/r.md $TMP/r_files
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/r.md -q && cat $TMP/r.md
exit: 0
stdout: # Attention on the
stdout: ## 1 Summary
stdout: | --- |
stdout: ![Figure 1: 
stdout: ](r_files/fig01-
stdout: **Figure 1.**
stdout: **Table 1.**
not-stdout: <span
check: ls $TMP/r_files/*.svg | grep -q fig01-
check: [ $(ls $TMP/r_files/*.svg | wc -l) = $(grep -c '^!\[Figure ' $TMP/r.md) ]
check: "$bin" report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/r.pdf -q && pdftotext $TMP/r.pdf - | tr -s ' \n' '  ' | grep -qF "$(sed -n 's/^At N=\([0-9]*\), d=\([0-9]*\).*/At N=\1, d=\2/p' $TMP/r.md | head -1)"
