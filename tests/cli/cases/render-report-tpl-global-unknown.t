# an unknown global value: its place, a did-you-mean and every global (globals.c's rows, first to last)
needs: render
args: report tests/fixtures/results-small.yaml -t tests/fixtures/templates/global-unknown.yaml -o $TMP/t.pdf -q
exit: 2
stderr: tests/fixtures/templates/global-unknown.yaml:8:
stderr: unknown value 'gpu.sm_cout': did you mean 'gpu.sm_count'? (docs/templates.md, "Globals": gpu.name chip cc
stderr: ; run.date days
stderr: ; focus.N d causal; program.command record date host notes ran timing_fwd timing_bwd how attention_share amdahl_2x)
