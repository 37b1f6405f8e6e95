# all records whole but no end marker: still a cut (more records may have followed)
args: export tests/fixtures/results/cut/before-end.yaml --json
exit: 0
stderr: is cut short (no end marker after record 3
