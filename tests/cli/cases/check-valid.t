# check prints the sweep and a summary
needs: cupti-host
args: check experiments/fa2-paper.yaml
exit: 0
stdout: valid: 168 configs
stdout: fwd+bwd
stdout: flash2
stdout: 1.25 GiB
