# a value listed twice on a sweep axis made duplicate configs (variants:
# [flash2, flash2], seqlen: [256, 256]: 'check' listed each config twice, exit 0);
# refused at its place, also when spelt apart (causal: [false, no], head_dim: [64, 064])
setup: sed 's/^variants: .*/variants: [flash2, standard, "flash2"]/' experiments/smoke.yaml >$TMP/ax-var.yaml
setup: sed 's/^seqlen: .*/seqlen: [256, 1000, 256]/' experiments/smoke.yaml >$TMP/ax-len.yaml
setup: sed 's/^causal: .*/causal: [false, no]/' experiments/smoke.yaml >$TMP/ax-causal.yaml
args: check $TMP/ax-var.yaml
exit: 2
stderr: ax-var.yaml:8:30: variants lists 'flash2' twice: the sweep would measure the same configs twice
check: "$bin" check $TMP/ax-len.yaml 2>$TMP/ax-len.err; test $? = 2 && grep -q "ax-len.yaml:11:.*seqlen lists '256' twice" $TMP/ax-len.err
check: "$bin" check $TMP/ax-causal.yaml 2>$TMP/ax-causal.err; test $? = 2 && grep -q "causal lists false twice ('false' and 'no')" $TMP/ax-causal.err
