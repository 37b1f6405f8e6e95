# figure diff over one file: nothing recorded twice, and it says how to give two
needs: render
args: figure diff tests/fixtures/results-small.yaml -o $TMP/diff1.pdf
exit: 0
check: pdftotext $TMP/diff1.pdf - | tr '\n' ' ' | grep -q 'no configuration recorded twice'
