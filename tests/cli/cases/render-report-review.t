# the review renders from the fixture, with the synthetic warning
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/review.pdf -q
needs: render
exit: 0
stderr: synthetic test fixture
stderr: wrote
file: $TMP/review.pdf
