# output that cannot be written is a failure, not exit 0 with the table lost
needs: cupti-host
args: check experiments/smoke.yaml > /dev/full
exit: 1
stderr: cannot write to standard output: No space left on device
