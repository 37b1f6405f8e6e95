# record -- CMD refuses to overwrite results
needs: cuda-build
args: record -o tests/fixtures/results-small.yaml -- true
exit: 2
stderr: exists: use --force
