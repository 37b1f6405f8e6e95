# check --shard K/N lists one part of the sweep and its share of the predicted time
args: check tests/fixtures/shards/tiny.yaml --shard 2/3
exit: 0
stdout: shard 2/3: 4 of the sweep's 12 configs, predicted
stdout: valid: 4 configs
