# a captured program recorded with --workload on (header.workload: 10 kernels kept, 1 dropped)
# gets the summary's sentence with the header's share and Amdahl bound and the section with the
# workload-share figure: one training step (forward and backward attention kernels), the share;
# render-impl-review.t: neither without the list
args: report tests/fixtures/capture-workload.yaml -t templates/impl-review.yaml -o $TMP/wl.pdf -q && pdftotext $TMP/wl.pdf - | tr '\n' ' '
needs: render
exit: 0
stdout: Attention took 97.6 % of the program's GPU time: an attention 2× faster makes the whole program at most 1.95× faster
stdout: The whole program's GPU time
stdout: training step
stdout: attention 97.6 % of the GPU time; an attention 2× faster makes the program at most 1.95× faster (Amdahl)
stdout: 1 kernel past the list's bounds not drawn
stdout: the program: 10 kernels, 1.180 ms of GPU time
