# an invalid --kernel-regex with --shape is refused before the program runs
args: record -o $TMP/x.yaml --kernel-regex '(' --shape 'impl=k B=1 H=1 Nq=8 Nkv=8 d=64' -- true
exit: 2
stderr: --kernel-regex '(' is not a valid extended regular expression
