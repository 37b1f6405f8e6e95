# the review of a captured program (fixture: four implementations, one with its
# shape unknown, one whose grid 7 × 3 does not factor) beside reference records:
# the extracted text carries the verdicts, the inferred mapping and its rule,
# and "not inferred" where the grid does not factor or the shape is unknown
args: report tests/fixtures/capture-small.yaml tests/fixtures/capture-reference.yaml -t templates/impl-review.yaml -o $TMP/impl.pdf -q && pdftotext $TMP/impl.pdf - | tr '\n' ' '
needs: render
exit: 0
stdout: The program python3 fixture_program.py ran under attnprof record -o
stdout: Implementation sdpa-flash
stdout: Implementation sdpa-math
stdout: Implementation odd-kernel
stdout: Implementation mystery
stdout: Forward prefill, N = 4k (2 calls): S, P not stored — the largest write of one kernel to DRAM was
stdout: Forward prefill, N = 4k (1 call): S and P stored
stdout: grid 32 × 4 × 16 = ⌈N/128⌉ × B × H: sequence-parallel over query blocks
stdout: each block owns 128 query rows of one (batch, head)
stdout: grid 7 × 3: mapping not inferred
stdout: grid 7 × 3 is not a product of B = 2, H = 8
stdout: the call's shape is unknown, so the grid cannot be read against it
stdout: Forward (phase unknown), shape unknown (1 call): no verdict
stdout: attnprof standard
stdout: S and P stored
stdout: References missing at the captured shapes
stdout: B=2 H=8 N=8k d=64 prefill
stderr: synthetic test fixture
file: $TMP/impl.pdf
not-stdout: Counted in one window
not-stdout: The whole program's GPU time
not-stdout: Attention took
