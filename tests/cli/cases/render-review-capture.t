# the review with a captured program among its inputs (the fixture capture beside
# the small fixture and the capture's reference fixture): the captured implementations
# get their own data-flow and partition sections (verdict and grid from measurement),
# and the speed section puts their forward and backward calls beside standard and flash2
args: report tests/fixtures/results-small.yaml tests/fixtures/capture-small.yaml tests/fixtures/capture-reference.yaml --primary tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/rc.pdf -q && pdftotext $TMP/rc.pdf - | tr '\n' ' '
needs: render
exit: 0
stdout: A captured program. Beside attnprof's own kernels
stdout: Data flow and partition: sdpa-flash, captured
stdout: Data flow and partition: sdpa-math, captured
stdout: What is no longer stored: Forward prefill, N = 4k (2 calls): S, P not stored
stdout: Forward prefill, N = 4k (1 call): S and P stored
stdout: grid 32 × 4 × 16 = ⌈N/128⌉ × B × H: sequence-parallel over query blocks
stdout: grid 7 × 3: mapping not inferred
stdout: Captured implementations beside attnprof's references. shape
stdout: sdpa-flash  1.560  352  267 MiB
stdout: sdpa-math  21.900  25
stdout: Captured implementations beside attnprof's references. Backward calls.
stdout: 4.700 †  292  1.20 GiB
stdout: attnprof standard  3.900  352
stdout: attnprof flash2  5.840  235
stdout: Captured calls are profiled inside their program
stderr: synthetic test fixture
file: $TMP/rc.pdf
