# the reader refuses the impossible with its place: a negative byte count (it was read without a word)
setup: sed 's/dram__bytes_read.sum: 2.05353e+08, dram__bytes_write/dram__bytes_read.sum: -2e8, dram__bytes_write/' tests/fixtures/results-one.yaml >$TMP/imp-negative-bytes.yaml
args: export $TMP/imp-negative-bytes.yaml --csv
exit: 2
stderr: imp-negative-bytes.yaml:29:38: metrics.totals.dram__bytes_read.sum = -2e8 is impossible
