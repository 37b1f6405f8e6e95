# a captured call timed by its kernels' durations (no re-runs: JAX under jit)
# exports its time and TFLOP/s, with capture.time_source saying where it came from
args: export experiments/results/capture/capture-pallas.yaml --csv
exit: 0
stdout: capture,jax-pallas,prefill,fp16,16,16,16,1024,1024,128,true,0.273152,0.273152,0.273152,251.5796
stdout: ,jax-helper,pallas,1,true,0,dram-writes,102258464,57377536,536870912,kernels,
