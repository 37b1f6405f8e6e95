# a whole file as tools/sdpa_reference.py writes it reads with no warning
args: export tests/fixtures/results/sdpa-written.yaml --csv
exit: 0
not-stderr: warning
check: [ $(wc -l < $TMP/out) = 4 ]
