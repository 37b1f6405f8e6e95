# a program that never touches CUDA: nothing captured, said plainly
needs: cuda-build
args: record -o $TMP/x.yaml -- true
exit: 1
stderr: without loading the injection library
