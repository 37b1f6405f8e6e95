# a format-1 file has no end marker: cut between two records it reads as
# complete, and merge wrote a format-2 file whose end marker vouched for it;
# merge says so on stderr and in the merged file's header.notes
setup: L=$(grep -n '^  - source' tests/fixtures/results-export.yaml | tail -1 | cut -d: -f1) && head -n $((L - 1)) tests/fixtures/results-export.yaml >$TMP/f1-between.yaml
args: merge $TMP/f1-between.yaml -o $TMP/f1-between-merged.yaml
exit: 0
stderr: f1-between.yaml is format 1 (attnprof-results/1), which marks no end: a cut between two of its records cannot be seen
check: tr -s ' \n' '  ' <$TMP/f1-between-merged.yaml | grep -q 'f1-between.yaml is format 1, which marks no end: its 2 records were read whole, but a cut between two records cannot be seen'
# a format-2 file says nothing of it
check: "$bin" merge tests/fixtures/shards/whole.yaml -o $TMP/f2-merged.yaml 2>$TMP/f2.err && ! grep -q 'marks no end' $TMP/f2.err $TMP/f2-merged.yaml
