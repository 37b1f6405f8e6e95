# --source that matches no record is an error naming the sources the file has
args: export tests/fixtures/results-small.yaml --json --source nonesuch
exit: 2
stderr: no record of source 'nonesuch' in 'tests/fixtures/results-small.yaml': its sources are attnprof, pytorch-sdpa
