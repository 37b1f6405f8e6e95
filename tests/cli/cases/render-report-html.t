# the same document model as an HTML page: headings, paragraphs, tables from their rows,
# each figure an SVG file beside the page; well-formed tags
needs: render
args: report tests/fixtures/results-small.yaml -t templates/review.yaml -o $TMP/r.html -q && cat $TMP/r.html
exit: 0
stdout: <h2 id="s1">1 Summary</h2>
stdout: <table id="tab1">
stdout: alt="Figure 1: 
stdout: <li><a href="#fig1">Figure 1</a> 
stdout: <li><a href="#tab1">Table 1</a> 
stdout: <figcaption><b>Figure 1.</b>
stdout: <img src="r_files/fig01-
file: $TMP/r.html
file: $TMP/r_files/fig01-dataflow-compare-standard.svg
check: python3 -c "import sys; from html.parser import HTMLParser; v={'meta','img'}; s=[]; p=HTMLParser(); p.handle_starttag=lambda t,a: t in v or s.append(t); p.handle_endtag=lambda t: s.pop() if s and s[-1]==t else sys.exit('unbalanced </'+t+'>'); p.feed(open('$TMP/r.html').read()); sys.exit(1 if s else 0)"
