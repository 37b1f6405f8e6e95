# a slide build: step 2 draws +tma+ws beside +wgmma, and no later rung
needs: render
args: figure ws-timeline experiments/results/hopper.yaml --n 4096 --batch 4 --step 2 -o $TMP/tl.pdf && pdftotext $TMP/tl.pdf -
exit: 0
stdout: step 2
stdout: hopper+wgmma
stdout: hopper+tma+ws
not-stdout: hopper+pingpong
not-stdout: measured 0.853
