# diff --csv guards formula cells as export does (one function): =HYPERLINK(...) was written unguarded
args: diff tests/fixtures/results/formula-cells.yaml tests/fixtures/results/formula-cells.yaml --csv
exit: 0
stdout: ,"'=HYPERLINK(""http://example.invalid"")","'@SUM(1+1)*cmd|' /C calc'!A0",prefill,
not-stdout: ,"=HYPERLINK
