# the Hopper backward's descriptor (variants.c, hopper_bwd.h's tiles): the
# main kernel's grid (⌈4096/128⌉ key blocks, B·Hkv = 64) = 2048 blocks;
# 198696 B of shared memory (hopper_bwd.h HOPPER_BWD_WS_SMEM(128)) fit one
# block per SM, so 2048 / 132 SMs is 16 waves with 132·16 − 2048 = 64 SMs
# idle in the last; FLOPs 2.5 × the forward's 549.8 G = 1374.4 G
args: model tests/fixtures/specs/model/hopper-bwd-point.yaml
exit: 0
stdout: hopper+tma+ws              fp16    4  16   16   4096   4096  128 no     1374.4
stdout: 2048   1    16   64
