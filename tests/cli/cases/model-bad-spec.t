# a bad spec: the spec's own message with file:line:col, exit 2
args: model tests/fixtures/specs/bad/unknown-key.yaml
exit: 2
stderr: unknown-key.yaml:5:1: unknown key 'seqlens'
