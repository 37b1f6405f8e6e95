# a --shape that breaks the range grammar is refused before the program runs, naming the problem
args: record -o $TMP/x.yaml --kernel-regex mykernel --shape 'impl=k B=x H=1 Nq=8 Nkv=8 d=64' -- true
exit: 2
stderr: --shape 'impl=k B=x H=1 Nq=8 Nkv=8 d=64':
stderr: e.g. 'impl=mykernel B=4 H=16
