# the deck with a captured program recorded with --workload on: a slide titled with attention's share
# and the 2x bound (the header's) draws workload-share; its share line gives way to the short form on
# the slide's width (lint: nothing outside the margins)
args: report tests/fixtures/capture-workload.yaml tests/fixtures/results-small.yaml -t templates/slides.yaml -o $TMP/sw.pdf -q && ./attnprof lint $TMP/sw.pdf && pdftotext $TMP/sw.pdf - | tr '\n' ' '
needs: render
exit: 0
stdout: Attention is 97.6 % of the captured program's GPU time: 2× faster attention, at most 1.95× end to end
stdout: attention 97.6 %; 2× faster attention: at most 1.95×
