# a decode record's "% of copy" is of the copy bandwidth measured in its own run (decode.yaml's
# 4210 GB/s), not of the merged header's (fa2-paper.yaml's 4254 GB/s: 4381 GB/s read 103 %
# where it is 104 %), and of its run's read-only stream where that run measured one
# (header.gpu.ceilings.hbm_read_gbs: the column is 'of read roof', the note gives each run's probes)
needs: render
setup: awk '{ print } /^    cupti: / { print "    ceilings:"; print "      hbm_read_gbs: 4600" }' experiments/results/decode.yaml >$TMP/decode.yaml
args: report experiments/results/fa2-paper.yaml experiments/results/decode.yaml -t templates/review.yaml -o $TMP/r.md -q
exit: 0
check: grep -q '^| decode-splitkv | 1 | 32 / 32 | 65536 | 0.245 | 4381 | 104 % | 132 |' $TMP/r.md
check: grep -q 'of copy = that / the device-to-device copy bandwidth measured in the record.s own run (decode.yaml: 4210 GB/s; a copy itself reads and writes)' $TMP/r.md
check: grep -q '4381 GB/s = 104.1 % of the copy bandwidth measured in its run (4210 GB/s)' $TMP/r.md
check: ./attnprof report experiments/results/fa2-paper.yaml $TMP/decode.yaml -t templates/review.yaml -o $TMP/p.md -q 2>/dev/null && grep -q '^| variant | B | H / Hkv | KV length | median ms | HBM GB/s | of read roof |' $TMP/p.md && grep -q '^| decode-splitkv | 1 | 32 / 32 | 65536 | 0.245 | 4381 | 95 % | 132 |' $TMP/p.md && grep -q '(decode.yaml: read 4600 GB/s, copy 4210 GB/s)' $TMP/p.md
