# the Hopper rungs take d = 256 (hopper_tiles.h's HOPPER_HEAD_DIMS is their
# descriptors' head-dim trait): check accepts the FA3 paper's d = 256 shapes
needs: cupti-host
args: check tests/fixtures/specs/hopper-d256.yaml
exit: 0
stdout: valid: 8 configs
stdout: hopper+overlap               prefill  fwd     fp16      4     8    8     4096     4096  256    yes
