# a captured implementation's name of 120 bytes of UTF-8 is refused at its file:line, with the limit (a series
# key cut it inside a character: the report failed with "input string not valid UTF-8" or Pango's warnings)
needs: render
args: report tests/fixtures/capture/name-utf8-long.yaml tests/fixtures/capture-reference.yaml -t templates/impl-review.yaml -o $TMP/u.pdf -q
exit: 2
stderr: name-utf8-long.yaml:13:
stderr: a series name takes at most 95
not-stderr: Pango
