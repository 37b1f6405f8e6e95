# a 255-byte output name (NAME_MAX) is written: the temporary name is cut to fit, and the layout beside
# it (which would be 258 bytes) ends with a hash of the name, where lint finds it ("File name too long")
needs: render
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/$(printf '%0251d' 0).pdf -q
exit: 0
file: $TMP/$(printf '%0251d' 0).pdf
check: ls $TMP | grep -q '^0*-[0-9a-f]\{16\}\.layout$'
check: ./attnprof lint $TMP/$(printf '%0251d' 0).pdf
