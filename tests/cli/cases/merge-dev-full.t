# a merge that cannot be written names the file and the system's reason (it said "cannot write the results (YAML emitter failed: write error)")
args: merge tests/fixtures/shards/whole.yaml -o /dev/full
exit: 1
stderr: cannot write '/dev/full': No space left on device
