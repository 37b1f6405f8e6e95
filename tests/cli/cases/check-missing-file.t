# a missing spec says so
args: check no/such/spec.yaml
exit: 2
stderr: cannot open spec 'no/such/spec.yaml'
