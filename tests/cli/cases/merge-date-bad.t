# an unparsable header date is an error at its place, never the newest ('zzz' sorted after every real date)
setup: sed 's/^  date: .*/  date: zzz/' tests/fixtures/shards/tiny.shard-2-of-3.yaml >$TMP/zzz.yaml
args: merge $TMP/zzz.yaml tests/fixtures/shards/tiny.shard-2-of-3.yaml -o $TMP/datebad.yaml
exit: 2
stderr: zzz.yaml:4:9: header.date must be an RFC 3339 date and time
stderr: not 'zzz'
check: test ! -e $TMP/datebad.yaml
