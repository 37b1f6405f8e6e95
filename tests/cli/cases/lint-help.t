# lint --help gives the finding format and the profiles
args: lint --help
exit: 0
stdout: usage: attnprof lint FILE.pdf...
stdout: FILE:PAGE:X,Y: WHAT
stdout: patent
