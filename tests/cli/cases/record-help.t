# record --help lists the variants, ablation rungs included
args: record --help
exit: 0
stdout: flash1+seqpar+splitq
stdout: decode-splitkv
stdout: exit status
