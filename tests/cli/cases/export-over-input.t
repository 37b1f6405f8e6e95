# export does not write over its input (it replaced the results file with CSV and exited 0)
setup: cp tests/fixtures/results-small.yaml $TMP/in.yaml
args: export $TMP/in.yaml --csv -o $TMP/in.yaml
exit: 2
stderr: refusing to write
stderr: it is the results file this command reads
check: cmp tests/fixtures/results-small.yaml $TMP/in.yaml
