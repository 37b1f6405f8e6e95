# sm_count 2147483647 in a results header is refused (report grew to 24 GB)
needs: render
args: report tests/fixtures/results/bad/sm-count-huge.yaml -t templates/review.yaml -o $TMP/sm.pdf
exit: 2
stderr: sm-count-huge.yaml:5:
stderr: header.gpu.sm_count = 2147483647 is out of range (0 to 1024)
