# issue 54: a decode loop replayed from a CUDA graph over a static KV cache
# (experiments/programs/decode_graph.py, 50 steps): with --graphs on the SDPA
# call inside the step's graph is one record over its 50 replays, none
# incomplete
needs: gpu
args: record -o $TMP/d.yaml --graphs on --metrics none --timeout 200 -- python3 experiments/programs/decode_graph.py --steps 50
exit: 0
stdout: checksum
stdout: done
stderr: attention calls captured
check: [ "$(grep -c 'origin: graph-replay$' $TMP/d.yaml)" = 1 ]
check: grep -q 'graph_replays: 50$' $TMP/d.yaml
check: ! grep -q 'graph_replays_incomplete' $TMP/d.yaml
