# the patent description's paged-cache paragraph (has:paged, a synthetic
# fixture): the paged step against the contiguous cache and the block
# table's share of the bytes, read from the decode-paged table
args: report tests/fixtures/results-paged.yaml -t templates/patent.yaml -o $TMP/x.md -q && cat $TMP/x.md
needs: render
exit: 0
stdout: a decoding step runs at 0.95× to 0.98× the speed of the same step on a contiguous cache; the entries of the block table are at most 0.049 % of the bytes a step reads.
