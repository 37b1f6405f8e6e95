# the range grammar, read back
args: record --parse-range "attnprof: impl=sdpa-flash B=2 H=16 Hkv=4 Nq=1 Nkv=4096 d=128 dtype=bf16 pass=bwd"
exit: 0
stdout: B=2 H=16 Hkv=4 Nq=1 Nkv=4096 d=128 (decode)
stdout: pass:    bwd
