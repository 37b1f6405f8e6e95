# a config that cannot fit is refused before any launch
args: check tests/fixtures/specs/too-big.yaml
exit: 2
stderr: more than the 139 GiB available
