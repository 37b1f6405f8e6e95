# export --trace FILE: a Chrome trace-event file, one slice per record with its kernels inside
args: export tests/fixtures/results-export.yaml --trace $TMP/t.json --variant flash2
exit: 0
file: $TMP/t.json
check: grep -q '"traceEvents":\[' $TMP/t.json
check: grep -q '"ph":"X","cat":"attention","name":"flash2 fwd' $TMP/t.json
check: grep -q '"ph":"M","name":"thread_name"' $TMP/t.json
check: grep -q '"ph":"C","name":"DRAM bytes"' $TMP/t.json
not-stderr: error
