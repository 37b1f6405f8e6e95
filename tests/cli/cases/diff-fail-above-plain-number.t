# --fail-above takes a plain decimal percentage: '0x10' (read as 16), ' 5',
# '5 ' and '+5' were taken; each is refused with exit 2, and 5, 0.5, .5, 1e2 still pass
args: diff tests/fixtures/shards/whole.yaml tests/fixtures/shards/whole.yaml --fail-above 0x10
exit: 2
stderr: --fail-above '0x10' must be a percentage
check: ( for v in ' 5' '5 ' '+5'; do "$bin" diff tests/fixtures/shards/whole.yaml tests/fixtures/shards/whole.yaml --fail-above "$v" >/dev/null 2>&1; test $? = 2 || exit 1; done )
check: ( for v in 5 0.5 .5 1e2; do "$bin" diff tests/fixtures/shards/whole.yaml tests/fixtures/shards/whole.yaml --fail-above "$v" >/dev/null 2>&1 || exit 1; done )
