# captured calls at timing.tflops 1e308: the patent's bar graphs mark them "off scale" (the bar's top × 1.05
# was inf and the hatch loop never ended); every hatch loop is bounded by what is visible
needs: render
args: report tests/fixtures/capture/tflops-huge.yaml tests/fixtures/capture-reference.yaml -t templates/patent.yaml -o $TMP/p.pdf -q
exit: 0
check: pdftotext $TMP/p.pdf - | grep -q 'off scale'
