# tools/workload_trace_check.py (gpu-run.sh workloadtrace): PASS when the trace's workload kernels + dropped
# equal header.gpu_kernels (the hand-written fixture), FAIL for a file of totals only (recorded before the list)
args: export tests/fixtures/capture-workload.yaml --trace $TMP/wtc.json
exit: 0
check: python3 tools/workload_trace_check.py tests/fixtures/capture-workload.yaml $TMP/wtc.json | grep -q '^PASS workloadtrace: 10 workload kernels in the trace (4 of attention calls) + 1 dropped vs gpu_kernels 11'
check: $bin export experiments/results/h100-2026-12-07/gc-sdpa-default.yaml --trace $TMP/wtc-old.json
check: ! python3 tools/workload_trace_check.py experiments/results/h100-2026-12-07/gc-sdpa-default.yaml $TMP/wtc-old.json
check: python3 tools/workload_trace_check.py experiments/results/h100-2026-12-07/gc-sdpa-default.yaml $TMP/wtc-old.json | grep -q '^FAIL workloadtrace: 0 workload kernels .* 0 + 0 dropped is not gpu_kernels 69'
