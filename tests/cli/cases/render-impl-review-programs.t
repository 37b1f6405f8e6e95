# issue 27 item 5: a review of two captured programs says what each ran and how
# each call was found: one sentence per program (its command, how it ended), and
# the origins of the calls drawn with their counts (XLA's ranges through the JAX
# helper; the kernel-family scan), not the SDPA helper's sentence for all
args: report experiments/results/capture/capture-jax.yaml experiments/results/capture/capture-unmarked.yaml -t templates/impl-review.yaml -o $TMP/two.pdf -q && pdftotext $TMP/two.pdf - | tr '\n' ' ' | tr -s ' '
needs: render
exit: 0
stdout: The program python3 experiments/programs/jax_attention.py --seqlens 1024,4096 --iters 2 ran under
stdout: The program python3 experiments/programs/unmarked_attention.py ran under
stdout: XLA's own NVTX range of each operation, named through the helper's jax.named_scope
stdout: a launch, outside any range, of a kernel the family table names as attention by itself (record --scan)
not-stdout: around PyTorch's scaled_dot_product_attention
file: $TMP/two.pdf
