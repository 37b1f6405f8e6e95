# a bad families file is refused before the program runs, with its place
args: record --families tests/fixtures/capture/families-bad.yaml -o $TMP/x.yaml -- true
exit: 2
stderr: families-bad.yaml:1:
stderr: role must be fused, gemm, softmax or aux
