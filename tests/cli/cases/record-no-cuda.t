# without the GPU half: exit 3 and the fix
needs: nocuda-build
args: record experiments/smoke.yaml -o $TMP/r.yaml
exit: 3
stderr: make CUDA=1
