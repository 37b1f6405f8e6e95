# diff: per config base -> new and ratio; a change beyond both spreads counts, one within does not; the configs one file has
args: diff tests/fixtures/shards/whole.yaml tests/fixtures/shards/new.yaml
exit: 0
stdout: attnprof/standard/prefill/fp16/B2/H4/Hkv4/Nq256/Nkv256/d64/c0        0.0122     0.0147   1.200   +20.0%  regression
stdout: 0.700   -30.0%  improvement
stdout: 1.010    +1.0%  within spread
stdout: only in tests/fixtures/shards/whole.yaml (1):
stdout:   attnprof/flash2/prefill/fp16/B2/H4/Hkv4/Nq512/Nkv512/d64/c0
stdout: only in tests/fixtures/shards/new.yaml (1):
stdout: summary: 11 configs in both: 1 regression and 1 improvement beyond the spread, 9 within it; worst regression +20.0 %
