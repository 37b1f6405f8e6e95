# a key twice in a template is refused with both places (YAML would keep one silently)
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/duplicate-key.yaml -o $TMP/dk.pdf
exit: 2
stderr: duplicate-key.yaml:10:9: key 'height' appears twice in the same mapping (first at line 9)
