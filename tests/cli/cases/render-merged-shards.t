# the merged shards render the single run's document: the same HTML and figures, byte for byte
needs: render
setup: mkdir -p $TMP/rm1 $TMP/rm2 && "$bin" merge tests/fixtures/shards/tiny.shard-3-of-3.yaml tests/fixtures/shards/tiny.shard-1-of-3.yaml tests/fixtures/shards/tiny.shard-2-of-3.yaml -o $TMP/rm1/tiny.yaml 2>/dev/null && cp tests/fixtures/shards/whole.yaml $TMP/rm2/tiny.yaml
args: report $TMP/rm1/tiny.yaml -t templates/review.yaml -o $TMP/rm1/review.html
exit: 0
check: "$bin" report $TMP/rm2/tiny.yaml -t templates/review.yaml -o $TMP/rm2/review.html && cmp $TMP/rm1/review.html $TMP/rm2/review.html && diff -r $TMP/rm1/review_files $TMP/rm2/review_files
