# export --trace of a file with header.workload: the program's processes, its kernels on their streams' tracks
args: export tests/fixtures/capture-workload.yaml --trace $TMP/wl-ok.json
exit: 0
file: $TMP/wl-ok.json
check: grep -q '"name":"process_name","pid":2,"args":{"name":"program pid 610: every kernel (record --workload on)"}' $TMP/wl-ok.json
check: grep -q '"name":"thread_name","pid":2,"tid":4,"args":{"name":"stream 13: kernels overlapping the one before (1)"}' $TMP/wl-ok.json
check: test "$(grep -c '"cat":"workload' $TMP/wl-ok.json)" = 10
check: test "$(grep -c '"cat":"workload,attention"' $TMP/wl-ok.json)" = 4
not-stderr: error
