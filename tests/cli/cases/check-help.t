# every command has --help
args: check --help
exit: 0
stdout: usage: attnprof check
