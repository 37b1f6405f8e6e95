# the review's "Few runs" caveat counts, per results file, the timed records
# measured in more than one run and the timed launches of a median, from the
# records (it said "the rest of the prefill and decode sweeps were run once
# (medians of 20–30 timed launches)" while the Hopper sweep had a repeat run)
setup: ./attnprof report experiments/results/decode.yaml -t templates/review.yaml -o $TMP/one.md -q
args: report experiments/results/ablation.yaml experiments/results/decode.yaml --repeat experiments/results/repeats/ablation-run2.yaml -t templates/review.yaml -o $TMP/r.md -q
needs: render
exit: 0
check: grep -q "none of decode.yaml's 44 timed records were. Every other record ran once, its time the median of 30 timed launches" $TMP/one.md
check: grep -q "(another results file or a repeat run): none of decode.yaml's 44 and 35 of ablation.yaml's 36 timed records were. Every other record ran once, its time the median of 20–30 timed launches" $TMP/r.md
check: ! grep -q "sweeps were run once" $TMP/r.md
