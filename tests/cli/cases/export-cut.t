# a cut results file keeps its complete records, with a warning
args: export tests/fixtures/results-cut.yaml --csv
exit: 0
stderr: is cut short
stdout: flash2
