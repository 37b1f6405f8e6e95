# diff --json: one object that json.load reads, with the summary
args: diff tests/fixtures/shards/whole.yaml tests/fixtures/shards/new.yaml --json
exit: 0
stdout: "verdict": "regression"
check: "$bin" diff tests/fixtures/shards/whole.yaml tests/fixtures/shards/new.yaml --json | python3 -c 'import json,sys; d=json.load(sys.stdin); s=d["summary"]; assert (s["regressions"], s["improvements"], s["only_base"], s["only_new"]) == (1, 1, 1, 1), s'
