# info without a GPU exits 3
args: info
exit: 3
