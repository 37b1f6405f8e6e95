# files of different attnprof versions are refused, naming the field
setup: sed 's/tool_version: 0.1.0/tool_version: 0.2.0/' tests/fixtures/shards/tiny.shard-3-of-3.yaml >$TMP/v2.yaml
args: merge tests/fixtures/shards/tiny.shard-1-of-3.yaml $TMP/v2.yaml -o $TMP/all.yaml
exit: 2
stderr: differ in header.tool_version ('0.2.0' against '0.1.0')
