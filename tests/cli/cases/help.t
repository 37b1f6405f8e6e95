# --help lists every command and the exit codes
args: --help
exit: 0
stdout: record
stdout: export
stdout: 3 no GPU
