# 5000 × "not" in a when: condition is a loop, not a recursion (it overflowed the stack)
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/when-deep-not.yaml -o $TMP/not.pdf -q
exit: 0
file: $TMP/not.pdf
