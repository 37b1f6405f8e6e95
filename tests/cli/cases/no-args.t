# no command is a usage error
args:
exit: 2
stderr: usage: attnprof
