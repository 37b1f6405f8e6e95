# identities are tuples: (lib, v/w) and (lib/v, w) at one shape are two configs (the key joined them with
# '/', so merge kept one and dropped the other as a duplicate)
setup: f=tests/fixtures/results-one.yaml; { sed -n '1,/^records:/p' $f; sed -n '/^  - source/,/^    end:/p' $f | sed 's/source: attnprof/source: lib/; s/variant: .*/variant: v\/w/'; sed -n '/^  - source/,/^    end:/p' $f | sed 's/source: attnprof/source: lib\/v/; s/variant: .*/variant: w/; s/^    end: 1/    end: 2/'; echo 'end: {records: 2}'; } >$TMP/tuple.yaml
args: merge $TMP/tuple.yaml -o $TMP/tuple-merged.yaml
exit: 0
stderr: 2 records
check: "$bin" export $TMP/tuple-merged.yaml --csv | grep -q '^lib,v/w,'
check: "$bin" export $TMP/tuple-merged.yaml --csv | grep -q '^lib/v,w,'
