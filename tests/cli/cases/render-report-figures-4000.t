# no silent cap: a template of 4 000 figures draws all 4 000 in the PDF (it drew 160 and dropped the rest)
needs: render
setup: { printf 'template: attnprof-template/1\nname: many\nlayout: article\nsections:\n  - title: Many\n    blocks:\n'; i=0; while [ $i -lt 4000 ]; do echo '      - figure: tiling'; i=$((i+1)); done; } >$TMP/fig4000.yaml
args: report tests/fixtures/results-small.yaml -t $TMP/fig4000.yaml -o $TMP/fig4000.pdf -q
exit: 0
stderr: 4000 figures
check: pdftotext $TMP/fig4000.pdf - | grep -q '^Figure 4000\. '
