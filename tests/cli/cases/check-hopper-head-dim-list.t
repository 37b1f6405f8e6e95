# a head dim the Hopper rungs do not take is refused at its line with their
# list, HOPPER_HEAD_DIMS (64, 128 and 256), not flash2's
args: check $TMP/h.yaml
setup: printf 'name: t\nvariants: [hopper+wgmma]\nhead_dim: [128, 96]\nseqlen: 512\nheads: 4\n' > $TMP/h.yaml
exit: 2
stderr: h.yaml:3:17: unsupported head_dim 96: hopper+wgmma's kernels are built for 64, 128 and 256
