# the table at the hand-computed point (B=4 H=16 N=4096 d=128 fp16):
# flash2 needs Q+K+V+O+L = 257 MiB of HBM traffic, 2048 blocks, 2 per SM, 8 waves;
# standard 8448 MiB = 8.25 GiB; and the peaks are labelled as defaults
args: model tests/fixtures/specs/model/point.yaml
exit: 0
stdout: flash2                     fp16    4  16   16   4096   4096  128 no      549.8     257 MiB    4.13 GiB     257 MiB    2048   2     8    0
stdout: standard                   fp16    4  16   16   4096   4096  128 no      549.8    8.25 GiB
stdout: (H200 datasheet defaults, not measured)
