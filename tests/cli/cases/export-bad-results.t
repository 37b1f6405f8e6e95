# a bad results file: location and exit 2
args: export tests/fixtures/results/bad/type.yaml --csv
exit: 2
stderr: type.yaml:7:77: record.batch must be a whole number
