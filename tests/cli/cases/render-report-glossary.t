# a label that does not fit takes the template's declared glossary: its key is listed under the chart
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/glossary.yaml -o $TMP/gloss.pdf -q
exit: 0
check: pdftotext $TMP/gloss.pdf - | grep -q 'SEQ = seqpar · SPQ = splitq · LZ = lazyrescale'
check: ! pdftotext $TMP/gloss.pdf - | grep -q 'sp = seqpar'
