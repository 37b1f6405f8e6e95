# check validates metric names for the chip (host API, no GPU)
needs: cuda-build cupti-host
args: check tests/fixtures/specs/bad-metric.yaml
exit: 2
stderr: dram__bogus_metric.sum' is unknown or not supported on chip GH100
