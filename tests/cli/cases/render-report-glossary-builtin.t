# the same template without its glossary: the built-in abbreviations
needs: render
setup: grep -v -e '^glossary:' -e '^  seqpar:' -e '^  splitq:' -e '^  lazyrescale:' tests/fixtures/templates/glossary.yaml >$TMP/nogloss.yaml
args: report tests/fixtures/results-small.yaml -t $TMP/nogloss.yaml -o $TMP/nogloss.pdf -q
exit: 0
check: pdftotext $TMP/nogloss.pdf - | grep -q 'sp = seqpar · sq = splitq · lazy = lazyrescale'
