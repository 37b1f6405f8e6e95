# The review's forward TFLOP/s figure (Fig. 13) draws flash1 at 1-5 % of its axis, bars a reader
# did not find (issue 47 item 7, 'flash1 visible in the review's Fig. 13'); its caption names
# flash1's range from the records and where its bars are
needs: render
args: report experiments/results/fa2-paper.yaml -t templates/review.yaml -o $TMP/f1cap.md -q
exit: 0
file: $TMP/f1cap.md
check: grep -qF "flash1, at 2.67 TFLOP/s to 34.4 TFLOP/s over its forward records, is the short bar beside standard's" $TMP/f1cap.md
