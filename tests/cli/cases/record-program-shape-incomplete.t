# a --shape without the sizes cannot give the calls a shape: refused
args: record -o $TMP/x.yaml --kernel-regex mykernel --shape 'impl=k' -- true
exit: 2
stderr: the shape is incomplete
