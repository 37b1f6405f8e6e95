# a bad spec: file:line:col and a suggestion, exit 2
args: check tests/fixtures/specs/bad/unknown-key.yaml
exit: 2
stderr: unknown-key.yaml:5:1: unknown key 'seqlens' in the spec: did you mean 'seqlen'?
