# after '--' every argument is a file, even one whose name starts with '-'
# ('lint -- -x.pdf' said "unknown option '--'"); '-- --help' is a file too
args: lint -- -lint-dd-nonexistent.pdf
exit: 2
stderr: cannot read the layout record '-lint-dd-nonexistent.layout'
not-stderr: unknown option
check: "$bin" lint -- --help >$TMP/lint-dd.out 2>$TMP/lint-dd.err; test $? = 2 && ! grep -q 'usage' $TMP/lint-dd.out && grep -q "render '--help' again" $TMP/lint-dd.err
