# a record cut inside correct: (false -> fal) is dropped, not read as correct=false
args: export tests/fixtures/results/cut/in-correctness.yaml --csv
exit: 0
stderr: is cut short (record 2, at line 235, is incomplete)
check: [ $(wc -l < $TMP/out) = 2 ]
