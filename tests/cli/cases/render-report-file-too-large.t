# a report past the file-size limit (ulimit -f) is "File too large", exit 1, no temporary left (SIGXFSZ killed it, .NAME.tmp.* left)
needs: render
setup: rm -rf $TMP/xfszr; mkdir $TMP/xfszr $TMP/xfszr/r
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/xfszr/ok.pdf -q
exit: 0
check: sh -c 'ulimit -f 4; exec "$0" report tests/fixtures/results-small.yaml -t templates/review.yaml -o $1/r/r.pdf -q' "$bin" $TMP/xfszr 2>$TMP/xfszr/err; [ $? = 1 ] && grep -q "r.pdf': File too large" $TMP/xfszr/err && [ -z "$(ls -A $TMP/xfszr/r)" ]
