# diff --csv: a row per config, the configs one file has too
args: diff tests/fixtures/shards/whole.yaml tests/fixtures/shards/new.yaml --csv
exit: 0
stdout: identity,source,variant,phase,pass,dtype,batch,heads,kv_heads,seqlen_q,seqlen_kv,head_dim,causal,base_ms,
stdout: ,true,regression
stdout: ,false,only-base
stdout: ,false,only-new
check: [ $("$bin" diff tests/fixtures/shards/whole.yaml tests/fixtures/shards/new.yaml --csv | wc -l) = 14 ]
