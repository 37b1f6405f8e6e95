# the review's "Decode as servers run it" section over paged and ragged decode
# records (a synthetic fixture): the ranges read from the decode-paged table,
# the read-only stream from the header, a ragged row against its equal batch
args: report tests/fixtures/results-paged.yaml -t templates/review.yaml -o $TMP/x.md -q && cat $TMP/x.md
needs: render
exit: 0
stdout: ## 5 Decode as servers run it
stdout: Against the read-only stream (4500 GB/s) that is 91.0 % to 95.0 % contiguous and
stdout: a paged step runs at 0.95× to 0.98× the speed of the contiguous cache of the same problem
stdout: runs at 0.88× to 0.92× the speed of the equal batch
stdout: | paged 16 long-tail | 32 | 32 / 8 | 1 | 1024 | 128.0 MiB |
stdout: | paged 64 | 1 | 32 / 8 | 1 | 65536 | 256.0 MiB |
not-stdout: These results have no read-only stream
