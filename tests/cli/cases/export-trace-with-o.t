# --trace names its own output: -o beside it is refused, nothing written
args: export tests/fixtures/results-export.yaml --trace $TMP/tro.json -o $TMP/o.json
exit: 2
stderr: --trace names its own output: drop -o
check: [ ! -e $TMP/tro.json ] && [ ! -e $TMP/o.json ]
