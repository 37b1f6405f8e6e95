# the slides' paged-decode slide (has:paged, a synthetic fixture): contiguous
# against paged, the block table's share, q = 4 and ragged batches, read from
# the decode-paged table; the decode slide states split-KV against the
# read-only stream where its run measured one, the copy otherwise
args: report tests/fixtures/results-paged.yaml -t templates/slides.yaml -o $TMP/x.md -q && cat $TMP/x.md
needs: render
exit: 0
stdout: ## Paged decode: pages of 16 run at 0.95× to 0.98× the speed of the contiguous cache
stdout: - Read-only stream (4500 GB/s): contiguous 91.0 % to 95.0 %, pages of 16 86.5 % to 93.1 %
stdout: - The block table: at most 0.049 % of the bytes a step reads
stdout: - Four query rows a step (q = 4): pages of 16 at 0.98× to 0.98× the contiguous speed
stdout: - Ragged (long-tail) batches: 0.88× to 0.92× the speed of the equal batch
