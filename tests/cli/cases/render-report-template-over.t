# nor over its template
needs: render
setup: cp tests/fixtures/templates/height-zero.yaml $TMP/tpl.pdf && sed -i "s/height: 0/height: 1/" $TMP/tpl.pdf && cp $TMP/tpl.pdf $TMP/tpl.copy
args: report tests/fixtures/results-small.yaml -t $TMP/tpl.pdf -o $TMP/tpl.pdf -q
exit: 2
stderr: refusing to write
check: cmp $TMP/tpl.copy $TMP/tpl.pdf
