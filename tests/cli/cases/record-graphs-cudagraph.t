# issue 54: SDPA captured into a torch.cuda.CUDAGraph and replayed 5 times: with
# --graphs on the in-graph call is one record over its 5 replays, every replay
# attributed (H100 2026-12-07: all 20 'incomplete', no median), the program's
# output unchanged, and --workload on gives attention's share
needs: gpu
args: record -o $TMP/g.yaml --graphs on --workload on --metrics none --timeout 200 -- python3 experiments/programs/cudagraph_sdpa.py
exit: 0
stdout: done
stderr: attention calls captured
stderr: workload:
check: grep -q 'origin: graph-replay' $TMP/g.yaml
check: grep -q 'graph_replays: 5' $TMP/g.yaml
check: ! grep -q 'graph_replays_incomplete' $TMP/g.yaml
check: [ "$(grep -c 'origin: graph-replay$' $TMP/g.yaml)" = 1 ]
check: grep -q 'attention_share:' $TMP/g.yaml
