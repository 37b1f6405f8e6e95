# figure takes several results files and --repeat too
args: figure ablation tests/fixtures/results-small.yaml tests/fixtures/results-nometrics.yaml --repeat tests/fixtures/results-small.yaml -o $TMP/abl.svg
needs: render
exit: 0
file: $TMP/abl.svg
