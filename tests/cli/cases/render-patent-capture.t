# the patent sheets with a captured program among their inputs: one sheet per captured
# implementation (its data flow with the matrices its traffic shows stored, and the grid of
# its longest kernel), bar graphs of their forward and backward throughput beside the
# conventional and the second tiled computation; the brief description states the verdicts
# and the numeral list names the new parts; the drawings stay numerals only (lint); no
# software name reaches the description or the numerals (the implementations are told
# apart by their place), and no command line
args: report tests/fixtures/results-small.yaml tests/fixtures/capture-small.yaml tests/fixtures/capture-reference.yaml -t templates/patent.yaml -o $TMP/pc.pdf -q && pdftotext $TMP/pc.pdf - | tr '\n' ' '
needs: render
exit: 0
stdout: FIG. 10A is a block diagram of the first attention computation captured in a program, whose measured traffic shows S, P not stored.
stdout: FIG. 11A is a block diagram of the second attention computation captured in a program, whose measured traffic shows S and P stored.
stdout: whose measured traffic shows unknown
stdout: FIG. 14 is a bar graph of measured forward throughput of the captured computations
stdout: FIG. 15 is a bar graph of measured backward throughput of the captured computations
stdout: — longest attention kernel of a captured computation
stdout: — score matrix, its storage not decided by the measured traffic
stdout: — bars of the first captured computation
not-stdout: sdpa
not-stdout: python
stdout: The last drawings show attention computations captured while another program ran
stderr: synthetic test fixture
check: "$bin" lint $TMP/pc.pdf
