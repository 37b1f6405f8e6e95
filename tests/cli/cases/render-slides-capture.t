# the slides with a captured program among their inputs: a slide of the captured
# implementations beside standard and flash2 (forward and backward), and one a captured
# implementation whose title states the measured verdict; every slide has its notes
# (the verdict, the grid reading and the traffic against the references); the
# standard record of the newer file (capture-reference.yaml) is drawn
args: report tests/fixtures/results-small.yaml tests/fixtures/capture-small.yaml tests/fixtures/capture-reference.yaml -t templates/slides.yaml -o $TMP/sc.pdf -q && pdftotext $TMP/sc.pdf - | tr '\n' ' ' && tr '\n' ' ' <$TMP/sc.notes.txt
needs: render
exit: 0
stdout: A captured program's attention, beside standard and flash2 at the same shapes sdpa-flash  sdpa-math  odd-kernel  attnprof standard  attnprof flash2
stdout: sdpa-flash, captured: S, P not stored
stdout: sdpa-math, captured: S and P stored
stdout: mystery, captured: unknown
stdout: Backward: the captured calls beside standard's and flash2's backward sdpa-flash  attnprof standard  attnprof flash2
stdout: — sdpa-flash, captured: S, P not stored What is no longer stored, by the rule each call states: Forward prefill, N = 4k (2 calls): S, P not stored
stdout: grid 32 × 4 × 16 = ⌈N/128⌉ × B × H: sequence-parallel over query blocks
stdout: attnprof's standard moved 10.2 GiB at the same shape
stderr: synthetic test fixture
check: "$bin" lint $TMP/sc.pdf
