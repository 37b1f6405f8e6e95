# each rung's loop from the descriptor's schedule table, labelled as the
# implemented schedule, with the measured time and step from the ladder table
needs: render
args: figure ws-timeline experiments/results/hopper.yaml --n 4096 --batch 4 -o $TMP/tl.pdf && pdftotext $TMP/tl.pdf -
exit: 0
stdout: not a measured trace
stdout: TMA (inline)
stdout: TMA (producer)
stdout: tensor cores
stdout: consumer 2
stdout: measured 1.348 ms, step ×1.17 over flash2
stdout: measured 0.881 ms, step ×1.53 over hopper+wgmma
stdout: measured 0.853 ms, step ×1.01 over hopper+pingpong
