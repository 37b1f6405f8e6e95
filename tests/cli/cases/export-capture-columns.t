# export carries a captured call's identity, verdict and counting policy (issue 30)
args: export experiments/results/capture/capture-sdpa.yaml --csv
exit: 0
stdout: ,l2_flushed,kernels,capture.origin,capture.family,capture.call,capture.shape_known,capture.nn_matrices,capture.verdict_rule,capture.l2_write_bytes,capture.dram_write_bytes,capture.nn_bytes,capture.time_source,
stdout: ,python-sdpa,flash-attn-2,0,true,0,
stdout: ,python-sdpa,unfused,
