# figure takes several results files and --repeat too
setup: sed "s/time_ms: 1.24945, time_ms_min: 1.21196/time_ms: 1.25811, time_ms_min: 1.22003/" tests/fixtures/results-small.yaml >$TMP/small-run2.yaml
args: figure ablation tests/fixtures/results-small.yaml tests/fixtures/results-nometrics.yaml --repeat $TMP/small-run2.yaml -o $TMP/abl.svg
needs: render
exit: 0
file: $TMP/abl.svg
