# check prints each split-KV config's split choice (splits, blocks, keys per split), its pages and ragged lengths
needs: cupti-host
args: check experiments/decode-paged.yaml --sms 132
exit: 0
stdout: valid: 68 configs
stdout: decode-paged                 decode   fwd     fp16      1    32    8        1    16384  128     no     64.5 MiB  splits 32 (256 blocks, 512 keys each), pages of 16
stdout: long-tail lengths up to
