# JAX calls are timed by their kernels' sum under profiling (time source
# kernels): the calls table's note says so for both passes, each captured
# time beside attnprof's CUDA-event medians carries †, and the caveats
# that hold for these records are printed (unchecked calls, kernel-sum
# times, a capture header without library versions); the tables' notes name
# no CUDA-event median, which no captured call here has (attnprof lint's
# time-label rule found the notes' 'median of unprofiled re-runs between
# CUDA events, or (†) the sum …'), and 'timed by the' reads no 'the the'
# (capture_timing's kernels-only text has no article)
args: report experiments/results/capture/capture-jax.yaml experiments/results/fa2-paper.yaml -t templates/impl-review.yaml -o $TMP/j.md -q
needs: render
exit: 0
check: grep -q "time: the calls' range (forward: sum of the kernel durations under profiling; backward: sum of the kernel durations under profiling)" $TMP/j.md
check: grep -q "| jax-xla | 0.730 † | 94 |" $TMP/j.md
check: grep -q "time: captured, († in the time column) the sum of the call's kernel durations under profiling (time source kernels); attnprof" $TMP/j.md
check: grep -q "A captured backward call is timed by the sum of the kernel durations under profiling (the table's note says which call how)" $TMP/j.md
check: ! grep -q "median of unprofiled re-runs between CUDA events, or" $TMP/j.md
check: grep -q "^- Times marked † (time source \`kernels\`" $TMP/j.md
check: grep -q "^- Not every call was checked against fp64" $TMP/j.md
check: grep -q "^- Not every capture header names the program's library versions" $TMP/j.md
check: ! grep -q "median of unprofiled re-runs between CUDA events; backward" $TMP/j.md
