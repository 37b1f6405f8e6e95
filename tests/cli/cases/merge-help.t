# merge --help names the rule
args: merge --help
exit: 0
stdout: usage: attnprof merge RESULTS... -o OUT.yaml
stdout: the newer wins
