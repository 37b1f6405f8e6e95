# an unknown set is named in the error
args: info --metrics defualt
exit: 2
stderr: unknown metric set 'defualt'
