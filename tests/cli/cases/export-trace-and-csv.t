# --trace and --csv exclude each other
args: export tests/fixtures/results-export.yaml --trace $TMP/t.json --csv
exit: 2
stderr: --csv, --json, --yaml and --trace exclude each other
