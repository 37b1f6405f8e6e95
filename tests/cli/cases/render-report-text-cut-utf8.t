# a 6000-byte value in text is cut at a character and marked "…" (it was cut at 4095 bytes inside a
# character: the PDF paragraph vanished, the HTML had invalid UTF-8)
needs: render
args: report tests/fixtures/results/gpu-name-long.yaml -t tests/fixtures/templates/gpu-name.yaml -o $TMP/g.html -q
exit: 0
check: python3 -c "import sys; t = open(sys.argv[1], 'rb').read().decode('utf-8'); sys.exit(0 if 'éé….' in t else 1)" $TMP/g.html
