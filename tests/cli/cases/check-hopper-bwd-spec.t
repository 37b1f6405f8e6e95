# experiments/hopper-bwd.yaml: flash2 and the Hopper backward, bwd and
# fwd+bwd, 5 lengths x causal or not x (fp16 d 64, 128; bf16 d 128) =
# 2 x 2 x 5 x 2 x 3 = 120 configs
needs: cupti-host
args: check experiments/hopper-bwd.yaml
exit: 0
stdout: valid: 120 configs
stdout: hopper+tma+ws                prefill  fwd+bwd
