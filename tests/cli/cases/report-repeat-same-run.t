# --repeat of a results file itself, of a hard link or symbolic link to it,
# or of a copy (byte-identical, or re-dated: the same records and times) is
# not a second run: refused, never "repeat run: A" (issue 48 item 10)
setup: mkdir -p $TMP/rep && cp tests/fixtures/results-small.yaml $TMP/rep/a.yaml && ln -f $TMP/rep/a.yaml $TMP/rep/hard.yaml && ln -sf a.yaml $TMP/rep/sym.yaml && cp $TMP/rep/a.yaml $TMP/rep/copy.yaml && sed 's/^  date: .*/  date: 2031-05-05T05:05:05Z/' $TMP/rep/a.yaml >$TMP/rep/redated.yaml && ! cmp -s $TMP/rep/a.yaml $TMP/rep/redated.yaml
setup: sed "s/time_ms: 1.24945, time_ms_min: 1.21196/time_ms: 1.25811, time_ms_min: 1.22003/" $TMP/rep/a.yaml >$TMP/rep/run2.yaml
args: report $TMP/rep/a.yaml --repeat $TMP/rep/hard.yaml -t templates/readme.yaml -o $TMP/rep/o.md -q
exit: 2
stderr: --repeat '
stderr: hard.yaml' is '
stderr: (the same file)
not-stderr: wrote
check: test ! -e $TMP/rep/o.md
check: "$bin" report $TMP/rep/a.yaml --repeat $TMP/rep/a.yaml -t templates/readme.yaml -o $TMP/rep/o.md -q 2>$TMP/rep/e1; test $? = 2 && grep -q "(the same file)" $TMP/rep/e1
check: "$bin" report $TMP/rep/a.yaml --repeat $TMP/rep/sym.yaml -t templates/readme.yaml -o $TMP/rep/o.md -q 2>$TMP/rep/e2; test $? = 2 && grep -q "(the same file)" $TMP/rep/e2
check: "$bin" report $TMP/rep/a.yaml --repeat $TMP/rep/copy.yaml -t templates/readme.yaml -o $TMP/rep/o.md -q 2>$TMP/rep/e3; test $? = 2 && grep -q "copy.yaml' holds the same recording as '.*a.yaml' (the same [0-9]* records, every time equal): a copy is not a second run" $TMP/rep/e3
check: "$bin" report $TMP/rep/a.yaml --repeat $TMP/rep/redated.yaml -t templates/readme.yaml -o $TMP/rep/o.md -q 2>$TMP/rep/e4; test $? = 2 && grep -q "redated.yaml' holds the same recording" $TMP/rep/e4
check: "$bin" report $TMP/rep/a.yaml --repeat $TMP/rep/run2.yaml --repeat $TMP/rep/copy.yaml -t templates/readme.yaml -o $TMP/rep/o.md -q 2>$TMP/rep/e5; test $? = 2 && grep -q "copy.yaml' holds the same recording as '.*a.yaml'" $TMP/rep/e5
check: "$bin" report $TMP/rep/a.yaml --repeat $TMP/rep/run2.yaml --repeat $TMP/rep/hard.yaml -t templates/readme.yaml -o $TMP/rep/o.md -q 2>$TMP/rep/e6; test $? = 2 && grep -q "(the same file)" $TMP/rep/e6
check: "$bin" report $TMP/rep/a.yaml $TMP/rep/copy.yaml -t templates/readme.yaml -o $TMP/rep/o.md -q 2>$TMP/rep/e7; test $? = 2 && grep -q "one run given twice (a copy); give it once" $TMP/rep/e7
check: "$bin" report $TMP/rep/a.yaml $TMP/rep/hard.yaml -t templates/readme.yaml -o $TMP/rep/o.md -q 2>$TMP/rep/e8; test $? = 2 && grep -q "is given twice" $TMP/rep/e8
check: test ! -e $TMP/rep/o.md
check: "$bin" report $TMP/rep/a.yaml --repeat $TMP/rep/run2.yaml -t templates/readme.yaml -o $TMP/rep/o.md 2>$TMP/rep/e9 && grep -q "wrote" $TMP/rep/e9
