# a config base timed that fails in new: listed with its error, and --fail-above exits 1 for it
setup: python3 -c "import sys; s=open(sys.argv[1]).read(); i=s.index('    error: ~'); open(sys.argv[2],'w').write(s[:i]+'    error: \"launch failed\"'+s[i+12:])" tests/fixtures/shards/whole.yaml $TMP/fails.yaml
args: diff tests/fixtures/shards/whole.yaml $TMP/fails.yaml --fail-above 50
exit: 1
stdout: no time (new failed: launch failed)
stdout: 1 without a time (1 timed in base failed in new)
stderr: attnprof/standard/prefill/fp16/B2/H4/Hkv4/Nq256/Nkv256/d64/c0 ran in tests/fixtures/shards/whole.yaml and fails in
