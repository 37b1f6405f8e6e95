# a ragged batch (kv_dist) on the contiguous kernel is refused: only the paged one takes per-request lengths
args: check tests/fixtures/specs/bad/paged-ragged-contiguous.yaml
exit: 2
stderr: paged-ragged-contiguous.yaml:9:14: a ragged batch (kv_dist long-tail) runs on the paged kernel only, not on 'decode-splitkv'
