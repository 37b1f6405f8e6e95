# a cut exactly between records is seen: the end marker is missing
args: export tests/fixtures/results/cut/at-boundary.yaml --csv
exit: 0
stderr: is cut short (no end marker after record 1
check: [ $(wc -l < $TMP/out) = 2 ]
