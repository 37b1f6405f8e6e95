# a format-1 file cut inside a record is refused too (merge wrote a valid format-2 file and the cut vanished)
setup: head -c 6000 tests/fixtures/capture-small.yaml >$TMP/cut-f1.yaml
args: merge $TMP/cut-f1.yaml -o $TMP/cut-f1-merged.yaml
exit: 2
stderr: cut-f1.yaml is cut short
stderr: merge refuses a cut input
check: test ! -e $TMP/cut-f1-merged.yaml
