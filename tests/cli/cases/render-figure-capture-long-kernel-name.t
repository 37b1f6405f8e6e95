# a captured kernel's name of 243 bytes that kernel_short_name cannot shorten (_ZL…) is cut with "…"
# inside its buffer (fit_name wrote past a 160-byte stack buffer: ASan stack-buffer-overflow)
needs: render
args: figure capture-dataflow tests/fixtures/capture/long-kernel-name.yaml tests/fixtures/capture-reference.yaml -o $TMP/cd.pdf
exit: 0
file: $TMP/cd.pdf
check: pdftotext $TMP/cd.pdf - | grep -q '_ZLflash_forward_kernel_with_a.*…'
