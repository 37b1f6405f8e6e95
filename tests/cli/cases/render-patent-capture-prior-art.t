# patent-with-capture: the views of captured computations (implementations that exist in the
# libraries another program ran: SDPA's backends, cuDNN, FlexAttention) carried no "Prior Art"
# legend, while the conventional computation's view did (MPEP 608.02(g)); every captured
# data-flow and grid view carries it: 1 + 2 × the fixture's 4 captured implementations; the
# throughput bar graphs, which draw the second tiled computation too, do not
needs: render
args: report tests/fixtures/results-small.yaml tests/fixtures/capture-small.yaml tests/fixtures/capture-reference.yaml --primary tests/fixtures/results-small.yaml -t templates/patent.yaml -o $TMP/p.pdf -q
exit: 0
file: $TMP/p.pdf
check: test "$(pdftotext $TMP/p.pdf - | grep -c 'Prior Art')" -eq 9
check: ./attnprof lint $TMP/p.pdf
