# export --csv writes the documented columns
args: export tests/fixtures/results-export.yaml --csv
exit: 0
stdout: source,variant,phase,dtype,batch,heads,kv_heads,seqlen_q,seqlen_kv,head_dim,causal,time_ms,time_ms_min,time_ms_max,tflops,peak_bytes,correct,rel_l2_err,max_abs_err
stdout: alloc.S
stdout: model.flops
