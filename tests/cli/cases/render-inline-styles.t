# The model's inline text (doc/inline.h) written by each back end in its own
# terms: bold, italic and code as HTML elements and as Markdown's marks, '&'
# and '<' escaped for each, code spans raw in Markdown (no backslashes), and
# the PDF's text as Pango drew it (the characters, no tags)
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/inline-styles.yaml -o $TMP/i.html -q && cat $TMP/i.html && "$bin" report tests/fixtures/results-small.yaml -t tests/fixtures/templates/inline-styles.yaml -o $TMP/i.md -q && cat $TMP/i.md
exit: 0
stdout: <h1><b>Bold</b> &amp; &lt;angle&gt; title</h1>
stdout: <p><b>a</b> &amp; &lt;b&gt; <i>it</i> <code>c_d</code> snake_case
stdout: <li><code>x &lt; y</code></li>
stdout: alt="Figure 1: grid of Q &amp; K.
stdout: <figcaption><b>Figure 1.</b> grid of <b>Q</b> &amp; K</figcaption>
stdout: # **Bold** &amp; &lt;angle&gt; title
stdout: **a** &amp; &lt;b&gt; _it_ `c_d` snake\_case
stdout: - `x < y`
stdout: **Figure 1.** grid of **Q** &amp; K
check: "$bin" report tests/fixtures/results-small.yaml -t tests/fixtures/templates/inline-styles.yaml -o $TMP/i.pdf -q && pdftotext $TMP/i.pdf - | grep -qF 'a & <b> it c_d snake_case'
check: pdftotext $TMP/i.pdf - | grep -qF 'Bold & <angle> title'
check: ! pdftotext $TMP/i.pdf - | grep -qE '<i>|&amp;|<tt>'
