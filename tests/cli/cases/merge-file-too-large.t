# a write past the file-size limit (ulimit -f) is "File too large", exit 1, no temporary left: SIGXFSZ killed
# merge, export and report silently and left .NAME.tmp.* behind (the limited runs are the checks; args is the unlimited merge)
setup: rm -rf $TMP/xfsz; mkdir $TMP/xfsz $TMP/xfsz/m $TMP/xfsz/e $TMP/xfsz/r
args: merge tests/fixtures/shards/whole.yaml -o $TMP/xfsz/whole.yaml
exit: 0
check: sh -c 'ulimit -f 4; exec "$0" merge tests/fixtures/shards/whole.yaml -o $1/m/m.yaml' "$bin" $TMP/xfsz 2>$TMP/xfsz/err; [ $? = 1 ] && grep -q "cannot write '.*m.yaml': File too large" $TMP/xfsz/err && [ -z "$(ls -A $TMP/xfsz/m)" ]
check: sh -c 'ulimit -f 4; exec "$0" export tests/fixtures/shards/whole.yaml --yaml -o $1/e/e.yaml' "$bin" $TMP/xfsz 2>$TMP/xfsz/err; [ $? = 1 ] && grep -q "e.yaml'.*File too large" $TMP/xfsz/err && [ -z "$(ls -A $TMP/xfsz/e)" ]
