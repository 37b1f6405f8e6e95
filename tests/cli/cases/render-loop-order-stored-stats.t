# the loop-order figure (slides 11) wrote 'write Oᵢ and logsumexp Lᵢ once' under flash1+seqpar,
# which rescales every step and stores m and ℓ, not L (its descriptor's buffers): the line says
# what the variant's descriptor stores; flash2 (a single rescale) still writes L
needs: render
args: figure loop-order experiments/results/ablation.yaml --variant flash1 --compare flash1+seqpar -o $TMP/lo.pdf
exit: 0
file: $TMP/lo.pdf
check: pdftotext $TMP/lo.pdf - | grep -q 'write Oᵢ, mᵢ, ℓᵢ once'
check: ! pdftotext $TMP/lo.pdf - | grep -q 'logsumexp'
check: ./attnprof figure loop-order experiments/results/ablation.yaml --variant flash1 --compare flash2 -o $TMP/lo2.pdf && pdftotext $TMP/lo2.pdf - | grep -q 'write Oᵢ and logsumexp Lᵢ once'
