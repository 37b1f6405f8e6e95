# '- ~' in a template's blocks rendered a paragraph "~", exit 0 (issue 48 item 11): an empty block is refused at its place
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/block-null.yaml -o $TMP/w.pdf -q
exit: 2
stderr: tests/fixtures/templates/block-null.yaml:8:9:
stderr: an empty block (YAML null '~')
setup: rm -f $TMP/w.pdf
check: test ! -e $TMP/w.pdf
