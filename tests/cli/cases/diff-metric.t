# diff --metric NAME: a counter base -> new with its ratio beside the time
setup: sed 's/dram__bytes_read.sum: 2.05353e+08/dram__bytes_read.sum: 4.10706e+08/g' tests/fixtures/results-one.yaml >$TMP/more-reads.yaml
args: diff tests/fixtures/results-one.yaml $TMP/more-reads.yaml --metric dram__bytes_read.sum --metric no.such.metric
exit: 0
stdout: within spread; dram__bytes_read.sum 2.05353e+08 -> 4.10706e+08 (2.000); no.such.metric: not recorded
check: "$bin" diff tests/fixtures/results-one.yaml $TMP/more-reads.yaml --metric dram__bytes_read.sum --csv | tail -1 | grep -q ',2.05353e+08,4.10706e+08,2$'
