# user replay cannot count the full set's SASS metrics: refused before the GPU is touched
args: record experiments/smoke.yaml -o $TMP/r.yaml --replay user --metrics full
exit: 2
stderr: --replay: user replay reads SASS instruction metrics such as 'smsp__sass_
