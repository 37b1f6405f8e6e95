# a spec that does not exist: exit 2, the path quoted
args: model tests/fixtures/specs/model/no-such.yaml
exit: 2
stderr: no-such.yaml
