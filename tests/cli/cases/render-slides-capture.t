# the slides with a captured program among their inputs: a slide of the captured
# implementations beside standard and flash2 (forward and backward) whose title names
# the fastest and its ratio to flash2, and one a captured implementation whose title
# states the measured verdict and its DRAM traffic against the one that stores S and P
# (that one: against flash2's; no traffic at the focus: the verdict alone), in the
# order of their first call; every slide has its notes (the verdict, the grid reading
# and the traffic against the references); results-small.yaml is --primary (the
# records capture-reference.yaml repeats are drawn from it, so the Summary's ratios
# are one run's), and a ratio of a captured call to attnprof's says it is across runs
args: report tests/fixtures/results-small.yaml tests/fixtures/capture-small.yaml tests/fixtures/capture-reference.yaml --primary tests/fixtures/results-small.yaml -t templates/slides.yaml -o $TMP/sc.pdf -q && pdftotext $TMP/sc.pdf - | tr '\n' ' ' && tr '\n' ' ' <$TMP/sc.notes.txt
needs: render
exit: 0
stdout: At N = 4k sdpa-flash is the fastest captured attention: 352 TFLOP/s, 1.16× faster (across runs: results-small, capture-small) than flash2 sdpa-flash  sdpa-math  odd-kernel  attnprof standard  attnprof flash2
stdout: sdpa-flash, captured: S, P not stored — 267 MiB of DRAM traffic against sdpa-math's 17.0 GiB
stdout: sdpa-math, captured: S and P stored — 17.0 GiB of DRAM traffic, 65.5× (across runs: results-small, capture-small) flash2's
stdout: odd-kernel, captured: S, P not stored
stdout: mystery, captured: unknown
stdout: Backward at N = 4k: sdpa-flash is the fastest captured, 1.24× faster (across runs: capture
stdout: — sdpa-flash, captured: S, P not stored — 267 MiB of DRAM traffic against sdpa-math's 17.0 GiB What is no longer stored, by the rule each call states: Forward prefill, N = 4k (2 calls): S, P not stored
stdout: grid 32 × 4 × 16 = ⌈N/128⌉ × B × H: sequence-parallel over query blocks
stdout: attnprof's standard moved 8.25 GiB at the same shape
stderr: synthetic test fixture
check: "$bin" lint $TMP/sc.pdf
