# record checks the spec before touching the GPU
args: record tests/fixtures/specs/bad/head-dim.yaml -o $TMP/r.yaml
exit: 2
stderr: unsupported head_dim 96
