# info without a GPU exits 3
needs: no-gpu
args: info
exit: 3
