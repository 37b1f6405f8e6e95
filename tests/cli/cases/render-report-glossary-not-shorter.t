# an abbreviation no shorter than its word: the place of the abbreviation
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/glossary-not-shorter.yaml -o $TMP/g.pdf
exit: 2
stderr: tests/fixtures/templates/glossary-not-shorter.yaml:7:11: the abbreviation 'splitQ' is not shorter than 'splitq': give a shorter one
