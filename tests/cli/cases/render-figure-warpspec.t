# the warp-specialised thread block drawn from the descriptor: roles, the
# setmaxnreg split (hopper_tiles.h through the ws trait), the ring and who
# waits on which barrier, and the launch the record measured
needs: render
args: figure warpspec experiments/results/hopper.yaml --n 4096 --batch 4 -o $TMP/ws.pdf && pdftotext $TMP/ws.pdf -
exit: 0
stdout: producer warpgroup: 128 threads
stdout: 24 registers each (setmaxnreg)
stdout: consumer warpgroup 2: rows 64–127
stdout: 240 registers each (setmaxnreg)
stdout: K stage 1
stdout: producer waits: empty
stdout: consumers wait: full
stdout: 8 warps arrive: empty
stdout: measured launch: 384 threads, 168 registers a thread
