# The patent's warp-specialised thread block (hopper+overlap: one producer, two consumer warp
# groups) put the numerals 'consumer warp group' and 'registers of a consumer warp group' on
# the first consumer only, the second bore none (issue 47 item 7, 'patent FIG. 10's second
# consumer numeral'): each consumer group carries both, so each numeral is drawn twice
needs: render
args: report experiments/results/hopper.yaml -t templates/patent.yaml -o $TMP/wscons.pdf -q
exit: 0
file: $TMP/wscons.layout
check: pdftotext -layout $TMP/wscons.pdf $TMP/wscons.txt
check: n=$(sed -n 's/^\([0-9]*\) — consumer warp group$/\1/p' $TMP/wscons.txt); [ -n "$n" ] && [ "$(awk -v n=$n '$1=="text" && $4=="numeral" && $NF==n' $TMP/wscons.layout | wc -l)" -eq 2 ]
check: n=$(sed -n 's/^\([0-9]*\) — registers of a consumer warp group$/\1/p' $TMP/wscons.txt); [ -n "$n" ] && [ "$(awk -v n=$n '$1=="text" && $4=="numeral" && $NF==n' $TMP/wscons.layout | wc -l)" -eq 2 ]
