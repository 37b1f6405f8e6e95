# variant: $v outside each_variant is an error at its line (it drew the default variant into fig01-dataflow-$v.svg)
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/variant-v-outside.yaml -o $TMP/t.pdf -q
exit: 2
stderr: tests/fixtures/templates/variant-v-outside.yaml:9:
stderr: '$v' is only defined inside a section with each_variant
