# JAX calls are timed by their kernels' sum under profiling (time source
# kernels): the calls table's note says so for both passes, each captured
# time beside attnprof's CUDA-event medians carries †, and the caveats
# that hold for these records are printed (unchecked calls, kernel-sum
# times, a capture header without library versions)
args: report experiments/results/capture/capture-jax.yaml experiments/results/fa2-paper.yaml -t templates/impl-review.yaml -o $TMP/j.md -q
needs: render
exit: 0
check: grep -q "time: the calls' range (forward: the sum of the kernel durations under profiling; backward: the sum of the kernel durations under profiling)" $TMP/j.md
check: grep -q "| jax-xla | 0.730 † | 94 |" $TMP/j.md
check: grep -q "or († in the time column) the sum of the call's kernel durations under profiling" $TMP/j.md
check: grep -q "^- Times marked † (time source \`kernels\`" $TMP/j.md
check: grep -q "^- Not every call was checked against fp64" $TMP/j.md
check: grep -q "^- Not every capture header names the program's library versions" $TMP/j.md
check: ! grep -q "median of unprofiled re-runs between CUDA events; backward" $TMP/j.md
