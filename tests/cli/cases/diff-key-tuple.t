# diff keeps (lib, v/w) and (lib/v, w) apart: two configs in both files, not one compared with itself
setup: f=tests/fixtures/results-one.yaml; { sed -n '1,/^records:/p' $f; sed -n '/^  - source/,/^    end:/p' $f | sed 's/source: attnprof/source: lib/; s/variant: .*/variant: v\/w/'; sed -n '/^  - source/,/^    end:/p' $f | sed 's/source: attnprof/source: lib\/v/; s/variant: .*/variant: w/; s/^    end: 1/    end: 2/'; echo 'end: {records: 2}'; } >$TMP/dtuple.yaml
args: diff $TMP/dtuple.yaml $TMP/dtuple.yaml
exit: 0
stdout: 2 configs in both
stdout: lib/%3:v/w/
stdout: %5:lib/v/w/
