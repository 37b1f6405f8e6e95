# the linter's claim rules: a caveat whose condition is false for the drawn records and a time
# label that differs from their time sources are findings.  results-small.yaml holds no captured
# call (its layout's facts capture-unchecked, capture-no-versions, capture-kernel-timed and
# capture-event-timed are 0), and the template prints each sentence unconditionally; the
# sentence that denies a label ('not a median of unprofiled re-runs') is no finding
needs: render
setup: ./attnprof report tests/fixtures/results-small.yaml -t tests/fixtures/templates/lint-claims-false.yaml -o $TMP/lc.pdf -q
setup: grep -q '^fact capture-event-timed 0$' $TMP/lc.layout
args: lint $TMP/lc.pdf
exit: 1
stdout: caveat 'Not every captured call was checked against fp64' printed, but every drawn captured call was checked (fact capture-unchecked is 0)
stdout: caveat 'Not every capture header names the program's library versions' printed, but every capture header names its library versions (fact capture-no-versions is 0)
stdout: time label 'time source kernels' printed, but no drawn captured call is timed by its kernels (fact capture-kernel-timed is 0)
stdout: time label 'median of unprofiled re-runs' printed, but no drawn captured call is timed by unprofiled re-runs (time source events) (fact capture-event-timed is 0)
stderr: 5 findings
