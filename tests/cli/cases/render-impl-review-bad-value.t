# an unknown capture value in a template is an error with its place and the list of names
args: report tests/fixtures/capture-small.yaml -t tests/fixtures/template-bad-capture.yaml -o $TMP/bad.pdf -q
needs: render
exit: 2
stderr: template-bad-capture.yaml:9:
stderr: unknown capture value 'stord'
stderr: stored
stderr: did you mean 'stored'? (docs/templates.md, "A captured program": impl, ordinal,
stderr: shapes, verdict)
