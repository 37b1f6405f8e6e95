# the slides' take-aways come from the records, per pass and phase: forward
# and backward against SDPA FLASH and cuDNN, the top Hopper rung against
# flash2 (one run) and cuDNN (across runs), decode's split-KV by its
# speed-up; a bullet whose records are absent is not printed (decode.yaml
# alone: no "n/a" prefill bullet, no library slide), and the fixed
# "Attention is limited by HBM traffic" (flash2 at 347 TFLOP/s moves 246 MiB)
# and the notes' fixed "20 timed launches" are gone
setup: ./attnprof report experiments/results/decode.yaml -t templates/slides.yaml -o $TMP/dec.md -q
setup: sed 's/^\( *\)repetitions: 20$/\1repetitions: 25/' experiments/results/hopper.yaml >$TMP/hopper.yaml
args: report experiments/results/fa2-paper.yaml $TMP/hopper.yaml --primary experiments/results/fa2-paper.yaml -t templates/slides.yaml -o $TMP/s.pdf -q
needs: render
exit: 0
check: pdftotext $TMP/s.pdf - | tr '\n' ' ' | grep -q "Forward: flash2 runs at 1.01× of SDPA FLASH's speed and 0.54× of *cuDNN's"
check: pdftotext $TMP/s.pdf - | tr '\n' ' ' | grep -q "Backward: flash2 at 0.81× of standard attention's speed, 0.96× of *SDPA FLASH's, 0.53× of cuDNN's"
check: pdftotext $TMP/s.pdf - | tr '\n' ' ' | grep -q "There the top rung runs at 1.00× (across runs: hopper, fa2-paper) of *cuDNN's speed"
check: ! pdftotext $TMP/s.pdf - | grep -q "Attention is limited by HBM traffic"
check: grep -q "the 25 timed launches of +tma+ws alone" $TMP/s.notes.txt
check: grep -q "Decode needs its own partition: split-KV is 8.35× faster than decode-flash2 at batch 1, 64k" $TMP/dec.md
check: ! grep -q "n/a flash1" $TMP/dec.md
check: ! grep -q "beside the libraries" $TMP/dec.md
