# the Hopper rungs' forward takes d = 256, their backward (hopper_bwd.h's
# HOPPER_BWD_HEAD_DIMS, the backward descriptor's trait) only 64 and 128:
# a bwd sweep at 256 is refused at its pass line, naming the backward's list
args: check $TMP/h.yaml
setup: printf 'name: t\nvariants: [hopper+tma+ws]\nhead_dim: 256\nseqlen: 512\nheads: 4\npass: bwd\n' > $TMP/h.yaml
exit: 2
stderr: h.yaml:6:7: unsupported head_dim 256 for pass bwd: hopper+tma+ws's backward (hopper-bwd+tma+ws) is built for 64 and 128
