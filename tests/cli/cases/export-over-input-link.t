# the same file under another name (a hard link) is refused too: compared by device and inode
setup: cp tests/fixtures/results-small.yaml $TMP/in2.yaml && ln -f $TMP/in2.yaml $TMP/link2.yaml
args: export $TMP/in2.yaml --json -o $TMP/link2.yaml
exit: 2
stderr: refusing to write
check: cmp tests/fixtures/results-small.yaml $TMP/in2.yaml
