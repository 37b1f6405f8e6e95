# --shape names the shape of kernel launches picked by --kernel-regex: alone it is an error
args: record -o $TMP/x.yaml --shape 'impl=k B=1 H=1 Nq=8 Nkv=8 d=64' -- true
exit: 2
stderr: --shape needs --kernel-regex RE
