# causal, 64 query rows over 1 cached key: one visible pair per head, 4·B·H·1·d = 4·2·8·128 FLOPs
# (it counted all 64 pairs: 64× the work)
args: model tests/fixtures/specs/model/causal-decode.yaml --json
exit: 0
stdout: "model.flops": 8192,
