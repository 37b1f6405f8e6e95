# a caveat is printed only where its condition holds: llama-generate's calls
# are all timed by CUDA events, all checked, and its header names the
# libraries, so neither the kernel-sum, the unchecked nor the missing-version
# caveat appears, no time carries †, and no backward timing is described
# for a program without backward calls
args: report experiments/results/capture/capture-llama.yaml experiments/results/fa2-paper.yaml experiments/results/decode.yaml -t templates/impl-review.yaml -o $TMP/l.md -q
needs: render
exit: 0
check: ! grep -q "†" $TMP/l.md
check: ! grep -q "Not every" $TMP/l.md
check: ! grep -q "are not in the capture header" $TMP/l.md
check: grep -q "time: the calls' range (forward: median of unprofiled re-runs between CUDA events). verdict" $TMP/l.md
# the prefill call's DRAM writes were 0: no "0.0× their DRAM writes", the
# sentence says why there is no ratio
check: ! grep -q "0.0× their DRAM writes" $TMP/l.md
check: grep -q "Its kernels wrote 6.01 MiB through the L2 and no byte to DRAM during the call, so there is no ratio of the two" $TMP/l.md
