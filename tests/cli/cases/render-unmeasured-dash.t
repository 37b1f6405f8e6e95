# nothing measured is "–" with its footnote, never "0 B": a captured
# backward call whose memory the helper did not measure (footprint -1, peak
# 0), and a reference series that records no allocations (their sum)
args: report experiments/results/capture/capture-sdpa.yaml experiments/results/fa2-paper.yaml -t templates/impl-review.yaml -o $TMP/s.md -q
needs: render
exit: 0
check: grep -q "^| B=16 H=16 N=1k d=128 | sdpa-flash | 1.495 | 230 | 1.67 GiB | – | 28.0 % | 35 % | dS, dP not stored |" $TMP/s.md
check: grep -q "; – where nothing was measured (the helper measures the memory of the calls it re-runs" $TMP/s.md
check: ./attnprof report experiments/results/fa2-paper.yaml -t templates/review.yaml -o $TMP/f.md -q && grep -q "^| SDPA FLASH\\\\_ATTENTION | not recorded | – | 449 MiB |" $TMP/f.md && grep -q "; – where a run recorded no allocations" $TMP/f.md
