# a cut inside the header is an error, not an empty file
args: export tests/fixtures/results/cut/in-header.yaml --json
exit: 2
stderr: in-header.yaml: cut short inside its header
