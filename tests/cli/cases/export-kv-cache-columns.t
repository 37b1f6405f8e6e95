# export carries a decode record's KV cache (part of its identity): paged and
# its page size, a ragged batch's distribution and seed; empty for a
# contiguous, equal cache
args: export tests/fixtures/results-paged.yaml --csv
exit: 0
stdout: ,capture.time_source,kv_layout,page_size,kv_dist,kv_seed,
stdout: attnprof,decode-paged,decode,fp16,32,32,8,1,1024,128,false,
stdout: ,paged,16,long-tail,3,
stdout: ,paged,64,,,
