# a failed report leaves the existing output as it was (it was deleted)
needs: render
setup: cp tests/fixtures/results-small.yaml $TMP/keep.pdf
args: report tests/fixtures/results-small.yaml -t tests/fixtures/template-bad-placeholder.yaml -o $TMP/keep.pdf
exit: 2
stderr: unknown quantity
check: cmp tests/fixtures/results-small.yaml $TMP/keep.pdf
check: [ -z "$(ls -A $TMP | grep '^\.keep\.pdf\.tmp')" ]
