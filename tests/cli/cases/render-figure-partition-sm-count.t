# sm_count 2147483647 is refused before partition-grid loops over the SMs
needs: render
args: figure partition-grid tests/fixtures/results/bad/sm-count-huge.yaml -o $TMP/sm.svg
exit: 2
stderr: header.gpu.sm_count = 2147483647 is out of range
