# Table 1 (conditions) cut a header's notes at the table cell's 240 bytes: fa2-paper.yaml's two
# notes of the SDPA references read '… backend CUDNN_ATTENTION, CUDA events, clock set'; a long
# value goes on over rows of its own (a row per note, a long line broken between words), whole
needs: render
args: report experiments/results/fa2-paper.yaml -t templates/review.yaml -o $TMP/c.md -q
exit: 0
file: $TMP/c.md
check: grep -qF '| notes | pytorch-sdpa records: torch 2.11.0+cu130, backend FLASH\_ATTENTION, CUDA events, clock settled, then 5 warm-up + 30 timed launches, torch.randn inputs |' $TMP/c.md
check: grep -qF '|  | pytorch-sdpa records: torch 2.11.0+cu130, backend CUDNN\_ATTENTION, CUDA events, clock settled, then 5 warm-up + 30 timed launches, torch.randn inputs |' $TMP/c.md
# one note of 300 bytes on one line: broken at the last space that fits, the rest on the next row
setup: sed 's|^  notes: "synthetic test fixture, not a measurement:|  notes: "synthetic test fixture, not a measurement: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa endword|' tests/fixtures/results-small.yaml > $TMP/long.yaml
check: ./attnprof report $TMP/long.yaml -t templates/review.yaml -o $TMP/l.md -q && grep -qF '|  | GPU-NOTES.md, written by tests/fixtures/results-fixtures.py |' $TMP/l.md
