# a glossary that is not a mapping: file:line:col and how to write one
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/glossary-not-map.yaml -o $TMP/g.pdf
exit: 2
stderr: tests/fixtures/templates/glossary-not-map.yaml:5:11: glossary is a mapping of word: abbreviation, such as {seqpar: sp, splitq: sq}
