# text cells a spreadsheet would run as formulas (= + @ - tab at the start; names come from other programs)
# are quoted with a leading ': "'=HYPERLINK(...)"; a plain number such as the metric named -3 stays as it is
args: export tests/fixtures/results/formula-cells.yaml --csv
exit: 0
stdout: "'=HYPERLINK(""http://example.invalid"")","'@SUM(1+1)*cmd|' /C calc'!A0",prefill
stdout: "'=2+5",-3,"'+A1",
not-stdout: ,=
not-stdout: ,+A1
stdout: "'+A1","'	T",
