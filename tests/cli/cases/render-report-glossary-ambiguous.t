# one abbreviation for two words: refused at the second
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/glossary-ambiguous.yaml -o $TMP/g.pdf
exit: 2
stderr: tests/fixtures/templates/glossary-ambiguous.yaml:7:11: the abbreviation 's' stands for both 'seqpar' and 'splitq': give each word its own
