# a header.workload whose list does not account for every kernel counted is refused at its place, exit 2
setup: sed 's/^  gpu_kernels: 11$/  gpu_kernels: 12/' tests/fixtures/capture-workload.yaml >$TMP/wl-count.yaml
args: export $TMP/wl-count.yaml --trace $TMP/wl.json
exit: 2
stderr: wl-count.yaml:51:5: header.workload keeps 10 kernels and says 1 dropped, but header.gpu_kernels counted 12
check: test ! -e $TMP/wl.json
