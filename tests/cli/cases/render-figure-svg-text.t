# an SVG figure keeps its labels as text in the named font, not glyph outlines:
# the axis title is a <text> element, and Cairo wrote no glyph symbols
needs: render
args: figure tflops tests/fixtures/results-small.yaml -o $TMP/t.svg && cat $TMP/t.svg
exit: 0
stdout: font-family="DejaVu Sans"
stdout: >TFLOP/s</text>
not-stdout: <symbol
not-stdout: id="glyph
check: python3 -c "import xml.dom.minidom,sys; xml.dom.minidom.parse('$TMP/t.svg')"
