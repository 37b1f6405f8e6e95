# an unknown key in a template: file:line:col and a suggestion
args: report tests/fixtures/results-small.yaml -t tests/fixtures/template-bad-key.yaml -o $TMP/bad.pdf
needs: render
exit: 2
stderr: tests/fixtures/template-bad-key.yaml:6:9: unknown key 'figrue' in a block: did you mean 'figure'?
