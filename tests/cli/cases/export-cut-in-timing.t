# a record cut inside a number of its timing (0.34256 -> 0.3) is dropped and the cut named;
# the Python writer puts error before timing, so "error is the last key" could not see it
args: export tests/fixtures/results/cut/in-timing.yaml --csv
exit: 0
stderr: is cut short (record 2, at line 235, is incomplete): kept its 1 complete record
stdout: attnprof,standard
check: [ $(wc -l < $TMP/out) = 2 ]
