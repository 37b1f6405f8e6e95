# export needs a format
args: export tests/fixtures/results-export.yaml
exit: 2
stderr: export needs --csv, --json, --yaml or --trace FILE
