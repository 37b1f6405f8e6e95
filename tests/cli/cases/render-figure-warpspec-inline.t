# the rung without a producer: two consumer warpgroups at the registers the
# launch measured, not re-split, and consumer 1's thread 0 issuing the loads
needs: render
args: figure warpspec experiments/results/hopper.yaml --variant hopper+wgmma --n 4096 --batch 4 -o $TMP/ws.pdf && pdftotext $TMP/ws.pdf -
exit: 0
stdout: thread block: 256 threads
stdout: TMA (its thread 0)
stdout: thread 0 waits: empty
stdout: not re-split
stdout: measured launch: 256 threads, 190 registers a thread
not-stdout: producer warpgroup
