# --json prints export's flat rows; golden values by hand (docs/model.md):
# flops 4·4·16·4096²·128 = 2^39; flash2 reads Q+K+V = 3·64 MiB = 201326592 B,
# writes O + L = 65 MiB = 68157440 B; standard moves 8448 MiB = 8858370048 B
args: model tests/fixtures/specs/model/point.yaml --json
exit: 0
stdout: "source": "model", "variant": "flash2", "phase": "prefill", "dtype": "fp16", "batch": 4, "heads": 16, "kv_heads": 16, "seqlen_q": 4096, "seqlen_kv": 4096, "head_dim": 128, "causal": false
stdout: "model.flops": 549755813888
stdout: "model.hbm_read_bytes_min": 201326592, "model.hbm_write_bytes_min": 68157440
stdout: "model.hbm_bytes_min": 8858370048
stdout: "model.blocks": 2048, "model.blocks_per_sm": 2, "model.waves": 8, "model.idle_sms_last_wave": 0
