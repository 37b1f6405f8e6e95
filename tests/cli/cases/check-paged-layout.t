# a block's kv_layout must agree with the layout each variant reads
args: check tests/fixtures/specs/bad/paged-layout.yaml
exit: 2
stderr: paged-layout.yaml:10:30: variant 'decode-splitkv' reads a contiguous KV cache, not the block's kv_layout paged
