# @N=nan is refused ((int)NaN was undefined behaviour)
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/cond-nan.yaml -o $TMP/t.pdf -q
exit: 2
stderr: tests/fixtures/templates/cond-nan.yaml:8:
stderr: bad value 'nan' for N
