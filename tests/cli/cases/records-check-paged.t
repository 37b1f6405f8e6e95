# records-check over paged and ragged decode records: their identity carries
# the KV cache (layout, page size, distribution, seed) as record_key does, so
# every value of the review over them is its record (a checker without it
# saw the paged record at B=1, 16k as the contiguous key and failed 18 lines)
args: report tests/fixtures/results-paged.yaml -t templates/review.yaml -o $TMP/t.pdf -q --trace-records $TMP/t.trace
needs: render
exit: 0
check: python3 tests/records-check.py "$bin" $TMP/t.trace tests/fixtures/results-paged.yaml | tail -1 | grep -q '; 0 wrong$'
check: grep -q 'paged16/long-tail3' $TMP/t.trace
